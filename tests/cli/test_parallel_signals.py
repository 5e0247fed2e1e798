"""A parallel conversion that is stopped leaves nothing behind: on SIGTERM the main process
removes its temporary output and stops its workers; when it is killed outright, its workers
notice, remove the temporary output and exit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ARTICLE = """@article{{knuth{n},
  author  = {{Knuth, Donald E. and Garc{{\\'\\i}}a, Jos{{\\'e}}}},
  title   = {{The {{Art}} of Computer Programming, part {n}}},
  journal = {{Journal of the ACM}},
  year    = {{{year}}},
  pages   = {{1--{n}}},
}}
"""
#: Enough entries that two workers take a few seconds over them.
ENTRIES = 12_000
#: How long the workers may take to end once their parent is gone.
WORKERS_END_SECONDS = 10

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="needs Linux's /proc")


def status(pid: int) -> tuple[str, int] | None:
    """The state and parent of process ``pid``, None when there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1])


def children(pid: int) -> list[int]:
    found = [(int(entry.name), status(int(entry.name))) for entry in Path("/proc").iterdir()
             if entry.name.isdigit()]
    return sorted(child for child, known in found if known is not None and known[1] == pid)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its new parent to reap it does not)."""
    known = status(pid)
    return known is not None and known[0] != "Z"


@contextmanager
def converting(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], list[int], Path]]:
    """``refbridge convert big.bib --jobs 2`` under way (its workers started, its temporary
    output written to), its workers, and its folder; whatever of it still runs at the end is
    killed."""
    folder = tmp_path / "run"
    folder.mkdir()
    big = folder / "big.bib"
    big.write_text("".join(ARTICLE.format(n=n, year=1960 + n % 60) for n in range(ENTRIES)))
    with open(tmp_path / "stderr.txt", "wb") as stderr:
        command = subprocess.Popen(
            [sys.executable, "-m", "refbridge", "convert", str(big), "--to", "csl-json",
             "--jobs", "2", "-o", str(folder / "out.json")], stderr=stderr,
            start_new_session=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and command.poll() is None and not (
                len(children(command.pid)) >= 2 and any(
                    p.stat().st_size for p in folder.iterdir() if p.name.endswith(".tmp"))):
            time.sleep(0.01)
        workers = children(command.pid)
        if command.poll() is not None or len(workers) < 2:
            pytest.fail("the conversion was not caught under way")
        yield command, workers, folder
    finally:
        for pid in [command.pid, *workers]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        command.wait(timeout=10)


def still_running(command: subprocess.Popen[bytes], workers: list[int]) -> list[int]:
    """The workers still running ``WORKERS_END_SECONDS`` after ``command`` ended."""
    command.wait(timeout=60)
    deadline = time.monotonic() + WORKERS_END_SECONDS
    while any(alive(worker) for worker in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [worker for worker in workers if alive(worker)]


def test_sigterm_removes_the_temporary_output_and_stops_the_workers(tmp_path: Path) -> None:
    with converting(tmp_path) as (command, workers, folder):
        os.kill(command.pid, signal.SIGTERM)  # the main process only, as `kill PID` does
        assert still_running(command, workers) == []
        assert command.returncode == -signal.SIGTERM
        assert sorted(p.name for p in folder.iterdir()) == ["big.bib"]
    assert (tmp_path / "stderr.txt").read_text() == ""


def test_workers_of_a_killed_run_end_and_remove_its_temporary_output(tmp_path: Path) -> None:
    with converting(tmp_path) as (command, workers, folder):
        os.kill(command.pid, signal.SIGKILL)
        assert still_running(command, workers) == []
        assert command.returncode == -signal.SIGKILL
        assert sorted(p.name for p in folder.iterdir()) == ["big.bib"]


def test_ctrl_c_to_the_main_process_removes_the_temporary_output(tmp_path: Path) -> None:
    with converting(tmp_path) as (command, workers, folder):
        os.kill(command.pid, signal.SIGINT)  # the main process only: the workers ignore it
        assert still_running(command, workers) == []
        assert command.returncode == 130
        assert sorted(p.name for p in folder.iterdir()) == ["big.bib"]
    assert (tmp_path / "stderr.txt").read_text() == "refbridge: interrupted\n"
