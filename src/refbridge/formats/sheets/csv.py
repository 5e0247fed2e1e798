"""CSV for spreadsheets: one row a record, one documented column a part of the record.

Columns (the header row names them; any subset, in any order, case ignored): ``key``,
``type`` (a CSL type such as ``article-journal``), ``title``, ``author`` and ``editor``
(``Family, Given`` names separated by ``; ``; a name without a comma is an organisation),
``issued`` (``2020``, ``2020-05``, ``2020-05-17``), ``container-title``, ``volume``,
``issue``, ``page``, ``publisher``, ``publisher-place``, ``DOI``, ``ISBN``, ``ISSN``,
``PMID``, ``URL``, ``abstract``, ``keywords`` (separated by ``; ``) and ``note``; any other
CSL variable name is read too, and the common spreadsheet headings ``Authors``, ``Year``,
``Journal``, ``Pages`` are understood (``COLUMN_ALIASES``). Other columns are kept as
``csv.<heading>`` extras (spaces in the heading become ``_``: ``csv.Author_full_names``) and
written back. A byte order mark before the header row is ignored, also before a quoted heading.

Spreadsheets run formulas: a value that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is written after an apostrophe (which spreadsheet programs show as text and
hide) and read back without it, so record text never becomes a formula. What the columns
cannot hold travels in the ``note`` column as a line ``refbridge: {CSL-JSON}``
(``formats.residue``). This module must never drop a row or a value silently.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, TextIO

from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.csljson import apply_residues, residue_note
from refbridge.formats.datetext import read_date_or_warn
from refbridge.formats.residue import RESIDUE_LABEL, looks_like_residue, note_residue
from refbridge.formats.selection import select
from refbridge.formats.tagged import ris
from refbridge.formats.zotero.rdf import format_date
from refbridge.identifiers import clean_doi_field
from refbridge.model import Date, ModelError, Name, Record, Source, extra_key
from refbridge.registry import WriteOptions
from refbridge.richtext import plain
from refbridge.vocab import ITEM_TYPES, TEXT_VARIABLE_SET

#: The columns refbridge writes, in order.
COLUMNS: tuple[str, ...] = (
    "key", "type", "title", "author", "editor", "issued", "container-title", "volume",
    "issue", "page", "publisher", "publisher-place", "DOI", "ISBN", "ISSN", "PMID", "URL",
    "abstract", "keywords", "note")
NAME_COLUMNS: frozenset[str] = frozenset({"author", "editor"})
#: Headings people give these columns in their own spreadsheets (lower case).
COLUMN_ALIASES: dict[str, str] = {
    "authors": "author", "editors": "editor", "year": "issued", "date": "issued",
    "journal": "container-title", "venue": "container-title", "booktitle": "container-title",
    "source": "container-title", "pages": "page", "number": "issue", "doi": "DOI",
    "url": "URL", "link": "URL", "isbn": "ISBN", "issn": "ISSN", "pmid": "PMID",
    "keyword": "keywords", "tags": "keywords", "notes": "note", "id": "key",
    "citation key": "key",
}
_COLUMN_OF = {**{c.lower(): c for c in TEXT_VARIABLE_SET | set(COLUMNS)}, **COLUMN_ALIASES}
_FORMULA = re.compile(r"^'*[=+\-@\t\r]")
_SEPARATOR = "; "
#: A line break of a value (CR alone: EndNote's, in notes, ISBNs and ISSNs), written as LF:
#: the csv module leaves a lone CR unquoted, and a reader in universal newlines mode (ours,
#: a spreadsheet's) reads a quoted CR as LF anyway.
_LINE_BREAK = re.compile(r"\r\n?")
#: The largest cell read (the csv module's default, 128 KiB, is less than an abstract may be).
FIELD_LIMIT = 1 << 30


def _known(heading: str) -> bool:
    return heading.lower() in _COLUMN_OF


def _cell(value: str) -> str:
    return "'" + value if _FORMULA.match(value) else value


def _uncell(value: str) -> str:
    return value[1:] if value.startswith("'") and _FORMULA.match(value[1:]) else value


def _lf_breaks(text: str) -> str:
    return _LINE_BREAK.sub("\n", text)


def _lf_record(record: Record) -> Record:
    """*record* with its plain text values' line breaks as LF (the same text, as the CSV
    holds it, so that no residue is written for them)."""
    fields = {variable: _lf_breaks(value) if isinstance(value, str) else value
              for variable, value in record.fields.items()}
    return record.replace(fields=fields) if fields != record.fields else record


def _names(text: str) -> tuple[Name, ...]:
    people: list[Name] = []
    for part in text.split(";"):
        part = part.strip()
        if part:
            try:
                people.append(ris.parse_name(part))
            except ModelError:
                people.append(Name(literal=part))
    return tuple(people)


def record_of(row: dict[str, str], source: str, line: int, number: int,
              diagnostics: Diagnostics, with_residue: bool = True) -> Record:
    """The record of one row (column -> value); raises ``ValueError`` for a bad row."""
    fields: dict[str, str] = {}
    names: dict[str, tuple[Name, ...]] = {}
    extra: dict[str, str] = {}
    residues: list[dict[str, Any]] = []
    notes: list[str] = []
    record_type = "document"
    dates = {}
    keywords: tuple[str, ...] = ()
    for heading, raw in row.items():
        value = _uncell(raw).strip()
        if not value:
            continue
        column = _COLUMN_OF.get(heading.strip().lower())
        if column == "type":
            if value in ITEM_TYPES:
                record_type = value
            else:
                diagnostics.warning(f"unknown type {value!r}, read as a document", source,
                                    line)
                extra["csv.type"] = value
        elif column in NAME_COLUMNS:
            names[column] = _names(value)
        elif column == "issued":
            dates["issued"] = read_date_or_warn(
                value, partial(diagnostics.warning, file=source, line=line), heading.strip()) \
                or Date(literal=value)
        elif column == "keywords":
            keywords = tuple(k.strip() for k in value.split(";") if k.strip())
        elif column == "note":
            for part in value.split("\n"):
                found = note_residue(part, source, line, diagnostics)
                if found is not None:
                    residues.append(found)
                else:
                    notes.append(part)
        elif column is not None and column != "key" and column in TEXT_VARIABLE_SET:
            fields[column] = value
        elif column != "key":
            extra[extra_key("csv", heading)] = value
    note = "\n".join(notes).strip()
    if note:
        fields["note"] = note
    key = _uncell(next((v for h, v in row.items() if _COLUMN_OF.get(h.strip().lower())
                        == "key"), "")).strip() or None
    clean_doi_field(fields)
    record = Record(id=key or f"row{number}", type=record_type, fields=fields, names=names,
                    dates=dates, keywords=keywords, citation_key=key, extra=extra,
                    source=Source(source, line))
    return apply_residues(record, residues) if with_residue else record


def rows(stream: TextIO, source: str, diagnostics: Diagnostics,
         known: Callable[[str], bool], keep_longer: bool = False
         ) -> Iterator[tuple[int, int, dict[str, str]]]:
    """The non-empty rows of a CSV text under its header row: (number, line, heading ->
    value). A header row without a heading *known* to the reader is no CSV of records (a .bib
    read as CSV): an error. A row with more cells than headings is reported and skipped, or,
    with *keep_longer* (exports glued together), read by its headings with the cells past the
    last under ``column N`` (their position), reported once."""
    csv.field_size_limit(max(csv.field_size_limit(), FIELD_LIMIT))
    # A byte order mark the decoder left would hide the quote of a quoted first heading.
    first = next(stream, "").lstrip("\ufeff")
    reader = csv.reader(itertools.chain([first], stream))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise ParseError(f"not CSV: {exc}", source, reader.line_num) from None
    if header is None:
        return
    if not any(known(heading.strip()) for heading in header):
        raise ParseError("not a CSV of records: no heading of the first line names a column "
                         "this reader reads", source, 1)
    if len({h.strip().lower() for h in header}) != len(header):
        raise ParseError("a column heading is repeated", source, 1)
    number = 0
    longer_reported = False
    while True:
        line = reader.line_num + 1
        try:
            row = next(reader, None)
        except csv.Error as exc:
            raise ParseError(f"not CSV: {exc}", source, reader.line_num) from None
        if row is None:
            return
        if not any(cell.strip() for cell in row):
            continue
        number += 1
        if len(row) > len(header) and not keep_longer:
            diagnostics.error(f"row skipped: {len(row)} cells under {len(header)} headings",
                              source, line)
            continue
        if len(row) > len(header) and not longer_reported:
            diagnostics.warning(f"rows with more cells than headings ({len(row)} under "
                                f"{len(header)}, from here on): read by their headings, the cells "
                                f"past the last kept as 'column {len(header) + 1}' and on",
                                source, line)
            longer_reported = True
        surplus = {f"column {place}": cell
                   for place, cell in enumerate(row[len(header):], start=len(header) + 1)}
        yield number, line, dict(zip(header, row)) | surplus


def read_rows(stream: TextIO, source: str, diagnostics: Diagnostics,
              with_residue: bool = True) -> Iterator[Record]:
    for number, line, row in rows(stream, source, diagnostics, _known):
        try:
            yield record_of(row, source, line, number, diagnostics, with_residue)
        except ValueError as exc:
            diagnostics.error(f"row skipped: {exc}", source, line)


def native_row(record: Record) -> dict[str, str]:
    row = {v: plain(value) for v, value in record.fields.items() if v in COLUMNS}
    if "note" in row and looks_like_residue(row["note"]):
        del row["note"]
    row["type"] = record.type
    if record.citation_key:
        row["key"] = record.citation_key
    for role in NAME_COLUMNS & record.names.keys():
        row[role] = _SEPARATOR.join(ris.format_name(p) for p in record.names[role])
    issued = record.dates.get("issued")
    if issued is not None and (text := format_date(issued)):
        row["issued"] = text
    if record.keywords:
        row["keywords"] = _SEPARATOR.join(record.keywords)
    return row


def _line(row: dict[str, str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([_cell(_lf_breaks(row.get(c, "")))
                                                   for c in COLUMNS])
    return out.getvalue()


def format_row(record: Record) -> str:
    row = native_row(record)
    header = _line({c: c for c in COLUMNS})
    (native,) = read_rows(io.StringIO(header + _line(row), newline=""), "<csv>", Diagnostics(),
                          with_residue=False)
    note = residue_note(record, native)
    if note:
        row["note"] = "\n".join(p for p in (row.get("note"), note) if p)
    return _line(row)


class CsvReader(catalogue.CatalogueReader):
    name = "csv"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        return read_rows(stream, source, diagnostics)


class CsvWriter:
    name = "csv"
    description = catalogue.WRITERS["csv"].description
    extension = catalogue.WRITERS["csv"].extension
    #: a CSV file read as text (universal new lines) reads a carriage return as a line feed
    key_unsafe = re.compile("\r")

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        out.write(_line({c: c for c in COLUMNS}))
        out.writelines(format_row(_lf_record(select(record, options, {}))) for record in records)


def _coverage() -> Coverage:
    native = {column: column for column in COLUMNS if column in MODEL_PARTS}
    native |= {"type": "type (CSL type)", "citation-key": "key", "keywords": "keywords"}
    note = f"note `{RESIDUE_LABEL}: {{CSL-JSON}}`"
    return Coverage(
        format="csv",
        native=native,
        elsewhere={part: note for part in MODEL_PARTS if part not in native},
        notes=(
            ("Names are `Family, Given` separated by `; `; particles are split off again by "
             "the particle table."),
            ("Dates are ISO (`2020-05-17`) or the literal text; ranges, seasons and circa "
             "travel in the residue."),
            "Rich text is written as plain text and travels exactly in the residue.",
        ),
    )


READER = CsvReader()
WRITER = CsvWriter()
COVERAGE = _coverage()
