"""A local copy of a library in a Zotero database, brought up to date by each item's stamp.

The counterpart of ``mirror`` for ``sync --from zotero-sqlite``: a refresh lists, for every
item of the scope, its ``version``, ``clientDateModified`` and ``dateModified`` (Zotero changes
the times at every local edit, and the version when the edit syncs) and its Better BibTeX key,
compares them with the copy's, and builds the item JSON of the items whose stamp moved only;
an item gone from the scope (deleted, trashed, out of the collection) is removed. The copy is
kept in refbridge's cache folder like the services' copies, and has the same interface
(``items``, ``version``, ``server_id``, ``refresh``), so ``sync`` treats both alike. This module
must never write to the database (it reads it through ``sqlite``), nor turn items into records.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from refbridge.errors import Diagnostics
from refbridge.zotero_bridge.address import DatabaseAddress
from refbridge.zotero_bridge.mirror import Changes, Progress

CACHE_FORMAT = 1


class DatabaseMirror:
    """Item key -> the item's JSON, for every item of a scope of a Zotero database."""

    def __init__(self, address: DatabaseAddress, cache_file: Path | None,
                 diagnostics: Diagnostics) -> None:
        self.address = address
        self.cache_file = cache_file
        self.diagnostics = diagnostics
        self.version: str | None = None  #: a digest of every item's stamp
        self.server_id: str | None = None
        self.items: dict[str, dict[str, Any]] = {}
        self._stamps: dict[str, str] = {}
        self._load()

    def _identity(self) -> str:
        return f"{self.address.base_url}|{self.address.library}|{self.address.collection}"

    def _load(self) -> None:
        import orjson

        try:
            saved = orjson.loads(self.cache_file.read_bytes()) if self.cache_file else None
        except (OSError, orjson.JSONDecodeError):
            return  # no copy, or one that cannot be read: made again
        if isinstance(saved, dict) and saved.get("format") == CACHE_FORMAT \
                and saved.get("address") == self._identity() \
                and isinstance(saved.get("items"), dict) and isinstance(saved.get("stamps"), dict):
            self.items, self._stamps = saved["items"], saved["stamps"]
            self.version = saved.get("version")

    def save(self) -> None:
        import orjson

        from refbridge.textio import atomic_output

        if self.cache_file is None:
            return
        self.cache_file.parent.mkdir(parents=True, exist_ok=True)
        with atomic_output(str(self.cache_file)) as out:
            out.write(orjson.dumps({"format": CACHE_FORMAT, "address": self._identity(),
                                    "version": self.version, "stamps": self._stamps,
                                    "items": self.items}).decode("utf-8"))

    def refresh(self, progress: Progress | None = None) -> Changes:
        """Bring the copy up to date; what changed. Saves the copy when anything did."""
        from refbridge.zotero_bridge.sqlite import open_database

        with open_database(self.address.path, self.diagnostics) as database:
            scope = database.scope(self.address.library, self.address.collection)
            stamps = database.stamps(scope)
            changed = sorted(k for k, s in stamps.items() if self._stamps.get(k) != s.text)
            fresh = database.items(scope, (stamps[k].item_id for k in changed))
        changes = Changes({str(data["key"]) for data in fresh}, set(self.items) - set(stamps))
        for key in changes.removed:
            del self.items[key]
        self.items.update((str(data["key"]), data) for data in fresh)
        self._stamps = {key: stamp.text for key, stamp in sorted(stamps.items())}
        self.version = hashlib.sha256("\n".join(
            f"{k} {v}" for k, v in self._stamps.items()).encode("utf-8")).hexdigest()[:24]
        if progress is not None:
            progress(len(fresh), len(fresh))
        if changes or self.cache_file is not None and not self.cache_file.exists():
            self.save()
        return changes
