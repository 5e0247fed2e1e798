"""The commands between refbridge and Zotero: ``push``, ``pull`` and ``sync``, and the options
that name a Zotero library. Each parses its options and calls the library; nothing more."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from refbridge.cli.options import F, _key_lock, _usable_key_pattern, input_options, key_lock_option
from refbridge.cli.reporting import _Progress, _report, handle_errors
from refbridge.errors import Diagnostics, ExitStatus

ZOTERO_SERVICES = click.Choice(["zotero-desktop", "zotero-web"])


class ZoteroSource(click.ParamType[str, Any]):
    """``--from`` of pull and sync: a service, or ``zotero-sqlite[:PATH]`` (a database file)."""

    name = "zotero-desktop|zotero-web|zotero-sqlite[:PATH]"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        if text in ZOTERO_SERVICES.choices or text.partition(":")[0] == "zotero-sqlite":
            return text
        self.fail(f"{text!r} is not one of zotero-desktop, zotero-web, zotero-sqlite[:PATH]",
                  param, ctx)


def zotero_options(direction: str) -> Callable[[F], F]:
    """The options that name a Zotero library: ``--to``/``--from`` (``direction``),
    ``--library``, ``--collection``, ``--zotero-url``."""
    def decorate(command: F) -> F:
        for option in reversed([
            click.option(f"--{direction}", "service", required=True,
                         type=ZOTERO_SERVICES if direction == "to" else ZoteroSource(),
                         help="The Zotero desktop on this computer, or zotero.org"
                              + ("." if direction == "to" else ", or a zotero.sqlite read "
                                 "as a file (default: the data directory's).")),
            click.option("--library", metavar="user:ID|group:ID",
                         help="zotero.org: the library (the desktop: its own by default; "
                              "zotero-sqlite: user, group:NAME or group:ID)."),
            click.option("--collection", metavar="NAME",
                         help="A collection, by name or path (Parent/Child)."),
            click.option("--zotero-url", metavar="URL",
                         help="Base address of Zotero (default: $REFBRIDGE_ZOTERO_DESKTOP or "
                              "http://127.0.0.1:23119; $REFBRIDGE_ZOTERO_API or "
                              "https://api.zotero.org)."),
        ]):
            command = option(command)
        return command
    return decorate


@click.command("push")
@input_options
@zotero_options("to")
@click.option("--update", is_flag=True,
              help="Update items the library has already (zotero.org only).")
@click.option("--dry-run", is_flag=True, help="Say what would be done; save nothing.")
@click.option("--tag", "tags", multiple=True, metavar="TAG",
              help="Tag every pushed item with TAG; repeatable.")
@click.option("--allow-duplicates", is_flag=True,
              help="Desktop without its local API: add the records without checking.")
@handle_errors
def push_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                 strict: bool, skip_invalid: bool, service: str, library: str | None,
                 collection: str | None, zotero_url: str | None, update: bool, dry_run: bool,
                 tags: tuple[str, ...], allow_duplicates: bool) -> None:
    """Push INPUT records into a Zotero library; records it has already are skipped."""
    from refbridge.runs import ReadOptions
    from refbridge.zotero_bridge.address import library_address
    from refbridge.zotero_bridge.push import PushOptions, push_inputs

    address = library_address(service, library, collection, zotero_url)
    diagnostics = Diagnostics(strict=strict)
    with _Progress("Pushing") as bar:
        report = push_inputs(inputs, ReadOptions(from_format, encoding), address,
                             PushOptions(collection, update, dry_run, tags, allow_duplicates),
                             diagnostics, bar.say, bar)
    _report(diagnostics, skip_invalid)
    if report.failed:
        sys.exit(ExitStatus.FAILED)


@click.command("pull")
@zotero_options("from")
@click.option("--to", "to_format", required=True, metavar="FORMAT",
              help="Output format (see `refbridge formats`).")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--key-pattern", metavar="PATTERN", callback=_usable_key_pattern,
              help="Pattern of the keys of items the library gives none.")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@key_lock_option
@handle_errors
def pull_command(service: str, library: str | None, collection: str | None,
                 zotero_url: str | None, to_format: str, output: str, key_pattern: str | None,
                 unicode: bool, key_lock: str | None) -> None:
    """Write a Zotero library (or one collection) in another format."""
    from refbridge.registry import WriteOptions, get_writer
    from refbridge.zotero_bridge.address import source_address
    from refbridge.zotero_bridge.pull import pull

    get_writer(to_format)  # an unknown format fails before Zotero is asked
    address = source_address(service, library, collection, zotero_url)
    diagnostics = Diagnostics()
    with _Progress("Reading Zotero") as bar:
        pull(address, output, to_format, WriteOptions(unicode=unicode, key_pattern=key_pattern),
             key_lock, diagnostics, bar.say, bar)
    _report(diagnostics, accept_skipped=False)


@click.command("sync")
@zotero_options("from")
@click.option("--to", "to_format", default="bibtex", show_default=True, metavar="FORMAT",
              help="bibtex, biblatex, csl-json or ris.")
@click.option("-o", "--output", required=True, metavar="FILE", help="The file kept in sync.")
@click.option("--key-file", metavar="FILE",
              help="Where written keys are kept (default: OUTPUT.keys.json).")
@click.option("--key-pattern", metavar="PATTERN", callback=_usable_key_pattern,
              help="Pattern of the keys of items the library gives none.")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@click.option("--watch", type=click.FloatRange(min=1), metavar="SECONDS",
              help="Keep syncing every SECONDS until interrupted.")
@key_lock_option
@handle_errors
def sync_command(service: str, library: str | None, collection: str | None,
                 zotero_url: str | None, to_format: str, output: str, key_file: str | None,
                 key_pattern: str | None, unicode: bool, watch: float | None,
                 key_lock: str | None) -> None:
    """Keep a file up to date with a Zotero library: only changes are fetched, keys never
    change once written, and the file is rewritten only when its content changed."""
    from pathlib import Path

    from refbridge.registry import WriteOptions
    from refbridge.zotero_bridge.address import source_address
    from refbridge.zotero_bridge.sync import SyncOptions, sync_forever, sync_once, sync_writer

    sync_writer(to_format)
    address = source_address(service, library, collection, zotero_url)
    lock = _key_lock(key_lock, output)
    options = SyncOptions(to_format, Path(key_file) if key_file else None,
                          WriteOptions(unicode=unicode, key_pattern=key_pattern, key_lock=lock))
    bar = _Progress("Reading Zotero")

    def show(report: Any) -> None:
        bar.close()
        for message in report.diagnostics.messages:
            click.echo(str(message), err=True)
        click.echo(f"refbridge: sync: {report.summary()}", err=True)

    if watch is None:
        report = sync_once(address, Path(output), options, bar)
        show(report)
        if report.diagnostics.skipped or report.diagnostics.changed:
            sys.exit(ExitStatus.SKIPPED)
        return
    try:
        sync_forever(address, Path(output), options, watch, show,
                     lambda exc: click.echo(f"refbridge: sync: {exc}; trying again in "
                                            f"{watch:g} s", err=True), bar)
    except KeyboardInterrupt:
        click.echo("refbridge: sync: stopped", err=True)
