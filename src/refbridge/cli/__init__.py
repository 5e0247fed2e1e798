"""The ``refbridge`` command line: parses options and calls the library, nothing more.

Every command reports input problems as ``file:line: level: message`` on standard error and
exits with a documented status (``refbridge.errors.ExitStatus``); no traceback reaches the user
(set ``REFBRIDGE_DEBUG=1`` to see one for an internal error). Each family of commands is a
module of this package (``convert``, ``library``, ``git``, ``services``, ``zotero``, ``site``, ``lsp``, ``serve``),
imported only when one of its commands runs (``COMMANDS``), and library modules are imported
inside the commands, so that ``refbridge`` starts fast. The options several commands share are
in ``options``, how a command ends in ``reporting``. This package must never do a command's
work: that is the jobs' (``refbridge.pipeline``, ``refbridge.gather``, ...).
"""

from __future__ import annotations

import gc
import importlib
import sys
from typing import Any

import click

from refbridge.errors import ExitStatus
from refbridge.version import __version__

#: Each command: the module of this package that defines it, and the command's name there.
COMMANDS: dict[str, tuple[str, str]] = {
    "convert": ("convert", "convert"),
    "formats": ("convert", "formats"),
    "format": ("convert", "format_command"),
    "styles": ("convert", "styles_command"),
    "cv": ("convert", "cv_command"),
    "check": ("library", "check_command"),
    "fmt": ("library", "fmt_command"),
    "cited": ("library", "cited_command"),
    "merge-driver": ("git", "merge_driver_command"),
    "diff": ("git", "diff_command"),
    "dedupe": ("git", "dedupe_command"),
    "enrich": ("services", "enrich_command"),
    "fetch": ("services", "fetch_command"),
    "verify": ("services", "verify_command"),
    "upgrade": ("services", "upgrade_command"),
    "push": ("zotero", "push_command"),
    "pull": ("zotero", "pull_command"),
    "sync": ("zotero", "sync_command"),
    "site": ("site", "site_command"),
    "lsp": ("lsp", "lsp_command"),
    "serve": ("serve", "serve_command"),
    "index": ("index", "index_group"),
}

#: The cyclic collector's first threshold for a command: records are built by the thousand and
#: hold no cycles, and at the default (700 allocations) the collector walks them again and
#: again (1.5% of the instructions of tugboat.bib to .bib; peak memory the same).
COLLECTOR_THRESHOLD = 20_000


class _Commands(click.Group):
    """refbridge's commands, each loaded from its module when it is asked for (``COMMANDS``);
    what click prints itself (help, usage, the version) fails as a command's output does when
    standard output refuses it: one line, exit status 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        # a name no command has: every command, for the names click suggests instead
        for name in [cmd_name] if cmd_name in COMMANDS else COMMANDS:
            if name not in self.commands:
                module, attribute = COMMANDS[name]
                self.add_command(
                    getattr(importlib.import_module(f"{__name__}.{module}"), attribute), name)
        return super().get_command(ctx, cmd_name)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                sys.stdout.flush()  # here, not at exit, where a failure is a traceback
        except OSError as exc:
            from refbridge.cli.reporting import _stdout_refusal

            refusal = _stdout_refusal(exc)
            if refusal is None:
                raise
            click.echo(f"refbridge: error: <stdout>: cannot write: {refusal}", err=True)
            sys.exit(ExitStatus.FAILED)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="refbridge")
def main() -> None:
    """Turn publication records into .bib files, Zotero imports and publication lists."""
    gc.set_threshold(COLLECTOR_THRESHOLD, *gc.get_threshold()[1:])
