"""Running one command in a fresh process and measuring its wall time, CPU time and peak memory.

Peak memory is the command's maximum resident set size. Linux carries that figure across
``exec``, so a command started straight from this (large) runner would report at least the
runner's own size; GNU time (``/usr/bin/time``) starts the command from its own small process and
reports the command's figure, so it is used when installed, else the runner's ``os.wait4``
figure (an upper bound). Both are the figure of the largest single process; a command that
works on several processes at once holds their sum, so on Linux the proportional set sizes
(PSS: shared pages divided among their sharers) of the command's whole process tree are also
summed every ``TREE_SAMPLE_SECONDS`` and the peak memory is the larger of the two figures.
CPU time (user + system) is reported beside wall time because a machine shared with other work
stretches wall time while CPU time stays put. This module must never
know what the commands do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: ``ru_maxrss`` is in kilobytes on Linux, in bytes on macOS; GNU time's ``%M`` in kilobytes.
_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024
_KILOBYTE = 1024
_ERROR_LENGTH = 160
#: How often the memory of a command's process tree is summed.
TREE_SAMPLE_SECONDS = 0.02
_PSS_LINE = "Pss:"


@dataclass(frozen=True, slots=True)
class Measurement:
    """One run of a command: wall seconds, peak resident memory in bytes, how it ended, and
    CPU seconds."""

    seconds: float
    peak_rss: int
    status: int
    error: str = ""  #: the last line of standard error when the command failed
    cpu_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == 0


@cache
def gnu_time() -> str | None:
    """The GNU time program, or None when it is not installed."""
    program = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time")
                                       else None)
    if program is None:
        return None
    probe = subprocess.run([program, "-f", "%M", "-o", os.devnull, "true"],
                           capture_output=True, check=False)
    return program if probe.returncode == 0 else None


def run_measured(argv: Sequence[str], stdout: Path | None = None, cwd: Path | None = None,
                 env: dict[str, str] | None = None) -> Measurement:
    """Run ``argv`` to completion (standard output to ``stdout``, else discarded)."""
    timer = gnu_time()
    with open(stdout or os.devnull, "wb") as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        command = [timer, "-f", "%M %U %S", "-o", report.name, *argv] if timer else list(argv)
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                   cwd=cwd, env=env)
        tree = _TreeMemory(process.pid)
        _, wait_status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        tree_peak = tree.stop()
        process.returncode = status = os.waitstatus_to_exitcode(wait_status)
        peak_rss = usage.ru_maxrss * _MAXRSS_UNIT
        cpu_seconds = usage.ru_utime + usage.ru_stime
        if timer:
            lines = report.read().split("\n")
            kilobytes, user, system = [line for line in lines if line.strip()][-1].split()
            peak_rss, cpu_seconds = int(kilobytes) * _KILOBYTE, float(user) + float(system)
        peak_rss = max(peak_rss, tree_peak)
        error = ""
        if status != 0:
            err.seek(0)
            error = _error_line(err.read().decode("utf-8", "replace")) or \
                f"exit status {status}"
    return Measurement(seconds, peak_rss, status, error, cpu_seconds)


def _error_line(stderr: str) -> str:
    """What a failed command said: its first line naming an error (pandoc's ``Error at
    "x.bib" (line 3, column 19):`` comes before the offending line and a caret), else its
    last line, shortened."""
    lines = [line for line in stderr.splitlines() if line.strip()] or [""]
    line = next((line for line in lines if "error" in line.lower()), lines[-1])
    return " ".join(line.split())[:_ERROR_LENGTH]


class _TreeMemory:
    """Samples the summed PSS of a process and all its descendants until stopped (Linux; a
    peak of 0 elsewhere)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        if os.path.exists(f"/proc/{pid}/smaps_rollup"):
            self._thread.start()

    def _sample(self) -> None:
        while not self._done.wait(TREE_SAMPLE_SECONDS):
            self.peak = max(self.peak, sum(_pss(p) for p in _descendants(self.pid)))

    def stop(self) -> int:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()
        return self.peak


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (from /proc/PID/task/TID/children)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as file:
                    pending.extend(int(child) for child in file.read().split())
        except OSError:  # the process ended meanwhile
            continue
    return found


def _pss(pid: int) -> int:
    """The proportional set size of ``pid`` in bytes (0 once it has ended)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as file:
            for line in file:
                if line.startswith(_PSS_LINE):
                    return int(line.split()[1]) * _KILOBYTE
    except (OSError, ValueError):
        return 0
    return 0
