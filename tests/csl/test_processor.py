"""refbridge's CSL processor, one behaviour per test, on small inline styles."""

from __future__ import annotations

from typing import Any

import pytest

from refbridge.csl import CslStyle, LocaleStore, make_processor
from refbridge.errors import ParseError

DOE = {"family": "Doe", "given": "John Robert"}
ROE = {"family": "Roe", "given": "Jane"}
POE = {"family": "Poe", "given": "Edgar Allan"}


def style(citation: str = '<text value="x"/>', bibliography: str | None = None,
          citation_attrs: str = "", bibliography_attrs: str = "", style_attrs: str = "",
          extra: str = "", sort: str = "", style_class: str = "in-text") -> CslStyle:
    bib = (f"<bibliography {bibliography_attrs}>{sort}<layout>{bibliography}</layout></bibliography>"
           if bibliography is not None else "")
    return CslStyle.from_xml(
        f'<style xmlns="http://purl.org/net/xbiblio/csl" class="{style_class}" version="1.0" {style_attrs}>'
        f"<info><id>test</id><title>Test style</title></info>{extra}"
        f"<citation {citation_attrs}><layout>{citation}</layout></citation>{bib}</style>",
        source="test",
    )


def bib(layout: str, items: list[dict[str, Any]], output: str = "text", **kwargs: Any) -> list[str]:
    attrs = {k: kwargs.pop(k) for k in list(kwargs) if k in ("bibliography_attrs", "style_attrs", "extra", "sort")}
    return make_processor(style(bibliography=layout, **attrs), items, output=output, **kwargs).bibliography()


def item(**fields: Any) -> dict[str, Any]:
    return {"id": fields.pop("id", "ITEM-1"), "type": fields.pop("type", "book"), **fields}


# -- style loading ----------------------------------------------------------------------


def test_style_info_of_a_dependent_style() -> None:
    dependent = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0"><info>'
        "<id>http://www.zotero.org/styles/dep</id><title>Dependent</title>"
        '<link href="http://www.zotero.org/styles/parent" rel="independent-parent"/></info></style>')
    assert (dependent.info.id, dependent.info.title, dependent.info.class_) == (
        "http://www.zotero.org/styles/dep", "Dependent", "note")
    assert dependent.info.is_dependent
    assert dependent.info.parent_link == "http://www.zotero.org/styles/parent"


def test_malformed_style_raises_parse_error_with_source() -> None:
    with pytest.raises(ParseError, match="invalid CSL XML"):
        CslStyle.from_xml("<style><citation>", source="broken.csl")


def test_undefined_macro_is_reported() -> None:
    with pytest.raises(ParseError, match="undefined macro 'nope'"):
        style('<text macro="nope"/>')


# -- names ------------------------------------------------------------------------------


def test_et_al_after_et_al_use_first() -> None:
    layout = '<names variable="author"><name et-al-min="3" et-al-use-first="1"/></names>'
    assert bib(layout, [item(author=[DOE, ROE, POE])]) == ["John Robert Doe et al."]


def test_et_al_use_last() -> None:
    layout = ('<names variable="author"><name et-al-min="3" et-al-use-first="1" et-al-use-last="true"/>'
              "</names>")
    assert bib(layout, [item(author=[DOE, ROE, POE, {"family": "Zed", "given": "Z"}])]) == [
        "John Robert Doe … Z Zed"]


def test_sort_order_initials_and_delimiter_before_and() -> None:
    layout = ('<names variable="author"><name name-as-sort-order="first" initialize-with=". " and="text"/>'
              "</names>")
    assert bib(layout, [item(author=[DOE, ROE, POE])]) == ["Doe, J. R., J. Roe, and E. A. Poe"]


def test_two_names_joined_by_symbol_without_delimiter() -> None:
    layout = '<names variable="author"><name and="symbol"/></names>'
    assert bib(layout, [item(author=[DOE, ROE])]) == ["John Robert Doe & Jane Roe"]


def test_particles_demoted_in_sort_order_names() -> None:
    layout = '<names variable="author"><name name-as-sort-order="all"/></names>'
    beethoven = {"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"}
    assert bib(layout, [item(author=[beethoven])]) == ["Beethoven, Ludwig van"]
    assert bib(layout, [item(author=[beethoven])], style_attrs='demote-non-dropping-particle="never"') == [
        "van Beethoven, Ludwig"]


def test_particle_parsed_from_family_name() -> None:
    layout = '<names variable="author"><name form="short"/></names>'
    assert bib(layout, [item(author=[{"family": "van Gogh", "given": "Vincent"}])]) == ["van Gogh"]


def test_literal_and_non_latin_names() -> None:
    layout = '<names variable="author"><name/></names>'
    names = [{"literal": "World Health Organization"}, {"family": "毛", "given": "泽东"}]
    assert bib(layout, [item(author=names)]) == ["World Health Organization, 毛泽东"]


