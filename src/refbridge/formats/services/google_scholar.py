"""Reader for Google Scholar's CSV export (a profile's *Export → CSV*, ``citations.csv``).

The file has a byte-order mark and the header ``Authors,Title,Publication,Volume,Number,
Pages,Year,Publisher``; authors are ``Family, Given`` separated by ``;`` with a trailing
``"; "``; a list cut short ends in ``...``. The export names no type: ``Publication`` is free
text, so the type is read from it (``arXiv preprint arXiv:2101.00001`` is that preprint, with
its arXiv identity; a venue with a volume and a number is a journal; one named a conference,
proceedings, symposium or workshop is a conference paper; a thesis, a patent ...), else a
journal article when there is a venue, else a document. Scholar's BibTeX export is BibTeX and its RefMan export is RIS: their readers read
them. This module must never make a request.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from functools import partial
from typing import TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.datetext import read_date_or_warn
from refbridge.formats.services.answers import record_or_error
from refbridge.identifiers import SCHOLAR_ARXIV_VENUE
from refbridge.model import Eprint, Name, Record, Source
from refbridge.names.reading import name_from_fields
from refbridge.richtext import Text

#: Columns of the export -> CSL variable (``Authors`` and ``Year`` are read on their own).
COLUMNS: dict[str, str] = {"Title": "title", "Publication": "container-title",
                           "Volume": "volume", "Number": "issue", "Pages": "page",
                           "Publisher": "publisher"}
REQUIRED = catalogue.GOOGLE_SCHOLAR_COLUMNS
#: Words of the ``Publication`` text -> CSL type, the first that occurs wins.
VENUE_TYPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:thesis|dissertation)\b", re.IGNORECASE), "thesis"),
    (re.compile(r"\bpatent\b", re.IGNORECASE), "patent"),
    (re.compile(r"\b(?:conference|proceedings|symposium|workshop|proc\.)", re.IGNORECASE),
     "paper-conference"),
)
#: Scholar's venue for an arXiv preprint.
#: What ends an author list that Scholar cut short.
ELLIPSES: frozenset[str] = frozenset({"...", "…"})


def _authors(text: str) -> tuple[list[Name], bool]:
    names: list[Name] = []
    cut = False
    for part in text.split(";"):
        part = " ".join(part.split())
        if not part:
            continue
        if part in ELLIPSES:
            cut = True
            continue
        family, comma, given = part.partition(",")
        names.append(name_from_fields(family.strip(), given.strip()) if comma
                     else Name(literal=part))
    return names, cut


def _record(row: dict[str, str], number: int, source: Source, diagnostics: Diagnostics
            ) -> Record | None:
    fields: dict[str, Text] = {}
    for column, variable in COLUMNS.items():
        text = " ".join((row.get(column) or "").split())
        if text:
            fields[variable] = text
    venue = str(fields.get("container-title", ""))
    preprint = SCHOLAR_ARXIV_VENUE.match(venue)
    eprint = None
    if preprint:
        del fields["container-title"]
        eprint = Eprint("arXiv", preprint.group("id"))
        record_type = "article"
    elif "volume" in fields and "issue" in fields:
        record_type = "article-journal"
    else:
        record_type = next((kind for pattern, kind in VENUE_TYPES if pattern.search(venue)),
                           "article-journal" if venue else "document")
    names, cut = _authors(row.get("Authors") or "")
    issued = read_date_or_warn(row.get("Year") or "", partial(
        diagnostics.warning, file=source.file, line=source.line), "Year")
    return record_or_error(
        diagnostics, source, id=f"scholar:{number}", type=record_type, fields=fields,
        names={"author": tuple(names)} if names else {},
        incomplete_names=frozenset({"author"}) if cut and names else frozenset(),
        dates={"issued": issued} if issued is not None else {},
        eprint=eprint)


class GoogleScholarCsvReader(catalogue.CatalogueReader):
    name = "google-scholar-csv"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        text = stream.read().lstrip("\ufeff")
        rows = csv.reader(text.splitlines(keepends=True))
        header = next(rows, None)
        if header is None or not REQUIRED <= {c.strip() for c in header}:
            raise ParseError("not a Google Scholar CSV export: the header needs the columns "
                             f"{', '.join(sorted(REQUIRED))}", source, 1)
        columns = [c.strip() for c in header]
        number = 0
        start = rows.line_num + 1  # where the next row starts (a cell may hold line breaks)
        for row in rows:
            line, start = start, rows.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if len(row) > len(columns):
                diagnostics.error(f"row has {len(row)} cells, the header {len(columns)}; "
                                  "skipped", source, line)
                continue
            number += 1
            record = _record(dict(zip(columns, row)), number, Source(source, line),
                             diagnostics)
            if record is not None:
                yield record


READER = GoogleScholarCsvReader()
