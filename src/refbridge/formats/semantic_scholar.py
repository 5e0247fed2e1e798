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
from refbridge.formats.service_data import (
    JsonLines,
    common_author,
    load_json,
    owned,
    record_or_error,
)
from refbridge.merge import bare_doi
from refbridge.model import Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names import split_name
from refbridge.people import PersonIdError, person_id
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
    text = paper.get("publicationDate")
    if isinstance(text, str) and re.match(r"^\d{4}-\d{2}-\d{2}$", text):
        try:
            return Date(start=DateParts(*(int(p) for p in text.split("-"))))
        except ModelError:
            pass
    year = paper.get("year")
    return Date.of(year) if isinstance(year, int) and year else None


def _authors(paper: Mapping[str, Any]) -> tuple[Name, ...]:
    names = []
    for author in paper.get("authors") or ():
        text = " ".join(str((author or {}).get("name") or "").split())
        if not text:
            continue
        split = split_name(text)
        ids: tuple[str, ...] = ()
        if author.get("authorId"):
            try:
                ids = (person_id("s2", str(author["authorId"])),)
            except PersonIdError:
                pass
        names.append(Name(family=split.family, given=split.given,
                          non_dropping_particle=split.non_dropping_particle,
                          suffix=split.suffix, ids=ids))
    return tuple(names)


def _type(paper: Mapping[str, Any], has_venue: bool, arxiv: str | None) -> str:
    kinds = [str(k) for k in paper.get("publicationTypes") or ()]
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
        text = " ".join(str(paper.get(member) or "").split())
        if text:
            fields[variable] = text
    journal = paper.get("journal") or {}
    venue = (journal.get("name") or (paper.get("publicationVenue") or {}).get("name")
             or paper.get("venue") or "")
    venue = " ".join(str(venue).split())
    on_arxiv = venue.lower() in ARXIV_VENUES or str(journal.get("name") or "").lower() \
        in ARXIV_VENUES
    if venue and not on_arxiv:
        fields["container-title"] = venue
    if journal.get("volume") and str(journal["volume"]).strip() and not on_arxiv:
        fields["volume"] = str(journal["volume"]).strip()
    if journal.get("pages") and str(journal["pages"]).strip():
        fields["page"] = _PAGES.sub("-", str(journal["pages"]).strip())
    external = paper.get("externalIds") or {}
    for member, variable in ID_VARIABLES.items():
        if external.get(member):
            fields[variable] = bare_doi(str(external[member])) if member == "DOI" \
                else str(external[member])
    extra = {f"semantic-scholar.{member.lower()}": str(external[member])
             for member in KEPT_IDS if external.get(member)}
    if paper.get("paperId"):
        extra["semantic-scholar.id"] = str(paper["paperId"])
    arxiv = str(external["ArXiv"]) if external.get("ArXiv") else None
    authors = _authors(paper)
    issued = _date(paper)
    return record_or_error(
        diagnostics, source, id=f"s2:{paper.get('paperId') or source.line}",
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
        return [p for p in data["papers"] or () if isinstance(p, Mapping)], data
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
    records = []
    for paper in papers:
        line = lines.line_of(str(paper["paperId"])) if lines and paper.get("paperId") else None
        record = paper_record(paper, Source(source, line), diagnostics)
        if record is not None:
            records.append(record)
    ids: tuple[str, ...]
    if author is not None and str(author.get("authorId") or "").isdigit():
        owner, ids = author.get("name"), (person_id("s2", str(author["authorId"])),)
    else:
        owner, ids = common_author(records, "s2")
    yield from owned(records, owner, ids)


class SemanticScholarReader:
    name = "semantic-scholar"
    description = "Semantic Scholar Graph API answers (an author's papers, papers, a paper)"
    extensions = (".json",)

    def sniff(self, head: str) -> bool:
        stripped = head.lstrip()
        return stripped.startswith(("{", "[")) and (
            '"paperId"' in head or bool(re.match(r'^\{\s*"(?:offset|data|next)"\s*:', stripped)))

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        text = stream.read()
        papers, author = papers_of(load_json(text, source, "a Semantic Scholar answer"), source)
        yield from read_papers(papers, author, source, diagnostics, JsonLines(text))


READER = SemanticScholarReader()
