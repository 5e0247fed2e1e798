"""The commands that ask services: ``enrich``, ``fetch``, ``verify`` and ``upgrade``. Each
parses its options and calls the library; nothing more."""

from __future__ import annotations

import sys
from typing import Any

import click

from refbridge.cli.enrichment import _enrich_and_write
from refbridge.cli.options import (
    _client_settings,
    _key_lock,
    enrich_options,
    http_options,
    input_options,
    key_lock_option,
    service_options,
)
from refbridge.cli.reporting import _echo_error, _Progress, _report, handle_errors
from refbridge.errors import Diagnostics, ExitStatus


@click.command("enrich")
@input_options
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--to", "to_format", metavar="FORMAT",
              help="Output format (default: from the output file's extension, else csl-json, "
                   "which keeps every enriched value).")
@key_lock_option
@click.option("--index", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="Answer from a local index of dumps (refbridge index build) instead of the "
                   "services, offline; the services it does not hold are not asked.")
@enrich_options
@handle_errors
def enrich_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                   strict: bool, skip_invalid: bool, output: str, to_format: str | None,
                   key_lock: str | None, index: str | None, enrichment: dict[str, Any]
                   ) -> None:
    """Complete INPUT records from arXiv, Crossref and OpenAlex (or a local index of their
    dumps): full author lists, arXiv identifiers and categories, and the published version
    when there is one."""
    from refbridge.registry import WriteOptions, writer_for_file
    from refbridge.runs import ReadOptions

    enrichment = {**enrichment, "index": index}
    to_format = to_format or writer_for_file(output) or "csl-json"
    _enrich_and_write(inputs, output, to_format, ReadOptions(from_format, encoding),
                      WriteOptions(key_lock=_key_lock(key_lock, output, *inputs)), strict,
                      skip_invalid, enrichment)


@click.command("fetch")
@click.argument("targets", nargs=-1, required=True, metavar="SERVICE:ID...")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--to", "to_format", metavar="FORMAT",
              help="Output format (default: from the output file's extension, else csl-json).")
@key_lock_option
@http_options
@handle_errors
def fetch_command(targets: tuple[str, ...], output: str, to_format: str | None,
                  key_lock: str | None, http: dict[str, Any]) -> None:
    """Fetch a researcher's publication list: orcid:ID, dblp:PID, openalex:ID, s2:ID or
    arxiv-author:"NAME" (several are written one after the other)."""
    from refbridge.fetch import fetch_to_file, parse_target
    from refbridge.registry import get_writer, writer_for_file
    from refbridge.services.settings import ClientOptions

    parsed = [parse_target(target) for target in targets]  # usage errors before any request
    to_format = to_format or writer_for_file(output) or "csl-json"
    get_writer(to_format)
    options = ClientOptions(**_client_settings(http))
    diagnostics = Diagnostics()
    show = sys.stderr.isatty()

    def progress(target: Any, count: int) -> None:
        if show:
            click.echo(f"\rFetching {target}: {count} record(s)", nl=False, err=True)

    def say(line: str) -> None:  # below the progress line
        click.echo(("\n" if show else "") + line, err=True)

    fetch_to_file(parsed, output, to_format, options, key_lock, diagnostics, say, progress)
    _report(diagnostics, accept_skipped=False)


def _verify_options(services: dict[str, Any], only: str | None, index: str | None = None
                    ) -> Any:
    from refbridge.verify.settings import VERIFY_SERVICES, VerifyOptions

    chosen = tuple(s.strip() for s in only.split(",") if s.strip()) if only else VERIFY_SERVICES
    if index is not None and not only:
        from refbridge.index.store import services_of

        chosen = services_of(index)
    return VerifyOptions(services=chosen, index=index, **_client_settings(services))


_INDEX_OPTION = click.option(
    "--index", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
    help="Answer from a local index of dumps (refbridge index build) instead of the "
         "services; --services defaults to those the index holds.")
_VERIFY_SERVICES_OPTION = click.option(
    "--services", "only", metavar="LIST",
    help="Services to ask, comma-separated (default: crossref,openalex,dblp,arxiv,datacite).")


@click.command("verify")
@input_options
@click.option("--format", "form", type=click.Choice(["text", "json", "sarif", "github"]),
              default="text", show_default=True, help="How the findings are printed.")
@click.option("--fail-on", default="retracted,not-found,mismatch,concern,unreachable",
              show_default=True, metavar="LIST",
              help="Exit 4 when an entry has one of these findings (comma-separated; also "
                   "corrected, published, verified; none: never).")
@_VERIFY_SERVICES_OPTION
@_INDEX_OPTION
@service_options
@handle_errors
def verify_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                   strict: bool, skip_invalid: bool, form: str, fail_on: str,
                   only: str | None, index: str | None, services: dict[str, Any]) -> None:
    """Check each INPUT entry against Crossref, OpenAlex, dblp, arXiv and DataCite: verified,
    mismatch, not found, retracted, now published, or a service that failed."""
    from refbridge.runs import ReadOptions
    from refbridge.verify.command import run_verify
    from refbridge.verify.report import fail_on_kinds

    kinds = fail_on_kinds(fail_on)
    diagnostics = Diagnostics(strict=strict)
    with _Progress("Verifying") as bar:
        outcome = run_verify(list(inputs), diagnostics, ReadOptions(from_format, encoding),
                             _verify_options(services, only, index), form, kinds, click.echo,
                             _echo_error, bar)
    _report(diagnostics, skip_invalid)
    if outcome.failing:
        sys.exit(ExitStatus.PROBLEMS)


@click.command("upgrade")
@input_options
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="The upgraded .bib; - for standard output.")
@click.option("--dry-run", is_flag=True, help="Print a unified diff per entry; write nothing.")
@_VERIFY_SERVICES_OPTION
@_INDEX_OPTION
@service_options
@handle_errors
def upgrade_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                    strict: bool, skip_invalid: bool, output: str, dry_run: bool,
                    only: str | None, index: str | None, services: dict[str, Any]) -> None:
    """Replace the preprints of INPUT .bib files by their published versions when the match
    is certain, keeping keys, eprint fields and every other byte."""
    from refbridge.runs import ReadOptions
    from refbridge.verify.command import run_upgrade

    diagnostics = Diagnostics(strict=strict)
    with _Progress("Looking up") as bar:
        outcome = run_upgrade(list(inputs), output, diagnostics,
                              ReadOptions(from_format, encoding),
                              _verify_options(services, only, index), dry_run, click.echo,
                              _echo_error, bar)
    _report(diagnostics, skip_invalid)
    if outcome.failing:
        sys.exit(ExitStatus.FAILED)
