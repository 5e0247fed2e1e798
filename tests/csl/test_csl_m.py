"""CSL-M, the extension citeproc-js implements for multilingual work, as the bilingual
Chinese GB/T 7714 styles use it: a ``cs:layout`` per item language, ``cs:institution``,
label terms with a ``%s`` placeholder. Each expected string is what citeproc-js writes for
the same style and items (checked with ../shared/tools/csl-reference.js)."""

from __future__ import annotations

from typing import Any

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

BILINGUAL = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text"
    version="1.0" default-locale="de-DE">
  <info><id>bilingual</id><title>Bilingual</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <locale><terms><term name="page-range-delimiter">-</term></terms></locale>
  <locale xml:lang="de"><terms>
    <term name="volume" form="short">Bd. %s von</term>
    <term name="page-range-delimiter">/</term>
  </terms></locale>
  <macro name="author">
    <names variable="author">
      <name><name-part name="family" text-case="uppercase"/></name>
      <institution/>
      <substitute><text term="anonymous"/></substitute>
    </names>
  </macro>
  <macro name="entry">
    <group delimiter=", ">
      <text macro="author"/>
      <text term="edition"/>
      <text variable="page"/>
      <group delimiter=" "><label variable="volume" form="short"/><text variable="volume"/></group>
    </group>
  </macro>
  <citation>
    <layout delimiter="; " prefix="(" suffix=")" locale="en"><text macro="author"/></layout>
    <layout delimiter=" | " prefix="(" suffix=")"><text macro="author"/></layout>
  </citation>
  <bibliography>
    <sort><key macro="author"/></sort>
    <layout suffix="!" locale="en fr"><text macro="entry"/></layout>
    <layout suffix="."><text macro="entry"/></layout>
  </bibliography>
</style>""")

SMITH = {"id": "smith", "type": "book", "language": "en-GB", "page": "10-12", "volume": "3",
         "author": [{"family": "Smith", "given": "Ann"}]}
ZORN = {"id": "zorn", "type": "book", "language": "de", "page": "10-12", "volume": "3",
        "author": [{"family": "Zorn", "given": "Max"}]}
INSTITUT = {"id": "institut", "type": "book", "language": "fr-CA",
            "author": [{"literal": "Institut national"}]}
BAUER = {"id": "bauer", "type": "book", "author": [{"family": "Bauer", "given": "Eva"}]}


def bibliography(style: CslStyle, items: list[dict[str, Any]]) -> list[str]:
    return make_processor(style, items).bibliography()


def test_an_item_in_a_layouts_language_takes_that_layout_and_its_locales_terms() -> None:
    assert bibliography(BILINGUAL, [SMITH]) == ["Ann SMITH, edition, 10/12, vol. 3!"]


def test_an_item_in_the_styles_own_language_takes_the_layout_without_a_locale() -> None:
    assert bibliography(BILINGUAL, [ZORN]) == ["Max ZORN, Auflage, 10/12, Bd. 3 von."]


def test_an_item_without_a_language_takes_the_layout_without_a_locale() -> None:
    assert bibliography(BILINGUAL, [BAUER]) == ["Eva BAUER, Auflage."]


def test_a_bare_language_listed_takes_every_region_of_it() -> None:
    # "fr" takes fr-CA; the layout renders in its first language's locale (en)
    assert bibliography(BILINGUAL, [INSTITUT]) == ["Institut national, edition!"]


def test_an_institution_is_written_as_given_beside_cs_institution() -> None:
    # without cs:institution the family name-part's uppercase would apply to it too
    assert bibliography(BILINGUAL, [INSTITUT])[0].startswith("Institut national")


def test_the_page_range_delimiter_is_the_styles_locales_in_every_layout() -> None:
    assert [entry.split(", ")[2] for entry in bibliography(BILINGUAL, [SMITH, ZORN])] == ["10/12", "10/12"]


def test_a_label_term_with_a_placeholder_is_written_around_the_number() -> None:
    assert bibliography(BILINGUAL, [ZORN])[0].endswith("Bd. 3 von.")


def test_bibliography_sorted_with_each_layout_for_its_item() -> None:
    assert bibliography(BILINGUAL, [ZORN, SMITH, BAUER, INSTITUT]) == [
        "Eva BAUER, Auflage.", "Institut national, edition!",
        "Ann SMITH, edition, 10/12, vol. 3!", "Max ZORN, Auflage, 10/12, Bd. 3 von."]


def test_citations_take_the_layout_of_each_items_language() -> None:
    processor = make_processor(BILINGUAL, [SMITH, ZORN])
    assert [processor.cite([{"id": key}]) for key in ("smith", "zorn")] == ["(Ann SMITH)", "(Max ZORN)"]


def test_sort_keys_are_written_in_the_styles_locale_not_the_items_layouts() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text"
        version="1.0" default-locale="de-DE">
      <info><id>sorting</id><title>Sorting</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <locale xml:lang="de"><terms><term name="anonymous">Zz</term></terms></locale>
      <macro name="author"><names variable="author"><substitute><text term="anonymous"/></substitute></names></macro>
      <citation><layout><text macro="author"/></layout></citation>
      <bibliography>
        <sort><key macro="author"/></sort>
        <layout locale="en"><group delimiter=". "><text macro="author"/><text variable="title"/></group></layout>
        <layout><group delimiter=". "><text macro="author"/><text variable="title"/></group></layout>
      </bibliography>
    </style>""")
    beowulf = {"id": "beowulf", "type": "book", "language": "en", "title": "Beowulf"}
    mann = {"id": "mann", "type": "book", "language": "de", "title": "Zauberberg",
            "author": [{"family": "Mann", "given": "Thomas"}]}
    # sorted by "Zz", the German term, though its layout would write the English one
    assert bibliography(style, [beowulf, mann]) == ["Thomas Mann. Zauberberg", "Beowulf"]


