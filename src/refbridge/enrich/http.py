"""The polite HTTP client every service module asks through (enrichment and ``refbridge
fetch``): cache, pacing, retries.

Why not the services' own client libraries: ``arxiv`` (PyPI) sets no timeout, retries at once
without backoff whatever the status, and has no cache hook (its base URL is a class attribute);
``habanero`` has a base URL, a timeout and ``mailto`` but no retries and no cache; ``pyalex``
keeps its settings in one module-wide object and mounts its retries for ``https://`` only, so a
local test server gets none. Each would need the same cache, pacing and retry layer around it,
so the services are asked directly through ``httpx`` here, and parsed by their own modules.

Rules kept here: at most one request per ``interval`` seconds to each service (arXiv asks for
three); a timeout on every request; retries with doubling backoff on 429, 5xx and dropped
connections, honouring ``Retry-After`` (the loop in ``refbridge.retrying``, which the Zotero
bridge shares); answers (200 and 404) stored in the cache and served
from it on the next run, but only those the service module recognises as its own (``is_answer``:
a 404 of a wrong base address, or a 200 of a captive portal, is a failure, never a "not found",
and is never cached); ``offline`` never touches the network. ``sleep`` and ``clock`` are
injectable so tests run without waiting. This module must never parse a service's format.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode, urlsplit

from refbridge import __version__
from refbridge.enrich.cache import ResponseCache
from refbridge.enrich.errors import OfflineError, ServiceError
from refbridge.enrich.settings import ClientOptions
from refbridge.retrying import GaveUp, Retries, Unreachable, send

if TYPE_CHECKING:
    import httpx

#: Statuses that are answers (kept in the cache): found, and not found.
ANSWER_STATUSES: frozenset[int] = frozenset({200, 404})

SERVICE_NAMES: dict[str, str] = {"arxiv": "arXiv", "crossref": "Crossref",
                                 "openalex": "OpenAlex", "orcid": "ORCID", "dblp": "dblp",
                                 "s2": "Semantic Scholar", "datacite": "DataCite"}


@dataclass(frozen=True, slots=True)
class Answer:
    """A service's answer to one request."""

    status: int  #: 200 or 404
    body: bytes
    from_cache: bool


class NotCached(OfflineError):
    """``--offline``, and the cache has no answer to this request."""


class PoliteClient:
    """GET requests to the services, through the cache and within their limits."""

    def __init__(self, options: ClientOptions, cache: ResponseCache | None,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.options = options
        self.cache = cache
        self.sleep = sleep
        self.clock = clock
        self.requests_made = 0
        self.answers_from_cache = 0
        self._last_request: dict[str, float] = {}
        self._client: httpx.Client | None = None

    # -- public --------------------------------------------------------------------------
    def get(self, service: str, url: str, params: Mapping[str, str] | None = None,
            headers: Mapping[str, str] | None = None,
            is_answer: Callable[[int, bytes], bool] | None = None) -> Answer:
        """The answer to ``GET url?params`` from the cache or from ``service``; ``headers``
        (such as the ``Accept`` a service needs) are sent, not part of the cache key.
        ``is_answer(status, body)`` says whether a response is the service's own answer; one
        that is not raises ``ServiceError`` and is not cached."""
        full_url = f"{url}?{urlencode(dict(params))}" if params else url
        cached = self.cache.get(full_url) if self.cache is not None else None
        if cached is not None and not self.options.refresh and (
                self.options.offline
                or cached.age_days(time.time()) <= self.options.max_age_days):
            self.answers_from_cache += 1
            return Answer(cached.status, cached.body, from_cache=True)
        if self.options.offline:
            raise NotCached(f"{SERVICE_NAMES[service]}: no cached answer for {full_url} "
                            "(offline)")
        status, body = self._fetch(service, full_url, headers or {})
        if is_answer is not None and not is_answer(status, body):
            raise ServiceError(
                f"{SERVICE_NAMES[service]} answered HTTP {status} for {full_url} with "
                f"something that is not its answer (is its base URL right?)")
        if self.cache is not None:
            self.cache.put(full_url, status, body)
        return Answer(status, body, from_cache=False)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    # -- network -------------------------------------------------------------------------
    def _http(self) -> httpx.Client:
        if self._client is None:
            import httpx

            agent = f"refbridge/{__version__}"
            if self.options.mailto:
                agent += f" (mailto:{self.options.mailto})"
            self._client = httpx.Client(timeout=self.options.timeout,
                                        headers={"User-Agent": agent},
                                        follow_redirects=True)
        return self._client

    def _pace(self, service: str) -> None:
        last = self._last_request.get(service)
        if last is not None:
            wait = self.options.interval(service) - (self.clock() - last)
            if wait > 0:
                self.sleep(wait)
        self._last_request[service] = self.clock()

    def _fetch(self, service: str, url: str, headers: Mapping[str, str]
               ) -> tuple[int, bytes]:
        name = SERVICE_NAMES[service]
        retries = Retries(self.options.retries, self.options.backoff)

        def before() -> None:
            self._pace(service)
            self.requests_made += 1

        try:
            response = send(self._http(), "GET", url, retries, self.sleep, before,
                            headers=dict(headers))
        except Unreachable as exc:
            raise OfflineError(
                f"cannot reach {name} at {urlsplit(url).netloc} ({exc.problem}); check the "
                "network connection, or use --offline to work from cached answers only"
            ) from None
        except GaveUp as exc:
            raise ServiceError(f"{name} kept failing ({exc.problem}) after {exc.attempts} "
                               f"attempts: {url}") from None
        if response.status_code not in ANSWER_STATUSES:
            raise ServiceError(f"{name} answered HTTP {response.status_code} for {url}")
        return response.status_code, response.content
