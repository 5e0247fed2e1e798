"""Reading the services' answers: arXiv Atom entries, Crossref works, OpenAlex works."""

from __future__ import annotations

import json

import pytest
from enrich_support import FIXTURES

from refbridge.model import Date, DateParts, Eprint, Name
from refbridge.services import arxiv, crossref, openalex
from refbridge.services.errors import ServiceError


def test_arxiv_entry_becomes_a_preprint_record() -> None:
    found = arxiv.parse_feed((FIXTURES / "arxiv" / "scenarios.atom").read_bytes())
    elastic = next(f for f in found if f.identifier == "2601.00108v3")
    assert elastic.provenance == "arxiv:2601.00108v3"
    assert elastic.published is False
    assert elastic.record.type == "article"
    assert elastic.record.eprint == Eprint("arXiv", "2601.00108v3", "cs.DC", ("cs.LG",))
    assert elastic.record.fields["DOI"] == "10.5555/refbridge.elastic"
    assert elastic.record.dates == {"issued": Date(start=DateParts(2024, 4, 8))}
    assert dict(elastic.record.extra) == {
        "arxiv.journal-ref": "Proc. VLDB Endow. 17(5) (2024) 1021-1034",
        "arxiv.comment": "Accepted at VLDB 2024",
        "arxiv.published": "2024-04-08", "arxiv.updated": "2024-10-21"}


def test_arxiv_tex_in_titles_is_decoded() -> None:
    feed = (b'<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
            b'<id>http://arxiv.org/abs/2601.00201v1</id>'
            b'<title>Higher-Order $(k,\\tau)$-Truss Decomposition in \\"Uber Graphs</title>'
            b'<author><name>J\\"org M\\"uller</name></author></entry></feed>')
    [found] = arxiv.parse_feed(feed)
    assert found.record.title == "Higher-Order (k,τ)-Truss Decomposition in Über Graphs"
    assert found.record.authors == (Name(family="Müller", given="Jörg"),)


def test_arxiv_error_feed_is_a_service_error() -> None:
    feed = (b'<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
            b'<id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345</id>'
            b'<title>Error</title><summary>incorrect id format for 1234.12345</summary>'
            b'</entry></feed>')
    with pytest.raises(ServiceError, match="arXiv reported an error: incorrect id format"):
        arxiv.parse_feed(feed)


def test_arxiv_answer_that_is_not_xml_is_a_service_error() -> None:
    with pytest.raises(ServiceError, match="not an Atom feed"):
        arxiv.parse_feed(b"<html>Rate exceeded")


def test_crossref_work_becomes_the_published_version() -> None:
    works = json.loads((FIXTURES / "crossref" / "works.json").read_text("utf-8"))
    found = crossref.work_found(works[0])
    assert found.published is True
    assert found.record.type == "article-journal"
    assert found.record.authors[0] == Name(family="Lin", given="Mei")
    assert found.record.dates["issued"] == Date(start=DateParts(2025, 1))


def test_crossref_markup_and_organisations() -> None:
    found = crossref.work_found({
        "DOI": "10.5555/x", "type": "proceedings-article",
        "title": ["Learning <i>k</i>-NN Graphs &amp; More"],
        "author": [{"name": "The Fixture Consortium", "sequence": "first"}],
        "issued": {"date-parts": [[None]]}})
    assert found.record.title == "Learning k-NN Graphs & More"
    assert found.record.authors == (Name(literal="The Fixture Consortium"),)
    assert found.record.type == "paper-conference" and found.record.dates == {}


def test_a_crossref_date_that_is_no_date_is_left_out_and_the_next_one_read() -> None:
    found = crossref.work_found({
        "DOI": "10.5555/y", "type": "journal-article", "title": ["Tidal mixing"],
        "issued": {"date-parts": [[2020, 13]]},
        "published-print": {"date-parts": [[2021, 2]]}})
    assert found.record.dates == {"issued": Date(start=DateParts(2021, 2))}


def test_crossref_posted_content_is_not_published() -> None:
    works = json.loads((FIXTURES / "crossref" / "works.json").read_text("utf-8"))
    assert crossref.work_found(works[1]).published is False


def test_openalex_work_pages_venue_and_identifier() -> None:
    works = json.loads((FIXTURES / "openalex" / "works.json").read_text("utf-8"))
    found = openalex.work_found(works[0])
    assert found.provenance == "openalex:W9000000109"
    assert {k: found.record.fields[k] for k in ("page", "volume", "issue", "DOI")} == {
        "page": "210-223", "volume": "3", "issue": "2", "DOI": "10.5555/refbridge.vectorized"}
    assert found.record.dates["issued"] == Date(start=DateParts(2025, 6, 22))


def test_openalex_repository_copy_is_a_preprint() -> None:
    works = json.loads((FIXTURES / "openalex" / "works.json").read_text("utf-8"))
    found = openalex.work_found(works[1])
    assert found.published is False and found.record.type == "article"
    assert "container-title" not in found.record.fields
