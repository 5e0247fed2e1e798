"""How every command ends: its messages and exit status (``_report``), refbridge's errors as one
line and a status, never a traceback (``handle_errors``), and a progress bar on a terminal
(``_Progress``). This module must never parse options or do a command's work."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sys
from typing import Any, final

import click

from refbridge.cli.options import F
from refbridge.errors import Diagnostics, EntryFailed, ExitStatus, RefbridgeError


def _report(diagnostics: Diagnostics, accept_skipped: bool) -> None:
    """Print the run's messages; exit with SKIPPED if records were skipped unaccepted or
    citation keys were changed."""
    for message in diagnostics.messages:
        click.echo(str(message), err=True)
    if diagnostics.read_in_part:
        click.echo(f"refbridge: {diagnostics.read_in_part} broken record(s) read up to the "
                   "break", err=True)
    if diagnostics.skipped:
        click.echo(f"refbridge: {diagnostics.skipped} broken record(s) skipped", err=True)
    if diagnostics.changed:
        click.echo(f"refbridge: {diagnostics.changed} value(s) changed to be written",
                   err=True)
    if diagnostics.keys_changed:
        click.echo(f"refbridge: {diagnostics.keys_changed} citation key(s) changed", err=True)
    if (diagnostics.skipped or diagnostics.read_in_part or diagnostics.changed) \
            and not accept_skipped or diagnostics.keys_changed:
        sys.exit(ExitStatus.SKIPPED)


#: Errors of writing that no bug causes: every file refbridge writes reports them itself
#: (``textio.atomic_output``), so one that reaches ``handle_errors`` is standard output's.
_WRITE_FAULTS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _stdout_refusal(fault: Exception) -> str | None:
    """Why standard output refused what was printed to it (a full disk, ``> /dev/full``),
    when ``fault`` is that; it is then pointed at the null device, so that nothing fails
    again at exit."""
    if not isinstance(fault, OSError) or fault.errno not in _WRITE_FAULTS:
        return None
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return fault.strerror or str(fault)


def handle_errors(command: F) -> F:
    """Turn refbridge's errors into a message and an exit status, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RefbridgeError as exc:
            if isinstance(exc, EntryFailed) and os.environ.get("REFBRIDGE_DEBUG"):
                raise  # with the fault's own traceback before it
            click.echo(f"refbridge: error: {exc}", err=True)
            sys.exit(exc.exit_status)
        except KeyboardInterrupt:
            click.echo("refbridge: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:  # the reader of our output went away (`refbridge ... | head`)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(ExitStatus.OK)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # a bug: say so plainly, with the traceback on request
            refusal = _stdout_refusal(exc)
            if refusal is not None:
                click.echo(f"refbridge: error: <stdout>: cannot write: {refusal}", err=True)
                sys.exit(ExitStatus.FAILED)
            if os.environ.get("REFBRIDGE_DEBUG"):
                raise
            click.echo(f"refbridge: internal error: {type(exc).__name__}: {exc} "
                       "(set REFBRIDGE_DEBUG=1 for details)", err=True)
            sys.exit(ExitStatus.FAILED)

    return wrapper  # type: ignore[return-value]


@final
class _Progress:
    """A progress bar on standard error, on a terminal, once a run says how long it is."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None and total > 1 and sys.stderr.isatty():
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                         show_pos=True)
            self.bar.__enter__()
        if self.bar is not None:
            self.bar.update(done - self.bar.pos)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def say(self, line: str) -> None:
        """``line`` on standard error, below the bar, which is done."""
        self.close()
        click.echo(line, err=True)

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _echo_error(line: str) -> None:
    click.echo(line, err=True)