def test_default_locale_sort_collates_in_its_own_locale() -> None:
    def sorted_titles(style_attrs: str) -> list[str]:
        style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text"
            version="1.0" default-locale="en-US" {style_attrs}>
          <info><id>titles</id><title>Titles</title><updated>2026-01-01T00:00:00+00:00</updated></info>
          <citation><layout><text variable="title"/></layout></citation>
          <bibliography><sort><key variable="title"/></sort><layout><text variable="title"/></layout></bibliography>
        </style>""")
        return bibliography(style, [{"id": "zhang", "type": "book", "title": "张伯伟"},
                                    {"id": "chen", "type": "book", "title": "陈登原"}])

    assert sorted_titles('default-locale-sort="zh-CN"') == ["陈登原", "张伯伟"]  # pinyin: chén, zhāng
    assert sorted_titles("") == ["张伯伟", "陈登原"]  # English collation: Han by code point


ABBREVIATING = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>abbreviating</id><title>Abbreviating</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; ">
      <group delimiter=", ">
        <text variable="container-title" form="short"/>
        <text variable="publisher"/>
        <text variable="volume"/>
      </group>
    </layout>
  </citation>
</style>""")

ARTICLE = {"id": "article", "type": "article-journal", "container-title": "Journal of Irreproducible Results",
           "publisher": "Wiley", "volume": "12"}
LISTS = {"default": {"container-title": {"Journal of Irreproducible Results": "J. Irrep. Res."}},
         "us": {"container-title": {"Journal of Irreproducible Results": "!publisher>>>JIR"}}}


def test_a_short_form_from_the_abbreviation_lists_replaces_the_value() -> None:
    proc = make_processor(ABBREVIATING, [ARTICLE], abbreviations=LISTS)
    assert proc.cite([{"id": "article"}]) == "J. Irrep. Res., Wiley, 12"


def test_a_value_no_list_names_is_written_in_full() -> None:
    proc = make_processor(ABBREVIATING, [ARTICLE], abbreviations={"default": {"title": {"Other": "O."}}})
    assert proc.cite([{"id": "article"}]) == "Journal of Irreproducible Results, Wiley, 12"


def test_the_items_jurisdictions_list_comes_first_and_its_hint_quashes_a_variable() -> None:
    proc = make_processor(ABBREVIATING, [{**ARTICLE, "jurisdiction": "us"}], abbreviations=LISTS)
    assert proc.cite([{"id": "article"}]) == "JIR, 12"


NUMBERED_XML = """<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>numbered</id><title>Numbered</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography>
    <layout>
      <group delimiter=" ">
        <text variable="title"/>
        <label variable="number"/>
        <number variable="number" form="roman"/>
      </group>
    </layout>
  </bibliography>
</style>"""
NUMBERED = CslStyle.from_xml(NUMBERED_XML)


def test_a_label_a_number_starts_with_is_its_label_and_its_numbers_take_the_form() -> None:
    items = [{"id": "budget", "type": "report", "title": "Budget report", "number": "p. 101-105"}]
    assert bibliography(NUMBERED, items) == ["Budget report pages ci–cv"]


