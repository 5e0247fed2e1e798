"""CSL-M legal items in a CSL-M style (version 1.1m…), as citeproc-js cites them: a
statute's section is written before the cite's locator, each with its label, the locator's
label then read from what is written ("sec. 12 4", "chap. 3 para. 2"). Each expected string
is what citeproc-js writes for the same style and cite."""

from __future__ import annotations

from typing import Any

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

SECTIONS_XML = """<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
  <info><id>sections</id><title>Sections</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; ">
      <group delimiter=", ">
        <text variable="title"/>
        <group delimiter=" "><label form="short" variable="locator"/><number variable="locator"/></group>
      </group>
    </layout>
  </citation>
</style>"""
SECTIONS = CslStyle.from_xml(SECTIONS_XML)
ITEMS = [{"id": "act", "type": "legislation", "title": "Water Act", "section": "12"},
         {"id": "code", "type": "legislation", "title": "Civil Code", "section": "ch. 3"},
         {"id": "book", "type": "book", "title": "Rivers"}]


def cite(style: CslStyle = SECTIONS, **cite: Any) -> str:
    return make_processor(style, ITEMS).cite([cite])


def test_a_section_without_a_label_is_a_section() -> None:
    assert cite(id="act") == "Water Act, sec. 12"


def test_a_section_with_a_label_keeps_it() -> None:
    assert cite(id="code") == "Civil Code, chap. 3"


def test_the_section_comes_before_the_locator_and_a_page_label_is_dropped() -> None:
    assert cite(id="act", locator="4", label="page") == "Water Act, sec. 12 4"


def test_another_label_of_the_locator_is_written_after_the_section() -> None:
    assert cite(id="code", locator="2", label="paragraph") == "Civil Code, chap. 3 para. 2"


def test_other_items_and_csl_1_0_styles_keep_the_locator_alone() -> None:
    assert cite(id="book", locator="4", label="page") == "Rivers, p. 4"
    plain = CslStyle.from_xml(SECTIONS_XML.replace('version="1.1mlz1"', 'version="1.0"'))
    assert cite(plain, id="act", locator="4", label="page") == "Water Act, p. 4"


def test_an_authority_given_as_text_is_a_court_and_a_case_is_of_the_us_by_default() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
      <info><id>courts</id><title>Courts</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>
        <layout delimiter="; ">
          <group delimiter=", ">
            <names variable="authority"><name/><institution/></names>
            <text variable="number"/>
            <choose><if variable="jurisdiction"><text variable="jurisdiction"/></if></choose>
          </group>
        </layout>
      </citation>
    </style>""")
    case = {"id": "case", "type": "legal_case", "authority": "High Court", "number": "12/2001"}
    assert make_processor(style, [case]).cite([{"id": "case"}]) == "High Court, 12/2001, us"
