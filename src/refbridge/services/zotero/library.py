"""The reads of one Zotero library, as zotero.org's Web API and the desktop's local API answer
them: its collections, its items' versions (the whole library's or one collection's), what
changed and what was deleted since a library version, items by key, every item page by page,
and the desktop's groups.

Each read is asked of a ``ZoteroClient`` with plain values (a collection's key, a version, item
keys) and gives the answer's objects checked for their shape (``ZoteroAnswerError`` otherwise);
what a library's copy makes of them is the Zotero bridge's (``zotero_bridge.mirror``). This
module must never interpret items or find a collection by name.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from refbridge.services.zotero.client import ZoteroClient, library_version

if TYPE_CHECKING:
    import httpx

#: Item keys per request when reading items by key (the Web API's limit).
KEYS_PER_REQUEST = 50


@dataclass(frozen=True, slots=True)
class Versions:
    """A ``format=versions`` answer; its object key -> version is read when asked for
    (``changed``), so that an answer asked only for its headers is never judged."""

    client: ZoteroClient
    response: httpx.Response
    doing: str

    @property
    def modified(self) -> bool:
        """False when Zotero answered 304: nothing changed since the version given."""
        return self.response.status_code != 304

    @property
    def library_version(self) -> int | None:
        return library_version(self.response)

    def changed(self) -> dict[str, int]:
        """Object key -> version."""
        return self.client.versions(self.response, self.doing)


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a library's items: the items' ``{"key", "data"}`` objects, the library's
    version, and how many items there are in all (None: not said)."""

    entries: list[dict[str, Any]]
    library_version: int | None
    total: int | None


def collections(client: ZoteroClient) -> list[dict[str, Any]]:
    """Every collection of the library (``{"key", "data": {"name", "parentCollection"}}``)."""
    doing = "listing collections"
    entries: list[dict[str, Any]] = []
    for page in client.pages(f"{client.prefix}/collections", doing):
        entries += client.entries(page, doing)
    return entries


def scope(client: ZoteroClient, collection: str | None) -> str:
    """The path of the library, or of its collection of key ``collection``."""
    return f"{client.prefix}/collections/{collection}" if collection else client.prefix


def _if_modified(version: int | None) -> dict[str, str]:
    return {} if version is None else {"If-Modified-Since-Version": str(version)}


def item_versions(client: ZoteroClient, collection: str | None, known: int | None
                  ) -> Versions:
    """The versions of every item of the library (or of the collection of key
    ``collection``); not modified (304) when nothing changed since version ``known``."""
    doing = "listing the library's items"
    response = client.get(f"{scope(client, collection)}/items", doing,
                          {"format": "versions"}, _if_modified(known), ok=(200, 304))
    return Versions(client, response, doing)


def changed_since(client: ZoteroClient, version: int) -> Versions:
    """The versions of the library's items changed since ``version`` (trashed ones too)."""
    doing = "asking what changed"
    response = client.get(f"{client.prefix}/items", doing,
                          {"since": str(version), "format": "versions",
                           "includeTrashed": "1"}, _if_modified(version), ok=(200, 304))
    return Versions(client, response, doing)


def deleted_since(client: ZoteroClient, version: int) -> list[str]:
    """The keys of the library's items deleted since ``version``."""
    doing = "asking what was deleted"
    deleted = client.json(client.get(f"{client.prefix}/deleted", doing,
                                     {"since": str(version)}), doing).get("items")
    if not isinstance(deleted, list) or not all(isinstance(k, str) for k in deleted):
        raise client.answer_error(doing, "the answer has no list of item keys")
    return deleted


def items_by_key(client: ZoteroClient, keys: Sequence[str]) -> list[dict[str, Any]]:
    """The ``{"key", "data"}`` objects of the items ``keys`` (at most ``KEYS_PER_REQUEST``);
    an item trashed or deleted meanwhile is missing."""
    response = client.get(f"{client.prefix}/items", "reading items",
                          {"itemKey": ",".join(keys), "format": "json",
                           "limit": str(KEYS_PER_REQUEST)})
    return client.entries(response, "reading items")


def item_pages(client: ZoteroClient, collection: str | None) -> Iterator[Page]:
    """Every item of the library (or of the collection of key ``collection``), page by page."""
    doing = "reading the library's items"
    for response in client.pages(f"{scope(client, collection)}/items", doing,
                                 {"format": "json"}):
        total = response.headers.get("Total-Results")
        yield Page(client.entries(response, doing), library_version(response),
                   int(total) if total else None)


def groups(client: ZoteroClient) -> Iterator[dict[str, Any]]:
    """The desktop's groups (``{"id", "data": {"name"}}``), from its local API, each checked
    as it is given."""
    doing = "listing the groups"
    listed: list[Any] = client.json(client.get("/api/users/0/groups", doing), doing, list)
    for group in listed:
        if not isinstance(group, dict) or not isinstance(group.get("data"), dict) \
                or "id" not in group:
            raise client.answer_error(doing, "a group without an id or data")
        yield group
