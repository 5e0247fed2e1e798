"""Running verification over a library: every entry looked up (``lookup``) and judged
(``classify``), in order, through one polite client and its cache.

This module must never print or write a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice

from refbridge.model import Record
from refbridge.services.cache import ResponseCache
from refbridge.services.http import PoliteClient
from refbridge.verify.classify import Verdict, classify
from refbridge.verify.lookup import Lookup
from refbridge.verify.settings import VerifyOptions

#: Entries read ahead, so that a local index is asked for them at once.
PREFETCHED = 1000


@dataclass(slots=True)
class VerifyRun:
    """The verdicts, in the library's order, and how the services were asked."""

    verdicts: list[Verdict] = field(default_factory=list)
    requests: int = 0
    from_cache: int = 0
    #: service -> why it could not be reached (each said once, not once an entry)
    unreachable: dict[str, str] = field(default_factory=dict)


def verify_records(records: Iterable[Record], options: VerifyOptions, *,
                   on_verdict: Callable[[Verdict], None] | None = None,
                   client: PoliteClient | None = None) -> VerifyRun:
    """The verdict on each of ``records``; ``on_verdict`` is called after each (progress);
    ``client`` replaces the polite client made from ``options`` (tests)."""
    own_client = client is None
    if client is None:
        client = PoliteClient(options, ResponseCache(options.cache_path())
                              if options.use_cache else None)
    source = None
    if options.index is not None:
        from refbridge.index.source import IndexSource

        source = IndexSource(options.index)
    lookup = Lookup(client, options, source)
    run = VerifyRun()
    try:
        pending = iter(records)
        while batch := list(islice(pending, PREFETCHED)):
            if source is not None:  # the index answers a batch at once
                source.prefetch(batch)
            for record in batch:
                verdict = classify(lookup.gather(record))
                run.verdicts.append(verdict)
                if on_verdict is not None:
                    on_verdict(verdict)
    finally:
        run.requests, run.from_cache = client.requests_made, client.answers_from_cache
        run.unreachable = dict(client.unreachable)
        if source is not None:
            source.close()
        if own_client:
            client.close()
            if client.cache is not None:
                client.cache.close()
    return run
