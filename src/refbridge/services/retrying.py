"""The one HTTP policy of every web service refbridge asks (enrichment, ``refbridge fetch``,
``verify``, Zotero's client): one request, sent again after 429, 5xx and dropped connections
with doubling pauses that honour ``Retry-After``, and bounded in every other way.

- a deadline for the whole answer (``Limits.timeout``: connection, redirects and the last byte
  of the body), kept while the body streams in: a server that sends a byte now and then does
  not restart it;
- a limit on the bytes of an answer, counted after decompression (``Limits.max_bytes``): the
  body is streamed and reading stops at the limit;
- redirects followed only to the host asked (``http`` upgraded to ``https`` on that host
  included) or to the hosts the caller allows, at most ``MAX_REDIRECTS`` of them;
- a server that cannot be reached (refused, no such host, no answer in time) is not asked
  again: ``Unreachable`` says so at once;
- a service's JSON read in one place (``answer_json``), where malformed, too deeply nested or
  wrongly shaped JSON becomes the caller's one-line error.

A request sent again is the same request, headers included, so a write that carries an
idempotency token (Zotero's ``Zotero-Write-Token``) keeps it on every attempt. ``sleep`` is
injectable so tests run without waiting. This module must never know a service's name or
format beyond its JSON being JSON; each caller decides what an answer means.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from refbridge.errors import ExitStatus, RefbridgeError

if TYPE_CHECKING:
    import httpx

#: Statuses worth asking again after a pause.
RETRY_STATUSES: frozenset[int] = frozenset({429, 500, 502, 503, 504})
#: Longest pause a ``Retry-After`` header can impose, in seconds.
MAX_RETRY_AFTER = 120.0
#: Bytes of one answer, after decompression, unless a caller says otherwise (32 MiB).
MAX_ANSWER_BYTES = 32 * 1024 * 1024
#: Redirects followed for one request.
MAX_REDIRECTS = 5
#: Headers that describe the bytes on the wire, not the decoded body an answer holds.
_WIRE_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})
#: Default ports of the schemes, for telling ``http://host`` and ``http://host:80`` apart.
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True, slots=True)
class Retries:
    """How often and how patiently a request is sent again."""

    retries: int = 3  #: further attempts after the first
    backoff: float = 2.0  #: seconds before the first retry; doubled each time
    statuses: frozenset[int] = RETRY_STATUSES  #: answers that are asked again


@dataclass(frozen=True, slots=True)
class Limits:
    """What one answer may cost: time, bytes, and where it may redirect to."""

    timeout: float = 20.0  #: seconds for a whole answer, first connection to last byte
    max_bytes: int = MAX_ANSWER_BYTES  #: bytes of the decoded body
    #: hosts a redirect may lead to besides the host asked
    redirect_hosts: frozenset[str] = frozenset()


class BadAddress(RefbridgeError):
    """A service's base address (an option or an environment variable) that is no ``http://``
    or ``https://`` address of a host: refused before anything is asked."""

    exit_status = ExitStatus.USAGE


def base_address(address: str, given_by: str) -> str:
    """``address`` without its trailing ``/``, when it is an http(s) address of a host; else
    ``BadAddress`` naming where it was given (``given_by``: the option or variable)."""
    try:
        parts = urlsplit(address)
        parts.port  # noqa: B018 (parsed here: a port that is no number raises)
    except ValueError as exc:
        raise BadAddress(f"{given_by}: {address!r} is not a web address ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadAddress(f"{given_by}: {address!r} is not an http:// or https:// address "
                         "of a host")
    return address.rstrip("/")


class Unreachable(Exception):
    """The server could not be connected to, or gave no complete answer in time."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class Refused(Exception):
    """An answer the policy does not take: too large, redirected elsewhere or in a loop,
    undecodable."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class GaveUp(Exception):
    """Every attempt was answered with a retried status or lost on the way."""

    def __init__(self, problem: str, attempts: int,
                 response: httpx.Response | None = None) -> None:
        super().__init__(f"{problem} after {attempts} attempts")
        self.problem = problem
        self.attempts = attempts
        self.response = response


