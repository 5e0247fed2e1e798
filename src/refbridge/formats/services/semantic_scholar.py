"""Reader for Semantic Scholar Academic Graph answers: an author's papers
(``/graph/v1/author/{id}/papers``: ``offset``, ``next``, ``data``), an author with their
``papers``, a list of papers (``/paper/batch``) or one paper, as the Graph API documentation
describes the Paper object.

Each paper becomes one record: the type from ``publicationTypes`` (a paper with an arXiv id
and no journal is a preprint), title, abstract, every author with their Semantic Scholar id,
the venue (``journal.name``, else ``publicationVenue.name``, else ``venue``) with volume and
pages, the publication date (else the year), and ``externalIds``: DOI, the arXiv identity,
PMID, PMCID; the rest (DBLP key, CorpusId, MAG, ACL) are kept as
``semantic-scholar.<name>``. Citation counts and fields of study are computed, not
bibliographic, and left out. An author answer, or the author every paper of a list shares,
owns the records. This module must never make a request.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.services.answers import (
    JsonLines,
    as_list,
    as_map,
    as_text,
    common_author,
    item_records,
    load_json,
    owned,
    record_or_error,
)
from refbridge.identifiers import clean_doi
from refbridge.model import Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names.ids import PersonIdError, person_id
from refbridge.names.reading import split_name
from refbridge.richtext import Text

#: ``publicationTypes`` value -> CSL item type; the first value found in this order wins.
PUBLICATION_TYPES: dict[str, str] = {
    "Conference": "paper-conference",
    "JournalArticle": "article-journal",
    "BookSection": "chapter",
    "Book": "book",
    "Dataset": "dataset",
    "Review": "article-journal",
    "Editorial": "article-journal",
    "LettersAndComments": "article-journal",
    "News": "article-newspaper",
}
#: ``externalIds`` member -> CSL variable.
ID_VARIABLES: dict[str, str] = {"DOI": "DOI", "PubMed": "PMID", "PubMedCentral": "PMCID"}
#: ``externalIds`` members that identify nothing a citation needs, kept in ``extra``.
KEPT_IDS: tuple[str, ...] = ("DBLP", "CorpusId", "MAG", "ACL")
#: How Semantic Scholar names arXiv as a venue (its "volume" is then ``abs/ID``).
ARXIV_VENUES: frozenset[str] = frozenset({"arxiv", "arxiv.org"})
_PAGES = re.compile(r"\s*[-–]\s*")


def _date(paper: Mapping[str, Any]) -> Date | None:
    text = as_text(paper.get("publicationDate"))
    if re.match(r"^\d{4}-\d{2}-\d{2}$", text):
        try:
            return Date(start=DateParts(*(int(p) for p in text.split("-"))))
        except ModelError:
            pass
    year = paper.get("year")
    return Date.of(year) if isinstance(year, int) and not isinstance(year, bool) and year \
        else None


def _authors(paper: Mapping[str, Any]) -> tuple[Name, ...]:
    names = []
    for author in map(as_map, as_list(paper.get("authors"))):
        text = as_text(author.get("name"))
        if not text:
            continue
        split = split_name(text)
        ids: tuple[str, ...] = ()
        if as_text(author.get("authorId")):
            try:
                ids = (person_id("s2", as_text(author.get("authorId"))),)
            except PersonIdError:
                pass
        names.append(Name(family=split.family, given=split.given,
                          non_dropping_particle=split.non_dropping_particle,
                          suffix=split.suffix, ids=ids))
    return tuple(names)


def _type(paper: Mapping[str, Any], has_venue: bool, arxiv: str | None) -> str:
    kinds = [as_text(k) for k in as_list(paper.get("publicationTypes"))]
    for kind, csl_type in PUBLICATION_TYPES.items():
        if kind in kinds:
            return csl_type
    if arxiv and not has_venue:
        return "article"
    return "article-journal" if has_venue else "article"


def paper_record(paper: Mapping[str, Any], source: Source, diagnostics: Diagnostics
                 ) -> Record | None:
    """The record of one Semantic Scholar paper object."""
    fields: dict[str, Text] = {}
    for member, variable in (("title", "title"), ("abstract", "abstract")):
        text = as_text(paper.get(member))
        if text:
            fields[variable] = text
    journal = as_map(paper.get("journal"))
    venue = (as_text(journal.get("name")) or as_text(as_map(paper.get("publicationVenue"))
                                                     .get("name"))
             or as_text(paper.get("venue")))
    on_arxiv = venue.lower() in ARXIV_VENUES or as_text(journal.get("name")).lower() \
        in ARXIV_VENUES
    if venue and not on_arxiv:
        fields["container-title"] = venue
    if as_text(journal.get("volume")) and not on_arxiv:
        fields["volume"] = as_text(journal.get("volume"))
    if as_text(journal.get("pages")):
        fields["page"] = _PAGES.sub("-", as_text(journal.get("pages")))
    external = as_map(paper.get("externalIds"))
    for member, variable in ID_VARIABLES.items():
        value = as_text(external.get(member))
        if value:
            fields[variable] = clean_doi(value) if member == "DOI" else value
    extra = {f"semantic-scholar.{member.lower()}": as_text(external.get(member))
             for member in KEPT_IDS if as_text(external.get(member))}
    paper_id = as_text(paper.get("paperId"))
    if paper_id:
        extra["semantic-scholar.id"] = paper_id
    arxiv = as_text(external.get("ArXiv")) or None
    authors = _authors(paper)
    issued = _date(paper)
    return record_or_error(
        diagnostics, source, id=f"s2:{paper_id or source.line}",
        type=_type(paper, "container-title" in fields, arxiv), fields=fields,
        names={"author": authors} if authors else {}, dates={"issued": issued} if issued else {},
        eprint=Eprint("arXiv", arxiv) if arxiv else None, extra=extra)


def papers_of(data: Any, source: str) -> tuple[list[Mapping[str, Any]], Mapping[str, Any] | None]:
    """The paper objects of an answer, and the author it is about (when it says)."""
    if isinstance(data, list):
        return [p for p in data if isinstance(p, Mapping)], None
    if not isinstance(data, Mapping):
        raise ParseError("not a Semantic Scholar answer: expected an object or a list", source,
                         1)
    if "papers" in data and "authorId" in data:
        return [p for p in as_list(data["papers"]) if isinstance(p, Mapping)], data
    if "paperId" in data:
        return [data], None
    if "data" in data or "offset" in data:
        papers = data.get("data") or []
        if not isinstance(papers, list):
            raise ParseError("Semantic Scholar data must be a list", source, 1)
        return [p for p in papers if isinstance(p, Mapping)], None
    raise ParseError("not a Semantic Scholar answer (no data, papers or paperId)", source, 1)


def read_papers(papers: Sequence[Mapping[str, Any]], author: Mapping[str, Any] | None,
                source: str, diagnostics: Diagnostics, lines: JsonLines | None = None
                ) -> Iterator[Record]:
    """The records of ``papers``, owned by ``author`` or the author they all share."""
    records = item_records(papers, "paperId", paper_record, source, diagnostics, lines)
    ids: tuple[str, ...]
    if author is not None and as_text(author.get("authorId")).isdigit():
        owner, ids = as_text(author.get("name")) or None, (
            person_id("s2", as_text(author.get("authorId"))),)
    else:
        owner, ids = common_author(records, "s2")
    yield from owned(records, owner, ids)


class SemanticScholarReader(catalogue.CatalogueReader):
    name = "semantic-scholar"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        text = stream.read()
        papers, author = papers_of(load_json(text, source, "a Semantic Scholar answer",
                                              diagnostics), source)
        yield from read_papers(papers, author, source, diagnostics, JsonLines(text))


READER = SemanticScholarReader()
