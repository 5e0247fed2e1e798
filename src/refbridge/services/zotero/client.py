"""HTTP to Zotero: the desktop's connector server and local API, and zotero.org's Web API.

A client asks one library of one service, given as plain values: the base URL
(``services.settings.zotero_endpoint``), the library (``Library``: ``user:1``, ``group:2``) and
whether the service is the desktop. Every request goes through ``services.retrying`` (the
policy every service shares): a deadline on
each whole answer, a limit on its bytes, redirects within the host asked only, retries with
doubling pauses on 429 and 5xx that honour ``Retry-After``, the same headers (a write's
``Zotero-Write-Token`` among them) on every attempt. On top of it, as the Web API asks: after an
answer with ``Backoff: N`` no request starts for N seconds, and at most four requests are under
way at once (zotero.org allows five per key). The API key goes in the ``Zotero-API-Key`` header,
never in a URL. A desktop that refuses the connection is not running: that is said at once, not
retried. Answers Zotero gives as errors become ``ZoteroError`` messages in words; its JSON is
read by ``json``, ``entries`` and ``versions`` alone, which turn broken or wrongly shaped JSON
into a ``ZoteroAnswerError`` naming the service and what was being done.

This module must never interpret items; it knows statuses, headers and pagination only.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit

from typing_extensions import Self

from refbridge.services.retrying import (
    MAX_ANSWER_BYTES,
    GaveUp,
    Limits,
    Refused,
    Retries,
    Unreachable,
    answer_json,
    retry_after,
    send,
)
from refbridge.services.settings import ZOTERO_API_KEY_VARIABLE
from refbridge.services.zotero.errors import (
    ZoteroAnswerError,
    ZoteroRefused,
    ZoteroUnavailable,
)
from refbridge.version import __version__

if TYPE_CHECKING:
    import httpx

#: Requests under way at once (zotero.org's concurrency limit is five per key).
CONCURRENCY = 4
#: The connector protocol version refbridge speaks (Zotero's CONNECTOR_API_VERSION).
CONNECTOR_API_VERSION = "3"
API_VERSION = "3"
#: Longest ``Backoff`` honoured, in seconds.
MAX_BACKOFF = 600.0
#: Results per page of the Web API (its maximum).
PAGE_SIZE = 100

LOCAL_API_OFF = ("Zotero's local API is off: in Zotero choose Settings → Advanced and tick "
                 "'Allow other applications on this computer to communicate with Zotero'")


@dataclass(frozen=True, slots=True)
class Library:
    """A user's or a group's library; the desktop calls the logged-in user's library user 0."""

    kind: str  #: "user" or "group"
    id: str  #: digits

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"

    @property
    def path(self) -> str:
        """The API path prefix: ``/users/1``, ``/groups/2``."""
        return f"/{self.kind}s/{self.id}"


