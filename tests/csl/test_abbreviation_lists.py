"""CSL-M abbreviation lists against the item's own short forms, as citeproc-js chooses
between them. Each expected string is what citeproc-js writes for the same style, items and
lists."""

from __future__ import annotations

from typing import Any

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle


def short(variable: str, item: dict[str, Any], lists: dict[str, Any]) -> str:
    style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>short</id><title>Short</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="{variable}" form="short"/></layout></citation>
</style>""")
    return make_processor(style, [{"id": "cited", **item}], abbreviations=lists).cite([{"id": "cited"}])


JOURNAL = {"type": "article-journal", "container-title": "Journal of Irreproducible Results",
           "journalAbbreviation": "JIR"}


def test_the_lists_short_form_of_the_value_comes_before_the_items_own_short_form() -> None:
    lists = {"default": {"container-title": {"Journal of Irreproducible Results": "J. Irrep. Res."}}}
    assert short("container-title", JOURNAL, lists) == "J. Irrep. Res."


def test_the_items_own_short_form_is_written_when_the_lists_have_none() -> None:
    lists = {"default": {"container-title": {"Annals of Improbable Research": "Ann. Improb. Res."}}}
    assert short("container-title", JOURNAL, lists) == "JIR"


def test_a_lowercase_jurisdiction_code_is_looked_up_in_uppercase() -> None:
    lists = {"default": {"place": {"US:NE": "Neb."}}}
    assert short("jurisdiction", {"type": "bill", "jurisdiction": "us:ne"}, lists) == "Neb."


def test_a_classics_names_and_title_give_way_to_its_listed_classic_form() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>classic</id><title>Classic</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout delimiter="; ">
    <group delimiter=" "><names variable="author"/><text variable="title"/></group>
  </layout></citation>
</style>""")
    items = [{"id": "blackstone", "type": "classic", "title": "Commentaries",
              "author": [{"family": "Blackstone", "given": "William"}]},
             {"id": "bankton", "type": "classic", "title": "Institute", "author": [{"family": "Bankton"}]}]
    lists = {"default": {"classic": {"William Blackstone, Commentaries": "Bl. Comm."}}}
    assert make_processor(style, items, abbreviations=lists).cite([{"id": "blackstone"}, {"id": "bankton"}]) == \
        "Bl. Comm.; Bankton Institute"
