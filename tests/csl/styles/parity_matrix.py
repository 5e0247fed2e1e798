"""Print the CSL parity matrix: per item (rows) and style (columns), whether refbridge's engine
renders the bibliography entry (text and HTML) and the citation exactly like citeproc-js.

    python tests/csl/styles/parity_matrix.py [--details FILE]

Cells: ``ok``; ``b`` bibliography differs, ``c`` citation differs (``t``/``h`` for text/HTML
only); ``E`` the engine raised. ``--details`` writes every difference (expected vs got).
Items are named by the engine's bibliography order matched to citeproc-js's by position.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import ROOT, STYLES, item_sets, items, reference

SHORT = {"apa": "apa", "ieee": "ieee", "chicago-author-date": "chic", "nature": "natu",
         "modern-language-association": "mla", "harvard-cite-them-right": "harv",
         "vancouver": "vanc", "nlm-citation-sequence": "nlm",
         "association-for-computing-machinery": "acm"}


def compare(style: str, set_name: str, details: list[str]) -> dict[str, str]:
    """item id -> cell for one style and item set."""
    from refbridge.csl import CslStyle, make_processor

    marks: dict[str, set[str]] = {str(item["id"]): set() for item in items(set_name)}
    for output in ("text", "html"):
        expected = reference(style, set_name, output)
        try:
            processor = make_processor(
                CslStyle.from_path(ROOT.parent / "shared" / "csl" / f"{style}.csl"),
                [dict(item) for item in items(set_name)], output=output, links=False)
            ids, entries = processor.bibliography_ids(), processor.bibliography()
            citations = {i: processor.cite([{"id": i}]) for i in marks}
        except Exception:  # noqa: BLE001  the matrix covers every style even when one crashes
            details.append(f"## {style} {set_name} {output}: engine error\n"
                           f"{traceback.format_exc()}")
            return {item_id: "E" for item_id in marks}
        for index, want in enumerate(expected.entries):
            item_id = ids[index] if index < len(ids) else str(index)
            got = entries[index].strip() if index < len(entries) else "<missing>"
            if got != want:
                marks.setdefault(item_id, set()).add("b" + output[0])
                details.append(f"## {style} {set_name} {output} entry {index + 1} ({item_id})\n"
                               f"expected: {want}\ngot:      {got}\n")
        for item_id, want in expected.citations.items():
            if citations[item_id] != want:
                marks[item_id].add("c" + output[0])
                details.append(f"## {style} {set_name} {output} citation {item_id}\n"
                               f"expected: {want}\ngot:      {citations[item_id]}\n")
    return {item_id: _cell(found) for item_id, found in marks.items()}


def _cell(marks: set[str]) -> str:
    if not marks:
        return "ok"
    return "".join(kind if {kind + "t", kind + "h"} <= marks else
                   "".join(m for m in sorted(marks) if m[0] == kind)
                   for kind in "bc" if any(m[0] == kind for m in marks))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", type=Path, help="write every difference to this file")
    args = parser.parse_args()
    details: list[str] = []
    print("item".ljust(34) + " ".join(SHORT[s].ljust(5) for s in STYLES))
    totals = {"ok": 0, "all": 0}
    for set_name in item_sets():
        columns = {style: compare(style, set_name, details) for style in STYLES}
        print(f"[{set_name}]")
        for item in items(set_name):
            cells = [columns[style].get(str(item["id"]), "?") for style in STYLES]
            totals["ok"] += cells.count("ok")
            totals["all"] += len(cells)
            print(str(item["id"])[:33].ljust(34) + " ".join(c.ljust(5) for c in cells))
    print(f"{totals['ok']} of {totals['all']} style x item cells identical to citeproc-js")
    if args.details:
        args.details.write_text("\n".join(details), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
