"""The Google Scholar CSV reader: a profile's citations.csv export and its quirks."""

from __future__ import annotations

from pathlib import Path

from support import FIXTURES, records_of

from refbridge.errors import Diagnostics
from refbridge.model import Date, Eprint, Name

SPECIMEN = FIXTURES / "sources" / "qian.scholar.csv"


def test_a_journal_row_has_its_authors_venue_volume_number_and_pages() -> None:
    flat = records_of(SPECIMEN)[0]
    assert flat.type == "article-journal"
    assert flat.authors == (Name(family="Wang", given="Jing"),
                            Name(family="Qian", given="Zhengping"),
                            Name(family="Zhou", given="Ming"), Name(family="Liu", given="Xiaoyu"))
    assert dict(flat.fields) == {
        "title": "FLAT: Fast, Lightweight and Accurate Method for Cardinality Estimation",
        "container-title": "Proceedings of the VLDB Endowment", "volume": "14", "issue": "9",
        "page": "1489-1502", "publisher": "VLDB Endowment"}
    assert flat.issued == Date.of(2021)
    assert flat.source is not None and flat.source.line == 2


def test_an_arxiv_preprint_venue_is_the_preprint_itself() -> None:
    specdb = records_of(SPECIMEN)[1]
    assert (specdb.type, specdb.eprint) == ("article", Eprint("arXiv", "2601.00001"))
    assert "container-title" not in specdb.fields


def test_a_conference_venue_is_a_conference_paper() -> None:
    assert records_of(SPECIMEN)[2].type == "paper-conference"


def test_an_author_list_ending_in_dots_is_incomplete() -> None:
    gac = records_of(SPECIMEN)[3]
    assert [n.display() for n in gac.authors] == ["Jing Wang", "Zhengping Qian"]
    assert gac.incomplete_names == frozenset({"author"})


def test_a_row_with_more_cells_than_the_header_is_reported(tmp_path: Path) -> None:
    export = tmp_path / "citations.csv"
    export.write_text("Authors,Title,Publication,Volume,Number,Pages,Year,Publisher\n"
                      '"Doe, Jane; ",A Title,Journal,1,2,3-4,2020,Pub,extra\n'
                      '"Doe, Jane; ","A title\nacross lines",Journal,1,2,3-4,2021,Pub\n')
    diagnostics = Diagnostics()
    found = records_of(export, diagnostics=diagnostics)
    assert [str(m) for m in diagnostics.messages] == [
        f"{export}:2: error: row has 9 cells, the header 8; skipped"]
    assert [(r.title, r.source.line if r.source else None) for r in found] == [
        ("A title across lines", 3)]
