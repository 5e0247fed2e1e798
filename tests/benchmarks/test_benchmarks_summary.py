"""The benchmark report's arithmetic: ratios, scaling, import times and the goals."""

from __future__ import annotations

import sys

import pytest
from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from measure import Measurement
from summary import (
    ColdStart,
    Goal,
    Result,
    goals,
    growth,
    import_times,
    job_lines,
    real_library_lines,
)

MIB = 1 << 20


def result(contender: str, entries: int, seconds: float, rss_mib: float = 50,
           job: str = "bib-csl") -> Result:
    run = Measurement(seconds, int(rss_mib * MIB), 0, cpu_seconds=seconds)
    return Result(job, contender, entries, (run,))


LINEAR = [result("refbridge", 1_000, 0.2), result("refbridge", 10_000, 0.65),
          result("refbridge", 100_000, 5.15, rss_mib=120)]
PEERS = [result("Citation.js", 10_000, 1.3, rss_mib=171), result("pandoc", 10_000, 7.0, 828)]


def test_growth_compares_the_marginal_cpu_time_of_the_largest_sizes_with_the_smallest() -> None:
    # 50 us per entry from 1k to 10k, 50 us from 10k to 100k: linear
    assert growth(LINEAR) == pytest.approx(1.0)
    quadratic = LINEAR[:2] + [result("refbridge", 100_000, 0.65 + 90_000 * 500e-6)]
    assert growth(quadratic) == pytest.approx(10.0)


def test_growth_needs_three_sizes() -> None:
    assert growth(LINEAR[:2]) is None


def test_the_job_report_quotes_each_peer_as_a_ratio_on_the_same_input() -> None:
    lines = job_lines(LINEAR + PEERS, "bib-csl")
    assert "     10,000 entries:   2.00x the speed of Citation.js,  0.29x its peak memory" in lines
    assert "     10,000 entries:  10.77x the speed of pandoc,  0.06x its peak memory" in lines
    assert "  refbridge: 50.0 us (1,000->10,000), 50.0 us (10,000->100,000); growth x1.00" in lines


def test_a_skipped_peer_is_listed_with_the_reason() -> None:
    skipped = Result("bib-csl", "pandoc", 100_000, skipped="pandoc not installed")
    assert any(line.startswith("pandoc") and line.endswith("skipped: pandoc not installed")
               for line in job_lines(LINEAR + [skipped], "bib-csl"))


def test_goals_are_judged_on_the_measurements_of_the_run() -> None:
    apa = [result("refbridge", 10_000, 4.0, job="apa")]
    cold = [ColdStart("convert profile page --to csl-json",
                      tuple(Measurement(s, 27 * MIB, 0, cpu_seconds=0.12)
                            for s in (0.16, 0.15, 0.31)))]
    assert goals(LINEAR + PEERS + apa, cold) == [
        Goal(".bib -> CSL-JSON at least 2x Citation.js", True,
             "2.00x at 10,000 entries (15,385 entries/s)"),
        Goal(".bib -> CSL-JSON of 100,000 entries under 300 MB peak RSS", True,
             "126 MB at 100,000 entries"),
        Goal("APA bibliography at least 2,500 entries/s", True,
             "2,500 entries/s at 10,000 entries (pandoc not measured)"),
        Goal("profile-page commands under 0.3 s from a cold start", True,
             "slowest: convert profile page --to csl-json, 0.160 s wall (0.120 s CPU)"),
        Goal(".bib -> CSL-JSON, LaTeX decoded: cost linear in the input size", True,
             "marginal CPU time per entry x1.00 from the smallest sizes to the largest"),
        Goal("APA bibliography (plain text) from CSL-JSON: cost linear in the input size", None,
             "needs three measured sizes"),
        Goal(".bib -> CSL-JSON on every CPU at least 1.5x one process (a .bib of 5 MB or more)",
             None, "not measured (one process not run)"),
    ]


