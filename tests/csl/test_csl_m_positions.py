"""Positions as citeproc-js gives them where the CSL specification is silent: no
first-reference-note-number for a cite whose first reference is in its own note, and the
near-note a cite states (as it may state its position)."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

SUPRA = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>supra</id><title>Supra</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; ">
      <choose>
        <if position="near-note">
          <group delimiter=", ">
            <text variable="title"/>
            <group delimiter=" ">
              <text value="supra"/>
              <group delimiter=" "><text value="note"/><text variable="first-reference-note-number"/></group>
            </group>
          </group>
        </if>
        <else><text variable="title"/></else>
      </choose>
    </layout>
  </citation>
</style>""")
ITEMS = [{"id": "atlas", "type": "book", "title": "Atlas"}, {"id": "budget", "type": "book", "title": "Budget"}]


def test_a_first_reference_in_the_same_note_has_no_number() -> None:
    # citeproc-js: "Atlas" (the supra group, its number empty, is left out); then "note 1"
    proc = make_processor(SUPRA, ITEMS)
    clusters = [{"citationItems": [{"id": "atlas"}, {"id": "budget"}, {"id": "atlas"}], "properties": {"noteIndex": 1}},
                {"citationItems": [{"id": "budget"}], "properties": {"noteIndex": 2}}]
    assert proc.cite_clusters(clusters) == ["Atlas; Budget; Atlas", "Budget, supra note 1"]


def test_a_cite_may_state_it_is_near_its_last_note() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
      <info><id>near</id><title>Near</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation><layout><choose>
        <if position="near-note"><text value="near"/></if><else><text value="far"/></else>
      </choose></layout></citation>
    </style>""")
    proc = make_processor(style, ITEMS)
    assert proc.cite([{"id": "atlas", "position": 1, "near-note": True}]) == "near"
    assert proc.cite([{"id": "atlas", "position": 1}]) == "far"