class ZoteroClient:
    """Requests to one library of one Zotero service, safe to share between threads."""

    def __init__(self, base_url: str, library: Library, desktop: bool,
                 api_key: str | None = None, retries: Retries | None = None,
                 timeout: float = 60.0, max_bytes: int = MAX_ANSWER_BYTES,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import httpx

        self.base_url = base_url
        self.library = library
        self.desktop = desktop
        # The desktop is on this computer: it is running or not, and its 500 is an answer.
        self.retries = retries or (Retries(statuses=frozenset()) if self.desktop
                                   else Retries())
        self.limits = Limits(timeout, max_bytes)
        self.sleep = sleep
        self.clock = clock
        headers = {"User-Agent": f"refbridge/{__version__}", "Zotero-API-Version": API_VERSION}
        if self.desktop:
            headers["X-Zotero-Connector-API-Version"] = CONNECTOR_API_VERSION
        if api_key:
            headers["Zotero-API-Key"] = api_key
        self._http = httpx.Client(base_url=base_url, headers=headers, timeout=timeout)
        self._slots = threading.BoundedSemaphore(CONCURRENCY)
        self._lock = threading.Lock()
        self._not_before = 0.0
        self.requests_made = 0
        #: The desktop's ``Zotero-Server-ID`` (sent by a local API that reports local versions).
        self.server_id: str | None = None

    @property
    def prefix(self) -> str:
        """The library's path under the base URL: the local API lives under ``/api``."""
        return ("/api" if self.desktop else "") + self.library.path

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one request ---------------------------------------------------------------------------
    def _wait_turn(self) -> None:
        with self._lock:
            wait = self._not_before - self.clock()
            self.requests_made += 1
        if wait > 0:
            self.sleep(wait)

    def _note_backoff(self, response: httpx.Response) -> None:
        pause = retry_after(response.headers, "Backoff")
        if pause:
            with self._lock:
                self._not_before = max(self._not_before,
                                       self.clock() + min(pause, MAX_BACKOFF))

    def request(self, method: str, path: str, doing: str, *,
                params: Mapping[str, str] | None = None, json: Any = None,
                headers: Mapping[str, str] | None = None) -> httpx.Response:
        """The answer to ``method path`` (a path under the base URL, or a full URL from a
        ``Link`` header); ``doing`` says what for, in messages."""
        if params and "key" in params:
            raise ValueError("the API key goes in a header, never in a URL")
        with self._slots:
            try:
                response = send(self._http, method, path, self.retries, self.sleep,
                                self._wait_turn, self.limits, params=params, json=json,
                                headers=headers)
            except Unreachable as exc:
                raise ZoteroUnavailable(self._unreachable(exc.problem)) from None
            except Refused as exc:
                raise ZoteroRefused(f"{self._service_name()}, while {doing}: "
                                    f"{exc.problem}") from None
            except GaveUp as exc:
                raise ZoteroUnavailable(
                    f"{self._service_name()} kept failing while {doing} ({exc.problem}, "
                    f"{exc.attempts} attempts): try again later") from None
        self._note_backoff(response)
        if "Zotero-Server-ID" in response.headers:
            self.server_id = response.headers["Zotero-Server-ID"]
        return response

    def _service_name(self) -> str:
        return f"Zotero at {self.base_url}" if self.desktop else \
            f"the Zotero Web API at {urlsplit(self.base_url).netloc}"

    def _unreachable(self, problem: str) -> str:
        if self.desktop:
            return (f"Zotero is not running at {self.base_url} ({problem}): start the "
                    "Zotero desktop program (version 7 or later) and try again, or point "
                    "--zotero-url at it")
        return (f"cannot reach the Zotero Web API at {urlsplit(self.base_url).netloc} "
                f"({problem}): check the network connection")

    def fail(self, response: httpx.Response, doing: str) -> NoReturn:
        """Raise the error an unexpected answer means, in words."""
        status = response.status_code
        body = response.text.strip().splitlines()[0][:300] if response.text.strip() else ""
        if self.desktop and status == 400 and "Invalid Host header" in body:
            raise ZoteroRefused(
                f"Zotero at {self.base_url} answers only requests addressed to "
                "127.0.0.1 or localhost: use --zotero-url http://127.0.0.1:PORT")
        if self.desktop and status == 403 and "Local API is not enabled" in body:
            raise ZoteroRefused(LOCAL_API_OFF)
        if self.desktop and status == 404 and "No endpoint found" in body:
            raise ZoteroRefused(f"Zotero at {self.base_url} has no local API for "
                                f"{doing}: use Zotero 7 or later")
        if not self.desktop and status in (401, 403):
            raise ZoteroRefused(
                f"zotero.org refused {doing} ({body or f'HTTP {status}'}): the key in "
                f"{ZOTERO_API_KEY_VARIABLE} has no access to {self.library} for this; give "
                "it that permission (or make a new key) at zotero.org/settings/keys")
        if status == 404:
            raise ZoteroRefused(f"{self._service_name()} has no {self.library} "
                                f"({doing}: {body or 'not found'}); check --library")
        raise ZoteroRefused(f"{self._service_name()} answered HTTP {status} while {doing}"
                            + (f": {body}" if body else ""))

    # -- reading -------------------------------------------------------------------------------
    def json(self, response: httpx.Response, doing: str,
             shape: type[dict[str, Any] | list[Any]] = dict) -> Any:
        """The JSON of ``response``, of ``shape``; ``ZoteroAnswerError`` when it is not."""
        return answer_json(response.content, f"{self._service_name()}, while {doing}", shape,
                           ZoteroAnswerError)

    def answer_error(self, doing: str, problem: str) -> ZoteroAnswerError:
        """The error of an answer that is JSON of the wrong shape, naming the service."""
        return ZoteroAnswerError(f"{self._service_name()}, while {doing}: {problem}")

    def entries(self, response: httpx.Response, doing: str) -> list[dict[str, Any]]:
        """The objects of a listing (``[{"key": ..., "data": {...}}, ...]``)."""
        listing: list[Any] = self.json(response, doing, list)
        for entry in listing:
            if not (isinstance(entry, dict) and isinstance(entry.get("key"), str)
                    and isinstance(entry.get("data"), dict)):
                raise self.answer_error(doing, "an object of the listing has no key or no data")
        return listing

    def versions(self, response: httpx.Response, doing: str) -> dict[str, int]:
        """A ``format=versions`` answer: object key -> version."""
        versions: dict[str, Any] = self.json(response, doing)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in versions.values()):
            raise self.answer_error(doing, "a version is not a number")
        return versions

    def get(self, path: str, doing: str, params: Mapping[str, str] | None = None,
            headers: Mapping[str, str] | None = None, ok: tuple[int, ...] = (200,)
            ) -> httpx.Response:
        """A GET whose status must be one of ``ok``."""
        response = self.request("GET", path, doing, params=params, headers=headers)
        if response.status_code not in ok:
            self.fail(response, doing)
        return response

    def pages(self, path: str, doing: str, params: Mapping[str, str] | None = None
              ) -> Iterator[httpx.Response]:
        """Every page of a multi-object answer, following ``Link: <...>; rel="next"``."""
        query = dict(params or {})
        if not self.desktop:
            query.setdefault("limit", str(PAGE_SIZE))
        response = self.get(path, doing, query)
        yield response
        while (following := response.links.get("next", {}).get("url")):
            response = self.get(following, doing)
            yield response


def library_version(response: httpx.Response) -> int | None:
    """The ``Last-Modified-Version`` of an answer, if it has one."""
    value = response.headers.get("Last-Modified-Version")
    return int(value) if value is not None and value.strip().isdigit() else None
