"""The polite HTTP client every service module asks through (enrichment and ``refbridge
fetch``): cache, pacing, retries.

Why not the services' own client libraries: ``arxiv`` (PyPI) sets no timeout, retries at once
without backoff whatever the status, and has no cache hook (its base URL is a class attribute);
``habanero`` has a base URL, a timeout and ``mailto`` but no retries and no cache; ``pyalex``
keeps its settings in one module-wide object and mounts its retries for ``https://`` only, so a
local test server gets none. Each would need the same cache, pacing and retry layer around it,
so the services are asked directly through ``httpx`` here, and parsed by their own modules.

Rules kept here: at most one request per ``interval`` seconds to each service (arXiv asks for
three); the policy of ``services.retrying``, which Zotero's client shares (a deadline on
each whole answer, a limit on its bytes after decompression, redirects only within the
service's hosts of ``SERVICE_REDIRECT_HOSTS``, retries with doubling backoff on 429, 5xx and
dropped connections, honouring ``Retry-After``); a host found unreachable (refused, unknown,
no answer in time) is not asked again by this client: every later request to it fails at
once, and ``unreachable`` keeps one message per service for the run's report; answers (200
and 404) stored in the cache and served
from it on the next run, but only those the service module recognises as its own (``is_answer``:
a 404 of a wrong base address, or a 200 of a captive portal, is a failure, never a "not found",
and is never cached); ``offline`` never touches the network. A service's JSON is read by
``Answer.json`` alone, so that JSON that is broken, nested too deeply or of the wrong shape is
a ``ServiceError`` naming the service and the request. ``sleep`` and ``clock`` are injectable
so tests run without waiting. This module must never parse a service's format.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode, urlsplit

from refbridge.services.cache import ResponseCache
from refbridge.services.errors import OfflineError, ServiceError
from refbridge.services.retrying import (
    GaveUp,
    Limits,
    Refused,
    Retries,
    Unreachable,
    answer_json,
    send,
)
from refbridge.services.settings import SERVICE_REDIRECT_HOSTS, ClientOptions
from refbridge.version import __version__

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
    service: str
    url: str

    def json(self, shape: type[dict[str, Any] | list[Any]] = dict) -> Any:
        """The body as JSON of ``shape``; ``ServiceError`` naming the service and the request
        when it is not."""
        return answer_json(self.body, f"{SERVICE_NAMES[self.service]} ({self.url})", shape,
                           ServiceError)


def json_object(body: bytes) -> dict[str, Any] | None:
    """``body`` as a JSON object, or None when it is not one (for ``is_answer`` tests)."""
    try:
        value: dict[str, Any] = answer_json(body, "", dict, ValueError)
    except ValueError:
        return None
    return value


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
        #: host -> why it cannot be reached (not asked again by this client)
        self._down_hosts: dict[str, str] = {}
        #: service -> the message saying it cannot be reached, once per service
        self.unreachable: dict[str, str] = {}

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
            return Answer(cached.status, cached.body, True, service, full_url)
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
        return Answer(status, body, False, service, full_url)

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
                                        headers={"User-Agent": agent})
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
        host = urlsplit(url).netloc
        if host in self._down_hosts:
            raise OfflineError(self._unreachable(service, host, self._down_hosts[host]))
        retries = Retries(self.options.retries, self.options.backoff)
        limits = Limits(self.options.timeout, self.options.max_bytes,
                        SERVICE_REDIRECT_HOSTS.get(service, frozenset()))

        def before() -> None:
            self._pace(service)
            self.requests_made += 1

        try:
            response = send(self._http(), "GET", url, retries, self.sleep, before, limits,
                            headers=dict(headers))
        except Unreachable as exc:
            self._down_hosts[host] = exc.problem
            raise OfflineError(self._unreachable(service, host, exc.problem)) from None
        except Refused as exc:
            raise ServiceError(f"{name} at {host}: {exc.problem}: {url}") from None
        except GaveUp as exc:
            raise ServiceError(f"{name} kept failing ({exc.problem}) after {exc.attempts} "
                               f"attempts: {url}") from None
        if response.status_code not in ANSWER_STATUSES:
            raise ServiceError(f"{name} answered HTTP {response.status_code} for {url}")
        return response.status_code, response.content

    def _unreachable(self, service: str, host: str, problem: str) -> str:
        """The message that ``service`` at ``host`` cannot be reached, noted once a run."""
        message = (f"cannot reach {SERVICE_NAMES[service]} at {host} ({problem}); check the "
                   "network connection, or use --offline to work from cached answers only")
        self.unreachable.setdefault(service, message)
        return message
