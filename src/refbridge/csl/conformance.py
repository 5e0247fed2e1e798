"""Runner for the official CSL processor test suite (``processor-tests/humans/*.txt``).

Usage: ``python -m refbridge.csl.conformance SUITE_DIR LOCALES_DIR [-v] [-k PREFIX]``.
Prints the names of failing fixtures (with diffs under ``-v``), then the fixtures of the
suite's ``off-spec`` folder (behaviour the specification does not define, which citeproc-js
has), reported apart as ``csl-suite off-spec: N of M passed``, and, as its last line,
``csl-suite: N of M passed``.  It only reads fixtures; it never changes them.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .localization import LocaleStore
from .multilingual import LanguagePrefs
from .processor import make_processor
from .style import CslStyle

#: the forms citeproc-js's test runner shows unless a fixture's LANGPARAMS says otherwise
_RUNNER_LANGUAGES = {"persons": ["translit"], "institutions": ["translit"], "titles": ["translit", "translat"],
                     "journals": ["translit"], "publishers": ["translat"], "places": ["translat"]}
_SECTION_RE = re.compile(r">>=+ *([A-Z-]+) *=+>>\s*\n(.*?)\n<<=+ *\1 *=+<<", re.DOTALL)


@dataclass
class Fixture:
    name: str
    mode: str
    csl: str
    items: list[dict[str, Any]]
    result: str
    citation_items: list[list[dict[str, Any]]] | None
    citations: list[Any] | None
    abbreviations: dict[str, Any]
    bibsection: dict[str, Any] | None
    bibentries: list[list[str]] | None  # the item sets registered one after another
    options: dict[str, Any]  # citeproc-js's engine options (wrap_url_and_doi, spoof_institutional_affiliations)
    languages: LanguagePrefs  # the forms of multilingual values (LANGPARAMS, MULTIAFFIX)


def parse_fixture(path: Path) -> Fixture:
    text = path.read_text(encoding="utf-8-sig")
    sections = {name: body for name, body in _SECTION_RE.findall(text)}
    return Fixture(
        name=path.stem,
        mode=sections.get("MODE", "").strip(),
        csl=sections.get("CSL", ""),
        items=json.loads(sections["INPUT"]) if "INPUT" in sections else [],
        result=sections.get("RESULT", ""),
        citation_items=json.loads(sections["CITATION-ITEMS"]) if "CITATION-ITEMS" in sections else None,
        citations=json.loads(sections["CITATIONS"]) if "CITATIONS" in sections else None,
        abbreviations=json.loads(sections["ABBREVIATIONS"]) if "ABBREVIATIONS" in sections else {},
        bibsection=json.loads(sections["BIBSECTION"]) if "BIBSECTION" in sections else None,
        options=json.loads(sections["OPTIONS"]) if "OPTIONS" in sections else {},
        bibentries=json.loads(sections["BIBENTRIES"]) if "BIBENTRIES" in sections else None,
        languages=_languages(sections),
    )


def _languages(sections: dict[str, str]) -> LanguagePrefs:
    """The forms of multilingual values a fixture shows: its LANGPARAMS over the runner's
    own, its MULTIAFFIX, the tags its LANGPARAMS "langs" give (in place of the style's)."""
    params = json.loads(sections.get("LANGPARAMS") or "{}")
    affixes = json.loads(sections["MULTIAFFIX"]) if "MULTIAFFIX" in sections else None
    return LanguagePrefs.of({**_RUNNER_LANGUAGES, **params}, affixes, params.get("langs"))


def _affiliations(fixture: Fixture) -> bool:
    """Whether persons before an institution are its members: citeproc-js's
    spoof_institutional_affiliations option."""
    return bool(fixture.options.get("spoof_institutional_affiliations"))


def _links(fixture: Fixture) -> bool:
    """Whether URLs and DOIs are written as links: citeproc-js's wrap_url_and_doi option."""
    return bool(fixture.options.get("wrap_url_and_doi"))


def _documents(citations: list[Any]) -> list[tuple[list[dict[str, Any]], str]]:
    """The document after each processCitationCluster call: the citations before and after
    the new one, by citationID (a known ID is replaced), with their note numbers."""
    store: dict[str, dict[str, Any]] = {}
    documents = []
    for number, call in enumerate(citations):
        citation, before, after = call[:3]  # (one fixture has a stray fourth element)
        cid = citation.get("citationID") or f"CITATION-{number}"
        store[cid] = {**citation, "citationID": cid}
        order: list[dict[str, Any]] = []
        for other, note in before:
            order.append({**store[other], "properties": {**store[other].get("properties", {}), "noteIndex": note}})
        order.append(store[cid])
        for other, note in after:
            order.append({**store[other], "properties": {**store[other].get("properties", {}), "noteIndex": note}})
        documents.append((order, cid))
    return documents


def _citations_output(fixture: Fixture, style: CslStyle, store: LocaleStore) -> str:
    """citeproc-js test-runner output: every citation after the last processCitationCluster
    call, ``>>`` marking those that call changed: their text, the disambiguation of their
    items, or the first-reference note of an item cited again (citeproc-js re-renders every
    citation of such an item)."""
    by_id = {str(item["id"]): item for item in fixture.items if "id" in item}
    previous: dict[str, tuple[Any, ...]] = {}
    previous_refs: dict[str, Any] = {}
    previous_counts: dict[str, int] = {}
    # citeproc-js re-renders every citation of an item cited once more or once less than
    # twice, in a note style with disambiguate="true" (CSL-M's backreference test reads it)
    counting = style.info.class_ == "note" and 'disambiguate="true"' in fixture.csl
    lines: list[str] = []
    assert fixture.citations is not None
    for document, current in _documents(fixture.citations):
        cited = dict.fromkeys(str(c["id"]) for citation in document for c in citation["citationItems"])
        counts = {key: sum(1 for citation in document for c in citation["citationItems"] if str(c["id"]) == key)
                  for key in cited}
        proc = make_processor(style, [by_id[key] for key in cited if key in by_id], output="html",
                              locale_store=store, links=_links(fixture), abbreviations=fixture.abbreviations,
                              languages=fixture.languages, affiliations=_affiliations(fixture))
        rendered = proc.cite_clusters(document)
        first_refs = _first_references(document)
        moved = {key for key, note in first_refs.items() if previous_refs.get(key, note) != note}
        if counting:
            moved |= {key for key, count in counts.items()
                      if key in previous_counts and (previous_counts[key] < 2) != (count < 2)}
        states, tainted = {}, set()
        for citation, text in zip(document, rendered):
            keys = [str(c["id"]) for c in citation["citationItems"]]
            # (a citation rendering nothing is citeproc-js's marker in its output)
            states[citation["citationID"]] = (text or _NO_PRINTED_FORM,
                                              tuple(repr(proc.disamb.get(key)) for key in keys))
            if moved.intersection(keys):
                tainted.add(citation["citationID"])
        lines = [f"{'>>' if cid == current or cid in tainted or previous.get(cid) != state else '..'}[{i}] {state[0]}"
                 for i, (cid, state) in enumerate(states.items())]
        previous, previous_refs, previous_counts = states, first_refs, counts
    return "\n".join(lines)


_NO_PRINTED_FORM = "[NO_PRINTED_FORM]"


def _first_references(document: list[dict[str, Any]]) -> dict[str, Any]:
    """The first note of each item cited more than once (citeproc-js records it for them)."""
    first: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for citation in document:
        for cite in citation["citationItems"]:
            key = str(cite["id"])
            first.setdefault(key, citation.get("properties", {}).get("noteIndex"))
            counts[key] = counts.get(key, 0) + 1
    return {key: note for key, note in first.items() if counts[key] > 1}


def _cited_items(fixture: Fixture) -> list[dict[str, Any]]:
    """The items a fixture cites, in order of first citation (all items when it cites none);
    with processCitationCluster calls, those of the final document (others are deleted);
    with BIBENTRIES, its last set."""
    if fixture.citations is not None:
        documents = _documents(fixture.citations)  # (none when no citation is made)
        clusters = [c["citationItems"] for c in documents[-1][0]] if documents else []
    elif fixture.citation_items is not None:
        clusters = fixture.citation_items
    elif fixture.bibentries:
        # the last set the runner registers (updateItems) is the processor's, in its order
        clusters = [[{"id": key} for key in fixture.bibentries[-1]]]
    else:
        return fixture.items
    by_id = {str(item["id"]): item for item in fixture.items if "id" in item}
    order: dict[str, None] = {}
    for cluster in clusters:
        for cite in cluster:
            order.setdefault(str(cite["id"]), None)
    return [by_id[key] for key in order if key in by_id]


def render_fixture(fixture: Fixture, store: LocaleStore) -> str:
    style = CslStyle.from_xml(fixture.csl, fixture.name)
    proc = make_processor(style, _cited_items(fixture), output="html", locale_store=store, links=_links(fixture),
                          abbreviations=fixture.abbreviations, languages=fixture.languages,
                          affiliations=_affiliations(fixture))
    if fixture.mode.startswith("bibliography"):
        if fixture.citations is not None:  # (the runner cites them first: CSL-M parallels)
            proc.cite_clusters(_documents(fixture.citations)[-1][0])
        return proc.bibliography_document(fixture.bibsection)
    if fixture.citations is not None:
        return _citations_output(fixture, style, store)
    if fixture.citation_items is not None:
        return "\n".join(proc.cite(cluster) for cluster in fixture.citation_items)
    # the reference runner cites every item, in the order the processor registered them
    # (sorted like the bibliography when the style has one)
    return proc.cite([{"id": key} for key in (proc.sorted_item_ids() if style.bibliography
                                              else proc.item_ids())])


def _normalize(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines() if line.strip())


def run(suite: Path, locales: Path, prefix: str = "", verbose: bool = False) -> tuple[int, int, list[str]]:
    store = LocaleStore(locales)
    paths = sorted(p for p in suite.glob("*.txt") if p.name.startswith(prefix))
    failures: list[str] = []
    for path in paths:
        fixture = parse_fixture(path)
        try:
            got = render_fixture(fixture, store)
        except Exception as exc:  # noqa: BLE001  a crash fails that fixture, reported by name
            got = f"!! {type(exc).__name__}: {exc}"
        if _normalize(got) != _normalize(fixture.result):
            failures.append(fixture.name)
            if verbose:
                print(f"--- {fixture.name}")
                diff = difflib.unified_diff(_normalize(fixture.result).splitlines(), _normalize(got).splitlines(),
                                            "expected", "got", lineterm="", n=0)
                print("\n".join(list(diff)[2:]))
    return len(paths) - len(failures), len(paths), failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path)
    parser.add_argument("locales", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true", help="show a diff for each failure")
    parser.add_argument("-k", "--prefix", default="", help="only fixtures whose name starts with this")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    passed, total, failures = run(args.suite, args.locales, args.prefix, args.verbose)
    off_spec = args.suite / "off-spec"
    extra = run(off_spec, args.locales, args.prefix, args.verbose) if off_spec.is_dir() else None
    if not args.verbose:
        for name in failures + [f"off-spec/{name}" for name in (extra[2] if extra else [])]:
            print(name)
    print(f"time: {time.perf_counter() - start:.1f}s", file=sys.stderr)
    if extra is not None:
        print(f"csl-suite off-spec: {extra[0]} of {extra[1]} passed")
    print(f"csl-suite: {passed} of {total} passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