def test_name_part_formatting_applies_to_the_family_name_only() -> None:
    layout = ('<names variable="author"><name><name-part name="family" text-case="uppercase"/></name>'
              "</names>")
    assert bib(layout, [item(author=[DOE])]) == ["John Robert DOE"]


def test_editor_translator_combined_with_label() -> None:
    layout = '<names variable="editor translator"><name/><label form="short" prefix=" (" suffix=")"/></names>'
    assert bib(layout, [item(editor=[ROE], translator=[ROE])]) == ["Jane Roe (ed. & trans.)"]


def test_substitute_uses_editor_and_suppresses_it_later() -> None:
    layout = ('<group delimiter=". "><names variable="author"><name/><substitute><names variable="editor"/>'
              '</substitute></names><names variable="editor"/><text variable="title"/></group>')
    assert bib(layout, [item(editor=[ROE], title="Book")]) == ["Jane Roe. Book"]


def test_subsequent_author_substitute() -> None:
    layout = '<group delimiter=". "><names variable="author"><name/></names><text variable="title"/></group>'
    items = [item(id="a", author=[DOE], title="One"), item(id="b", author=[DOE], title="Two")]
    assert bib(layout, items, bibliography_attrs='subsequent-author-substitute="———"') == [
        "John Robert Doe. One", "———. Two"]


def test_subsequent_author_substitute_leaves_a_term_substituting_for_the_names() -> None:
    # cuadernos-de-filologia-clasica: "Anón." for each entry without author, as citeproc-js
    layout = ('<group delimiter=" "><names variable="author"><name/><substitute>'
              '<text term="anonymous" form="short" text-case="capitalize-first"/></substitute>'
              '</names><text variable="title"/></group>')
    items = [item(id="a", title="One"), item(id="b", title="Two")]
    assert bib(layout, items, bibliography_attrs='subsequent-author-substitute="———"') == [
        "Anon. One", "Anon. Two"]


def test_subsequent_author_substitute_replaces_a_title_substituting_for_the_names() -> None:
    items = [item(id="a", title="Book", issued={"date-parts": [[2001]]}),
             item(id="b", title="Book", issued={"date-parts": [[2002]]})]
    assert bib('<group delimiter=" "><names variable="author"><name/><substitute>'
               '<text variable="title"/></substitute></names><date variable="issued">'
               '<date-part name="year"/></date></group>', items,
               bibliography_attrs='subsequent-author-substitute="———"') == ["Book 2001", "——— 2002"]


def test_names_substituting_for_names_with_affixes_take_those_affixes_not_their_own() -> None:
    # im-gesprach: both cs:names have suffix=": "; citeproc-js writes one
    layout = ('<group delimiter=" "><names variable="author" prefix="[" suffix="]"><name/>'
              '<substitute><names variable="editor" prefix="&lt;" suffix="&gt;"/></substitute>'
              '</names><text variable="title"/></group>')
    assert bib(layout, [item(editor=[ROE], title="One")]) == ["[Jane Roe] One"]


@pytest.mark.parametrize(("substitute", "entry"), [
    ('<names variable="editor" font-variant="small-caps" prefix="&lt;" suffix="&gt;"/>', "[<i>Roe</i>]"),
    ('<names variable="editor" font-variant="small-caps" prefix="&lt;" suffix="&gt;"><name/></names>',
     '&#60;<span style="font-variant:small-caps;">Jane Roe</span>&#62;'),
], ids=["inheriting", "own-name"])
def test_names_substituting_with_a_cs_name_of_their_own_render_in_their_own_formatting(
        substitute: str, entry: str) -> None:
    # universitat-bremen-frankoromanistik-literaturwissenschaft: editors not in small caps
    layout = (f'<names variable="author" prefix="[" suffix="]" font-style="italic"><name form="short"/>'
              f'<substitute>{substitute}</substitute></names>')
    assert bib(layout, [item(editor=[ROE])], output="html") == [f'<div class="csl-entry">{entry}</div>']


def test_a_macro_first_built_in_a_substitute_keeps_the_name_parts_it_took_there() -> None:
    # annales: the editor macro, called by the author macro's substitute in the citation,
    # writes small capitals in the bibliography too (citeproc-js builds the citation first)
    macros = ('<macro name="author"><names variable="author"><name><name-part name="family" '
              'font-variant="small-caps"/></name><substitute><text macro="editor"/></substitute></names></macro>'
              '<macro name="editor"><names variable="editor"/></macro>')
    csl = style('<text macro="author"/>', '<text macro="editor"/>', extra=macros)
    processor = make_processor(csl, [item(editor=[ROE])], output="html")
    assert processor.bibliography() == ['<div class="csl-entry">Jane <span style="font-variant:small-caps;">Roe</span></div>']


