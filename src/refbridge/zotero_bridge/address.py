"""Where a Zotero library lives: the service, the library, the collection, the base URL.

On the command line a library is ``--from``/``--to zotero-desktop|zotero-web`` with
``--library user:ID|group:ID`` and ``--collection NAME``; as the input of any command that reads
it is one address: ``zotero-desktop:`` (the desktop's own library), ``zotero-desktop:Reading``
(a collection, ``Parent/Child`` for a nested one), ``zotero-desktop:group:ID/Reading``,
``zotero-web:user:ID`` or ``zotero-web:group:ID/Reading``. A Zotero database read as a file is
``zotero-sqlite:`` (the default data directory's), ``zotero-sqlite:PATH`` (the file, or the data
directory holding it), ``zotero-sqlite:PATH.sqlite/[group:NAME/]COLLECTION`` or
``zotero-sqlite:group:NAME[/COLLECTION]`` (the default database's group library). Base URLs
come from ``--zotero-url``, else ``REFBRIDGE_ZOTERO_DESKTOP`` / ``REFBRIDGE_ZOTERO_API``, else
Zotero's own addresses (``services.settings.zotero_endpoint``).
The Web API key is read from ``ZOTERO_API_KEY``. An address gives the client of its service
(``LibraryAddress.client``). This module must never make a request.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from refbridge.services.settings import ZOTERO_API_KEY_VARIABLE, zotero_endpoint
from refbridge.services.zotero.client import Library
from refbridge.zotero_bridge import DESKTOP, SERVICES, SQLITE, WEB
from refbridge.zotero_bridge.errors import ZoteroRefused, ZoteroUsageError

if TYPE_CHECKING:
    from refbridge.services.zotero.client import ZoteroClient

_LIBRARY = re.compile(r"^(?P<kind>user|group):(?P<id>\d+)$")
_ADDRESS_LIBRARY = re.compile(r"^(?P<kind>user|group):(?P<id>\d+)(?:/(?P<rest>.*))?$", re.DOTALL)


#: The desktop's own library, as its local API names it.
LOCAL_USER = Library("user", "0")


def parse_library(text: str) -> Library:
    match = _LIBRARY.match(text.strip())
    if match is None:
        raise ZoteroUsageError(f"library {text!r}: expected user:ID or group:ID (the numbers "
                               "are on zotero.org/settings/keys and in a group's web address)")
    return Library(match["kind"], match["id"])


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

    def client(self, api_key: str | None = None, **settings: Any) -> ZoteroClient:
        """A client of this address's service and library (``settings``: its retries,
        timeout, clock); the collection is the caller's to find."""
        from refbridge.services.zotero.client import ZoteroClient

        return ZoteroClient(self.base_url, self.library, self.service == DESKTOP, api_key,
                            **settings)


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
    return LibraryAddress(service, parsed, collection or None, zotero_endpoint(service, url))


@dataclass(frozen=True, slots=True)
class DatabaseAddress:
    """A library (or one collection of it) in a Zotero database read as a file."""

    path: Path  #: the ``zotero.sqlite`` file
    library: str | None  #: None: the user's library; ``group:NAME`` or ``group:ID``
    collection: str | None

    @property
    def service(self) -> str:
        return SQLITE

    @property
    def base_url(self) -> str:
        """The database's URI (what names refbridge's cached copy of its entries)."""
        return self.path.resolve().as_uri()

    def __str__(self) -> str:
        where = "/".join(p for p in (self.library, self.collection) if p)
        return f"{SQLITE}:{self.path}" + (f"/{where}" if where else "")


_DATABASE_FILE = re.compile(r"^(?P<path>.*?\.sqlite)(?:/(?P<rest>.*))?$", re.DOTALL)
_GROUP = re.compile(r"^(?P<library>group:[^/]+)(?:/(?P<rest>.*))?$", re.DOTALL)


def database_address(path: str | None, library: str | None = None,
                     collection: str | None = None) -> DatabaseAddress:
    """The database ``path`` names (a file, a data directory, or None for the default)."""
    from refbridge.zotero_bridge.datadir import database_path

    return DatabaseAddress(database_path(path), library or None, collection or None)


def parse_database_address(rest: str) -> DatabaseAddress:
    """The address ``zotero-sqlite:REST`` names (see the module's documentation)."""
    group = _GROUP.match(rest)
    if group is not None:
        return database_address(None, group["library"], group["rest"])
    match = _DATABASE_FILE.match(rest)
    if match is None:
        return database_address(rest or None)
    inner = _GROUP.match(match["rest"] or "")
    if inner is not None:
        return database_address(match["path"], inner["library"], inner["rest"])
    return database_address(match["path"], None, match["rest"])


def source_address(source: str, library: str | None, collection: str | None,
                   url: str | None = None) -> LibraryAddress | DatabaseAddress:
    """The library ``--from`` names for ``pull`` and ``sync``: a service, or ``zotero-sqlite``
    (optionally ``zotero-sqlite:PATH``) with ``--library user|group:NAME``."""
    kind, colon, path = source.partition(":")
    if kind == SQLITE:
        return database_address(path or None, library, collection)
    if colon:
        raise ZoteroUsageError(f"--from {source}: only zotero-sqlite takes a path")
    return library_address(source, library, collection, url)


def parse_address(text: str, url: str | None = None) -> LibraryAddress | DatabaseAddress:
    """The library an input address names (see the module's documentation)."""
    service, _, rest = text.partition(":")
    if service == SQLITE:
        return parse_database_address(rest)
    match = _ADDRESS_LIBRARY.match(rest)
    if match is not None:
        return library_address(service, f"{match['kind']}:{match['id']}", match["rest"], url)
    if service == WEB:
        raise ZoteroUsageError(f"{text}: expected zotero-web:user:ID or zotero-web:group:ID, "
                               "optionally followed by /COLLECTION")
    return library_address(service, None, rest, url)


def api_key(required: bool) -> str | None:
    """The Web API key from ``ZOTERO_API_KEY``; an error when required and missing."""
    key = os.environ.get(ZOTERO_API_KEY_VARIABLE, "").strip() or None
    if key is None and required:
        raise ZoteroRefused(f"set {ZOTERO_API_KEY_VARIABLE} to a Zotero API key with write access "
                            "to the library (make one at zotero.org/settings/keys)")
    return key
