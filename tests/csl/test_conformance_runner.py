"""The fixture runner (refbridge.csl.conformance) renders a fixture as citeproc-js's test
runner does: each cluster of CITATION-ITEMS as a citation of its own (makeCitationCluster:
no positions carried from one to the next), and a fixture making no citation as nothing."""

from __future__ import annotations

from pathlib import Path

from refbridge.csl.conformance import parse_fixture, render_fixture
from refbridge.csl.localization import LocaleStore

STYLE = """<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>runner</id><title>Runner</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout>
    <choose><if position="subsequent"><text value="Id."/></if><else><text variable="title"/></else></choose>
  </layout></citation>
</style>"""


def fixture(tmp_path: Path, sections: dict[str, str]) -> str:
    text = "".join(f">>===== {name} =====>>\n{body}\n<<===== {name} =====<<\n\n" for name, body in sections.items())
    path = tmp_path / "runner_fixture.txt"
    path.write_text(text, encoding="utf-8")
    return render_fixture(parse_fixture(path), LocaleStore())


def test_each_cluster_of_citation_items_is_a_citation_of_its_own(tmp_path: Path) -> None:
    got = fixture(tmp_path, {"MODE": "citation", "CSL": STYLE,
                             "INPUT": '[{"id": "atlas", "type": "book", "title": "Atlas"}]',
                             "CITATION-ITEMS": '[[{"id": "atlas"}], [{"id": "atlas"}]]'})
    assert got == "Atlas\nAtlas"


def test_a_fixture_making_no_citation_renders_nothing(tmp_path: Path) -> None:
    assert fixture(tmp_path, {"MODE": "citation", "CSL": STYLE, "INPUT": "[{}]", "CITATIONS": "[]"}) == ""


def test_a_processed_citation_rendering_nothing_is_citeproc_js_marker(tmp_path: Path) -> None:
    calls = ('[[{"citationID": "C1", "citationItems": [], "properties": {"noteIndex": 1}}, [], []],'
             ' [{"citationID": "C2", "citationItems": [{"id": "atlas"}], "properties": {"noteIndex": 2}},'
             ' [["C1", 1]], []]]')
    got = fixture(tmp_path, {"MODE": "citation", "CSL": STYLE,
                             "INPUT": '[{"id": "atlas", "type": "book", "title": "Atlas"}]', "CITATIONS": calls})
    assert got == "..[0] [NO_PRINTED_FORM]\n>>[1] Atlas"