def test_a_label_within_a_number_is_the_short_term_and_its_numbers_stay_as_written() -> None:
    items = [{"id": "annual", "type": "report", "title": "Annual report", "number": "ch. 10 para. 1-6"}]
    assert bibliography(NUMBERED, items) == ["Annual report chapter x paras. 1–6"]


def test_a_label_term_with_a_placeholder_holds_each_number_within_a_number() -> None:
    style = CslStyle.from_xml(NUMBERED_XML.replace(
        "<citation>", '<locale><terms><term name="paragraph" form="short">[%s]</term></terms></locale><citation>'))
    items = [{"id": "annual", "type": "report", "title": "Annual report", "number": "ch. 10 para. 1-6"}]
    assert bibliography(style, items) == ["Annual report chapter x [1]–[6]"]


AUTHOR_DATE = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>author-date</id><title>Author-date</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; " prefix="(" suffix=")">
      <group delimiter=", ">
        <names variable="author"><name form="short"/></names>
        <date variable="issued"><date-part name="year"/></date>
      </group>
    </layout>
  </citation>
</style>""")

KESEY = {"id": "kesey", "type": "book", "author": [{"family": "Kesey", "given": "Ken"}],
         "issued": {"date-parts": [[1962]]}}
LE_GUIN = {"id": "leguin", "type": "book", "author": [{"family": "Le Guin", "given": "Ursula"}],
           "issued": {"date-parts": [[1969]]}}


def test_an_author_only_citation_is_its_first_authors_name_without_the_layouts_affixes() -> None:
    proc = make_processor(AUTHOR_DATE, [KESEY, LE_GUIN])
    assert proc.cite([{"id": "kesey", "author-only": True}, {"id": "leguin"}]) == "Kesey"


def test_a_citation_without_cites_is_empty() -> None:
    assert make_processor(AUTHOR_DATE, [KESEY]).cite([]) == ""


def test_a_citations_mode_applies_to_its_first_cite() -> None:
    proc = make_processor(AUTHOR_DATE, [KESEY, LE_GUIN])
    clusters = [{"citationItems": [{"id": "kesey"}], "properties": {"noteIndex": 0, "mode": "author-only"}},
                {"citationItems": [{"id": "kesey"}, {"id": "leguin"}],
                 "properties": {"noteIndex": 0, "mode": "suppress-author"}}]
    assert proc.cite_clusters(clusters) == ["Kesey", "(1962; Le Guin, 1969)"]


def _titles_style(bibliography_attrs: str = "") -> CslStyle:
    return CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>titles</id><title>Titles</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography {bibliography_attrs}>
    <sort><key variable="title"/></sort>
    <layout><text variable="title"/></layout>
  </bibliography>
</style>""")


SHELF = [
    {"id": "atlas", "type": "book", "title": "Atlas of Rivers", "categories": ["japanese"]},
    {"id": "budget", "type": "book", "title": "Budget Book", "categories": ["english"]},
    {"id": "cases", "type": "legal_case", "title": "Cases Decided", "jurisdiction": "us"},
    {"id": "diary", "type": "manuscript", "title": "Diary"},
]


def test_a_bibliography_section_selects_the_entries_all_its_tests_pass() -> None:
    selection = {"select": [{"field": "type", "value": "book"}, {"field": "categories", "value": "japanese"}]}
    assert make_processor(_titles_style(), SHELF).bibliography(selection) == ["Atlas of Rivers"]


def test_a_bibliography_section_quashes_the_entries_all_its_quash_tests_pass() -> None:
    selection = {"quash": [{"field": "type", "value": "manuscript"}, {"field": "issued", "value": ""}]}
    assert make_processor(_titles_style(), SHELF).bibliography(selection) == [
        "Atlas of Rivers", "Budget Book", "Cases Decided"]


def test_a_csl_m_bibliography_excludes_types_and_items_with_fields() -> None:
    style = _titles_style('exclude-types="manuscript" exclude-with-fields="jurisdiction"')
    assert make_processor(style, SHELF).bibliography() == ["Atlas of Rivers", "Budget Book"]


def test_a_cites_locator_is_written_once_by_cs_number_too() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>locators</id><title>Locators</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout>
      <group delimiter=", ">
        <text variable="title"/>
        <number variable="locator"/>
        <number variable="locator"/>
      </group>
    </layout>
  </citation>
</style>""")
    proc = make_processor(style, [{"id": "atlas", "type": "book", "title": "Atlas"}])
    assert proc.cite([{"id": "atlas", "locator": "12"}]) == "Atlas, 12"
