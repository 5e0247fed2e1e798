"""CSL-M's leading-noise-words: a title's leading "The" dropped or moved to its end, by the
noise words of the locale's style-options. Expected strings are citeproc-js's."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

STYLE = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
  <info><id>noise</id><title>Noise</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <locale xml:lang="en"><style-options leading-noise-words="a,an,the"/></locale>
  <citation><layout delimiter="; "><group delimiter=" / ">
    <text variable="title" leading-noise-words="demote"/>
    <text variable="title" leading-noise-words="drop"/>
    <text variable="title"/>
  </group></layout></citation>
</style>""")


def test_leading_noise_words_are_demoted_or_dropped_and_other_titles_left_alone() -> None:
    items = [{"id": "sea", "type": "book", "title": "The Old Man and the Sea"},
             {"id": "atlas", "type": "book", "title": "Atlas of the World"}]
    assert make_processor(STYLE, items).cite([{"id": "sea"}, {"id": "atlas"}]) == (
        "Old Man and the Sea, The / Old Man and the Sea / The Old Man and the Sea; "
        "Atlas of the World / Atlas of the World / Atlas of the World")
