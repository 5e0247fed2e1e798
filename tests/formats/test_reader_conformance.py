"""Other tools' reader tests, read by refbridge: Zotero's import translators' cases and JabRef's
importer fixtures in ../shared/conformance, compared field by field with what those tools
expect (benchmarks/readers.py). A floor per format keeps what has been reached.

The comparison's own helpers are tested first, on the values the expected files hold.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from readers import (
    CaseResult,
    KnownDifference,
    apply_drift,
    date_parts,
    figures_by_format,
    identifier_set,
    keyword_set,
    load_known,
    normal_of_zotero_item,
    pages_text,
    person,
    run,
    same,
    title_text,
)

#: Equal fields in per cent of the fields compared (known differences left out), per format:
#: today's figure rounded down. Raise a floor when a reader gets better; never lower one.
FLOORS: dict[str, float] = {
    "zotero:bibtex": 100.0,
    "zotero:csl-json": 100.0,
    "zotero:endnote": 100.0,
    "zotero:endnote-xml": 100.0,
    "zotero:mods": 100.0,
    "zotero:nbib": 100.0,
    "zotero:openalex": 100.0,
    "zotero:pubmed-xml": 100.0,
    "zotero:ris": 98.5,
    "zotero:wos": 100.0,
    "jabref:endnote": 100.0,
    "jabref:endnote-xml": 100.0,
    "jabref:ISI (detected)": 100.0,
    "jabref:mods": 100.0,
    "jabref:nbib": 100.0,
    "jabref:pubmed-xml": 100.0,
    "jabref:ris": 99.0,
    "jabref:word-xml": 100.0,
}
#: Formats that read every record the other tool expects (today; add a format once it does).
NO_RECORD_LOST: frozenset[str] = frozenset({
    "zotero:bibtex", "zotero:csl-json", "zotero:endnote", "zotero:endnote-xml", "zotero:mods",
    "zotero:nbib", "zotero:openalex", "zotero:pubmed-xml", "zotero:ris", "zotero:wos",
    "jabref:endnote", "jabref:endnote-xml", "jabref:mods", "jabref:nbib", "jabref:pubmed-xml",
    "jabref:ris", "jabref:word-xml", "jabref:ISI (detected)",
})
#: Formats of the test data that refbridge has no reader for: listed, never compared.
UNSUPPORTED: frozenset[str] = frozenset({
    "zotero:MARCXML (unsupported)", "jabref:Citavi (unsupported)",
    "jabref:Copac (unsupported)", "jabref:Ovid (unsupported)",
})


@pytest.fixture(scope="module")
def results(shared_dir: Path) -> list[CaseResult]:
    if not (shared_dir / "conformance").is_dir():
        pytest.skip(f"no conformance data in {shared_dir}")
    return run(shared_dir)


# -- the comparison's helpers -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "parts"), [
    ("1996 Jul 9", (1996, 7, 9)),
    ("FEB 2011", (2011, 2)),
    ("2010 Sep-Oct", (2010, 9)),
    ("2015-08-01", (2015, 8, 1)),
    ("2001/05/03/", (2001, 5, 3)),
    ("January 1, 2013", (2013, 1, 1)),
    ("2019", (2019,)),
])
def test_a_date_as_zotero_keeps_it_gives_its_parts(text: str, parts: tuple[int, ...]) -> None:
    assert date_parts(text) == parts


def test_a_placeholder_date_has_no_parts() -> None:
    assert date_parts("0000 Year Date") is None


def test_a_date_saying_more_than_the_expected_one_is_the_same_when_it_starts_with_it() -> None:
    assert same("date", (2015, 12), (2015, 12, 1))
    assert not same("date", (2015, 12, 1), (2015, 12))
    assert not same("date", (2015, 12), (2015, 11, 30))


def test_pages_are_compared_whatever_the_dash() -> None:
    assert pages_text("330\u2014331") == pages_text("330--331") == pages_text("330 - 331") == "330-331"


def test_a_titles_unicode_subscript_digits_are_the_digits_rich_text_holds() -> None:
    # JabRef writes LiNbO₃ where refbridge's title holds a subscript 3
    assert title_text("MgO doped LiNbO₃ single crystals") == "MgO doped LiNbO3 single crystals"


def test_a_known_difference_may_name_every_field_of_a_record() -> None:
    known = KnownDifference("RisImporterTest1.ris", "*", "repeated TY lines", 0)
    assert [known.matches("RisImporterTest1.ris", item, name)
            for item, name in ((0, "title"), (0, "creators"), (1, "title"))] == [
        True, True, False]


def test_an_isbn_10_is_the_isbn_13_of_the_same_book() -> None:
    assert identifier_set("0-12-375106-3") == identifier_set("9780123751065")


def test_an_isbn_keeps_no_qualifier() -> None:
    assert identifier_set("0801486394 (pbk. : acid-free, recycled paper)") == {"9780801486395"}


def test_keywords_are_a_set_whatever_the_separator_jabref_joined_them_with() -> None:
    assert keyword_set(["Humans; Kidney Diseases"]) == keyword_set(["kidney diseases, humans"])


def test_a_one_part_personal_name_equals_the_same_one_field_name() -> None:
    assert person("testA", "") == ("testA",)
    assert person("Baldwin", "S.A.") == person("Baldwin", "S. A.") == ("Baldwin", "S A")


def test_a_zotero_item_is_read_through_the_schema_of_its_type() -> None:
    item = {"itemType": "bookSection", "title": "Chapter", "bookTitle": "The Book",
            "pages": "1\u20139", "date": "1996 Jul 9",
            "creators": [{"firstName": "Ann", "lastName": "Smith", "creatorType": "author"},
                         {"firstName": "Bo", "lastName": "Li", "creatorType": "seriesEditor"},
                         {"lastName": "WHO", "fieldMode": 1, "creatorType": "editor"}],
            "tags": [{"tag": "Health"}]}
    assert normal_of_zotero_item(item) == {
        "type": "chapter", "title": "Chapter", "container-title": "The Book", "page": "1-9",
        "date": (1996, 7, 9), "keywords": frozenset({"health"}),
        "creators": {"author": (("Smith", "Ann"),), "collection-editor": (("Li", "Bo"),),
                     "editor": (("WHO",),)}}


def test_a_stale_expectation_is_brought_up_to_the_translator_of_today() -> None:
    items = [{"itemType": "bookSection", "title": "T", "extra": "DOI: 10.1/x"}]
    stale = {"items": [{"item": 0, "added": {"DOI": "10.1/x"},
                        "changed": {"extra": {"expected": "DOI: 10.1/x", "current": ""}}}]}
    assert apply_drift(items, stale) == [{"itemType": "bookSection", "title": "T",
                                          "extra": "", "DOI": "10.1/x"}]


# -- the floors ---------------------------------------------------------------------------------

def test_every_format_measured_has_a_floor(results: list[CaseResult]) -> None:
    measured = set(figures_by_format(results))
    assert measured - UNSUPPORTED == set(FLOORS)
    assert measured & UNSUPPORTED == UNSUPPORTED


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_a_format_keeps_its_floor(results: list[CaseResult], name: str) -> None:
    figures = figures_by_format(results)[name]
    assert figures.percent >= FLOORS[name], (
        f"{name}: {figures.equal} of {figures.compared - figures.known} fields equal "
        f"({figures.percent:.1f} %); run benchmarks/readers.py for the differences")


@pytest.mark.parametrize("name", sorted(NO_RECORD_LOST))
def test_a_format_loses_no_record(results: list[CaseResult], name: str) -> None:
    lost = [f"{r.name}: {r.records_lost} of {r.records_expected}"
            for r in results if r.format == name and r.records_lost]
    assert lost == []


def test_an_unsupported_format_is_listed_but_not_compared(results: list[CaseResult]) -> None:
    unsupported = [r for r in results if r.format in UNSUPPORTED]
    assert unsupported and all(not r.supported and r.compared == 0 for r in unsupported)


def test_every_known_difference_still_occurs(results: list[CaseResult]) -> None:
    differences = [d for r in results for d in r.differences]
    assert [k for k in load_known()
            if not any(k.matches(d.case, d.item, d.field) for d in differences)] == []
