"""The ``index`` commands: a local index of whole dumps (dblp, OpenAlex, Crossref, arXiv) that
``verify --index`` answers from. This module must never do the index's work
(``refbridge.index``)."""

from __future__ import annotations

import click

from refbridge.cli.reporting import _report, handle_errors
from refbridge.errors import Diagnostics
from refbridge.vocab import ENGINES

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
@click.option("--engine", type=click.Choice(ENGINES), default="duckdb", show_default=True,
              help="Read the dumps in this process, or on Spark (one dump a partition; "
                   "REFBRIDGE_SPARK_MASTER, default local[*]).")
@handle_errors
def build_command(dumps: tuple[str, ...], output: str, from_format: str | None,
                  strict: bool, skip_invalid: bool, engine: str) -> None:
    """Index every work of DUMPS by DOI, arXiv id, PMID and title into one DuckDB file."""
    from refbridge.index.build import build_index

    diagnostics = Diagnostics(strict=strict)
    count = build_index(list(dumps), output, diagnostics, from_format, engine)
    click.echo(f"refbridge: {count} work(s) indexed in {output}", err=True)
    _report(diagnostics, skip_invalid)


def _years(_: click.Context, __: click.Parameter, value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    first, _dash, last = value.partition("-")
    if not (first.isdigit() and (not last or last.isdigit())):
        raise click.BadParameter("a year or a span of years: 2021 or 2019-2023")
    return int(first), int(last or first)


@index_group.command("select")
@click.argument("slices", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--orcid", "orcids", multiple=True, required=True, metavar="ID",
              help="An author's ORCID iD; repeatable: one output file each.")
@click.option("--venue", metavar="NAME", help="Only works in this venue (its display name).")
@click.option("--years", callback=_years, metavar="YEARS",
              help="Only works of these years: 2021 or 2019-2023.")
@click.option("--to", "to_format", required=True, metavar="FORMAT",
              help="Output format (see `refbridge formats`).")
@click.option("-o", "--output", required=True, metavar="FOLDER",
              help="The folder receiving ORCID.EXT for each author.")
@click.option("--engine", type=click.Choice(ENGINES), default="duckdb", show_default=True,
              help="Filter the slices in this process, or on Spark (one slice a partition, "
                   "filtered by DuckDB there; REFBRIDGE_SPARK_MASTER).")
@handle_errors
def select_command(slices: tuple[str, ...], orcids: tuple[str, ...], venue: str | None,
                   years: tuple[int, int] | None, to_format: str, output: str, engine: str
                   ) -> None:
    """The works of each ORCID iD in OpenAlex SLICES (JSON Lines or Parquet), filtered inside
    DuckDB's scan, one file per author."""
    import os

    from refbridge.index.select import Selection, select_works
    from refbridge.names.ids import PersonIdError
    from refbridge.pipeline import write_records
    from refbridge.registry import get_writer

    extension = get_writer(to_format).extension
    diagnostics = Diagnostics()
    try:
        chosen = select_works(list(slices), Selection(orcids, venue, years), diagnostics,
                              engine)
    except PersonIdError as exc:
        raise click.BadParameter(str(exc), param_hint="--orcid") from None
    os.makedirs(output, exist_ok=True)
    for orcid, records in chosen.items():
        path = os.path.join(output, f"{orcid}{extension}")
        count = write_records(records, path, to_format, diagnostics=diagnostics)
        click.echo(f"refbridge: {path}: {count} work(s)", err=True)
    _report(diagnostics, False)
