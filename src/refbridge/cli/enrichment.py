"""Enrichment as the commands that offer it run it (``enrich``, ``convert --enrich``,
``cv --enrich``): a progress bar on a terminal and the report on standard error, around the
jobs ``refbridge.enrich`` and ``refbridge.gather``. This module must never do the work itself."""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

import click

from refbridge.cli.options import _client_settings
from refbridge.cli.reporting import _echo_error, _report


def run_enrichment(records: list[Any], enrichment: dict[str, Any]) -> list[Any]:
    """Enrich ``records`` with the options of ``enrich_options``: a progress bar on a terminal,
    then every uncertain match and conflict, then the summary, on standard error."""
    from refbridge.enrich import EnrichOptions, enrich_records, needs_enrichment

    options = EnrichOptions(
        services=tuple(s.strip() for s in enrichment["services"].split(",") if s.strip()),
        overwrite=enrichment["overwrite"], accept=frozenset(enrichment["accept"]),
        index=enrichment.get("index"), **_client_settings(enrichment))
    pending = sum(1 for record in records if needs_enrichment(record))
    if pending > 1 and sys.stderr.isatty():
        with click.progressbar(length=len(records), label="Enriching", file=sys.stderr,
                               show_pos=True) as bar:
            enriched, report = enrich_records(records, options,
                                              on_record=lambda outcome: bar.update(1))
    else:
        enriched, report = enrich_records(records, options)
    for message in report.messages():
        click.echo(message, err=True)
    click.echo(f"refbridge: enrich: {report.summary()}", err=True)
    return enriched


def _enrich_and_write(inputs: tuple[str, ...], output: str, to_format: str,
                      read_options: Any, write_options: Any, strict: bool, skip_invalid: bool,
                      enrichment: dict[str, Any] | None, merge: bool = False,
                      journals: bool | None = None) -> None:
    """``refbridge.gather`` with the options of ``enrich_options`` (``enrichment``; None: no
    enrichment): ``enrich``, ``convert --merge``, ``--enrich`` and ``--abbreviate-journals``."""
    from refbridge.gather import gather_and_write

    enrich = None if enrichment is None else partial(run_enrichment, enrichment=enrichment)
    diagnostics = gather_and_write(inputs, output, to_format, read_options, write_options,
                                   strict, enrich, _echo_error, merge, journals)
    _report(diagnostics, skip_invalid)
