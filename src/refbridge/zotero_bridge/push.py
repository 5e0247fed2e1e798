"""``refbridge push``: records into a Zotero library, each once.

Before anything is saved the library's items are read (``mirror``) and every record looked up
(``identity``): what the library has is skipped, or updated with ``--update`` (zotero.org only),
and a record repeated in the input goes once. The desktop's items are read through its local
API, whole, every time: items saved through the connector do not move the library's version,
so a version cannot tell that they are there. ``--dry-run`` stops after the plan. Then:

- desktop: the connector saves the new items and moves them into the collection
  ``--collection`` names (an existing one: the connector cannot create collections), else the
  one selected in Zotero;
- zotero.org: new items are created, in ``--collection`` (created when missing), in batches of
  50; updates are sent with the item's key and version.

This module decides; the service's ``connector`` and ``webapi`` (``services.zotero``) speak
the protocols. ``push_inputs`` is the whole command: the inputs read, the records pushed, the
report said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from refbridge.errors import Diagnostics
from refbridge.formats.zotero.items import records_of_items, web_item
from refbridge.model import Record
from refbridge.pipeline import read_records
from refbridge.runs import ReadOptions
from refbridge.sameness.keys import LibraryIndex
from refbridge.services.zotero.client import Library, ZoteroClient
from refbridge.services.zotero.connector import Connector
from refbridge.services.zotero.library import collections as collection_entries
from refbridge.services.zotero.library import groups as desktop_groups
from refbridge.services.zotero.webapi import WebLibrary
from refbridge.zotero_bridge import DESKTOP
from refbridge.zotero_bridge.address import LOCAL_USER, LibraryAddress, api_key
from refbridge.zotero_bridge.collections import (
    Collection,
    Target,
    api_collections,
    connector_target,
    find_collections,
    resolve_collection,
)
from refbridge.zotero_bridge.errors import ZoteroRefused, ZoteroUsageError
from refbridge.zotero_bridge.mirror import LibraryMirror, Progress, default_cache_file
from refbridge.zotero_bridge.plan import ADD, UPDATE, PushReport, Step, make_plan


@dataclass(frozen=True, slots=True)
class PushOptions:
    collection: str | None = None
    update: bool = False  #: update items the library has (zotero.org only)
    dry_run: bool = False  #: plan only, save nothing
    tags: tuple[str, ...] = ()  #: tags every pushed item gets
    allow_duplicates: bool = False  #: desktop without its local API: save without checking
    uri: str = ""  #: where the records came from, for the connector


def library_index(client: ZoteroClient, address: LibraryAddress, cache: Path | None
                  ) -> tuple[LibraryIndex, LibraryMirror]:
    """The records of the library at ``address``, findable by identity, each under its item
    key."""
    mirror = LibraryMirror(client, address, cache)
    mirror.refresh()
    index = LibraryIndex()
    for key, record in records_of_items(mirror.ordered_items(), str(address),
                                        Diagnostics()):
        index.add(record, key)
    return index, mirror


def push_inputs(inputs: Sequence[str], read_options: ReadOptions, address: LibraryAddress,
                options: PushOptions, diagnostics: Diagnostics, say: Callable[[str], None],
                progress: Progress | None = None) -> PushReport:
    """``refbridge push``: the records of ``inputs`` pushed into the library at ``address``,
    what was done said through ``say`` (a line per record of a dry run or refused, then the
    summary); the connector is told where they came from (the first input, a file)."""
    records = list(read_records(inputs, diagnostics, read_options))
    first = Path(inputs[0])
    report = push(records, address,
                  replace(options, uri=first.resolve().as_uri() if first.is_file() else ""),
                  progress)
    for line in report.messages():
        say(line)
    say(f"refbridge: push: {report.summary()}")
    return report


def push(records: Sequence[Record], address: LibraryAddress, options: PushOptions,
         progress: Progress | None = None) -> PushReport:
    """Push ``records`` into the library at ``address``."""
    if address.service == DESKTOP:
        return _push_desktop(records, address, options, progress)
    return _push_web(records, address, options, progress)


# -- desktop -------------------------------------------------------------------------------------
def _push_desktop(records: Sequence[Record], address: LibraryAddress, options: PushOptions,
                  progress: Progress | None) -> PushReport:
    if options.update:
        raise ZoteroUsageError("--update needs --to zotero-web: Zotero's connector can add "
                               "items but not change them")
    with address.client() as client:
        connector = Connector(client)
        connector.ping()
        selection = connector.selection()
        target = connector_target(selection, options.collection)
        index = None
        if not options.allow_duplicates:
            library = _desktop_library(client, selection, target)
            index = _desktop_index(LibraryAddress(address.service, library, None,
                                                  address.base_url))
        steps = make_plan(records, index, update=False)
        report = PushReport(f"Zotero ({target.library_name}: {target.name})"
                            if target.name != target.library_name
                            else f"Zotero ({target.name})", steps, options.dry_run)
        if options.allow_duplicates:
            report.notes.append("refbridge: warning: not checked for items the library has "
                                "(--allow-duplicates)")
        if not options.dry_run:
            connector.save([s.record for s in steps if s.action == ADD], target.id,
                           options.tags, options.uri, progress)
    return report


def _desktop_library(client: ZoteroClient, selection: dict[str, object],
                     target: Target) -> Library:
    """The local API's name of the library ``target`` is in: the first library of the
    connector's targets is the user's own, the others are groups, found by name."""
    targets = selection.get("targets") or []
    assert isinstance(targets, list)
    libraries = [t for t in targets if int(t.get("level") or 0) == 0]
    if not libraries or libraries[0].get("id") == target.library_id:
        return LOCAL_USER
    for group in desktop_groups(client):
        if group["data"].get("name") == target.library_name:
            return Library("group", str(group["id"]))
    raise ZoteroRefused(f"Zotero's local API does not list the group {target.library_name!r}")


def _desktop_index(address: LibraryAddress) -> LibraryIndex:
    try:
        with address.client() as reader:
            return library_index(reader, address, default_cache_file(address))[0]
    except ZoteroRefused as exc:
        raise ZoteroRefused(f"{exc}; refbridge reads the library through it to add nothing "
                            "twice (or use --allow-duplicates to add the records without "
                            "checking)") from None


# -- zotero.org ----------------------------------------------------------------------------------
def _push_web(records: Sequence[Record], address: LibraryAddress, options: PushOptions,
              progress: Progress | None) -> PushReport:
    library = LibraryAddress(address.service, address.library, None, address.base_url)
    with library.client(api_key(required=True)) as client:
        collection, listing, notes = _web_collection(client, address, options)
        index, mirror = library_index(client, library, default_cache_file(library))
        steps = make_plan(records, index, options.update)
        report = PushReport(f"zotero.org ({address.library}"
                            + (f": {address.collection})" if address.collection else ")"),
                            steps, options.dry_run, notes)
        if options.dry_run:
            return report
        if collection is None and address.collection is not None:
            collection = WebLibrary(client).create_collection(
                tuple(p.strip() for p in address.collection.split("/") if p.strip()),
                {c.path: c.id for c in listing})
        wanted = [collection] if collection else []
        chosen = [s for s in steps if s.action in (ADD, UPDATE)]
        items = [web_item(s.record, wanted, options.tags) if s.action == ADD
                 else _update_of(s, mirror, wanted, options.tags) for s in chosen]
        for step, outcome in zip(chosen, WebLibrary(client).write_items(items, progress)):
            step.error = outcome
    return report


def _web_collection(client: ZoteroClient, address: LibraryAddress, options: PushOptions
                    ) -> tuple[str | None, list[Collection], list[str]]:
    """The key of ``--collection`` (None: none named, or one to create), the library's
    collections, and what to say about it."""
    if address.collection is None:
        return None, [], []
    listing = api_collections(collection_entries(client))
    found = find_collections(address.collection, listing)
    if len(found) > 1:
        resolve_collection(address.collection, listing, str(address.library), "")  # says which
    if found:
        return found[0].id, listing, []
    verb = "would create" if options.dry_run else "created"
    return None, listing, [(f"refbridge: {verb} the collection {address.collection!r} on "
                           "zotero.org")]


def _update_of(step: Step, mirror: LibraryMirror, collections: list[str],
               tags: Sequence[str]) -> dict[str, object]:
    """The update of an item the library has: the record's fields, the item's key and
    version, the item's collections and tags kept beside the record's."""
    assert step.existing is not None
    data = mirror.items[step.existing]
    have_tags = [t["tag"] for t in data.get("tags") or ()]
    item = web_item(step.record, dict.fromkeys([*(data.get("collections") or []),
                                                *collections]), [*have_tags, *tags])
    return {**item, "key": step.existing, "version": data["version"]}
