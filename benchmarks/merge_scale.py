"""How fast do ``cv`` and its merging of duplicates run on large publication lists?
``python benchmarks/merge_scale.py [--sizes 1000,2000,5000,20000] [--no-merge] [--keep DIR]``

For each size, one person's publication list is made up (``write_sources``: invented works,
seeded, so every run reads the same files) as the sources a user gathers it from: their own
.bib, a Google Scholar CSV, a Scopus CSV and a Zotero CSL-JSON export. The sources overlap as
real ones do: a work is in one to four of them, with the same DOI written in another spelling,
the same arXiv id (a Scholar ``arXiv preprint arXiv:ID`` venue, a .bib ``eprint``), a preprint
beside its published version, and its title in another case, with other punctuation or a typo;
Scopus writes the authors' initials. ``cv`` runs on them in this process (reading, merging,
formatting) and the time and records per second are printed for each size, then the time of
merging alone (``refbridge.merge.deduplicate`` on the records read). This is a measuring tool,
not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: How many records each size has (spread over the sources).
SIZES = (1000, 2000, 5000, 20000)
OWNER = ("Stillman", "Alexander N.")
SEED = 42
_WORDS = (
    "adaptive", "alpine", "analysis", "approximate", "bayesian", "benchmark", "boundary",
    "carbon", "cardinality", "causal", "climate", "clustering", "coastal", "compressed",
    "concurrent", "constraint", "convergence", "data", "decomposition", "deep", "dense",
    "distributed", "drift", "dynamics", "efficient", "embedding", "energy", "estimation",
    "evaluation", "evolution", "experimental", "fast", "federated", "flow", "forecasting",
    "framework", "glacier", "graph", "groundwater", "heterogeneous", "hierarchical",
    "hydrology", "inference", "isotope", "kernel", "lake", "language", "large", "latent",
    "learning", "lightweight", "limnology", "linear", "model", "models", "monitoring",
    "multiscale", "network", "neural", "nonlinear", "nutrient", "online", "optimal",
    "parallel", "particle", "permafrost", "precipitation", "prediction", "probabilistic",
    "query", "queries", "regional", "remote", "representation", "resilient", "river",
    "robust", "runoff", "scalable", "seasonal", "sediment", "sediments", "sensing",
    "simulation", "snowpack", "soil", "sparse", "spatial", "statistical", "stochastic",
    "storage", "stream", "structure", "subgraph", "survey", "temporal", "thermal", "transfer",
    "transport", "uncertainty", "variability", "watershed", "wetland",
)
_LINKS = ("for", "of", "in", "with", "under", "from", "and", "on")
_FAMILIES = ("Okafor", "Berg", "Lindqvist", "Moreau", "Tanaka", "Novak", "Reyes", "Haddad",
             "Kowalski", "Osei", "Varga", "Ishikawa", "Fabre", "Dekker", "Santos", "Chen",
             "Wang", "Rahman", "Kovac", "Farahani", "Ashworth", "Zhou", "Lund", "Petrov")
_GIVENS = ("Johanna", "Chinedu", "Maria", "Kenji", "Petra", "Lucas", "Amira", "Tomasz",
           "Rita", "Hiroshi", "Sofia", "Daniel", "Yuki", "Ines", "Jonas", "Lei", "Jing")
_JOURNALS = ("Journal of Limnology", "Water Resources Research", "Hydrological Processes",
             "Proceedings of the VLDB Endowment", "Climate Dynamics", "The Cryosphere")


@dataclass(frozen=True, slots=True)
class Work:
    """One invented work: its authors (family, given), title, year, venue, identifiers."""

    authors: tuple[tuple[str, str], ...]
    title: str
    year: int
    journal: str
    doi: str | None
    arxiv: str | None


def _title(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(4, 9))]
    words.insert(rng.randint(1, len(words) - 1), rng.choice(_LINKS))
    head = " ".join(words).capitalize()
    return f"{head}: {rng.choice(_WORDS)} {rng.choice(_WORDS)}" if rng.random() < 0.4 else head


def _variant(title: str, rng: random.Random) -> str:
    """The title as another source writes it: another case, other punctuation, a typo."""
    roll = rng.random()
    if roll < 0.3:
        return title.title()
    if roll < 0.45:
        return title.replace(":", " --")
    if roll < 0.55 and len(title) > 40:
        at = rng.randrange(len(title))
        return title[:at] + title[at + 1:]  # a letter dropped
    return title


def make_works(count: int, rng: random.Random) -> list[Work]:
    works = []
    for number in range(count):
        coauthors = [(rng.choice(_FAMILIES), rng.choice(_GIVENS))
                     for _ in range(rng.randint(1, 5))]
        coauthors.insert(rng.randint(0, len(coauthors)), OWNER)
        year = rng.randint(2005, 2026)
        doi = f"10.5555/bench.{year}.{number:06d}" if rng.random() < 0.75 else None
        arxiv = f"{year % 100:02d}{rng.randint(1, 12):02d}.{number:05d}" \
            if rng.random() < 0.35 else None
        works.append(Work(tuple(coauthors), _title(rng), year, rng.choice(_JOURNALS), doi,
                          arxiv))
    return works


def _bib(work: Work, key: str, rng: random.Random) -> str:
    authors = " and ".join(f"{family}, {given}" for family, given in work.authors)
    lines = [f"@article{{{key}", f"  author = {{{authors}}}",
             f"  title = {{{_variant(work.title, rng)}}}", f"  journal = {{{work.journal}}}",
             f"  year = {{{work.year}}}"]
    if work.doi:
        lines.append(f"  doi = {{https://doi.org/{work.doi}}}")
    if work.arxiv and rng.random() < 0.5:
        lines += [f"  eprint = {{{work.arxiv}}}", "  archiveprefix = {arXiv}"]
    return ",\n".join(lines) + ",\n}\n"


def _scholar_row(work: Work, rng: random.Random) -> list[str]:
    authors = "; ".join(f"{family}, {given}" for family, given in work.authors) + "; "
    preprint = work.arxiv is not None and rng.random() < 0.5
    venue = f"arXiv preprint arXiv:{work.arxiv}" if preprint else work.journal
    return [authors, _variant(work.title, rng), venue, str(rng.randint(1, 60)), "", "",
            str(work.year - 1 if preprint and rng.random() < 0.3 else work.year), ""]


def _scopus_row(work: Work, rng: random.Random) -> list[str]:
    initials = ["".join(part[0] + "." for part in given.split()) for _, given in work.authors]
    authors = "; ".join(f"{family} {letters}"
                        for (family, _), letters in zip(work.authors, initials))
    return [authors, _variant(work.title, rng), str(work.year), work.journal,
            str(rng.randint(1, 60)), (work.doi or "").upper(), "Article", "Scopus"]


def _csl(work: Work, number: int, rng: random.Random) -> dict[str, object]:
    item: dict[str, object] = {
        "id": f"zotero-{number}", "type": "article-journal",
        "title": _variant(work.title, rng), "container-title": work.journal,
        "author": [{"family": family, "given": given} for family, given in work.authors],
        "issued": {"date-parts": [[work.year, rng.randint(1, 12)]]}}
    if work.doi:
        item["DOI"] = work.doi
    if work.arxiv and not work.doi:
        item["URL"] = f"https://arxiv.org/abs/{work.arxiv}v{rng.randint(1, 3)}"
    return item


def write_sources(records: int, directory: Path, seed: int = SEED) -> list[Path]:
    """Four sources holding ``records`` records in all (about 2.2 per work) in
    ``directory``; their paths."""
    rng = random.Random(seed)
    works = make_works(max(1, round(records / 2.2)), rng)
    bib: list[str] = []
    scholar: list[list[str]] = []
    scopus: list[list[str]] = []
    zotero: list[dict[str, object]] = []
    written = 0
    while written < records:
        for number, work in enumerate(works):
            if written >= records:
                break
            for source in rng.sample(range(4), rng.choice((1, 2, 2, 3, 3, 4))):
                if written >= records:
                    break
                if source == 0:
                    bib.append(_bib(work, f"w{number}x{len(bib)}", rng))
                elif source == 1:
                    scholar.append(_scholar_row(work, rng))
                elif source == 2:
                    scopus.append(_scopus_row(work, rng))
                else:
                    zotero.append(_csl(work, number, rng))
                written += 1
    paths = [directory / name for name in ("mine.bib", "scholar.csv", "scopus.csv",
                                           "zotero.json")]
    paths[0].write_text("\n".join(bib), encoding="utf-8")
    paths[1].write_text(_csv(["Authors", "Title", "Publication", "Volume", "Number", "Pages",
                              "Year", "Publisher"], scholar), encoding="utf-8")
    paths[2].write_text(_csv(["Authors", "Title", "Year", "Source title", "Volume", "DOI",
                              "Document Type", "Source"], scopus), encoding="utf-8")
    paths[3].write_text(json.dumps(zotero, indent=1), encoding="utf-8")
    return paths


def _csv(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def run_cv(paths: Sequence[Path], merge: bool) -> tuple[float, int]:
    """Seconds ``cv`` takes on ``paths`` (in this process), and how many records it read."""
    from refbridge.cv import CvOptions, write_cv

    start = time.perf_counter()
    report = write_cv([str(p) for p in paths], str(paths[0].parent / "cv.md"),
                      CvOptions(owners=(f"{OWNER[1]} {OWNER[0]}",), merge=merge))
    return time.perf_counter() - start, report.records_read


def time_merge(paths: Sequence[Path]) -> tuple[float, int, int]:
    """Seconds ``deduplicate`` takes on the records of ``paths``, records in, records out."""
    from refbridge.errors import Diagnostics
    from refbridge.merge import deduplicate
    from refbridge.pipeline import read_records

    records = list(read_records([str(p) for p in paths], Diagnostics()))
    start = time.perf_counter()
    result = deduplicate(records)
    return time.perf_counter() - start, len(records), len(result.records)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--no-merge", action="store_true", help="run cv with --no-merge")
    parser.add_argument("--keep", type=Path, help="write the sources here and keep them")
    args = parser.parse_args(argv)
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as temporary:
            directory = args.keep / str(size) if args.keep else Path(temporary)
            directory.mkdir(parents=True, exist_ok=True)
            paths = write_sources(size, directory)
            seconds, read = run_cv(paths, merge=not args.no_merge)
            merge_seconds, before, after = time_merge(paths)
            print(f"{size:>6} records: cv {seconds:6.2f} s ({read / seconds:8.0f} records/s); "
                  f"merging {merge_seconds:6.2f} s ({before} -> {after} records)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
