"""Scopus CSV export (Scopus: *Export → CSV*), read.

One row a document under Scopus's headings: ``Authors`` (``Qian Z., Yang Q.`` or, since 2023,
``Qian, Z.; Yang, Q.``), ``Author full names`` (``Qian, Zhengping (57200000000); …``, read
in preference), ``Title``, ``Year``, ``Source title``, ``Volume``, ``Issue``, ``Art. No.``,
``Page start``, ``Page end``, ``DOI``, ``Link``, ``Abstract``, ``Author Keywords``, ``Index
Keywords``, ``Editors``, ``Publisher``, ``Conference name``, ``ISSN``, ``ISBN``, ``PubMed ID``,
``Language of Original Document``, ``Abbreviated Source Title``, ``Document Type`` and
``EID``. Other headings (affiliations, funding, citation counts ...) are kept as
``scopus.<heading>`` extras (``scopus.Author(s)_ID``). Document types are matched without
regard to case (exports since 2023 write ``Conference paper``, ``Book chapter``).
``Editors`` is ``Kaiser M.S.; Ray K.`` or, in many exports, run together without a
separator (``Kaiser M.S.Ray K.``): a name ends after an initial that a word follows. This
module must never drop a row or value silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.datetext import year_of
from refbridge.formats.sheets.csv import rows
from refbridge.formats.tagged import ris
from refbridge.identifiers import clean_doi_field
from refbridge.model import Date, ModelError, Name, Record, Source, extra_key

#: Scopus heading -> CSL text variable.
COLUMNS: dict[str, str] = {
    "Title": "title",
    "Source title": "container-title",
    "Abbreviated Source Title": "container-title-short",
    "Volume": "volume",
    "Issue": "issue",
    "Art. No.": "number",
    "Page count": "number-of-pages",
    "DOI": "DOI",
    "Link": "URL",
    "Abstract": "abstract",
    "Publisher": "publisher",
    "Conference name": "event-title",
    "Conference location": "event-place",
    "ISSN": "ISSN",
    "ISBN": "ISBN",
    "PubMed ID": "PMID",
    "Language of Original Document": "language",
}
#: Scopus document types (lower case: exports write ``Conference Paper`` or, since 2023,
#: ``Conference paper``) -> CSL types.
DOCUMENT_TYPES: dict[str, str] = {
    "article": "article-journal", "review": "article-journal", "letter": "article-journal",
    "note": "article-journal", "editorial": "article-journal", "erratum": "article-journal",
    "short survey": "article-journal", "data paper": "article-journal",
    "article in press": "article-journal", "retracted": "article-journal",
    "conference paper": "paper-conference", "conference review": "paper-conference",
    "book chapter": "chapter", "book": "book", "report": "report",
}
KEYWORD_COLUMNS: tuple[str, ...] = ("Author Keywords", "Index Keywords")
#: Columns read into another form than their text (names, the type, the year): column -> how.
RECOMPOSED: dict[str, str] = {
    **dict.fromkeys(("Authors", "Author full names", "Editors"), "names (family, given)"),
    "Document Type": "the CSL type", "Year": "the issued date",
    **dict.fromkeys(KEYWORD_COLUMNS, "the keywords, split at ;"),
}
_SCOPUS_ID = re.compile(r"\s*\(\d+\)$")
_OLD_STYLE = re.compile(r"^[^,;]+ (?:[A-Z][a-z]?\.-?)+$")
#: Where one editor of a run-together ``Editors`` cell ends: after an initial (``M.S.``),
#: before a word (``Bandyopadhyay``, ``de Gloria``); ``Ma.M.T.`` and ``J.-M.`` stay whole.
_EDITOR_BOUNDARY = re.compile(r"(?<=\b[^\W\d_]\.)(?=[^\W\d_]{2})")


def _names(text: str) -> tuple[Name, ...]:
    """Names of ``Author full names`` or ``Authors``, either style."""
    parts = [p.strip() for p in text.split(";")] if ";" in text or "(" in text else (
        [p.strip() for p in text.split(",")] if all(
            _OLD_STYLE.match(p.strip()) for p in text.split(",")) else [text.strip()])
    people: list[Name] = []
    for part in parts:
        part = _SCOPUS_ID.sub("", part).strip()
        if not part or part == "[No author name available]":
            continue
        if "," not in part and _OLD_STYLE.match(part):
            family, _, initials = part.rpartition(" ")
            people.append(Name(family=family, given=initials))
            continue
        try:
            people.append(ris.parse_name(part))
        except ModelError:
            people.append(Name(literal=part))
    return tuple(people)


def _editors(text: str) -> tuple[Name, ...]:
    """Names of ``Editors``: separated by ``;`` or run together (``Kaiser M.S.Ray K.``)."""
    if ";" in text:
        return _names(text)
    return tuple(person for part in _EDITOR_BOUNDARY.split(text) for person in _names(part))


def _known(heading: str) -> bool:
    return heading in COLUMNS or heading in RECOMPOSED or heading in ("Page start", "Page end",
                                                                      "EID")


def record_of(row: dict[str, str], source: str, line: int, number: int,
              diagnostics: Diagnostics) -> Record:
    row = {heading.strip(): value.strip() for heading, value in row.items()}
    fields = {v: row[h] for h, v in COLUMNS.items() if row.get(h)}
    pages = "-".join(p for p in (row.get("Page start"), row.get("Page end")) if p)
    if pages:
        fields["page"] = pages
    names: dict[str, tuple[Name, ...]] = {}
    authors = _names(row.get("Author full names") or row.get("Authors") or "")
    if authors:
        names["author"] = authors
    if row.get("Editors") and (editors := _editors(row["Editors"])):
        names["editor"] = editors
    document = row.get("Document Type", "")
    record_type = DOCUMENT_TYPES.get(document.lower(), "article-journal" if fields.get(
        "container-title") else "document")
    if document and document.lower() not in DOCUMENT_TYPES:
        diagnostics.warning(f"unknown Scopus document type {document!r}", source, line)
    year = year_of(row.get("Year", ""))
    keywords = [k.strip() for column in KEYWORD_COLUMNS for k in row.get(column, "").split(";")
                if k.strip()]
    handled = {*COLUMNS, "Page start", "Page end", "Author full names", "Authors", "Editors",
               "Document Type", "Year", *KEYWORD_COLUMNS}
    extra = {extra_key("scopus", h): v for h, v in row.items()
             if v and h not in handled}
    if row.get("Year") and year is None:
        extra["scopus.Year"] = row["Year"]
    clean_doi_field(fields)
    return Record(
        id=row.get("EID") or f"scopus{number}", type=record_type, fields=fields, names=names,
        dates={"issued": Date.of(year)} if year is not None else {},
        keywords=tuple(dict.fromkeys(keywords)), extra=extra, source=Source(source, line))


class ScopusCsvReader(catalogue.CatalogueReader):
    name = "scopus-csv"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        for number, line, row in rows(stream, source, diagnostics, _known, keep_longer=True):
            try:
                yield record_of(row, source, line, number, diagnostics)
            except ValueError as exc:
                diagnostics.error(f"row skipped: {exc}", source, line)


READER = ScopusCsvReader()
