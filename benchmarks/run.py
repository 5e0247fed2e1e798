"""Benchmark refbridge against its peers: ``python benchmarks/run.py [--quick]``.

Builds its own inputs (see ``workloads``), runs every job at several sizes, each run in a fresh
process (see ``measure``), and prints entries per second, peak memory, the ratios against the
peers measured in the same run, the marginal CPU time per entry between sizes, the cold start of
profile-page commands, and whether each goal of the project is met (see ``summary``). Peers that
are not installed are skipped with the reason. This is a tool, not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import summary
import workloads
from contenders import (
    APA,
    BIB_TO_CSL,
    REAL_APA,
    REAL_JOBS,
    REAL_TO_BIB,
    REAL_TO_CSL,
    ROOT,
    Contender,
    cold_start_commands,
    contenders_for,
)
from measure import Measurement, run_measured

FULL_SIZES: dict[str, tuple[int, ...]] = {BIB_TO_CSL: (1_000, 10_000, 100_000),
                                          APA: (1_000, 10_000, 100_000)}
QUICK_SIZES: dict[str, tuple[int, ...]] = {BIB_TO_CSL: (1_000, 10_000), APA: (1_000,)}
#: With --quick, the slow peers (those with a size limit) run on the smallest inputs only.
QUICK_SLOW_PEER_ENTRIES = 2_000
COLD_START = "cold-start"
#: The real libraries, each as it is: .bib -> CSL-JSON and .bib -> .bib.
REAL = "real"
JOBS = (REAL, BIB_TO_CSL, APA, COLD_START)


def count_json_items(path: Path) -> int:
    """How many items the JSON array in ``path`` holds, decoding one item at a time."""
    text = path.read_text(encoding="utf-8")
    decoder = json.JSONDecoder()
    index, count = text.index("[") + 1, 0
    while True:
        while index < len(text) and text[index] in " \t\r\n,":
            index += 1
        if index >= len(text) or text[index] == "]":
            return count
        _, index = decoder.raw_decode(text, index)
        count += 1


def items_out(job: str, contender: Contender, output: Path) -> int | None:
    """How many entries the output holds: the parsers print a count; CSL-JSON is an array;
    a plain-text bibliography has one entry per non-blank line."""
    if not output.exists():
        return None
    if contender.parse_only:
        return int(output.read_text(encoding="utf-8").split()[-1])
    if job in (BIB_TO_CSL, REAL_TO_CSL):
        return count_json_items(output)
    if job == REAL_TO_BIB:
        with output.open(encoding="utf-8") as lines:
            return sum(1 for line in lines if line.startswith("@"))
    with output.open(encoding="utf-8") as lines:
        return sum(1 for line in lines if line.strip())


def child_environment(pycache: Path) -> dict[str, str]:
    """The environment of every measured process: Python caches bytecode (in ``pycache``, outside
    the repository) as it does for an installed package; with PYTHONDONTWRITEBYTECODE set, each
    run would compile every refbridge module anew."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPYCACHEPREFIX"] = str(pycache)
    return environment


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_contender(job: str, contender: Contender, source: workloads.BuiltInput, work: Path,
                  repeat: int, environment: dict[str, str], quick: bool) -> summary.Result:
    """``repeat`` measured runs of one contender on one input (or why it was skipped)."""
    base = summary.Result(job, contender.name, source.entries, parse_only=contender.parse_only,
                          library=source.origin if job in REAL_JOBS else "")
    reason = contender.missing()
    limit = contender.max_entries
    if limit and quick:
        limit = min(limit, QUICK_SLOW_PEER_ENTRIES)
    if reason is None and limit and source.entries > limit:
        reason = f"not run above {limit:,} entries (too slow)"
    if reason:
        return dataclasses.replace(base, skipped=reason)
    output = work / "output"
    runs: list[Measurement] = []
    for _ in range(repeat):
        output.unlink(missing_ok=True)
        command = contender.command(source.path, output)
        run = run_measured(command, output if contender.prints_output else None, cwd=ROOT,
                           env=environment)
        if run.status and run.status in contender.written and output.exists():
            run = dataclasses.replace(run, status=0, error="")
        runs.append(run)
        progress(f"  {contender.name:<34} {source.entries:>9,} entries  {run.seconds:7.2f} s"
                 + ("" if run.ok else f"  FAILED: {run.error}"))
        if not run.ok:
            break
    count = items_out(job, contender, output) if runs[-1].ok else None
    output.unlink(missing_ok=True)
    return dataclasses.replace(base, runs=tuple(runs), items_out=count)