def test_a_space_a_text_value_starts_with_stays_after_an_affixs_space() -> None:
    # london-south-bank-university-numeric: prefix " " before a macro whose value is
    # " Available from: ", as citeproc-js merges affixes only
    macro = '<macro name="access"><text value=" Available from: "/><text variable="URL"/></macro>'
    layout = '<text variable="title" suffix=". "/><text macro="access" prefix=" "/>'
    assert bib(layout, [item(title="Lot", URL="https://www.nrc.nl/a")], extra=macro) == [
        "Lot.  Available from: https://www.nrc.nl/a"]


def test_highlighted_name_is_bold_or_underlined() -> None:
    layout = '<names variable="author"><name/></names>'
    owner = lambda name: name.get("family") == "Roe"
    assert bib(layout, [item(author=[DOE, ROE])], output="html", highlight=owner) == [
        '<div class="csl-entry">John Robert Doe, <b>Jane Roe</b></div>']
    assert bib(layout, [item(author=[DOE, ROE])], output="latex", highlight=owner,
               highlight_style="underline") == [r"John Robert Doe, \underline{Jane Roe}"]


def test_a_cjk_and_term_joins_the_last_name_without_spaces() -> None:
    names = [{"family": "张", "given": "伟"}, {"family": "李", "given": "娜"}, {"family": "王", "given": "五"}]
    layout = '<names variable="author"><name and="text"/></names>'
    assert bib(layout, [item(author=names)], locale="zh-CN") == ["张伟, 李娜和王五"]


def test_a_cjk_et_al_term_joins_the_last_name_without_a_space() -> None:
    names = [{"family": "张", "given": "伟"}, {"family": "李", "given": "娜"}, {"family": "王", "given": "五"}]
    layout = '<names variable="author"><name et-al-min="3" et-al-use-first="1"/></names>'
    assert bib(layout, [item(author=names)], locale="zh-CN") == ["张伟等"]


def test_et_al_use_first_zero_renders_no_names_and_no_substitute() -> None:
    layout = ('<group delimiter="|"><text value="A"/><names variable="author">'
              '<name et-al-min="2" et-al-use-first="0"/><substitute><text variable="title"/></substitute>'
              '</names><text variable="container-title"/></group>')
    assert bib(layout, [item(author=[DOE, ROE], title="Book", **{"container-title": "Series"})]) == [
        "A|Series"]


def test_initials_keep_the_markup_of_the_given_name() -> None:
    layout = '<names variable="author"><name initialize-with=". "/></names>'
    author = {"family": "Doe", "given": "<b>John</b> Quiggly"}
    assert bib(layout, [item(author=[author])], output="html") == [
        '<div class="csl-entry"><b>J.</b> Q. Doe</div>']


def test_names_of_a_chinese_item_are_written_family_name_first() -> None:
    layout = '<names variable="author"><name initialize-with=". "/></names>'
    assert bib(layout, [item(author=[{"family": "Mao", "given": "Zedong"}], language="zh")]) == ["Mao Z."]


def test_a_name_suffix_is_normalized_like_initials() -> None:
    layout = '<names variable="author"><name initialize-with="" name-as-sort-order="all" sort-separator=" "/></names>'
    author = {"family": "King", "given": "Martin Luther", "suffix": "Jr."}
    assert bib(layout, [item(author=[author])]) == ["King ML Jr"]


# -- dates ------------------------------------------------------------------------------


def test_localized_text_date() -> None:
    layout = '<date variable="issued" form="text"/>'
    assert bib(layout, [item(issued={"date-parts": [[2020, 3, 5]]})]) == ["March 5, 2020"]


def test_date_range_collapses_shared_parts() -> None:
    layout = '<date variable="issued" form="text"/>'
    assert bib(layout, [item(issued={"date-parts": [[2020, 3, 5], [2020, 4, 7]]})]) == [
        "March 5–April 7, 2020"]


def test_season_bc_and_circa() -> None:
    layout = ('<group delimiter="; "><date variable="issued"><date-part name="month" suffix=" "/>'
              '<date-part name="year"/></date><choose><if is-uncertain-date="issued">'
              '<text term="circa" form="short"/></if></choose></group>')
    items = [item(id="a", issued={"date-parts": [[1999]], "season": 2, "circa": True}),
             item(id="b", issued={"date-parts": [[-44, 3]]})]
    assert bib(layout, items) == ["Summer 1999; c.", "March 44 BC"]


def test_raw_and_literal_dates() -> None:
    layout = '<date variable="issued" form="numeric"/>'
    items = [item(id="a", issued={"raw": "2001-02-03"}), item(id="b", issued={"literal": "Spring term"})]
    assert bib(layout, items) == ["02/03/2001", "Spring term"]


# -- numbers, pages, labels -------------------------------------------------------------


@pytest.mark.parametrize(("form", "expected"), [
    ("ordinal", "2nd"), ("long-ordinal", "second"), ("roman", "ii"), ("numeric", "2")])
