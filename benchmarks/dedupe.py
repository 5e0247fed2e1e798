"""How well ``refbridge dedupe`` tells the same work recorded twice from two works:
``python benchmarks/dedupe.py [--mirrors DIR]``.

Two sets of labelled pairs (entries named by library and key), each measured on its own:

- ``dedupe_labels.json``: pairs of the libraries of TeX Live it names (found with
  ``kpsewhich``; skipped, with a message, when TeX Live does not have them). Most of its pairs
  that are one work were sampled from what the matching merged, so its recall flatters; the
  ``*-unmerged`` samples (pairs it left apart among close candidates) say what it misses.
- ``dedupe_labels_git.json``: pairs of real libraries kept in public git repositories, drawn
  independently of refbridge's verdict (same DOI; same first author, year and close title by
  a plain ``difflib`` ratio; the same with years 1 to 3 apart), each with the reason of its
  label. The libraries are read at run time from the commit each names, in a directory of git
  mirrors (``--mirrors DIR``: ``DIR/owner+name/repo`` a bare or non-bare clone); none of their
  text is kept here.

The matching of ``refbridge.dedupe.matching`` runs over each set's libraries (the TeX Live ones
together, each git library alone), and its groups are compared with the labels: precision (of
the labelled pairs it puts in one group, how many are one work) and recall (of the labelled
pairs that are one work, how many it puts in one group), overall, per sample, for the pairs
with and without a DOI, and for the held-out samples (labelled after the matching was last
changed) apart from the others, all together and round by round (each with and without a
DOI), with counts. ``--show``
lists the pairs it gets wrong. This is a measuring tool:
it asserts nothing, and the tests never run it.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from refbridge.dedupe.matching import duplicate_groups
from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import read_records, read_stream

HERE = Path(__file__).resolve().parent
TEX_LIVE_LABELS = HERE / "dedupe_labels.json"
GIT_LABELS = HERE / "dedupe_labels_git.json"


def _library(name: str) -> str | None:
    if shutil.which("kpsewhich") is None:
        return None
    found = subprocess.run(["kpsewhich", name], capture_output=True, text=True,
                           check=False).stdout.strip()
    return found or None


def _git_dir(mirrors: Path, repository: str) -> Path | None:
    for candidate in (mirrors / repository / "repo" / ".git", mirrors / repository / "repo",
                      mirrors / repository):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def _git_text(git_dir: Path, commit: str, paths: Iterable[str]) -> str | None:
    """The files at ``commit`` as one text, in order (as bibtex reads its @string files
    first), or None when the mirror lacks one."""
    parts = []
    for path in paths:
        shown = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                               capture_output=True, check=False)
        if shown.returncode:
            return None
        parts.append(shown.stdout.decode("utf-8", "surrogateescape") + "\n")
    return "".join(parts)


def _ratio(good: int, total: int) -> str:
    return f"{good}/{total} = {100 * good / total:.1f}%" if total else "n/a"


def _grouped(records: list[Record], offset: int, group_of: dict[int, int]) -> None:
    """File the duplicate groups of ``records`` (positions from ``offset``) in ``group_of``."""
    for members, _ in duplicate_groups(records):
        group_of.update(dict.fromkeys((offset + m for m in members), offset + members[0]))


def _report(title: str, pairs: list[dict[str, object]], records: list[Record],
            where: dict[str, int], group_of: dict[int, int], show: int) -> None:
    counts: Counter[tuple[str, str]] = Counter()
    wrong: list[str] = []
    for pair in pairs:
        a, b = where[str(pair["a"])], where[str(pair["b"])]
        merged = a in group_of and group_of.get(a) == group_of.get(b)
        kind = {(True, True): "found", (True, False): "missed", (False, True): "wrong",
                (False, False): "kept apart"}[(bool(pair["same"]), merged)]
        no_doi = not (records[a].get("DOI") or records[b].get("DOI"))
        sample = str(pair["sample"])
        held_out = sample.startswith("held-out")
        scopes = ["all", sample, "with a DOI" if not no_doi else "without a DOI",
                  "held out (all held-out samples)" if held_out
                  else "the samples the matching was changed with"]
        if held_out:  # each round of held-out samples (``held-out-2-*``: the second) alone,
            # and its pairs with and without a DOI
            round_ = "held-out round " + (sample.split("-")[2] if sample[9:10].isdigit()
                                          else "1")
            scopes += [round_, f"{round_}, {scopes[2]}"]
        for scope in scopes:
            counts[(scope, kind)] += 1
        if kind in ("missed", "wrong"):
            wrong.append(f"    {kind}: {pair['a']} | {pair['b']} ({pair.get('reason', '')})")
    print(title)
    for scope in dict.fromkeys(scope for scope, _ in counts):
        found, merged_wrongly, missed, apart = (counts[(scope, kind)] for kind in
                                                ("found", "wrong", "missed", "kept apart"))
        print(f"  {scope}: precision {_ratio(found, found + merged_wrongly)}, recall "
              f"{_ratio(found, found + missed)} ({found + merged_wrongly + missed + apart} "
              f"pairs: {found + missed} one work, {merged_wrongly + apart} two)")
    for line in wrong[:show]:
        print(line)


def tex_live(show: int) -> None:
    labels = json.loads(TEX_LIVE_LABELS.read_text(encoding="utf-8"))
    paths = {name: _library(name) for name in labels["libraries"]}
    missing = [name for name, path in paths.items() if path is None]
    if missing:
        print(f"TeX Live labels: TeX Live does not have {', '.join(missing)}; nothing measured")
        return
    records: list[Record] = []
    where: dict[str, int] = {}
    for name, path in paths.items():
        for record in read_records([str(path)], Diagnostics()):
            where.setdefault(f"{name}:{record.citation_key}", len(records))
            records.append(record)
    group_of: dict[int, int] = {}
    _grouped(records, 0, group_of)
    _report(f"TeX Live labels: {len(records)} entries of {len(paths)} libraries, "
            f"{len(labels['pairs'])} labelled pairs", labels["pairs"], records, where,
            group_of, show)


def git_libraries(mirrors: Path | None, show: int) -> None:
    labels = json.loads(GIT_LABELS.read_text(encoding="utf-8"))
    if mirrors is None:
        print("git library labels: no --mirrors DIR given; nothing measured")
        return
    records: list[Record] = []
    where: dict[str, int] = {}
    group_of: dict[int, int] = {}
    for name, library in labels["libraries"].items():
        git_dir = _git_dir(mirrors, library["repository"])
        text = None if git_dir is None else _git_text(git_dir, library["commit"],
                                                      library["paths"])
        if text is None:
            print(f"git library labels: {mirrors} lacks {library['repository']} at "
                  f"{library['commit'][:10]}; nothing measured")
            return
        offset = len(records)
        read = list(read_stream(io.StringIO(text), text, library["paths"][-1], Diagnostics()))
        for number, record in enumerate(read):
            where.setdefault(f"{name}:{record.citation_key}", offset + number)
        records.extend(read)
        _grouped(read, offset, group_of)
    _report(f"git library labels: {len(records)} entries of {len(labels['libraries'])} "
            f"libraries, {len(labels['pairs'])} labelled pairs", labels["pairs"], records,
            where, group_of, show)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, metavar="DIR",
                        help="directory of git mirrors: DIR/owner+name/repo")
    parser.add_argument("--show", type=int, default=0, metavar="N",
                        help="list the first N pairs of each set it gets wrong")
    arguments = parser.parse_args()
    tex_live(arguments.show)
    git_libraries(arguments.mirrors, arguments.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
