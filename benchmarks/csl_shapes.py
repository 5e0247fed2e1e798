"""Item shapes for the CSL parity harness: CSL-JSON items drawn at random from the shapes real
libraries hold, to measure parity beyond one fixed library.

    python benchmarks/csl_shapes.py --seed S --items 40 > shapes.json
    python benchmarks/csl_parity.py --items shapes.json --styles 20 --seed T

Each item combines, at random, one choice of each axis: type (journal article to legal case,
software, dataset), creators (none, persons, an institution, particles, CJK and right-to-left
names), date (none, parts, raw, ranges, seasons, circa, BC, literal), title (none, plain, nested
quotes, markup), container (none or one) and numbers (zero-padded, roman, ranges); about a
quarter are items of the official CSL test suite (``../shared/csl-test-suite``) when present.
Writes only invented values; never reads or changes the parity library.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT.parent / "shared" / "csl-test-suite" / "processor-tests" / "humans"
_INPUT = re.compile(r">>=+ INPUT =+>>\s*(.*?)\s*<<=+ INPUT =+<<", re.DOTALL)

TYPES = ("article-journal", "book", "chapter", "report", "thesis", "paper-conference",
         "legal_case", "legislation", "software", "dataset", "webpage", "manuscript",
         "article-newspaper", "motion_picture", "patent", "entry-encyclopedia")
CREATORS: dict[str, list[dict[str, Any]]] = {
    "none": [],
    "person": [{"family": "Lindqvist", "given": "Maja"}],
    "persons": [{"family": "Okafor", "given": "Chidi"}, {"family": "Brandt", "given": "Hanna M."},
                {"family": "Sato", "given": "Ren"}],
    "institution": [{"literal": "World Meteorological Organization"}],
    "institution and person": [{"literal": "Stadtarchiv Köln"}, {"family": "Vogel", "given": "Eva"}],
    "dropping particle": [{"family": "Beethoven", "given": "Ludwig", "dropping-particle": "van"}],
    "non-dropping particle": [{"family": "Gogh", "given": "Vincent", "non-dropping-particle": "van"},
                              {"family": "La Fontaine", "given": "Jean", "non-dropping-particle": "de"}],
    "particle in family": [{"family": "von Humboldt", "given": "Alexander"}],
    "suffix": [{"family": "King", "given": "Martin Luther", "suffix": "Jr."}],
    "cjk": [{"family": "王", "given": "小明"}, {"family": "田中", "given": "花子"}],
    "right-to-left": [{"family": "حداد", "given": "ليلى"}, {"family": "כהן", "given": "דוד"}],
    "mononym": [{"literal": "Aristotle"}],
}
DATES: dict[str, dict[str, Any] | None] = {
    "none": None,
    "year": {"date-parts": [[2011]]},
    "full": {"date-parts": [[2019, 3, 7]]},
    "month": {"date-parts": [[1987, 11]]},
    "raw": {"raw": "June 1, 2001"},
    "raw range": {"raw": "1999-2001"},
    "range": {"date-parts": [[1999], [2001]]},
    "month range": {"date-parts": [[2004, 3], [2004, 5]]},
    "season": {"date-parts": [[2015]], "season": 2},
    "season raw": {"raw": "Spring 1999"},
    "circa": {"date-parts": [[1900]], "circa": True},
    "raw circa": {"raw": "circa 1900"},
    "bc": {"date-parts": [[-44]]},
    "raw bc": {"raw": "44 BC"},
    "literal": {"literal": "n.d. (before 1950)"},
}
TITLES: dict[str, str | None] = {
    "none": None,
    "plain": "Tidal patterns of the northern shelf",
    "nested single": "From ‘Blau Space’ to colour: a study",
    "nested double": 'The "open" archive and its readers',
    "ascii single": "Reading 'Blue Space' again",
    "markup": "Growth of <i>Escherichia coli</i> in brine",
    "german": "Über die Farbenlehre der Küstenmaler",
    "question": "Who reads footnotes?",
}
CONTAINERS = ("Journal of Coastal Studies", "Zeitschrift für Kunstgeschichte",
              "Revue d’histoire moderne", "Anales de Historia", None, None)
NUMBERS: dict[str, dict[str, str]] = {
    "none": {},
    "plain": {"volume": "12", "issue": "3", "page": "101-118"},
    "zero-padded": {"volume": "07", "issue": "08", "page": "0012-0015"},
    "roman": {"volume": "IV", "issue": "xii", "page": "xii-xv"},
    "ranges": {"volume": "3-4", "issue": "1/2", "page": "5, 9-11"},
    "edition": {"edition": "2", "number-of-pages": "345"},
    "edition words": {"edition": "2nd rev.", "number": "A-17"},
}


def invented(rng: random.Random, number: int) -> dict[str, Any]:
    """One item of random shape."""
    item_type = rng.choice(TYPES)
    item: dict[str, Any] = {"id": f"shape{number}", "type": item_type}
    creators = CREATORS[rng.choice(list(CREATORS))]
    if creators:
        item["author"] = creators
    for axis, table in (("issued", DATES), ("title", TITLES)):
        value = table[rng.choice(list(table))]
        if value is not None:
            item[axis] = value
    container = rng.choice(CONTAINERS)
    if container:
        item["container-title"] = container
    item.update(NUMBERS[rng.choice(list(NUMBERS))])
    if rng.random() < 0.5:
        item["publisher"], item["publisher-place"] = rng.choice(
            [("Éditions du Seuil", "Paris"), ("Beck", "München"), ("MIT Press", "Cambridge, MA")])
    if item_type in ("legal_case", "legislation"):
        item["authority"] = "Supreme Court"
    if item_type in ("software", "dataset"):
        item["version"] = "1.4.0"
        item["URL"] = "https://example.org/archive/1234"
    return item


def suite_items() -> list[dict[str, Any]]:
    """The items of the official test suite's fixtures (empty when the suite is absent)."""
    items = []
    for path in sorted(SUITE.glob("*.txt")) if SUITE.is_dir() else []:
        found = _INPUT.search(path.read_text(encoding="utf-8"))
        try:
            data = json.loads(found.group(1)) if found else []
        except json.JSONDecodeError:
            continue
        for n, item in enumerate(data if isinstance(data, list) else []):
            if isinstance(item, dict) and item.get("type"):
                items.append({**item, "id": f"{path.stem}-{n}"})
    return items


def draw_items(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` items: about a quarter from the test suite, the others invented shapes."""
    rng = random.Random(seed)
    suite = suite_items()
    taken = rng.sample(suite, min(len(suite), count // 4))
    return taken + [invented(rng, n) for n in range(count - len(taken))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--items", type=int, default=40, help="how many items (default 40)")
    arguments = parser.parse_args(argv)
    json.dump(draw_items(arguments.items, arguments.seed), sys.stdout, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
