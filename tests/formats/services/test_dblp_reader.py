"""The dblp reader: person pages (dblpperson XML) read to the records a person sees."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import FIXTURES, records_of

from refbridge.errors import Diagnostics, ParseError
from refbridge.model import Date, Eprint, Name, Source

SPECIMEN = FIXTURES / "sources" / "qian.dblp.xml"
QIAN = Name(family="Qian", given="Zhengping")


def test_a_journal_article_has_every_author_its_venue_and_doi() -> None:
    flat = records_of(SPECIMEN)[4]
    assert flat.type == "article-journal"
    assert flat.authors == (Name(family="Wang", given="Jing"), QIAN,
                            Name(family="Zhou", given="Ming"), Name(family="Liu", given="Xiaoyu"))
    assert dict(flat.fields) == {
        "title": "FLAT: Fast, Lightweight and Accurate Method for Cardinality Estimation",
        "container-title": "Proc. VLDB Endow.", "volume": "14", "issue": "9",
        "page": "1489-1502", "DOI": "10.5555/refbridge.flat"}
    assert flat.issued == Date.of(2021)
    assert flat.source == Source(str(SPECIMEN), 60)


def test_names_lose_the_homonym_number_and_keep_dblp_and_orcid_ids() -> None:
    owner = records_of(SPECIMEN)[4].authors[1]
    assert owner.display() == "Zhengping Qian"
    assert owner.ids == ("dblp:95/7448-1", "orcid:0000-0002-1825-0097")
    assert records_of(SPECIMEN)[2].authors[2].display() == "Yuxin Chen"


def test_a_corr_entry_is_the_arxiv_preprint_it_stands_for() -> None:
    specdb = records_of(SPECIMEN)[0]
    assert specdb.type == "article"
    assert specdb.eprint == Eprint("arXiv", "2601.00001")
    assert "container-title" not in specdb.fields and "volume" not in specdb.fields
    assert specdb.get("DOI") == "10.48550/arXiv.2601.00001"


def test_a_conference_paper_has_its_proceedings_and_keeps_the_crossref_key() -> None:
    truss = records_of(SPECIMEN)[1]
    assert (truss.type, truss.get("container-title"), truss.get("page")) == (
        "paper-conference", "ICDE", "3178-3190")
    assert truss.extra["dblp.crossref"] == "conf/icde/2022"
    assert truss.extra["dblp.key"] == "conf/icde/HuangQ22"


def test_the_page_owner_owns_every_record_by_name_pid_and_orcid() -> None:
    for record in records_of(SPECIMEN):
        assert record.extra["profile.owner"] == "Zhengping Qian"
        assert record.extra["profile.owner-id"] == "dblp:95/7448-1 orcid:0000-0002-1825-0097"


def test_title_markup_becomes_rich_text_without_the_final_period(tmp_path: Path) -> None:
    page = tmp_path / "p.xml"
    page.write_text('<dblpperson name="A B" pid="1/2"><r><article key="journals/x/B1">'
                    "<author>A B</author><title>On <i>k</i>-cores of H<sub>2</sub>O.</title>"
                    "<year>2020</year><journal>J. X</journal></article></r></dblpperson>")
    title = records_of(page)[0].rich("title")
    from refbridge.formats.csl_markup import to_markup

    assert to_markup(title) == "On <i>k</i>-cores of H<sub>2</sub>O"


def test_a_document_type_declaration_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "p.xml"
    page.write_text('<?xml version="1.0"?>\n<!DOCTYPE dblpperson [<!ENTITY x "expanded">]>\n'
                    '<dblpperson name="A" pid="1/2"><r><article key="k"><title>&x;</title>'
                    "</article></r></dblpperson>")
    with pytest.raises(ParseError, match="a document type declaration is not allowed in a dblp "
                                         "person page"):
        records_of(page)


def test_an_external_entity_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    page = tmp_path / "p.xml"
    page.write_text(f'<!DOCTYPE dblpperson [<!ENTITY s SYSTEM "file://{secret}">]>'
                    '<dblpperson name="A" pid="1/2"></dblpperson>')
    with pytest.raises(ParseError, match="document type declaration"):
        records_of(page)


def test_home_pages_and_homonyms_are_no_records_and_no_owners(tmp_path: Path) -> None:
    page = tmp_path / "p.xml"
    page.write_text(
        '<dblpperson name="Hana Park 0002" pid="331/8145">'
        '<person key="homepages/331/8145"><author pid="331/8145">Hana Park 0002</author>'
        "<url>https://orcid.org/0000-0002-1694-233X</url></person>"
        "<r><www><title>Home Page</title><year>2024</year></www></r>"
        '<r><inproceedings key="conf/x/ParkA26"><author pid="331/8145">Hana Park 0002</author>'
        '<author pid="10/1/JungHoAhn">Jung Ho Ahn</author><title>A paper.</title>'
        "<year>2026</year><booktitle>X</booktitle></inproceedings></r>"
        "<homonyms><person><url>https://orcid.org/0000-0001-5109-3700</url></person>"
        "</homonyms></dblpperson>")
    diagnostics = Diagnostics()
    [paper] = records_of(page, diagnostics=diagnostics)
    assert diagnostics.messages == []
    assert paper.authors[1].ids == ("dblp:10/1/JungHoAhn",)
    assert paper.extra["profile.owner-id"] == "dblp:331/8145 orcid:0000-0002-1694-233X"
    assert paper.extra["profile.owner"] == "Hana Park"
