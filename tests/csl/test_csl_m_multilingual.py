"""CSL-M multilingual values, as citeproc-js shows them: an item's other forms of a value
(``multi._keys``, a name's ``multi._key``), the style's tags for transliterations and
translations (``default-locale="en-x-translit-ja-alalc97-x-translat-en"``) and the caller's
choice of the forms shown (``languages=LanguagePrefs.of(...)``, citeproc-js's
setLangPrefsForCites and setLangPrefsForCiteAffixes). The last tests run citeproc-js's own
fixtures of these behaviours when its repository's mirror is on this machine."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from refbridge.csl import make_processor
from refbridge.csl.conformance import _normalize, parse_fixture, render_fixture
from refbridge.csl.localization import LocaleStore
from refbridge.csl.multilingual import LanguagePrefs, LanguageTags, split_default_locale
from refbridge.csl.style import CslStyle

#: affixes of a translation added after the title: " [" and "]" (the 48 of citeproc-js)
_TRANSLATION_IN_BRACKETS = [None] * 22 + [" [", "]"] + [None] * 24


def _style(layout: str, locale: str = "en-x-translit-ja-alalc97-x-translat-en", class_: str = "note",
           sort: str = "") -> CslStyle:
    return CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="{class_}"
        version="1.0" default-locale="{locale}">
      <info><id>ml</id><title>ML</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>{sort}<layout delimiter="; ">{layout}</layout></citation>
    </style>""")


MINPO = {"id": "minpo", "type": "book", "title": "民法", "title-short": "民",
         "multi": {"_keys": {"title": {"ja-alalc97": "Minpō", "en": "Civil Code"},
                             "title-short": {"ja-alalc97": "Min"}}}}


def _cites(style: CslStyle, items: list[dict[str, Any]], prefs: LanguagePrefs | None = None,
           clusters: list[list[dict[str, Any]]] | None = None, output: str = "text") -> list[str]:
    proc = make_processor(style, items, output=output, languages=prefs)
    return proc.cite_clusters(clusters or [[{"id": item["id"]} for item in items]])


TRANSLIT_THEN_TRANSLATION = LanguagePrefs.of({"titles": ["translit", "translat"]}, _TRANSLATION_IN_BRACKETS)


def test_the_style_locale_is_read_without_its_private_use_tags() -> None:
    assert split_default_locale("en-US-x-translit-ja-alalc97-x-translat-en-x-translit-ja") == (
        "en-US", LanguageTags(translit=("ja-alalc97", "ja"), translat=("en",)))


def test_the_two_added_forms_are_put_in_the_order_orig_translit_translat() -> None:
    prefs = LanguagePrefs.of({"titles": ["orig", "translat", "translit"], "persons": ["translat", "orig"]})
    assert (prefs.slots("titles"), prefs.slots("persons"), prefs.slots("places")) == (
        ("orig", "translit", "translat"), ("translat", "orig"), ("orig",))


def test_without_a_choice_of_forms_a_value_is_written_as_given() -> None:
    assert _cites(_style('<text variable="title"/>'), [MINPO]) == ["民法"]


def test_a_first_note_cite_writes_the_chosen_form_then_the_added_form_between_its_affixes() -> None:
    style = _style('<text variable="title" font-style="italic" suffix="."/>')
    assert _cites(style, [MINPO], TRANSLIT_THEN_TRANSLATION, output="html") == ["<i>Minpō</i> [Civil Code]"]


def test_a_later_cite_writes_the_chosen_form_alone() -> None:
    style = _style('<text variable="title"/>')
    clusters = [[{"id": "minpo"}], [{"id": "minpo"}]]
    assert _cites(style, [MINPO], TRANSLIT_THEN_TRANSLATION, clusters) == ["Minpō [Civil Code]", "Minpō"]


def test_an_in_text_citation_writes_the_chosen_form_alone() -> None:
    style = _style('<text variable="title"/>', class_="in-text")
    assert _cites(style, [MINPO], TRANSLIT_THEN_TRANSLATION) == ["Minpō"]


def test_a_form_the_item_lacks_falls_back_to_the_value_as_given() -> None:
    item = {"id": "keiho", "type": "book", "title": "刑法", "multi": {"_keys": {"title": {"en": "Penal Code"}}}}
    assert _cites(_style('<text variable="title"/>'), [item], TRANSLIT_THEN_TRANSLATION) == ["刑法 [Penal Code]"]


def test_title_case_applies_to_an_english_form_only() -> None:
    item = {"id": "chinese", "type": "book", "title": "my title in chinese",
            "multi": {"main": {"title": "zh"}, "_keys": {"title": {"en": "my title in english"}}}}
    prefs = LanguagePrefs.of({"titles": ["orig", "translat"]}, _TRANSLATION_IN_BRACKETS)
    style = _style('<text variable="title" text-case="title"/>')
    assert _cites(style, [item], prefs) == ["my title in chinese [My Title in English]"]


