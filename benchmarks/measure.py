"""Running one command in a fresh process and measuring its wall time, CPU time and peak memory.

CPU time (user + system) is reported beside wall time because a machine shared with other work
stretches wall time while CPU time stays put. Peak memory is the child's own maximum resident set size, read with ``os.wait4`` when it ends
(the same figure ``/usr/bin/time`` reports), so each measurement counts one process only.
This module must never know what the commands do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: ``ru_maxrss`` is in kilobytes on Linux, in bytes on macOS.
_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024
_ERROR_LENGTH = 160


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


def run_measured(argv: Sequence[str], stdout: Path | None = None, cwd: Path | None = None,
                 env: dict[str, str] | None = None) -> Measurement:
    """Run ``argv`` to completion (standard output to ``stdout``, else discarded)."""
    with open(stdout or os.devnull, "wb") as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                   cwd=cwd, env=env)
        _, wait_status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = status = os.waitstatus_to_exitcode(wait_status)
        error = ""
        if status != 0:
            err.seek(0)
            lines = err.read().decode("utf-8", "replace").strip().splitlines() or [""]
            error = " ".join(lines[-1].split())[:_ERROR_LENGTH] or f"exit status {status}"
    return Measurement(seconds, usage.ru_maxrss * _MAXRSS_UNIT, status, error,
                       usage.ru_utime + usage.ru_stime)
