"""CSL-M ``cs:institution``: an institution (a literal name, its subunits separated by "|")
written as the style's cs:institution says. Each expected string is what citeproc-js writes
for the same style, names and abbreviation lists."""

from __future__ import annotations

from typing import Any

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

MINISTRY = {"literal": "Big Ministry|Busy Committee|Tiny Subcommittee"}
WALKS = {"literal": "Ministry of Silly Walks"}
DOE = {"family": "Doe", "given": "Jane"}


def cite(names_xml: str, authors: list[dict[str, Any]], abbreviations: dict[str, Any] | None = None) -> str:
    style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>institutions</id><title>Institutions</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><names variable="author">{names_xml}</names></layout></citation>
</style>""")
    item = {"id": "report", "type": "report", "author": authors}
    return make_processor(style, [item], output="html", abbreviations=abbreviations or {}).cite([{"id": "report"}])


def test_without_cs_institution_the_subunits_are_joined_by_the_names_delimiter() -> None:
    assert cite("<name/>", [MINISTRY]) == "Big Ministry, Busy Committee, Tiny Subcommittee"


def test_use_last_writes_the_last_subunits() -> None:
    assert cite('<name/><institution use-last="1"/>', [MINISTRY]) == "Tiny Subcommittee"


def test_use_first_and_use_last_reversed_and_joined_by_the_part_separator() -> None:
    institution = '<institution use-first="1" use-last="1" reverse-order="true" part-separator=" of "/>'
    assert cite("<name/>" + institution, [MINISTRY]) == "Tiny Subcommittee of Big Ministry"


def test_short_parts_are_each_subunits_listed_short_form_split_at_its_bars() -> None:
    lists = {"default": {"institution-part": {"Ministry of Silly Walks": "MSW|Walks"}}}
    assert cite('<name/><institution institution-parts="short"/>',
                [{"literal": "Ministry of Silly Walks|Long Committee"}], lists) == "MSW, Walks, Long Committee"


def test_short_long_writes_the_long_form_in_its_if_short_formatting() -> None:
    institution = ('<institution institution-parts="short-long">'
                   '<institution-part name="long" if-short="true" prefix=" (" suffix=")"/></institution>')
    lists = {"default": {"institution-part": {"Ministry of Silly Walks": "MSW"}}}
    assert cite("<name/>" + institution, [WALKS], lists) == "MSW (Ministry of Silly Walks)"


def test_form_short_writes_the_whole_names_listed_short_form() -> None:
    lists = {"default": {"institution-entire": {"Ministry of Silly Walks": "Min. Silly Walks"}}}
    assert cite('<name/><institution form="short"/>', [WALKS], lists) == "Min. Silly Walks"


def test_an_institution_takes_its_institution_parts_formatting_not_cs_names() -> None:
    institution = '<institution><institution-part name="long" font-style="italic"/></institution>'
    assert cite('<name font-weight="bold"/>' + institution, [DOE, {"literal": "Facebook"}]) == \
        "<b>Jane Doe</b>, <i>Facebook</i>"


def test_cs_institutions_delimiter_and_delimiter_precedes_last_go_before_it() -> None:
    institution = '<institution delimiter="; " delimiter-precedes-last="always"/>'
    assert cite('<name and="text"/>' + institution, [DOE, {"literal": "Facebook"}]) == "Jane Doe; and Facebook"


def test_a_family_name_flagged_as_an_institution_is_one() -> None:
    author = {"family": "Big Ministry|Tiny Subcommittee", "isInstitution": True}
    assert cite('<name/><institution use-last="1"/>', [author]) == "Tiny Subcommittee"
