"""Turning measurements into the benchmark report: tables, ratios, scaling, and the goals.

Speeds are quoted as ratios of wall time against the peers measured in the same run, because
absolute times drift from machine to machine and run to run. Scaling is judged by the marginal
CPU time of an entry between two input sizes (start-up cancels out, and other work on a shared
machine stretches wall time unevenly), so "linear" means that cost stays flat as the input grows
tenfold. This module must never run anything: it only reads measurements.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from contenders import (
    APA,
    BIB_TO_CSL,
    CITATION_JS,
    JOB_TITLES,
    PANDOC,
    REAL_APA,
    REAL_TO_BIB,
    REAL_TO_CSL,
    REFBRIDGE,
    REFBRIDGE_ONE_PROCESS,
)
from measure import Measurement

MIB = 1 << 20

#: The goals, as the project states them.
MIN_SPEEDUP_OVER_CITATION_JS = 2.0
#: A large .bib converted on every CPU against one process (goal set for two CPUs).
MIN_PARALLEL_SPEEDUP = 1.5
MAX_PEAK_RSS_AT_100K = 300 * 10**6  # bytes
BOUNDED_MEMORY_ENTRIES = 100_000
MIN_APA_ENTRIES_PER_SECOND = 2_500.0
MAX_COLD_START_SECONDS = 0.3
#: Largest growth of the marginal cost per entry, from the smallest sizes to the largest,
#: that still counts as linear (timing noise on a shared machine is well below this).
MAX_LINEAR_GROWTH = 1.5
#: Packages that took less time to import are left out of the import report.
MIN_REPORTED_IMPORT_MS = 0.5


class _RunFigures:
    """The figures of several runs of one command: median times, the highest peak memory."""

    __slots__ = ()
    runs: tuple[Measurement, ...]

    @property
    def seconds(self) -> float:
        return statistics.median(run.seconds for run in self.runs)

    @property
    def cpu_seconds(self) -> float:
        return statistics.median(run.cpu_seconds for run in self.runs)

    @property
    def peak_rss(self) -> int:
        return max(run.peak_rss for run in self.runs)


@dataclass(frozen=True, slots=True)
class Result(_RunFigures):
    """One contender on one input: measured, or skipped with the reason."""

    job: str
    contender: str
    entries: int
    runs: tuple[Measurement, ...] = ()
    skipped: str = ""
    items_out: int | None = None  #: entries found in the output, as a check
    parse_only: bool = False
    library: str = ""  #: the real library converted (the real-library jobs)

    @property
    def measured(self) -> bool:
        return bool(self.runs) and all(run.ok for run in self.runs)

    @property
    def entries_per_second(self) -> float:
        return self.entries / self.seconds


@dataclass(frozen=True, slots=True)
class ColdStart(_RunFigures):
    """A refbridge command on a profile page, run in several fresh processes."""

    label: str
    runs: tuple[Measurement, ...]
    imports: tuple[tuple[str, float], ...] = ()  #: (package, milliseconds), slowest first

    @property
    def ok(self) -> bool:
        return all(run.ok for run in self.runs)


@dataclass(frozen=True, slots=True)
class Goal:
    """One goal of the project and how this run did: met, missed, or None (not measured)."""

    statement: str
    met: bool | None
    finding: str


# -- import times --------------------------------------------------------------------------
_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+\d+ \|\s*([\w.]+)\s*$")


def import_times(importtime_output: str) -> list[tuple[str, float]]:
    """Milliseconds spent importing each top-level package that is not in the standard
    library (from ``python -X importtime`` output), slowest first, leaving out those under
    ``MIN_REPORTED_IMPORT_MS``."""
    totals: dict[str, float] = {}
    for line in importtime_output.splitlines():
        match = _IMPORT_LINE.match(line)
        if match is None:
            continue
        package = match.group(2).split(".")[0]
        if package in sys.stdlib_module_names or package.startswith("_"):
            continue
        totals[package] = totals.get(package, 0.0) + int(match.group(1)) / 1000
    return sorted(((name, ms) for name, ms in totals.items() if ms >= MIN_REPORTED_IMPORT_MS),
                  key=lambda item: (-item[1], item[0]))


# -- ratios and scaling ----------------------------------------------------------------------
def measured(results: Iterable[Result], job: str, contender: str) -> list[Result]:
    """The measured results of one contender on one job, smallest input first."""
    return sorted((r for r in results if r.job == job and r.contender == contender
                   and r.measured), key=lambda r: r.entries)


def marginal_costs(series: Sequence[Result]) -> list[tuple[int, int, float]]:
    """(smaller size, larger size, CPU seconds per extra entry) between consecutive sizes."""
    return [(a.entries, b.entries, (b.cpu_seconds - a.cpu_seconds) / (b.entries - a.entries))
            for a, b in pairwise(series) if b.entries > a.entries]


def growth(series: Sequence[Result]) -> float | None:
    """How much the marginal cost per entry grew from the first step of sizes to the last;
    None with fewer than three sizes."""
    costs = marginal_costs(series)
    if len(costs) < 2 or costs[0][2] <= 0:
        return None
    return costs[-1][2] / costs[0][2]


def speedup(ours: Result, peer: Result) -> float:
    """How many times faster refbridge was than ``peer`` on the same input."""
    return peer.seconds / ours.seconds


def memory_ratio(ours: Result, peer: Result) -> float:
    return ours.peak_rss / peer.peak_rss


def peers_of(results: Iterable[Result], job: str) -> list[str]:
    names: list[str] = []
    for result in results:
        if result.job == job and result.contender != REFBRIDGE and result.contender not in names:
            names.append(result.contender)
    return names


# -- goals -----------------------------------------------------------------------------------
def _largest_common(results: Sequence[Result], job: str, peer: str
                    ) -> tuple[Result, Result] | None:
    ours = {r.entries: r for r in measured(results, job, REFBRIDGE)}
    theirs = {r.entries: r for r in measured(results, job, peer)}
    common = sorted(ours.keys() & theirs.keys())
    return (ours[common[-1]], theirs[common[-1]]) if common else None


def _one_process(results: Sequence[Result], citation_js: Result) -> str:
    """What refbridge held to one process did against Citation.js on the same input."""
    alone = [r for r in measured(results, BIB_TO_CSL, REFBRIDGE_ONE_PROCESS)
             if r.entries == citation_js.entries]
    if not alone:
        return ""
    return (f"; one process: {speedup(alone[0], citation_js):.2f}x "
            f"({alone[0].entries_per_second:,.0f} entries/s)")


def _parallel_goal(results: Sequence[Result]) -> Goal:
    """Every CPU against one process, on the largest .bib both converted."""
    statement = (f".bib -> CSL-JSON on every CPU at least {MIN_PARALLEL_SPEEDUP:g}x one process "
                 "(a .bib of 5 MB or more)")
    pair = _largest_common(results, BIB_TO_CSL, REFBRIDGE_ONE_PROCESS)
    if pair is None:
        return Goal(statement, None, "not measured (one process not run)")
    ratio = speedup(*pair)
    return Goal(statement, ratio >= MIN_PARALLEL_SPEEDUP,
                f"{ratio:.2f}x at {pair[0].entries:,} entries on {os.cpu_count()} CPUs")


def _apa_goal(results: Sequence[Result]) -> Goal:
    """The rate at the largest size measured (whole processes: the start-up weighs little
    there), with pandoc's rate beside it when pandoc formatted the same items in the run."""
    statement = f"APA bibliography at least {MIN_APA_ENTRIES_PER_SECOND:,.0f} entries/s"
    apa = measured(results, APA, REFBRIDGE)
    if not apa:
        return Goal(statement, None, "not measured")
    largest = max(apa, key=lambda r: r.entries)
    pair = _largest_common(results, APA, PANDOC)
    beside = ("pandoc not measured" if pair is None else
              f"{speedup(*pair):.2f}x pandoc at {pair[0].entries:,} entries, pandoc "
              f"{pair[1].entries_per_second:,.0f} entries/s")
    return Goal(statement, largest.entries_per_second >= MIN_APA_ENTRIES_PER_SECOND,
                f"{largest.entries_per_second:,.0f} entries/s at {largest.entries:,} entries "
                f"({beside})")


