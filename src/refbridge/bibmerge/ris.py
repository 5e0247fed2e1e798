"""A RIS file cut into records of fields for the merge driver (``records``): a record runs
from its ``TY`` line to its ``ER`` line, with the blank lines after it; a field is every line
of one tag (``AU`` repeated is one field, its values in order), a line without a tag
continuing the one before. A record's id is its ``ID`` when it has one, else the work's
identity (DOI, else title, year and first author: ``identity``), else its text.

This module only cuts and reads the text: it must never change it.
"""

from __future__ import annotations

from refbridge.bibmerge.records import Document, Field, Record, unique_ids
from refbridge.bibmerge.units import Unreadable, normalised
from refbridge.formats.tagged.ris import TAG_LINE
from refbridge.sameness.keys import work_identity

#: The tags a record's identity is read from: title, year, first author, DOI, ISBN.
_TITLE, _YEAR, _AUTHOR = ("TI", "T1"), ("PY", "Y1", "DA"), ("AU", "A1")


def _tag(line: str) -> str | None:
    found = TAG_LINE.match(line.rstrip("\r\n").lstrip("\ufeff"))
    return found.group("tag") if found else None


def _value(line: str) -> str:
    found = TAG_LINE.match(line.rstrip("\r\n").lstrip("\ufeff"))
    return normalised((found.group("value") or "") if found else line)


def _record(lines: list[str], tail: list[str]) -> tuple[str, Record]:
    """A record from its lines up to its ``ER`` line, and its id before ids are unique."""
    order: list[str] = []
    texts: dict[str, list[str]] = {}
    values: dict[str, list[str]] = {}
    current = ""
    for line in lines:
        tag = _tag(line)
        if tag is not None:
            current = tag
            if tag not in texts:
                order.append(tag)
                texts[tag], values[tag] = [], []
            values[tag].append(_value(line))
        else:
            values[current][-1] = normalised(values[current][-1] + " " + line)
        texts[current].append(line)
    fields = tuple(Field(tag, "".join(texts[tag]), "\n".join(v for v in values[tag] if v))
                   for tag in order)
    return _id(values), Record("", "", fields, "".join(tail))


def _first(values: dict[str, list[str]], tags: tuple[str, ...]) -> str:
    return next((values[tag][0] for tag in tags if values.get(tag)), "")


def _id(values: dict[str, list[str]]) -> str:
    if values.get("ID") and values["ID"][0]:
        return "id:" + values["ID"][0]
    year = _first(values, _YEAR)[:4]
    author = _first(values, _AUTHOR).split(",")[0]
    found = work_identity(_first(values, ("TY",)), _first(values, _TITLE), year, author.lower(),
                          doi=_first(values, ("DO",)), isbn=_first(values, ("SN",)))
    if found:
        return found
    return "text:" + " ".join(v for tag in values for v in values[tag])


def read_ris(text: str) -> Document:
    """The records of RIS ``text``; ``Unreadable`` when it holds none, or a record without its
    ``ER`` line."""
    lines = text.splitlines(keepends=True)
    prefix: list[str] = []
    records: list[tuple[str, Record]] = []
    index = 0
    while index < len(lines):
        if _tag(lines[index]) != "TY":
            if records:
                raise Unreadable(f"line {index + 1}: text outside a record")
            prefix.append(lines[index])
            index += 1
            continue
        start = index
        while index < len(lines) and _tag(lines[index]) != "ER":
            index += 1
            if index < len(lines) and _tag(lines[index]) == "TY":
                raise Unreadable(f"line {start + 1}: a record without its ER line")
        if index == len(lines):
            raise Unreadable(f"line {start + 1}: a record without its ER line")
        tail = [lines[index]]
        index += 1
        while index < len(lines) and not lines[index].strip():
            tail.append(lines[index])
            index += 1
        records.append(_record(lines[start:index - len(tail)], tail))
    if not records:
        raise Unreadable("no RIS record (TY ... ER)")
    ids = unique_ids([record_id for record_id, _ in records])
    return Document("".join(prefix), tuple(
        Record(record_id, record.head, record.fields, record.tail)
        for record_id, (_, record) in zip(ids, records, strict=True)))
