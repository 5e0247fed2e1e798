"""Which library entries a paper's .bib holds, in which order, and what is missing or unused.

The cited entries come in first-cited or library order, each with the entries it needs in
the same file (``NEEDED_FIELDS``: crossref and xref parents, XDATA containers, the members of
a ``@set``, related entries), transitively. A crossref parent is put after every entry that
names it, as bibtex needs (biber reads any order). A cited key no library holds is reported
at the first place that cites it, with the library's closest keys (difflib). The library's
``@preamble`` blocks, which the .bib reader keeps with the text around the entries, all go on
the first entry written, so that none is lost with an entry nobody cites (the rest of the
library's text between entries, its comments and groups, stays in the library). This module
must never write a file, and never change an entry but to carry those preambles.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from refbridge.cited.citations import Citation, Scan, split_keys
from refbridge.errors import location
from refbridge.formats.bibtex.syntax import parse_blocks
from refbridge.formats.bibtex.tables import CROSSREF_FIELD, HINT_AFTER, HINT_BEFORE, HINT_PREAMBLE
from refbridge.model import Record

#: Extra values (``Record.extra``) that name other entries of the same file an entry needs.
NEEDED_FIELDS: tuple[str, ...] = ("bibtex.crossref", "bibtex.xref", "bibtex.xdata",
                                  "bibtex.entryset", "bibtex.related")
#: biblatex's other keys of an entry: citing one of them cites the entry.
IDS_FIELD = "bibtex.ids"
#: The one whose targets bibtex reads only after the entries that name them.
_AFTER_CHILDREN = "bibtex." + CROSSREF_FIELD
#: Orders of ``select``: first cited first, or as the library has them.
ORDERS = ("cited", "library")
#: How many close keys a missing key's message suggests, and how close they must be.
SUGGESTIONS, CLOSENESS = 3, 0.6


@dataclass(frozen=True, slots=True)
class MissingKey:
    """A cited key no library holds: where it is first cited, how many more places cite it,
    and the library's closest keys."""

    citation: Citation
    more_places: int
    suggestions: tuple[str, ...]

    def __str__(self) -> str:
        where = location(self.citation.file, self.citation.line)
        text = f"{where}: error: {self.citation.key!r} is cited but no library holds it"
        if self.suggestions:
            text += "; did you mean " + " or ".join(repr(key) for key in self.suggestions) + "?"
        if self.more_places:
            text += f" (cited in {self.more_places} more place(s))"
        return text


@dataclass(slots=True)
class Selection:
    """The entries to write, in order, and what the documents and library say besides."""

    records: list[Record] = field(default_factory=list)
    cited: int = 0  #: how many of ``records`` are cited (the rest are needed by them)
    missing: list[MissingKey] = field(default_factory=list)
    #: (entry, field, key): a key an entry needs that no library holds
    unresolved: list[tuple[Record, str, str]] = field(default_factory=list)
    unused: list[Record] = field(default_factory=list)


def entry_key(record: Record) -> str:
    """The key documents cite ``record`` by."""
    return record.citation_key or record.id


def select(library: Sequence[Record], scan: Scan, order: str = "cited") -> Selection:
    """The entries of ``library`` that the documents of ``scan`` cite, with what they need."""
    by_key: dict[str, Record] = {}
    for record in library:
        by_key.setdefault(entry_key(record), record)
    selection = Selection()
    wanted = _cited_keys(scan.citations, by_key, selection, list(by_key), _aliases(by_key))
    if scan.everything is not None:
        wanted += [key for key in by_key if key not in wanted]
    selection.cited = len(wanted)
    chosen = _with_needed(wanted, by_key, selection)
    if order == "library":
        position = {key: index for index, key in enumerate(by_key)}
        chosen.sort(key=position.__getitem__)
    records = [by_key[key] for key in _parents_last(chosen, by_key)]
    selection.records = carry_preambles(records, library)
    selection.unused = [by_key[key] for key in by_key if key not in set(chosen)]
    return selection


def _aliases(by_key: dict[str, Record]) -> dict[str, str]:
    """biblatex's ``ids``: other keys of an entry -> its key (an entry's own key wins)."""
    aliases: dict[str, str] = {}
    for key, record in by_key.items():
        for alias in split_keys(record.extra.get(IDS_FIELD, "")):
            if alias not in by_key:
                aliases.setdefault(alias, key)
    return aliases


