"""Reader for the arXiv metadata snapshot (Kaggle's ``arxiv-metadata-oai-snapshot.json``):
JSON Lines, one paper a line, with ``id``, ``submitter``, ``authors``, ``title``,
``comments``, ``journal-ref``, ``doi``, ``report-no``, ``categories``, ``license``,
``abstract``, ``versions`` (``[{"version": "v1", "created": "Mon, 2 Apr 2007 ..."}]``),
``update_date`` and ``authors_parsed`` (``[[family, given, suffix], ...]``).

Each paper becomes one preprint as the arXiv feed reader makes one (``arxiv_feed``'s extras):
its authors from ``authors_parsed`` (the ``authors`` text when there is none), the identifier
with its latest version, the first category primary and the others cross-lists, the first
version's date as issued, the DOI (the first of several), title and abstract with their TeX
accents decoded, and as extras the journal reference, comments, report number, licence,
first version date and update date. This module must never hold more than one line of its
input.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from email.utils import parsedate
from typing import Any, TextIO

from refbridge.arxiv_taxonomy import is_category
from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.dumps.lines import json_objects
from refbridge.formats.services.answers import as_list, as_map, as_text, record_or_error
from refbridge.formats.services.arxiv_feed import EXTRA_ELEMENTS
from refbridge.identifiers import arxiv_base, clean_doi
from refbridge.latex.decode import decode_latex
from refbridge.model import Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names.reading import split_name
from refbridge.richtext import Text, plain

WHAT = "an arXiv metadata record"
#: Snapshot member -> extra key (the feed's keys where the feed has the value too).
EXTRA_MEMBERS: dict[str, str] = {
    "journal-ref": EXTRA_ELEMENTS["journal_ref"],
    "comments": EXTRA_ELEMENTS["comment"],
    "report-no": "arxiv.report-no",
    "license": "arxiv.license",
    "update_date": "arxiv.updated",
}


def _rich(text: str) -> Text:
    return decode_latex(" ".join(text.split()), prose=True)


def _latex(text: str) -> str:
    return plain(_rich(text))


def _names(paper: Mapping[str, Any]) -> tuple[Name, ...]:
    parsed = [[_latex(as_text(part)) for part in as_list(person)]
              for person in as_list(paper.get("authors_parsed"))]
    if parsed:
        return tuple(Name(family=person[0], given=person[1] if len(person) > 1 and person[1]
                          else None, suffix=person[2] if len(person) > 2 and person[2] else None)
                     for person in parsed if person and person[0])
    written = _latex(as_text(paper.get("authors"))).replace(" and ", ", ")
    return tuple(split_name(name) for name in written.split(",") if name.strip())


def _first_version(paper: Mapping[str, Any]) -> tuple[Date | None, str]:
    """The date of the first version, and its ISO spelling."""
    versions = as_list(paper.get("versions"))
    parsed = parsedate(as_text(as_map(versions[0]).get("created"))) if versions else None
    if parsed is None:
        return None, ""
    try:
        year, month, day = parsed[:3]
        return Date(start=DateParts(year, month, day)), f"{year:04d}-{month:02d}-{day:02d}"
    except ModelError:
        return None, ""


def paper_record(paper: Mapping[str, Any], source: Source, diagnostics: Diagnostics
                 ) -> Record | None:
    """The record of one paper of the snapshot."""
    identifier = as_text(paper.get("id"))
    versions = [as_text(as_map(v).get("version")) for v in as_list(paper.get("versions"))]
    latest = versions[-1] if versions and versions[-1] else ""
    fields: dict[str, Text] = {variable: _rich(as_text(paper.get(member)))
              for member, variable in (("title", "title"), ("abstract", "abstract"))
              if as_text(paper.get(member))}
    dois = as_text(paper.get("doi")).split()
    if dois:  # authors occasionally list several; the first is the article's
        fields["DOI"] = clean_doi(dois[0])
    extra = {key: as_text(paper.get(member)) for member, key in EXTRA_MEMBERS.items()
             if as_text(paper.get(member))}
    issued, first = _first_version(paper)
    if first:
        extra["arxiv.published"] = first
    categories = [c for c in as_text(paper.get("categories")).split() if is_category(c)]
    authors = _names(paper)
    return record_or_error(
        diagnostics, source, id=f"arxiv:{arxiv_base(identifier) or source.line}",
        type="article", fields=fields, names={"author": authors} if authors else {},
        dates={"issued": issued} if issued else {},
        eprint=Eprint("arXiv", identifier + latest, categories[0] if categories else None,
                      tuple(categories[1:])) if identifier else None,
        extra=extra)


class ArxivMetadataReader(catalogue.CatalogueReader):
    name = "arxiv-metadata"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        for line, paper in json_objects(stream, source, diagnostics, WHAT):
            record = paper_record(paper, Source(source, line), diagnostics)
            if record is not None:
                yield record


READER = ArxivMetadataReader()
