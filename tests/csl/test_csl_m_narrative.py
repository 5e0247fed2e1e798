"""Citation properties as citeproc-js reads them: an author-only citation takes the CSL-M
``cs:intext`` layout (unformatted), a "composite" citation is the author, the infix and the
citation without that author, an author-only citation is no cite an ibid looks back at, and
an "unsorted" citation keeps its order. Each expected string is what citeproc-js writes for
the same style and citations (HTML)."""

from __future__ import annotations

from typing import Any

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

NARRATIVE = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>narrative</id><title>Narrative</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout prefix="(" suffix=")" delimiter="; ">
      <choose>
        <if position="ibid"><text value="ibid"/></if>
        <else>
          <group delimiter=", ">
            <names variable="author"><name form="short" font-style="italic"/></names>
            <date variable="issued" date-parts="year" form="text"/>
          </group>
        </else>
      </choose>
    </layout>
  </citation>
  <intext>
    <layout><names variable="author"><name/></names></layout>
  </intext>
</style>""")

ITEMS = [{"id": "kesey", "type": "book", "author": [{"family": "Kesey", "given": "Ken"}],
          "issued": {"date-parts": [[1962]]}},
         {"id": "leguin", "type": "book", "author": [{"family": "Le Guin", "given": "Ursula"}],
          "issued": {"date-parts": [[1969]]}},
         {"id": "anon", "type": "book", "title": "Beowulf", "issued": {"date-parts": [[1999]]}}]


def _citation(*keys: str, **properties: Any) -> dict[str, Any]:
    return {"citationItems": [{"id": key} for key in keys], "properties": {"noteIndex": 0, **properties}}


def cited(*citations: dict[str, Any]) -> list[str]:
    return make_processor(NARRATIVE, ITEMS, output="html").cite_clusters(citations)


def test_an_author_only_citation_takes_the_intext_layout_unformatted() -> None:
    assert cited(_citation("kesey", mode="author-only")) == ["Ken Kesey"]


def test_a_composite_citation_is_the_author_the_infix_and_the_rest() -> None:
    citation = _citation("kesey", "leguin", mode="composite", infix="'s early work")
    citation["citationItems"][1]["prefix"] = "cf. "
    assert cited(citation) == ["Ken Kesey’s early work (1962; cf. <i>Le Guin</i>, 1969)"]


def test_an_author_only_citation_of_an_item_without_author_is_citeproc_js_marker() -> None:
    assert cited(_citation("anon", mode="author-only")) == ["[NO_PRINTED_FORM]"]


def test_an_ibid_looks_back_past_an_author_only_citation() -> None:
    assert cited(_citation("kesey"), _citation("leguin", mode="author-only"), _citation("kesey")) == [
        "(<i>Kesey</i>, 1962)", "Ursula Le Guin", "(ibid)"]


def test_an_author_only_citation_is_never_an_ibid() -> None:
    assert cited(_citation("kesey"), _citation("kesey", mode="author-only")) == ["(<i>Kesey</i>, 1962)", "Ken Kesey"]


def test_an_unsorted_citation_keeps_the_order_of_its_cites() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
      <info><id>sorted</id><title>Sorted</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>
        <sort><key variable="title"/></sort>
        <layout prefix="(" suffix=")" delimiter="; "><text variable="title"/></layout>
      </citation>
    </style>""")
    items = [{"id": "zebra", "type": "book", "title": "Zebra"}, {"id": "aardvark", "type": "book", "title": "Aardvark"}]
    cites = [{"id": "zebra"}, {"id": "aardvark"}]
    assert make_processor(style, items).cite_clusters([
        {"citationItems": cites, "properties": {"noteIndex": 0, "unsorted": True}},
        {"citationItems": cites, "properties": {"noteIndex": 0}}]) == ["(Zebra; Aardvark)", "(Aardvark; Zebra)"]


def test_suppress_author_takes_the_first_names_written_after_empty_ones() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
      <info><id>roles</id><title>Roles</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>
        <layout prefix="(" suffix=")" delimiter="; ">
          <group delimiter=", ">
            <names variable="author"><name form="short"/></names>
            <names variable="editor"><name form="short"/><label prefix=" (" suffix=")"/></names>
            <names variable="translator"><name form="short"/><label prefix=" (" suffix=")"/></names>
            <date variable="issued" date-parts="year" form="text"/>
          </group>
        </layout>
      </citation>
    </style>""")
    anthology = {"id": "anthology", "type": "book", "editor": [{"family": "Colby", "given": "Ann"}],
                 "translator": [{"family": "Dorn", "given": "Eli"}], "issued": {"date-parts": [[1990]]}}
    proc = make_processor(style, [anthology])
    assert proc.cite([{"id": "anthology", "suppress-author": True}]) == "(Dorn (translator), 1990)"


def test_an_author_only_cite_without_names_is_its_date_if_that_comes_first() -> None:
    def author_only(fields: str) -> str:
        style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
          <info><id>author-date</id><title>Author-date</title><updated>2026-01-01T00:00:00+00:00</updated></info>
          <citation><layout prefix="(" suffix=")"><group delimiter=", ">{fields}</group></layout></citation>
        </style>""")
        beowulf = {"id": "beowulf", "type": "book", "title": "Beowulf", "issued": {"date-parts": [[1999]]}}
        return make_processor(style, [beowulf]).cite_clusters([_citation("beowulf", mode="author-only")])[0]

    names = '<names variable="author"><name/></names>'
    date = '<date variable="issued" date-parts="year" form="text"/>'
    title = '<text variable="title"/>'
    assert author_only(names + date + title) == "1999"
    assert author_only(title + names + date) == "[NO_PRINTED_FORM]"
