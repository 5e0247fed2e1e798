"""Who may ask the server: only this machine, through its loopback names, and only pages
of the server itself.

A request's ``Host`` must name the loopback (``127.0.0.1``, ``localhost``, ``[::1]``, any
port): a page of another site whose name was made to point at 127.0.0.1 (DNS rebinding) sends
its own name and is refused. A state-changing request (POST) that carries an ``Origin`` must
come from the server's own origin. The app's pages and API need the run's token (in the
address printed at start, or the ``X-Refbridge-Token`` header); Better BibTeX's endpoints do
not, as editors call them without one, but they pass the ``Host`` check too. This module must
never log a token nor compare one but in constant time.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Mapping
from urllib.parse import urlsplit

#: The names of this machine a ``Host`` header may carry.
LOOPBACK_NAMES = frozenset({"localhost"})
#: The header a page of the app sends its token in.
TOKEN_HEADER = "X-Refbridge-Token"


def _host_name(host: str) -> str | None:
    """The name of a ``Host`` header (``[::1]:23119`` -> ``::1``), None when malformed."""
    try:
        parts = urlsplit(f"//{host}")
        parts.port  # noqa: B018 -- reading it checks the port
    except ValueError:
        return None
    return parts.hostname


def is_loopback(name: str | None) -> bool:
    """Whether ``name`` names this machine's loopback (``127.x.x.x``, ``::1``, localhost)."""
    if not name:
        return False
    if name.lower().rstrip(".") in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_allowed(host: str | None) -> bool:
    """Whether the ``Host`` header names the loopback."""
    return host is not None and is_loopback(_host_name(host))


def origin_allowed(origin: str | None, port: int) -> bool:
    """Whether a state-changing request may come from ``origin``: none (an editor, curl) or
    the server's own (``http://127.0.0.1:PORT``, ``http://localhost:PORT``)."""
    if origin is None:
        return True
    try:
        parts = urlsplit(origin)
        return parts.scheme == "http" and parts.port == port and is_loopback(parts.hostname)
    except ValueError:
        return False


def token_given(header: str | None, query: Mapping[str, list[str]], token: str) -> bool:
    """Whether the request carries the run's token (its ``TOKEN_HEADER``, or ``token=`` in
    its address)."""
    given = header or next(iter(query.get("token", [])), "")
    return hmac.compare_digest(given.encode(), token.encode())
