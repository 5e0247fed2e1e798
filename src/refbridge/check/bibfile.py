"""The entries of one .bib file checked as written, in the file's order: integrity
(``integrity``), the dialect's data model and required fields (``datamodel``), and the keys
that ``crossref``, ``xref`` and ``xdata`` name. A child entry counts what it inherits: when
its parent comes later (BibTeX's own order) its required fields are judged once the parent
has been read, or at the end of the file. Memory holds the file's keys, the field names of
the last ``REMEMBERED`` entries and what waits for a later entry, never the entries. This
module must never change an entry.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field

from refbridge.check.datamodel import (
    Biblatex,
    biblatex_fields,
    biblatex_missing,
    bibtex_missing,
    bibtex_type,
)
from refbridge.check.dialects import (
    BIBLATEX_FIELD_ALIASES,
    BIBLATEX_INHERITED_AS,
    REFERENCE_FIELDS,
)
from refbridge.check.entry import BibEntry
from refbridge.check.integrity import integrity
from refbridge.check.rules import Finding
from refbridge.formats.bibtex.syntax import Block

#: How many entries' field names are remembered for children that come after their parent.
REMEMBERED = 2000
#: A line after every line of a file.
_END = 1 << 62
#: Fields through which a child inherits.
_INHERITING = ("crossref", "xdata")


def _targets(entry: BibEntry, name: str) -> list[str]:
    value = entry.value(name)
    if value is None:
        return []
    return [key.strip() for key in value.split(",") if key.strip()] if name == "xdata" \
        else [value.strip()]


@dataclass(slots=True)
class _Child:
    """A child's required fields, waiting for the parents it inherits from."""

    entry: BibEntry  #: without its fields
    view: Biblatex
    present: set[str]
    waiting_for: set[str]


def _biblatex_names(names: frozenset[str]) -> set[str]:
    return {BIBLATEX_FIELD_ALIASES.get(name, name) for name in names}


@dataclass(slots=True)
class BibFileChecker:
    """Checks one file's entries; ``dialect`` names the data model, ``styles`` the .bib
    dialects whose required fields are asked for."""

    source: str
    blocks: Iterator[Block]
    dialect: str
    styles: tuple[str, ...]
    keys: set[str] = field(default_factory=set)
    recent: OrderedDict[str, frozenset[str]] = field(default_factory=OrderedDict)
    children: dict[str, list[_Child]] = field(default_factory=dict)
    references: list[tuple[BibEntry, str, str]] = field(default_factory=list)

    def upto(self, line: int) -> Iterator[Finding]:
        """The findings of the entries up to the one on ``line``."""
        for block in self.blocks:
            if block.kind == "entry" or block.kind == "error" and block.key:
                yield from self.entry(BibEntry.of(block, self.source))
                if block.line >= line:
                    return

    def finish(self) -> Iterator[Finding]:
        """The findings of the rest of the file, then of what waited for a later entry."""
        yield from self.upto(_END)
        for entry, name, key in self.references:
            if key.casefold() not in self.keys:
                yield Finding("missing-reference", f"{name} {key!r} names no entry of the "
                              "file", entry.source, entry.key)
        unresolved = {id(child): child for waiting in self.children.values()
                      for child in waiting}
        self.children.clear()
        for child in unresolved.values():
            child.waiting_for.clear()
            yield from self.requirements(child)

    def entry(self, entry: BibEntry) -> Iterator[Finding]:
        yield from integrity(entry)
        view = Biblatex.of(entry)
        ignored: set[str] = set()
        if self.dialect == "biblatex":
            found, ignored = biblatex_fields(entry, view)
            yield from found
        else:
            yield from bibtex_type(entry)
        names = frozenset(name for name in entry.fields if entry.value(name) is not None)
        key = entry.key.casefold()
        for name in REFERENCE_FIELDS:
            for target in _targets(entry, name):
                if target.casefold() not in self.keys and target.casefold() != key:
                    self.references.append((BibEntry(entry.entry_type, entry.key, {},
                                                     entry.source), name, target))
        child = _Child(BibEntry(entry.entry_type, entry.key, {}, entry.source), view,
                       set(names) | {f"biblatex:{name}" for name in _biblatex_names(names)
                                     - ignored},
                       {t.casefold() for name in _INHERITING for t in _targets(entry, name)})
        for target in list(child.waiting_for):
            if target in self.recent:
                self.inherit(child, target, self.recent[target])
            elif target in self.keys:
                child.waiting_for.discard(target)  # read, but long ago: nothing inherited
        if child.waiting_for:
            for target in child.waiting_for:
                self.children.setdefault(target, []).append(child)
        else:
            yield from self.requirements(child)
        self.keys.add(key)
        self.recent[key] = names
        if len(self.recent) > REMEMBERED:
            self.recent.popitem(last=False)
        for waiting in self.children.pop(key, []):
            self.inherit(waiting, key, names)
            if not waiting.waiting_for:
                yield from self.requirements(waiting)

    @staticmethod
    def inherit(child: _Child, key: str, parent: frozenset[str]) -> None:
        """``child`` with the fields of its parent ``key`` (their names) counted as its own."""
        child.waiting_for.discard(key)
        blx = _biblatex_names(parent)
        blx |= {target for target, origin in BIBLATEX_INHERITED_AS.items() if origin in blx}
        child.present |= parent | {f"biblatex:{name}" for name in blx}

    def requirements(self, child: _Child) -> Iterator[Finding]:
        blx = frozenset(name.partition(":")[2] for name in child.present
                        if name.startswith("biblatex:"))
        raw = frozenset(name for name in child.present if not name.startswith("biblatex:"))
        for style in self.styles:
            if style == "bibtex":
                yield from bibtex_missing(child.entry, raw)
            else:
                yield from biblatex_missing(child.entry, child.view, blx)