def test_number_forms(form: str, expected: str) -> None:
    assert bib(f'<number variable="edition" form="{form}"/>', [item(edition="2")]) == [expected]


@pytest.mark.parametrize(("fmt", "expected"), [
    ("expanded", "321–328"), ("minimal", "321–8"), ("minimal-two", "321–28"), ("chicago", "321–28")])
def test_page_range_formats(fmt: str, expected: str) -> None:
    assert bib('<text variable="page"/>', [item(page="321-28")], style_attrs=f'page-range-format="{fmt}"') == [
        expected]


def test_label_is_plural_for_a_page_range() -> None:
    layout = '<group delimiter=" "><label variable="page" form="short"/><text variable="page"/></group>'
    assert bib(layout, [item(id="a", page="5"), item(id="b", page="5-9")]) == ["p. 5", "pp. 5–9"]


def test_an_ampersand_between_numbers_is_the_locales_and_symbol() -> None:
    extra = '<locale><terms><term name="and" form="symbol">+</term></terms></locale>'
    assert bib('<text variable="volume"/>', [item(volume="1&2")], extra=extra) == ["1 + 2"]


def test_an_ampersand_between_letters_stays_tight() -> None:
    assert bib('<number variable="issue"/>', [item(issue="A & B")]) == ["A&B"]


def test_a_number_variable_starting_with_a_digit_is_written_verbatim() -> None:
    assert bib('<number variable="number"/>', [item(number="1<sup>er</sup>")], output="html") == [
        '<div class="csl-entry">1&#60;sup&#62;er&#60;/sup&#62;</div>']


def test_a_number_variable_starting_with_markup_keeps_its_markup() -> None:
    assert bib('<number variable="number"/>', [item(number="<i>b</i> 1-2")], output="html") == [
        '<div class="csl-entry"><i>b</i> 1-2</div>']


def test_numbers_after_an_embedded_label_keep_it_as_a_term() -> None:
    assert bib('<number variable="edition" form="ordinal"/>', [item(edition="7, p. 3-8")]) == ["7th, pp. 3–8"]


def test_a_leading_abbreviation_of_the_variables_own_label_is_dropped() -> None:
    assert bib('<text variable="page"/>', [item(page="pp. 5-10")]) == ["5–10"]


# -- text-case, quotes, flip-flop, strip-periods -----------------------------------------


def test_title_case_keeps_stop_words_and_nocase() -> None:
    layout = '<text variable="title" text-case="title"/>'
    title = 'the history of <span class="nocase">iPhone</span> design: a case of usability'
    assert bib(layout, [item(title=title)]) == ["The History of iPhone Design: A Case of Usability"]


def test_sentence_case_and_uppercase() -> None:
    assert bib('<text variable="title" text-case="capitalize-first"/>', [item(title="an essay")]) == ["An essay"]
    assert bib('<text variable="title" text-case="uppercase"/>', [item(title="an essay")]) == ["AN ESSAY"]


def test_punctuation_moves_inside_quotes_in_american_english() -> None:
    layout = '<group delimiter=" "><text variable="title" quotes="true" suffix=","/><text value="next"/></group>'
    assert bib(layout, [item(title="Title")]) == ["“Title,” next"]
    assert bib(layout, [item(title="Title")], locale="en-GB") == ["‘Title’, next"]


def test_nested_quotes_and_italics_flip_flop() -> None:
    layout = '<text variable="title" quotes="true" font-style="italic"/>'
    title = 'A "quoted" word and <i>a ship</i>'
    assert bib(layout, [item(title=title)], output="html") == [
        '<div class="csl-entry">“<i>A ‘quoted’ word and <span style="font-style:normal;">a ship</span></i>”</div>']


def test_strip_periods_and_duplicate_punctuation() -> None:
    layout = '<text variable="container-title" strip-periods="true" suffix="."/><text variable="title" suffix="."/>'
    assert bib(layout, [item(**{"container-title": "J. Chem.", "title": " Done."})]) == ["J Chem. Done."]


def test_a_cjk_string_drops_its_own_italics() -> None:
    layout = '<text variable="container-title" font-style="italic"/>'
    assert bib(layout, [item(**{"container-title": "情报学报"})], output="html") == [
        '<div class="csl-entry">情报学报</div>']


def test_a_group_keeps_its_italics_on_cjk_text() -> None:
    layout = '<group font-style="italic"><text variable="container-title"/></group>'
    assert bib(layout, [item(**{"container-title": "情报学报"})], output="html") == [
        '<div class="csl-entry"><i>情报学报</i></div>']


def test_a_number_variable_keeps_its_italics_on_cjk_text() -> None:
    layout = '<text variable="volume" font-style="italic"/>'
    assert bib(layout, [item(volume="三")], output="html") == ['<div class="csl-entry"><i>三</i></div>']


