"""``refbridge sync``: a file kept up to date with a Zotero library or collection.

What Better BibTeX's automatic export is used for, with these promises:

- **incremental**: the library's ``mirror`` fetches only what changed since the last run (by
  library version; nothing at all when the version has not moved; from a Zotero database,
  ``dbmirror`` reads again only the items whose version or modification times moved), and only
  the entries of changed items are written again: the others come from the run before (kept in
  refbridge's cache folder, per output file and writer settings);
- **deterministic**: entries sorted by citation key, fields in the writer's order, no date,
  version or other stamp in the file, so the same library gives the same bytes on every machine
  and a diff shows only real changes;
- **stable keys**: a key the library gives (Zotero's ``citationKey`` field, or Better BibTeX's
  ``Citation Key:`` in Extra) is used as it is; every other key is generated once and then
  kept in the key file (``OUTPUT.keys.json`` beside the output, worth committing with it), so
  a key never changes once written, whatever later edits do to the title or authors;
- **untouched when unchanged**: the file is compared with what would be written and replaced,
  atomically, only when they differ (bytes and modification time stay otherwise).

Formats whose entries stand alone (``bibtex``, ``biblatex``, ``csl-json``, ``ris``) can be kept in
sync. This module must never make a request itself (the mirror does).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from refbridge.citekeys import DEFAULT_PATTERN, KeyBook
from refbridge.errors import Diagnostics, OutputError
from refbridge.formats.zotero.items import (
    child_files,
    child_notes,
    is_record_item,
    record_of_item,
)
from refbridge.keylock import KeyLock
from refbridge.model import ModelError, Record
from refbridge.registry import FramedWriter, WriteOptions, get_writer, write_framed
from refbridge.services.zotero.client import ZoteroClient
from refbridge.version import __version__
from refbridge.zotero_bridge.address import DatabaseAddress, LibraryAddress, api_key
from refbridge.zotero_bridge.dbmirror import DatabaseMirror
from refbridge.zotero_bridge.errors import ZoteroUnavailable, ZoteroUsageError
from refbridge.zotero_bridge.mirror import Changes, LibraryMirror, Progress, default_cache_file

#: Where a library is read from: a service or a Zotero database.
Address = LibraryAddress | DatabaseAddress
Mirror = LibraryMirror | DatabaseMirror

KEY_FILE_SUFFIX = ".keys.json"


@dataclass(frozen=True, slots=True)
class SyncOptions:
    to_format: str = "bibtex"
    key_file: Path | None = None  #: None: ``OUTPUT.keys.json``
    write: WriteOptions = field(default_factory=WriteOptions)


@dataclass(slots=True)
class SyncReport:
    """One run: how many entries, what changed, whether the file was written."""

    output: str
    entries: int = 0
    added: int = 0
    changed: int = 0
    removed: int = 0
    written: bool = False
    diagnostics: Diagnostics = field(default_factory=Diagnostics)

    def summary(self) -> str:
        if not self.written:
            return f"{self.output}: up to date ({self.entries} entries)"
        return (f"{self.output}: written, {self.entries} entries ({self.added} added, "
                f"{self.changed} changed, {self.removed} removed)")


def sync_writer(name: str) -> FramedWriter:
    """The writer of ``name`` if its entries stand alone, else a usage error."""
    writer = get_writer(name)
    if not hasattr(writer, "record_text"):
        raise ZoteroUsageError(f"sync writes formats whose entries stand alone (bibtex, "
                               f"biblatex, csl-json, ris), not {name}")
    return writer  # type: ignore[return-value]


# -- the key file ----------------------------------------------------------------------------
def read_key_file(path: Path) -> dict[str, str]:
    """Item key -> citation key, as written before (an empty mapping for a new file)."""
    if not path.exists():
        return {}
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        keys = saved["keys"]
        if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
            raise ValueError("'keys' is not an object of texts")
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise OutputError(f"{path}: not a refbridge key file ({exc}); move it away to start "
                          "a new one") from None
    return dict(keys)


def _write_if_changed(path: Path, text: str) -> bool:
    from refbridge.textio import atomic_output

    try:
        if path.read_bytes() == text.encode("utf-8"):
            return False
    except OSError:
        pass
    with atomic_output(str(path)) as out:
        out.write(text)
    return True


def key_file_text(address: Address, keys: Mapping[str, str]) -> str:
    return json.dumps({"library": str(address), "keys": dict(sorted(keys.items()))},
                      ensure_ascii=False, indent=1) + "\n"


# -- keys ------------------------------------------------------------------------------------
def decide_keys(own: Mapping[str, str], pinned: Mapping[str, str], items: list[str],
                record_of: Callable[[str], Record | None], pattern: str,
                lock: KeyLock | None = None) -> tuple[dict[str, str], list[str]]:
    """Item key -> citation key for ``items``: the library's own keys first, then the keys
    written before, then the key lock's, then new ones from ``pattern``; and what to warn
    about."""
    book = KeyBook(pattern, lock=lock)
    decided: dict[str, str] = {}
    waiting: list[tuple[str, str | None]] = []
    warnings: list[str] = []
    for item in sorted(k for k in items if k in own):
        if book.reserve(own[item]):
            decided[item] = own[item]
        else:
            waiting.append((item, own[item]))
            warnings.append(f"item {item}: its key {own[item]!r} is used by another item; "
                            "it gets the key with a suffix")
    for item in sorted(k for k in items if k not in own):
        if item in pinned and book.reserve(pinned[item]):
            decided[item] = pinned[item]
        else:
            if item in pinned:
                warnings.append(f"item {item}: its key {pinned[item]!r} is now an item's own "
                                "key in the library; it gets the key with a suffix")
            waiting.append((item, pinned.get(item)))
    noted: list[str] = []
    for item, base in waiting:
        record = record_of(item)
        if record is not None:
            book.note(record.replace(citation_key=base))
            noted.append(item)
    decided.update(zip(noted, book.generated_keys()))
    return decided, warnings


# -- one run ---------------------------------------------------------------------------------
def _render_cache_file(address: Address, output: Path, options: SyncOptions) -> Path:
    settings = json.dumps([__version__, str(output.resolve()), options.to_format,
                           repr(options.write)])
    digest = hashlib.sha256(settings.encode("utf-8")).hexdigest()[:16]
    mirror_file = default_cache_file(address)
    return mirror_file.with_name(f"{mirror_file.stem}.{digest}.entries.json")


def _load(path: Path) -> dict[str, Any]:
    import orjson

    try:
        loaded = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _state(mirror: Mirror, output: Path, key_path: Path, entries: int
           ) -> dict[str, Any]:
    """What a run left: the library version it saw, and the files it made, by digest."""
    return {"version": mirror.version, "server_id": mirror.server_id,
            "output": _digest(output), "keys": _digest(key_path), "entries": entries}


def _refresh(address: Address, progress: Progress | None, client: ZoteroClient | None,
             diagnostics: Diagnostics) -> tuple[Mirror, Changes]:
    """The library's mirror, brought up to date, and what changed."""
    if isinstance(address, DatabaseAddress):
        database = DatabaseMirror(address, default_cache_file(address), diagnostics)
        return database, database.refresh(progress)
    owned = client is None
    client = client or address.client(api_key(required=False))
    try:
        mirror = LibraryMirror(client, address, default_cache_file(address))
        return mirror, mirror.refresh(progress)
    finally:
        if owned:
            client.close()