def test_the_short_form_takes_the_short_titles_form_else_the_titles() -> None:
    style = _style('<text variable="title" form="short"/>')
    no_short_form = {**MINPO, "id": "other", "multi": {"_keys": {"title": {"ja-alalc97": "Keihō"}}}}
    prefs = LanguagePrefs.of({"titles": ["translit"]})
    assert _cites(style, [MINPO, no_short_form], prefs) == ["Min; Keihō"]


def test_sorting_reads_the_sort_form() -> None:
    style = _style('<text variable="title"/>', locale="en-x-sort-ja-hrkt",
                   sort='<sort><key variable="title"/></sort>')
    kana_a = {"id": "a", "type": "book", "title": "Zebra", "multi": {"_keys": {"title": {"ja-Hrkt": "あ"}}}}
    kana_o = {"id": "o", "type": "book", "title": "Aardvark", "multi": {"_keys": {"title": {"ja-Hrkt": "お"}}}}
    assert _cites(style, [kana_o, kana_a]) == ["Zebra; Aardvark"]


# -- citeproc-js's own fixtures -------------------------------------------------------------

_MIRROR = Path("/work/.mirror/Juris-M+citeproc-js/repo")
_LOCALES = Path(__file__).resolve().parents[2].parent / "shared" / "csl"
_FIXTURES = [
    "multilingual_TextCaseSuppressOnNonEnglishVariants", "multilingual_TitleWithAffixes",
    "multilingual_TextSecondaryExists", "citeprocjs_SecondaryOnShort", "multilingual_ShortTitleVariant",
    "multilingual_TextSortVariableExists", "multilingual_TextPrimaryExists", "multilingual_NameTransliteration",
    "multilingual_InstitutionalAuthors", "name_AsianEtAl", "name_VietnameseHungarianSimple", "name_Asian",
    "multilingual_NameSort", "textcase_LocaleUnicodeWithVariant", "language_ConditionSimple",
    "language_InterCiteJoins", "layout_MultipleAccessedUsesDefault", "magic_TitleLeadingNoiseWords",
]


@pytest.mark.parametrize("name", _FIXTURES)
def test_citeproc_js_fixture(name: str, tmp_path: Path) -> None:
    if not _MIRROR.is_dir() or not _LOCALES.is_dir():
        pytest.skip("needs citeproc-js's mirror and ../shared/csl")
    shown = subprocess.run(["git", f"--git-dir={_MIRROR}", "show", f"HEAD:fixtures/local/{name}.txt"],
                           check=False, capture_output=True, timeout=60)
    if shown.returncode:
        pytest.skip(f"{name} is not in the mirror")
    path = tmp_path / f"{name}.txt"
    path.write_bytes(shown.stdout)
    fixture = parse_fixture(path)
    got = render_fixture(fixture, LocaleStore(_LOCALES))
    assert _normalize(got) == _normalize(fixture.result)


def _names_style(name_attrs: str = "", options: str = "") -> CslStyle:
    locale = f"<locale><style-options {options}/></locale>" if options else ""
    return CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="note"
        version="1.0" default-locale="en-US-x-translit-ja-alalc97">
      <info><id>ml</id><title>ML</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      {locale}
      <citation><layout delimiter="; "><names variable="author"><name {name_attrs}/></names></layout></citation>
    </style>""")


KITANO = {"id": "kitano", "type": "book",
          "author": [{"family": "北野", "given": "武",
                      "multi": {"_key": {"ja-alalc97": {"family": "Kitano", "given": "Takeshi"}}}},
                     {"family": "Atkinson", "given": "Rowan"}]}


def test_a_names_chosen_form_is_written_and_the_original_after_it() -> None:
    prefs = LanguagePrefs.of({"persons": ["translit", "orig"]})
    assert _cites(_names_style(), [KITANO], prefs) == ["Takeshi Kitano 北野武, Rowan Atkinson"]


def test_a_name_without_the_chosen_form_is_written_as_given() -> None:
    prefs = LanguagePrefs.of({"persons": ["translat"]})
    assert _cites(_names_style(), [KITANO], prefs) == ["北野武, Rowan Atkinson"]


def test_a_locales_name_options_write_a_names_language_family_first_and_in_full() -> None:
    style = _names_style('initialize-with=". "', 'name-as-sort-order="ja" name-never-short="ja"')
    prefs = LanguagePrefs.of({"persons": ["translit"]})
    assert _cites(style, [KITANO], prefs) == ["Kitano Takeshi, R. Atkinson"]


def test_a_latin_name_in_japanese_is_written_family_name_first() -> None:
    musashi = {"id": "musashi", "type": "book",
               "author": [{"family": "Miyamoto", "given": "Musashi", "multi": {"_key": {}, "main": "ja"}}]}
    assert _cites(_names_style(), [musashi]) == ["Miyamoto Musashi"]


def test_an_items_language_the_locale_lists_writes_its_names_family_name_first() -> None:
    item = {"id": "hu", "type": "book", "language": "hu", "author": [{"family": "Kertész", "given": "Imre"}]}
    assert _cites(_names_style(options='name-as-sort-order="hu vi"'), [item]) == ["Kertész Imre"]


def test_names_sort_by_their_sort_form() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0"
        default-locale="en-US-x-sort-ja-hrkt">
      <info><id>ml</id><title>ML</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation><sort><key variable="author"/></sort>
        <layout delimiter="; "><names variable="author"><name/></names></layout></citation>
    </style>""")
    beat = {"id": "beat", "type": "book", "author": [
        {"family": "ビート", "given": "たけし", "multi": {"_key": {"ja-Hrkt": {"family": "びーと"}}}}]}
    kitano = {"id": "kitano", "type": "book", "author": [
        {"family": "北野", "given": "武", "multi": {"_key": {"ja-Hrkt": {"family": "きたの"}}}}]}
    assert _cites(style, [beat, kitano]) == ["北野武; ビートたけし"]


