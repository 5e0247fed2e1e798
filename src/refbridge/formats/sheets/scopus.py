"""Scopus CSV export (Scopus: *Export → CSV*), read.

One row a document under Scopus's headings: ``Authors`` (``Qian Z., Yang Q.`` or, since 2023,
``Qian, Z.; Yang, Q.``), ``Author full names`` (``Qian, Zhengping (57200000000); …``, read
in preference), ``Title``, ``Year``, ``Source title``, ``Volume``, ``Issue``, ``Art. No.``,
``Page start``, ``Page end``, ``DOI``, ``Link``, ``Abstract``, ``Author Keywords``, ``Index
Keywords``, ``Editors``, ``Publisher``, ``Conference name``, ``ISSN``, ``ISBN``, ``PubMed ID``,
``Language of Original Document``, ``Abbreviated Source Title``, ``Document Type`` and
``EID``. Other headings (affiliations, funding, citation counts ...) are kept as
``scopus.<heading>`` extras. This module must never drop a row or value silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from refbridge.errors import Diagnostics
from refbridge.formats.datetext import year_of
from refbridge.formats.sheets.csv import rows
from refbridge.formats.tagged import ris
from refbridge.identifiers import clean_doi_field
from refbridge.model import Date, ModelError, Name, Record, Source

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
#: Scopus document types -> CSL types.
DOCUMENT_TYPES: dict[str, str] = {
    "Article": "article-journal", "Review": "article-journal", "Letter": "article-journal",
    "Note": "article-journal", "Editorial": "article-journal", "Erratum": "article-journal",
    "Short Survey": "article-journal", "Data Paper": "article-journal",
    "Conference Paper": "paper-conference", "Conference Review": "paper-conference",
    "Book Chapter": "chapter", "Book": "book", "Report": "report", "Retracted": "article-journal",
}
KEYWORD_COLUMNS: tuple[str, ...] = ("Author Keywords", "Index Keywords")
_SCOPUS_ID = re.compile(r"\s*\(\d+\)$")
_OLD_STYLE = re.compile(r"^[^,;]+ (?:[A-Z]\.-?)+$")


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
    if row.get("Editors") and (editors := _names(row["Editors"])):
        names["editor"] = editors
    document = row.get("Document Type", "")
    record_type = DOCUMENT_TYPES.get(document, "article-journal" if fields.get(
        "container-title") else "document")
    if document and document not in DOCUMENT_TYPES:
        diagnostics.warning(f"unknown Scopus document type {document!r}", source, line)
    year = year_of(row.get("Year", ""))
    keywords = [k.strip() for column in KEYWORD_COLUMNS for k in row.get(column, "").split(";")
                if k.strip()]
    handled = {*COLUMNS, "Page start", "Page end", "Author full names", "Authors", "Editors",
               "Document Type", "Year", *KEYWORD_COLUMNS}
    extra = {f"scopus.{h.replace(' ', '_')}": v for h, v in row.items()
             if v and h not in handled}
    if row.get("Year") and year is None:
        extra["scopus.Year"] = row["Year"]
    clean_doi_field(fields)
    return Record(
        id=row.get("EID") or f"scopus{number}", type=record_type, fields=fields, names=names,
        dates={"issued": Date.of(year)} if year is not None else {},
        keywords=tuple(dict.fromkeys(keywords)), extra=extra, source=Source(source, line))


class ScopusCsvReader:
    name = "scopus-csv"
    sniff_first = True
    description = "Scopus CSV export (Export → CSV)"
    extensions = (".csv",)

    def sniff(self, head: str) -> bool:
        first = head.split("\n", 1)[0]
        return "Source title" in first and ("EID" in first or "Authors" in first)

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        for number, line, row in rows(stream, source, diagnostics):
            try:
                yield record_of(row, source, line, number, diagnostics)
            except ValueError as exc:
                diagnostics.error(f"row skipped: {exc}", source, line)


READER = ScopusCsvReader()
