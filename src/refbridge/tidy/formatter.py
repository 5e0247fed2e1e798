"""One .bib text formatted: read into blocks, exact duplicates removed, keys renamed to a
pattern, blocks and fields sorted, values rewritten and laid out; what changed is told entry
by entry (for ``--check``) and every removal, renaming and conflict is a note. A check that
keeps the blocks' order and keys streams (``check_texts``): a large file is never held whole.

Journals are abbreviated or written out when asked (``journals``), each change a note.

A file with a broken block is not formatted (its problems are returned, its text is None),
nor one whose sorting would change what a macro means (an ``@string`` defined twice). This
module must never read or write a file (``files`` does) and never drop an entry or field
without a note: the only ones dropped are exact duplicates and, when asked, empty fields.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from refbridge.errors import Diagnostic
from refbridge.formats.bibtex.syntax import MONTH_MACROS, Block, Field, macro_value
from refbridge.tidy.document import StreamedDocument, Unit, read_document
from refbridge.tidy.journals import journal_titles
from refbridge.tidy.keys import key_renames, renamed_references
from refbridge.tidy.layout import EntryText, document_parts, document_text, entry_text
from refbridge.tidy.options import TidyOptions
from refbridge.tidy.sorting import sort_fields, sort_units
from refbridge.tidy.values import KEY_FIELDS, field_value, wrappable

#: Fields whose being empty says something: a crossref or xdata child inherits a field only
#: when it is missing, not when it is empty.
_INHERITING_FIELDS = frozenset({"crossref", "xdata"})


@dataclass(frozen=True, slots=True)
class Change:
    """An entry (or block) that formatting changes: its line, its key, how."""

    line: int
    key: str
    how: str


@dataclass(slots=True)
class TidiedText:
    """The formatted text (None: the file cannot be formatted, see ``problems``), what
    changed, and the notes to show (renamed keys, removed duplicates, conflicts)."""

    text: str | None
    problems: list[Diagnostic] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    #: values the user must hear of: journals abbreviated, written out, or left for want of
    #: a source (``fmt --abbreviate-journals``: exit status 3)
    told: int = 0


def _kept_fields(fields: Sequence[Field], options: TidyOptions) -> list[Field]:
    """The fields written: all, or (``drop_empty``) those that are not empty, except in an
    entry that inherits (where empty is not missing) and a field given twice (bibtex reads
    the first, biber the last)."""
    names = [f.name for f in fields]
    if not options.drop_empty or _INHERITING_FIELDS.intersection(names):
        return list(fields)
    return [f for f in fields if f.value.strip(" \t\n\r\f\v") or names.count(f.name) > 1]


def _block_text(unit: Unit, options: TidyOptions, months_redefined: bool) -> str:
    block = unit.block
    if block.kind == "entry":
        fields = sort_fields(_kept_fields(block.fields, options), options)
        values = [(f.name, value, bool(options.wrap) and wrappable(f.name, value))
                  for f in fields
                  for value in (field_value(f.name, f.raw, options, months_redefined),)]
        return entry_text(EntryText(block.entry_type, block.key, values), options.indent,
                          options.align, options.wrap)
    if block.kind == "string":
        name, _, raw, _ = block.fields[0]
        return f"@string{{{name} = {field_value('@string', raw, options)}}}"
    if block.kind == "preamble":
        return f"@preamble{{{block.text}}}"
    return unit.source  # @comment: as written


def _renamed(units: list[Unit], options: TidyOptions, source: str
             ) -> tuple[list[Unit], list[Diagnostic]]:
    """``units`` with their keys made to follow ``options.key_pattern``, and the notes."""
    if options.key_pattern is None:
        return units, []
    renames = key_renames(units, options.key_pattern, source)
    first_of: dict[str, Unit] = {}
    for unit in units:
        first_of.setdefault(unit.key.lower(), unit)
    references = {r.old.lower(): r.new for r in renames if first_of[r.old.lower()] is units[r.index]}
    renamed = list(units)
    for rename in renames:
        renamed[rename.index] = dataclasses.replace(
            units[rename.index], block=dataclasses.replace(units[rename.index].block,
                                                           key=rename.new))
    if references:
        renamed = [_with_references(unit, references) for unit in renamed]
    notes = [Diagnostic("note", f"key {r.old!r} renamed to {r.new!r}", source, r.line)
             for r in renames]
    return renamed, notes


def _with_references(unit: Unit, references: dict[str, str]) -> Unit:
    """``unit`` with the keys its key fields name renamed."""
    if not any(f.name in KEY_FIELDS for f in unit.block.fields):
        return unit
    fields = []
    for name, value, raw, undefined in unit.block.fields:
        if name in KEY_FIELDS and raw[:1] in "{\"" and macro_value(raw) is not None:
            raw = raw[0] + renamed_references(raw[1:-1], references) + raw[-1]
            value = renamed_references(value, references)
        fields.append(Field(name, value, raw, undefined))
    return dataclasses.replace(unit, block=dataclasses.replace(unit.block,
                                                                fields=tuple(fields)))


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class _Duplicates:
    """Exact duplicates (same key, same text once formatted) taken out of units as they
    come: each removed one is a note and a change; a key given again with other content is a
    warning naming both lines, and both are kept. A removed entry's comment goes to the
    block after it, or to ``carried`` when no block follows. Of each key it keeps only a
    digest of its first entry's text and its line, in one ``bytes`` (a tuple of them would
    take three times the memory), so that a large file streams through."""

    def __init__(self, text_of: Callable[[Unit], str], source: str) -> None:
        self._text_of = text_of
        self._source = source
        self._first: dict[str, bytes] = {}
        self.notes: list[Diagnostic] = []
        self.changes: list[Change] = []
        self.carried = ""

    def kept(self, units: Iterable[Unit]) -> Iterator[Unit]:
        for unit in units:
            if self.carried:
                unit = dataclasses.replace(unit, before=self.carried + unit.before)
                self.carried = ""
            if not unit.is_entry:
                yield unit
                continue
            digest = _digest(self._text_of(unit))
            seen = self._first.get(unit.key.lower())
            if seen is None:
                self._first[unit.key.lower()] = digest + str(unit.block.line).encode()
                yield unit
                continue
            line = int(seen[len(digest):])
            if seen[:len(digest)] == digest:
                self.notes.append(Diagnostic(
                    "note", f"entry {unit.key!r} removed: an exact duplicate of the one on "
                    f"line {line}", self._source, unit.block.line))
                self.changes.append(Change(unit.block.line, unit.key,
                                           "removed (exact duplicate)"))
                self.carried = unit.before
            else:
                self.notes.append(Diagnostic(
                    "warning", f"key {unit.key!r} is given on lines {line} and "
                    f"{unit.block.line} with different content; both are kept", self._source,
                    unit.block.line))
                yield unit


def _redefined_macros(units: Sequence[Unit]) -> list[str]:
    names = [unit.key for unit in units if unit.block.kind == "string"]
    return sorted({name for name in names if names.count(name) > 1})


def tidy_text(text: str, source: str, options: TidyOptions) -> TidiedText:
    """``text`` (the content of ``source``) formatted with ``options``."""
    document, problems = read_document(text, source)
    if problems:
        return TidiedText(None, problems)
    months_redefined = any(unit.block.kind == "string" and unit.key in MONTH_MACROS
                           for unit in document.units)
    redefined = _redefined_macros(document.units)
    if redefined and options.sort_field != "given":
        return TidiedText(None, [Diagnostic(
            "error", f"@string {', '.join(redefined)} is defined more than once: sorting "
            "would change the value of the entries between the definitions; the file is "
            "left as it is (sort it with --sort given)", source, None)])
    texts: dict[Block, str] = {}

    def text_of(unit: Unit) -> str:
        written = texts.get(unit.block)
        if written is None:
            written = texts[unit.block] = _block_text(unit, options, months_redefined)
        return written

    duplicates = _Duplicates(text_of, source)
    units = list(duplicates.kept(document.units))
    journals = journal_titles(units, options.journals, source) if options.journals else None
    if journals is not None:
        units = journals.units
    renamed, rename_notes = _renamed(units, options, source)
    ordered = sort_units(renamed, options)
    changes = duplicates.changes + _changes(document.units, renamed, ordered, text_of)
    result = document_text([(unit.before, text_of(unit), unit.tail) for unit in ordered],
                           duplicates.carried + document.after)
    changes.sort(key=lambda change: change.line)
    journal_notes = journals.notes if journals is not None else []
    return TidiedText(result, [], duplicates.notes + journal_notes + rename_notes, changes,
                      journals.told if journals is not None else 0)


def streams(options: TidyOptions) -> bool:
    """Whether a file can be checked with ``options`` as it streams (``check_texts``): its
    blocks keep their order and their keys, and no journal is rewritten (which reads the
    whole file's journal pairs first)."""
    return options.sort_field == "given" and options.key_pattern is None \
        and options.journals is None


@dataclass(slots=True)
class CheckedText:
    """What formatting a file would do (``check_texts``): its problems (nothing else is
    said then), notes and changes as ``tidy_text`` gives them, whether its text changes,
    and whether it defines a month macro (formatting assumed it did not when
    ``months_redefined`` was false: check it again)."""

    problems: list[Diagnostic]
    notes: list[Diagnostic]
    changes: list[Change]
    changed: bool
    months_redefined: bool


def check_texts(texts: Iterable[str], source: str, options: TidyOptions,
                months_redefined: bool = False) -> CheckedText:
    """What ``tidy_text`` would change in the text that ``texts`` give in pieces, found as it
    streams: only a chunk of the text and a digest of each key's entry are held. Only for
    options that keep the blocks' order and keys (``streams``)."""
    original = hashlib.blake2b(digest_size=16)

    def pieces() -> Iterator[str]:
        for text in texts:
            original.update(text.encode("utf-8", "surrogatepass"))
            yield text

    document = StreamedDocument(pieces(), source)
    months_defined = False
    last: tuple[Block | None, str] = (None, "")

    def text_of(unit: Unit) -> str:
        nonlocal last
        if last[0] is not unit.block:
            last = (unit.block, _block_text(unit, options, months_redefined))
        return last[1]

    def noted(units: Iterable[Unit]) -> Iterator[Unit]:
        nonlocal months_defined
        for unit in units:
            months_defined |= unit.block.kind == "string" and unit.key in MONTH_MACROS
            yield unit

    duplicates = _Duplicates(text_of, source)
    reformatted: list[Change] = []

    def blocks() -> Iterator[tuple[str, str, str]]:
        for unit in duplicates.kept(noted(document)):
            if text_of(unit) != unit.source:
                reformatted.append(Change(unit.block.line, _label(unit), "reformatted"))
            yield unit.before, text_of(unit), unit.tail

    output = hashlib.blake2b(digest_size=16)
    for part in document_parts(blocks(), lambda: duplicates.carried + document.after):
        output.update(part.encode("utf-8", "surrogatepass"))
    if document.problems:
        return CheckedText(document.problems, [], [], False, months_defined)
    changes = sorted(duplicates.changes + reformatted, key=lambda change: change.line)
    return CheckedText([], duplicates.notes, changes, output.digest() != original.digest(),
                       months_defined)


def _label(unit: Unit) -> str:
    """How a block is named in a list of changes: an entry by its key, another block by its
    kind (and macro name)."""
    if unit.is_entry:
        return unit.key
    return f"@{unit.block.kind}" + (f" {unit.key}" if unit.key else "")


def _changes(originals: Sequence[Unit], renamed: list[Unit], ordered: list[Unit],
             text_of: Callable[[Unit], str]) -> list[Change]:
    """How each block that is kept changes: its key, its text, its place."""
    before = [unit.number for unit in renamed]
    after = [unit.number for unit in ordered]
    in_place: set[int] = set()
    for start, _, size in SequenceMatcher(None, before, after, autojunk=False) \
            .get_matching_blocks():
        in_place.update(before[start:start + size])
    changes = []
    for unit in renamed:
        old = originals[unit.number]
        hows = []
        if unit.key != old.key:
            hows.append(f"key renamed to {unit.key}")
        if text_of(unit) != old.source:
            hows.append("reformatted")
        if unit.number not in in_place:
            hows.append("moved")
        if hows:
            changes.append(Change(old.block.line, _label(old), ", ".join(hows)))
    return changes
