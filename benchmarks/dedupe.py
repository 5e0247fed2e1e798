"""How well ``refbridge dedupe`` tells the same work recorded twice from two works:
``python benchmarks/dedupe.py``.

Reads the libraries of TeX Live that ``dedupe_labels.json`` names (found with ``kpsewhich``;
the script says so and stops when TeX Live does not have them), runs the matching of
``refbridge.dedupe.matching`` over all of them together, and compares the groups it finds with
the labelled pairs (entries named by library file and key): precision (of the labelled pairs
it puts in one group, how many are one work) and recall (of the labelled pairs that are one
work, how many it puts in one group), overall, per sample and for the pairs without a DOI.
Most labelled pairs that are one work were sampled from what the matching merged, so the
overall recall flatters it; the ``*-unmerged`` samples (pairs it left apart among close
candidates) say what it misses. This is a measuring tool: it asserts nothing, and the tests never run it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from refbridge.dedupe.matching import duplicate_groups
from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import read_records

LABELS = Path(__file__).resolve().parent / "dedupe_labels.json"


def _library(name: str) -> str | None:
    if shutil.which("kpsewhich") is None:
        return None
    found = subprocess.run(["kpsewhich", name], capture_output=True, text=True,
                           check=False).stdout.strip()
    return found or None


def _ratio(good: int, total: int) -> str:
    return f"{good}/{total} = {100 * good / total:.1f}%" if total else "n/a"


def main() -> int:
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    paths = {name: _library(name) for name in labels["libraries"]}
    missing = [name for name, path in paths.items() if path is None]
    if missing:
        print(f"dedupe benchmark: TeX Live does not have {', '.join(missing)}; nothing measured")
        return 0
    records: list[Record] = []
    where: dict[str, int] = {}
    for name, path in paths.items():
        for record in read_records([str(path)], Diagnostics()):
            where.setdefault(f"{name}:{record.citation_key}", len(records))
            records.append(record)
    group_of: dict[int, int] = {}
    for number, (members, _) in enumerate(duplicate_groups(records)):
        group_of.update(dict.fromkeys(members, number))
    counts: Counter[tuple[str, str]] = Counter()
    for pair in labels["pairs"]:
        a, b = where[pair["a"]], where[pair["b"]]
        merged = a in group_of and group_of.get(a) == group_of.get(b)
        kind = {(True, True): "found", (True, False): "missed", (False, True): "wrong",
                (False, False): "kept apart"}[(pair["same"], merged)]
        no_doi = not (records[a].get("DOI") or records[b].get("DOI"))
        for scope in ("all", pair["sample"], *(("without a DOI",) if no_doi else ())):
            counts[(scope, kind)] += 1
    print(f"dedupe benchmark: {len(records)} entries of {len(paths)} TeX Live libraries, "
          f"{len(labels['pairs'])} labelled pairs")
    for scope in dict.fromkeys(scope for scope, _ in counts):
        found, wrong, missed, apart = (counts[(scope, kind)] for kind in
                                       ("found", "wrong", "missed", "kept apart"))
        print(f"  {scope}: precision {_ratio(found, found + wrong)}, recall "
              f"{_ratio(found, found + missed)} ({found + wrong + missed + apart} pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
