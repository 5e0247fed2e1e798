"""The job of ``refbridge check``: findings of the inputs printed in a report format as they
come, the safe fixes written back when asked, and the counts the exit status is decided by.
This module must never print anything but the report lines it is given a writer for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from refbridge.check.fixes import Applied, FixBook
from refbridge.check.report import report_lines
from refbridge.check.rules import Finding, fails
from refbridge.check.run import CheckOptions, check_files
from refbridge.errors import Diagnostics
from refbridge.runs import ReadOptions


@dataclass(slots=True)
class CheckRun:
    """What a check found: the findings reported, those at least as severe as ``fail_on``,
    and the fixes written."""

    found: int = 0
    failing: int = 0
    fixed: list[Applied] = field(default_factory=list)


def run_check_command(inputs: Sequence[str], diagnostics: Diagnostics, options: CheckOptions,
                      read_options: ReadOptions, write: Callable[[str], None],
                      form: str = "text", fix: bool = False, fail_on: str = "warning"
                      ) -> CheckRun:
    """Check ``inputs``, ``write`` each line of the ``form`` report; with ``fix``, the findings
    with a safe fix are fixed (and not reported) and their files written back."""
    run = CheckRun()
    fixes = FixBook()

    def reported() -> Iterator[Finding]:
        for finding in check_files(inputs, diagnostics, read_options=read_options,
                                   options=options):
            if not (fix and fixes.take(finding)):
                run.found += 1
                run.failing += fails(finding, fail_on)
                yield finding

    for line in report_lines(reported(), form):
        write(line)
    if fix:
        run.fixed = fixes.apply()
    return run
