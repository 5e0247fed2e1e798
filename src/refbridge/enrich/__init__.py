"""Enrichment: turning a bare record (a profile page's title, year and owner) into the full
citation by asking arXiv, Crossref and OpenAlex, carefully, politely and with a cache.

``enrich_records(records, options) -> (records, report)`` is the entry point the ``enrich``
command and the ``--enrich`` flags call. Nothing here runs at import time; the network is
touched only when ``enrich_records`` is called (and never with ``offline``).
"""

from refbridge.enrich.engine import enrich_records, needs_enrichment
from refbridge.enrich.errors import EnrichError, OfflineError, ServiceError
from refbridge.enrich.report import EnrichReport, RecordOutcome
from refbridge.enrich.settings import EnrichOptions

__all__ = ["EnrichError", "EnrichOptions", "EnrichReport", "OfflineError", "RecordOutcome",
           "ServiceError", "enrich_records", "needs_enrichment"]