def cpu_ratio(results: Sequence[Result], job: str, peer: str) -> tuple[float, int] | None:
    """The peer's CPU time over refbridge's, summed over the libraries both converted, and
    how many libraries those were (None: none)."""
    ours = {r.library: r for r in measured(results, job, REFBRIDGE)}
    pairs = [(ours[r.library], r) for r in measured(results, job, peer) if r.library in ours]
    if not pairs:
        return None
    return (sum(p.cpu_seconds for _, p in pairs) / sum(o.cpu_seconds for o, _ in pairs),
            len(pairs))


def _real_library_goals(results: Sequence[Result]) -> list[Goal]:
    """The goals of the real-library jobs that were run: the .bib jobs against Citation.js,
    APA by refbridge's own rate over every library, start-up included."""
    found = []
    for job in (REAL_TO_CSL, REAL_TO_BIB):
        if not any(r.job == job for r in results):
            continue
        statement = f"{JOB_TITLES[job]} at least {MIN_SPEEDUP_OVER_CITATION_JS:g}x Citation.js"
        ratio = cpu_ratio(results, job, CITATION_JS)
        found.append(Goal(statement, None, "not measured") if ratio is None else
                     Goal(statement, ratio[0] >= MIN_SPEEDUP_OVER_CITATION_JS,
                          f"{ratio[0]:.2f}x in CPU time over {ratio[1]} libraries, one process"))
    ours = measured(results, REAL_APA, REFBRIDGE)
    if ours:
        rate = sum(r.entries for r in ours) / sum(r.cpu_seconds for r in ours)
        found.append(Goal(f"{JOB_TITLES[REAL_APA]} at least {MIN_APA_ENTRIES_PER_SECOND:,.0f} "
                          "entries/s", rate >= MIN_APA_ENTRIES_PER_SECOND,
                          f"{rate:,.0f} entries/s in CPU time over {len(ours)} libraries, "
                          "whole processes (start-up included)"))
    return found


