"""Enriching records: which need it, which services to ask, which answers to apply.

For each record that lacks an identifier (DOI or arXiv id) or a complete author list, arXiv is
asked for the preprint, then Crossref and, if Crossref has nothing, OpenAlex for the published
version. Each look-up is judged (``matching``); a ``match`` is merged (``merge``), an
``ambiguous`` or ``weak`` one only when the user accepts that verdict; everything is recorded
in the report, and the confidence of each applied match is kept in the record's ``extra``
(``enrich.confidence.<service>``). ``OfflineError`` (network down) stops the run, since every
further record would fail the same way; ``--offline`` instead answers from the cache and
reports what is missing. With ``options.index`` (a local index of the services' dumps,
``refbridge index build``) the same questions are answered from the index
(``index.source.IndexSource.look_up``), judged and merged the same way, and no request is made;
a service whose dump the index does not hold is not asked.
This module must never print or parse a service's format.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from itertools import islice
from typing import Protocol

from refbridge.enrich.report import EnrichReport, RecordOutcome, Step
from refbridge.enrich.settings import EnrichOptions
from refbridge.model import Record
from refbridge.services import arxiv, crossref, openalex
from refbridge.services.cache import ResponseCache
from refbridge.services.errors import EnrichError
from refbridge.services.found import Found
from refbridge.services.http import NotCached, PoliteClient
from refbridge.services.matching import judge
from refbridge.services.merge import merge


class LookUp(Protocol):
    def __call__(self, client: PoliteClient, base_url: str, record: Record,
                 mailto: str | None) -> tuple[list[Found], bool]: ...


def _arxiv(client: PoliteClient, base_url: str, record: Record, mailto: str | None
           ) -> tuple[list[Found], bool]:
    return arxiv.look_up(client, base_url, record)


#: Service -> (look-up, whether only published versions count). Published-version services
#: after the first that matches are not asked.
LOOK_UPS: dict[str, tuple[LookUp, bool]] = {
    "arxiv": (_arxiv, False),
    "crossref": (crossref.look_up, True),
    "openalex": (openalex.look_up, True),
}


#: A question to one service about one record: its candidates, and whether they came through
#: the record's identifier (a ``LookUp`` with its client, or an index's ``look_up``).
Ask = Callable[[str, Record], tuple[list[Found], bool]]
#: Records read ahead, so that a local index is asked for them at once.
PREFETCHED = 1000

#: ``extra`` key prefix of the confidence of each applied match (``enrich.confidence.arxiv``).
CONFIDENCE_PREFIX = "enrich.confidence."


def needs_enrichment(record: Record) -> bool:
    """Whether ``record`` lacks a complete author list or any identifier."""
    has_identifier = bool(record.get("DOI")) or bool(record.eprint and record.eprint.identifier)
    return "author" in record.incomplete_names or not record.authors or not has_identifier


def enrich_records(records: Iterable[Record], options: EnrichOptions | None = None, *,
                   on_record: Callable[[RecordOutcome], None] | None = None,
                   client: PoliteClient | None = None) -> tuple[list[Record], EnrichReport]:
    """``records`` with what the services know filled in, and a report of what was done.

    ``options`` default to ``EnrichOptions()``: every service, politely, with the cache.
    ``on_record`` is called after each record (a progress bar); ``client`` replaces the
    default polite client (tests inject one with a fake clock).
    """
    options = options or EnrichOptions()
    if options.index is not None:
        return _enrich_from_index(records, options, options.index, on_record)
    own_client = client is None
    if client is None:
        cache = ResponseCache(options.cache_path()) if options.use_cache else None
        client = PoliteClient(options, cache)
    report = EnrichReport()
    result: list[Record] = []
    ask = partial(_ask_service, client, options)
    try:
        for record in records:
            requests_before, cached_before = client.requests_made, client.answers_from_cache
            outcome = _enrich_one(ask, record, options)
            outcome.from_cache = (client.requests_made == requests_before
                                  and client.answers_from_cache > cached_before)
            _done(outcome, report, result, on_record)
    finally:
        report.requests = client.requests_made
        if own_client:
            client.close()
            if client.cache is not None:
                client.cache.close()
    return result, report


def _enrich_from_index(records: Iterable[Record], options: EnrichOptions, path: str,
                       on_record: Callable[[RecordOutcome], None] | None
                       ) -> tuple[list[Record], EnrichReport]:
    from refbridge.index.source import IndexSource

    source = IndexSource(path)
    held = set(source.index.services())
    services = tuple(service for service in options.services if service in held)
    if not services:
        source.close()
        raise EnrichError(f"{path}: the index holds none of the services asked "
                          f"({', '.join(options.services)}); it holds "
                          f"{', '.join(sorted(held)) or 'nothing'}")
    options = replace(options, services=services)
    report = EnrichReport()
    result: list[Record] = []
    try:
        pending = iter(records)
        while batch := list(islice(pending, PREFETCHED)):
            source.prefetch(record for record in batch if needs_enrichment(record))
            for record in batch:
                _done(_enrich_one(source.look_up, record, options), report, result, on_record)
    finally:
        source.close()
    return result, report


def _ask_service(client: PoliteClient, options: EnrichOptions, service: str, record: Record
                 ) -> tuple[list[Found], bool]:
    return LOOK_UPS[service][0](client, options.base_url(service), record, options.mailto)


def _done(outcome: RecordOutcome, report: EnrichReport, result: list[Record],
          on_record: Callable[[RecordOutcome], None] | None) -> None:
    report.outcomes.append(outcome)
    result.append(outcome.record)
    if on_record is not None:
        on_record(outcome)


def _enrich_one(ask: Ask, record: Record, options: EnrichOptions) -> RecordOutcome:
    outcome = RecordOutcome(record)
    if not needs_enrichment(record):
        return outcome
    published_found = False
    for service in options.services:
        published_only = LOOK_UPS[service][1]
        if published_only and published_found:
            continue
        try:
            candidates, linked = ask(service, outcome.record)
        except NotCached as exc:
            outcome.steps.append(Step(service, "not-cached", 0.0, str(exc), applied=False))
            continue
        if published_only:
            candidates = [c for c in candidates if c.published]
        judgement = judge(outcome.record, candidates, linked)
        applies = judgement.verdict == "match" or judgement.verdict in options.accept
        if not applies or judgement.best is None:
            outcome.steps.append(Step(service, judgement.verdict, judgement.confidence,
                                      judgement.explain(), applied=False))
            continue
        merged = merge(outcome.record, judgement.best.found, options.overwrite)
        outcome.record = merged.record
        if merged.filled:
            outcome.record = outcome.record.replace(extra={
                **outcome.record.extra,
                f"{CONFIDENCE_PREFIX}{service}": f"{judgement.confidence:.2f}"})
        published_found = published_found or published_only
        outcome.steps.append(Step(service, judgement.verdict, judgement.confidence,
                                  judgement.explain(), applied=True,
                                  filled=tuple(merged.filled),
                                  conflicts=tuple(merged.conflicts)))
    outcome.settle()
    return outcome
