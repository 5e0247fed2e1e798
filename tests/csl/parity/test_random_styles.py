"""refbridge's CSL engine against citeproc-js on styles drawn at random from the catalogue.

``parity_floor.txt`` names a draw (seed and number of styles) and the shares of bibliography
entries (text and HTML) and citations that must stay identical to citeproc-js's; the harness is
``benchmarks/csl_parity.py`` (run it without ``--seed`` for a new draw each time). The item
library, ``library.json``, holds real items transcribed from public bibliographic records (the
test cases of Zotero's translators) and a few specimens written for the cases the harness
watches (raw dates, legacy keys, a season, particles, an institution among persons). Tests
that need citeproc-js skip without node and ``../shared/tools/setup-js.sh``; the others check
the harness's own logic and that no style of a sample of the catalogue makes the engine fail.
"""

from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path

import pytest
from support import ROOT, requires_reference_js

sys.path.insert(0, str(ROOT / "benchmarks"))

import csl_parity
import csl_shapes

FLOOR = dict(line.split() for line in Path(__file__).with_name("parity_floor.txt")
             .read_text(encoding="utf-8").splitlines() if line and not line.startswith("#"))


@cache
def drawn_report() -> csl_parity.Report:
    cases = csl_parity.draw(csl_parity.catalogue_cases(), int(FLOOR["styles"]), int(FLOOR["seed"]))
    report, _ = csl_parity.measure(cases, csl_parity.load_items([csl_parity.LIBRARY]))
    return report


def _worst(report: csl_parity.Report) -> str:
    return "\n".join(csl_parity.worst_lines(report, 3))


@requires_reference_js()
@pytest.mark.parametrize("output", ["text", "html"])
def test_bibliography_entries_stay_at_the_floor(output: str) -> None:
    report = drawn_report()
    total = report.total(output)
    share = csl_parity.percent(total.entries_same, total.entries)
    assert share >= float(FLOOR[output]), f"{share:.2f}% identical\n{_worst(report)}"


@requires_reference_js()
def test_citations_stay_at_the_floor() -> None:
    report = drawn_report()
    shares = [csl_parity.percent(t.cites_same, t.cites) for t in map(report.total, csl_parity.OUTPUTS)]
    assert min(shares) >= float(FLOOR["citations"]), f"{shares}\n{_worst(report)}"


@requires_reference_js()
def test_no_drawn_style_makes_the_engine_fail() -> None:
    assert drawn_report().crashes == {}


def test_the_draw_holds_every_citation_format_and_changes_with_the_seed() -> None:
    cases = csl_parity.catalogue_cases()
    first = csl_parity.draw(cases, 12, 1)
    assert {case.citation_format for case in first} >= set(csl_parity.FORMATS)
    assert len({(case.path, case.locale) for case in first}) == 12
    assert first == csl_parity.draw(cases, 12, 1)
    assert first != csl_parity.draw(cases, 12, 2)


def test_dependent_styles_are_drawn_with_their_parent_and_locale() -> None:
    (case,) = csl_parity.iter_cases(["transactions-on-computational-logic"])
    assert (case.path.stem, case.locale, case.dependent) == (
        "association-for-computing-machinery", "en-US", True)


def test_entries_out_of_citeproc_js_order_are_counted_as_different() -> None:
    expected = csl_parity.Rendering(ids=["a", "b", "c", "d"], entries=["A", "B", "C", "D"])
    got = csl_parity.Rendering(ids=["a", "c", "d", "b"], entries=["A", "C", "D", "B"])
    tally = csl_parity.compare(expected, got)
    assert (tally.entries_same, tally.entries) == (3, 4)
    assert [what for what, _, _ in tally.examples] == ["entry b (out of order)"]


def test_a_draw_of_shapes_is_the_same_for_a_seed_and_has_unique_ids() -> None:
    items = csl_shapes.draw_items(40, seed=3)
    assert items == csl_shapes.draw_items(40, seed=3) != csl_shapes.draw_items(40, seed=4)
    assert len(items) == 40 == len({item["id"] for item in items})


def test_invented_shapes_cover_every_date_and_creator_shape() -> None:
    rng = random.Random(1)
    items = [csl_shapes.invented(rng, n) for n in range(600)]
    dates = [item.get("issued") for item in items]
    creators = [item.get("author", []) for item in items]
    assert all(value in dates for value in csl_shapes.DATES.values())
    assert all(value in creators for value in csl_shapes.CREATORS.values())


def test_the_citation_sequence_meets_every_position() -> None:
    items = csl_parity.load_items([csl_parity.LIBRARY])
    notes = [[cite["id"] for cite in citation["citationItems"]]
             for citation in csl_parity.citation_sequence(items)]
    first = notes[0][0]
    assert notes[1] == [first]  # ibid
    assert any(len(cited) == 3 for cited in notes)  # a cluster
    assert sum(cited == [first] for cited in notes) >= 2


def test_a_sample_of_the_catalogue_renders_without_failing() -> None:
    cases = csl_parity.catalogue_cases()
    sample = random.Random(7).sample(cases, 40)
    items, _ = csl_parity.read_as_refbridge(csl_parity.load_items([csl_parity.LIBRARY]))
    assert csl_parity.crash_check(sample, items, workers=1) == {}
