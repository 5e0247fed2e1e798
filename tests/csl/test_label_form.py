"""CSL-M's label-form on a group or macro call: the form of the cs:labels within it, the
outermost one winning, and (as citeproc-js sets it on the enclosing group) of the labels
after it in that group too. Expected strings are citeproc-js's."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle


def cite(layout_xml: str) -> str:
    style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
  <info><id>label-form</id><title>Label form</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <locale><terms><term name="paragraph" form="symbol"><single>\u00b6</single><multiple>\u00b6\u00b6</multiple></term></terms></locale>
  <macro name="cite"><group delimiter=" "><label form="short" variable="locator"/><text variable="locator"/></group></macro>
  <macro name="middleman"><text label-form="long" macro="cite"/></macro>
  <citation><layout><group delimiter=" | ">{layout_xml}</group></layout></citation>
</style>""")
    item = {"id": "digest", "type": "book", "edition": "3", "volume": "2"}
    return make_processor(style, [item]).cite([{"id": "digest", "locator": "10", "label": "paragraph"}])


def test_the_outermost_label_form_is_the_form_of_the_labels_within() -> None:
    assert cite('<text label-form="symbol" macro="middleman"/>') == "\u00b6 10"


def test_a_label_form_holds_for_the_labels_after_it_in_the_enclosing_group() -> None:
    # (the symbol form, which edition and volume lack, falls back to the short one)
    assert cite('<text label-form="symbol" macro="middleman"/>'
                '<group label-form="long" delimiter=" "><number variable="edition"/><label variable="edition"/></group>'
                '<group delimiter=" "><number variable="volume"/><label variable="volume"/></group>') == \
        "\u00b6 10 | 3 ed. | 2 vol."


def test_a_label_form_set_within_a_group_ends_with_it() -> None:
    assert cite('<group><text label-form="short" macro="cite"/></group>'
                '<group delimiter=" "><number variable="volume"/><label variable="volume"/></group>') == \
        "para. 10 | 2 volume"
