"""Enrichment: turning a bare record (a profile page's title, year and owner) into the full
citation by asking arXiv, Crossref and OpenAlex, carefully, politely and with a cache.

``enrich_records(records, options) -> (records, report)`` is the entry point the ``enrich``
command and the ``--enrich`` flags call. Nothing here runs at import time; the network is
touched only when ``enrich_records`` is called (and never with ``offline``). The names below are
loaded on first use, so that a module that needs one service's parts (a reader sharing a
service's mapping) does not load every service.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from refbridge.enrich.engine import enrich_records, needs_enrichment
    from refbridge.enrich.report import EnrichReport, RecordOutcome
    from refbridge.enrich.settings import EnrichOptions
    from refbridge.services.errors import EnrichError, OfflineError, ServiceError

#: Each public name and the module that defines it (the errors are the services' own).
_HOMES = {
    "enrich_records": "refbridge.enrich.engine", "needs_enrichment": "refbridge.enrich.engine",
    "EnrichError": "refbridge.services.errors", "OfflineError": "refbridge.services.errors",
    "ServiceError": "refbridge.services.errors", "EnrichReport": "refbridge.enrich.report",
    "RecordOutcome": "refbridge.enrich.report", "EnrichOptions": "refbridge.enrich.settings",
}

__all__ = ["EnrichError", "EnrichOptions", "EnrichReport", "OfflineError", "RecordOutcome",
           "ServiceError", "enrich_records", "needs_enrichment"]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)
