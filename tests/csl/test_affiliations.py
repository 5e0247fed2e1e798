"""Names with affiliations (citeproc-js's spoof_institutional_affiliations, make_processor's
``affiliations``): the persons named before an institution are its members. Each expected
string is what citeproc-js writes with that option for the same style and names."""

from __future__ import annotations

from typing import Any

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

ROE = {"family": "Roe", "given": "Jane"}
DOE = {"family": "Doe", "given": "John"}
NOAKES = {"family": "Noakes", "given": "Richard"}
MINISTRY = {"literal": "Big Ministry"}
DOE_CO = {"literal": "Doe & Co."}


def cite(layout_xml: str, authors: list[dict[str, Any]], affiliations: bool = True) -> str:
    style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>affiliations</id><title>Affiliations</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout>{layout_xml}</layout></citation>
</style>""")
    item = {"id": "report", "type": "report", "author": authors}
    return make_processor(style, [item], affiliations=affiliations).cite([{"id": "report"}])


def test_a_person_before_an_institution_is_its_member() -> None:
    assert cite('<names variable="author"><name and="text"/></names>', [ROE, MINISTRY]) == "Jane Roe, Big Ministry"


def test_without_affiliations_the_institution_is_one_more_name() -> None:
    assert cite('<names variable="author"><name and="text"/></names>', [ROE, MINISTRY], affiliations=False) == \
        "Jane Roe and Big Ministry"


def test_persons_after_the_last_institution_are_written_first_with_it() -> None:
    assert cite('<names variable="author"><name and="text"/></names>', [ROE, MINISTRY, NOAKES]) == \
        "Richard Noakes with Jane Roe, Big Ministry"


def test_institutions_are_joined_by_cs_institutions_and() -> None:
    names = '<names variable="author"><name and="symbol"/><institution and="text"/></names>'
    authors = [{"literal": "Alpha Co"}, {"literal": "Beta Co"}, {"literal": "Gamma Co"}]
    assert cite(names, authors) == "Alpha Co, Beta Co, and Gamma Co"


def test_the_members_of_an_institution_are_cut_by_the_et_al_rules_on_their_own() -> None:
    names = '<names variable="author"><name and="symbol" et-al-min="2" et-al-use-first="1"/></names>'
    assert cite(names, [ROE, DOE, MINISTRY]) == "Jane Roe et al., Big Ministry"


def test_an_institutions_suppress_min_of_0_leaves_out_the_institutions() -> None:
    names = '<names variable="author"><name and="symbol"/><institution suppress-min="0"/></names>'
    assert cite(names, [DOE, DOE_CO, ROE, MINISTRY, NOAKES]) == "Richard Noakes, John Doe, & Jane Roe"


def test_a_person_and_their_institution_are_not_plural() -> None:
    layout = ('<group delimiter=" "><names variable="author"/><choose><if is-plural="author">'
              '<text value="are"/></if><else><text value="is"/></else></choose></group>')
    assert cite(layout, [ROE, MINISTRY]) == "Jane Roe, Big Ministry is"
