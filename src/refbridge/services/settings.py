"""Settings of the runs that ask services: where each service lives and how politely to ask
it (``ClientOptions``, shared by enrichment, ``refbridge fetch`` and ``refbridge verify``).

Base URLs come from the options, else the environment (``REFBRIDGE_ARXIV_API``,
``REFBRIDGE_CROSSREF_API``, ``REFBRIDGE_OPENALEX_API``, ``REFBRIDGE_ORCID_API``,
``REFBRIDGE_DBLP_API``, ``REFBRIDGE_S2_API``, ``REFBRIDGE_DATACITE_API``), else the services' public addresses;
Zotero's two services (the desktop, zotero.org) from ``--zotero-url``, else
``REFBRIDGE_ZOTERO_DESKTOP`` / ``REFBRIDGE_ZOTERO_API``, else Zotero's own addresses, and the
Web API key from ``ZOTERO_API_KEY`` only (never an option, never in a URL);
the cache lives in ``REFBRIDGE_CACHE_DIR`` or the user's cache directory. Delays between
requests and before retries are plain numbers so tests can make them zero. This module must
never make a request or touch the cache.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from refbridge.services.errors import EnrichError
from refbridge.services.retrying import MAX_ANSWER_BYTES, base_address

#: Service name -> (environment variable, default base URL).
SERVICE_ENDPOINTS: dict[str, tuple[str, str]] = {
    "arxiv": ("REFBRIDGE_ARXIV_API", "https://export.arxiv.org/api/query"),
    "crossref": ("REFBRIDGE_CROSSREF_API", "https://api.crossref.org"),
    "openalex": ("REFBRIDGE_OPENALEX_API", "https://api.openalex.org"),
    "orcid": ("REFBRIDGE_ORCID_API", "https://pub.orcid.org"),
    "dblp": ("REFBRIDGE_DBLP_API", "https://dblp.org"),
    "s2": ("REFBRIDGE_S2_API", "https://api.semanticscholar.org"),
    "datacite": ("REFBRIDGE_DATACITE_API", "https://api.datacite.org"),
}

#: Zotero's services -> (environment variable, default base URL); asked by the Zotero bridge
#: through ``services.zotero``, with their own limits (not ``ClientOptions``').
ZOTERO_ENDPOINTS: dict[str, tuple[str, str]] = {
    "zotero-desktop": ("REFBRIDGE_ZOTERO_DESKTOP", "http://127.0.0.1:23119"),
    "zotero-web": ("REFBRIDGE_ZOTERO_API", "https://api.zotero.org"),
}
#: Where the Web API key is read from (never from the command line, never put in a URL).
ZOTERO_API_KEY_VARIABLE = "ZOTERO_API_KEY"

#: Service -> the hosts besides its own a redirect of its answer may lead to (arXiv moves its
#: API between ``export.arxiv.org`` and ``arxiv.org``); every other redirect is refused.
SERVICE_REDIRECT_HOSTS: dict[str, frozenset[str]] = {
    "arxiv": frozenset({"export.arxiv.org", "arxiv.org", "www.arxiv.org"}),
}

#: Seconds to wait between two requests to one service: arXiv asks for three; Semantic
#: Scholar allows one request a second to a key and shares one pool among anonymous users;
#: ORCID's public API allows 24 a second, dblp asks for restraint without a number; DataCite
#: allows 3,000 requests in five minutes.
SERVICE_INTERVALS: dict[str, float] = {"arxiv": 3.0, "crossref": 1.0, "openalex": 0.2,
                                       "orcid": 0.1, "dblp": 1.0, "s2": 1.0, "datacite": 0.2}

CACHE_DIR_VARIABLE = "REFBRIDGE_CACHE_DIR"
#: Seconds between requests to every service, for a local mirror or a test server only.
INTERVAL_VARIABLE = "REFBRIDGE_REQUEST_INTERVAL"
CACHE_FILE_NAME = "enrich.sqlite3"


def _address(variable: str, default: str, override: str | None, option: str) -> str:
    if override:
        return base_address(override, option)
    return base_address(os.environ.get(variable) or default, variable)


def endpoint(service: str, override: str | None = None) -> str:
    """The base URL of ``service``: the override, the environment, or the public address."""
    return _address(*SERVICE_ENDPOINTS[service], override, f"--{service}-api")


def zotero_endpoint(service: str, override: str | None = None) -> str:
    """The base URL of a Zotero service (``ZOTERO_ENDPOINTS``): ``--zotero-url``, the
    environment, or Zotero's own address."""
    return _address(*ZOTERO_ENDPOINTS[service], override, "--zotero-url")


def default_intervals() -> dict[str, float]:
    """``SERVICE_INTERVALS``, or ``REFBRIDGE_REQUEST_INTERVAL`` for every service when set."""
    configured = os.environ.get(INTERVAL_VARIABLE)
    if configured is None:
        return dict(SERVICE_INTERVALS)
    try:
        seconds = float(configured)
    except ValueError:
        raise EnrichError(f"{INTERVAL_VARIABLE} must be a number of seconds, not "
                          f"{configured!r}") from None
    return {service: seconds for service in SERVICE_ENDPOINTS}


def default_cache_dir() -> Path:
    """``REFBRIDGE_CACHE_DIR`` if set, else refbridge's directory in the user's cache."""
    configured = os.environ.get(CACHE_DIR_VARIABLE)
    if configured:
        return Path(configured)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("refbridge", appauthor=False))


@dataclass(frozen=True, slots=True)
class ClientOptions:
    """How services are asked; every default is the polite, careful choice."""

    endpoints: dict[str, str] = field(default_factory=dict)  #: service -> base URL override
    mailto: str | None = None  #: contact address for Crossref's and OpenAlex's polite pools
    offline: bool = False  #: answer from the cache only
    refresh: bool = False  #: ignore cached answers (and store the new ones)
    cache_dir: Path | None = None  #: None: ``default_cache_dir()``
    use_cache: bool = True  #: False: neither read nor write the cache
    timeout: float = 20.0  #: seconds for one whole answer, connection to last byte
    max_bytes: int = MAX_ANSWER_BYTES  #: bytes of one answer, after decompression
    retries: int = 3  #: further attempts after a 429, a 5xx or a dropped connection
    backoff: float = 2.0  #: seconds before the first retry; doubled each time
    intervals: dict[str, float] = field(default_factory=default_intervals)
    max_age_days: float = 30.0  #: cached answers older than this are asked again

    def __post_init__(self) -> None:
        unknown = [s for s in self.endpoints if s not in SERVICE_ENDPOINTS]
        if unknown:
            raise EnrichError(f"unknown service(s) {', '.join(unknown)} "
                             f"(known: {', '.join(SERVICE_ENDPOINTS)})")
        if self.offline and (self.refresh or not self.use_cache):
            raise EnrichError("offline mode answers from the cache: it cannot be "
                              "combined with --refresh or --no-cache")
        for service in SERVICE_ENDPOINTS:  # a bad address is refused before any request
            self.base_url(service)

    def base_url(self, service: str) -> str:
        return endpoint(service, self.endpoints.get(service))

    def interval(self, service: str) -> float:
        return self.intervals.get(service, SERVICE_INTERVALS[service])

    def cache_path(self) -> Path:
        return (self.cache_dir or default_cache_dir()) / CACHE_FILE_NAME


def known_services(services: tuple[str, ...], known: tuple[str, ...]) -> None:
    """Refuse (``EnrichError``) services not among ``known``."""
    unknown = [service for service in services if service not in known]
    if unknown:
        raise EnrichError(f"unknown service(s) {', '.join(unknown)} (known: {', '.join(known)})")

