"""CSL-M ``label-form`` on a group or macro call, as citeproc-js sets it: the cs:label
elements take that form (unless their own is "static"), from there to the end of the group
or macro call it is in, an outer one first. Each expected string is what citeproc-js writes
for the same style and cite."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

ACT = {"id": "act", "type": "legislation", "title": "Water Act", "section": "4"}


def cite(calls: str) -> str:
    style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
      <info><id>label-form</id><title>Label form</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <macro name="section">
        <group delimiter=" "><label variable="section" form="short"/><text variable="section"/></group>
      </macro>
      <citation><layout><group delimiter=", "><text variable="title"/>{calls}</group></layout></citation>
    </style>""")
    return make_processor(style, [ACT]).cite([{"id": "act"}])


def test_a_macro_calls_label_form_is_its_labels_form() -> None:
    assert cite('<text macro="section" label-form="symbol"/>') == "Water Act, § 4"


def test_a_groups_label_form_is_its_labels_form() -> None:
    assert cite('<group label-form="long"><text macro="section"/></group>') == "Water Act, section 4"


def test_a_label_form_holds_to_the_end_of_the_group_it_is_in_and_an_outer_one_wins() -> None:
    assert cite('<text macro="section" label-form="symbol"/>'
                '<group label-form="long"><text macro="section"/></group>') == "Water Act, § 4, § 4"
    assert cite('<group><text macro="section" label-form="symbol"/></group><text macro="section"/>'
                '<group label-form="long"><text macro="section"/></group>') == "Water Act, § 4, sec. 4, section 4"


def test_a_numbers_label_form_is_the_form_of_the_labels_within_it() -> None:
    # as citeproc-js in the CSL-M fixture label_SectionFormPageOverride: a statute's section
    # "p. 825" before a paragraph locator, the paragraph's label within the number a symbol
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
      <info><id>statutes</id><title>Statutes</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>
        <layout>
          <group delimiter=" ">
            <text variable="title"/>
            <group delimiter=" ">
              <label form="symbol" variable="locator"/>
              <number label-form="symbol" variable="locator"/>
            </group>
          </group>
        </layout>
      </citation>
    </style>""")
    statute = {"id": "mann", "type": "legislation", "title": "Mann Act", "section": "p. 825"}
    assert make_processor(style, [statute]).cite([{"id": "mann", "label": "paragraph", "locator": "10"}]) == (
        "Mann Act p. 825 ¶ 10")