def test_the_callers_tags_replace_the_styles_and_a_forms_language_gives_its_letter_case() -> None:
    item = {"id": "tr", "type": "book", "title": "ia and ıb",
            "multi": {"main": {"title": "en"}, "_keys": {"title": {"tr": "ic and ıd"}}}}
    prefs = LanguagePrefs.of({"titles": ["orig", "translat"]}, _TRANSLATION_IN_BRACKETS, {"translat": ["tr"]})
    style = _style('<text variable="title" text-case="uppercase"/>', locale="en")
    assert _cites(style, [item], prefs) == ["IA AND IB [İC AND ID]"]


def test_a_locale_condition_takes_an_item_in_its_language_and_writes_the_branch_in_its_locale() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"
        default-locale="en-US">
      <info><id>ml</id><title>ML</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation><layout delimiter="; ">
        <choose>
          <if locale="de"><names variable="editor"><name/><label prefix=", " form="short"/></names></if>
          <else><names variable="editor"><name/><label prefix=", " form="short"/></names></else>
        </choose>
      </layout></citation>
    </style>""")
    german = {"id": "de", "type": "book", "language": "de-AT", "editor": [{"family": "Zorn", "given": "Max"}]}
    english = {"id": "en", "type": "book", "language": "en", "editor": [{"family": "Smith", "given": "Ann"}]}
    assert _cites(style, [german, english]) == ["Max Zorn, Hrsg.; Ann Smith, ed."]


_LAYOUTS = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0"
    default-locale="en-US">
  <info><id>ml</id><title>ML</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout locale="de" delimiter=" | " prefix="[" suffix="]">
      <choose><if position="ibid"><text term="ibid" default-locale="true"/></if>
        <else><text variable="title" quotes="true"/></else></choose>
    </layout>
    <layout delimiter="; " prefix="(" suffix=")">
      <choose><if position="ibid"><text term="ibid"/></if>
        <else><text variable="title" quotes="true"/></else></choose>
    </layout>
  </citation>
</style>""")
BUCH = {"id": "buch", "type": "book", "language": "de", "title": "Ein Buch"}
BOOK = {"id": "book", "type": "book", "language": "en", "title": "A Book"}


def test_quotes_in_a_language_layout_take_its_locales_marks() -> None:
    assert _cites(_LAYOUTS, [BUCH, BOOK], clusters=[[{"id": "buch"}, {"id": "book"}]]) == [
        "(„Ein Buch“ | “A Book”)"]


def test_a_cite_is_followed_by_its_own_layouts_delimiter() -> None:
    assert _cites(_LAYOUTS, [BUCH, BOOK], clusters=[[{"id": "book"}, {"id": "buch"}, {"id": "book"}]]) == [
        "(“A Book”; „Ein Buch“ | “A Book”)"]


def test_a_term_with_default_locale_is_the_styles_whatever_the_layout() -> None:
    # (a language layout has the default layout's prefix and its own suffix, as citeproc-js)
    assert _cites(_LAYOUTS, [BUCH], clusters=[[{"id": "buch"}], [{"id": "buch"}]]) == ["(„Ein Buch“]", "(Ibid.]"]


def test_a_date_with_default_locale_is_written_in_the_styles_locale_in_a_language_layout() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"
        default-locale="en-US">
      <info><id>ml</id><title>ML</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>
        <layout locale="fr" delimiter="; "><group delimiter=" ">
          <date variable="issued" form="text"/><date variable="accessed" form="text" default-locale="true"/>
        </group></layout>
        <layout delimiter="; "><date variable="issued" form="text"/></layout>
      </citation>
    </style>""")
    item = {"id": "fr", "type": "book", "language": "fr", "issued": {"date-parts": [[1894, 3, 24]]},
            "accessed": {"date-parts": [[2000, 2, 15]]}}
    assert _cites(style, [item]) == ["24 mars 1894 February 15, 2000"]


def test_leading_noise_words_of_the_locale_are_demoted_or_dropped() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"
        default-locale="en-US">
      <info><id>ml</id><title>ML</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <locale><style-options leading-noise-words="a,an,the"/></locale>
      <citation><layout><group delimiter=" / ">
        <text variable="title" leading-noise-words="demote"/><text variable="title" leading-noise-words="drop"/>
      </group></layout></citation>
    </style>""")
    item = {"id": "the", "type": "book", "title": "The Origin of Species"}
    assert _cites(style, [item]) == ["Origin of Species, The / Origin of Species"]
