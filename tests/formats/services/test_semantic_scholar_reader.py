"""The Semantic Scholar reader: an author's papers answer, an author with papers, one paper."""

from __future__ import annotations

import json
from pathlib import Path

from support import FIXTURES, records_of

from refbridge.model import Date, Eprint

SPECIMEN = FIXTURES / "sources" / "qian.s2-papers.json"


def test_a_journal_article_has_its_journal_volume_and_pages() -> None:
    flat = records_of(SPECIMEN)[0]
    assert flat.type == "article-journal"
    assert dict(flat.fields) == {
        "title": "FLAT: Fast, Lightweight and Accurate Method for Cardinality Estimation",
        "container-title": "Proc. VLDB Endow.", "volume": "14", "page": "1489-1502",
        "DOI": "10.5555/refbridge.flat"}
    assert flat.issued == Date.of(2021, 5, 1)
    assert flat.extra["semantic-scholar.dblp"] == "journals/pvldb/WangQZL21"
    assert flat.authors[1].ids == ("s2:1723755",)


def test_an_arxiv_paper_is_a_preprint_without_the_arxiv_venue() -> None:
    gac = records_of(SPECIMEN)[1]
    assert gac.type == "article"
    assert gac.eprint == Eprint("arXiv", "2601.00006")
    assert "container-title" not in gac.fields and "volume" not in gac.fields


def test_the_author_every_paper_shares_owns_the_list() -> None:
    assert {(r.extra["profile.owner"], r.extra["profile.owner-id"])
            for r in records_of(SPECIMEN)} == {("Zhengping Qian", "s2:1723755")}


def test_no_owner_is_named_when_two_authors_share_every_paper(tmp_path: Path) -> None:
    papers = json.loads(SPECIMEN.read_text("utf-8"))["data"]
    answer = tmp_path / "papers.json"
    answer.write_text(json.dumps({"offset": 0, "data": papers[:3]}))
    assert [r.extra.get("profile.owner") for r in records_of(answer)] == [None, None, None]


def test_the_conference_type_wins_over_the_journal_type() -> None:
    assert records_of(SPECIMEN)[3].type == "paper-conference"


def test_an_author_answer_with_papers_names_its_owner(tmp_path: Path) -> None:
    papers = json.loads(SPECIMEN.read_text("utf-8"))["data"]
    answer = tmp_path / "author.json"
    answer.write_text(json.dumps({"authorId": "1723755", "name": "Z. Qian",
                                  "papers": papers[:1]}))
    [record] = records_of(answer)
    assert (record.extra["profile.owner"], record.extra["profile.owner-id"]) == (
        "Z. Qian", "s2:1723755")


def test_an_empty_page_reads_as_no_records(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text('{"offset": 100, "data": []}')
    assert records_of(empty) == []