def goals(results: Sequence[Result], cold_starts: Sequence[ColdStart]) -> list[Goal]:
    """Each goal of the project, judged on this run's measurements."""
    found: list[Goal] = []
    statement = f".bib -> CSL-JSON at least {MIN_SPEEDUP_OVER_CITATION_JS:g}x Citation.js"
    pair = _largest_common(results, BIB_TO_CSL, CITATION_JS)
    if pair is None:
        found.append(Goal(statement, None, "not measured (refbridge or Citation.js missing)"))
    else:
        ratio = speedup(*pair)
        found.append(Goal(statement, ratio >= MIN_SPEEDUP_OVER_CITATION_JS,
                          f"{ratio:.2f}x at {pair[0].entries:,} entries "
                          f"({pair[0].entries_per_second:,.0f} entries/s)"
                          + _one_process(results, pair[1])))
    statement = (f".bib -> CSL-JSON of {BOUNDED_MEMORY_ENTRIES:,} entries under "
                 f"{MAX_PEAK_RSS_AT_100K // 10**6} MB peak RSS")
    large = [r for r in measured(results, BIB_TO_CSL, REFBRIDGE)
             if r.entries >= BOUNDED_MEMORY_ENTRIES]
    found.append(Goal(statement, large[0].peak_rss < MAX_PEAK_RSS_AT_100K,
                      f"{large[0].peak_rss / 10**6:.0f} MB at {large[0].entries:,} entries")
                 if large else Goal(statement, None, "not measured at that size"))
    found.append(_apa_goal(results))
    statement = f"profile-page commands under {MAX_COLD_START_SECONDS:g} s from a cold start"
    if cold_starts:
        slowest = max(cold_starts, key=lambda c: (not c.ok, c.seconds))
        found.append(Goal(statement, slowest.ok and slowest.seconds < MAX_COLD_START_SECONDS,
                          f"slowest: {slowest.label}, {slowest.seconds:.3f} s wall "
                          f"({slowest.cpu_seconds:.3f} s CPU)"
                          + ("" if slowest.ok else " (failed)")))
    else:
        found.append(Goal(statement, None, "not measured"))
    for job in (BIB_TO_CSL, APA):
        statement = f"{JOB_TITLES[job]}: cost linear in the input size"
        factor = growth(measured(results, job, REFBRIDGE))
        found.append(Goal(statement, None, "needs three measured sizes") if factor is None
                     else Goal(statement, factor <= MAX_LINEAR_GROWTH,
                               f"marginal CPU time per entry x{factor:.2f} from the "
                               "smallest sizes to the largest"))
    found.append(_parallel_goal(results))
    return found + _real_library_goals(results)


# -- text ------------------------------------------------------------------------------------
def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows in aligned columns: numbers right-aligned, the first column (a name) and a last
    column with an empty header (a note) left-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    note = 1 if header[-1] == "" else 0

    def line(row: Sequence[str]) -> str:
        middle = zip(row[1:len(row) - note], widths[1:len(widths) - note])
        cells = [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in middle), *row[len(row) - note:]]
        return "  ".join(cells).rstrip()

    return [line(header), *(line(row) for row in rows)]


def _mib(size: int) -> str:
    return f"{size / MIB:,.1f}"


