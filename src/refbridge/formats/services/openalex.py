"""Reader for OpenAlex works: a saved answer of ``/works?filter=author.id:A...`` (``meta`` and
``results``), a list of work objects (as pyalex returns them) or one work, as the OpenAlex
API documentation describes the Work object.

Each work becomes one record: the type from ``type_crossref`` (else ``type`` and the primary
source's type), the title (its HTML markup as rich text), every authorship with the author's
OpenAlex id and ORCID iD, the venue, publisher and ISSN of the primary source (the first of
its ``issn`` list, as Zotero keeps it; the others as the ``openalex.issn`` extra, an ISSN-L
that differs as ``openalex.issn_l``), volume, issue and pages, the publication date, DOI,
PMID and PMCID, the arXiv identity of a work whose location is arXiv, a thesis's university
(the first author's institution when no publisher is named, as Zotero takes it), the
abstract rebuilt from its inverted index, and the work's ``keywords`` (their display names,
as Zotero's OpenAlex translator makes tags of them). What else OpenAlex computes about a work (citation
counts, concepts, topics, scores) is not bibliographic data and is left out, as Zotero leaves
it. The author whose OpenAlex id every work of a list carries is the list's owner. This
module must never make a request.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.csl_markup import from_markup
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
from refbridge.identifiers import arxiv_id_from_doi, arxiv_id_from_url, clean_doi
from refbridge.model import Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names.ids import PersonIdError, person_id
from refbridge.names.reading import split_name
from refbridge.richtext import Text

#: ``type_crossref`` -> CSL item type.
CROSSREF_TYPES: dict[str, str] = {
    "journal-article": "article-journal",
    "proceedings-article": "paper-conference",
    "book-chapter": "chapter",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "posted-content": "article",
    "report": "report",
    "dissertation": "thesis",
    "dataset": "dataset",
    "standard": "standard",
    "reference-entry": "entry-encyclopedia",
}
#: (``type``, primary source type) -> CSL item type, when ``type_crossref`` says nothing;
#: a source type of None stands for any.
WORK_TYPES: dict[tuple[str, str | None], str] = {
    ("article", "journal"): "article-journal",
    ("article", "conference"): "paper-conference",
    ("article", "repository"): "article",
    ("article", None): "article-journal",
    ("preprint", None): "article",
    ("book-chapter", None): "chapter",
    ("book", None): "book",
    ("dataset", None): "dataset",
    ("dissertation", None): "thesis",
    ("report", None): "report",
    ("review", None): "review",
    ("standard", None): "standard",
    ("reference-entry", None): "entry-encyclopedia",
}
#: ``biblio`` member -> CSL variable (pages are joined from first and last page).
BIBLIO_MEMBERS: dict[str, str] = {"volume": "volume", "issue": "issue"}
#: ``ids`` member -> (CSL variable, the address prefix its value carries).
ID_MEMBERS: dict[str, tuple[str, str]] = {
    "pmid": ("PMID", "https://pubmed.ncbi.nlm.nih.gov/"),
    "pmcid": ("PMCID", "https://www.ncbi.nlm.nih.gov/pmc/articles/"),
}
_WORK_ID = re.compile(r"(W\d+)$")


def publication_date(work: Mapping[str, Any]) -> Date | None:
    """``publication_date`` (``2021-03-05``), else ``publication_year``."""
    text = as_text(work.get("publication_date"))
    if re.match(r"^\d{4}-\d{2}-\d{2}", text):
        year, month, day = (int(p) for p in text[:10].split("-"))
        try:
            return Date(start=DateParts(year, month, day))
        except ModelError:
            pass
    only_year = work.get("publication_year")
    return Date.of(only_year) if isinstance(only_year, int) \
        and not isinstance(only_year, bool) and only_year else None


def biblio_fields(work: Mapping[str, Any]) -> dict[str, Text]:
    """Volume, issue and pages of ``biblio``."""
    biblio = as_map(work.get("biblio"))
    fields: dict[str, Text] = {variable: as_text(biblio.get(member))
                               for member, variable in BIBLIO_MEMBERS.items()
                               if as_text(biblio.get(member))}
    pages = [as_text(biblio.get(p)) for p in ("first_page", "last_page")
             if as_text(biblio.get(p))]
    if pages:
        fields["page"] = "-".join(dict.fromkeys(pages))
    return fields


def _person_ids(author: Mapping[str, Any]) -> tuple[str, ...]:
    ids = []
    for scheme, key in (("openalex", "id"), ("orcid", "orcid")):
        if as_text(author.get(key)):
            try:
                ids.append(person_id(scheme, as_text(author.get(key))))
            except PersonIdError:
                continue
    return tuple(ids)


def authorship_names(work: Mapping[str, Any]) -> tuple[Name, ...]:
    """The authors of a work, in order, with their OpenAlex ids and ORCID iDs."""
    names = []
    for authorship in map(as_map, as_list(work.get("authorships"))):
        author = as_map(authorship.get("author"))
        text = as_text(author.get("display_name")) or as_text(authorship.get("raw_author_name"))
        if text:
            split = split_name(text)
            names.append(Name(family=split.family, given=split.given,
                              non_dropping_particle=split.non_dropping_particle,
                              suffix=split.suffix, ids=_person_ids(author)))
    return tuple(names)


def source_issns(venue: Mapping[str, Any]) -> dict[str, str]:
    """The ISSN fields of a source: the first of its ``issn`` list (or its one text) as the
    ISSN, as Zotero keeps it, else the ISSN-L; the list's others as ``openalex.issn``, and an
    ISSN-L that is not the ISSN kept as ``openalex.issn_l``."""
    listed = venue.get("issn")
    issns = [as_text(listed)] if isinstance(listed, str) else [
        as_text(issn) for issn in as_list(listed)]
    issns = list(dict.fromkeys(issn for issn in issns if issn))
    linking = as_text(venue.get("issn_l"))
    kept = issns[0] if issns else linking
    found = {"ISSN": kept, "openalex.issn": "\n".join(issns[1:]),
             "openalex.issn_l": linking if linking != kept else ""}
    return {name: value for name, value in found.items() if value}


def work_keywords(work: Mapping[str, Any]) -> tuple[str, ...]:
    """The display names of a work's ``keywords`` (an older answer's ``keyword``), in order."""
    keywords = (as_text(keyword.get("display_name")) or as_text(keyword.get("keyword"))
                for keyword in map(as_map, as_list(work.get("keywords"))))
    return tuple(dict.fromkeys(keyword for keyword in keywords if keyword))


def first_affiliation(work: Mapping[str, Any]) -> str:
    """The first author's first institution (its display name, else the affiliation as
    written): a thesis's university, as Zotero takes it when the work names no publisher."""
    for authorship in map(as_map, as_list(work.get("authorships"))[:1]):
        for institution in map(as_map, as_list(authorship.get("institutions"))[:1]):
            if as_text(institution.get("display_name")):
                return as_text(institution.get("display_name"))
        return as_text(authorship.get("raw_affiliation_string"))
    return ""