def test_markup_in_a_cjk_field_keeps_the_italics_of_its_element() -> None:
    layout = '<text variable="title" font-style="italic"/>'
    assert bib(layout, [item(title="中<sup>一</sup>")], output="html") == [
        '<div class="csl-entry"><i>中<sup>一</sup></i></div>']


def test_french_spacing_in_field_text_becomes_narrow_no_break_spaces() -> None:
    layout = '<text variable="title" prefix="x : "/>'
    assert bib(layout, [item(title="Le « vrai » titre : suite")]) == [
        "x : Le «\u202fvrai\u202f» titre\u202f: suite"]


def test_uppercase_follows_turkish_letter_case_for_a_turkish_item() -> None:
    layout = '<text variable="title" text-case="uppercase"/>'
    assert bib(layout, [item(title="ic ve ıd", language="tr")]) == ["\u0130C VE ID"]


def test_the_same_title_is_cased_by_each_items_language() -> None:
    layout = '<text variable="title" text-case="uppercase"/>'
    assert bib(layout, [item(id="a", title="ic ve ıd", language="tr"),
                        item(id="b", title="ic ve ıd", language="en")]) == [
        "\u0130C VE ID", "IC VE ID"]


def test_a_title_cased_again_keeps_its_protected_span_and_its_letters_that_case_to_two() -> None:
    layout = '<text variable="title" text-case="uppercase"/>'
    title = 'straße <span class="nocase">von</span> weg'
    assert bib(layout, [item(id="a", title=title), item(id="b", title=title),
                        item(id="c", title="straße von weg")]) == [
        "STRASSE von WEG", "STRASSE von WEG", "STRASSE VON WEG"]


def test_typed_single_curly_quotes_stay_single_at_the_top_level() -> None:
    assert bib('<text variable="title"/>', [item(title="a ‘b “c” d’ e")]) == ["a ‘b “c” d’ e"]


def test_the_first_straight_quote_kind_is_the_outer_form() -> None:
    assert bib('<text variable="title"/>', [item(title="x 'y \"z\"' w")]) == ["x “y ‘z’” w"]


def test_text_case_leaves_a_nodecor_span_alone() -> None:
    layout = '<text variable="title" text-case="capitalize-all"/>'
    assert bib(layout, [item(title='lessard <span class="nodecor">v.</span> schmidt')]) == ["Lessard v. Schmidt"]


def test_strip_periods_reaches_into_nocase_spans() -> None:
    layout = '<text variable="title" strip-periods="true"/>'
    assert bib(layout, [item(title='a. <span class="nocase">b.</span>')]) == ["a b"]


def test_a_straight_quote_opens_right_after_a_markup_tag() -> None:
    assert bib('<text variable="title"/>', [item(title='<i>"x y"</i> z')], output="html") == [
        '<div class="csl-entry"><i>“x y”</i> z</div>']


def test_punctuation_typed_after_a_closing_quote_stays_outside() -> None:
    assert bib('<text variable="title"/>', [item(title='a "b". c')]) == ["a “b”. c"]


def test_an_affix_after_a_closing_quote_moves_inside() -> None:
    assert bib('<text variable="title" suffix="."/>', [item(title='a "b"')]) == ["a “b.”"]


def test_typed_single_quotes_are_outer_quotes_where_the_locale_uses_them_so() -> None:
    assert bib('<text variable="title" quotes="true"/>', [item(title="a ‘b’ c")], locale="en-GB") == [
        "‘a “b” c’"]


def test_typed_curly_quotes_a_locale_does_not_use_stay_as_typed() -> None:
    assert bib('<text variable="title" quotes="true"/>', [item(title="a “b” c")], locale="de-DE") == [
        "„a “b” c“"]


# -- groups, conditions ------------------------------------------------------------------


def test_group_with_only_empty_variables_is_suppressed() -> None:
    layout = ('<group delimiter=" "><text variable="title"/><group prefix="(" suffix=")">'
              '<text term="volume" form="short"/><text variable="volume"/></group></group>')
    assert bib(layout, [item(title="Book")]) == ["Book"]


def test_condition_match_none_and_numeric() -> None:
    layout = ('<choose><if variable="volume" is-numeric="volume" match="all"><text value="numeric"/></if>'
              '<else-if type="article chapter" match="none"><text value="neither"/></else-if></choose>')
    assert bib(layout, [item(id="a", volume="12"), item(id="b", volume="XII-bis")]) == ["numeric", "neither"]


# -- sorting, disambiguation, citations ---------------------------------------------------


