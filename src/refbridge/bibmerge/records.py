"""Three-way merge of a library file cut into records of fields, each kept as the lines it was
written on: the merge of RIS (``ris``) and Hayagriva YAML (``hayagriva``) files, record by
record and field by field, as ``sequence`` and ``entry`` merge a .bib.

A record is known in every version by its id (what the format says it is: a Hayagriva key, a
RIS ``ID``, else the work's identity), or, renamed on one side, by sharing most of its fields
with the one record that side lacks (``followed``). A record added on either side is kept after the record
it follows on that side; one deleted on one side and unchanged on the other is deleted; one
deleted on one side and changed on the other is a conflict, marked whole. A record both sides
changed is merged field by field into ours' lines (a field theirs added after the field it
follows there): each field takes the side that changed it
(compared by the format's reading of its value, layout left out; an empty value as none), and
a field changed on both sides to two values is marked inside the record, both sides' lines
between git's markers. Records neither side touched are written as they were, byte for byte.
This module must never drop a record or a field one side changed without marking it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from refbridge.bibmerge.entry import OURS_MARK, SEPARATOR, THEIRS_MARK, three_way


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a record: its name, its lines as written, and what it says."""

    name: str
    text: str
    content: str


@dataclass(frozen=True, slots=True)
class Record:
    """A record: its id, the lines before its fields (a YAML key), its fields in order, the
    lines after them (RIS' ``ER`` line, blank lines) and what it says as a whole."""

    id: str
    head: str
    fields: tuple[Field, ...]
    tail: str

    @property
    def text(self) -> str:
        return self.head + "".join(field.text for field in self.fields) + self.tail

    @property
    def content(self) -> Hashable:
        return (self.head.strip(), tuple(sorted((field.name, field.content)
                                                for field in self.fields if field.content)))


@dataclass(frozen=True, slots=True)
class Document:
    """A file: the text before its first record, and its records in order."""

    prefix: str
    records: tuple[Record, ...]


def unique_ids(ids: Sequence[str]) -> list[str]:
    """``ids`` made unique in one file: a repeated one gets ``#2``, ``#3`` ..."""
    seen: dict[str, int] = {}
    unique = []
    for record_id in ids:
        seen[record_id] = seen.get(record_id, 0) + 1
        unique.append(record_id if seen[record_id] == 1 else f"{record_id}#{seen[record_id]}")
    return unique


def placed(ours: Sequence[str], theirs: Sequence[str]) -> list[str]:
    """The ids of both sides in one order: ours', each id only theirs have after the id it
    follows in theirs."""
    known = set(ours)
    anchor: str | None = None
    following: dict[str | None, list[str]] = {}
    for item_id in theirs:
        if item_id in known:
            anchor = item_id
        else:
            following.setdefault(anchor, []).append(item_id)
    order = list(following.get(None, []))
    for item_id in ours:
        order.append(item_id)
        order.extend(following.get(item_id, []))
    return order


def _lines(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def marked(ours: str, theirs: str) -> str:
    """Two versions (either may be empty: deleted) between git's markers."""
    return OURS_MARK + _lines(ours) + SEPARATOR + _lines(theirs) + THEIRS_MARK


def merged_record(base: Record | None, ours: Record, theirs: Record) -> tuple[str, int]:
    """One record both sides have, merged field by field into ours' lines; its conflicts
    (0 or 1)."""
    if ours.text == theirs.text or base is not None and theirs.text == base.text:
        return ours.text, 0
    if base is not None and ours.text == base.text:
        return theirs.text, 0
    if ours.content == theirs.content:
        return ours.text, 0
    head_side, _ = three_way(*(record.head.strip() if record else None
                               for record in (base, ours, theirs)))
    if head_side == "conflict":
        return marked(ours.text, theirs.text), 1
    head = ours.head if head_side == "ours" else theirs.head
    sides = [{field.name: field for field in record.fields}
             for record in (base or Record("", "", (), ""), ours, theirs)]
    names = placed([field.name for field in ours.fields], [field.name for field in theirs.fields])
    body, conflicts = [], 0
    for name in names:
        found = [side.get(name) for side in sides]
        side, _ = three_way(*(field.content if field else None for field in found))
        if side == "conflict":
            body.append(marked(*(field.text if field else "" for field in found[1:])))
            conflicts = 1
            continue
        chosen = found[1] if side == "ours" else found[2]
        if chosen is not None:
            body.append(_lines(chosen.text))
    return head + "".join(body) + ours.tail, conflicts


def _shared(one: Record, other: Record) -> int:
    """How many fields two records hold with the same value."""
    return len({(field.name, field.content) for field in one.fields if field.content}
               & {(field.name, field.content) for field in other.fields})


def followed(base: Document, side: Document) -> dict[str, Record]:
    """``side``'s records by the id they have in ``base``: a record whose id ``base`` lacks
    (a renamed Hayagriva key, a RIS record whose title changed) takes the id of the one
    ``base`` record ``side`` lacks with which it shares more than half of its fields, when
    neither has another such match."""
    base_ids = {record.id for record in base.records}
    side_ids = {record.id for record in side.records}
    gone = [record for record in base.records if record.id not in side_ids]
    new = [record for record in side.records if record.id not in base_ids]
    pairs = [(old, record) for old in gone for record in new
             if 2 * _shared(old, record) > max(len(old.fields), len(record.fields))]
    renamed = {record.id: old.id for old, record in pairs
               if sum(pair[0] is old for pair in pairs) == 1
               and sum(pair[1] is record for pair in pairs) == 1}
    return {renamed.get(record.id, record.id): record for record in side.records}


def merge_documents(base: Document, ours: Document, theirs: Document) -> tuple[str, int]:
    """The merge of ``ours`` and ``theirs``, two versions of ``base``: text and conflicts."""
    sides = [{record.id: record for record in base.records}, followed(base, ours),
             followed(base, theirs)]
    prefix, conflicts = _prefix(base.prefix, ours.prefix, theirs.prefix)
    texts = [prefix]
    for record_id in placed(list(sides[1]), list(sides[2])):
        old, mine, other = (side.get(record_id) for side in sides)
        if mine is not None and other is not None:
            text, found = merged_record(old, mine, other)
        else:
            kept = mine or other
            assert kept is not None
            if old is None:
                text, found = kept.text, 0
            elif kept.content == old.content:
                continue  # deleted on one side, unchanged on the other
            else:
                text = marked(*(record.text if record else "" for record in (mine, other)))
                found = 1
        texts.append(text)
        conflicts += found
    return "".join(texts), conflicts


def _prefix(base: str, ours: str, theirs: str) -> tuple[str, int]:
    if ours == theirs or theirs == base or ours.split() == theirs.split():
        return ours, 0
    if ours == base:
        return theirs, 0
    return marked(ours, theirs), 1
