"""Names as citeproc-js writes them in cases its CSL-M fixtures check. Each expected string
is what citeproc-js writes for the same style and names."""

from __future__ import annotations

from typing import Any

import pytest

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle


def cite(name_xml: str, authors: list[dict[str, Any]]) -> str:
    style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>names</id><title>Names</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><names variable="author">{name_xml}</names></layout></citation>
</style>""")
    item = {"id": "life", "type": "book", "title": "His Anonymous Life", "author": authors}
    return make_processor(style, [item]).cite([{"id": "life"}])


@pytest.mark.parametrize(("name_xml", "expected"), [("<name/>", "John Doe et al."),
                                                   ('<name form="short"/>', "Doe et al.")])
def test_et_al_typed_after_a_given_name_ends_the_list_in_the_et_al_term(name_xml: str, expected: str) -> None:
    assert cite(name_xml, [{"family": "Doe", "given": "John, et al."}]) == expected


THREE = [{"family": "Doe", "given": "John"}, {"family": "Roe", "given": "Jane"}, {"family": "Poe", "given": "Edgar"}]


def titled(name_attrs: str) -> str:
    style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>names</id><title>Names</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><group delimiter=" / "><text variable="title"/>
    <names variable="author"><name {name_attrs}/><substitute><text value="Anon."/></substitute></names>
  </group></layout></citation>
</style>""")
    return make_processor(style, [{"id": "life", "type": "book", "title": "Life", "author": THREE}]).cite(
        [{"id": "life"}])


def test_suppress_min_leaves_out_a_list_of_at_least_that_many_names_without_substitute() -> None:
    assert titled('suppress-min="3"') == "Life"


def test_suppress_max_leaves_out_a_list_of_at_most_that_many_names() -> None:
    assert titled('suppress-max="3" form="count"') == "Life"


def test_a_list_longer_than_suppress_max_is_written() -> None:
    assert titled('suppress-max="2"') == "Life / John Doe, Jane Roe, Edgar Poe"


def test_is_plural_tests_whether_a_name_variable_holds_several_names() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>plural</id><title>Plural</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout delimiter="; "><group delimiter=" ">
    <names variable="author"/>
    <choose><if is-plural="author"><text value="are plural"/></if><else><text value="is singular"/></else></choose>
  </group></layout></citation>
</style>""")
    items = [{"id": "noakes", "type": "book", "author": [{"family": "Noakes", "given": "Richard"}]},
             {"id": "doe", "type": "book", "author": [{"family": "Doe", "given": "John"}, {"literal": "Big Co."}]},
             {"id": "anonymous", "type": "book"}]
    assert make_processor(style, items).cite([{"id": "noakes"}, {"id": "doe"}, {"id": "anonymous"}]) == \
        "Richard Noakes is singular; John Doe, Big Co. are plural"


@pytest.mark.parametrize(("author", "expected"), [({"family": "小泉", "given": "健一郎"}, "小泉【健】"),
                                                ({"family": "我妻", "given": "栄"}, "我妻栄"),
                                                ({"family": "Doe", "given": "John Robert"}, "【J】 【R】 Doe")])
def test_an_initialize_with_placeholder_holds_each_initial_and_a_cjk_given_names_first_character(
        author: dict[str, str], expected: str) -> None:
    assert cite('<name initialize-with="【%s】"/>', [author]) == expected