def run_job(job: str, sizes: Sequence[int], work: Path, repeat: int,
            bib_source: workloads.BibSource | None, environment: dict[str, str],
            only: set[str] | None, quick: bool) -> list[summary.Result]:
    results = []
    for size in sizes:
        source = (workloads.write_bib(work, size, bib_source) if job == BIB_TO_CSL
                  else workloads.write_csl_items(work, size))
        progress(f"{job}: {source.entries:,} entries ({source.origin})")
        for contender in contenders_for(job):
            if only is not None and contender.name not in only:
                continue
            results.append(run_contender(job, contender, source, work, repeat, environment,
                                         quick))
        source.path.unlink()
    return results


def run_interleaved(job: str, contenders: Sequence[Contender], source: workloads.BuiltInput,
                    work: Path, repeat: int, environment: dict[str, str]
                    ) -> list[summary.Result]:
    """``repeat`` rounds of one run of each contender in turn (not each contender's runs in a
    row), so that a change in the machine's load falls on every contender alike."""
    found: dict[str, summary.Result] = {}
    for _ in range(repeat):
        for contender in contenders:
            if contender.name in found and (found[contender.name].skipped
                                            or not found[contender.name].runs[-1].ok):
                continue
            result = run_contender(job, contender, source, work, 1, environment, False)
            before = found.get(contender.name)
            found[contender.name] = result if before is None else dataclasses.replace(
                result, runs=before.runs + result.runs)
    return list(found.values())


def run_real_libraries(work: Path, repeat: int, environment: dict[str, str],
                       only: set[str] | None, extra: Sequence[Path] = ()
                       ) -> list[summary.Result]:
    """Every real library (TeX Live's, then the ``extra`` .bib files) through the real-library
    jobs, refbridge and each peer in turn."""
    results = []
    for library in [*workloads.write_real_libraries(work),
                    *(workloads.write_library(work, path) for path in extra)]:
        progress(f"{REAL}: {library.origin} ({library.entries:,} entries)")
        items = library_items(library, work, environment)
        for job in REAL_JOBS:
            source = items if job == REAL_APA else library
            if source is None:
                continue
            contenders = [contender for contender in contenders_for(job)
                          if only is None or contender.name in only]
            results += run_interleaved(job, contenders, source, work, repeat, environment)
        library.path.unlink()
        if items is not None:
            items.path.unlink()
    return results


def library_items(library: workloads.BuiltInput, work: Path,
                  environment: dict[str, str]) -> workloads.BuiltInput | None:
    """The library's items as refbridge's CSL-JSON (converted once, not measured): what the
    real-library APA job formats, so that every formatter reads the same items. None (and the
    reason printed) when refbridge cannot convert it."""
    path = work / f"{library.path.stem}.json"
    run = run_measured([sys.executable, "-m", "refbridge", "convert", str(library.path),
                        "--to", "csl-json", "-o", str(path)], cwd=ROOT, env=environment)
    if not run.ok:
        progress(f"  {REAL_APA}: not run, the library's CSL-JSON failed: {run.error}")
        return None
    return workloads.BuiltInput(path, count_json_items(path), library.origin)


def warm_bytecode_cache(environment: dict[str, str]) -> None:
    """Run each profile-page command once, so that no measured run compiles modules."""
    for _, command in cold_start_commands():
        run_measured(command, cwd=ROOT, env=environment)


def run_cold_starts(runs: int, environment: dict[str, str]) -> list[summary.ColdStart]:
    """Each profile-page command ``runs`` times in a fresh process, plus one import trace."""
    found = []
    for label, command in cold_start_commands():
        measurements = tuple(run_measured(command, cwd=ROOT, env=environment)
                             for _ in range(runs))
        trace = subprocess.run([command[0], "-X", "importtime", *command[1:]], cwd=ROOT,
                               env=environment, capture_output=True, text=True, check=False)
        found.append(summary.ColdStart(label, measurements,
                                       tuple(summary.import_times(trace.stderr))))
        progress(f"  {label:<45} {found[-1].seconds:.3f} s")
    return found