def size_text(count: int) -> str:
    """``32 MiB``, ``512 KiB``, ``100 bytes``."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    return f"{count} bytes"


def retry_after(headers: Mapping[str, str], name: str = "Retry-After") -> float | None:
    """The pause a ``Retry-After`` (or ``Backoff``) header asks for, in seconds: a number, or
    an HTTP date (its distance from the server's ``Date``); None when absent or unreadable."""
    value = headers.get(name)
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
        now = parsedate_to_datetime(headers["Date"]) if "Date" in headers else None
    except (TypeError, ValueError, IndexError):
        return None
    if now is None or when.tzinfo is None or now.tzinfo is None:
        return None
    return max(0.0, (when - now).total_seconds())


def answer_json(body: bytes | str, what: str, shape: type[dict[str, Any] | list[Any]],
                error: Callable[[str], Exception]) -> Any:
    """The JSON value of an answer, an object (``dict``) or an array (``list``) as ``shape``
    says; ``error(message)`` is raised, naming ``what`` (the service and the request), for
    anything else: not JSON, nested too deeply, or of another shape."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else \
            "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise error(f"{what}: the answer is not valid JSON ({detail})") from None
    if not isinstance(value, shape):
        raise error(f"{what}: the answer is JSON but not "
                    f"{'an object' if shape is dict else 'an array'}")
    return value


def _port(url: httpx.URL) -> int | None:
    return url.port or _DEFAULT_PORTS.get(url.scheme)


def _where(url: httpx.URL) -> str:
    """``host:port`` of ``url`` (what a message names)."""
    return f"{url.host}:{_port(url)}" if url.host else str(url)


def _redirect_allowed(origin: httpx.URL, target: httpx.URL, hosts: frozenset[str]) -> bool:
    """Whether ``origin`` may redirect to ``target``: the same host and port (or ``http`` to
    ``https`` on the same host), or a host of ``hosts``, over ``https`` if it started so."""
    if target.scheme not in _DEFAULT_PORTS or (origin.scheme == "https"
                                               and target.scheme != "https"):
        return False
    if target.host == origin.host:
        return _port(target) == _port(origin) or (origin.scheme, target.scheme) == (
            "http", "https") and _port(target) == 443
    return target.host in hosts


def _body(response: httpx.Response, limit: int, stop: threading.Event) -> bytes:
    """The decoded body, read until the end, ``limit`` bytes or ``stop``."""
    body = bytearray()
    for chunk in response.iter_bytes():
        body += chunk
        if len(body) > limit:
            del body, chunk  # freed now, not when the traceback goes
            raise Refused(f"an answer larger than {size_text(limit)} (the limit); not read "
                          "further")
        if stop.is_set():
            break
    return bytes(body)


def _exchange(client: httpx.Client, request: httpx.Request, limits: Limits,
              stop: threading.Event) -> httpx.Response:
    """The answer to ``request`` after the redirects ``limits`` allows, its body read."""
    import httpx

    origin = request.url
    for _ in range(MAX_REDIRECTS + 1):
        try:
            response = client.send(request, stream=True)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            if request.url == origin:
                raise
            raise Unreachable(f"{exc or type(exc).__name__} at {_where(request.url)}, where "
                              "it redirected") from None
        try:
            following = response.next_request if response.is_redirect else None
            if following is None:
                body = _body(response, limits.max_bytes, stop)
                headers = [(name, value) for name, value in response.headers.multi_items()
                           if name.lower() not in _WIRE_HEADERS]
                return httpx.Response(response.status_code, headers=headers, content=body,
                                      request=response.request)
        except httpx.DecodingError as exc:
            raise Refused(f"an answer that cannot be decompressed ({exc})") from None
        finally:
            response.close()
        if not _redirect_allowed(origin, following.url, limits.redirect_hosts):
            raise Refused(f"redirected to {_where(following.url)}, which is not followed "
                          "(redirects are followed within the host asked only)")
        request = following
    raise Refused(f"redirected more than {MAX_REDIRECTS} times (a redirect loop?), last to "
                  f"{request.url}")


def _late(seconds: float) -> str:
    return f"no complete answer within {seconds:g} s"


def _within(seconds: float, work: Callable[[threading.Event], httpx.Response]
            ) -> httpx.Response:
    """``work``'s answer if it comes within ``seconds``, else ``Unreachable``; a late ``work``
    is told to stop (``stop``) and left to end on its own thread."""
    stop = threading.Event()
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(work(stop))
        except Exception as exc:  # noqa: BLE001  handed to the asking thread, raised there
            outcome.append(exc)

    thread = threading.Thread(target=run, name="refbridge-request", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive() or not outcome:
        stop.set()
        raise Unreachable(_late(seconds))
    result = outcome.pop()
    if isinstance(result, BaseException):
        try:
            raise result
        finally:  # no cycle through this frame keeps the failed answer's buffers alive
            del result
    response: httpx.Response = result
    return response


def send(client: httpx.Client, method: str, url: str, retries: Retries,
         sleep: Callable[[float], None], before: Callable[[], None] | None = None,
         limits: Limits | None = None, **request: Any) -> httpx.Response:
    """The first answer to ``method url`` whose status is not retried, its body read.

    ``before`` runs before every attempt (pacing, counting). Raises ``Unreachable`` when the
    server cannot be connected to or gives no complete answer within ``limits.timeout`` (not
    tried again), ``Refused`` for an answer the ``limits`` do not take, ``GaveUp`` when every
    attempt failed otherwise. ``client`` must not follow redirects itself.
    """
    import httpx

    limits = limits or Limits()
    late = _late(limits.timeout)
    delay = retries.backoff
    problem = ""
    last: httpx.Response | None = None
    attempts = retries.retries + 1
    for attempt in range(attempts):
        if attempt:
            sleep(delay)
            delay *= 2
        if before is not None:
            before()
        built = client.build_request(method, url, **request)
        try:
            response = _within(limits.timeout, partial(_exchange, client, built, limits))
        except httpx.TimeoutException:  # httpx's timeout of one step, or the deadline
            raise Unreachable(late) from None
        except httpx.ConnectError as exc:
            raise Unreachable(str(exc) or type(exc).__name__) from None
        except httpx.TransportError as exc:
            problem = f"{type(exc).__name__}: {exc}"
            continue
        if response.status_code not in retries.statuses:
            return response
        last = response
        problem = f"HTTP {response.status_code}"
        pause = retry_after(response.headers)
        if pause is not None:
            delay = max(delay, min(pause, MAX_RETRY_AFTER))
    raise GaveUp(problem, attempts, last)
