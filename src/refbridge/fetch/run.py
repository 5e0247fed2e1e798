"""Running one fetch: the client and its cache, the service's fetcher, the owner marked.

Every record of a fetched list is owned by the person fetched (``profile.owner-id`` is the
target's identifier; ``profile.owner`` the name the service gives that person, or the name an
arXiv listing was asked for), which is whom ``refbridge cv`` highlights. Errors of the
service (down, failing, answering what is not its format) end the fetch with a message; no
partial list is returned. This module must never print.
"""

from __future__ import annotations

from collections.abc import Callable

from refbridge.errors import Diagnostics
from refbridge.fetch.targets import Target
from refbridge.formats.profile import OWNER_EXTRA
from refbridge.formats.services.answers import owned
from refbridge.model import Record
from refbridge.services import arxiv, dblp, openalex, orcid, semantic_scholar
from refbridge.services.cache import ResponseCache
from refbridge.services.http import PoliteClient
from refbridge.services.listing import Session
from refbridge.services.settings import ClientOptions

#: Service -> how its list is fetched.
FETCHERS: dict[str, Callable[[Session], list[Record]]] = {
    "orcid": orcid.fetch_orcid,
    "dblp": dblp.fetch_dblp,
    "openalex": openalex.fetch_openalex,
    "s2": semantic_scholar.fetch_s2,
    "arxiv": arxiv.fetch_arxiv,
}


def _owner_name(records: list[Record], target: Target) -> str | None:
    if target.person is None:
        return target.value
    for record in records:
        for name in record.authors:
            if target.person in name.ids:
                return name.display()
    return next((r.extra[OWNER_EXTRA] for r in records if OWNER_EXTRA in r.extra), None)


def fetch_records(target: Target, options: ClientOptions, diagnostics: Diagnostics,
                  on_page: Callable[[int], None] | None = None,
                  client: PoliteClient | None = None) -> list[Record]:
    """The publication list of ``target``; ``on_page`` is called with the count of records
    read after each page (a progress display); ``client`` replaces the polite client."""
    own_client = client is None
    if client is None:
        cache = ResponseCache(options.cache_path()) if options.use_cache else None
        client = PoliteClient(options, cache)
    try:
        session = Session(client, options.base_url(target.service), target, diagnostics,
                          options.mailto, on_page)
        records = FETCHERS[target.service](session)
    finally:
        if own_client:
            client.close()
            if client.cache is not None:
                client.cache.close()
    return list(owned(records, _owner_name(records, target),
                      [target.person] if target.person else []))