def job_lines(results: Sequence[Result], job: str) -> list[str]:
    """The table of one job, then the ratios against each peer, then the scaling."""
    rows = []
    for r in sorted((r for r in results if r.job == job), key=lambda r: r.entries):
        name = r.contender + (" (parse only)" if r.parse_only else "")
        if r.measured:
            rows.append([name, f"{r.entries:,}", f"{r.seconds:.2f}", f"{r.cpu_seconds:.2f}",
                         f"{r.entries_per_second:,.0f}", _mib(r.peak_rss),
                         "-" if r.items_out is None else f"{r.items_out:,}"])
        else:
            reason = (f"skipped: {r.skipped}" if r.skipped else
                      f"failed: {next(run.error for run in r.runs if not run.ok)}")
            rows.append([name, f"{r.entries:,}", "-", "-", "-", "-", "-", reason])
    lines = [f"## {JOB_TITLES[job]}", "",
             *table(["contender", "entries", "wall s", "CPU s", "entries/s", "peak MiB", "out",
                     ""], [row + [""] * (8 - len(row)) for row in rows])]
    ratio_lines = []
    for peer in peers_of(results, job):
        ours = {r.entries: r for r in measured(results, job, REFBRIDGE)}
        for theirs in measured(results, job, peer):
            if theirs.entries in ours:
                mine = ours[theirs.entries]
                ratio_lines.append(
                    f"  {theirs.entries:>9,} entries: {speedup(mine, theirs):6.2f}x the speed "
                    f"of {peer}, {memory_ratio(mine, theirs):5.2f}x its peak memory")
    if ratio_lines:
        lines += ["", "refbridge against each peer (same input, same run):", *ratio_lines]
    scaling = []
    for name in [REFBRIDGE, *peers_of(results, job)]:
        costs = marginal_costs(measured(results, job, name))
        if costs:
            steps = ", ".join(f"{cost * 1e6:.1f} us ({a:,}->{b:,})" for a, b, cost in costs)
            factor = growth(measured(results, job, name))
            scaling.append(f"  {name}: {steps}" + ("" if factor is None else
                                                  f"; growth x{factor:.2f}"))
    if scaling:
        lines += ["", "Marginal CPU time per entry between sizes (flat = linear):", *scaling]
    return lines


def real_library_lines(results: Sequence[Result], job: str) -> list[str]:
    """The table of a real-library job: each library, refbridge's CPU time and peak memory,
    and each peer's CPU time as a multiple of refbridge's (what a shared machine stretches
    least), then the ratios over every library."""
    peers = peers_of(results, job)
    ours = measured(results, job, REFBRIDGE)
    rows = []
    for mine in ours:
        row = [mine.library, f"{mine.entries:,}", f"{mine.cpu_seconds:.2f}",
               f"{mine.seconds:.2f}", _mib(mine.peak_rss)]
        for peer in peers:
            theirs = [r for r in measured(results, job, peer) if r.library == mine.library]
            row.append(f"{theirs[0].cpu_seconds / mine.cpu_seconds:.2f}x" if theirs else "-")
        rows.append(row)
    lines = [f"## {JOB_TITLES[job]} (CPU time, median of each run)", "",
             *table(["library", "entries", "refbridge CPU s", "wall s", "peak MiB",
                     *(f"{peer} / refbridge" for peer in peers)], rows)]
    for peer in peers:
        ratio = cpu_ratio(results, job, peer)
        reasons = sorted({r.skipped for r in results
                          if r.job == job and r.contender == peer and r.skipped})
        lines.append(f"  over every library: refbridge {ratio[0]:.2f}x the speed of {peer} "
                     f"({ratio[1]} libraries)" if ratio else
                     f"  {peer}: not measured ({'; '.join(reasons) or 'it failed'})")
    return lines


def cold_start_lines(cold_starts: Sequence[ColdStart]) -> list[str]:
    runs = len(cold_starts[0].runs) if cold_starts else 0
    rows = [[c.label, f"{c.seconds:.3f}" if c.ok else "failed", f"{c.cpu_seconds:.3f}",
             _mib(c.peak_rss)] for c in cold_starts]
    lines = [f"## Cold start: refbridge on a profile page (median of {runs} fresh processes)",
             "", *table(["command", "wall s", "CPU s", "peak MiB"], rows), "",
             "Imports outside the standard library (python -X importtime, self time):"]
    for c in cold_starts:
        packages = ", ".join(f"{name} {ms:.1f} ms" for name, ms in c.imports)
        lines.append(f"  {c.label}: {packages or 'not measured'}")
    return lines


def goal_lines(found: Sequence[Goal]) -> list[str]:
    marks = {True: "met   ", False: "MISSED", None: "n/a   "}
    return ["## Goals", "", *(f"[{marks[g.met]}] {g.statement}: {g.finding}" for g in found)]
