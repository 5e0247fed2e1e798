"""Reading a Zotero library straight from ``zotero.sqlite``, without the Zotero program.

It lives in the bridge, not among the formats: a database is a library (with group libraries,
collections, a trash) named by an address (``zotero-sqlite:~/Zotero/zotero.sqlite``), not a
file of records, and its items become records exactly as the desktop's or zotero.org's do.
This module builds, from the database's own tables, the item JSON the Web API gives (``key``,
``version``, ``itemType``, the fields by name, ``creators`` in order, ``tags``, ``collections``,
``relations``, ``dateAdded``/``dateModified``; ``parentItem`` and ``note`` for child notes,
``linkMode``/``contentType``/``path``/``filename`` for attachments) and leaves the mapping to
``items.records_of_items``, so one library gives the same records from every source.

- item types, fields and creator types come from the database (``itemTypesCombined`` and
  ``fieldsCombined`` when present, which include custom ones), so a newer schema's fields are
  read without a change here;
- items in the trash (``deletedItems``), and the children of trashed items, are left out;
- citation keys: Zotero's own ``citationKey`` field, else Better BibTeX's database beside this
  one (``citationkey`` table, or the older ``citekeys``), else (in the mapping) Extra's
  ``Citation Key:`` line;
- a userdata schema newer than ``KNOWN_USERDATA`` is read as far as its tables allow, with a
  warning; a Zotero 4 database (another layout) is refused by name.

The database is read through ``snapshot`` (a private copy): this module must never write to a
Zotero database, nor open one itself.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refbridge.errors import Diagnostics
from refbridge.zotero_bridge.collections import Collection, api_collections, resolve_collection
from refbridge.zotero_bridge.datadir import BETTER_BIBTEX_NAME
from refbridge.zotero_bridge.errors import ZoteroUsageError
from refbridge.zotero_bridge.snapshot import DatabaseUnreadable, snapshot

#: The newest userdata schema this reader was written for (Zotero 7's ``userdata.sql``).
KNOWN_USERDATA = 129
#: The oldest: the first with Zotero 5's data model (Zotero 4's databases, 76 to 79, keep
#: names in ``creatorData`` and relations in ``relations``; Zotero itself upgrades them).
OLDEST_USERDATA = 80
#: Tables without which a file is not a Zotero database this reader can use.
REQUIRED_TABLES: frozenset[str] = frozenset({
    "version", "items", "itemData", "itemDataValues", "libraries", "creators",
    "itemCreators", "creatorTypes"})
#: Tables only Zotero 4 has.
ZOTERO4_TABLES: frozenset[str] = frozenset({"creatorData", "itemSeeAlso"})
#: Zotero's attachment link modes (``itemAttachments.linkMode``) by name, as the API says them.
LINK_MODES: dict[int, str] = {0: "imported_file", 1: "imported_url", 2: "linked_file",
                              3: "linked_url", 4: "embedded_image"}
#: Link modes whose ``path`` is ``storage:NAME`` (a file in Zotero's storage folder).
STORED_LINK_MODES: frozenset[int] = frozenset({0, 1, 4})
#: Fields Zotero stores as multipart dates (``2019-03-00 March 2019``), besides those whose
#: base field is ``date``; the API gives their text after the SQL date.
DATE_FIELDS: frozenset[str] = frozenset({"date", "filingDate"})
#: Fields Zotero stores as SQL UTC times (``2024-05-01 09:30:00``); the API gives ISO 8601.
TIME_FIELDS: frozenset[str] = frozenset({"accessDate"})
_MULTIPART = re.compile(r"^\d{4}-\d{2}-\d{2} (?!\d{2}:\d{2}:\d{2}$)")
_SQL_TIME = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
#: The tables that hold an item's parent.
CHILD_TABLES: tuple[str, ...] = ("itemNotes", "itemAttachments", "itemAnnotations")

# -- SQL: every query filters by a JSON array of item IDs (``json_each``), or by library -------
IDS = "(SELECT value FROM json_each(?))"
SQL: dict[str, str] = {
    "tables": "SELECT name FROM sqlite_master WHERE type = 'table'",
    "version": "SELECT version FROM version WHERE schema = 'userdata'",
    "libraries": "SELECT libraryID, type FROM libraries ORDER BY libraryID",
    "groups": "SELECT groupID, libraryID, name FROM groups ORDER BY name",
    "collections": "SELECT collectionID, key, collectionName, parentCollectionID "
                   "FROM collections WHERE libraryID = ?",
    "deleted collections": "SELECT collectionID FROM deletedCollections",
    "collection rows": "SELECT collectionID, key, version, collectionName, parentCollectionID "
                       "FROM collections WHERE libraryID = ? ORDER BY collectionID",
    "collection members": "SELECT ci.collectionID, i.key FROM collectionItems ci "
                          "JOIN items i ON i.itemID = ci.itemID WHERE i.libraryID = ? "
                          "ORDER BY ci.collectionID, ci.orderIndex, i.key",
    "collection relations": "SELECT r.collectionID, p.predicate, r.object "
                            "FROM collectionRelations r JOIN relationPredicates p "
                            "ON p.predicateID = r.predicateID "
                            "ORDER BY r.collectionID, p.predicate, r.object",
    "library items": "SELECT itemID, key, version, clientDateModified, dateModified "
                     "FROM items WHERE libraryID = ?",
    "parents": "SELECT itemID, parentItemID FROM {table} WHERE parentItemID IS NOT NULL",
    "trash": "SELECT itemID FROM deletedItems",
    "date fields": "SELECT f.fieldName FROM {mappings} b "
                   "JOIN {fields} f ON f.fieldID = b.fieldID "
                   "JOIN {fields} base ON base.fieldID = b.baseFieldID "
                   "WHERE base.fieldName = 'date'",
    "collection items": "SELECT itemID FROM collectionItems WHERE collectionID = ?",
    "items": "SELECT i.itemID, i.key, i.version, t.typeName, i.dateAdded, i.dateModified "
             "FROM items i LEFT JOIN {types} t ON t.itemTypeID = i.itemTypeID "
             f"WHERE i.itemID IN {IDS}",
    "fields": "SELECT d.itemID, f.fieldName, v.value FROM itemData d "
              "JOIN {fields} f ON f.fieldID = d.fieldID "
              f"JOIN itemDataValues v ON v.valueID = d.valueID WHERE d.itemID IN {IDS} "
              "ORDER BY d.itemID, d.fieldID",
    "creators": "SELECT ic.itemID, ct.creatorType, c.firstName, c.lastName, c.fieldMode "
                "FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID "
                "JOIN creatorTypes ct ON ct.creatorTypeID = ic.creatorTypeID "
                f"WHERE ic.itemID IN {IDS} ORDER BY ic.itemID, ic.orderIndex",
    "tags": "SELECT it.itemID, t.name, it.type FROM itemTags it "
            f"JOIN tags t ON t.tagID = it.tagID WHERE it.itemID IN {IDS} "
            "ORDER BY it.itemID, t.name",
    "item collections": "SELECT ci.itemID, c.key FROM collectionItems ci "
                        "JOIN collections c ON c.collectionID = ci.collectionID "
                        f"WHERE ci.itemID IN {IDS} ORDER BY ci.itemID, c.key",
    "relations": "SELECT r.itemID, p.predicate, r.object FROM itemRelations r "
                 "JOIN relationPredicates p ON p.predicateID = r.predicateID "
                 f"WHERE r.itemID IN {IDS} ORDER BY r.itemID, p.predicate, r.object",
    "notes": f"SELECT itemID, note FROM itemNotes WHERE itemID IN {IDS}",
    "attachments": "SELECT itemID, linkMode, contentType, path FROM itemAttachments "
                   f"WHERE itemID IN {IDS}",
}
#: Which query needs which tables; a query whose tables a schema lacks is skipped with a
#: warning (the first four are required, see ``REQUIRED_TABLES``).
OPTIONAL_PARTS: dict[str, tuple[str, ...]] = {
    "tags": ("itemTags", "tags"),
    "item collections": ("collectionItems", "collections"),
    "relations": ("itemRelations", "relationPredicates"),
    "notes": ("itemNotes",),
    "attachments": ("itemAttachments",),
    "trash": ("deletedItems",),
    "collections": ("collections",),
    "deleted collections": ("deletedCollections",),
    "collection rows": ("collections",),
    "collection members": ("collectionItems", "collections"),
    "collection relations": ("collectionRelations", "relationPredicates"),
    "groups": ("groups",),
    "date fields": ("baseFieldMappings",),
}
#: Better BibTeX's key tables: (table, key column), newest first.
BETTER_BIBTEX_TABLES: tuple[tuple[str, str], ...] = (("citationkey", "citationKey"),
                                                     ("citekeys", "citekey"))


@dataclass(frozen=True, slots=True)
class Scope:
    """The library (and collection) a read covers."""

    library_id: int
    label: str  #: "user" or "group:NAME"
    collection: Collection | None = None


@dataclass(frozen=True, slots=True)
class StoredCollection:
    """A collection as the database stores it: its ID, key, version, name, its parent's ID
    (None at the top), its relations (predicate -> object, a list for several) and the keys
    of the items in it, in the collection's order."""

    id: int
    key: str
    version: int
    name: str
    parent: int | None
    relations: Mapping[str, str | list[str]]
    items: tuple[str, ...]