def test_sort_by_names_then_descending_date() -> None:
    layout = '<group delimiter=" "><names variable="author"><name form="short"/></names><date variable="issued"><date-part name="year"/></date></group>'
    sort = '<sort><key variable="author"/><key variable="issued" sort="descending"/></sort>'
    items = [item(id="a", author=[ROE], issued={"date-parts": [[2001]]}),
             item(id="b", author=[DOE], issued={"date-parts": [[1999]]}),
             item(id="c", author=[DOE], issued={"date-parts": [[2005]]})]
    proc = make_processor(style(bibliography=layout, sort=sort), items)
    assert proc.bibliography() == ["Doe 2005", "Doe 1999", "Roe 2001"]
    assert proc.bibliography_ids() == ["c", "b", "a"]


AUTHOR_YEAR = ('<group delimiter=" "><names variable="author"><name form="short"/></names>'
               '<date variable="issued"><date-part name="year"/></date></group>')


def test_year_suffixes_disambiguate_same_author_and_year() -> None:
    cite_style = style(AUTHOR_YEAR, AUTHOR_YEAR, citation_attrs='disambiguate-add-year-suffix="true"',
                       sort='<sort><key variable="title"/></sort>')
    items = [item(id="b", author=[DOE], issued={"date-parts": [[2000]]}, title="B"),
             item(id="a", author=[DOE], issued={"date-parts": [[2000]]}, title="A")]
    proc = make_processor(cite_style, items)
    assert proc.bibliography() == ["Doe 2000a", "Doe 2000b"]
    assert proc.cite([{"id": "b"}]) == "Doe 2000b"


def test_given_names_added_to_disambiguate() -> None:
    cite_style = style(AUTHOR_YEAR, citation_attrs='disambiguate-add-givenname="true"')
    items = [item(id="a", author=[DOE], issued={"date-parts": [[2000]]}),
             item(id="b", author=[{"family": "Doe", "given": "Jane"}], issued={"date-parts": [[2000]]})]
    assert make_processor(cite_style, items).cite([{"id": "a"}, {"id": "b"}]) == "John Robert Doe 2000Jane Doe 2000"


def test_citation_numbers_collapse_into_ranges() -> None:
    cite_style = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"><info><id>n</id>'
        '<title>n</title></info><citation collapse="citation-number"><sort><key variable="citation-number"/>'
        '</sort><layout prefix="[" suffix="]" delimiter=","><text variable="citation-number"/></layout>'
        "</citation></style>")
    items = [item(id=str(n)) for n in range(1, 6)]
    proc = make_processor(cite_style, items)
    assert proc.cite([{"id": "4"}, {"id": "1"}, {"id": "2"}, {"id": "3"}]) == "[1–4]"


def test_positions_across_clusters_give_ibid_and_subsequent() -> None:
    layout = ('<choose><if position="ibid-with-locator"><text term="ibid"/><text variable="locator" prefix=", "/>'
              '</if><if position="ibid"><text term="ibid"/></if><else-if position="subsequent">'
              '<text variable="title" form="short"/></else-if><else><text variable="title"/></else></choose>')
    items = [item(id="a", title="Long Title", **{"title-short": "Short"}), item(id="b", title="Other")]
    proc = make_processor(style(layout, style_class="note"), items)
    assert proc.cite_clusters([[{"id": "a"}], [{"id": "a", "locator": "5"}], [{"id": "b"}], [{"id": "a"}]]) == [
        "Long Title", "Ibid., 5", "Other", "Short"]


def test_cite_prefix_suffix_and_suppress_author() -> None:
    cite_style = style(AUTHOR_YEAR)
    items = [item(id="a", author=[DOE], issued={"date-parts": [[2000]]})]
    assert make_processor(cite_style, items).cite(
        [{"id": "a", "prefix": "see ", "suffix": ", ch. 2", "suppress-author": True}]) == "see 2000, ch. 2"


def test_a_cite_suffix_ending_in_a_comma_keeps_only_the_delimiters_space() -> None:
    cite_style = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0"><info><id>t</id>'
        '<title>T</title></info><citation><layout delimiter="; "><text variable="title"/></layout>'
        "</citation></style>", source="test")
    items = [item(id="a", title="Book C"), item(id="b", title="Book D")]
    assert make_processor(cite_style, items).cite(
        [{"id": "a", "suffix": " is one source,"}, {"id": "b"}]) == "Book C is one source, Book D"


def test_given_names_differing_only_in_spacing_are_one_name_for_all_names_disambiguation() -> None:
    layout = ('<group delimiter=", "><names variable="author"><name form="short" initialize-with=". "/></names>'
              '<text variable="title"/></group>')
    cite_style = style(layout, citation_attrs='disambiguate-add-givenname="true" givenname-disambiguation-rule="all-names"')
    items = [item(id="a", title="Part 1", author=[{"family": "Doe", "given": "J. J."}]),
             item(id="b", title="Part 2", author=[{"family": "Doe", "given": "J.J."}])]
    assert make_processor(cite_style, items).cite_clusters([[{"id": "a"}], [{"id": "b"}]]) == [
        "Doe, Part 1", "Doe, Part 2"]


