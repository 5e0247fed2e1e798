"""The ``refbridge`` command line: parses options and calls the library, nothing more.

Every command reports input problems as ``file:line: level: message`` on standard error and
exits with a documented status (``refbridge.errors.ExitStatus``); no traceback reaches the user
(set ``REFBRIDGE_DEBUG=1`` to see one for an internal error). Library modules are imported
inside the commands so that ``refbridge`` starts fast.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from refbridge import __version__
from refbridge.errors import Diagnostics, ExitStatus, RefbridgeError

F = TypeVar("F", bound=Callable[..., Any])


def _report(diagnostics: Diagnostics, accept_skipped: bool) -> None:
    """Print the run's messages; exit with SKIPPED if records were skipped unaccepted."""
    for message in diagnostics.messages:
        click.echo(str(message), err=True)
    if diagnostics.skipped:
        click.echo(f"refbridge: {diagnostics.skipped} broken record(s) skipped", err=True)
        if not accept_skipped:
            sys.exit(ExitStatus.SKIPPED)


def handle_errors(command: F) -> F:
    """Turn refbridge's errors into a message and an exit status, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RefbridgeError as exc:
            click.echo(f"refbridge: error: {exc}", err=True)
            sys.exit(exc.exit_status)
        except KeyboardInterrupt:
            click.echo("refbridge: interrupted", err=True)
            sys.exit(130)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # a bug: say so plainly, with the traceback on request
            if os.environ.get("REFBRIDGE_DEBUG"):
                raise
            click.echo(f"refbridge: internal error: {type(exc).__name__}: {exc} "
                       "(set REFBRIDGE_DEBUG=1 for details)", err=True)
            sys.exit(ExitStatus.FAILED)

    return wrapper  # type: ignore[return-value]


def input_options(command: F) -> F:
    """Options every command that reads records shares."""
    for option in reversed([
        click.argument("inputs", nargs=-1, required=True, metavar="INPUT..."),
        click.option("--from", "from_format", metavar="FORMAT",
                     help="Input format (default: detected from name and content)."),
        click.option("--encoding", metavar="NAME",
                     help="Input encoding (default: BOM, UTF-8, else cp1252)."),
        click.option("--strict", is_flag=True, help="Stop at the first broken record."),
        click.option("--skip-invalid", is_flag=True,
                     help="Exit 0 even if broken records were skipped (they are still "
                          "reported)."),
    ]):
        command = option(command)
    return command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="refbridge")
def main() -> None:
    """Turn publication records into .bib files, Zotero imports and publication lists."""


@main.command()
@input_options
@click.option("--to", "to_format", required=True, metavar="FORMAT",
              help="Output format (see `refbridge formats`).")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@click.option("--key-pattern", metavar="PATTERN",
              help="Citation-key pattern, e.g. '[auth:lower][year][shorttitle:1:lower]'.")
@click.option("--regenerate-keys", is_flag=True, help="Replace keys read from the input.")
@click.option("--fields", metavar="LIST", help="Write only these fields (comma-separated).")
@click.option("--exclude-fields", metavar="LIST", default="",
              help="Never write these fields (comma-separated), e.g. abstract,keywords.")
@click.option("--indent", default=2, show_default=True, type=click.IntRange(0, 16),
              help="Spaces of indentation.")
@click.option("--collection", metavar="NAME",
              help="Name of the collection holding the records (Zotero).")
@handle_errors
def convert(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
            strict: bool, skip_invalid: bool, to_format: str, output: str, unicode: bool,
            key_pattern: str | None, regenerate_keys: bool, fields: str | None,
            exclude_fields: str, indent: int, collection: str | None) -> None:
    """Convert INPUT files (- for standard input) to another format."""
    from refbridge.pipeline import ReadOptions, convert as run
    from refbridge.registry import WriteOptions

    def field_set(text: str) -> frozenset[str]:
        return frozenset(f.strip() for f in text.split(",") if f.strip())

    write_options = WriteOptions(
        unicode=unicode, key_pattern=key_pattern, regenerate_keys=regenerate_keys,
        include_fields=field_set(fields) if fields else None,
        exclude_fields=field_set(exclude_fields), indent=" " * indent, collection=collection)
    report = run(list(inputs), output, to_format, ReadOptions(from_format, encoding),
                 write_options, strict=strict)
    _report(report.diagnostics, skip_invalid)


@main.command()
@handle_errors
def formats() -> None:
    """List the registered readers and writers."""
    from refbridge.registry import get_reader, get_writer, reader_names, writer_names

    click.echo("Readers (--from):")
    for name in reader_names():
        click.echo(f"  {name:<12} {get_reader(name).description}")
    click.echo("Writers (--to):")
    for name in writer_names():
        click.echo(f"  {name:<12} {get_writer(name).description}")