@dataclass(slots=True)
class Stamp:
    """What says an item changed: its version, modification times and Better BibTeX key."""

    item_id: int
    text: str


#: byte order marks of text stored as a BLOB, and the codec that reads it (a BOM decides,
#: else UTF-8, as a browser's ``TextDecoder`` sniffs the BOM of Zotero's JavaScript)
_BOMS: tuple[tuple[bytes, str], ...] = ((b"\xef\xbb\xbf", "utf-8-sig"),
                                        (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def stored_text(value: bytes) -> str | None:
    """The text of a value stored as bytes (a BLOB): UTF-16 or UTF-8 by its byte order mark,
    else UTF-8; None when it is not text in either."""
    codec = next((name for bom, name in _BOMS if value.startswith(bom)), "utf-8")
    try:
        return value.decode(codec)
    except UnicodeDecodeError:
        return None


def field_value(name: str, value: Any, date_fields: frozenset[str] | set[str]) -> str:
    """A stored field value as the API gives it: a multipart date's text, a time in ISO."""
    text = str(value)
    if name in date_fields and _MULTIPART.match(text):
        return text[11:]
    if name in TIME_FIELDS and _SQL_TIME.match(text):
        return _iso(text)
    return text


def _iso(stamp: Any) -> str:
    """Zotero's ``2021-08-16 23:26:33`` (UTC) as the API's ``2021-08-16T23:26:33Z``."""
    text = str(stamp or "")
    return text.replace(" ", "T") + "Z" if text and not text.endswith("Z") else text


@dataclass(slots=True)
class ZoteroDatabase:
    """An open (copied) Zotero database: its tables, its libraries, its items as JSON."""

    connection: sqlite3.Connection
    path: Path
    diagnostics: Diagnostics
    tables: set[str] = field(default_factory=set)
    better_bibtex: dict[tuple[int, str], str] = field(default_factory=dict)
    _warned: set[str] = field(default_factory=set)

    # -- the schema ----------------------------------------------------------------------------
    def check_schema(self) -> None:
        """Refuse what is not a Zotero database of Zotero 5 or later; warn of a newer one."""
        self.tables = {str(row[0]) for row in self.connection.execute(SQL["tables"])}
        missing = REQUIRED_TABLES - self.tables
        version = self._userdata_version()
        if self.tables >= ZOTERO4_TABLES or (version is not None and version < OLDEST_USERDATA):
            raise DatabaseUnreadable(
                f"{self.path}: a Zotero 4 database (userdata schema {version}): refbridge reads "
                "the databases of Zotero 5 and later; open it once in a current Zotero, which "
                "upgrades it, and read it again")
        if missing:
            raise DatabaseUnreadable(f"{self.path}: not a Zotero database (it has no "
                                     f"{', '.join(sorted(missing))} table)")
        if version is None:
            self._warn("no userdata schema version in its version table: read as far as its "
                       "tables allow")
        elif version > KNOWN_USERDATA:
            self._warn(f"userdata schema {version} is newer than the ones refbridge knows "
                       f"({OLDEST_USERDATA} to {KNOWN_USERDATA}): read as far as its tables "
                       "allow")

    def _userdata_version(self) -> int | None:
        try:
            row = self.connection.execute(SQL["version"]).fetchone()
        except sqlite3.OperationalError:
            return None
        try:
            return int(row[0]) if row is not None else None
        except (TypeError, ValueError):
            return None

    def _warn(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            self.diagnostics.warning(message, str(self.path))

    def _table(self, combined: str, plain: str) -> str:
        return combined if combined in self.tables else plain

    def _rows(self, part: str, *parameters: Any, **names: str) -> list[tuple[Any, ...]]:
        """The rows of one query; an optional part whose tables or columns this schema lacks
        is an empty list and a warning."""
        needed = OPTIONAL_PARTS.get(part, ())
        absent = [t for t in needed if t not in self.tables]
        if absent:
            if part != "deleted collections":
                self._warn(f"{part} not read: this database has no {', '.join(absent)} table")
            return []
        try:
            return self.connection.execute(SQL[part].format(**names), parameters).fetchall()
        except sqlite3.OperationalError as exc:
            if str(exc).startswith("Could not decode to UTF-8"):
                return self._rows_of_broken_text(SQL[part].format(**names), parameters)
            if part not in OPTIONAL_PARTS:
                raise DatabaseUnreadable(f"{self.path}: its {part} cannot be read ({exc}): "
                                         "not a Zotero database refbridge knows") from None
            self._warn(f"{part} not read: {exc}")
            return []

    # -- libraries and collections -------------------------------------------------------------
    def scope(self, library: str | None, collection: str | None) -> Scope:
        """The library ``library`` names (None or ``user``: the user's own; ``group:NAME`` or
        ``group:ID``) and its collection ``collection`` (a name or a path)."""
        libraries = {int(row[0]): str(row[1]) for row in self._rows("libraries")}
        wanted = (library or "user").strip()
        if wanted == "user" or wanted.startswith("user:"):
            found = [i for i, kind in libraries.items() if kind == "user"]
            if not found:
                raise ZoteroUsageError(f"{self.path} has no user library")
            scope = Scope(found[0], "user")
        elif wanted.startswith("group:"):
            scope = self._group(wanted.removeprefix("group:").strip())
        else:
            raise ZoteroUsageError(f"library {wanted!r}: expected user, group:NAME or group:ID")
        if collection:
            chosen = resolve_collection(collection, self.collections(scope.library_id),
                                        f"{self.path} ({scope.label})", "check the name in "
                                        "Zotero")
            scope = Scope(scope.library_id, scope.label, chosen)
        return scope

    def _group(self, wanted: str) -> Scope:
        groups = self._rows("groups")
        for group_id, library_id, name in groups:
            if wanted in (str(name), str(group_id)):
                return Scope(int(library_id), f"group:{name}")
        for group_id, library_id, name in groups:
            if str(name).casefold() == wanted.casefold():
                return Scope(int(library_id), f"group:{name}")
        names = "; ".join(f"{name} ({group_id})" for group_id, _, name in groups)
        raise ZoteroUsageError(f"{self.path} has no group {wanted!r}; "
                               + (f"its groups: {names}" if names else "it has none"))

    def collections(self, library_id: int) -> list[Collection]:
        """The library's collections (not those in the trash), with their paths."""
        gone = {int(row[0]) for row in self._rows("deleted collections")}
        rows = [r for r in self._rows("collections", library_id) if int(r[0]) not in gone]
        keys = {int(r[0]): str(r[1]) for r in rows}
        entries = [{"key": str(key), "data": {"name": str(name),
                                              "parentCollection": keys.get(parent or -1)}}
                   for _, key, name, parent in rows]
        found = api_collections(entries)
        ids = {str(r[1]): str(r[0]) for r in rows}
        return [Collection(ids[c.id], c.path, c.library) for c in found]

    def stored_collections(self, library_id: int) -> list[StoredCollection]:
        """The library's collections (not those in the trash) as stored, by ID."""
        gone = {int(row[0]) for row in self._rows("deleted collections")}
        items: dict[int, list[str]] = {}
        for collection, key in self._rows("collection members", library_id):
            items.setdefault(int(collection), []).append(str(key))
        relations: dict[int, dict[str, str | list[str]]] = {}
        for collection, predicate, target in self._rows("collection relations"):
            _relate(relations.setdefault(int(collection), {}), str(predicate), str(target))
        return [StoredCollection(int(i), str(key), int(version or 0), str(name),
                                 int(parent) if parent is not None else None,
                                 relations.get(int(i), {}), tuple(items.get(int(i), ())))
                for i, key, version, name, parent in self._rows("collection rows", library_id)
                if int(i) not in gone]

    # -- which items -----------------------------------------------------------------------
    def stamps(self, scope: Scope) -> dict[str, Stamp]:
        """Item key -> what says it changed, for every item of the scope (children included,
        the trash left out)."""
        rows = self._rows("library items", scope.library_id)
        parents: dict[int, int] = {}
        for table in CHILD_TABLES:
            if table in self.tables:
                parents.update((int(c), int(p)) for c, p in self._rows("parents", table=table))
        trashed = {int(row[0]) for row in self._rows("trash")}
        wanted = None if scope.collection is None else \
            {int(row[0]) for row in self._rows("collection items", int(scope.collection.id))}

        def kept(item_id: int) -> bool:
            seen: set[int] = set()
            while item_id not in seen:
                seen.add(item_id)
                if item_id in trashed:
                    return False
                if item_id not in parents:
                    return wanted is None or item_id in wanted
                item_id = parents[item_id]
            return False  # a loop of parents: not an item Zotero would show

        stamps: dict[str, Stamp] = {}
        for item_id, key, version, client_modified, modified in rows:
            if kept(int(item_id)):
                citekey = self.better_bibtex.get((scope.library_id, str(key)), "")
                stamps[str(key)] = Stamp(int(item_id), json.dumps(
                    [version, str(client_modified), str(modified), citekey]))
        return stamps

    # -- the items' JSON -----------------------------------------------------------------------
    def items(self, scope: Scope, item_ids: Iterable[int]) -> list[dict[str, Any]]:
        """The Web API's item JSON of ``item_ids`` (items of ``scope``), by item ID order."""
        ids = json.dumps(sorted(set(item_ids)))
        keys = {int(r[0]): str(r[1]) for r in self._rows("library items", scope.library_id)}
        types = self._table("itemTypesCombined", "itemTypes")
        fields = self._table("fieldsCombined", "fields")
        items: dict[int, dict[str, Any]] = {}
        for item_id, key, version, kind, added, modified in self._rows("items", ids,
                                                                       types=types):
            items[int(item_id)] = {"key": str(key), "version": int(version or 0),
                                   "itemType": str(kind or ""), "dateAdded": _iso(added),
                                   "dateModified": _iso(modified)}
        dates = DATE_FIELDS | {str(row[0]) for row in self._rows(
            "date fields", fields=fields,
            mappings=self._table("baseFieldMappingsCombined", "baseFieldMappings"))}
        for item_id, name, value in self._rows("fields", ids, fields=fields):
            if isinstance(value, bytes) and item_id in items:
                value = self._blob_text(value, items[item_id]["key"], str(name))
            if value is not None and item_id in items:
                items[item_id][str(name)] = field_value(str(name), value, dates)
        self._add_creators(items, ids)
        self._add_lists(items, ids)
        self._add_children(items, ids, keys)
        for data in items.values():
            if not data.get("citationKey"):
                citekey = self.better_bibtex.get((scope.library_id, data["key"]))
                if citekey:
                    data["citationKey"] = citekey
        return [items[i] for i in sorted(items)]

    def _rows_of_broken_text(self, query: str, parameters: tuple[Any, ...]
                             ) -> list[tuple[Any, ...]]:
        """The rows of a query whose text is not all UTF-8, decoded one by one: a lone
        surrogate (Zotero's JavaScript strings may hold one) as itself, replaced and reported
        where the item is read (``formats.surrogates``); other bytes with U+FFFD, reported."""
        def text(data: bytes) -> str:
            try:
                return data.decode("utf-8", "surrogatepass")
            except UnicodeDecodeError:
                self.diagnostics.change(f"a stored text is not UTF-8 ({data[:40]!r}): read "
                                        "with U+FFFD for what does not decode", str(self.path))
                return data.decode("utf-8", "replace")

        self.connection.text_factory = text
        try:
            return self.connection.execute(query, parameters).fetchall()
        finally:
            self.connection.text_factory = str

    def _blob_text(self, value: bytes, key: str, name: str) -> str:
        """A field stored as bytes, as text (``stored_text``); bytes that are no text are read
        with U+FFFD for what does not decode, and reported."""
        text = stored_text(value)
        if text is None:
            text = value.decode("utf-8", "replace")
            self.diagnostics.change(f"item {key}: field {name!r} is stored as bytes that are "
                                    "neither UTF-8 nor UTF-16 text: read with U+FFFD for "
                                    "what does not decode", str(self.path))
        return text

    def _add_creators(self, items: Mapping[int, dict[str, Any]], ids: str) -> None:
        for data in items.values():
            data["creators"] = []
        for item_id, creator_type, first, last, mode in self._rows("creators", ids):
            creator: dict[str, str] = {"creatorType": str(creator_type)}
            if mode == 1:
                creator["name"] = str(last or "")
            else:
                creator["firstName"], creator["lastName"] = str(first or ""), str(last or "")
            if item_id in items:
                items[item_id]["creators"].append(creator)

    def _add_lists(self, items: Mapping[int, dict[str, Any]], ids: str) -> None:
        for data in items.values():
            data["tags"], data["collections"], data["relations"] = [], [], {}
        for item_id, name, kind in self._rows("tags", ids):
            if item_id in items:
                items[item_id]["tags"].append({"tag": str(name), "type": int(kind)} if kind
                                              else {"tag": str(name)})
        for item_id, key in self._rows("item collections", ids):
            if item_id in items:
                items[item_id]["collections"].append(str(key))
        for item_id, predicate, target in self._rows("relations", ids):
            if item_id in items:
                _relate(items[item_id]["relations"], predicate, str(target))

    def _add_children(self, items: Mapping[int, dict[str, Any]], ids: str,
                      keys: Mapping[int, str]) -> None:
        for table in CHILD_TABLES:
            if table in self.tables:
                for child, parent in self._rows("parents", table=table):
                    if child in items and parent in keys:
                        items[child]["parentItem"] = keys[parent]
        for item_id, note in self._rows("notes", ids):
            if item_id in items:
                items[item_id]["note"] = str(note or "")
        for item_id, mode, content_type, path in self._rows("attachments", ids):
            if item_id not in items:
                continue
            data = items[item_id]
            data["linkMode"] = LINK_MODES.get(mode, str(mode))
            data["contentType"] = str(content_type or "")
            text = str(path or "")
            if mode in STORED_LINK_MODES and text.startswith("storage:"):
                data["filename"] = text.removeprefix("storage:")
            elif text:
                data["path"] = text

    # -- Better BibTeX -------------------------------------------------------------------------
    def load_better_bibtex(self, path: Path) -> None:
        """Better BibTeX's keys (library ID, item key) -> key, from its database at ``path``
        (nothing when there is none)."""
        if not path.is_file():
            return
        try:
            with snapshot(path, "a Better BibTeX database") as connection:
                self.better_bibtex = better_bibtex_keys(connection)
        except (DatabaseUnreadable, sqlite3.Error, ValueError, TypeError) as exc:
            self._warn(f"Better BibTeX's keys not read: {exc}")


def _relate(relations: dict[str, Any], predicate: str, target: str) -> None:
    """Add a relation as the API gives them: one object as a string, several as a list."""
    previous = relations.get(predicate)
    relations[predicate] = target if previous is None else \
        [*([previous] if isinstance(previous, str) else previous), target]


def better_bibtex_keys(connection: sqlite3.Connection) -> dict[tuple[int, str], str]:
    """(library ID, item key) -> citation key, from Better BibTeX's database."""
    tables = {str(row[0]) for row in connection.execute(SQL["tables"])}
    for table, column in BETTER_BIBTEX_TABLES:
        if table in tables:
            rows = connection.execute(f"SELECT libraryID, itemKey, {column} FROM {table}")
            return {(int(library or 1), str(item)): str(key) for library, item, key in rows
                    if item and key}
    return {}


@contextmanager
def open_database(path: Path, diagnostics: Diagnostics) -> Iterator[ZoteroDatabase]:
    """The Zotero database at ``path`` (read from a private copy), its schema checked and
    Better BibTeX's keys beside it loaded."""
    with snapshot(path, "a Zotero database") as connection:
        database = ZoteroDatabase(connection, path, diagnostics)
        database.check_schema()
        database.load_better_bibtex(path.with_name(BETTER_BIBTEX_NAME))
        try:
            yield database
        except (ValueError, TypeError) as exc:  # a column holding what Zotero never writes
            raise DatabaseUnreadable(f"{path}: holds a value refbridge cannot read ({exc}): "
                                     "not a Zotero database refbridge knows") from None


def storage_of(path: Path) -> Path:
    """The storage folder of the database at ``path``, beside it: a stored file of an
    attachment is ``storage/KEY/NAME``."""
    return path.parent / "storage"


def ordered(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Items in the order ``pull`` gives them from every source: by date added, then key."""
    return sorted(items, key=lambda d: (str(d.get("dateAdded") or ""), str(d.get("key"))))
