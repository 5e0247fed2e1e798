"""What the engine decides from a style about items without an element's variables
(``refbridge.csl.reach``), and that skipping what it finds empty changes no rendering."""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

import pytest
from support import ROOT

from refbridge.csl import CslStyle, make_processor
from refbridge.csl import nodes as csl_nodes
from refbridge.csl.reach import MAYBE, NO, YES, Reach

sys.path.insert(0, str(ROOT / "benchmarks"))

import csl_parity


def layout_element(xml: str) -> Any:
    """The first compiled element of a bibliography layout holding *xml*."""
    style = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
        "<info><id>test</id><title>Test</title></info>"
        f'<citation><layout><text value="x"/></layout></citation>'
        f"<bibliography><layout>{xml}</layout></bibliography></style>", source="test")
    assert style.bibliography is not None
    return style.bibliography.layout[0]


def gate(xml: str) -> Reach | None:
    return layout_element(xml).gate  # type: ignore[no-any-return]


# -- what a group reads -------------------------------------------------------------------


def test_a_group_of_a_variable_is_skipped_by_that_variable() -> None:
    found = gate('<group><text variable="volume"/></group>')
    assert found == Reach(frozenset({"volume"}), YES, NO, True)


def test_a_term_beside_a_variable_vanishes_with_the_group() -> None:
    found = gate('<group delimiter=" "><text term="volume"/><text variable="volume"/></group>')
    assert found is not None and found.keys == {"volume"} and found.calls == YES


def test_a_group_of_terms_alone_is_never_skipped() -> None:
    assert gate('<group><text term="in"/><text value="x"/></group>') is None


def test_a_short_title_reads_the_legacy_short_title_keys() -> None:
    found = gate('<group><text variable="title" form="short"/></group>')
    assert found is not None and found.keys == {"title", "title-short", "shortTitle"}


def test_the_first_page_reads_the_page() -> None:
    found = gate('<group><text variable="page-first"/></group>')
    assert found is not None and found.keys == {"page-first", "page"}


def test_a_date_is_read_under_its_own_key() -> None:
    found = gate('<group><date variable="issued"><date-part name="year"/></date></group>')
    assert found is not None and found.keys == {"issued"}


# -- what a choice decides -------------------------------------------------------------------


def test_a_choice_on_missing_variables_without_else_renders_nothing_and_calls_nothing() -> None:
    found = gate('<group><choose><if variable="edition"><text term="edition"/></if>'
                 "</choose></group>")
    # (a group that renders nothing and calls nothing resets its parent's calls: see Reach.resets)
    assert found == Reach(frozenset({"edition"}), NO, NO, True, resets=YES)


def test_a_choice_taking_its_else_for_missing_variables_is_read_through_the_else() -> None:
    found = gate('<group><choose><if variable="edition"><text term="edition"/></if>'
                 '<else><text variable="volume"/></else></choose></group>')
    assert found == Reach(frozenset({"edition", "volume"}), YES, NO, True)


def test_a_choice_on_the_type_keeps_every_branch_it_may_take() -> None:
    element = layout_element('<choose><if type="book"><text variable="volume"/></if></choose>')
    assert element.reach == Reach(frozenset({"volume"}), MAYBE, NO, True)
    assert element.gate is None  # (whether it calls a variable depends on the type)


def test_a_match_none_of_missing_variables_is_true() -> None:
    found = gate('<group><choose><if match="none" variable="edition"><text term="in"/></if>'
                 "</choose></group>")
    assert found is None  # (its term is written, and counts for the group: not known here)


def test_a_disambiguate_test_is_never_skipped_since_it_is_counted() -> None:
    assert gate('<group><choose><if disambiguate="true"><text variable="volume"/></if>'
                "</choose></group>") is None


def test_the_year_suffix_is_never_skipped() -> None:
    assert gate('<group><text variable="year-suffix"/><text variable="volume"/></group>') is None


def test_the_citation_number_is_never_skipped() -> None:
    assert gate('<group><text variable="citation-number"/></group>') is None


# -- names ---------------------------------------------------------------------------------


def test_names_with_names_substitutes_read_every_variable_they_may_write() -> None:
    found = gate('<group><names variable="author"><substitute><names variable="editor"/>'
                 '<text variable="title"/></substitute></names></group>')
    assert found is not None and found.keys == {"author", "editor", "title"} and found.names


def test_names_substituted_by_a_term_are_never_skipped() -> None:
    assert gate('<group><names variable="author"><substitute><text term="anonymous"/>'
                "</substitute></names></group>") is None


# -- skipping changes nothing ------------------------------------------------------------------


def test_a_group_skipped_inside_a_group_suppresses_the_outer_group_as_rendering_it_would() -> None:
    layout = ('<group delimiter=" "><text term="in"/>'
              '<group><text variable="volume"/></group></group>'
              '<text variable="title" prefix="|"/>')
    style = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
        '<info><id>t</id><title>T</title></info><citation><layout><text value="x"/></layout>'
        f"</citation><bibliography><layout>{layout}</layout></bibliography></style>", source="t")
    items = [{"id": "a", "type": "book", "title": "Walden"},
             {"id": "b", "type": "book", "title": "Emma", "volume": "2"}]
    assert make_processor(style, items).bibliography() == ["|Walden", "In 2|Emma"]


@cache
def catalogue() -> dict[str, csl_parity.StyleCase]:
    return {case.id: case for case in csl_parity.catalogue_cases()}


STYLES = ("apa", "chicago-notes-bibliography-17th-edition", "ieee", "nature",
          "modern-language-association", "harvard-cite-them-right", "mhra-notes", "oscola",
          "american-medical-association", "chicago-author-date", "elsevier-harvard",
          "springer-basic-author-date", "american-sociological-association")


@pytest.mark.parametrize("style_id", STYLES)
def test_skipping_what_an_item_cannot_fill_changes_no_rendering(
        style_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    case = catalogue().get(style_id)
    if case is None:
        pytest.skip(f"{style_id} is not in the installed catalogue")
    items, _ = csl_parity.read_as_refbridge(csl_parity.load_items([csl_parity.LIBRARY]))
    sequence = csl_parity.citation_sequence(items)
    skipping = [csl_parity.ours(case, items, sequence, output) for output in ("text", "html")]
    monkeypatch.setattr(csl_nodes, "_skipped", lambda gate, ctx: False)
    walking = [csl_parity.ours(case, items, sequence, output) for output in ("text", "html")]
    assert skipping == walking
    assert all(rendering.error is None for rendering in skipping)
