"""HTTP requests that survive a busy server: one request, sent again after 429, 5xx and
dropped connections, with doubling pauses that honour ``Retry-After``.

Enrichment (``enrich.http``) and the Zotero bridge (``zotero_bridge.client``) ask their services
through this one loop; each decides what the answer means. A request sent again is the same
request, headers included, so a write that carries an idempotency token (Zotero's
``Zotero-Write-Token``) keeps it on every attempt. ``sleep`` is injectable so tests run without
waiting. This module must never parse a service's answer or know a service's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

#: Statuses worth asking again after a pause.
RETRY_STATUSES: frozenset[int] = frozenset({429, 500, 502, 503, 504})
#: Longest pause a ``Retry-After`` header can impose, in seconds.
MAX_RETRY_AFTER = 120.0


@dataclass(frozen=True, slots=True)
class Retries:
    """How often and how patiently a request is sent again."""

    retries: int = 3  #: further attempts after the first
    backoff: float = 2.0  #: seconds before the first retry; doubled each time
    statuses: frozenset[int] = RETRY_STATUSES  #: answers that are asked again
    #: whether a refused connection is tried again (not for a program that is simply not
    #: running on this computer)
    retry_unreachable: bool = True


class Unreachable(Exception):
    """The server could not be connected to (on the last attempt)."""

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


def send(client: httpx.Client, method: str, url: str, retries: Retries,
         sleep: Callable[[float], None], before: Callable[[], None] | None = None,
         **request: Any) -> httpx.Response:
    """The first answer to ``method url`` whose status is not retried.

    ``before`` runs before every attempt (pacing, counting). Raises ``Unreachable`` when the
    last attempt could not connect, ``GaveUp`` when every attempt failed otherwise.
    """
    import httpx

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
        try:
            response = client.request(method, url, **request)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            if attempt == retries.retries or not retries.retry_unreachable:
                raise Unreachable(str(exc) or type(exc).__name__) from None
            problem = str(exc)
            continue
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
