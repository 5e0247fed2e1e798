"""Merging a matched work into a record: fill, refine, keep, report, credit."""

from __future__ import annotations

from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.services.found import Found
from refbridge.services.merge import merge

OWNER = Name(family="Lin", given="Mei")
FULL = (OWNER, Name(family="Verma", given="Rahul"))
TITLE = "Learned Index Structures for Spatial Joins"


def preprint(identifier: str = "2601.00101v2") -> Found:
    return Found("arxiv", identifier, Record(
        id="arxiv:2601.00101", type="article",
        fields={"title": TITLE},
        names={"author": FULL}, dates={"issued": Date(start=DateParts(2025, 3, 4))},
        eprint=Eprint("arXiv", identifier, "cs.DB", ("cs.LG",))), published=False)


def journal_article() -> Found:
    return Found("crossref", "10.5555/x", Record(
        id="crossref:10.5555/x", type="article-journal",
        fields={"title": TITLE, "DOI": "10.5555/x",
                "container-title": "Fixture Journal"},
        names={"author": FULL}, dates={"issued": Date.of(2026, 2)}), published=True)


def test_an_unversioned_identifier_gains_the_version() -> None:
    mine = Record(id="r", type="article", fields={"title": TITLE},
                  names={"author": FULL}, eprint=Eprint("arXiv", "2601.00101"))
    merged = merge(mine, preprint())
    assert merged.record.eprint == Eprint("arXiv", "2601.00101v2", "cs.DB", ("cs.LG",))
    assert merged.conflicts == []


def test_another_arxiv_identifier_is_a_conflict() -> None:
    mine = Record(id="r", type="article", fields={"title": TITLE},
                  names={"author": FULL}, eprint=Eprint("arXiv", "2501.00007v1", "cs.DB"))
    merged = merge(mine, preprint())
    assert merged.record.eprint == Eprint("arXiv", "2501.00007v1", "cs.DB", ("cs.LG",))
    assert merged.conflicts == [
        "eprint: kept 2501.00007v1, arxiv:2601.00101v2 is 2601.00101v2"]


def test_a_complete_author_list_is_kept() -> None:
    mine = Record(id="r", type="article", fields={"title": TITLE},
                  names={"author": (OWNER,)})
    merged = merge(mine, preprint())
    assert merged.record.authors == (OWNER,)
    assert merged.conflicts == ["author: kept 1 names, arxiv:2601.00101v2 lists 2"]


def test_a_year_is_refined_to_a_date_of_that_year_only() -> None:
    mine = Record(id="r", type="article", fields={"title": TITLE},
                  dates={"issued": Date.of(2025)})
    assert merge(mine, preprint()).record.dates["issued"] == Date(start=DateParts(2025, 3, 4))
    dated = mine.replace(dates={"issued": Date(start=DateParts(2025, 3))})
    assert merge(dated, preprint()).record.dates["issued"] == Date(start=DateParts(2025, 3))


def test_a_preprint_record_becomes_the_published_paper() -> None:
    mine = merge(Record(id="r", type="article", fields={"title": TITLE},
                        names={"author": (OWNER,)}, dates={"issued": Date.of(2025)},
                        incomplete_names=frozenset({"author"}),
                        eprint=Eprint("arXiv", primary_class="cs.DB")), preprint()).record
    paper = merge(mine, journal_article()).record
    assert paper.type == "article-journal"
    assert paper.dates == {"issued": Date.of(2026, 2),
                           "available-date": Date(start=DateParts(2025, 3, 4))}
    assert paper.extra["enrich.available-date"] == "arxiv:2601.00101v2"
    assert paper.extra["enrich.issued"] == "crossref:10.5555/x"
    assert paper.eprint == Eprint("arXiv", "2601.00101v2", "cs.DB", ("cs.LG",))


def test_a_record_without_a_preprint_keeps_its_type_and_date() -> None:
    mine = Record(id="r", type="chapter", fields={"title": TITLE},
                  dates={"issued": Date.of(2025)})
    merged = merge(mine, journal_article())
    assert merged.record.type == "chapter"
    assert merged.record.dates == {"issued": Date.of(2025)}
    assert merged.conflicts == ["issued: kept 2025, crossref:10.5555/x has 2026"]


def test_nothing_to_add_leaves_the_record_as_it_was() -> None:
    found = preprint()
    merged = merge(found.record.replace(extra={}), found)
    assert merged.filled == [] and merged.record == found.record.replace(extra={})