def header(bib_source: workloads.BibSource | None, load_at_start: float) -> list[str]:
    from refbridge import __version__

    revision = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=False).stdout.strip()
    origin = (f"{bib_source.name} from TeX Live ({len(bib_source.entries)} entries) replicated "
              "with unique keys" if bib_source else "generated .bib (TeX Live not found)")
    return [(f"# refbridge {__version__} ({revision or 'no git'}) benchmarks, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"),
            (f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
             f"load average {load_at_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the "
             f"end; .bib input: {origin}")]


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller sizes (about a minute): .bib 1k and 10k, APA 1k; "
                             "slow peers at 1k only")
    parser.add_argument("--jobs", default=",".join(JOBS),
                        help=f"comma-separated jobs to run (default: {','.join(JOBS)})")
    parser.add_argument("--sizes", help="comma-separated entry counts for every job")
    parser.add_argument("--only", metavar="NAMES",
                        help="comma-separated contenders to run, e.g. refbridge,Citation.js")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per contender and size; the median is reported")
    parser.add_argument("--cold-runs", type=int,
                        help="fresh processes per cold-start command (default 5; quick: 3)")
    parser.add_argument("--json", type=Path, help="also write every measurement to this file")
    parser.add_argument("--library", type=Path, action="append", default=[],
                        help="a .bib of a real library to add to the real-library jobs "
                             "(repeatable), e.g. a research group's bibliography")
    parser.add_argument("--bib", choices=(*workloads.REAL_LIBRARIES, "generated"),
                        default="examples",
                        help="the .bib input: biblatex-examples.bib replicated (the project's "
                             "reference workload; its values repeat every 92 entries, which "
                             "refbridge's bounded caches of recurring values profit from), "
                             "TeX Live's tugboat.bib replicated (a real library of 3,600 "
                             "entries written by hand), or a generated .bib whose titles and "
                             "abstracts are all distinct")
    arguments = parser.parse_args(argv)
    unknown = set(arguments.jobs.split(",")) - set(JOBS)
    if unknown:
        parser.error(f"unknown job(s) {', '.join(sorted(unknown))} (known: {', '.join(JOBS)})")
    return arguments


def main(argv: Sequence[str] | None = None) -> None:
    arguments = parse_arguments(argv)
    load_at_start = os.getloadavg()[0]
    jobs = arguments.jobs.split(",")
    sizes = QUICK_SIZES if arguments.quick else FULL_SIZES
    if arguments.sizes:
        sizes = {job: tuple(int(s) for s in arguments.sizes.split(",")) for job in sizes}
    only = set(arguments.only.split(",")) if arguments.only else None
    library = workloads.REAL_LIBRARIES.get(arguments.bib)
    bib_source = workloads.load_bib_source(library) if library else None
    results: list[summary.Result] = []
    cold_starts: list[summary.ColdStart] = []
    with tempfile.TemporaryDirectory(prefix="refbridge-bench-") as directory:
        work = Path(directory)
        environment = child_environment(work / "pycache")
        warm_bytecode_cache(environment)
        if REAL in jobs:
            results += run_real_libraries(work, arguments.repeat, environment, only,
                                          arguments.library)
        for job in (BIB_TO_CSL, APA):
            if job in jobs:
                results += run_job(job, sizes[job], work, arguments.repeat, bib_source,
                                   environment, only, arguments.quick)
        if COLD_START in jobs:
            runs = arguments.cold_runs or (3 if arguments.quick else 5)
            progress(f"{COLD_START}: {runs} fresh processes per command")
            cold_starts = run_cold_starts(runs, environment)
    lines = header(bib_source, load_at_start)
    if REAL in jobs:
        for job in REAL_JOBS:
            lines += ["", *summary.real_library_lines(results, job)]
    for job in (BIB_TO_CSL, APA):
        if job in jobs:
            lines += ["", *summary.job_lines(results, job)]
    if cold_starts:
        lines += ["", *summary.cold_start_lines(cold_starts)]
    lines += ["", *summary.goal_lines(summary.goals(results, cold_starts))]
    print("\n".join(lines))
    if arguments.json:
        arguments.json.write_text(json.dumps(
            {"results": [dataclasses.asdict(r) for r in results],
             "cold_starts": [dataclasses.asdict(c) for c in cold_starts]}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
