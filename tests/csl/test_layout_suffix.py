"""The layout's suffix after an entry whose first element is a display block, as citeproc-js
writes it: it takes the place of the last element's own suffix, and an element within a
last element without one keeps its own."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle


def test_a_suffix_within_a_last_group_without_one_is_kept_before_the_layouts() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>suffix</id><title>Suffix</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography><layout suffix=".">
    <text variable="publisher" display="block"/>
    <group><group display="left-margin" prefix=" (" suffix=")"><text term="no date" form="short"/></group></group>
  </layout></bibliography>
</style>""")
    item = {"id": "report", "type": "report", "publisher": "Bureau of Statistics"}
    assert make_processor(style, [item], output="html").bibliography() == [
        '<div class="csl-entry">\n\n    <div class="csl-block">Bureau of Statistics</div>\n (n.d.).</div>']
