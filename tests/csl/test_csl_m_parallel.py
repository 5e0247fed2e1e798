"""CSL-M parallel citations, as citeproc-js writes them: the reports of one case (an item and
those its ``seeAlso`` lists) cited side by side read as one citation, the parts they share
written once (``parallel-first``, ``parallel-last``), a group's parts left out where the cite
before wrote the same (``no-repeat``), the delimiter between them the style's
(``parallel-delimiter-override``), and an ibid after a parallel looking past its other reports.
Each expected citation is what citeproc-js writes for the same style and cites."""

from __future__ import annotations

from typing import Any

from refbridge.csl import make_processor
from refbridge.csl.parallel import repeat_marks
from refbridge.csl.style import CslStyle

CASES_XML = """<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>cases</id><title>Cases</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; " suffix=".">
      <choose>
        <if position="ibid-with-locator">
          <group delimiter=" "><text value="Id. at"/><number variable="locator"/></group>
        </if>
        <else-if position="subsequent">
          <group delimiter=" " parallel-delimiter-override=", ">
            <number variable="volume"/>
            <text variable="container-title"/>
            <number variable="locator"/>
          </group>
        </else-if>
        <else>
          <group delimiter=", ">
            <group parallel-first="title" parallel-delimiter-override=", ">
              <text variable="title"/>
            </group>
            <group delimiter=" ">
              <number variable="volume"/>
              <text variable="container-title"/>
              <number variable="page"/>
              <group parallel-last="issued">
                <date variable="issued" date-parts="year" form="text" prefix="(" suffix=")"/>
              </group>
            </group>
          </group>
        </else>
      </choose>
    </layout>
  </citation>
</style>"""
CASES = CslStyle.from_xml(CASES_XML)


def _report(key: str, volume: str, reporter: str, page: str, see_also: list[str]) -> dict[str, Any]:
    return {"id": key, "type": "legal_case", "title": "Hale v. Marsh", "volume": volume,
            "container-title": reporter, "page": page, "issued": {"date-parts": [[1971]]},
            "seeAlso": see_also}


US = _report("us", "402", "U.S.", "118", ["led"])
LED = _report("led", "29", "L.Ed.2d", "309", ["us"])
OTHER = {"id": "other", "type": "legal_case", "title": "Quill v. Dorn", "volume": "410",
         "container-title": "U.S.", "page": "7", "issued": {"date-parts": [[1973]]}}


def test_the_reports_of_one_case_share_its_title_and_year() -> None:
    proc = make_processor(CASES, [US, LED])
    assert proc.cite([{"id": "us"}, {"id": "led"}]) == "Hale v. Marsh, 402 U.S. 118, 29 L.Ed.2d 309 (1971)."


def test_a_case_without_parallels_is_written_whole_beside_them() -> None:
    proc = make_processor(CASES, [US, LED, OTHER])
    assert proc.cite([{"id": "other"}, {"id": "us"}, {"id": "led"}]) == (
        "Quill v. Dorn, 410 U.S. 7 (1973); Hale v. Marsh, 402 U.S. 118, 29 L.Ed.2d 309 (1971).")


def test_a_case_between_a_first_report_and_its_other_joins_their_parallel_as_in_citeproc_js() -> None:
    # citeproc-js's StartCitation: the end found at the first cite (index 0) counts as none,
    # so the parallel runs on to the other report, and every cite between takes its delimiter
    proc = make_processor(CASES, [US, LED, OTHER])
    assert proc.cite([{"id": "us"}, {"id": "other"}, {"id": "led"}]) == (
        "Hale v. Marsh, 402 U.S. 118 (1971), Quill v. Dorn, 410 U.S. 7 (1973), Hale v. Marsh, 29 L.Ed.2d 309 (1971).")


def test_an_ibid_after_a_parallel_looks_back_at_its_first_report() -> None:
    proc = make_processor(CASES, [US, LED])
    cites = [{"id": "us", "locator": "120"}, {"id": "led", "locator": "311"},
             {"id": "us", "locator": "125"}, {"id": "led", "locator": "315"}]
    assert proc.cite(cites) == "Hale v. Marsh, 402 U.S. 118, 29 L.Ed.2d 309 (1971); Id. at 125, 29 L.Ed.2d 315."


NO_REPEAT_XML = """<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><id>courts</id><title>Courts</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; ">
      <group delimiter=", ">
        <group no-repeat="publisher" parallel-delimiter-override-on-suppress=", ">
          <text variable="publisher"/>
        </group>
        <text variable="number"/>
      </group>
    </layout>
  </citation>
</style>"""
NO_REPEAT = CslStyle.from_xml(NO_REPEAT_XML)


