"""How fast refbridge reads a large ``zotero.sqlite``: items per second and peak memory.

Builds (once, in a temporary directory) a database the way Zotero does, from Zotero's schema in
``../shared`` (``tests/zotero_db_support.py``), with ``--items`` items (40,000 by default):
journal articles, books, chapters, conference papers, theses and reports with one to six
authors, tags, collections, child notes on one item in ten and a PDF on one in three. Then,
each in a fresh process: the item JSON alone (what ``sync`` reads), the records
(``pull``/``convert``), and ``refbridge pull --from zotero-sqlite:... --to bibtex``.

    .venv/bin/python benchmarks/zotero_sqlite.py [--items N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
TYPES = [("journalArticle", 60, "publicationTitle"), ("book", 12, "publisher"),
         ("bookSection", 10, "bookTitle"), ("conferencePaper", 10, "proceedingsTitle"),
         ("thesis", 4, "university"), ("report", 4, "institution")]
FAMILIES = ["Lovelace", "Babbage", "Noether", "Dvořák", "Gödel", "Turing", "Hopper", "Ramanujan",
            "Curie", "Meitner", "Shannon", "Knuth", "Lamport", "Liskov", "Hamilton", "Wu"]
GIVENS = ["Ada", "Charles", "Emmy", "Antonín", "Kurt", "Alan", "Grace", "Srinivasa", "Marie",
          "Lise", "Claude", "Donald", "Leslie", "Barbara", "Margaret", "Chien-Shiung"]
WORDS = ["graphs", "engines", "lattices", "proofs", "compilers", "caches", "networks", "über",
         "die", "théorie", "of", "the", "analysis", "systems", "learning", "quantum", "elliptic",
         "curves"]


def build(path: Path, count: int) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from zotero_db_support import ZoteroDb

    rng = random.Random(29)
    db = ZoteroDb(path, SHARED)
    collections = [db.add_collection(f"Topic {n}") for n in range(20)]
    collections += [db.add_collection(f"Sub {n}", collections[n]) for n in range(20)]
    kinds = [kind for kind, weight, _ in TYPES for _ in range(weight)]
    venue = {kind: field for kind, _, field in TYPES}
    for number in range(count):
        kind = rng.choice(kinds)
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))).capitalize()
        fields = {"title": title, "date": f"{rng.randint(1950, 2026)}-{rng.randint(1, 12):02d}",
                  venue[kind]: f"Venue {rng.randint(1, 400)}",
                  "abstractNote": " ".join(rng.choice(WORDS) for _ in range(60))}
        if kind == "journalArticle":
            first_page = number % 900
            fields.update(volume=str(rng.randint(1, 90)), pages=f"{first_page}-{first_page + 12}",
                          DOI=f"10.5555/bench.{number}")
        authors = [("author", rng.choice(GIVENS), rng.choice(FAMILIES))
                   for _ in range(rng.randint(1, 6))]
        item = db.add_item(kind, fields, authors, rng.sample(WORDS, rng.randint(0, 4)),
                           rng.sample(collections, rng.randint(0, 2)),
                           added=f"20{10 + number % 16}-01-01 {number // 3600 % 24:02d}:"
                                 f"{number // 60 % 60:02d}:{number % 60:02d}")
        if number % 10 == 0:
            db.add_note(item, f"<p>Note on item {number}: {title}</p>")
        if number % 3 == 0:
            db.add_attachment(item, "Full Text PDF", f"storage:item{number}.pdf", "application/pdf")
    db.close()


def measure(path: str, what: str) -> None:
    """One measurement, in this (fresh) process: prints a JSON line."""
    sys.path.insert(0, str(ROOT / "src"))
    from refbridge.errors import Diagnostics
    from refbridge.zotero_bridge.address import DatabaseAddress
    from refbridge.zotero_bridge.pull import database_records
    from refbridge.zotero_bridge.sqlite import open_database

    start, cpu = time.perf_counter(), time.process_time()
    diagnostics = Diagnostics()
    if what == "item JSON":
        with open_database(Path(path), diagnostics) as database:
            scope = database.scope(None, None)
            stamps = database.stamps(scope)
            count = len(database.items(scope, (s.item_id for s in stamps.values())))
    else:
        count = sum(1 for _ in database_records(DatabaseAddress(Path(path), None, None),
                                                diagnostics))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(json.dumps({"what": what, "count": count, "seconds": seconds, "cpu": cpu,
                      "peak_mib": peak}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=40_000)
    parser.add_argument("--keep", type=Path, help="build (or reuse) the database in DIR")
    parser.add_argument("--measure", nargs=2, metavar=("PATH", "WHAT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(*args.measure)
        return
    folder = args.keep or Path(tempfile.mkdtemp(prefix="refbridge-bench-zotero-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "zotero.sqlite"
    if not path.exists():
        start = time.perf_counter()
        build(path, args.items)
        print(f"built {path} ({path.stat().st_size / 2**20:.0f} MiB) in "
              f"{time.perf_counter() - start:.0f} s")
    for what in ("item JSON", "records"):
        out = subprocess.run([sys.executable, __file__, "--measure", str(path), what],
                             check=True, capture_output=True, text=True).stdout
        result = json.loads(out)
        print(f"{what:9}: {result['count']:6} in {result['seconds']:5.2f} s "
              f"({result['cpu']:5.2f} s CPU) = {result['count'] / result['seconds']:6.0f} "
              f"items/s, peak {result['peak_mib']:.0f} MiB")
    start = time.perf_counter()
    cli = [sys.executable, "-m", "refbridge", "pull", "--from", f"zotero-sqlite:{path}",
           "--to", "bibtex", "-o", str(folder / "out.bib")]
    subprocess.run(cli, check=True, capture_output=True)
    print(f"pull --to bibtex: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
