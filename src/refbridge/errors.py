"""Errors and diagnostics: how refbridge tells a user what is wrong with which file and line.

Readers report problems to a ``Diagnostics`` collector instead of printing. In lenient mode a
broken record is skipped with a warning and counted; in strict mode the first one raises. The
exit statuses the command line uses are defined here, once. This module must never print or exit.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterator
from dataclasses import dataclass, field


class ExitStatus(enum.IntEnum):
    """Documented exit statuses of the ``refbridge`` command."""

    OK = 0
    FAILED = 1  #: input could not be read or converted; nothing was written
    USAGE = 2  #: bad command-line usage
    SKIPPED = 3  #: the output was written, but broken records were skipped, values or citation
    #: keys changed (see warnings)
    PROBLEMS = 4  #: ``refbridge check`` found problems in records that were read
    MISSING = 5  #: ``refbridge cited`` wrote the output, but cited keys are in no library


class RefbridgeError(Exception):
    """Base class of every error refbridge reports to users (never shown as a traceback)."""

    exit_status: ExitStatus = ExitStatus.FAILED


def location(file: str | None, line: int | None = None, column: int | None = None) -> str:
    """``file:line:column``, leaving out what is unknown."""
    text = file or "<input>"
    if line is not None:
        text += f":{line}"
        if column is not None:
            text += f":{column}"
    return text


class ParseError(RefbridgeError):
    """Input that cannot be read, with the file, line and column where the problem is."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        super().__init__(f"{location(file, line, column)}: {message}")

    def __reduce__(self) -> tuple[type[ParseError], tuple[str, str | None, int | None,
                                                           int | None]]:
        """Pickled with its parts (a worker process raises it for the main process)."""
        return type(self), (self.message, self.file, self.line, self.column)


class OutputError(RefbridgeError):
    """An output that cannot be written (the existing file, if any, is left untouched)."""


class EntryFailed(RefbridgeError):
    """An entry a job failed on through a fault of refbridge's (a bug), named so the user can
    find it in a bibliography of thousands; the fault itself is the exception's cause."""

    def __init__(self, key: str, fault: Exception) -> None:
        self.key = key
        super().__init__(f"entry {key!r}: internal error: {type(fault).__name__}: {fault} "
                         "(set REFBRIDGE_DEBUG=1 for details)")


@contextlib.contextmanager
def entry_named(key: str) -> Iterator[None]:
    """Work on the entry *key*: a fault in it (not a ``RefbridgeError``) raises ``EntryFailed``."""
    try:
        yield
    except RefbridgeError:
        raise
    except Exception as fault:
        raise EntryFailed(key, fault) from fault


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One message about the input: ``warning`` (kept going) or ``error`` (record skipped)."""

    level: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = "refbridge" if self.file is None else location(self.file, self.line, self.column)
        return f"{where}: {self.level}: {self.message}"


@dataclass(slots=True)
class Diagnostics:
    """Collects warnings and skipped-record errors of one run.

    ``strict``: the first error raises ``ParseError`` instead of skipping the record.
    """

    strict: bool = False
    messages: list[Diagnostic] = field(default_factory=list)
    skipped: int = 0
    read_in_part: int = 0  #: broken records kept with what came before the break
    changed: int = 0  #: values a reader had to change to keep them (a lone surrogate replaced)
    keys_changed: int = 0  #: citation keys the output could not hold, written changed

    def warning(self, message: str, file: str | None = None, line: int | None = None,
                column: int | None = None) -> None:
        self.messages.append(Diagnostic("warning", message, file, line, column))

    def change(self, message: str, file: str | None = None, line: int | None = None,
               column: int | None = None) -> None:
        """A value kept only in part (the record is kept): a warning the run's exit status
        tells of."""
        self.changed += 1
        self.messages.append(Diagnostic("warning", message, file, line, column))

    def error(self, message: str, file: str | None = None, line: int | None = None,
              column: int | None = None) -> None:
        """A record that could not be read: raise in strict mode, else count it as skipped."""
        if self.strict:
            raise ParseError(message, file, line, column)
        self.skipped += 1
        self.messages.append(Diagnostic("error", message, file, line, column))

    def broken(self, message: str, file: str | None = None, line: int | None = None,
               column: int | None = None) -> None:
        """A record read only up to a break in it: raise in strict mode, else count it."""
        if self.strict:
            raise ParseError(message, file, line, column)
        self.read_in_part += 1
        self.messages.append(Diagnostic("error", message, file, line, column))

    def key_changed(self, old: str, new: str, output: str, file: str | None = None,
                    line: int | None = None, why: str | None = None) -> None:
        """A citation key written as ``new`` because the ``output`` format cannot hold
        ``old`` (or for ``why``): a warning, counted (the run exits ``SKIPPED``)."""
        self.keys_changed += 1
        self.messages.append(Diagnostic(
            "warning", f"citation key changed: {old!r} -> {new!r} "
                       f"({why or f'{output} cannot hold it'})", file, line))

    @property
    def warnings(self) -> list[Diagnostic]:
        return [m for m in self.messages if m.level == "warning"]

    @property
    def errors(self) -> list[Diagnostic]:
        return [m for m in self.messages if m.level == "error"]


class BrokenRecords(RefbridgeError):
    """Records that could not be read (or were read only in part), reported together once
    the whole input has been read: what a strict library call raises instead of skipping."""

    exit_status = ExitStatus.SKIPPED

    def __init__(self, diagnostics: Diagnostics) -> None:
        self.diagnostics = diagnostics
        problems = diagnostics.errors
        super().__init__(f"{len(problems)} broken record(s): "
                         + "; ".join(str(problem) for problem in problems))
