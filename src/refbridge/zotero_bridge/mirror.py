"""A local copy of a Zotero library (or one collection of it), brought up to date by version.

Zotero numbers every change: each object has a version, the library has the latest one. A
refresh asks only for what changed since the copy's version, as Zotero's own sync does:

- zotero.org, whole library: ``items?since=V&format=versions`` with ``If-Modified-Since-Version``
  (304 when nothing changed), then ``deleted?since=V`` for what was removed;
- a collection, or the desktop's local API (which has no ``/deleted``): the scope's full
  ``format=versions`` listing, one small request, compared with the copy (an item that left the
  collection or the library is gone from it);
- changed items are then fetched by key, fifty at a time, up to four requests at once.

A desktop whose local API does not send ``Zotero-Server-ID`` reports synced versions, which
local edits and items saved through the connector do not change (an unsynced item stays at
version 0): there every refresh reads the scope's items whole and compares them with the copy.
A copy is kept per service, library and collection in refbridge's cache folder
(``REFBRIDGE_CACHE_DIR``), and a desktop copy only for the server that made it. The requests
and the reading of their answers are the service's (``services.zotero.library``); this module
decides what to ask. It must never turn items into records.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refbridge.services.zotero import library
from refbridge.services.zotero.client import CONCURRENCY, ZoteroClient
from refbridge.services.zotero.library import KEYS_PER_REQUEST
from refbridge.zotero_bridge.address import DatabaseAddress, LibraryAddress
from refbridge.zotero_bridge.collections import api_collections, resolve_collection
from refbridge.zotero_bridge.errors import ZoteroError

CACHE_FORMAT = 1

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class Changes:
    """What a refresh found: keys of items added or changed, keys of items gone."""

    changed: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.changed or self.removed)


def default_cache_file(address: LibraryAddress | DatabaseAddress) -> Path:
    from refbridge.services.settings import default_cache_dir

    name = f"{address.base_url}|{address.library}|{address.collection or ''}"
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:24]
    return default_cache_dir() / "zotero" / f"{digest}.json"


def collection_key(client: ZoteroClient, address: LibraryAddress) -> str | None:
    """The key of the address's collection (None for the whole library)."""
    if address.collection is None:
        return None
    hint = "check the name in Zotero"
    return resolve_collection(address.collection, api_collections(library.collections(client)),
                              str(address.library), hint).id


def _json_text(value: Any) -> str:
    """``value`` as JSON: orjson's, or json's (ASCII, escaped) when an item holds a lone
    surrogate, which orjson refuses: the copy keeps what the library holds, and the reader of
    its items reports and replaces it (``refbridge.formats.surrogates``) on every run."""
    import orjson

    try:
        return orjson.dumps(value).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError: "surrogates not allowed"
        return json.dumps(value, separators=(",", ":"))


