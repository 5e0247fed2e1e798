"""CSL-M locators as citeproc-js reads them: a "|" in a cite's locator starts its
locator-extra (a revision, a speaker), led by a locator-date when it starts with one
(YYYY-MM-DD); an ibid repeats a cite only with the same locator-extra. Each expected
string is what citeproc-js writes for the same style and citations."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

REVISIONS = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>revisions</id><title>Revisions</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; ">
      <choose>
        <if position="ibid"><text term="ibid"/></if>
        <else>
          <group delimiter=", ">
            <text variable="title"/>
            <group prefix="(" suffix=")"><date variable="locator-date" form="text"/></group>
            <text variable="locator-extra"/>
            <number variable="locator"/>
          </group>
        </else>
      </choose>
    </layout>
  </citation>
</style>""")
WIKI = {"id": "wiki", "type": "webpage", "title": "Pots"}


def test_a_locator_date_and_extra_follow_the_bar() -> None:
    proc = make_processor(REVISIONS, [WIKI])
    assert proc.cite([{"id": "wiki", "locator": "12|2001-02-16 rev. 3"}]) == "Pots, (February 16, 2001), rev. 3, 12"


def test_an_ibid_needs_the_same_locator_extra() -> None:
    proc = make_processor(REVISIONS, [WIKI])
    cited = proc.cite_clusters([[{"id": "wiki", "locator": "12|2001-02-16 rev. 3"}],
                                [{"id": "wiki", "locator": "12|2001-02-16 rev. 3"}],
                                [{"id": "wiki", "locator": "12|2001-02-16 rev. 4"}]])
    assert cited == ["Pots, (February 16, 2001), rev. 3, 12", "Ibid.", "Pots, (February 16, 2001), rev. 4, 12"]


def test_within_a_citation_too() -> None:
    proc = make_processor(REVISIONS, [WIKI])
    cites = [{"id": "wiki", "locator": "| Brown"}, {"id": "wiki", "locator": "| Smith"},
             {"id": "wiki", "locator": "| Smith"}]
    assert proc.cite(cites) == "Pots, Brown; Pots, Smith; ibid."