def _abstract(inverted: Any) -> str | None:
    """The abstract text of an ``abstract_inverted_index`` (word -> positions)."""
    if not isinstance(inverted, Mapping):
        return None
    placed = sorted((position, word) for word, positions in inverted.items()
                    for position in as_list(positions) if isinstance(position, int))
    return " ".join(word for _, word in placed) or None


def _type(work: Mapping[str, Any], source_type: str | None) -> str:
    crossref = CROSSREF_TYPES.get(as_text(work.get("type_crossref")))
    if crossref:
        return crossref
    kind = as_text(work.get("type"))
    return WORK_TYPES.get((kind, source_type)) or WORK_TYPES.get((kind, None)) or "document"


def _arxiv(work: Mapping[str, Any], doi: str) -> str | None:
    if (arxiv := arxiv_id_from_doi(doi)):
        return arxiv
    for location in as_list(work.get("locations")):
        url = as_text(as_map(location).get("landing_page_url"))
        if arxiv_id_from_url(url):
            return url.rsplit("/", 1)[-1]
    return None


def work_record(work: Mapping[str, Any], source: Source, diagnostics: Diagnostics
                ) -> Record | None:
    """The record of one OpenAlex work object."""
    location = as_map(work.get("primary_location"))
    venue = as_map(location.get("source"))
    source_type = as_text(venue.get("type")) or None
    fields: dict[str, Text] = biblio_fields(work)
    title = as_text(work.get("title")) or as_text(work.get("display_name"))
    if title:
        fields["title"] = from_markup(title)
    doi = clean_doi(as_text(work.get("doi")))
    if doi:
        fields["DOI"] = doi
    for member, (variable, prefix) in ID_MEMBERS.items():
        value = as_text(as_map(work.get("ids")).get(member)).removeprefix(prefix).strip("/")
        if value:
            fields[variable] = value
    if as_text(venue.get("display_name")) and source_type != "repository":
        fields["container-title"] = as_text(venue.get("display_name"))
    if as_text(venue.get("host_organization_name")):
        fields["publisher"] = as_text(venue.get("host_organization_name"))
    record_type = _type(work, source_type)
    if record_type == "thesis" and "publisher" not in fields and first_affiliation(work):
        fields["publisher"] = first_affiliation(work)
    issns = source_issns(venue)
    if "ISSN" in issns:
        fields["ISSN"] = issns.pop("ISSN")
    extra = issns
    abstract = _abstract(work.get("abstract_inverted_index"))
    if abstract:
        fields["abstract"] = abstract
    if as_text(work.get("language")):
        fields["language"] = as_text(work.get("language"))
    landing = as_text(location.get("landing_page_url"))
    if landing and not doi:
        fields["URL"] = landing
    arxiv = _arxiv(work, doi)
    match = _WORK_ID.search(as_text(work.get("id")))
    identifier = match.group(1) if match else doi or str(source.line)
    if match:
        extra["openalex.id"] = identifier
    authors = authorship_names(work)
    issued = publication_date(work)
    return record_or_error(
        diagnostics, source, id=f"openalex:{identifier}", type=record_type,
        fields=fields, names={"author": authors} if authors else {},
        dates={"issued": issued} if issued else {}, keywords=work_keywords(work),
        eprint=Eprint("arXiv", arxiv) if arxiv else None, extra=extra)


def works_of(data: Any, source: str) -> list[Mapping[str, Any]]:
    """The work objects of an OpenAlex answer: a page of results, a list, or one work."""
    if isinstance(data, Mapping) and "results" in data:
        results = data["results"]
    elif isinstance(data, Mapping) and "id" in data:
        results = [data]
    elif isinstance(data, list):
        results = data
    else:
        raise ParseError("not OpenAlex works: expected results, a list or a work", source, 1)
    if not isinstance(results, list):
        raise ParseError("OpenAlex results must be a list", source, 1)
    return [work for work in results if isinstance(work, Mapping)]


def read_works(works: Sequence[Mapping[str, Any]], source: str, diagnostics: Diagnostics,
               lines: JsonLines | None = None) -> Iterator[Record]:
    """The records of ``works``, owned by their common author."""
    records = item_records(works, "id", work_record, source, diagnostics, lines)
    owner, ids = common_author(records, "openalex")
    yield from owned(records, owner, ids)


class OpenAlexReader(catalogue.CatalogueReader):
    name = "openalex"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        text = stream.read()
        works = works_of(load_json(text, source, "OpenAlex works", diagnostics), source)
        yield from read_works(works, source, diagnostics, JsonLines(text))


READER = OpenAlexReader()