class LibraryMirror:
    """Item key -> the item's JSON ``data``, for every item of a scope (children included)."""

    def __init__(self, client: ZoteroClient, address: LibraryAddress,
                 cache_file: Path | None = None) -> None:
        self.client = client
        self.address = address
        self.cache_file = cache_file
        self.version: int | None = None
        self.server_id: str | None = None
        self._items: dict[str, dict[str, Any]] | None = None
        self._collection: str | None = None
        self._load_head()

    # -- the copy on disk: a small head (versions), and the items, read only when needed -------
    def _items_file(self) -> Path | None:
        return None if self.cache_file is None else self.cache_file.with_suffix(".items.json")

    @staticmethod
    def _read(path: Path | None) -> Any:
        import orjson

        try:
            data = path.read_bytes() if path is not None else None
        except OSError:
            return None  # a copy that cannot be read is made again
        if data is None:
            return None
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            try:  # a lone surrogate, as the library holds it (escaped by _json_text)
                return json.loads(data)
            except ValueError:
                return None

    def _load_head(self) -> None:
        head = self._read(self.cache_file)
        items_file = self._items_file()
        if isinstance(head, dict) and head.get("format") == CACHE_FORMAT \
                and head.get("address") == self._identity() \
                and items_file is not None and items_file.is_file():
            self.version, self.server_id = head.get("version"), head.get("server_id")

    @property
    def items(self) -> dict[str, dict[str, Any]]:
        """Item key -> the item's ``data``. The items file is written before the head, so it
        is never older than the head's version (a newer one only brings changes again)."""
        if self._items is None:
            if self.version is None:
                self._items = {}
            else:
                saved = self._read(self._items_file())
                if not isinstance(saved, dict) or not isinstance(saved.get("items"), dict):
                    for path in (self.cache_file, self._items_file()):
                        if path is not None:
                            path.unlink(missing_ok=True)
                    raise ZoteroError(f"refbridge's copy of {self.address} in its cache was "
                                      "damaged and has been removed: run the command again")
                self._items = saved["items"]
        return self._items

    def _identity(self) -> str:
        return f"{self.address.base_url}|{self.address.library}|{self.address.collection}"

    def save(self) -> None:
        import orjson

        from refbridge.textio import atomic_output

        items_file = self._items_file()
        if self.cache_file is None or items_file is None:
            return
        self.cache_file.parent.mkdir(parents=True, exist_ok=True)
        with atomic_output(str(items_file)) as out:
            out.write(_json_text({"version": self.version, "items": self.items}))
        head = {"format": CACHE_FORMAT, "address": self._identity(), "version": self.version,
                "server_id": self.server_id}
        with atomic_output(str(self.cache_file)) as out:
            out.write(orjson.dumps(head).decode("utf-8"))

    # -- refreshing ----------------------------------------------------------------------------
    def _scope(self) -> str | None:
        """The key of the address's collection (None: the whole library)."""
        if self._collection is None and self.address.collection is not None:
            self._collection = collection_key(self.client, self.address)
        return self._collection

    def refresh(self, progress: Progress | None = None) -> Changes:
        """Bring the copy up to date; what changed. Saves the copy when anything did."""
        scope = self._scope()
        known = self.version if not self.client.desktop else None
        library_wide = self.address.collection is None
        if not self.client.desktop and library_wide and known is not None:
            changes = self._since(known, progress)
        else:
            changes = self._listing(scope, known, progress)
        if changes or self.cache_file is not None and not self.cache_file.exists():
            self.save()
        return changes

    def _since(self, since: int, progress: Progress | None) -> Changes:
        answer = library.changed_since(self.client, since)
        if not answer.modified:
            return Changes()
        versions = answer.changed()
        deleted = library.deleted_since(self.client, since)
        new_version = answer.library_version
        changes = self._fetch([k for k, v in versions.items()
                               if self.items.get(k, {}).get("version") != v], progress)
        for key in deleted:
            if self.items.pop(key, None) is not None:
                changes.removed.add(key)
        self.version = new_version
        return changes

    def _listing(self, scope: str | None, known: int | None, progress: Progress | None
                 ) -> Changes:
        answer = library.item_versions(self.client, scope, known)
        if self.client.desktop and self.client.server_id is None:
            return self._whole(scope, progress)  # synced versions say nothing of local edits
        if self.client.desktop and self.server_id != self.client.server_id:
            self._items, self.server_id = {}, self.client.server_id  # another Zotero's copy
        if not answer.modified:
            return Changes()
        versions = answer.changed()
        changes = self._fetch([k for k, v in versions.items()
                               if self.items.get(k, {}).get("version") != v], progress)
        for key in set(self.items) - set(versions):
            del self.items[key]
            changes.removed.add(key)
        self.version = answer.library_version
        return changes

    def _whole(self, scope: str | None, progress: Progress | None) -> Changes:
        fresh: dict[str, dict[str, Any]] = {}
        version = None
        for page in library.item_pages(self.client, scope):
            version = page.library_version
            fresh.update((entry["key"], entry["data"]) for entry in page.entries)
            if progress is not None:
                progress(len(fresh), len(fresh) if page.total is None else page.total)
        changes = Changes({k for k, data in fresh.items() if self.items.get(k) != data},
                          set(self.items) - set(fresh))
        self._items, self.version, self.server_id = fresh, version, None
        return changes

    def _fetch(self, keys: list[str], progress: Progress | None) -> Changes:
        """Fetch ``keys`` (sorted, in batches, several at once) into the copy; keys that no
        longer answer (trashed or deleted meanwhile) are removed."""
        batches = [sorted(keys)[i:i + KEYS_PER_REQUEST]
                   for i in range(0, len(keys), KEYS_PER_REQUEST)]
        changes = Changes()
        done = 0
        with ThreadPoolExecutor(max_workers=CONCURRENCY) as pool:
            for batch, entries in zip(batches, pool.map(
                    lambda keys: library.items_by_key(self.client, keys), batches)):
                answered = {entry["key"]: entry["data"] for entry in entries}
                for key in batch:
                    data = answered.get(key)
                    if data is None or data.get("deleted"):
                        if self.items.pop(key, None) is not None:
                            changes.removed.add(key)
                    else:
                        self.items[key] = data
                        changes.changed.add(key)
                done += len(batch)
                if progress is not None:
                    progress(done, len(keys))
        return changes

    def ordered_items(self) -> Iterator[dict[str, Any]]:
        """The copy's items in a stable order: by date added, then key."""
        yield from sorted(self.items.values(),
                          key=lambda d: (str(d.get("dateAdded") or ""), str(d.get("key"))))
