"""Measure refbridge on inputs at the limits: time and peak memory of ``refbridge convert``.

    python tests/fuzz/limits.py [CASE...]      cases: field, records, gigabyte (default: all)

``field``: one .bib field of 50 MB; ``records``: a million tiny .bib entries; ``gigabyte``: a
1 GB .bib of 200,000 entries with 5 KB abstracts. Each is written to a temporary folder and
converted to CSL-JSON in a fresh process; the script prints seconds, the peak resident memory of
that process and its exit status.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

REFBRIDGE = [sys.executable, "-m", "refbridge"]
ABSTRACT = ("We measure how a streaming reader behaves on a very large library. " * 75)[:5000]


def long_field(out: TextIO) -> None:
    out.write("@article{long, title = {")
    out.writelines("word " * 209_715 for _ in range(50))
    out.write("}}\n")


def tiny_records(out: TextIO) -> None:
    out.writelines(f"@misc{{k{index}, title = {{T{index}}}, year = 2020}}\n" for index in range(1_000_000))


def gigabyte(out: TextIO) -> None:
    out.writelines(f"@article{{k{index},\n  author = {{Doe, Jane and Roe, Richard}},\n"
                  f"  title = {{Record {index}}},\n  journal = {{J}},\n  year = 2020,\n"
                  f"  abstract = {{{ABSTRACT}}}\n}}\n\n" for index in range(200_000))


CASES: dict[str, Callable[[TextIO], None]] = {
    "field": long_field, "records": tiny_records, "gigabyte": gigabyte}


def measure(name: str, folder: Path) -> None:
    source = folder / f"{name}.bib"
    with source.open("w", encoding="utf-8") as out:
        CASES[name](out)
    start = time.perf_counter()
    with open(folder / "stderr.txt", "w") as errors:
        child = subprocess.Popen([*REFBRIDGE, "convert", str(source), "--to", "csl-json",
                                  "-o", str(folder / "out.json")], stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    print(f"{name}: {source.stat().st_size / 1e6:.0f} MB in {seconds:.0f} s, peak memory "
          f"{usage.ru_maxrss / 1024:.0f} MB, exit {os.waitstatus_to_exitcode(status)}, "
          f"{(folder / 'stderr.txt').read_text()[:300]!r}", flush=True)
    source.unlink()


def main(names: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name in names or list(CASES):
            measure(name, Path(folder))


if __name__ == "__main__":
    main(sys.argv[1:])
