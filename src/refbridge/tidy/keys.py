"""Citation keys made to follow a pattern (``--key-pattern``, the language of
``refbridge.citekeys``): a key that is what the pattern makes of its entry (with or without
a suffix that keeps it unique) is kept; every other key is replaced by the pattern's, made
unique the way conversions make keys unique, and each replacement is reported (old -> new,
with the entry's line). Fields that name keys (``crossref``, ``xdata`` ...) follow their
entries' new keys.

The entries are read into records (with what a crossref child inherits, which may give it
its year) only to make their keys; this module must never change anything else of an
entry, and never rename a key without a ``Rename``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from refbridge.citekeys import KeyBook, follows_pattern
from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.reader import entry_record, inherit
from refbridge.formats.bibtex.tables import CROSSREF_FIELD
from refbridge.model import ModelError, Record
from refbridge.tidy.document import Unit

_KEY_LIST = re.compile(r"[^,\s]+")


@dataclass(frozen=True, slots=True)
class Rename:
    """An entry's key replaced: the entry's index among the file's blocks, its line."""

    index: int
    line: int
    old: str
    new: str


def _records(units: Sequence[Unit], source: str) -> dict[int, Record | None]:
    """The record of each entry (by its index), None for one the model cannot hold."""
    ignored = Diagnostics()  # what the reader says of the entries is no matter of layout
    records: dict[int, Record | None] = {}
    by_key: dict[str, Record] = {}
    for index, unit in enumerate(units):
        if not unit.is_entry:
            continue
        try:
            record = entry_record(unit.block, source, ignored)
        except ModelError:
            records[index] = None
            continue
        records[index] = record
        by_key.setdefault(unit.key.lower(), record)
    for index, child in records.items():
        parent_key = next((f.value.strip().lower() for f in units[index].block.fields
                           if f.name == CROSSREF_FIELD), None)
        parent = by_key.get(parent_key) if parent_key else None
        if child is not None and parent is not None and parent is not child:
            records[index] = inherit(child, parent)
    return records


def key_renames(units: Sequence[Unit], pattern: str, source: str) -> list[Rename]:
    """The keys of ``units`` that do not follow ``pattern``, and what they become."""
    book = KeyBook(pattern)
    needing: list[int] = []
    for index, record in _records(units, source).items():
        key = units[index].key
        if record is None:
            book.reserve(key)
            continue
        follows = bool(key) and follows_pattern(key, record, pattern)
        if not book.note(record.replace(citation_key=key if follows else None)):
            needing.append(index)
    return [Rename(index, units[index].block.line, units[index].key, new)
            for index, new in zip(needing, book.generated_keys())
            if new != units[index].key]


def renamed_references(value: str, renamed: Mapping[str, str]) -> str:
    """A key field's value with the keys in ``renamed`` (lower-cased old -> new) replaced."""
    return _KEY_LIST.sub(lambda match: renamed.get(match.group().lower(), match.group()),
                         value)