def sync_once(address: Address, output: Path, options: SyncOptions,
              progress: Progress | None = None, client: ZoteroClient | None = None
              ) -> SyncReport:
    """Bring ``output`` up to date with the library at ``address``."""
    import orjson

    writer = sync_writer(options.to_format)
    report = SyncReport(str(output))
    key_path = options.key_file or output.with_name(output.name + KEY_FILE_SUFFIX)
    pinned = read_key_file(key_path)
    mirror, changes = _refresh(address, progress, client, report.diagnostics)
    entries_path = _render_cache_file(address, output, options)
    state_path = entries_path.with_suffix(".state.json")
    last = _load(state_path)
    if not changes and last and last == _state(mirror, output, key_path, last["entries"]):
        report.entries = last["entries"]  # nothing changed, here or there
        return report
    cached = _load(entries_path)
    notes = child_notes(mirror.items.values())
    files: dict[str, list[str]] = {}
    if isinstance(address, DatabaseAddress):  # a database's files are in its storage folder
        from refbridge.zotero_bridge.sqlite import storage_of

        files = child_files(mirror.items.values(), storage_of(address.path))
    top = {k: d for k, d in mirror.items.items() if is_record_item(d)}
    children: dict[str, list[str]] = {}
    for key, data in sorted(mirror.items.items()):
        if data.get("parentItem"):
            children.setdefault(str(data["parentItem"]), []).append(key)
    touched = set(changes.changed) | set(changes.removed)
    dirty = {k for k in top if k in touched or k not in cached
             or touched & set(cached[k].get("notes", ()))}
    records: dict[str, Record | None] = {}

    def record_of(item: str) -> Record | None:
        if item not in records:
            where = f"{address}/items/{item}"
            try:
                records[item] = record_of_item(top[item], notes.get(item, ()), where,
                                               report.diagnostics, files.get(item, ()))
            except (ValueError, ModelError) as exc:
                report.diagnostics.error(f"item skipped: {exc}", where)
                records[item] = None
        return records[item]

    own = {k: str(cached[k]["own"]) for k in top
           if k not in dirty and cached[k].get("own") is not None}
    for item in sorted(dirty):
        record = record_of(item)
        if record is not None and record.citation_key is not None:
            own[item] = record.citation_key
    keys, warnings = decide_keys(own, pinned, sorted(top), record_of,
                                 options.write.key_pattern or DEFAULT_PATTERN,
                                 options.write.key_lock)
    for warning in warnings:
        report.diagnostics.warning(warning, str(address))
    entries: dict[str, dict[str, Any]] = {}
    write = replace(options.write, diagnostics=report.diagnostics)  # told once, when written
    for item in sorted(keys):
        previous = cached.get(item)
        if item not in dirty and previous is not None and previous.get("key") == keys[item]:
            entries[item] = previous
            continue
        record = record_of(item)
        if record is None:
            continue
        text = writer.record_text(record.replace(citation_key=keys[item]), write)
        entries[item] = {"key": keys[item], "own": record.citation_key, "text": text,
                         "notes": children.get(item, [])}
        if previous is None:
            report.added += 1
        elif previous.get("text") != text:
            report.changed += 1
    report.removed = len(set(cached) - set(entries))
    report.entries = len(entries)
    report.written = _write_if_changed(output, _assemble(writer, entries))
    _write_if_changed(key_path, key_file_text(address, keys))
    if options.write.key_lock is not None:  # filed once the keys it holds are written
        options.write.key_lock.save()
    entries_path.parent.mkdir(parents=True, exist_ok=True)
    if entries != cached:
        _write_if_changed(entries_path, orjson.dumps(entries).decode("utf-8"))
    _write_if_changed(state_path, json.dumps(_state(mirror, output, key_path, len(entries))))
    return report


def _assemble(writer: FramedWriter, entries: Mapping[str, Mapping[str, Any]]) -> str:
    import io

    ordered = sorted(entries.values(), key=lambda e: (str(e["key"]).casefold(), e["key"]))
    out = io.StringIO()
    write_framed((str(e["text"]) for e in ordered), out, writer.framing)
    return out.getvalue()


def sync_forever(address: Address, output: Path, options: SyncOptions, every: float,
                 on_report: Callable[[SyncReport], None],
                 on_unavailable: Callable[[ZoteroUnavailable], None],
                 progress: Progress | None = None,
                 sleep: Callable[[float], None] | None = None) -> None:
    """Sync every ``every`` seconds until interrupted; Zotero being away for a while (closed,
    the network down) is reported and waited out, anything else ends the watch."""
    if isinstance(address, DatabaseAddress):
        while True:
            on_report(sync_once(address, output, options, progress))
            (sleep or time.sleep)(every)
    with address.client(api_key(required=False)) as client:
        while True:
            try:
                on_report(sync_once(address, output, options, progress, client))
            except ZoteroUnavailable as exc:
                on_unavailable(exc)
            (sleep or time.sleep)(every)
