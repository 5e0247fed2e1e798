"""How many of biber's data model warnings ``refbridge check --dialect biblatex`` also gives,
on the real .bib libraries of TeX Live.

    .venv/bin/python benchmarks/check_vs_biber.py [FILE.bib ...]

Without arguments it takes every .bib under /usr/share/texlive/texmf-dist/bibtex/bib. For each
file it runs ``biber --tool --validate-datamodel`` (in a temporary directory) and the check,
maps biber's warnings to rule ids (``refbridge.check.biber``) and counts the (rule, key) pairs
of biber that the check gives too; the pairs it misses are printed.
"""

from __future__ import annotations

import glob
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from refbridge.check import CheckOptions, check_files
from refbridge.check.biber import biber_findings
from refbridge.errors import Diagnostics, RefbridgeError

TEXLIVE_BIBS = "/usr/share/texlive/texmf-dist/bibtex/bib/**/*.bib"


def compare(path: str) -> tuple[int, int, list[tuple[str, str]]]:
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / Path(path).name
        shutil.copy(path, copy)
        run = subprocess.run(["biber", "--tool", "--validate-datamodel", "--nolog",
                              "--output-directory", work, str(copy)],
                             capture_output=True, text=True, errors="replace", cwd=work,
                             check=False)
    theirs = set(biber_findings(run.stdout + run.stderr))
    options = CheckOptions.of(("biblatex",), "biblatex")
    ours = {(f.code, f.key or "") for f in check_files([path], Diagnostics(), options=options)}
    missed = sorted(theirs - ours)
    return len(theirs), len(theirs) - len(missed), missed


def main(paths: list[str]) -> None:
    if shutil.which("biber") is None:
        sys.exit("biber is not installed")
    total = found = 0
    for path in paths or sorted(glob.glob(TEXLIVE_BIBS, recursive=True)):
        try:
            theirs, ours, missed = compare(path)
        except (OSError, RefbridgeError) as exc:  # a file one cannot read: say so, go on
            print(f"{path}: skipped ({exc})")
            continue
        total += theirs
        found += ours
        for rule, key in missed[:5]:
            print(f"{path}: missed {rule} {key}")
    share = f"{100 * found / total:.1f}%" if total else "-"
    print(f"biber warnings: {total}; also given by check: {found} ({share})")


if __name__ == "__main__":
    main(sys.argv[1:])
