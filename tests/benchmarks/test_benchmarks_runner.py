"""The benchmark runner's own logic: measuring a child process and checking its output."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from contenders import CONTENDERS, contenders_for
from measure import gnu_time, run_measured
from run import count_json_items, items_out


def test_peak_memory_is_the_child_process_own() -> None:
    allocate = "block = bytearray(150_000_000); block[::4096] = b'x' * len(block[::4096])"
    measured = run_measured([sys.executable, "-c", allocate])
    assert measured.ok
    assert 150_000_000 <= measured.peak_rss < 300_000_000


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(),
                    reason="needs Linux's /proc/PID/smaps_rollup")
def test_peak_memory_of_a_command_on_several_processes_is_their_sum() -> None:
    two_processes = (
        "import os, time\n"
        "pid = os.fork()\n"
        "block = bytearray(120_000_000); block[::4096] = b'x' * len(block[::4096])\n"
        "time.sleep(0.5)\n"
        "os.waitpid(pid, 0) if pid else os._exit(0)\n")
    measured = run_measured([sys.executable, "-c", two_processes])
    assert measured.ok
    assert 240_000_000 <= measured.peak_rss < 400_000_000


@pytest.mark.skipif(gnu_time() is None, reason="needs GNU time (/usr/bin/time)")
def test_a_small_command_is_not_charged_with_the_runner_memory() -> None:
    runner_ballast = bytearray(200_000_000)
    runner_ballast[::4096] = b"x" * len(runner_ballast[::4096])
    measured = run_measured([sys.executable, "-c", "pass"])
    assert measured.peak_rss < 100_000_000


def test_a_failing_command_reports_its_status_and_last_error_line() -> None:
    measured = run_measured([sys.executable, "-c", "import sys; sys.exit('no such input')"])
    assert (measured.ok, measured.status, measured.error) == (False, 1, "no such input")


def test_a_failing_command_is_reported_by_its_line_naming_the_error() -> None:
    script = ("import sys; sys.exit('Error at \"refs.bib\" (line 3, column 19):\\n"
              "unexpected 0\\n  ISSN = \"0002-8231\",\\n          ^')")
    measured = run_measured([sys.executable, "-c", script])
    assert measured.error == 'Error at "refs.bib" (line 3, column 19):'


def test_standard_output_goes_to_the_file_asked_for(tmp_path: Path) -> None:
    output = tmp_path / "out.txt"
    run_measured([sys.executable, "-c", "print('42 entries')"], stdout=output)
    assert output.read_text(encoding="utf-8") == "42 entries\n"


def test_json_items_are_counted_one_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "items.json"
    path.write_text(json.dumps([{"id": "a", "custom": {"id": "nested"}}, {"id": "b"}],
                               indent=2), encoding="utf-8")
    assert count_json_items(path) == 2


def test_an_empty_array_holds_no_items(tmp_path: Path) -> None:
    path = tmp_path / "items.json"
    path.write_text("[]\n", encoding="utf-8")
    assert count_json_items(path) == 0


def test_a_plain_text_bibliography_has_one_entry_per_non_blank_line(tmp_path: Path) -> None:
    path = tmp_path / "apa.txt"
    path.write_text("Knuth, D. E. (1984). Literate programming.\n\n"
                    "Qian, Z. (2026). SpecDB.\n", encoding="utf-8")
    refbridge_apa = next(c for c in contenders_for("apa") if c.name == "refbridge")
    assert items_out("apa", refbridge_apa, path) == 2


def test_a_parser_that_only_parses_reports_its_printed_count(tmp_path: Path) -> None:
    path = tmp_path / "count.txt"
    path.write_text("10028\n", encoding="utf-8")
    pybtex = next(c for c in CONTENDERS if c.name == "pybtex")
    assert items_out("bib-csl", pybtex, path) == 10028


def test_every_job_has_refbridge_among_its_contenders() -> None:
    assert contenders_for("bib-csl")[0].name == "refbridge"
    assert contenders_for("apa")[0].name == "refbridge"
