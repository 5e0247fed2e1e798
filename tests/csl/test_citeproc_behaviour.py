"""Behaviour the CSL engine takes from citeproc-js, where the specification is silent or says
otherwise: raw dates, sorting, page ranges, names beside institutions, terms that start an
entry, formatting that nests, citation labels. Each expected string is what citeproc-js 2.4
writes for the same style and item (checked with ../shared/tools/csl-reference.js)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from refbridge.csl import LocaleStore, make_processor
from refbridge.csl.collation import collation
from refbridge.csl.localization import resolve_language
from refbridge.csl.style import CslStyle
from refbridge.pageranges import format_page_range, several_pages
from refbridge.rawdates import RawDate, parse_raw_date

from .test_processor import DOE, ROE, bib, item, style

# -- raw dates --------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "date"), [
    ("2/2017", RawDate((2017, 2, 0))),
    ("June 1, 2001", RawDate((2001, 6, 1))),
    ("Aug. 19, 1981", RawDate((1981, 8, 19))),
    ("2021-06-22T15:17:27.000Z", RawDate((2021, 6, 22))),
    ("2017/03/28", RawDate((2017, 3, 28))),
    ("1999-2001", RawDate((1999, 0, 0), (2001, 0, 0))),
    ("Spring 1999", RawDate((1999, 13, 0))),
    ("44 BC", RawDate((-44, 0, 0))),
    ("circa 1900", RawDate((1900, 0, 0), circa=True)),
    ("Michaelmas 1892", RawDate((1892, 0, 0), season="Michaelmas")),
    ("2015-12-01 to 2015-12-02", RawDate((2015, 12, 2))),  # the later date wins
    ("05.11.2011", RawDate(literal="05.11.2011")),
    ("12 May", RawDate(literal="12 May")),
])
def test_raw_dates_are_read_as_citeproc_js_reads_them(raw: str, date: RawDate) -> None:
    assert parse_raw_date(raw) == date


def test_a_raw_date_renders_through_date_parts() -> None:
    layout = '<date variable="issued"><date-part name="month" suffix=" "/><date-part name="year"/></date>'
    assert bib(layout, [item(issued={"raw": "2/2017"})]) == ["February 2017"]


def test_a_season_named_in_words_renders_as_written() -> None:
    layout = '<date variable="issued"><date-part name="month" suffix=" "/><date-part name="year"/></date>'
    spring = item(issued={"date-parts": [[2019]], "season": "Spring"})
    assert bib(layout, [spring], locale="de-DE") == ["Spring 2019"]  # season 1: "Frühjahr 2019"


def test_a_season_read_as_a_month_has_no_numeric_form() -> None:
    layout = ('<date variable="issued"><date-part name="month" form="numeric-leading-zeros" suffix="."/>'
              '<date-part name="year"/></date>')
    entries = [item(id="a", issued={"raw": "Spring 1999"}), item(id="b", issued={"date-parts": [[1999, 14]]}),
               item(id="c", issued={"date-parts": [[1999]], "season": "3"})]
    assert bib(layout, entries) == ["1999", "1999", "Autumn.1999"]  # a season field keeps its name


def test_a_range_of_years_shown_without_its_years_renders_nothing() -> None:
    layout = ('<group delimiter=", " prefix="(" suffix=")"><date variable="issued"><date-part name="year"/></date>'
              '<date variable="issued"><date-part name="day" suffix=". "/><date-part name="month"/></date></group>')
    entries = [item(id="a", issued={"date-parts": [[1999], [2001]]}),
               item(id="b", issued={"date-parts": [[1999, 3, 2], [2001, 4, 5]]})]
    assert bib(layout, entries) == ["(1999\u20132001)", "(1999\u20132001, 2. March\u20135. April)"]


def test_an_era_follows_the_year_parts_affixes_and_formatting() -> None:
    layout = ('<date variable="issued"><date-part name="year" prefix="(" suffix=")" font-style="italic"/>'
              '</date>')
    entries = [item(id="a", issued={"date-parts": [[-44]]}), item(id="b", issued={"date-parts": [[450]]}),
               item(id="c", issued={"date-parts": [[-44], [-40]]})]
    assert bib(layout, entries, output="html") == [
        '<div class="csl-entry">(<i>44</i>) BC</div>', '<div class="csl-entry">(<i>450</i>) AD</div>',
        '<div class="csl-entry">(<i>44</i>\u2013<i>40</i>) BC</div>']


def test_the_year_suffix_follows_the_era() -> None:
    twins = [item(id=key, author=[DOE], issued={"date-parts": [[-44]]}) for key in ("a", "b")]
    processor = make_processor(style('<date variable="issued"><date-part name="year"/></date>',
                                     citation_attrs='disambiguate-add-year-suffix="true"'), twins)
    assert [processor.cite([{"id": key}]) for key in ("a", "b")] == ["44 BCa", "44 BCb"]


def test_the_year_suffix_follows_the_end_of_a_range_of_years() -> None:
    twins = [item(id=key, author=[DOE], issued={"date-parts": [[1999], [2001]]}) for key in ("a", "b")]
    processor = make_processor(style('<date variable="issued"><date-part name="year"/></date>',
                                     citation_attrs='disambiguate-add-year-suffix="true"'), twins)
    assert [processor.cite([{"id": key}]) for key in ("a", "b")] == ["1999\u20132001a", "1999\u20132001b"]


def test_given_names_whose_initials_are_alike_are_shown_whole_to_tell_them_apart() -> None:
    # "John-boy" is initialized "J." as "John" is: primary-name shows both names in full
    cite = ('<group delimiter=" "><names variable="author editor"><name form="short" '
            'initialize-with=". "/></names><date variable="issued"><date-part name="year"/></date></group>')
    items = [item(id="a", author=[{"family": "Doe", "given": "John"}], issued={"date-parts": [[1965]]}),
             item(id="b", editor=[{"family": "Doe", "given": "John-boy"}])]
    processor = make_processor(style(cite, citation_attrs='disambiguate-add-givenname="true" '
                                     'givenname-disambiguation-rule="primary-name"'), items)
    assert [processor.cite([{"id": key}]) for key in ("a", "b")] == ["John Doe 1965", "John-boy Doe"]


def test_a_with_initials_rule_shows_initials_without_initialize_with() -> None:
    cite = ('<group delimiter=", "><names variable="author editor"><name form="short" '
            'name-as-sort-order="all"/></names><date variable="issued"><date-part name="year"/>'
            '</date></group>')
    items = [item(id="a", author=[{"family": "Riegert-Johnson", "given": "Douglas"}],
                  issued={"date-parts": [[2009]]}),
             item(id="b", editor=[{"family": "Riegert-Johnson", "given": "Douglas L."}],
                  issued={"date-parts": [[2009]]})]
    processor = make_processor(style(cite, citation_attrs='disambiguate-add-givenname="true" '
                                     'givenname-disambiguation-rule="primary-name-with-initials"'),
                               items)
    assert [processor.cite([{"id": key}]) for key in ("a", "b")] == [
        "Riegert-Johnson, D, 2009", "Riegert-Johnson, DL, 2009"]


def test_cites_of_a_style_that_varies_with_position_are_told_apart_in_their_subsequent_form() -> None:
    # as citeproc-js: "Aristotle" is the subsequent cite of all three, so all three get suffixes
    cite = ('<choose><if position="first"><group delimiter=", "><names variable="author"/>'
            '<text variable="title"/><date variable="issued"><date-part name="year"/></date></group>'
            '</if><else><names variable="author"/></else></choose>')
    layout = ('<group delimiter=", "><names variable="author"/><text variable="title"/>'
              '<date variable="issued"><date-part name="year"/></date></group>')
    items = [item(id=key, title=title, author=[{"family": "Aristotle"}], issued={"date-parts": [[1999]]})
             for key, title in (("a", "Ethics"), ("b", "Ethics"), ("c", "Politics"))]
    note_style = style(cite, bibliography=layout, style_class="note",
                       citation_attrs='disambiguate-add-year-suffix="true"')
    assert make_processor(note_style, items).bibliography() == [
        "Aristotle, Ethics, 1999a", "Aristotle, Ethics, 1999b", "Aristotle, Politics, 1999c"]


def test_a_group_of_a_season_named_in_words_alone_renders_nothing() -> None:
    layout = ('<text variable="title"/><group prefix=" (" suffix=")">'
              '<date variable="issued"><date-part name="month"/></date></group>')
    spring = item(title="Sail", issued={"date-parts": [[2019]], "season": "Spring"})
    summer = item(id="ITEM-2", title="Sail", issued={"date-parts": [[2019]], "season": 2})
    assert bib(layout, [spring, summer]) == ["Sail", "Sail (Summer)"]


def test_a_season_that_is_no_season_number_is_written_as_given_in_place_of_the_month() -> None:
    # GB/T 7714 data: a periodical's last year typed as its season
    layout = ('<text variable="title"/><date variable="issued" prefix=", "><date-part name="year"/>'
              '<date-part name="month" prefix="/[" suffix="]"/></date>')
    entry = item(title="Tongxun", issued={"date-parts": [["1957"]], "season": "1990"})
    assert bib(layout, [entry]) == ["Tongxun, 1957/[1990]"]


def test_a_literal_date_takes_the_affixes_and_formatting_of_the_year_part() -> None:
    layout = ('<text variable="title"/><date variable="issued" prefix=" [" suffix="]">'
              '<date-part name="month" suffix=" "/><date-part name="year" prefix="(" suffix=")" font-style="italic"/>'
              '</date>')
    entry = item(title="Sail", issued={"literal": "05.11.2011"})
    assert bib(layout, [entry], output="html") == [
        '<div class="csl-entry">Sail [(<i>05.11.2011</i>)]</div>']


def test_the_year_suffix_repeats_the_affixes_and_formatting_of_the_year_part() -> None:
    layout = ('<text variable="title" suffix=" "/><date variable="issued">'
              '<date-part name="year" prefix="(" suffix=")" font-weight="bold"/></date>')
    twins = [item(id=key, title="Sail", issued={"date-parts": [[2011]]}) for key in ("a", "b")]
    processor = make_processor(style(bibliography=layout,
                                     citation_attrs='disambiguate-add-year-suffix="true"'),
                               twins, output="html")
    assert processor.bibliography() == ['<div class="csl-entry">Sail (<b>2011</b>)(<b>a</b>)</div>',
                                        '<div class="csl-entry">Sail (<b>2011</b>)(<b>b</b>)</div>']


def test_display_counts_only_on_the_layouts_outermost_elements() -> None:
    layout = ('<group delimiter=". "><group><text variable="title" suffix=" "/>'
              '<text variable="edition" display="left-margin" prefix="(" suffix=")"/></group>'
              '<text variable="publisher"/></group>')
    book = item(title="Sail", edition="2", publisher="Brill")
    assert bib(layout, [book], output="html") == ['<div class="csl-entry">Sail (2). Brill</div>']


# -- sorting ----------------------------------------------------------------------------


def _sorted(texts: list[str], locale: str = "en-US") -> list[str]:
    key = collation(locale).key
    return sorted(texts, key=lambda text: key(text.replace(" ", "|") + "|"))


def test_a_guessed_date_with_affixes_sorts_by_its_year_through_a_macro_call() -> None:
    # as citeproc-js (Taylor & Francis Chicago author-date's date-sort-year): "[1900?]",
    # written by a macro that the sort key's macro (one holding a date) calls, sorts as 1900,
    # not as an undated item
    extra = ('<macro name="year"><choose><if is-uncertain-date="issued"><date variable="issued" '
             'date-parts="year" form="numeric" prefix="[" suffix="?]"/></if><else><date '
             'variable="issued" date-parts="year" form="numeric"/></else></choose></macro>'
             '<macro name="sort-year"><choose><if type="interview" variable="issued">'
             '<date variable="event-date" date-parts="year" form="numeric"/></if>'
             '<else><text macro="year"/></else></choose></macro>')
    layout = '<group delimiter=" "><text variable="title"/><text macro="year"/></group>'
    entries = [item(id="range", title="Range", issued={"date-parts": [[1999], [2001]]}),
               item(id="guessed", title="Guessed", issued={"date-parts": [[1900]], "circa": True}),
               item(id="year", title="Year", issued={"date-parts": [[1987]]})]
    assert bib(layout, entries, extra=extra, sort='<sort><key macro="sort-year"/></sort>') == [
        "Guessed [1900?]", "Year 1987", "Range 1999\u20132001"]


def test_a_descending_date_key_keeps_year_suffixed_entries_in_suffix_order() -> None:
    # as citeproc-js (elsevier-harvard's sort): a year suffix is no part of a date's sort key
    layout = ('<text variable="title" suffix=" "/><date variable="issued">'
              '<date-part name="year"/></date>')
    twins = [item(id=key, title=title, author=[DOE], issued={"date-parts": [[2020]]})
             for key, title in (("a", "Metadata"), ("b", "Disambiguation"))]
    year = '<macro name="year"><date variable="issued"><date-part name="year"/></date></macro>'
    descending = ('<sort><key variable="author"/><key macro="year" sort="descending"/>'
                  "</sort>")
    processor = make_processor(style(bibliography=layout, sort=descending, extra=year,
                                     citation_attrs='disambiguate-add-year-suffix="true"'), twins)
    assert processor.bibliography() == ["Metadata 2020a", "Disambiguation 2020b"]


def test_names_are_collated_with_accents_as_their_letters() -> None:
    assert _sorted(["Zhang", "Øster", "Ostrich", "Ábel"]) == ["Ábel", "Øster", "Ostrich", "Zhang"]


def test_a_danish_style_sorts_ø_after_z() -> None:
    assert _sorted(["Zhang", "Øster", "Ostrich"], "da-DK") == ["Ostrich", "Zhang", "Øster"]


def test_numbers_in_sort_keys_compare_by_value() -> None:
    assert _sorted(["200", "07-x", "6.1"]) == ["6.1", "07-x", "200"]


def test_a_shorter_name_sorts_before_a_longer_one_it_begins() -> None:
    assert _sorted(["Dalebout Arnie", "Dale Zippy"]) == ["Dale Zippy", "Dalebout Arnie"]


def test_the_bibliography_is_sorted_in_the_styles_locale() -> None:
    names = [item(id=f"i{n}", title=family, author=[{"family": family, "given": "A"}])
             for n, family in enumerate(["Zorn", "Øster", "Bakke", "Aagaard"])]
    layout = '<text variable="title"/>'
    sort = '<sort><key variable="author"/></sort>'
    assert bib(layout, names, sort=sort) == ["Aagaard", "Bakke", "Øster", "Zorn"]
    # Danish: ø after z, and aa is å, the last letter
    assert bib(layout, names, sort=sort, locale="da-DK") == ["Bakke", "Zorn", "Øster", "Aagaard"]


def test_a_sort_macro_that_renders_only_a_term_gives_no_key() -> None:
    # betriebswirtschaftliche-forschung-und-praxis: an author macro whose substitute ends in
    # the term "anonymous" is suppressed like a group, in the sort key too: such items last
    author = ('<macro name="author"><names variable="author"><name/><substitute>'
              '<names variable="editor"/><text term="anonymous"/></substitute></names></macro>')
    layout = '<group delimiter=" "><text macro="author"/><text variable="title"/></group>'
    items = [item(id="a", title="Alpha"), item(id="b", title="Beta", author=[DOE]),
             item(id="c", title="Gamma", author=[ROE])]
    assert bib(layout, items, extra=author, sort='<sort><key macro="author"/></sort>') == [
        "John Robert Doe Beta", "Jane Roe Gamma", "Alpha"]


def test_text_decoration_none_is_written_in_html() -> None:
    layout = '<text variable="title" text-decoration="none"/>'
    assert bib(layout, [item(title="Sail")], output="html") == [
        '<div class="csl-entry"><span style="text-decoration:none;">Sail</span></div>']


def test_the_layout_suffix_does_not_merge_with_the_suffix_after_a_number() -> None:
    layout = '<group delimiter="; " suffix=";"><text variable="title"/><text variable="volume"/></group>'
    numbered = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"><info><id>t</id>'
        '<title>T</title></info><citation><layout><text value="x"/></layout></citation>'
        f'<bibliography><layout suffix=".">{layout}</layout></bibliography></style>')
    assert make_processor(numbered, [item(title="Sail", volume="540")]).bibliography() == ["Sail; 540;."]
    assert make_processor(numbered, [item(title="Sail")]).bibliography() == ["Sail;"]


def test_a_style_locale_for_the_primary_dialect_applies_to_the_other_dialects() -> None:
    layout = '<names variable="author"><name et-al-min="2" et-al-use-first="1"/></names>'
    authors = [{"family": "Fox", "given": "John"}, {"family": "Weis", "given": "Sanford"}]
    override = '<locale xml:lang="en-US"><terms><term name="et-al">et al</term></terms></locale>'
    assert bib(layout, [item(author=authors)], locale="en-GB", extra=override) == ["John Fox et al"]


def _locale_store(directory: Path, terms: dict[str, str]) -> LocaleStore:
    for lang, and_term in terms.items():
        (directory / f"locales-{lang}.xml").write_text(
            f'<locale xmlns="http://purl.org/net/xbiblio/csl" version="1.0" xml:lang="{lang}"><terms>'
            f'<term name="and">{and_term}</term></terms></locale>', encoding="utf-8")
    return LocaleStore(directory)


AND_TERM = '<names variable="author"><name and="text"/></names>'


@pytest.mark.parametrize(("lang", "expected"), [
    ("id", "John Robert Doe and Jane Roe"),  # no base for Indonesian, no locales-id.xml
    ("id-ID", "John Robert Doe dan Jane Roe"),
])
def test_a_language_without_a_base_locale_rests_on_english(tmp_path: Path, lang: str, expected: str) -> None:
    store = _locale_store(tmp_path, {"en-US": "and", "id-ID": "dan"})
    assert bib(AND_TERM, [item(author=[DOE, ROE])], locale=lang, locale_store=store) == [expected]


def test_a_regional_locale_rests_on_its_language_base_not_on_english(tmp_path: Path) -> None:
    store = _locale_store(tmp_path, {"en-US": "and", "de-DE": "und"})
    (tmp_path / "locales-de-AT.xml").write_text(
        '<locale xmlns="http://purl.org/net/xbiblio/csl" version="1.0" xml:lang="de-AT"><terms>'
        '<term name="et-al">u. a.</term></terms></locale>', encoding="utf-8")
    assert bib(AND_TERM, [item(author=[DOE, ROE])], locale="de-AT", locale_store=store) == [
        "John Robert Doe und Jane Roe"]


@pytest.mark.parametrize(("lang", "resolved"), [
    ("de", ("de-DE", "de-DE")),
    ("de-AT", ("de-DE", "de-AT")),
    ("en-GB-x-oxford", ("en-US", "en-GB")),
    ("pt_BR", ("pt-PT", "pt-BR")),
    ("id", ("en-US", "id")),
])
def test_a_language_tag_resolves_to_its_base_and_best_locale(lang: str, resolved: tuple[str, str]) -> None:
    assert resolve_language(lang) == resolved


def test_the_prefix_of_a_formatted_element_does_not_merge_with_the_mark_before_it() -> None:
    layout = ('<text variable="title"/><text variable="container-title" prefix=". " font-style="italic"/>'
              '<text variable="publisher" prefix=". "/>')
    post = item(title="Why accrued?", **{"container-title": "r/Professors"}, publisher="Reddit?")
    assert bib(layout, [post]) == ["Why accrued?. r/Professors. Reddit?"]


def test_parentheses_nested_in_a_note_citation_become_brackets() -> None:
    layout = ('<text variable="title"/><group prefix=" (" suffix=")">'
              '<group prefix="(" suffix=")"><text term="no date" form="short"/></group></group>')
    note = style(layout, style_class="note")
    assert make_processor(note, [item(title="Logic")]).cite([{"id": "ITEM-1"}]) == "Logic ([n.d.])"


@pytest.mark.parametrize(("direction", "order"), [
    ("ascending", ["B0", "D0", "A1", "C2"]), ("descending", ["C2", "A1", "B0", "D0"]),
])
def test_a_name_count_sort_key_counts_no_names_as_zero(direction: str, order: list[str]) -> None:
    # oscola-no-ibid: cases without authors sort before the one with its judge as author
    count = '<macro name="count"><names variable="author"><name form="count"/></names></macro>'
    sort = f'<sort><key macro="count" sort="{direction}"/><key variable="title"/></sort>'
    books = [item(id="a", title="A1", author=[DOE]), item(id="b", title="B0"),
             item(id="c", title="C2", author=[DOE, ROE]), item(id="d", title="D0")]
    assert bib('<text variable="title"/>', books, extra=count, sort=sort) == order


def test_a_date_range_sorts_by_its_start_among_single_dates() -> None:
    author = [{"family": "Gogh", "given": "Vincent", "non-dropping-particle": "van"}]
    works = [item(id="a", title="Letters", author=author, issued={"raw": "1999-2001"}),
             item(id="b", title="Sketches", author=author, issued={"date-parts": [[2004]]}),
             item(id="c", title="Diaries", author=author, issued={"date-parts": [[2001, 6, 1]]}),
             item(id="d", title="Atlas", author=author, issued={"date-parts": [[1999], [2001]]}),
             item(id="e", title="Notes", author=author, issued={"date-parts": [[2004, 3], [2004, 5]]})]
    layout = '<text variable="title"/><date variable="issued" form="numeric" prefix=" "/>'
    sort = '<sort><key variable="author"/><key variable="issued"/></sort>'
    assert bib(layout, works, sort=sort) == [
        "Letters 1999\u2013 2001", "Atlas 1999\u20132001", "Diaries 06/01/2001", "Sketches 2004",
        "Notes 03\u201305/2004"]


def test_a_season_sorts_as_a_date_without_month() -> None:
    works = [item(id="a", title="Plain", issued={"date-parts": [[1999]]}),
             item(id="b", title="March", issued={"date-parts": [[1999, 3]]}),
             item(id="c", title="Spring", issued={"raw": "Spring 1999"}),
             item(id="d", title="Autumn", issued={"date-parts": [[1999]], "season": 3}),
             item(id="e", title="Earlier", issued={"date-parts": [[1998, 5]]})]
    sort = '<sort><key variable="issued"/></sort>'
    assert bib('<text variable="title"/>', works, sort=sort) == ["Earlier", "Plain", "Spring", "Autumn", "March"]


@pytest.mark.parametrize("key", ['<key variable="issued"/>', '<key variable="issued" sort="descending"/>'])
def test_a_literal_date_sorts_as_no_date(key: str) -> None:
    works = [item(id="a", title="Bells", issued={"literal": "n.d. (before 1950)"}),
             item(id="b", title="Coast", issued={"date-parts": [[2004]]}),
             item(id="c", title="Atlas"),
             item(id="d", title="Dunes", issued={"date-parts": [[1990]]})]
    sort = f'<sort>{key}<key variable="title"/></sort>'
    dated = ["Dunes", "Coast"] if "descending" not in key else ["Coast", "Dunes"]
    assert bib('<text variable="title"/>', works, sort=sort) == [*dated, "Atlas", "Bells"]


# -- page ranges ------------------------------------------------------------------------


@pytest.mark.parametrize(("page", "style_format", "expected"), [
    ("321-28", "expanded", "321–328"),
    ("321-328", "minimal", "321–8"),
    ("321-328", "chicago", "321–28"),
    ("12-12", "expanded", "12–12"),
    ("12-12", None, "12–12"),
    ("41:1-41:15", "minimal", "41:1-41:15"),  # not plain numbers: left with the hyphen
    ("94-98,93", None, "94-98,93"),
    ("2.1-2.55", "expanded", "2.1-2.55"),
    ("S12-S14", "minimal", "S12–4"),
    ("iv-ix", None, "iv–ix"),
    ("95-107-107", None, "95-107–107"),  # of a chain only the last pair is a range
    ("10-20; 30-40", None, "10–20; 30–40"),
])
def test_page_ranges_follow_citeproc_js(page: str, style_format: str | None, expected: str) -> None:
    assert format_page_range(page, style_format, "\u2013") == expected


@pytest.mark.parametrize(("page", "plural"), [
    ("3-8", True), ("11-+", True), ("41:1-41:15", False), ("2.1-2.55", False), ("12a-c", False),
    ("10\\-12", False), ("7", False),
])
def test_page_labels_are_plural_for_ranges_of_plain_numbers(page: str, plural: bool) -> None:
    assert several_pages(page) is plural


@pytest.mark.parametrize(("value", "expected"), [
    ("4.2-0", "version 4.2-0 volume 4.2-0"), ("4-5", "versions 4-5 volumes 4\u20135"),
    ("1.0, 2.0", "version 1.0, 2.0 volume 1.0, 2.0"), ("v2-3", "versions v2-3 volumes v2-3"),
])
def test_labels_and_ranges_of_version_and_volume_follow_citeproc_js(value: str, expected: str) -> None:
    # a dotted first number is not counted as several; version keeps its hyphen
    layout = ('<group delimiter=" "><label variable="version"/><text variable="version"/>'
              '<label variable="volume"/><text variable="volume"/></group>')
    software = item(type="software", title="effects", version=value, volume=value)
    assert bib(layout, [software]) == [expected]


@pytest.mark.parametrize(("pages", "expected"), [
    ("76", "76 pp."), ("1", "1 p."), ("76 listova", "76 listova p."), ("xii, 76", "xii, 76 pp."),
    ("76p", "76p pp."), ("ca. 76", "ca. 76 p."),
])
def test_the_label_of_number_of_pages_is_plural_as_in_citeproc_js(pages: str, expected: str) -> None:
    layout = ('<group delimiter=" "><text variable="number-of-pages"/>'
              '<label variable="number-of-pages" form="short"/></group>')
    assert bib(layout, [item(**{"number-of-pages": pages})]) == [expected]


def test_the_label_of_number_of_pages_is_its_own_term_not_the_page_term() -> None:
    # as citeproc-js (american-meteorological-society): a style's "page" term leaves it alone
    extra = ('<locale><terms><term name="page" form="short"><single>p.</single><multiple/></term>'
             '</terms></locale>')
    layout = ('<text variable="number-of-pages"/><label variable="number-of-pages" form="short"/>'
              '<text variable="page" prefix=", "/><label variable="page" form="short"/>')
    book = item(title="The Mystery of UFOs", page="3-5", **{"number-of-pages": "32"})
    assert bib(layout, [book], extra=extra) == ["32pp., 3\u20135"]


def test_the_label_of_a_missing_locator_is_the_page_term_as_in_citeproc_js() -> None:
    # as a term: a group holding only the label still renders (styles put it before the pages)
    layout = ('<text variable="title"/><label variable="locator" form="short" prefix=", " suffix=" "/>'
              '<text variable="page"/><group prefix=" [" suffix="]"><label variable="locator"/></group>')
    chapter = item(type="chapter", title="Proteomics", page="371-397")
    assert bib(layout, [chapter], style_attrs='default-locale="de-DE"') == ["Proteomics, S. 371\u2013397 [Seite]"]


def test_the_label_of_a_missing_variable_is_plural_when_always_plural() -> None:
    # environment-and-urbanization: <label variable="page" plural="always"/> after the pages
    layout = ('<group delimiter=" "><text variable="number-of-pages"/><label variable="page" plural="always"/>'
              '</group><label variable="page" prefix="; "/>')
    assert bib(layout, [item(**{"number-of-pages": "496"})]) == ["496 pages; page"]


def test_the_label_of_a_cites_missing_locator_is_the_page_term() -> None:
    processor = make_processor(style('<text variable="title"/><label variable="locator" prefix=", "/>'),
                               [item(title="Proteomics")])
    assert processor.cite([{"id": "ITEM-1"}]) == "Proteomics, page"


def test_a_sort_macro_holding_a_date_sorts_by_its_dates_alone() -> None:
    # as citeproc-js: the title in a macro that also holds a cs:date (here in a branch the
    # items do not take) is not written into the sort key, so the dates decide
    title = ('<macro name="title"><choose><if type="webpage"><date variable="issued" form="text"/></if>'
             '<else><text variable="title"/></else></choose></macro>')
    year = '<macro name="year"><date variable="issued"><date-part name="year"/></date></macro>'
    items = [item(id="a", title="Zeta", issued={"date-parts": [[1999]]}),
             item(id="b", title="Alpha", issued={"date-parts": [[2005]]}),
             item(id="c", title="Beta")]
    sort = '<sort><key macro="title"/><key macro="year"/></sort>'
    assert bib('<text variable="title"/>', items, sort=sort, extra=title + year) == ["Zeta", "Alpha", "Beta"]


def test_strip_periods_takes_every_period_of_a_term_but_not_those_before_a_small_letter_of_a_value() -> None:
    layout = ('<text variable="title"/><text term="no date" form="short" strip-periods="true" prefix=" "/>'
              '<text value="e.g. x." strip-periods="true" prefix=" "/>')
    assert bib(layout, [item(title="Logic")]) == ["Logic nd e.g x"]


def test_an_empty_range_delimiter_is_the_default_en_dash() -> None:
    # express-polymer-letters: range-delimiter=""
    layout = '<date variable="issued"><date-part name="year" range-delimiter=""/></date>'
    assert bib(layout, [item(issued={"date-parts": [[2010, 1], [2011, 12]]})]) == ["2010\u20132011"]


@pytest.mark.parametrize(("url", "short"), [
    ("https://www.accessscience.com/content/biography/m0073908", "www.accessscience.com"),
    ("http://example.org/", "http://example.org"), ("https://example.org", "https://example.org"),
])
def test_the_short_form_of_a_url_is_its_host_as_citeproc_js_writes_it(url: str, short: str) -> None:
    # annual-reviews-author-date: <text variable="URL" form="short"/>
    assert bib('<text variable="URL" form="short"/>', [item(type="webpage", URL=url)]) == [short]


def test_a_number_written_with_a_leading_zero_keeps_it_in_every_form() -> None:
    layout = ('<number variable="issue" prefix="no. "/><number variable="issue" form="ordinal" prefix=" / "/>'
              '<number variable="issue" form="roman" prefix=" / "/><number variable="volume" prefix=" vol. "/>')
    entry = item(type="article-journal", issue="08", volume="08-09")
    assert bib(layout, [entry]) == ["no. 08 / 08 / 08 vol. 08\u201309"]


def test_a_number_zero_is_written_as_it_stands() -> None:
    assert bib('<number variable="edition" form="ordinal"/>', [item(edition="0")]) == ["0"]


def test_a_hyphen_in_a_number_range_becomes_the_locales_page_range_delimiter() -> None:
    layout = '<number variable="volume"/><text variable="issue" prefix=" (" suffix=")"/>'
    entry = item(type="article-journal", volume="3-4", issue="1-2")
    assert bib(layout, [entry], locale="fr-FR") == ["3\u20114 (1\u20112)"]  # a non-breaking hyphen


def test_a_styles_own_page_range_delimiter_joins_its_number_ranges() -> None:
    extra = '<locale><terms><term name="page-range-delimiter">-</term></terms></locale>'
    entry = item(type="article-journal", volume="3-4", issue="1\u20132")
    assert bib('<number variable="volume"/><number variable="issue" prefix=" "/>', [entry],
               extra=extra) == ["3-4 1\u20132"]  # an en dash written stays


# -- spaces where affixes meet ------------------------------------------------------------


_NEWSPAPER = item(type="article-newspaper", title="Lot", **{"container-title": "NRC"}, volume="5",
                  issued={"date-parts": [[2023]]})
_ISSUED = '<macro name="issued"><date variable="issued" prefix=" "><date-part name="year"/></date></macro>'
_SHORT = '<macro name="short"><text variable="container-title" font-style="italic" suffix=". "/></macro>'


@pytest.mark.parametrize(("layout", "expected"), [
    # a formatted element's suffix keeps its space before a prefix that starts with one
    ('<text variable="container-title" font-style="italic" suffix=" "/><text macro="issued"/>', "NRC  2023"),
    ('<text variable="container-title" quotes="true" suffix=" "/><text variable="volume" prefix=" "/>',
     "\u201cNRC\u201d  5"),
    ('<text variable="container-title" font-style="normal" suffix=", "/><text variable="volume" prefix=" "/>',
     "NRC,  5"),
    (('<group font-style="italic" suffix=" "><text variable="container-title"/></group>'
     '<text variable="volume" prefix=" "/>'), "NRC  5"),
    ('<group font-style="italic"><text macro="short"/></group><text variable="volume" prefix=" "/>',
     "NRC.  5"),
    # an unformatted element's suffix, or a delimiter, merges its space
    ('<text variable="container-title" suffix=" "/><text macro="issued"/>', "NRC 2023"),
    (('<group delimiter=" "><text variable="container-title" font-style="italic" suffix=" "/>'
     '<text variable="volume"/></group>'), "NRC 5"),
    # a space that ends an unformatted macro or group merges too
    ('<text macro="short"/><text variable="volume" prefix=" "/>', "NRC. 5"),
    # a space that starts what a formatted group holds stays, unless the group's prefix has one
    (('<text variable="container-title"/><group prefix=" "><group font-style="normal">'
     '<text variable="volume" font-style="normal" prefix=" "/></group></group>'), "NRC  5"),
    (('<text variable="container-title" suffix=" "/><group font-style="italic">'
     '<text variable="volume" prefix=" "/></group>'), "NRC  5"),
    (('<text variable="container-title"/><group prefix=" "><group font-style="normal" prefix=" ">'
     '<text variable="volume"/></group></group>'), "NRC 5"),
    # an element's own prefix is outside its formatting: it merges
    ('<text variable="container-title" suffix=" "/><text variable="volume" prefix=" " font-style="italic"/>',
     "NRC 5"),
    # nothing merges with a number's suffix, unless it ends a group or meets a delimiter
    ('<text variable="volume" suffix=" "/><text macro="issued"/>', "5  2023"),
    ('<group><text variable="volume" suffix=" "/></group><text macro="issued"/>', "5 2023"),
    ('<group delimiter=" "><text variable="volume" suffix=" "/><text variable="container-title"/></group>',
     "5 NRC"),
])
def test_spaces_where_affixes_meet_merge_as_in_citeproc_js(layout: str, expected: str) -> None:
    assert bib(layout, [_NEWSPAPER], extra=_ISSUED + _SHORT) == [expected]


@pytest.mark.parametrize(("first", "attrs", "expected"), [
    ('<text variable="citation-number" suffix=". "/>', "", "1.  Chemistry"),
    ('<text variable="citation-number" suffix=". "/>', 'second-field-align="flush"', "1.   Chemistry"),
    ('<text variable="citation-label" prefix="[" suffix="] "/>', 'second-field-align="flush"', "[Chem00]  Chemistry"),
])
def test_the_space_after_a_citation_number_stays_before_a_prefix_with_one(first: str, attrs: str,
                                                                          expected: str) -> None:
    # as citeproc-js, which writes citation numbers apart (an aligned entry adds a space)
    layout = first + '<group prefix=" "><text variable="title"/></group>'
    assert bib(layout, [item(title="Chemistry")], bibliography_attrs=attrs) == [expected]


def test_no_break_spaces_where_affixes_meet_merge_as_spaces_do() -> None:
    # revue-metis: label suffix ".&#160;" in a group delimited by "&#160;": "p.\u00a012"
    layout = ('<group delimiter="&#160;"><label variable="page" form="short" suffix=".&#160;"/>'
              '<text variable="page"/></group><text variable="title" prefix="&#160;" suffix="&#160;"/>'
              '<text variable="volume" prefix="&#160;"/>')
    assert bib(layout, [item(title="Tides", page="12", volume="5")]) == ["p.\u00a012\u00a0Tides\u00a05"]


def test_a_suffix_gives_its_last_space_to_the_delimiter_after_it() -> None:
    # as citeproc-js, which escapes each apart: two spaces, no no-break space
    layout = '<group delimiter=" "><text variable="container-title" suffix=",  "/><text variable="volume"/></group>'
    assert bib(layout, [_NEWSPAPER], output="html") == ['<div class="csl-entry">NRC,  5</div>']


def test_the_space_a_cites_suffix_starts_with_stays_after_the_cites_own() -> None:
    citation = '<group><text variable="title" suffix=", "/></group>'
    processor = make_processor(style(citation), [item(title="Addressing Vulnerabilities")])
    assert processor.cite([{"id": "ITEM-1", "suffix": " for details"}]) == "Addressing Vulnerabilities,  for details"


_ET_AL = item(author=[DOE, ROE], issued={"date-parts": [[2020]]})
_ET_AL_NAMES = '<names variable="author"><name et-al-min="2" et-al-use-first="1"/></names>'
_YEAR = '<date variable="issued" date-parts="year" form="numeric"/>'


@pytest.mark.parametrize(("layout", "expected"), [
    # a prefix after a formatted element, or a formatted element's prefix, is written whole
    (f'<group font-weight="bold">{_ET_AL_NAMES}</group><group prefix=". ">{_YEAR}</group>',
     "<b>John Robert Doe et al.</b>. 2020"),
    (f'{_ET_AL_NAMES}<group prefix=". " font-weight="bold">{_YEAR}</group>',
     "John Robert Doe et al.. <b>2020</b>"),
    # neither formatted, or the formatted element inside a group: the prefix merges
    (f'{_ET_AL_NAMES}<group prefix=". ">{_YEAR}</group>', "John Robert Doe et al. 2020"),
    (f'<group><group font-weight="bold">{_ET_AL_NAMES}</group></group><group prefix=". ">{_YEAR}</group>',
     "<b>John Robert Doe et al.</b> 2020"),
    # a delimiter merges beside a formatted element
    (f'<group delimiter=". "><group font-weight="bold">{_ET_AL_NAMES}</group>{_YEAR}</group>',
     "<b>John Robert Doe et al.</b> 2020"),
])
def test_a_prefix_merges_only_between_unformatted_elements(layout: str, expected: str) -> None:
    # as citeproc-js, which merges a prefix with the sibling before it only when neither is
    # formatted ("et al.." in laboratory-animal-science-professional)
    assert bib(layout, [_ET_AL], output="html") == [f'<div class="csl-entry">{expected}</div>']


_STRIPPED = ('<macro name="edition"><group delimiter=" "><text variable="edition" text-case="capitalize-first"/>'
             '<number variable="volume"/><text variable="title"/></group></macro>')


@pytest.mark.parametrize("layout", [
    '<text macro="edition" strip-periods="true"/>',
    '<group strip-periods="true"><text macro="edition"/></group>',
])
def test_strip_periods_leaves_what_the_number_path_writes(layout: str) -> None:
    # as citeproc-js, which strips periods only from the strings it writes as text: a
    # cs:number and a number variable in a cs:text keep theirs ("1. izd.")
    entry = item(edition="1. izd.", volume="3. Aufl.", title="A. B.")
    assert bib(layout, [entry], extra=_STRIPPED) == ["1. izd. 3. Aufl. A B"]


@pytest.mark.parametrize(("layout", "expected"), [
    ('<text macro="editor" strip-periods="true" suffix=": "/><text variable="title"/>', "B Filej, editor.: We Refuse. This"),
    ('<group strip-periods="true" delimiter=". "><text variable="title"/><text variable="page" prefix="pp. "/></group>',
     "We Refuse This. pp. 3\u20135"),
], ids=["label-suffix", "prefix-and-delimiter"])
def test_strip_periods_around_elements_leaves_their_affixes_and_delimiters(layout: str, expected: str) -> None:
    # as citeproc-js, which strips the strings elements write (psychosomatics: "editors.: ")
    macro = ('<macro name="editor"><names variable="editor"><name initialize-with="."/>'
             '<label prefix=", " suffix="."/></names></macro>')
    book = item(title="We Refuse. This", page="3-5", editor=[{"family": "Filej", "given": "B."}])
    assert bib(layout, [book], extra=macro) == [expected]


# -- names ------------------------------------------------------------------------------


@pytest.mark.parametrize(("locale", "expected"), [
    ("fr-FR", "J.\u00a0R.\u00a0Adrion, J.\u00a0de\u00a0Boer"), ("en-US", "J.\u00a0R. Adrion, J. de Boer"),
])
def test_initials_ending_in_a_no_break_space_keep_it_before_the_family_name_in_french(
        locale: str, expected: str) -> None:
    layout = '<names variable="author"><name initialize-with=".&#160;" delimiter=", "/></names>'
    authors = [{"family": "Adrion", "given": "Jeffrey R."},
               {"family": "Boer", "given": "Jan", "non-dropping-particle": "de"}]
    assert bib(layout, [item(author=authors)], style_attrs=f'default-locale="{locale}"') == [expected]


def test_full_given_names_take_the_no_break_space_of_initialize_with_in_french_too() -> None:
    # revue-metis: initialize="false" keeps "Noah" whole, and citeproc-js joins "Noah Dukler"
    layout = '<names variable="author"><name initialize="false" initialize-with=".&#160;" delimiter=", "/></names>'
    authors = [{"family": "Dukler", "given": "Noah"}, {"family": "Adrion", "given": "Jeffrey R."}]
    assert bib(layout, [item(author=authors)], style_attrs='default-locale="fr-FR"') == [
        "Noah\u00a0Dukler, Jeffrey R.\u00a0Adrion"]


def test_et_al_use_last_leaves_room_for_the_ellipsis_and_the_last_name() -> None:
    # et-al-min 8: at most 6 names before the ellipsis, whatever et-al-use-first says
    layout = ('<names variable="author"><name et-al-min="8" et-al-use-first="7" et-al-use-last="true" '
              'form="short"/></names>')
    authors = [{"family": family, "given": "A"} for family in "ABCDEFGH"]
    assert bib(layout, [item(author=authors)]) == ["A, B, C, D, E, F, \u2026 H"]


def test_et_al_use_last_after_a_single_name_puts_a_space_before_the_ellipsis() -> None:
    # van-yuzuncu-yil-universitesi-fen-bilimleri-enstitusu: "In R. M. Kamp … T. Choli-Papadopoulou"
    layout = ('<names variable="author"><name et-al-min="3" et-al-use-first="1" et-al-use-last="true" '
              'form="short"/></names>')
    authors = [{"family": family, "given": "A"} for family in ("Kamp", "Calvete", "Choli")]
    assert bib(layout, [item(author=authors)]) == ["Kamp \u2026 Choli"]


def test_the_delimiter_before_the_last_name_keeps_its_space_before_a_prefix_space() -> None:
    layout = ('<text value="a cura di"/><names variable="author">'
              '<name prefix=" " delimiter-precedes-last="never" initialize-with=". "/></names>')
    editors = [{"family": "Fekete", "given": "Sándor"}, {"family": "Lubiw", "given": "Anna"}]
    assert bib(layout, [item(author=[DOE, *editors])]) == ["a cura di J. R. Doe, S. Fekete,  A. Lubiw"]


@pytest.mark.parametrize(("suffix", "written"), [
    (". ", " [Walden end ."), (".  x", " [Walden end ."), ("; ", " [Walden end ;"),
    (", ", " [Walden end , "),
])
def test_a_layout_suffix_starting_with_terminal_punctuation_is_that_mark_alone(
        suffix: str, written: str) -> None:
    note_style = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">'
        "<info><id>t</id><title>T</title></info><citation>"
        f'<layout prefix=" [" delimiter="; " suffix="{suffix}"><text variable="title"/>'
        '<text value=" end "/></layout></citation></style>', source="t")
    processor = make_processor(note_style, [item(title="Walden")])
    assert processor.cite([{"id": "ITEM-1"}]) == written


def test_before_the_last_name_shown_of_a_list_cut_short_the_prefix_space_merges() -> None:
    layout = ('<text value="a cura di"/><names variable="author"><name prefix=" " '
              'delimiter-precedes-last="never" initialize-with=". " et-al-min="3" '
              'et-al-use-first="2"/></names>')
    editors = [{"family": "Fekete", "given": "Sándor"}, {"family": "Lubiw", "given": "Anna"}]
    assert bib(layout, [item(author=[DOE, *editors])]) == ["a cura di J. R. Doe, S. Fekete, et al."]


WHO = {"literal": "World Health Organization"}


def test_each_long_ordinal_of_a_range_takes_its_own_capital() -> None:
    layout = '<number variable="volume" form="long-ordinal" text-case="capitalize-first"/>'
    assert bib(layout, [item(volume="3-4")]) == ["Third\u2013Fourth"]


def test_in_french_a_particle_joins_its_name_with_a_no_break_space_but_a_typed_space_stays() -> None:
    layout = '<names variable="author"/>'
    authors = [item(id="a", author=[{"family": "de Frinkle", "given": "Bevis"}]),
               item(id="b", author=[{"family": "de' Frinkle", "given": "Bevis"}])]
    assert bib(layout, authors, style_attrs='default-locale="fr-FR"') == [
        "Bevis de\u00a0Frinkle", "Bevis de\u2019 Frinkle"]


def test_before_an_institution_the_and_follows_the_sections_delimiter_rule() -> None:
    layout = '<names variable="author"><name and="text" delimiter-precedes-last="always"/></names>'
    assert bib(layout, [item(author=[DOE, WHO])]) == ["John Robert Doe and World Health Organization"]
    assert bib(layout, [item(author=[DOE, ROE])]) == ["John Robert Doe, and Jane Roe"]


def test_the_affixes_of_cs_name_go_on_each_person_but_not_on_institutions() -> None:
    layout = '<names variable="author"><name prefix="&lt;" suffix="!" and="text"/></names>'
    assert bib(layout, [item(author=[DOE, ROE, WHO])]) == [
        "<John Robert Doe!, <Jane Roe!, and World Health Organization"]


def test_an_institution_takes_the_formatting_of_cs_name_and_of_the_family_part_at_once() -> None:
    layout = ('<names variable="author"><name delimiter=" / " font-style="italic" text-decoration="none">'
              '<name-part name="family" text-decoration="underline"/></name></names>')
    authors = [{"literal": "Directorate"}, {"family": "Wiel", "given": "Clara"}]
    assert bib(layout, [item(author=authors)], output="html") == [
        ('<div class="csl-entry"><span style="text-decoration:underline;"><i>Directorate</i></span> / '
         '<span style="text-decoration:none;"><i>Clara <span style="text-decoration:underline;">Wiel</span></i>'
         '</span></div>')]


def test_an_institution_takes_the_family_parts_formatting_but_not_its_affixes() -> None:
    # uclouvain-centre-charles-de-visscher...: family suffix ", " and sort-separator " "
    layout = ('<names variable="author"><name and="text" delimiter-precedes-last="never" '
              'initialize-with="." name-as-sort-order="all" sort-separator=" ">'
              '<name-part name="family" suffix=", "/></name></names>')
    authors = [{"literal": "Stadtarchiv K\u00f6ln"}, {"family": "Vogel", "given": "Eva"}]
    assert bib(layout, [item(author=authors)]) == ["Stadtarchiv K\u00f6ln and Vogel, E."]


def test_before_the_last_of_three_names_an_empty_delimiter_leaves_no_space() -> None:
    layout = ('<names variable="author"><name delimiter="" and="text" '
              'delimiter-precedes-last="never" initialize-with="."/></names>')
    authors = [{"family": "Guy", "given": "John"}, {"family": "Bowers", "given": "James"},
               {"family": "Gillock", "given": "Will B."}]
    assert bib(layout, [item(author=authors)]) == ["J. GuyJ. Bowersand W.B. Gillock"]
    assert bib(layout, [item(author=authors[:2])]) == ["J. Guy and J. Bowers"]


def test_the_formatting_of_cs_name_goes_on_each_name() -> None:
    layout = '<names variable="author"><name font-style="italic" and="symbol"/></names>'
    assert bib(layout, [item(author=[DOE, WHO])], output="html") == [
        '<div class="csl-entry"><i>John Robert Doe</i> &#38; <i>World Health Organization</i></div>']


def test_an_et_al_term_starting_with_a_space_keeps_it_after_the_delimiter() -> None:
    layout = ('<names variable="author"><name et-al-min="3" et-al-use-first="2" delimiter=", " form="short"/>'
              '</names>')
    extra = '<locale><terms><term name="et-al"> \u2013 al.</term></terms></locale>'
    many = item(author=[DOE, ROE, {"family": "Moe", "given": "Anna"}])
    assert bib(layout, [many], extra=extra) == ["Doe, Roe,  \u2013 al."]


# -- terms, labels, citation labels -----------------------------------------------------


def test_a_term_that_starts_an_entry_is_capitalized() -> None:
    layout = '<group delimiter=" "><text term="no date" form="short"/><text variable="title"/></group>'
    assert bib(layout, [item(title="Title")]) == ["N.d. Title"]


def test_a_term_after_an_affix_still_starts_the_entry() -> None:
    layout = '<text term="no date" form="short" prefix="("  suffix=")"/>'
    assert bib(layout, [item()]) == ["(N.d.)"]


def test_a_term_after_a_citation_number_in_the_margin_still_starts_the_entry() -> None:
    # as citeproc-js: the margin's number is not the entry's text ("[8] N.d." in Cell Calcium)
    layout = ('<text variable="citation-number" suffix="."/>'
              '<group delimiter=" "><text term="no date" form="short"/><text variable="title"/>'
              '</group>')
    assert bib(layout, [item(title="Tidal Mills")], bibliography_attrs='second-field-align="flush"'
               ) == ["1. N.d. Tidal Mills"]


def test_a_term_after_the_text_beside_the_margin_keeps_its_case() -> None:
    # as citeproc-js: "2 ‘Book One’ (no date)" in IET Radar, Sonar & Navigation
    layout = ('<text variable="citation-number"/><text variable="title" quotes="true"/>'
              '<text term="no date" prefix=" (" suffix=")"/>')
    assert bib(layout, [item(title="Book One")], bibliography_attrs='second-field-align="flush"'
               ) == ["1 “Book One” (no date)"]


def test_a_term_after_the_margin_and_an_empty_volume_keeps_its_case() -> None:
    # as citeproc-js: an empty volume, issue, edition or number is a term's predecessor, an
    # empty title is not ("[1] n.d." in Elsevier Vancouver, "[1] N.d." in Elsevier with titles)
    layout = ('<text variable="citation-number" prefix="[" suffix="]"/>'
              '<text variable="title" prefix="T: "/><text variable="volume" prefix="vol. "/>'
              '<text term="no date" form="short"/>')
    assert bib(layout, [item()], bibliography_attrs='second-field-align="flush"') == ["[1] n.d."]


def test_an_aligned_entry_of_only_its_number_has_no_layout_suffix() -> None:
    # as citeproc-js: the layout's suffix goes with the part beside the margin, and there is none
    numbered = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
        '<info><id>test</id><title>Test style</title></info>'
        '<citation><layout><text variable="citation-number"/></layout></citation>'
        '<bibliography second-field-align="flush"><layout suffix=".">'
        '<text variable="citation-number"/><text variable="title" prefix=" "/>'
        '</layout></bibliography></style>', source="test")
    entries = [item(id="bare"), item(id="mills", title="Tidal Mills")]
    assert make_processor(numbered, entries, output="html").bibliography() == [
        '<div class="csl-entry">\n    <div class="csl-left-margin">1</div></div>',
        ('<div class="csl-entry">\n    <div class="csl-left-margin">2</div>'
         '<div class="csl-right-inline"> Tidal Mills.</div>\n  </div>')]


_RANGED = [item(id="a", title="Tidal Mills", issued={"date-parts": [[2010, 1], [2011, 12]]}),
           item(id="b", title="Water Wheels", issued={"date-parts": [[2012], [2014]]}),
           item(id="c", title="Weirs", type="report", issued={"date-parts": [[2015], [2016]]})]
_RANGES_LAYOUT = (
    '<group delimiter=" "><text variable="title"/><choose><if type="book">'
    '<date variable="issued" prefix="[" suffix="]"><date-part name="year"/></date></if><else>'
    '<date variable="issued" prefix="{" suffix="}" font-style="italic"><date-part name="year"/>'
    '</date></else></choose><date variable="accessed" prefix="seen " suffix="!" '
    'font-weight="bold"><date-part name="year"/></date></group>')


@pytest.mark.parametrize(("output", "entries"), [
    ("text", ["Tidal Mills [2010–seen 2011!]", "Water Wheels [2012–2014]", "Weirs {2015–2016}"]),
    ("html", ['<div class="csl-entry">Tidal Mills [2010–seen <b>2011</b>!]</div>',
              '<div class="csl-entry">Water Wheels [2012–<b>2014</b>]</div>',
              '<div class="csl-entry">Weirs {<i>2015–<b>2016</b></i>}</div>']),
])
def test_the_first_date_range_ends_in_the_affixes_of_the_last_date_of_the_style(
        output: str, entries: list[str]) -> None:
    # as citeproc-js: its engine's first range end is wrapped in the last cs:date it built,
    # every later one in that date's formatting only; a second bibliography reads the same
    processor = make_processor(style(bibliography=_RANGES_LAYOUT), _RANGED, output=output)
    assert processor.bibliography() == entries
    assert processor.bibliography() == entries


def test_a_range_in_a_registered_citation_takes_the_first_range_end() -> None:
    # as citeproc-js registering items: each citation is rendered once (subsequent position)
    ranged = style(citation='<date variable="issued"><date-part name="year"/></date>',
                   bibliography=_RANGES_LAYOUT)
    assert make_processor(ranged, _RANGED).bibliography()[0] == "Tidal Mills [2010–2011]"


def test_a_raw_date_range_in_a_registered_citation_takes_the_first_range_end() -> None:
    ranged = style(citation='<date variable="issued"><date-part name="year"/></date>',
                   bibliography=_RANGES_LAYOUT)
    items = [item(id="a", title="Tidal Mills", issued={"raw": "2010-2011"}),
             item(id="c", title="Weirs", issued={"date-parts": [[2012]]})]
    assert make_processor(ranged, items).bibliography() == ["Tidal Mills [2010–2011]",
                                                            "Weirs [2012]"]


@pytest.mark.parametrize(("fields", "entry"), [
    ({"note": "Call 001.9"},
     ('<div class="csl-entry">\n    <div class="csl-left-margin">1. </div>'
      '<div class="csl-right-inline">Heinemann. </div>\n  '
      '<div class="csl-right-inline">Call 001.9</div>\n  </div>')),
    ({},
     ('<div class="csl-entry">\n    <div class="csl-left-margin">1. </div>'
      '<div class="csl-right-inline">Heinemann.</div>\n   </div>')),
])
def test_a_right_inline_part_keeps_its_trailing_space_unless_it_ends_the_entry(
        fields: dict[str, Any], entry: str) -> None:
    layout = ('<text variable="citation-number" display="left-margin" suffix=". "/>'
              '<group display="right-inline"><text variable="publisher" suffix=". "/>'
              '<text variable="URL"/></group>'
              '<group display="right-inline"><text variable="note"/></group>')
    assert bib(layout, [item(publisher="Heinemann", **fields)], output="html") == [entry]


def test_labels_take_title_case_whatever_the_items_language() -> None:
    layout = ('<group delimiter=" "><text variable="title" text-case="title"/>'
              '<label variable="page" text-case="title"/></group>')
    assert bib(layout, [item(title="una storia", page="5", language="it")]) == ["una storia Page"]


@pytest.mark.parametrize(("fields", "label"), [
    ({"author": [DOE], "issued": {"date-parts": [[2019]]}}, "Doe19"),
    ({"author": [DOE, ROE]}, "DoRo00"),
    ({"author": [{"family": "余", "given": "敏"}], "title": "参考文献管理工具研究"}, "参考文献00"),
    ({"editor": [{"literal": "The Royal Society"}]}, "Roya00"),
])
def test_citation_labels_are_made_as_citeproc_js_makes_them(fields: dict[str, Any],
                                                             label: str) -> None:
    assert bib('<text variable="citation-label"/>', [item(**fields)]) == [label]


# -- formatting -------------------------------------------------------------------------


def test_italics_inside_italics_stay_italic_when_the_style_nests_them() -> None:
    layout = '<group font-style="italic"><text variable="title" font-style="italic"/></group>'
    assert bib(layout, [item(title="A <i>Bounty</i>")], output="html") == [
        '<div class="csl-entry"><i><i>A <span style="font-style:normal;">Bounty</span></i></i></div>']


def test_formatting_nests_in_a_fixed_order_whatever_the_attribute_order() -> None:
    layout = '<text variable="title" font-weight="bold" font-variant="small-caps" font-style="italic"/>'
    assert bib(layout, [item(title="T")], output="html") == [
        '<div class="csl-entry"><b><span style="font-variant:small-caps;"><i>T</i></span></b></div>']


@pytest.mark.parametrize(("layout", "entry"), [
    ('<text variable="title" quotes="false" suffix="."/>', "Why?."),
    ('<text variable="title" quotes="false"/><text variable="publisher" prefix=". "/>', "Why?. Brill"),
    ('<text variable="title" suffix="."/>', "Why?"),
], ids=["own-suffix", "next-prefix", "no-quotes-attribute"])
def test_quotes_false_seals_an_elements_text_as_formatting_does(layout: str, entry: str) -> None:
    # gesellschaft-fur-popularmusikforschung: quotes="false" suffix=".“" writes "accrued?.“"
    assert bib(layout, [item(title="Why?", publisher="Brill")]) == [entry]


_QUOTED = '<macro name="title"><text variable="title" quotes="true"/></macro>'


@pytest.mark.parametrize(("layout", "expected"), [
    # a style's quotes take the outer marks however deep, quotes in the value the inner ones
    ('<text macro="title" quotes="true"/>', "\u201c\u201cSay \u2018this\u2019 here\u201d\u201d"),
    # under an outermost quotes="false", quotes in the value take the outer marks
    ('<text macro="title" quotes="false"/>', "\u201cSay \u201cthis\u201d here\u201d"),
    ('<group quotes="false"><group><text macro="title"/></group></group>', "\u201cSay \u201cthis\u201d here\u201d"),
    ('<group quotes="true"><text macro="title" quotes="false"/></group>',
     "\u201c\u201cSay \u2018this\u2019 here\u201d\u201d"),
])
def test_quotes_nest_as_in_citeproc_js(layout: str, expected: str) -> None:
    assert bib(layout, [item(title='Say "this" here')], extra=_QUOTED) == [expected]


def test_title_case_judges_an_elided_word_by_its_part_before_the_apostrophe() -> None:
    entries = [item(id="a", title="revue d’histoire moderne"),
               item(id="b", title="l'arte dell’arte e l’ancien régime")]
    assert bib('<text variable="title" text-case="title"/>', entries) == [
        "Revue d’histoire Moderne", "L’arte Dell’arte e l’ancien Régime"]


# -- conditions and substitution --------------------------------------------------------


def test_the_types_of_one_attribute_are_alternatives_under_match_all() -> None:
    layout = ('<choose><if type="book report" variable="title"><text value="book or report"/></if>'
              '<else><text value="other"/></else></choose>')
    assert bib(layout, [item(type="report", title="T")]) == ["book or report"]


def test_a_choose_in_substitute_offers_its_elements_one_by_one() -> None:
    layout = ('<names variable="author"><substitute><choose><if type="book">'
              '<names variable="editor"/><names variable="translator"/></if></choose>'
              '</substitute></names>')
    assert bib(layout, [item(editor=[DOE], translator=[ROE])]) == ["John Robert Doe"]


def test_a_names_element_inside_a_substitute_may_substitute_in_turn() -> None:
    layout = ('<names variable="author"><substitute><names variable="author"><substitute>'
              '<text variable="title"/></substitute></names></substitute></names>')
    assert bib(layout, [item(title="Anonymous work")]) == ["Anonymous work"]


def test_a_title_substituted_in_its_short_form_is_not_rendered_again() -> None:
    layout = ('<group delimiter=", "><names variable="author"><substitute>'
              '<text variable="title" form="short" font-style="italic"/></substitute></names>'
              '<text variable="title" form="short"/><text variable="publisher"/></group>')
    met = item(type="graphic", title="Cuneiform tablet case impressed with four cylinder seals: field rental",
               shortTitle="Cuneiform tablet case", publisher="Metropolitan Museum of Art")
    assert bib(layout, [met]) == ["Cuneiform tablet case, Metropolitan Museum of Art"]


def test_ordinal_terms_a_style_writes_with_escaped_markup_are_superscript() -> None:
    # citeproc-js's XML reader decodes an escaped entity twice: "&amp;lt;sup&amp;gt;" is <sup>
    extra = ('<locale xml:lang="fr"><terms>'
             '<term name="ordinal">&amp;lt;sup&amp;gt;e&amp;lt;/sup&amp;gt;</term>'
             '<term name="ordinal-01" gender-form="masculine" match="whole-number">'
             '&amp;lt;sup&amp;gt;er&amp;lt;/sup&amp;gt;</term></terms></locale>')
    layout = ('<group delimiter=", "><group delimiter=" "><number variable="edition" form="ordinal"/>'
              '<text term="edition"/></group><date variable="issued"><date-part name="day" form="ordinal"'
              ' suffix=" "/><date-part name="month" suffix=" "/><date-part name="year"/></date></group>')
    book = item(edition="2", issued={"date-parts": [[1964, 6, 1]]})
    assert bib(layout, [book], extra=extra, locale="fr-FR") == ["2e édition, 1er juin 1964"]
    assert bib(layout, [book], output="html", extra=extra, locale="fr-FR") == [
        '<div class="csl-entry">2<sup>e</sup> édition, 1<sup>er</sup> juin 1964</div>']


def test_text_case_on_a_group_or_a_macro_call_changes_nothing() -> None:
    # citeproc-js 2.4 applies text-case to the strings an element writes itself only
    extra = ('<macro name="volume-issue"><group delimiter=", "><group delimiter=" ">'
             '<text term="volume" form="short"/><text variable="volume"/></group><group delimiter=" ">'
             '<text term="issue" form="short"/><text variable="issue"/></group></group></macro>')
    layout = ('<group delimiter=", "><text variable="container-title" font-style="italic"/>'
              '<text macro="volume-issue" text-case="capitalize-first"/>'
              '<group text-case="uppercase"><text variable="title"/></group></group>')
    article = item(type="article-journal", title="a standard library", volume="9", issue="5",
                   **{"container-title": "eLife"})
    assert bib(layout, [article], extra=extra, locale="fr-FR") == ["eLife, vol. 9, nᵒ 5, a standard library"]


def test_a_cites_locator_is_written_once() -> None:
    extra = ('<macro name="locator"><group delimiter=" "><label variable="locator" form="short"/>'
             '<text variable="locator"/></group></macro>')
    citation = ('<group delimiter=", "><text variable="title" font-style="italic"/>'
                '<date variable="issued"><date-part name="year"/></date><group>'
                '<label variable="locator" form="short"/><text variable="locator"/></group>'
                '<text macro="locator"/></group>')
    report = item(type="report", title="Housing affordability in Ireland", issued={"date-parts": [[2020]]})
    processor = make_processor(style(citation, extra=extra, citation_attrs='', style_class="note"), [report])
    assert processor.cite([{"id": "ITEM-1", "locator": "3", "label": "chapter"}]) == \
        "Housing affordability in Ireland, 2020, chap.3"


def test_punctuation_of_a_text_value_stays_outside_a_closing_quote() -> None:
    # only affixes and delimiters move into quotes (American English), as in citeproc-js
    layout = ('<text variable="title" quotes="true"/><group><text value=", in "/>'
              '<text variable="container-title"/></group>')
    chapter = item(type="chapter", title="Encephaloduroateriosynangiosis", **{"container-title": "GMS"})
    assert bib(layout, [chapter]) == ["“Encephaloduroateriosynangiosis”, in GMS"]
    affix = '<text variable="title" quotes="true"/><text variable="container-title" prefix=", in "/>'
    assert bib(affix, [chapter]) == ["“Encephaloduroateriosynangiosis,” in GMS"]


def test_cites_that_print_nothing_are_told_apart_by_disambiguate() -> None:
    # two items without author both cite as nothing: as in citeproc-js they are ambiguous,
    # and disambiguate="true" brings in their short titles (in the bibliography too)
    citation = ('<group delimiter=", "><names variable="author"><name form="short"/></names>'
                '<choose><if disambiguate="true"><text variable="title-short"/></if></choose></group>')
    bibliography = ('<group delimiter=" "><text variable="title"/><choose><if disambiguate="true">'
                    '<text variable="title-short" prefix="(zit. " suffix=")"/></if></choose></group>')
    items = [item(id="a", title="Cuneiform tablet case: field rental", shortTitle="Cuneiform tablet case"),
             item(id="b", title="Non-destructive testing: verification", shortTitle="Non-destructive testing"),
             item(id="c", title="Gamma", author=[DOE])]
    processor = make_processor(style(citation, bibliography, style_class="note",
                                     citation_attrs='disambiguate-add-givenname="true"'), items)
    assert [processor.cite([{"id": key}]) for key in "abc"] == [
        "Cuneiform tablet case", "Non-destructive testing", "Doe"]
    assert processor.bibliography() == [
        "Cuneiform tablet case: field rental (zit. Cuneiform tablet case)",
        "Non-destructive testing: verification (zit. Non-destructive testing)", "Gamma"]


def test_cites_that_differ_only_in_quotation_marks_are_ambiguous() -> None:
    # as citeproc-js: a report's quoted title and a book's plain one read the same to
    # disambiguation, so disambiguate="true" brings in both years (not the lone item's)
    citation = ('<group delimiter=", "><names variable="author"><name form="short"/></names>'
                '<choose><if type="report"><text variable="title" quotes="true"/></if>'
                '<else><text variable="title"/></else></choose><choose><if disambiguate="true">'
                '<date variable="issued" form="text" date-parts="year"/></if></choose></group>')
    items = [item(id="book", title="Tidal mills", author=[DOE], issued={"date-parts": [[2001]]}),
             item(id="report", type="report", title="Tidal mills", author=[DOE],
                  issued={"date-parts": [[2002]]}),
             item(id="lone", type="report", title="Wind", author=[ROE], issued={"date-parts": [[2004]]})]
    processor = make_processor(style(citation, style_class="note"), items)
    assert [processor.cite([{"id": key}]) for key in ("book", "report", "lone")] == [
        "Doe, Tidal mills, 2001", "Doe, “Tidal mills,” 2002", "Roe, “Wind”"]


def test_an_entry_that_shows_no_names_is_not_the_previous_author() -> None:
    # as citeproc-js (MHRA notes leaves conference papers out of its bibliography, Chicago
    # shows no author for legislation): the next entry is compared with the last names shown
    layout = ('<choose><if type="paper-conference"/><else><group delimiter=", "><choose>'
              '<if type="legislation"/><else><names variable="author"><name name-as-sort-order="all"/>'
              '</names></else></choose><text variable="title"/></group></else></choose>')
    entries = [item(id="a", title="Alpha", author=[ROE]),
               item(id="b", type="paper-conference", title="Beta", author=[ROE]),
               item(id="c", title="Gamma", author=[ROE]),
               item(id="d", type="legislation", title="Delta", author=[ROE]),
               item(id="e", title="Epsilon", author=[ROE])]
    assert bib(layout, entries, bibliography_attrs='subsequent-author-substitute="———"') == [
        "Roe, Jane, Alpha", "———, Gamma", "Delta", "———, Epsilon"]


def test_subsequent_author_substitute_compares_names_not_how_they_are_shown() -> None:
    # as citeproc-js: "Doe, J" for John Doe and for John-boy Doe are two people
    layout = ('<group delimiter=", "><names variable="author"><name name-as-sort-order="all" '
              'initialize-with=""/></names><text variable="title"/></group>')
    entries = [item(id="a", title="Alpha", author=[{"family": "Doe", "given": "John"}]),
               item(id="b", title="Beta", author=[{"family": "Doe", "given": "John-boy"}]),
               item(id="c", title="Gamma", author=[{"family": "Doe", "given": "John-boy"}])]
    assert bib(layout, entries, bibliography_attrs='subsequent-author-substitute="———"') == [
        "Doe, J, Alpha", "Doe, J, Beta", "———, Gamma"]


def test_names_after_the_start_of_an_entry_are_not_substituted() -> None:
    # as citeproc-js ("Réalisé par Aristotle" after the film's title in Chicago's French notes)
    layout = ('<choose><if type="motion_picture"><group delimiter=", "><text variable="title"/>'
              '<names variable="author" prefix="by "/></group></if><else><group delimiter=", ">'
              '<names variable="author"/><text variable="title"/></group></else></choose>')
    entries = [item(id="a", title="Alpha", author=[ROE]),
               item(id="b", type="motion_picture", title="Beta", author=[ROE]),
               item(id="c", title="Gamma", author=[ROE])]
    assert bib(layout, entries, bibliography_attrs='subsequent-author-substitute="———"') == [
        "Jane Roe, Alpha", "Beta, by Jane Roe", "———, Gamma"]


def test_a_styles_csl_1_0_ordinal_terms_do_not_replace_the_locales_ordinals() -> None:
    # only a layer with the "ordinal" term (CSL 1.0.1) replaces the ordinals, in citeproc-js;
    # ordinal-01..04 in a style change term texts the French locale's rules never choose
    extra = ('<locale><terms><term name="ordinal-01">ère</term><term name="ordinal-02">e</term>'
             '<term name="ordinal-03">e</term><term name="ordinal-04">e</term></terms></locale>')
    layout = '<group delimiter=" "><number variable="edition" form="ordinal"/><text term="edition"/></group>'
    books = [item(id=edition, title=edition, edition=edition) for edition in ("1", "2", "11")]
    assert bib(layout, books, extra=extra, locale="fr-FR") == ["1ʳᵉ édition", "2ᵉ édition", "11ᵉ édition"]


@pytest.mark.parametrize(("before", "entry"), [
    ('<text variable="citation-number" prefix="[" suffix="] "/>', "[1] [Online]"),
    ('<text variable="citation-number" prefix="[" suffix="] "/><names variable="author"/>', "[1] [online]"),
    ('<names variable="author"/>', "[online]"),
], ids=["citation-number", "empty-names-after", "empty-names"])
def test_a_term_after_the_citation_number_leads_but_not_after_empty_names(before: str, entry: str) -> None:
    # iso690-numeric-sk: "[64]    [Online]"
    layout = before + '<text term="online" prefix="[" suffix="]"/>'
    assert bib(layout, [item(type="webpage", title="Tides")]) == [entry]


@pytest.mark.parametrize(("variable", "entry"), [("volume", "n.d."), ("issue", "n.d."), ("page", "N.d.")])
def test_an_empty_volume_edition_issue_or_number_before_a_term_makes_it_no_leading_term(
        variable: str, entry: str) -> None:
    # springer-physics-brackets: "65. (n.d.)" after an empty volume
    layout = f'<text variable="{variable}"/><text term="no date" form="short"/>'
    assert bib(layout, [item(type="standard", title="Tides")]) == [entry]


def test_the_affixes_of_cs_names_stay_off_a_text_substituting_for_the_names() -> None:
    # citeproc-js puts them on names only: "o. V.1970", not "o. V. 1970"
    extra = '<macro name="anon"><text term="anonymous" form="short"/></macro>'
    layout = ('<names variable="author" suffix=" " font-weight="bold"><substitute><names variable="editor"/>'
              '<text macro="anon"/></substitute></names><date variable="issued"><date-part name="year"/></date>')
    film = item(id="a", type="motion_picture", title="Käpy selän alla", issued={"date-parts": [[1966]]})
    edited = item(id="b", title="Handbook", editor=[DOE], issued={"date-parts": [[2010]]})
    assert bib(layout, [film, edited], output="html", extra=extra) == [
        '<div class="csl-entry">Anon.1966</div>', '<div class="csl-entry"><b>John Robert Doe</b> 2010</div>']


def test_the_prefix_of_a_formatted_element_stays_outside_a_closing_quote() -> None:
    layout = ('<text variable="title" quotes="true"/>'
              '<text variable="container-title" font-style="italic" prefix=", "/>')
    article = item(type="article-magazine", title="We Refuse This Logic",
                   **{"container-title": "Lapham’s Quarterly"})
    assert bib(layout, [article]) == ["“We Refuse This Logic”, Lapham’s Quarterly"]
    # leading a group, the prefix is the group's, which goes into the quote
    grouped = ('<text variable="title" quotes="true"/><group>'
               '<text variable="container-title" font-style="italic" prefix=", "/></group>')
    assert bib(grouped, [article]) == ["“We Refuse This Logic,” Lapham’s Quarterly"]


def test_names_substituting_for_names_take_their_name_part_formatting() -> None:
    # citeproc-js: the editors written for a missing author (here through a macro with a
    # cs:name of its own) take the author's uppercase family names
    extra = ('<macro name="editor"><names variable="editor"><name name-as-sort-order="first" sort-separator=" "/>'
             '<label form="short" prefix=", (" suffix=")"/></names></macro>')
    layout = ('<names variable="author"><name name-as-sort-order="first" sort-separator=" ">'
              '<name-part name="family" text-case="uppercase"/></name>'
              '<substitute><text macro="editor"/></substitute></names>')
    book = item(editor=[{"family": "Filej", "given": "Bojana"}, {"family": "Kaučič", "given": "Boris Miha"}])
    assert bib(layout, [book], extra=extra) == ["FILEJ Bojana, Boris Miha KAUČIČ, (eds.)"]


@pytest.mark.parametrize(("layout", "expected"), [
    # the italic title's own delimiter or suffix: "?" and "." both stay
    ('<group delimiter=". "><text variable="title" font-style="italic"/><text variable="publisher"/></group>',
     "Can science solve?. Heinemann"),
    ('<text variable="title" font-style="italic" suffix=". "/><text variable="publisher"/>',
     "Can science solve?. Heinemann"),
    # the suffix or delimiter of a group or macro around it merges as usual
    ('<group delimiter=". "><text macro="title"/><text variable="publisher"/></group>',
     "Can science solve? Heinemann"),
    ('<text macro="title"/><text variable="publisher" prefix=". "/>', "Can science solve? Heinemann"),
    # unformatted, the title's last mark merges
    ('<group delimiter=". "><text variable="title"/><text variable="publisher"/></group>',
     "Can science solve? Heinemann"),
])
def test_punctuation_after_the_formatted_text_of_one_element(layout: str, expected: str) -> None:
    extra = '<macro name="title"><text variable="title" font-style="italic"/></macro>'
    book = item(title="Can science solve?", publisher="Heinemann")
    assert bib(layout, [book], extra=extra) == [expected]


def test_a_comma_ending_quoted_text_moves_out_of_the_quote_in_british_english() -> None:
    layout = '<group delimiter=", "><text variable="title" quotes="true"/><text variable="publisher"/></group>'
    quoted = item(title="Nothing more to say,", publisher="Heinemann")
    assert bib(layout, [quoted], locale="en-GB") == ["‘Nothing more to say’, Heinemann"]


def test_a_cluster_of_cites_that_print_nothing_writes_the_marker_once() -> None:
    processor = make_processor(style('<text variable="title"/>', style_class="note"),
                               [item(id="a", type="legislation"), item(id="b", type="legislation")])
    assert processor.cite([{"id": "a"}, {"id": "b"}]) == "[CSL STYLE ERROR: reference with no printed form.]"


@pytest.mark.parametrize(("output", "entry"), [
    ("text", "Sull' unirationalità delle varietà"),
    ("html", '<div class="csl-entry">Sull\' unirationalità delle varietà</div>')])
def test_a_nocase_span_holding_only_an_apostrophe_keeps_it_as_typed(output: str, entry: str
                                                                    ) -> None:
    # a real .bib's title {Sull{'} unirationalit{\`a}}, through refbridge's CSL-JSON
    title = "Sull<span class=\"nocase\">'</span> unirationalità delle varietà"
    assert bib('<text variable="title"/>', [item(title=title)], output=output) == [entry]


def test_a_quotation_inside_a_nocase_span_still_quotes() -> None:
    title = "On <span class=\"nocase\">'Bigger' data</span>"
    assert bib('<text variable="title"/>', [item(title=title)]) == [
        "On \u201cBigger\u201d data"]


def test_a_range_from_a_roman_numeral_gets_an_en_dash_and_its_label() -> None:
    layout = '<group delimiter=" "><label variable="volume" form="short"/><text variable="volume"/></group>'
    assert bib(layout, [item(volume="XLII-4")]) == ["vol. XLII\u20134"]


def test_html_shows_a_run_of_spaces_as_no_break_spaces_and_spaces() -> None:
    assert bib('<text variable="title"/>', [item(title="a   b")], output="html") == [
        '<div class="csl-entry">a\u00a0  b</div>']


def test_a_mark_moved_into_a_quotation_that_already_ends_in_it_is_dropped() -> None:
    # frontiers-medical-journals: a chapter's quoted title (suffix ","), in a macro with "."
    macro = '<macro name="title"><text variable="title" quotes="true" suffix=","/></macro>'
    layout = '<text macro="title" suffix="."/><text value=" In: Methods"/>'
    assert bib(layout, [item(type="chapter", title="Throughput for proteomics.")],
               extra=macro) == ["\u201cThroughput for proteomics.,\u201d In: Methods"]


def test_strip_periods_removes_every_period_of_a_persons_name() -> None:
    # universite-de-montreal-faculte-de-musique: elsewhere a period before a lowercase letter
    # stays ("a.b"); in a name's parts citeproc-js strips them all ("W.l." is "Wl")
    layout = ('<group strip-periods="true" delimiter=" "><text value="a.b"/>'
              '<names variable="author"><name/></names></group>')
    person = [{"family": "Van Der Merwe", "given": "W.l."}]
    assert bib(layout, [item(author=person)]) == ["a.b Wl Van Der Merwe"]


def test_a_groups_delimiter_goes_into_a_quotation_before_the_quoted_elements_suffix() -> None:
    # frontiers-medical-journals: the delimiter after a macro call merges into its quoted title
    # before the title's own suffix; after the title itself it follows that suffix
    macro = '<macro name="title"><text variable="title" quotes="true" suffix=","/></macro>'
    chapter = [item(type="chapter", title="Proteomics", publisher="Brill")]
    assert bib('<group delimiter=". "><text macro="title"/><text variable="publisher"/></group>',
               chapter, extra=macro) == ["\u201cProteomics.,\u201d Brill"]
    assert bib('<group delimiter=". "><text variable="title" quotes="true" suffix=","/>'
               '<text variable="publisher"/></group>', chapter) == ["\u201cProteomics,.\u201d Brill"]


def test_a_groups_delimiter_that_repeats_the_quoted_elements_suffix_merges_with_it() -> None:
    # leonardo: a title macro's quoted title with suffix "," in a group delimited by ", "
    macro = '<macro name="title"><text variable="title" quotes="true" suffix=","/></macro>'
    page = [item(type="webpage", title="Lot van natuurherstelwet", URL="https://www.nrc.nl/a")]
    assert bib('<group delimiter=", "><text macro="title"/><text variable="URL"/></group>',
               page, extra=macro) == ["\u201cLot van natuurherstelwet,\u201d https://www.nrc.nl/a"]


@pytest.mark.parametrize(("layout", "entry"), [
    (('<names variable="author" font-variant="small-caps"><name>'
     '<name-part name="family" font-variant="normal"/></name></names>'),
     '<span style="font-variant:small-caps;">John Smith</span>'),
    (('<names variable="author"><name font-variant="small-caps">'
     '<name-part name="family" font-variant="normal"/></name></names>'),
     '<span style="font-variant:small-caps;">John Smith</span>'),
    (('<group font-variant="small-caps"><names variable="author"><name>'
     '<name-part name="family" font-variant="normal"/></name></names></group>'),
     ('<span style="font-variant:small-caps;">John <span style="font-variant:normal;">Smith'
     '</span></span>')),
], ids=["names", "name", "group"])
def test_a_name_part_reset_of_its_own_names_formatting_shows_nothing(layout: str,
                                                                      entry: str) -> None:
    # museum-national-dhistoire-naturelle: small-caps authors, family font-variant="normal"
    person = [{"family": "Smith", "given": "John"}]
    assert bib(layout, [item(author=person)], output="html") == [
        f'<div class="csl-entry">{entry}</div>']


@pytest.mark.parametrize(("layout", "entry"), [
    ('<names variable="author" font-style="italic"><name font-style="normal"/></names>',
     "<i>John Smith</i>"),
    ('<names variable="author" font-weight="bold"><name font-weight="normal"/></names>',
     "<b>John Smith</b>"),
    (('<group font-style="italic"><names variable="author"><name font-style="normal"/></names>'
      '</group>'), '<i><span style="font-style:normal;">John Smith</span></i>'),
], ids=["names-italic", "names-bold", "group"])
def test_a_name_reset_of_its_own_names_formatting_shows_nothing(layout: str, entry: str) -> None:
    # neue-kriminalpolitik: italic authors, cs:name font-style="normal"
    person = [{"family": "Smith", "given": "John"}]
    assert bib(layout, [item(author=person)], output="html") == [
        f'<div class="csl-entry">{entry}</div>']


@pytest.mark.parametrize(("substitute", "entry"), [
    ('<names variable="editor"><name><name-part name="family"/></name></names>', "John Doe"),
    ('<names variable="editor"><name><name-part name="given" font-style="italic"/></name></names>',
     '<i>John</i> <span style="font-variant:small-caps;">Doe</span>'),
    ('<names variable="editor"><name form="short"/></names>', 'John <span style="font-variant:small-caps;">Doe</span>'),
], ids=["family-reset", "given-added", "no-name-part"])
def test_a_name_part_in_the_substitute_sets_that_part_of_the_names_own_names(substitute: str, entry: str) -> None:
    # nehet: an unformatted family part in the substitute's macro takes the authors' small caps
    macro = f'<macro name="container-author">{substitute}</macro>'
    layout = ('<names variable="author"><name><name-part name="family" font-variant="small-caps"/></name>'
              '<substitute><text macro="container-author"/></substitute></names>')
    person = [{"family": "Doe", "given": "John"}]
    assert bib(layout, [item(author=person)], output="html", extra=macro) == [f'<div class="csl-entry">{entry}</div>']


def test_an_institution_keeps_the_family_part_of_its_own_cs_name_when_the_substitute_sets_one() -> None:
    # nehet: the institution keeps the small caps the person loses
    macro = '<macro name="container-author"><names variable="editor"><name><name-part name="family"/></name></names></macro>'
    layout = ('<names variable="author"><name><name-part name="family" font-variant="small-caps"/></name>'
              '<substitute><text macro="container-author"/></substitute></names>')
    authors = [{"literal": "WHO"}, {"family": "Doe", "given": "John"}]
    assert bib(layout, [item(author=authors)], output="html", extra=macro) == [
        '<div class="csl-entry"><span style="font-variant:small-caps;">WHO</span>, John Doe</div>']


@pytest.mark.parametrize(("names", "et_al", "entry"), [
    ('<names variable="author" font-variant="small-caps">', '<et-al font-variant="normal" font-style="italic"/>',
     '<span style="font-variant:small-caps;">Doe <i>et al.</i></span>'),
    ('<names variable="author" font-style="italic">', '<et-al font-style="normal"/>', "<i>Doe et al.</i>"),
], ids=["small-caps", "italic"])
def test_an_et_al_reset_of_its_own_names_formatting_shows_nothing(names: str, et_al: str, entry: str) -> None:
    # archeologie-medievale: small-caps authors, cs:et-al font-variant="normal"
    layout = f'{names}<name et-al-min="3" et-al-use-first="1" form="short"/>{et_al}</names>'
    authors = [DOE, ROE, {"family": "Moe", "given": "Anna"}]
    assert bib(layout, [item(author=authors)], output="html") == [f'<div class="csl-entry">{entry}</div>']


def test_the_bibliography_shows_the_given_names_an_all_names_rule_adds() -> None:
    # azr: givenname-disambiguation-rule="all-names-with-initials" tells the two Liu apart in
    # the bibliography too, even where the citation shows only the first name
    names = '<names variable="author"><name form="short" initialize-with="." delimiter="/"/></names>'
    items = [item(id="A", author=[{"family": "Doe", "given": "John"}, {"family": "Liu", "given": "Mei Hua"}]),
             item(id="B", author=[{"family": "Liu", "given": "Jian"}])]
    options = ('et-al-min="2" et-al-use-first="1" disambiguate-add-givenname="true" '
               'givenname-disambiguation-rule="all-names-with-initials"')
    processor = make_processor(style(names, names, citation_attrs=options), items)
    assert processor.bibliography() == ["Doe/M.H. Liu", "J. Liu"]


def test_a_name_inverted_without_its_given_name_demotes_its_particle() -> None:
    # azr: form="short" with name-as-sort-order="all" writes "Boer, de"
    author = [{"family": "Boer", "given": "Jan", "non-dropping-particle": "de"}, {"family": "Doe", "given": "John"}]
    layout = '<names variable="author"><name form="short" name-as-sort-order="all" delimiter="/"/></names>'
    assert bib(layout, [item(author=author)]) == ["Boer, de/Doe"]


def test_a_group_that_renders_nothing_and_calls_nothing_clears_the_variables_called_before_it() -> None:
    # bitonline: "in: " shows for a song without container, as in citeproc-js: the empty
    # macro after the missing container-title leaves the macro around it with its term only
    extra = ('<macro name="none"><choose><if type="chapter"><text variable="editor"/></if></choose></macro>'
             '<macro name="container"><text term="in" suffix=": "/>'
             '<group><text variable="container-title"/><text macro="none"/></group></macro>')
    layout = '<group><text macro="container"/><text variable="title"/></group>'
    assert bib(layout, [item(type="song", title="T")], extra=extra) == ["In: T"]


def test_a_year_suffix_keeps_its_group_when_the_date_beside_it_is_missing() -> None:
    # folia-malacologica: undated entries told apart by "a" and "b" show them in the
    # bibliography's group of issued and year-suffix
    section = '<text variable="title"/><group prefix=" "><date variable="issued"><date-part name="year"/></date>' \
              '<text variable="year-suffix"/></group>'
    items = [item(id="A", title="T"), item(id="B", title="T")]
    processor = make_processor(style('<text variable="title"/><text variable="year-suffix"/>', section,
                                     citation_attrs='disambiguate-add-year-suffix="true"'), items)
    assert processor.bibliography() == ["T a", "T b"]


_ANONYMOUS = [item(id="a", title="Alpha", issued={"date-parts": [[1970]]}),
              item(id="b", title="Beta", issued={"date-parts": [[1980]]})]
_ANON_CITE = '<text value="Anon"/><choose><if disambiguate="true"><text variable="title" prefix=". "/></if></choose>'


@pytest.mark.parametrize(("year_suffix", "entries", "cites"), [
    ("true", ["Alpha 1970a", "Beta 1980b"], ["Anon", "Anon"]),
    ("false", ["Alpha 1970", "Beta 1980"], ["Anon. Alpha", "Anon. Beta"]),
], ids=["year-suffix", "no-year-suffix"])
def test_year_suffixes_come_before_disambiguate_tests(year_suffix: str, entries: list[str], cites: list[str]) -> None:
    # escuela-nacional-de-antropologia-e-historia-full-note: "Anónimo1712a", "Anónimo1949b"
    csl = style(_ANON_CITE, '<text variable="title"/><date variable="issued" prefix=" "><date-part name="year"/></date>',
                citation_attrs=f'disambiguate-add-year-suffix="{year_suffix}"')
    processor = make_processor(csl, _ANONYMOUS)
    assert (processor.bibliography(), [processor.cite([{"id": key}]) for key in "ab"]) == (entries, cites)


def test_an_after_collapse_delimiter_joins_the_cites_of_a_citation_that_does_not_collapse() -> None:
    csl = style('<text variable="title"/>', citation_attrs='after-collapse-delimiter=";"')
    processor = make_processor(csl, _ANONYMOUS)
    assert processor.cite([{"id": "a"}, {"id": "b"}]) == "Alpha;Beta"


def test_a_cite_without_printed_form_is_marked_only_where_nothing_was_written_before_it() -> None:
    items = [item(id="a", author=[{"family": "Doe"}]), item(id="e"), item(id="f")]
    processor = make_processor(CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
        "<info><id>test</id><title>Test style</title></info><citation>"
        '<layout delimiter="; "><names variable="author"/></layout></citation></style>', source="test"), items)
    marker = "[CSL STYLE ERROR: reference with no printed form.]"
    assert [processor.cite([{"id": key} for key in keys]) for keys in (["a", "e"], ["e", "a"], ["e", "f"])] == [
        "Doe", f"{marker}; Doe", marker]


@pytest.mark.parametrize(("page", "volume", "expected"), [
    ("xii-xv", "iv", "page numeric, volume numeric"),
    ("xl-l", "mcm", "page numeric, volume text"),  # beyond i, v and x only a page's count
    ("XII-XV", "IV", "page text, volume text"),  # upper-case roman numbers are text
])
def test_lower_case_roman_numbers_are_numeric(page: str, volume: str, expected: str) -> None:
    layout = ('<choose><if is-numeric="page"><text value="page numeric"/></if>'
              '<else><text value="page text"/></else></choose><text value=", "/>'
              '<choose><if is-numeric="volume"><text value="volume numeric"/></if>'
              '<else><text value="volume text"/></else></choose>')
    assert bib(layout, [item(type="chapter", page=page, volume=volume)]) == [expected]


# -- registration ---------------------------------------------------------------------------

FIVE_AUTHORS = [{"family": "Fox", "given": "John"}, {"family": "Weisberg", "given": "Sanford"},
                {"family": "Price", "given": "Brad"}, {"family": "Hong", "given": "Jangman"},
                {"family": "Firth", "given": "David"}]


def test_a_first_citation_shows_at_least_the_names_a_subsequent_one_shows() -> None:
    citation = ('<names variable="author"><name delimiter="/" delimiter-precedes-last="always"/>'
                '</names><text variable="title" prefix=": "/>')
    cited = item(title="Effects", author=FIVE_AUTHORS)
    processor = make_processor(style(citation=citation, style_class="note", citation_attrs=(
        'et-al-min="4" et-al-use-first="1" et-al-subsequent-min="3" '
        'et-al-subsequent-use-first="2"')), [cited])
    assert processor.cite([{"id": "ITEM-1"}]) == "John Fox/Sanford Weisberg/et al.: Effects"


def test_a_first_citation_shows_the_names_its_subsequent_form_shows_when_they_are_more() -> None:
    citation = ('<choose><if position="subsequent"><names variable="author">'
                '<name delimiter="/" et-al-min="4" et-al-use-first="3"/></names></if><else>'
                '<names variable="author"><name delimiter="/" et-al-min="4" et-al-use-first="1"/>'
                '</names></else></choose><text variable="title" prefix=": "/>')
    cited = item(title="Effects", author=FIVE_AUTHORS)
    processor = make_processor(style(citation=citation, style_class="note"), [cited])
    assert processor.cite([{"id": "ITEM-1"}]) == \
        "John Fox/Sanford Weisberg/Brad Price/et al.: Effects"


# -- display groups ---------------------------------------------------------------------------

BLOCK = '<group display="block"><text variable="title"/></group>'
MARGIN = '<group display="left-margin"><text variable="publisher"/></group>'


@pytest.mark.parametrize(("layout", "entry"), [
    (BLOCK + MARGIN, '\n\n    <div class="csl-block">Effects</div>\n'),
    (BLOCK + '<text value="X"/>' + MARGIN, '\n\n    <div class="csl-block">Effects</div>\nX'),
    ('<text variable="title"/>' + MARGIN, "Effects."),
    (BLOCK + '<text value="X"/>', '\n\n    <div class="csl-block">Effects</div>\nX.'),
    (BLOCK + '<text value="Brill" suffix="!"/>', '\n\n    <div class="csl-block">Effects</div>\nBrill.'),
    (BLOCK + '<text value="Brill"/><names variable="editor"/>',
     '\n\n    <div class="csl-block">Effects</div>\nBrill'),
    ('<text value="Brill"/>' + BLOCK, 'Brill\n\n    <div class="csl-block">Effects</div>\n.'),
], ids=["block", "block-and-text", "no-block", "last-not-a-group", "own-suffix-replaced", "empty-names",
        "first-not-a-block"])
def test_the_layout_suffix_takes_the_place_of_the_last_elements_after_a_leading_display_group(
        layout: str, entry: str) -> None:
    # as citeproc-js, when the layout's first element has a display attribute: the suffix
    # replaces the own suffix of the last element that holds its place (a macro call or a
    # cs:names holds it when empty: currents-in-biblical-research), inside it when it is a
    # display group, lost when it rendered nothing (nehet: its second block empty)
    csl = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
        "<info><id>test</id><title>Test style</title></info>"
        '<citation><layout><text variable="title"/></layout></citation>'
        f'<bibliography><layout suffix=".">{layout}</layout></bibliography></style>', source="test")
    [rendered] = make_processor(csl, [item(title="Effects")], output="html").bibliography()
    assert rendered == f'<div class="csl-entry">{entry}</div>'


def test_an_institution_takes_no_vertical_align_of_its_cs_name() -> None:
    # acta-amazonica: vertical-align="baseline" on cs:name
    layout = ('<names variable="author"><name vertical-align="sup" delimiter="; "/></names>')
    authors = [{"literal": "Directorate-General"}, {"family": "Doval", "given": "M"}]
    assert bib(layout, [item(author=authors)], output="html") == [
        '<div class="csl-entry">Directorate-General; <sup>M Doval</sup></div>']


@pytest.mark.parametrize("layout", [
    '<group delimiter=" "><text value="Vol. "/><text variable="volume"/></group>',
    '<text value="Vol. "/><text variable="volume" prefix=" "/>',
], ids=["delimiter", "prefix"])
def test_the_space_a_text_value_ends_with_stays_before_an_affix_space(layout: str) -> None:
    assert bib(layout, [item(volume="540")]) == ["Vol.  540"]


def test_a_dropping_particle_before_the_family_name_takes_the_given_names_formatting() -> None:
    # bibliotheca-hertziana-max-planck-institute-for-art-history: "Ludwig Van Beethoven"
    layout = ('<names variable="author"><name><name-part name="given" font-style="italic"/>'
              "</name></names>")
    beethoven = [{"family": "Beethoven", "given": "Ludwig", "dropping-particle": "van"}]
    assert bib(layout, [item(author=beethoven)], output="html") == [
        '<div class="csl-entry"><i>Ludwig</i> <i>van</i> Beethoven</div>']


@pytest.mark.parametrize(("layout", "entry"), [
    ('<text variable="volume" suffix=":"/><text variable="title" prefix=". "/>', "9: Tides"),
    ('<group><text variable="volume" suffix=":"/></group><text variable="title" prefix=". "/>',
     "9:. Tides"),
    ('<group delimiter=". "><text variable="volume" suffix=":"/><text variable="title"/></group>',
     "9:. Tides"),
    ('<group><text variable="volume" suffix="."/></group><text variable="title" prefix=". "/>',
     "9. Tides"),
], ids=["sibling-prefix", "prefix-after-group", "delimiter", "same-mark"])
def test_a_leafs_suffix_merges_by_the_table_only_with_the_next_siblings_prefix(
        layout: str, entry: str) -> None:
    # sociologia-urbana-e-rurale: "Foreign Affairs, 93:. testo disponibile al sito"
    assert bib(layout, [item(volume="9", title="Tides")]) == [entry]


@pytest.mark.parametrize(("layout", "entry"), [
    ('<group delimiter=", "><text variable="page" prefix="S. "/></group>', "S. 94- 98,93"),
    ('<group delimiter=" - "><text variable="page" prefix="S. "/></group>', "S. 94- - 98,93"),
    ('<group delimiter=", "><text variable="page" prefix="S. "/><text variable="volume"/></group>',
     "S. 94-98,93, 29"),
    ('<group delimiter=", "><text variable="page" prefix=";"/></group>', ";94-98,93"),
    ('<text variable="page" prefix="S. "/>', "S. 94-98,93"),
], ids=["ends-group", "spaced-delimiter", "not-last", "lone-mark-prefix", "no-group"])
def test_a_number_list_that_starts_with_a_range_takes_its_groups_delimiter_after_the_hyphen(
        layout: str, entry: str) -> None:
    # der-moderne-staat and the ABNT styles: "S. 94- 98,93"
    assert bib(layout, [item(page="94-98,93", volume="29")]) == [entry]


@pytest.mark.parametrize(("name", "entry"), [
    ("<name/>", "Elisabeth Mahase; John Smith, World Health Organization"),
    ('<name and="text"/>', "Elisabeth Mahase; John Smith, and World Health Organization"),
    ('<name delimiter="; "/>', "Elisabeth Mahase; John Smith; World Health Organization"),
], ids=["inherited", "and", "own"])
def test_an_institution_ending_the_list_follows_cs_names_own_delimiter(name: str, entry: str) -> None:
    # infoclio-de: name-delimiter="; " on the style
    authors = [{"family": "Mahase", "given": "Elisabeth"}, {"family": "Smith", "given": "John"},
               {"literal": "World Health Organization"}]
    layout = f'<names variable="author">{name}</names>'
    assert bib(layout, [item(author=authors)], style_attrs='name-delimiter="; "') == [entry]


def test_the_two_spaces_before_a_last_name_with_a_spaced_prefix_stay_plain_in_html() -> None:
    # frontiers-in-ecology-and-the-environment: "Calvete JJ,  Choli-Papadopoulou T"
    layout = '<names variable="author"><name prefix=" " delimiter-precedes-last="always"/></names>'
    authors = [{"family": "Kamp", "given": "R"}, {"family": "Choli", "given": "T"}]
    assert bib(layout, [item(author=authors)], output="html") == [
        '<div class="csl-entry"> R Kamp,  T Choli</div>']


@pytest.mark.parametrize(("name", "entry"), [
    ('<name suffix=", " form="short"/>', "Alamri, et al., Tides"),
    ('<name prefix="[" suffix="]" form="short"/>', "[[Alamri] et al.]Tides"),
], ids=["suffix", "prefix-and-suffix"])
def test_cs_names_affixes_go_around_each_name_and_around_the_names_with_et_al(
        name: str, entry: str) -> None:
    # german-yearbook-of-international-law: "Vaswani, et al., 'Attention Is All You Need'"
    authors = [{"family": family, "given": "A"} for family in ("Alamri", "Hever", "Bassi", "Tolias")]
    layout = (f'<names variable="author">{name}</names>'
              '<text variable="title"/>')
    assert bib(layout, [item(author=authors, title="Tides")],
               style_attrs='et-al-min="4" et-al-use-first="1"') == [entry]


def test_the_parts_of_a_cjk_name_take_no_affixes() -> None:
    # politix: given prefix="(" suffix=")" wrote "余敏()" and "梁(图)"
    layout = ('<names variable="author"><name name-as-sort-order="all" sort-separator=" ">'
              '<name-part name="family" prefix="[" suffix="]"/><name-part name="given" prefix="(" suffix=")"/>'
              '</name></names>')
    authors = [{"family": "余敏"}, {"family": "梁", "given": "图"}, {"family": "Doe", "given": "John"}]
    assert bib(layout, [item(author=authors)]) == ["余敏, 梁图, [Doe] (John)"]


def test_an_institution_without_latin_letters_takes_no_italics_of_cs_name() -> None:
    # mohr-siebeck-recht: "孙玉婷" upright, as citeproc-js writes an institution as one string
    layout = '<names variable="author"><name font-style="italic"/></names>'
    authors = [{"literal": "孙玉婷"}]
    assert bib(layout, [item(author=authors)], output="html") == ['<div class="csl-entry">孙玉婷</div>']


@pytest.mark.parametrize(("name", "entry"), [
    ('<name form="short" delimiter=" -  "/>', "Aa - Bb - Cc -  Dd"),
    ('<name form="short" delimiter=" -  " and="text"/>', "Aa - Bb - Cc -  and Dd"),
    ('<name form="short" delimiter=" -  " et-al-min="4" et-al-use-first="3"/>', "Aa - Bb - Cc -  et al."),
    ('<name form="short" delimiter=" "/>', "Aa Bb Cc Dd"),
], ids=["delimiter", "and", "et-al", "one-space"])
def test_a_delimiter_ending_in_two_spaces_loses_one_before_the_last_join(name: str, entry: str) -> None:
    # polygraphia: delimiter=" -  "
    authors = [{"family": family, "given": "A"} for family in ("Aa", "Bb", "Cc", "Dd")]
    assert bib(f'<names variable="author">{name}</names>', [item(author=authors)]) == [entry]


@pytest.mark.parametrize(("name", "entry"), [
    ('<name initialize-with="." name-as-sort-order="all" delimiter=", " suffix=","/>', "Aa, A.,, Bb, A.,, Cc, A.,"),
    ('<name initialize-with="." name-as-sort-order="all" delimiter=", " suffix="," and="text"/>',
     "Aa, A.,, Bb, A., and Cc, A.,"),
    ('<name initialize-with="." name-as-sort-order="all" delimiter=", " suffix="," et-al-min="3" et-al-use-first="2"/>',
     "Aa, A.,, Bb, A., et al.,"),
], ids=["delimiter", "and", "et-al"])
def test_the_delimiter_between_names_keeps_its_punctuation_after_cs_names_suffix(name: str, entry: str) -> None:
    # the-open-university-m801: "Gilbert, S.D.,, Rambo, R.P.,"
    authors = [{"family": family, "given": "A"} for family in ("Aa", "Bb", "Cc")]
    assert bib(f'<names variable="author">{name}</names>', [item(author=authors)]) == [entry]


@pytest.mark.parametrize(("name", "et_al", "entry"), [
    ('font-style="normal"', 'font-style="italic"', '<span style="font-style:normal;">Aa <i>et al.</i></span>'),
    ('font-style="normal" font-weight="normal"', 'font-style="italic"',
     '<span style="font-style:normal;">Aa <i>et al.</i></span>'),
    ('font-style="normal"', 'font-weight="bold"', "Aa <b>et al.</b>"),
], ids=["same-attribute", "one-of-two", "other-attribute"])
def test_cs_names_normal_formatting_shows_around_an_et_al_term_that_sets_it(name: str, et_al: str, entry: str) -> None:
    # cladistics: "(<span style="font-style:normal;">Hollmann <i>et al.</i></span>, 2002)"
    layout = f'<names variable="author"><name {name} form="short"/><et-al {et_al}/></names>'
    authors = [{"family": family, "given": "A"} for family in ("Aa", "Bb", "Cc")]
    assert bib(layout, [item(author=authors)], output="html", style_attrs='et-al-min="3" et-al-use-first="1"') == [
        f'<div class="csl-entry">{entry}</div>']


@pytest.mark.parametrize(("separator", "entry"), [(",  ", "Doe, J. / Roe, A."), (",   ", "Doe,  J. / Roe,  A.")])
def test_a_sort_separator_ending_in_two_spaces_writes_one_of_them(separator: str, entry: str) -> None:
    # alkoholizmus-a-drogove-zavislosti: sort-separator=",  "
    layout = (f'<names variable="author"><name name-as-sort-order="all" sort-separator="{separator}" '
              'initialize-with=". " delimiter=" / "/></names>')
    authors = [{"family": "Doe", "given": "John"}, {"family": "Roe", "given": "Anne"}]
    assert bib(layout, [item(author=authors)]) == [entry]


def test_cs_names_formatting_goes_around_the_names_cut_by_an_empty_et_al_term_too() -> None:
    # rassegna-degli-archivi-di-stato: small caps twice, around the name and around the list
    authors = [{"family": family, "given": "A"} for family in ("Adrion", "Cole")]
    layout = '<names variable="author"><name font-variant="small-caps" form="short"/></names>'
    extra = '<locale><terms><term name="et-al"/></terms></locale>'
    sc = '<span style="font-variant:small-caps;">'
    assert bib(layout, [item(author=authors)], output="html", extra=extra,
               style_attrs='et-al-min="2" et-al-use-first="1"') == [
        f'<div class="csl-entry">{sc}{sc}Adrion</span></span></div>']


def test_the_punctuation_a_prefix_starts_with_goes_into_the_display_group_before_it() -> None:
    # estudios-de-cultura-maya: "<div class="csl-left-margin">2009.</div> U.S. Government"
    layout = ('<date variable="issued" display="left-margin"><date-part name="year"/></date>'
              '<group><group prefix=". "><text variable="publisher"/></group></group>')
    hearing = item(publisher="U.S. Government", issued={"date-parts": [[2009]]})
    assert bib(layout, [hearing], output="html") == [
        '<div class="csl-entry">\n    <div class="csl-left-margin">2009.</div> U.S. Government</div>']


def test_a_display_group_that_opens_the_entry_has_its_leading_space_written_before_it() -> None:
    # collection-de-l-ecole-francaise-de-rome-note
    layout = '<group display="block"><text variable="title" prefix=" "/></group>'
    assert bib(layout, [item(title="Effects")], output="html") == [
        '<div class="csl-entry"> \n\n    <div class="csl-block">Effects</div>\n</div>']


def test_a_display_group_ending_the_entry_writes_its_trailing_space_after_it() -> None:
    # iso690-author-date-en
    layout = '<text variable="volume"/><group display="left-margin"><text variable="title" suffix=" "/></group>'
    assert bib(layout, [item(volume="9", title="Effects")], output="html") == [
        '<div class="csl-entry">9\n    <div class="csl-left-margin">Effects</div> </div>']


@pytest.mark.parametrize(("layout", "entry"), [
    ('<text variable="citation-number" suffix=". "/><text variable="title" prefix=" "/>', "1.  Effects"),
    ('<text macro="number"/><text variable="title" prefix=" "/>', "1. Effects"),
], ids=["in-layout", "in-macro"])
def test_a_citation_numbers_suffix_space_stays_unless_a_macro_writes_the_number(
        layout: str, entry: str) -> None:
    # gost-r-7-0-5-2008: "62. Interview with Fountain Hughes"
    number = '<macro name="number"><text variable="citation-number" suffix=". "/></macro>'
    assert bib(layout, [item(title="Effects")], extra=number) == [entry]


@pytest.mark.parametrize(("fields", "entry"), [({}, "none"), ({"citation-label": "Own1"}, "Own1")],
                         ids=["made", "own"])
def test_a_citation_label_test_sees_only_the_items_own_label(fields: dict[str, str],
                                                             entry: str) -> None:
    # united-states-international-trade-commission: names, not a made "FWPF20", in its notes
    layout = ('<choose><if variable="citation-label"><text variable="citation-label"/></if>'
              '<else><text value="none"/></else></choose>')
    assert bib(layout, [item(author=[DOE], **fields)]) == [entry]


def test_a_first_citation_of_no_names_shows_those_its_subsequent_form_shows() -> None:
    # turkiye-bilimsel-ve-teknolojik-arastirma-kurumu: et-al-use-first="0" on cs:name
    citation = ('<group delimiter=", "><names variable="author"><name form="short" '
                'et-al-min="2" et-al-use-first="0"/></names>'
                '<date variable="issued"><date-part name="year"/></date></group>')
    cited = item(author=FIVE_AUTHORS, issued={"date-parts": [[2004]]})
    processor = make_processor(style(citation=citation, citation_attrs=(
        'et-al-min="6" et-al-use-first="1" et-al-subsequent-min="3" '
        'et-al-subsequent-use-first="1"')), [cited])
    assert processor.cite([{"id": "ITEM-1"}]) == "Fox et al., 2004"


def test_nothing_merges_with_the_punctuation_a_text_value_starts_with() -> None:
    # gigascience: "Fox J, ..., Andersen R, et al.. effects"
    layout = '<names variable="author"><name/></names><text value=". "/><text variable="title"/>'
    authors = [{"family": family, "given": "A"} for family in ("Fox", "Hong", "Price", "Firth")]
    assert bib(layout, [item(author=authors, title="Tides")],
               bibliography_attrs='et-al-min="4" et-al-use-first="1"') == ["A Fox et al.. Tides"]
