"""The order of entries and of fields.

Entries: ``given`` keeps the file's order; ``key``, ``type`` and ``year`` sort the entries
between the file's first and last (a ``-`` reverses; ties keep the file's order, and
entries without a year come last either way). Blocks before the first entry and after the
last stay where they are, ``@string`` and ``@preamble`` blocks between entries move before
them (in their order), and an ``@comment`` or comment moves with the entry after it. A
``crossref`` parent is put after the last of its children, as BibTeX needs. Fields: as
given, ``canonical`` (the order refbridge's writer uses, ``tables.FIELD_ORDER``), or a list
of fields to put first; the others keep their order. This module must never add or drop a
block or a field.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from refbridge.formats.bibtex.syntax import Block, Field
from refbridge.formats.bibtex.tables import CROSSREF_FIELD, FIELD_ORDER
from refbridge.tidy.document import Unit
from refbridge.tidy.layout import comment_text
from refbridge.tidy.options import TidyOptions

_YEAR = re.compile(r"\d{4}")
#: Blocks that must come before the entries that use them.
_DEFINITIONS = ("string", "preamble")
T = TypeVar("T")


def _year(block: Block) -> str | None:
    for name in ("year", "date"):
        value = next((f.value for f in block.fields if f.name == name), None)
        match = _YEAR.search(value) if value else None
        if match:
            return match.group()
    return None


#: What each sort orders by (None: the entry goes last).
SORT_VALUES: dict[str, Callable[[Block], str | None]] = {
    "key": lambda block: block.key.casefold(),
    "type": lambda block: block.entry_type,
    "year": _year,
}


def _sorted(items: Sequence[T], value: Callable[[T], str | None], reverse: bool) -> list[T]:
    known = [(found, item) for item in items if (found := value(item)) is not None]
    known.sort(key=lambda pair: pair[0], reverse=reverse)  # stable, also reversed
    return [item for _, item in known] + [item for item in items if value(item) is None]


def _parents_after_children(units: list[Unit]) -> list[Unit]:
    """``units`` with each crossref parent moved after the last of its children (a parent
    that is a child itself is placed first)."""
    position = {unit.key.lower(): index for index, unit in enumerate(units) if unit.is_entry}
    children: dict[str, list[str]] = {}
    for unit in units:
        parent = next((f.value.strip().lower() for f in unit.block.fields
                       if f.name == CROSSREF_FIELD), None)
        if parent in position and parent != unit.key.lower():
            children.setdefault(parent, []).append(unit.key.lower())
    if not children:
        return units
    order = [unit for unit in units if unit.key.lower() not in children or not unit.is_entry]
    placed: set[str] = set()
    pending = sorted(children, key=position.__getitem__)
    while pending:
        ready = [p for p in pending if not any(c in children and c not in placed
                                               for c in children[p])] or pending[:1]
        for parent in ready:
            keys = [unit.key.lower() for unit in order]
            last = max(keys.index(c) for c in children[parent] if c in keys) \
                if any(c in keys for c in children[parent]) else len(order) - 1
            order.insert(last + 1, units[position[parent]])
            placed.add(parent)
            pending.remove(parent)
    return order


def sort_units(units: Sequence[Unit], options: TidyOptions) -> list[Unit]:
    """The blocks of a file in the order ``options.sort`` says; the file's opening comment
    (one apart from the first block) stays first."""
    if options.sort_field == "given" or not units:
        return list(units)
    header = units[0].before
    if comment_text(header)[1]:  # it touches the first block: it is that block's
        return _sorted_units(units, options)
    ordered = _sorted_units([dataclasses.replace(units[0], before=""), *units[1:]], options)
    ordered[0] = dataclasses.replace(ordered[0], before=header + ordered[0].before)
    return ordered


def _sorted_units(units: Sequence[Unit], options: TidyOptions) -> list[Unit]:
    entries = [index for index, unit in enumerate(units) if unit.is_entry]
    if not entries:
        return list(units)
    first, last = entries[0], entries[-1]
    middle = units[first:last + 1]
    definitions = [unit for unit in middle if unit.block.kind in _DEFINITIONS]
    # an @comment (or a broken block) travels with the entry after it
    groups: list[list[Unit]] = [[]]
    for unit in middle:
        if unit.block.kind in _DEFINITIONS:
            continue
        groups[-1].append(unit)
        if unit.is_entry:
            groups.append([])
    groups.pop()
    value = SORT_VALUES[options.sort_field]
    ordered = _sorted(groups, lambda group: value(group[-1].block), options.sort_reversed)
    body = _parents_after_children([unit for group in ordered for unit in group])
    return [*units[:first], *definitions, *body, *units[last + 1:]]


def sort_fields(fields: Sequence[Field], options: TidyOptions) -> list[Field]:
    """The fields of an entry in the order ``options.field_order`` says."""
    if options.field_order == "as-given":
        return list(fields)
    order = FIELD_ORDER if options.field_order == "canonical" else options.fields_first
    rank = {name: index for index, name in enumerate(order)}
    return sorted(fields, key=lambda f: rank.get(f.name, len(rank)))