def test_cites_alike_in_their_subsequent_et_al_form_get_year_suffixes() -> None:
    layout = ('<names variable="author"><name form="short"/></names>'
              '<date prefix=" " variable="issued"><date-part name="year"/></date><text variable="year-suffix"/>')
    cite_style = style(layout, citation_attrs='disambiguate-add-year-suffix="true" et-al-min="3" '
                                              'et-al-use-first="3" et-al-subsequent-min="1" et-al-subsequent-use-first="1"')
    year = {"date-parts": [[2000]]}
    items = [item(id="a", author=[DOE, ROE, POE], issued=year), item(id="b", author=[DOE, POE], issued=year)]
    assert make_processor(cite_style, items).cite_clusters([[{"id": "a"}], [{"id": "b"}]]) == [
        "Doe, Roe, Poe 2000a", "Doe, Poe 2000b"]


def test_a_locator_starting_with_a_label_abbreviation_takes_that_label() -> None:
    layout = '<group delimiter=" "><label variable="locator" form="short"/><text variable="locator"/></group>'
    proc = make_processor(style(layout), [item(id="a")])
    assert proc.cite([{"id": "a", "locator": "vol. 2, fol. 186"}]) == "vol. 2, fol. 186"


def test_a_cite_may_state_its_position() -> None:
    layout = '<choose><if position="subsequent"><text value="short"/></if><else><text value="full"/></else></choose>'
    proc = make_processor(style(layout), [item(id="a")])
    assert proc.cite([{"id": "a", "position": 1}]) == "short"


def test_unknown_cited_id_is_an_error() -> None:
    with pytest.raises(KeyError, match="nope"):
        make_processor(style(AUTHOR_YEAR), []).cite([{"id": "nope"}])


def test_variables_written_in_the_note_are_read_as_variables() -> None:
    note = "container-title: Journal of Tests\nreviewed-author: Hall || W. C.\nissued: 2004-10-01\nA remark."
    layout = ('<group delimiter="|"><text variable="container-title"/><names variable="reviewed-author"/>'
              '<date variable="issued" form="numeric"/><text variable="note"/></group>')
    assert bib(layout, [item(note=note)]) == ["Journal of Tests|W. C. Hall|10/01/2004|A remark."]


def test_a_note_field_does_not_replace_the_items_own_value() -> None:
    layout = '<group delimiter="|"><text variable="volume"/><text variable="note"/></group>'
    assert bib(layout, [item(volume="9", note="volume: 3")]) == ["9|volume: 3"]


def test_subsequent_author_substitute_compares_the_names_shown_not_et_al() -> None:
    layout = ('<group delimiter=". "><names variable="author"><name et-al-min="3" et-al-use-first="1"/></names>'
              '<text variable="title"/></group>')
    items = [item(id="a", title="First", author=[DOE, ROE, POE]), item(id="b", title="Second", author=[DOE])]
    assert bib(layout, items, bibliography_attrs='subsequent-author-substitute="---"') == [
        "John Robert Doe et al. First", "---. Second"]


# -- locales ------------------------------------------------------------------------------


def test_locale_falls_back_from_region_to_language_to_en_us() -> None:
    layout = '<group delimiter=" "><text term="edition"/><text term="retrieved"/></group>'
    assert bib(layout, [item()], locale="de-AT") == ["Auflage abgerufen"]
    assert bib(layout, [item()], locale="xx-YY") == ["Edition retrieved"]  # capital: it starts the entry


def test_style_locale_overrides_terms() -> None:
    extra = '<locale xml:lang="en"><terms><term name="edition">ed.!</term></terms></locale>'
    assert bib('<text value="see "/><text term="edition"/>', [item()], extra=extra) == ["see ed.!"]


def test_a_term_written_across_lines_with_no_content_is_empty() -> None:
    extra = '<locale><terms><term name="and others">\n      </term></terms></locale>'
    layout = '<names variable="author"><name et-al-min="2" et-al-use-first="1"/><et-al term="and others"/></names>'
    assert bib(layout, [item(author=[DOE, ROE])], extra=extra) == ["John Robert Doe"]


def test_a_term_given_only_in_gendered_forms_defaults_to_the_feminine() -> None:
    assert bib('<number variable="edition" form="long-ordinal"/>', [item(edition="1")], locale="pt-BR") == [
        "primeira"]


def test_custom_locale_store(tmp_path: Any) -> None:
    (tmp_path / "locales-en-US.xml").write_text(
        '<locale xmlns="http://purl.org/net/xbiblio/csl" version="1.0" xml:lang="en-US"><terms>'
        '<term name="and">plus</term></terms></locale>', encoding="utf-8")
    layout = '<names variable="author"><name and="text"/></names>'
    assert bib(layout, [item(author=[DOE, ROE])], locale_store=LocaleStore(tmp_path)) == [
        "John Robert Doe plus Jane Roe"]


