"""The prefix and suffix a cite or a whole citation is given, as citeproc-js writes them:
a space where the typed affix lacks one, and in note styles parentheses that nest with the
style's own. Each expected string is what citeproc-js writes for the same style and cites."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle


def _style(class_: str) -> CslStyle:
    return CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="{class_}" version="1.0">
  <info><id>affixes</id><title>Affixes</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout prefix="(" suffix=")" delimiter="; ">
      <group delimiter=" ">
        <text variable="title"/>
        <date variable="issued" prefix="(" suffix=")"><date-part name="year"/></date>
      </group>
    </layout>
  </citation>
</style>""")


NOTE = _style("note")
IN_TEXT = _style("in-text")
ATLAS = {"id": "atlas", "type": "book", "title": "Atlas", "issued": {"date-parts": [[2000]]}}
BUDGET = {"id": "budget", "type": "book", "title": "Budget", "issued": {"date-parts": [[2001]]}}


def cite(style: CslStyle, *cites: dict[str, str]) -> str:
    return make_processor(style, [ATLAS, BUDGET], output="html").cite(list(cites))


def test_a_prefix_ending_in_a_word_is_followed_by_a_space() -> None:
    assert cite(IN_TEXT, {"id": "atlas", "prefix": "<i>see</i>"}) == "(<i>see</i> Atlas (2000))"


def test_a_prefixs_run_of_spaces_is_one_space() -> None:
    assert cite(IN_TEXT, {"id": "atlas", "prefix": "see  "}) == "(see Atlas (2000))"


def test_a_suffix_starting_with_a_word_is_preceded_by_a_space() -> None:
    assert cite(IN_TEXT, {"id": "atlas", "suffix": "passim"}) == "(Atlas (2000) passim)"


def test_a_suffix_starting_with_punctuation_is_joined_as_typed() -> None:
    assert cite(IN_TEXT, {"id": "atlas", "suffix": ", passim"}) == "(Atlas (2000), passim)"


def test_in_a_note_style_parentheses_opened_in_a_prefix_turn_those_nested_in_them_to_brackets() -> None:
    assert cite(NOTE, {"id": "atlas", "prefix": "compare (with"}, {"id": "budget", "suffix": ", too)"}) == \
        "(compare [with Atlas (2000); Budget (2001), too])"


def test_in_an_in_text_style_parentheses_stay_as_written() -> None:
    assert cite(IN_TEXT, {"id": "atlas", "prefix": "compare (with"}, {"id": "budget", "suffix": ", too)"}) == \
        "(compare (with Atlas (2000); Budget (2001), too))"


def test_a_citations_own_prefix_and_suffix_are_written_inside_the_layouts() -> None:
    cluster = {"citationItems": [{"id": "atlas"}], "properties": {"noteIndex": 1, "prefix": "Before:",
                                                                   "suffix": "after"}}
    assert make_processor(NOTE, [ATLAS]).cite_clusters([cluster]) == ["(Before: Atlas [2000] after)"]


def test_a_cite_may_state_the_note_it_was_first_cited_in() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>supra</id><title>Supra</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout>
      <group delimiter=", ">
        <text variable="title"/>
        <group delimiter=" "><text value="supra note"/><text variable="first-reference-note-number"/></group>
      </group>
    </layout>
  </citation>
</style>""")
    proc = make_processor(style, [ATLAS])
    assert proc.cite([{"id": "atlas", "position": 1, "first-reference-note-number": "3"}]) == \
        "Atlas, supra note 3"
