"""CSL-M consolidation of bibliography entries, as citeproc-js does it: chapters of one
book counted (``container-multiple``), numbered (``container-subsequent``) or written as
one entry (``consolidate-containers``); in a CSL-M style (version 1.1m…) the sections of
one statute one entry. Each expected entry is what citeproc-js writes for the same style."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.consolidation import Containers, consolidated
from refbridge.csl.style import CslStyle

TIDES = {"id": "tides", "type": "chapter", "title": "Tides", "container-title": "Sea Atlas"}
REEFS = {"id": "reefs", "type": "chapter", "title": "Reefs", "container-title": "Sea Atlas"}
DUNES = {"id": "dunes", "type": "chapter", "title": "Dunes", "container-title": "Desert Notes"}


def test_chapters_of_one_book_are_one_entry_written_as_the_book() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
      <info><id>chapters</id><title>Chapters</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation><layout><text variable="title"/></layout></citation>
      <bibliography consolidate-containers="chapter">
        <layout>
          <choose>
            <if container-multiple="true"><text variable="container-title"/></if>
            <else><group delimiter=", "><text variable="title"/><text variable="container-title"/></group></else>
          </choose>
        </layout>
      </bibliography>
    </style>""")
    assert make_processor(style, [TIDES, REEFS, DUNES]).bibliography() == ["Sea Atlas", "Dunes, Desert Notes"]


TRACKING = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1"
    track-containers="chapter">
  <info><id>chapters</id><title>Chapters</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography>
    <layout>
      <group delimiter=" ">
        <text variable="title"/>
        <choose>
          <if container-subsequent="true"><text value="(see above)"/></if>
          <else><text variable="container-title"/></else>
        </choose>
      </group>
    </layout>
  </bibliography>
</style>""")


def test_a_later_chapter_of_a_tracked_book_knows_it_is_not_the_first() -> None:
    assert make_processor(TRACKING, [TIDES, REEFS]).bibliography() == ["Tides Sea Atlas", "Reefs (see above)"]


def test_the_sections_of_one_statute_are_one_entry_in_a_csl_m_style() -> None:
    sections = [{"id": f"act{n}", "type": "legislation", "title": "Water Act", "section": str(n)} for n in (1, 2)]
    assert make_processor(TRACKING, sections).bibliography() == ["Water Act"]


def test_consolidation_counts_every_chapter_and_places_those_written() -> None:
    items = {item["id"]: item for item in (TIDES, REEFS, DUNES)}
    containers = Containers(tracked=frozenset({"chapter"}))
    assert consolidated(["tides", "reefs", "dunes"], items, containers) == [
        ("tides", 2, 1), ("reefs", 2, 2), ("dunes", 1, 1)]
    merged = Containers(tracked=frozenset({"chapter"}), consolidated=frozenset({"chapter"}))
    assert consolidated(["tides", "reefs", "dunes"], items, merged) == [("tides", 2, 1), ("dunes", 1, 1)]


def test_a_chapter_first_cited_after_its_book_is_container_subsequent() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1"
        track-containers="chapter">
      <info><id>containers</id><title>Containers</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>
        <layout delimiter="; ">
          <choose>
            <if position="subsequent">
              <group delimiter=", ">
                <text variable="title"/>
                <group delimiter=" "><text value="supra note"/><text variable="first-reference-note-number"/></group>
              </group>
            </if>
            <else-if position="container-subsequent">
              <group delimiter=", ">
                <text variable="title"/>
                <group delimiter=" "><text value="in"/><text variable="container-title"/></group>
                <group delimiter=" ">
                  <text value="supra note"/><text variable="first-container-reference-note-number"/>
                </group>
              </group>
            </else-if>
            <else><group delimiter=", "><text variable="title"/><text variable="container-title"/></group></else>
          </choose>
        </layout>
      </citation>
    </style>""")
    proc = make_processor(style, [TIDES, REEFS])
    assert proc.cite_clusters([[{"id": "tides"}], [{"id": "reefs"}], [{"id": "tides"}], [{"id": "reefs"}]]) == [
        "Tides, Sea Atlas", "Reefs, in Sea Atlas, supra note 1", "Tides, supra note 1", "Reefs, supra note 2"]