def _cited_keys(citations: Iterable[Citation], by_key: dict[str, Record],
                selection: Selection, keys: list[str], aliases: dict[str, str]) -> list[str]:
    """The cited keys the library holds (an entry cited by a key in its ``ids``: by its own
    key), each once, first cited first; the others noted as missing (a cross-reference label
    no library holds is no citation)."""
    wanted: dict[str, None] = {}
    missing: dict[str, list[Citation]] = {}
    for citation in citations:
        if citation.key in by_key or citation.key in aliases:
            wanted.setdefault(aliases.get(citation.key, citation.key))
        elif not citation.cross_reference:
            missing.setdefault(citation.key, []).append(citation)
    selection.missing = [MissingKey(places[0], len(places) - 1, suggestions(key, keys))
                         for key, places in missing.items()]
    return list(wanted)


def suggestions(key: str, keys: Sequence[str]) -> tuple[str, ...]:
    """The library keys closest to ``key``: the same but for case first, then by difflib."""
    same = [other for other in keys if other.lower() == key.lower()]
    close = difflib.get_close_matches(key, keys, SUGGESTIONS, CLOSENESS)
    return tuple(dict.fromkeys(same + close))[:SUGGESTIONS]


def _with_needed(wanted: list[str], by_key: dict[str, Record],
                 selection: Selection) -> list[str]:
    """``wanted`` with the entries each needs right after it (transitively), each once."""
    chosen: dict[str, None] = {}
    stack = list(reversed(wanted))
    while stack:
        key = stack.pop()
        if key in chosen:
            continue
        chosen[key] = None
        record = by_key[key]
        needed = []
        for name, target in _needs(record):
            if target in by_key:
                needed.append(target)
            else:
                selection.unresolved.append((record, name, target))
        stack += reversed(needed)
    return list(chosen)


def _needs(record: Record) -> list[tuple[str, str]]:
    """(field, key) of the entries ``record`` names in its ``NEEDED_FIELDS``."""
    return [(name.partition(".")[2], key) for name in NEEDED_FIELDS
            for key in split_keys(record.extra.get(name, ""))]


def _parents_last(keys: list[str], by_key: dict[str, Record]) -> list[str]:
    """``keys`` in their order, but each crossref parent after all the entries naming it
    (a grandparent after its children's parents)."""
    children: dict[str, list[str]] = {}
    for key in keys:
        parent = by_key[key].extra.get(_AFTER_CHILDREN)
        if parent is not None and parent in by_key:
            children.setdefault(parent, []).append(key)
    depth: dict[str, int] = {}

    def depth_of(key: str, seen: frozenset[str] = frozenset()) -> int:
        if key not in depth:
            below = [depth_of(child, seen | {key}) for child in children.get(key, ())
                     if child not in seen]
            depth[key] = 1 + max(below) if below else 0
        return depth[key]

    return sorted(keys, key=depth_of)


#: Hints of a library's text around its entries, which a paper's .bib does not take.
_LIBRARY_TEXT = (HINT_BEFORE, HINT_PREAMBLE, HINT_AFTER)


def _preambles(record: Record) -> list[str]:
    """The ``@preamble`` values the library wrote around ``record``, in their order."""
    found: list[str] = []
    for hint in _LIBRARY_TEXT:
        text = record.hints.get(hint)
        if text is not None and hint == HINT_PREAMBLE:
            found.append(text)
        elif text is not None:
            found += [block.text for block in parse_blocks(text, {}) if block.kind == "preamble"]
    return found


def carry_preambles(records: list[Record], library: Iterable[Record]) -> list[Record]:
    """``records`` with every ``@preamble`` of ``library`` on the first of them, in the
    library's order, and no other text of the library's."""
    preambles = [preamble for record in library for preamble in _preambles(record)]
    carried = [record.replace(hints={k: v for k, v in record.hints.items()
                                     if k not in _LIBRARY_TEXT})
               if any(hint in record.hints for hint in _LIBRARY_TEXT) else record
               for record in records]
    if not carried or not preambles:
        return carried
    first = carried[0]
    carried[0] = first.replace(hints={**first.hints, HINT_PREAMBLE: " # ".join(preambles)})
    return carried
