"""A library as ``refbridge diff`` compares it: its entries by key, each with its type, its
fields (name to value, layout left out) and its identity (``sameness.keys``).

A .bib file is read through its syntax (fields as the file names them, values as written,
spaces normalised), so the difference of two .bib files is in their own terms; any other
format, or a .bib compared with another format, is read into the model and compared as
CSL-JSON. This module must never hide a field: every field read is compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from refbridge.bibmerge.units import Unreadable, normalised, read_library
from refbridge.errors import Diagnostics, ParseError
from refbridge.model import Record
from refbridge.sameness.keys import bib_identity, work_identity

#: The pseudo-field that holds an entry's type in the comparison.
TYPE_FIELD = "@type"
#: The file endings read through the .bib syntax.
BIB_SUFFIXES = frozenset({".bib", ".bibtex"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry: its fields (``@type`` among them) and its identity (None: unknown)."""

    key: str
    fields: dict[str, str]
    identity: str | None


def is_bib(path: str) -> bool:
    return Path(path).suffix.lower() in BIB_SUFFIXES or path == "/dev/null"


def bib_entries(path: str) -> list[Entry]:
    """The entries of a .bib file, read through its syntax."""
    try:
        text = Path(path).read_bytes().decode("utf-8", "surrogateescape")
    except OSError as exc:
        raise ParseError(f"cannot open: {exc.strerror}", path) from None
    try:
        library = read_library(text)
    except Unreadable as problem:
        raise ParseError(str(problem), path) from None
    found = []
    for unit in library.units:
        if unit.kind == "entry" and unit.block is not None:
            fields = {TYPE_FIELD: unit.block.entry_type, **unit.fields}
            found.append(Entry(unit.block.key, fields,
                               bib_identity(unit.block.entry_type, unit.fields)))
    return found


def _csl_value(value: object) -> str:
    return normalised(value) if isinstance(value, str) else json.dumps(value, sort_keys=True,
                                                                       ensure_ascii=False)


def _record_entry(record: Record) -> Entry:
    from refbridge.formats.csljson import to_csl

    item = to_csl(record)
    key = str(item.pop("id"))
    fields = {TYPE_FIELD: str(item.pop("type"))}
    fields.update((name, _csl_value(value)) for name, value in sorted(item.items()))
    authors = record.names.get("author") or record.names.get("editor") or ()
    family = (authors[0].family or authors[0].literal or "") if authors else ""
    issued = record.dates.get("issued")
    year = str(issued.start.year) if issued is not None and issued.start is not None else ""
    identity = work_identity(record.type, str(item.get("title", "")), year,
                             " ".join(family.casefold().split()),
                             doi=str(item.get("DOI", "")),
                             arxiv=record.eprint.identifier or "" if record.eprint is not None
                             and record.eprint.archive.lower() == "arxiv" else "")
    return Entry(key, fields, identity)


def model_entries(path: str) -> list[Entry]:
    """The entries of a library in any format refbridge reads, compared as CSL-JSON."""
    from refbridge.pipeline import read_file

    diagnostics = Diagnostics()
    records = list(read_file(path, diagnostics))
    if diagnostics.skipped:
        raise ParseError(f"{diagnostics.skipped} broken record(s); cannot compare the "
                         "library whole", path)
    return [_record_entry(record) for record in records]