def test_no_repeat_leaves_out_what_the_cite_before_wrote_and_its_delimiter_follows() -> None:
    items = [{"id": "a", "type": "legal_case", "publisher": "High Court", "number": "12/2001"},
             {"id": "b", "type": "legal_case", "publisher": "High Court", "number": "40/2002"},
             {"id": "c", "type": "legal_case", "publisher": "Court of Appeal", "number": "7/2003"}]
    proc = make_processor(NO_REPEAT, items)
    assert proc.cite([{"id": "a"}, {"id": "b"}, {"id": "c"}]) == (
        "High Court, 12/2001, 40/2002; Court of Appeal, 7/2003")


def test_repeat_marks_compare_each_cite_with_the_next_and_mark_the_parallel() -> None:
    marks, roles = repeat_marks([OTHER, US, LED], frozenset({"title", "issued", "volume"}))
    assert roles == [None, "first", "other"]
    assert [sorted(mark.same) for mark in marks] == [[], ["issued", "title"]]
    assert [(mark.start, mark.sibling, mark.orphan) for mark in marks] == [(True, False, True), (False, True, False)]


def test_a_parallel_cited_is_one_bibliography_entry() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
      <info><id>cases</id><title>Cases</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation><layout delimiter="; "><text variable="title"/></layout></citation>
      <bibliography>
        <layout suffix=".">
          <group delimiter=", ">
            <group parallel-first="title"><text variable="title"/></group>
            <group delimiter=" ">
              <text variable="volume"/>
              <text variable="container-title"/>
              <text variable="page"/>
              <group parallel-last="issued">
                <date variable="issued" date-parts="year" form="text" prefix="(" suffix=")"/>
              </group>
            </group>
          </group>
        </layout>
      </bibliography>
    </style>""")
    uncited = make_processor(style, [US, LED])
    assert uncited.bibliography() == ["Hale v. Marsh, 402 U.S. 118 (1971).", "Hale v. Marsh, 29 L.Ed.2d 309 (1971)."]
    cited = make_processor(style, [US, LED])
    assert cited.cite([{"id": "us"}, {"id": "led"}]) == "Hale v. Marsh; Hale v. Marsh"
    assert cited.bibliography() == ["Hale v. Marsh, 402 U.S. 118, 29 L.Ed.2d 309 (1971)."]


def test_parallel_last_to_first_drops_a_year_a_vendor_neutral_cite_holds_for_the_rest_of_its_parallel() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
      <info><id>neutral</id><title>Neutral</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>
        <layout delimiter=", ">
          <group delimiter=", ">
            <group parallel-first="title"><text variable="title" font-style="italic"/></group>
            <choose>
              <if variable="collection-number">
                <group delimiter="-" parallel-last-to-first="issued">
                  <number variable="collection-number"/><text value="Ohio"/><number variable="page"/>
                </group>
              </if>
              <else>
                <group delimiter=" ">
                  <number variable="volume"/>
                  <text variable="container-title"/>
                  <number variable="page"/>
                  <group prefix="(" suffix=")" parallel-last="issued">
                    <date variable="issued" form="text" date-parts="year"/>
                  </group>
                </group>
              </else>
            </choose>
          </group>
        </layout>
      </citation>
    </style>""")
    case = {"type": "legal_case", "title": "Byer v. Wright", "issued": {"date-parts": [[2005]]}}
    items = [{**case, "id": "ohio", "container-title": "Ohio App.3d", "volume": "160", "page": "472",
              "seeAlso": ["neutral", "ne"]},
             {**case, "id": "neutral", "collection-number": "2005", "page": "1797", "seeAlso": ["ohio", "ne"]},
             {**case, "id": "ne", "container-title": "N.E.2d", "volume": "827", "page": "835",
              "seeAlso": ["ohio", "neutral"]},
             {"id": "other", "type": "legal_case", "title": "Quill v. Dorn", "container-title": "N.E.2d",
              "volume": "111", "page": "222", "issued": {"date-parts": [[2005]]}}]
    proc = make_processor(style, items, output="html")
    assert proc.cite([{"id": key} for key in ("ohio", "neutral", "ne", "other")]) == (
        "<i>Byer v. Wright</i>, 160 Ohio App.3d 472, 2005-Ohio-1797, 827 N.E.2d 835, "
        "<i>Quill v. Dorn</i>, 111 N.E.2d 222 (2005)")
