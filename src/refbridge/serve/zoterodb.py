"""The collections of the Zotero databases served (``--library zotero-sqlite:PATH``): each
collection of the library read (the user's, or the group the address names) with Zotero's
ID, key, version, name, relations and place in the tree, and the records in it, read through
the bridge's database reader (``zotero_bridge.sqlite``, from a private copy).

A record read from a database is known by where it came from (``record.source``: the
address, ``/items/``, the item's key, as ``formats.zotero.items`` names it), so a collection
holds the sources of its items. This module must never write a database, nor read a file the
command line did not name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from refbridge.errors import Diagnostics
from refbridge.zotero_bridge import SQLITE

if TYPE_CHECKING:
    from refbridge.zotero_bridge.sqlite import StoredCollection


@dataclass(frozen=True, slots=True)
class DatabaseCollection:
    """A collection of a database served: Zotero's ID, key and version, its path of names,
    its relations, and the sources of the records in it."""

    id: int
    key: str
    version: int
    path: tuple[str, ...]
    relations: Mapping[str, str | list[str]]
    sources: frozenset[str]


def _tree(stored: Sequence[StoredCollection]) -> Iterator[tuple[StoredCollection,
                                                                 tuple[str, ...]]]:
    """The collections with their paths, each after its parent, the children of one parent
    by name (as Zotero lists a library's collections); a collection whose parent is missing
    (or in a loop) is at the top."""
    ids = {collection.id for collection in stored}
    children: dict[int | None, list[StoredCollection]] = {}
    for collection in stored:
        parent = collection.parent if collection.parent in ids else None
        children.setdefault(parent, []).append(collection)
    seen: set[int] = set()

    def below(parent: int | None, path: tuple[str, ...]
              ) -> Iterator[tuple[StoredCollection, tuple[str, ...]]]:
        for collection in sorted(children.get(parent, ()), key=lambda c: (c.name.casefold(),
                                                                          c.id)):
            if collection.id not in seen:
                seen.add(collection.id)
                yield collection, (*path, collection.name)
                yield from below(collection.id, (*path, collection.name))

    yield from below(None, ())
    for collection in stored:  # in a loop of parents: at the top, with those below it
        if collection.id not in seen:
            seen.add(collection.id)
            yield collection, (collection.name,)
            yield from below(collection.id, (collection.name,))


def database_collections(paths: Iterable[str], diagnostics: Diagnostics
                         ) -> list[DatabaseCollection]:
    """The collections of every Zotero database among ``paths`` (the libraries served)."""
    from refbridge.zotero_bridge.address import DatabaseAddress, parse_address
    from refbridge.zotero_bridge.sqlite import open_database

    found: list[DatabaseCollection] = []
    for text in paths:
        if not text.startswith(f"{SQLITE}:"):
            continue
        address = parse_address(text)
        if not isinstance(address, DatabaseAddress):
            continue
        with open_database(address.path, diagnostics) as database:
            scope = database.scope(address.library, None)
            stored = database.stored_collections(scope.library_id)
        found.extend(DatabaseCollection(
            collection.id, collection.key, collection.version, path, collection.relations,
            frozenset(f"{address}/items/{key}" for key in collection.items))
            for collection, path in _tree(stored))
    return found