def test_clusters_with_note_numbers_give_near_note_and_first_reference() -> None:
    layout = ('<choose><if position="near-note"><text value="near "/></if></choose>'
              '<choose><if position="first"><text variable="title"/></if>'
              '<else><text variable="first-reference-note-number" prefix="see n. "/></else></choose>')
    proc = make_processor(style(layout, style_class="note", citation_attrs='near-note-distance="2"'),
                          [item(id="a", title="Book")])
    clusters = [{"citationItems": [{"id": "a"}], "properties": {"noteIndex": n}} for n in (1, 2, 9)]
    assert proc.cite_clusters(clusters) == ["Book", "near see n. 1", "see n. 1"]


def test_ibid_repeats_the_previous_citation_in_the_same_note() -> None:
    layout = ('<choose><if position="ibid-with-locator"><text value="ibid "/><text variable="locator"/></if>'
              '<else-if position="ibid"><text value="ibid"/></else-if>'
              '<else><text variable="title"/></else></choose>')
    proc = make_processor(style(layout, style_class="note"), [item(id="a", title="Book")])
    clusters = [{"citationItems": [{"id": "a", **locator}], "properties": {"noteIndex": note}}
                for note, locator in ((1, {}), (2, {"locator": "99"}), (2, {}), (2, {}))]
    assert proc.cite_clusters(clusters) == ["Book", "ibid 99", "Book", "ibid"]


def test_in_text_and_note_citations_are_separate_sequences() -> None:
    layout = '<choose><if position="ibid"><text value="ibid"/></if><else><text variable="title"/></else></choose>'
    proc = make_processor(style(layout, style_class="note"), [item(id="a", title="A"), item(id="b", title="B")])
    clusters = [{"citationItems": [{"id": key}], "properties": {"noteIndex": note}}
                for key, note in (("a", 0), ("b", 1), ("a", 0))]
    assert proc.cite_clusters(clusters) == ["A", "B", "ibid"]


def test_values_of_the_wrong_shape_do_not_break_rendering() -> None:
    odd = item(title={"not": "text"}, volume=12, author=["not a name", {"family": "Doe"}],
               issued=[2020], type=["book"], edition=True)
    layout = ('<group delimiter=", "><names variable="author"/><text variable="title"/>'
              '<text variable="volume"/><date variable="issued" form="numeric"/></group>')
    assert bib(layout, [odd]) == ["Doe, 12"]


def test_locale_names_cannot_reach_outside_the_locale_folder() -> None:
    assert bib('<text value="see "/><text term="edition"/>', [item()], locale="../../etc/passwd") == [
        "see edition"]


def test_a_short_term_only_english_has_falls_back_to_the_locales_long_form() -> None:
    # as citeproc-js: en-US is not layered under a German locale ("cited" short is "cit."
    # in en-US only), so the style's own long term is the short one too
    extra = '<locale xml:lang="de"><terms><term name="cited">zit.</term></terms></locale>'
    layout = '<group delimiter=" "><text term="cited" form="short"/><text term="cited"/></group>'
    assert bib(layout, [item()], extra=extra, locale="de-CH") == ["Zit. zit."]
    assert bib(layout, [item()], locale="de-CH") == ["Zitiert zitiert"]
    assert bib(layout, [item()], locale="en-US") == ["Cit. cited"]


def test_a_no_break_space_of_initialize_with_stays_between_initials() -> None:
    layout = '<names variable="author"><name initialize-with=".&#160;"/></names>'
    assert bib(layout, [item(author=[{"family": "Adrion", "given": "Jeffrey R"}])]) == ["J.\u00a0R. Adrion"]


# -- keeping items ------------------------------------------------------------------------

def test_items_past_those_kept_decoded_are_kept_as_json_and_render_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from refbridge.csl import processor as csl_processor

    items = [item(id=f"ITEM-{n}", title=title, author=[author], issued={"date-parts": [[year]]})
             for n, (title, author, year) in enumerate([("Zeta", DOE, 2001), ("Alpha", ROE, 1999),
                                                        ("Mu", POE, 2010)])]
    layout = ('<group delimiter=". "><names variable="author"><name/></names>'
              '<date variable="issued"><date-part name="year"/></date><text variable="title"/></group>')
    sort = '<sort><key variable="title"/></sort>'
    monkeypatch.setattr(csl_processor, "_KEPT_DECODED", 1)
    processor = make_processor(style(bibliography=layout, sort=sort), items)
    kept = [type(dict.__getitem__(processor.items, key)) for key in processor.items]
    assert kept == [dict, bytes, bytes]
    assert processor.bibliography() == ["Jane Roe. 1999. Alpha", "Edgar Allan Poe. 2010. Mu",
                                        "John Robert Doe. 2001. Zeta"]