def test_the_parallel_goal_compares_every_cpu_with_one_process_on_the_largest_bib(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("summary.os.cpu_count", lambda: 2)
    runs = [result("refbridge", 10_000, 1.0), result("refbridge, one process", 10_000, 1.6),
            result("refbridge", 1_000, 0.2), result("refbridge, one process", 1_000, 0.2)]
    assert goals(runs, [])[-1] == Goal(
        ".bib -> CSL-JSON on every CPU at least 1.5x one process (a .bib of 5 MB or more)", True,
        "1.60x at 10,000 entries on 2 CPUs")


def test_the_speed_goal_also_quotes_refbridge_held_to_one_process() -> None:
    one_process = [result("refbridge, one process", 10_000, 1.0)]
    assert goals(LINEAR + PEERS + one_process, [])[0] == Goal(
        ".bib -> CSL-JSON at least 2x Citation.js", True,
        "2.00x at 10,000 entries (15,385 entries/s); one process: 1.30x (10,000 entries/s)")


def test_the_apa_goal_is_judged_on_the_rate_with_pandoc_beside_it() -> None:
    apa = [result("refbridge", 10_000, 6.0, job="apa"), result("pandoc", 10_000, 12.0, job="apa")]
    assert goals(apa, [])[2] == Goal(
        "APA bibliography at least 2,500 entries/s", False,
        "1,667 entries/s at 10,000 entries (2.00x pandoc at 10,000 entries, pandoc 833 "
        "entries/s)")


def library(contender: str, job: str, name: str, entries: int, seconds: float) -> Result:
    run = Measurement(seconds, 40 * MIB, 0, cpu_seconds=seconds)
    return Result(job, contender, entries, (run,), library=name)


REAL_RUN = [library("refbridge", "real-csl", "tugboat.bib", 4_839, 1.0),
            library("Citation.js", "real-csl", "tugboat.bib", 4_839, 1.5),
            library("refbridge", "real-csl", "font.bib", 1_000, 0.5),
            library("Citation.js", "real-csl", "font.bib", 1_000, 1.5),
            library("refbridge", "real-apa", "tugboat.bib", 4_839, 1.5),
            library("citeproc-js", "real-apa", "tugboat.bib", 4_839, 9.0),
            library("pandoc", "real-apa", "tugboat.bib", 4_839, 4.0),
            library("refbridge", "real-apa", "font.bib", 1_000, 0.5),
            library("citeproc-js", "real-apa", "font.bib", 1_000, 2.0)]


REAL_APA_TABLE = """\
## real libraries: CSL-JSON items -> APA bibliography (plain text) (CPU time, median of each run)

library      entries  refbridge CPU s  wall s  peak MiB  citeproc-js / refbridge  pandoc / refbridge
font.bib       1,000             0.50    0.50      40.0                    4.00x                   -
tugboat.bib    4,839             1.50    1.50      40.0                    6.00x               2.67x
  over every library: refbridge 5.50x the speed of citeproc-js (2 libraries)
  over every library: refbridge 2.67x the speed of pandoc (1 libraries)"""


def test_the_real_library_table_gives_each_peer_as_a_multiple_of_refbridge() -> None:
    assert "\n".join(real_library_lines(REAL_RUN, "real-apa")) == REAL_APA_TABLE


def test_the_real_library_goals_are_citation_js_for_the_bib_and_the_rate_for_apa() -> None:
    assert goals(REAL_RUN, [])[-2:] == [
        Goal("real libraries: .bib -> CSL-JSON at least 2x Citation.js", True,
             "2.00x in CPU time over 2 libraries, one process"),
        Goal("real libraries: CSL-JSON items -> APA bibliography (plain text) at least 2,500 "
             "entries/s", True,
             "2,920 entries/s in CPU time over 2 libraries, whole processes "
             "(start-up included)"),
    ]


def test_goals_without_measurements_are_not_judged() -> None:
    assert {goal.met for goal in goals([], [])} == {None}


def test_import_times_add_up_self_time_per_package_outside_the_standard_library() -> None:
    trace = """import time: self [us] | cumulative | imported package
import time:      1200 |       1200 |   re
import time:      5800 |       6390 |     refbridge.model
import time:       411 |       1311 |         click.exceptions
import time:      4117 |      18302 |     click.core
import time:      1000 |       1000 |   refbridge.cli
"""
    assert import_times(trace) == [("refbridge", 6.8), ("click", 4.528)]
