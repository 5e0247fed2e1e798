"""CSL-M ``cs:group require="…"`` and ``reject="…"``, as citeproc-js decides them: a comma
before a locator where it is safe ("Civil Code, fol. 12"), none where a symbol or a number
follows a number ("Water Act 1991 § 12"), the style's ``require-comma-on-symbol`` asking for
one anyway. Each expected string is what citeproc-js writes for the same style and cite."""

from __future__ import annotations

from typing import Any

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle


def _style(groups: str, style_attrs: str = "") -> CslStyle:
    return CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0" {style_attrs}>
  <info><id>comma-safe</id><title>Comma-safe</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><group delimiter=", ">{groups}</group></layout></citation>
</style>""")


LABELLED = """
  <group delimiter=" ">
    <text variable="title"/>
    <group delimiter=" " reject="comma-safe">
      <label variable="locator" form="symbol"/><number variable="locator"/>
    </group>
  </group>
  <group delimiter=" " require="comma-safe">
    <label variable="locator" form="symbol"/><number variable="locator"/>
  </group>"""
NUMBERS_ONLY = """
  <group delimiter=" ">
    <text variable="title"/>
    <group reject="comma-safe-numbers-only"><number variable="locator"/></group>
  </group>
  <group require="comma-safe-numbers-only"><number variable="locator"/></group>"""
ITEMS = [{"id": "act", "type": "book", "title": "Water Act 1991"},
         {"id": "code", "type": "book", "title": "Civil Code"}]


def cite(style: CslStyle, **cite: Any) -> str:
    return make_processor(style, ITEMS, output="html").cite([cite])


def test_a_word_label_takes_the_comma() -> None:
    assert cite(_style(LABELLED), id="act", locator="12", label="folio") == "Water Act 1991, fol. 12"


def test_a_symbol_label_takes_no_comma() -> None:
    assert cite(_style(LABELLED), id="code", locator="12", label="section") == "Civil Code § 12"
    assert cite(_style(LABELLED), id="act", locator="12", label="section") == "Water Act 1991 § 12"


def test_require_comma_on_symbol_always_gives_a_symbol_the_comma() -> None:
    style = _style(LABELLED, 'require-comma-on-symbol="always"')
    assert cite(style, id="code", locator="12", label="section") == "Civil Code, § 12"


def test_a_bare_number_after_a_number_takes_the_comma() -> None:
    # (the group left out never wrote the locator, which a cite writes once: the next one does)
    assert cite(_style(NUMBERS_ONLY), id="act", locator="12") == "Water Act 1991, 12"


def test_a_bare_number_after_a_word_takes_no_comma() -> None:
    assert cite(_style(NUMBERS_ONLY), id="code", locator="12") == "Civil Code 12"


def test_numbers_only_refuses_the_comma_to_a_locator_that_starts_with_no_digit() -> None:
    assert cite(_style(NUMBERS_ONLY), id="act", locator="xii") == "Water Act 1991 xii"

