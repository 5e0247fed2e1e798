"""The ``index`` commands: a local index of whole dumps (dblp, OpenAlex, Crossref, arXiv) that
``verify --index`` answers from. This module must never do the index's work
(``refbridge.index``)."""

from __future__ import annotations

import click

from refbridge.cli.reporting import _report, handle_errors
from refbridge.errors import Diagnostics

#: The dump formats the index reads (``refbridge.index.build.DUMPS``).
DUMP_FORMATS = ("dblp-xml", "openalex-works", "crossref-works", "arxiv-metadata")


@click.group("index")
def index_group() -> None:
    """A local index of whole dumps (DuckDB) for verify --index."""


@index_group.command("build")
@click.argument("dumps", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", required=True, metavar="FILE",
              help="The index file to write (FILE.duckdb); replaced only when complete.")
@click.option("--from", "from_format", type=click.Choice(DUMP_FORMATS), default=None,
              help="The dumps' format (default: told from each file).")
@click.option("--strict", is_flag=True, help="Fail on the first work that cannot be read.")
@click.option("--skip-invalid", is_flag=True,
              help="Exit 0 even when broken works were left out (they are still reported).")
@handle_errors
def build_command(dumps: tuple[str, ...], output: str, from_format: str | None,
                  strict: bool, skip_invalid: bool) -> None:
    """Index every work of DUMPS by DOI, arXiv id, PMID and title into one DuckDB file."""
    from refbridge.index.build import candidates
    from refbridge.index.store import write_index

    diagnostics = Diagnostics(strict=strict)
    found = (work for path in dumps for work in candidates(path, diagnostics, from_format))
    count = write_index(found, output)
    click.echo(f"refbridge: {count} work(s) indexed in {output}", err=True)
    _report(diagnostics, skip_invalid)
