"""cs:number as citeproc-js writes it: a page range in the style's page-range-format,
whether typed with a hyphen or an en dash; CSL-M's substring of a value."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle


def test_cs_number_writes_a_page_range_in_the_page_range_format() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0"
      page-range-format="chicago">
  <info><id>pages</id><title>Pages</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout delimiter="; "><number variable="page"/></layout></citation>
</style>""")
    items = [{"id": "hyphen", "type": "book", "page": "437-472"}, {"id": "dash", "type": "book", "page": "321\u2013328"}]
    assert make_processor(style, items).cite([{"id": "hyphen"}, {"id": "dash"}]) == "437\u201372; 321\u201328"


def test_cs_number_substring_writes_the_value_from_that_character_on() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
  <info><id>substring</id><title>Substring</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><group delimiter=" ">
    <number variable="number" substring="-3" prefix="\u2019"/>
    <number variable="volume" substring="2"/>
  </group></layout></citation>
</style>""")
    item = {"id": "serial", "type": "book", "number": "123-456-789", "volume": "2002"}
    assert make_processor(style, [item]).cite([{"id": "serial"}]) == "\u2019789 02"
