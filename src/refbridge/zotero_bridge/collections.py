"""Collections named on the command line, found among a library's.

``--collection NAME`` is a collection's name, or its path (``Projects/2026``) when names
repeat; a path that begins with ``/`` starts at the library's top (``/2026`` is the top
collection ``2026``, not ``Projects/2026``). The connector lists its targets
(``getSelectedCollection``: libraries at level 0, each followed by its collections, nested ones
one level deeper); the APIs list collections with their parent's key. Both become ``Collection``
entries with their path, and one resolver finds the one meant, or says which exist; for the
connector, the ``Target`` its saved items go to. This module must never make a request.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from refbridge.zotero_bridge.errors import ZoteroUsageError

#: How many collection names an error lists before it says how many more there are.
LISTED = 25
NO_NEW_COLLECTIONS = ("Zotero's connector cannot create collections: create it in Zotero "
                      "first, with File → New Collection")


@dataclass(frozen=True, slots=True)
class Collection:
    """A collection: its id for the service (``C12`` for the connector, a key for the APIs),
    its path of names from the library's top, and the library's name."""

    id: str
    path: tuple[str, ...]
    library: str = ""

    @property
    def name(self) -> str:
        return self.path[-1]

    def __str__(self) -> str:
        return "/".join(self.path)


def connector_collections(targets: Iterable[Mapping[str, Any]]) -> list[Collection]:
    """The collections among the connector's save targets, with their paths."""
    found: list[Collection] = []
    library = ""
    trail: list[str] = []
    for target in targets:
        level = int(target.get("level") or 0)
        name = str(target.get("name") or "")
        if level == 0:
            library, trail = name, []
            continue
        trail = trail[:level - 1] + [name]
        found.append(Collection(str(target.get("id")), tuple(trail), library))
    return found


def library_targets(targets: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Connector target id of each collection (and library) -> its library's target id."""
    owner: dict[str, str] = {}
    library = ""
    for target in targets:
        if int(target.get("level") or 0) == 0:
            library = str(target.get("id"))
        owner[str(target.get("id"))] = library
    return owner


def api_collections(entries: Iterable[Mapping[str, Any]]) -> list[Collection]:
    """The collections of an API listing (``{"key", "data": {"name", "parentCollection"}}``)."""
    nodes = {str(e["key"]): (str(e["data"].get("name") or ""),
                             e["data"].get("parentCollection") or None) for e in entries}

    def path(key: str, seen: frozenset[str] = frozenset()) -> tuple[str, ...]:
        name, parent = nodes[key]
        if parent is None or parent not in nodes or parent in seen:
            return (name,)
        return (*path(str(parent), seen | {key}), name)

    return sorted((Collection(key, path(key)) for key in nodes), key=lambda c: c.path)


def _matches(wanted: str, collections: Sequence[Collection], fold: bool) -> list[Collection]:
    def norm(text: str) -> str:
        return text.casefold() if fold else text

    parts = tuple(norm(p.strip()) for p in wanted.split("/") if p.strip())
    if wanted.startswith("/"):
        return [c for c in collections if tuple(map(norm, c.path)) == parts]
    return [c for c in collections
            if norm(c.name) == norm(wanted)
            or (parts and tuple(map(norm, c.path[-len(parts):])) == parts)]


def find_collections(wanted: str, collections: Sequence[Collection]) -> list[Collection]:
    """The collections ``wanted`` names: exactly, else ignoring case."""
    return _matches(wanted, collections, fold=False) or _matches(wanted, collections, True)


def resolve_collection(wanted: str, collections: Sequence[Collection], where: str,
                       missing_hint: str) -> Collection:
    """The one collection ``wanted`` names; else an error that lists the candidates, or the
    library's collections."""
    found = find_collections(wanted, collections)
    if len(found) == 1:
        return found[0]
    if found:
        paths = "; ".join(_shown(c) for c in found)
        raise ZoteroUsageError(f"--collection {wanted!r} names {len(found)} collections in "
                               f"{where} ({paths}): give its path from the top, e.g. "
                               f"{'/' + str(found[0])!r}")
    names = [_shown(c) for c in collections]
    listed = "; ".join(names[:LISTED]) + (f"; and {len(names) - LISTED} more"
                                         if len(names) > LISTED else "")
    raise ZoteroUsageError(f"{where} has no collection {wanted!r} ({missing_hint}); "
                           + (f"its collections: {listed}" if names else "it has none"))


def _shown(collection: Collection) -> str:
    return f"{collection.library}: {collection}" if collection.library else str(collection)


@dataclass(frozen=True, slots=True)
class Target:
    """Where the connector saves items: a connector target id, its name, its library's target
    id and name."""

    id: str
    name: str
    library_id: str
    library_name: str


def connector_target(selection: Mapping[str, Any], collection: str | None) -> Target:
    """The target ``--collection`` names among the connector's (``getSelectedCollection``'s
    answer, ``selection``), else what is selected in Zotero."""
    targets = selection.get("targets") or []
    owners = library_targets(targets)
    names = {str(t.get("id")): str(t.get("name") or "") for t in targets}
    if collection is not None:
        found = resolve_collection(collection, connector_collections(targets),
                                   "Zotero", NO_NEW_COLLECTIONS)
        target_id, name = found.id, str(found)
    else:
        selected = selection.get("id")
        target_id = f"C{selected}" if selected else f"L{selection.get('libraryID')}"
        name = str(selection.get("name") or "")
    library_id = owners.get(target_id, target_id)
    return Target(target_id, name, library_id, names.get(library_id, ""))
