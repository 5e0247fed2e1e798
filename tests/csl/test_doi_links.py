"""A DOI written after a resolver prefix (``prefix="https://doi.org/"``) and linked, as
citeproc-js writes it whatever form the item gives the DOI in."""

from __future__ import annotations

import pytest

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

STYLE = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>doi</id><title>DOI</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography><layout><text variable="DOI" prefix="https://doi.org/"/></layout></bibliography>
</style>""")


def entry(doi: str) -> str:
    item = {"id": "atlas", "type": "book", "title": "Atlas", "DOI": doi}
    return make_processor(STYLE, [item], output="html", links=True).bibliography()[0]


@pytest.mark.parametrize("doi", ["10.1000/atlas", "http://doi.org/10.1000/atlas", "https://doi.org/10.1000/atlas"])
def test_a_doi_is_written_once_after_the_resolver(doi: str) -> None:
    assert entry(doi) == ('<div class="csl-entry"><a href="https://doi.org/10.1000/atlas">'
                          'https://doi.org/10.1000/atlas</a></div>')


def test_a_doi_given_as_another_resolvers_url_is_written_without_the_prefix() -> None:
    assert entry("https://dx.example.org/10.1000/atlas") == (
        '<div class="csl-entry"><a href="https://dx.example.org/10.1000/atlas">'
        'https://dx.example.org/10.1000/atlas</a></div>')
