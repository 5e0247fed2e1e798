"""When a record is already in a library: identifiers first, then title, year and author."""

from __future__ import annotations

from refbridge.model import Date, Eprint, Name, Record
from refbridge.sameness.ids import identifiers
from refbridge.sameness.keys import LibraryIndex


def paper(title: str = "On Graphs", year: int = 2020, **fields: str) -> Record:
    return Record(id="r", type="article-journal", fields={"title": title, **fields},
                  names={"author": (Name(family="Lovelace", given="Ada"),)},
                  dates={"issued": Date.of(year)})


def index_of(*records: Record) -> LibraryIndex:
    index = LibraryIndex()
    for number, record in enumerate(records):
        index.add(record, f"KEY{number}")
    return index


def test_a_doi_matches_whatever_its_case_and_prefix() -> None:
    index = index_of(paper(DOI="10.1000/ABC.1"))
    assert index.find(paper("Another Title", DOI="https://doi.org/10.1000/abc.1")) == "KEY0"


def test_an_arxiv_identifier_matches_without_its_version() -> None:
    preprint = paper().replace(type="article", eprint=Eprint("arXiv", "2601.00001v2"))
    index = index_of(preprint)
    assert index.find(paper("Renamed", URL="https://arxiv.org/abs/2601.00001")) == "KEY0"


def test_an_isbn_10_matches_its_isbn_13() -> None:
    assert identifiers(paper(ISBN="0-201-13448-9"))["isbn"] == {"9780201134483"}
    index = index_of(paper(ISBN="978-0-201-13448-3"))
    assert index.find(paper("The TeXbook", ISBN="0201134489")) == "KEY0"


def test_without_identifiers_title_year_and_first_author_decide() -> None:
    index = index_of(paper("On Graphs: A Study"))
    assert index.find(paper("on graphs — a study")) == "KEY0"
    assert index.find(paper("On Graphs: A Study", year=2021)) is None


def test_different_dois_are_different_works_whatever_the_title() -> None:
    index = index_of(paper(DOI="10.1000/one"))
    assert index.find(paper(DOI="10.1000/two")) is None
    assert index.find(paper()) == "KEY0"  # no DOI to disagree with
