"""The OpenAlex reader: an author's works answer, a list of works, one work."""

from __future__ import annotations

import json
from pathlib import Path

from support import FIXTURES, records_of

from refbridge.model import Date, Eprint

SPECIMEN = FIXTURES / "sources" / "qian.openalex.json"


def test_a_journal_article_has_its_venue_biblio_date_and_abstract() -> None:
    flat = records_of(SPECIMEN)[0]
    assert flat.type == "article-journal"
    assert dict(flat.fields) == {
        "title": "FLAT: Fast, Lightweight and Accurate Method for Cardinality Estimation",
        "volume": "14", "issue": "9", "page": "1489-1502", "DOI": "10.5555/refbridge.flat",
        "container-title": "Proceedings of the VLDB Endowment", "publisher": "VLDB Endowment",
        "ISSN": "2150-8097", "language": "en",
        "abstract": "Query optimizers need estimates of how many rows a query returns. FLAT "
                    "estimates them quickly, with little memory and accurately."}
    assert flat.issued == Date.of(2021, 5, 1)
    assert flat.extra["openalex.id"] == "W3170001001"


def test_authors_keep_their_openalex_ids_and_orcid() -> None:
    owner = records_of(SPECIMEN)[0].authors[1]
    assert (owner.display(), owner.ids) == (
        "Zhengping Qian", ("openalex:A5025692314", "orcid:0000-0002-1825-0097"))


def test_types_come_from_the_crossref_type() -> None:
    assert [r.type for r in records_of(SPECIMEN)] == ["article-journal", "paper-conference",
                                               "article"]


def test_a_preprint_on_arxiv_has_its_arxiv_identity_and_no_container() -> None:
    trainmover = records_of(SPECIMEN)[2]
    assert trainmover.eprint == Eprint("arXiv", "2601.00002")
    assert "container-title" not in trainmover.fields


def test_the_author_of_every_work_owns_the_list() -> None:
    found = records_of(SPECIMEN)
    assert {r.extra["profile.owner"] for r in found} == {"Zhengping Qian"}
    assert {r.extra["profile.owner-id"] for r in found} == {
        "openalex:A5025692314 orcid:0000-0002-1825-0097"}


def test_records_name_the_line_of_their_work() -> None:
    assert [r.source.line for r in records_of(SPECIMEN) if r.source] == [12, 239, 375]


def test_a_list_of_works_and_an_empty_answer_read(tmp_path: Path) -> None:
    works = json.loads(SPECIMEN.read_text("utf-8"))["results"]
    listed = tmp_path / "works.json"
    listed.write_text(json.dumps(works[:1]))
    assert [r.title for r in records_of(listed)] == [
        "FLAT: Fast, Lightweight and Accurate Method for Cardinality Estimation"]
    empty = tmp_path / "none.json"
    empty.write_text(json.dumps({"meta": {"count": 0, "db_response_time_ms": 7, "page": 1,
                                          "per_page": 25, "groups_count": None},
                                 "results": [], "group_by": []}))
    assert records_of(empty) == []


def _work(tmp_path: Path, **members: object) -> Path:
    """One work of Zotero's OpenAlex JSON test cases, cut to the members a test reads."""
    work = {"id": "https://openalex.org/W3123223998",
            "title": "Are Emily and Greg More Employable Than Lakisha and Jamal?",
            "type": "article", "type_crossref": "journal-article", **members}
    path = tmp_path / "work.json"
    path.write_text(json.dumps(work), encoding="utf-8")
    return path


def test_the_first_issn_of_the_source_is_kept_as_zotero_keeps_it(tmp_path: Path) -> None:
    # Zotero's openalex-json/02: the electronic ISSN comes first, the ISSN-L is the print one.
    path = _work(tmp_path, primary_location={"source": {
        "display_name": "American Economic Review", "issn_l": "0002-8282",
        "issn": ["1944-7981", "0002-8282"], "type": "journal"}})
    (record,) = records_of(path)
    assert record.get("ISSN") == "1944-7981"
    assert (record.extra["openalex.issn"], record.extra["openalex.issn_l"]) == (
        "0002-8282", "0002-8282")


def test_an_issn_l_alone_is_the_issn(tmp_path: Path) -> None:
    path = _work(tmp_path, primary_location={"source": {
        "display_name": "The Quarterly Journal of Economics", "issn_l": "0033-5533",
        "issn": None, "type": "journal"}})
    (record,) = records_of(path)
    assert record.get("ISSN") == "0033-5533"
    assert not {"openalex.issn", "openalex.issn_l"} & record.extra.keys()


def test_keywords_are_read_in_both_spellings_of_openalex(tmp_path: Path) -> None:
    # openalex-json/02 (keyword and score) and openalex-json/07 (id, display_name and score).
    older = _work(tmp_path, keywords=[{"keyword": "labor market discrimination",
                                       "score": 0.6174}, {"keyword": "emily", "score": 0.5}])
    assert records_of(older)[0].keywords == ("labor market discrimination", "emily")
    newer = _work(tmp_path, keywords=[
        {"id": "https://openalex.org/keywords/domain-adaptation",
         "display_name": "Domain Adaptation", "score": 0.6031},
        {"id": "https://openalex.org/keywords/transfer-learning",
         "display_name": "Transfer Learning", "score": 0.559807}],
        concepts=[{"id": "https://openalex.org/C41008148", "display_name": "Computer science",
                   "level": 0, "score": 0.8}])
    assert records_of(newer)[0].keywords == ("Domain Adaptation", "Transfer Learning")


def test_a_thesis_without_a_publisher_is_of_its_authors_university(tmp_path: Path) -> None:
    # Zotero's openalex-json/05: a dissertation whose primary location has no source.
    path = _work(tmp_path, type="dissertation", type_crossref="dissertation",
                 primary_location={"landing_page_url": "https://doi.org/10.18130/v3v002",
                                   "source": None, "version": "publishedVersion"},
                 authorships=[{"author_position": "first", "author": {
                     "id": "https://openalex.org/A5078709935",
                     "display_name": "Stanley Joseph Stepanic"},
                     "institutions": [{"id": "https://openalex.org/I51556381",
                                       "display_name": "University of Virginia",
                                       "type": "education"}],
                     "raw_affiliation_string": "University of Virginia"}])
    (thesis,) = records_of(path)
    assert (thesis.type, thesis.get("publisher")) == ("thesis", "University of Virginia")
