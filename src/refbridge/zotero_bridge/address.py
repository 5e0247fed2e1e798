"""Where a Zotero library lives: the service, the library, the collection, the base URL.

On the command line a library is ``--from``/``--to zotero-desktop|zotero-web`` with
``--library user:ID|group:ID`` and ``--collection NAME``; as the input of any command that reads
it is one address: ``zotero-desktop:`` (the desktop's own library), ``zotero-desktop:Reading``
(a collection, ``Parent/Child`` for a nested one), ``zotero-desktop:group:ID/Reading``,
``zotero-web:user:ID`` or ``zotero-web:group:ID/Reading``. Base URLs come from ``--zotero-url``,
else ``REFBRIDGE_ZOTERO_DESKTOP`` / ``REFBRIDGE_ZOTERO_API``, else Zotero's own addresses.
The Web API key is read from ``ZOTERO_API_KEY``. This module must never make a request.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from refbridge.zotero_bridge.errors import ZoteroRefused, ZoteroUsageError

DESKTOP = "zotero-desktop"
WEB = "zotero-web"
SERVICES: tuple[str, ...] = (DESKTOP, WEB)
#: Service -> (environment variable of its base URL, the default base URL).
BASE_URLS: dict[str, tuple[str, str]] = {
    DESKTOP: ("REFBRIDGE_ZOTERO_DESKTOP", "http://127.0.0.1:23119"),
    WEB: ("REFBRIDGE_ZOTERO_API", "https://api.zotero.org"),
}
#: Where the Web API key is read from (never from the command line, never put in a URL).
API_KEY_VARIABLE = "ZOTERO_API_KEY"

_LIBRARY = re.compile(r"^(?P<kind>user|group):(?P<id>\d+)$")
_ADDRESS_LIBRARY = re.compile(r"^(?P<kind>user|group):(?P<id>\d+)(?:/(?P<rest>.*))?$", re.DOTALL)


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


#: The desktop's own library, as its local API names it.
LOCAL_USER = Library("user", "0")


def parse_library(text: str) -> Library:
    match = _LIBRARY.match(text.strip())
    if match is None:
        raise ZoteroUsageError(f"library {text!r}: expected user:ID or group:ID (the numbers "
                               "are on zotero.org/settings/keys and in a group's web address)")
    return Library(match["kind"], match["id"])


def base_url(service: str, override: str | None = None) -> str:
    variable, default = BASE_URLS[service]
    return (override or os.environ.get(variable) or default).rstrip("/")


@dataclass(frozen=True, slots=True)
class LibraryAddress:
    """A library (or one collection of it) on one service."""

    service: str
    library: Library
    collection: str | None
    base_url: str

    def __str__(self) -> str:
        where = "" if self.service == DESKTOP and self.library == LOCAL_USER else str(self.library)
        if self.collection:
            where = f"{where}/{self.collection}" if where else self.collection
        return f"{self.service}:{where}"

    @property
    def api_prefix(self) -> str:
        """The path of the library under the base URL: the local API lives under ``/api``."""
        return ("/api" if self.service == DESKTOP else "") + self.library.path


def library_address(service: str, library: str | None, collection: str | None,
                    url: str | None = None) -> LibraryAddress:
    """The address the options ``--from/--to``, ``--library``, ``--collection``,
    ``--zotero-url`` name."""
    if service not in SERVICES:
        raise ZoteroUsageError(f"unknown Zotero service {service!r} (known: "
                               f"{', '.join(SERVICES)})")
    if library is None and service == WEB:
        raise ZoteroUsageError("zotero-web needs --library user:ID or group:ID")
    parsed = parse_library(library) if library is not None else LOCAL_USER
    return LibraryAddress(service, parsed, collection or None, base_url(service, url))


def is_library_address(text: str) -> bool:
    """Whether an input names a Zotero library rather than a file."""
    return text.startswith(tuple(f"{service}:" for service in SERVICES))


def parse_address(text: str, url: str | None = None) -> LibraryAddress:
    """The library an input address names (see the module's documentation)."""
    service, _, rest = text.partition(":")
    match = _ADDRESS_LIBRARY.match(rest)
    if match is not None:
        return library_address(service, f"{match['kind']}:{match['id']}", match["rest"], url)
    if service == WEB:
        raise ZoteroUsageError(f"{text}: expected zotero-web:user:ID or zotero-web:group:ID, "
                               "optionally followed by /COLLECTION")
    return library_address(service, None, rest, url)


def api_key(required: bool) -> str | None:
    """The Web API key from ``ZOTERO_API_KEY``; an error when required and missing."""
    key = os.environ.get(API_KEY_VARIABLE, "").strip() or None
    if key is None and required:
        raise ZoteroRefused(f"set {API_KEY_VARIABLE} to a Zotero API key with write access "
                            "to the library (make one at zotero.org/settings/keys)")
    return key
