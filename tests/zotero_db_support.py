"""Zotero databases built at test time the way the Zotero desktop app builds ``zotero.sqlite``.

Zotero creates a database by executing its ``system.sql``, ``userdata.sql`` and ``triggers.sql``
(``../shared/zotero-db``), recording their versions (each file's first line) in ``version``,
filling ``itemTypes``, ``fields``, ``itemTypeFields``, ``baseFieldMappings``, ``creatorTypes``
and ``itemTypeCreatorTypes`` (and their ``*Combined`` copies) from its global schema
(``../shared/schemas/zotero-schema.json``), and adding the user library. ``ZoteroDb`` does the
same, then adds items as Zotero stores them: field values in ``itemDataValues``, dates as
Zotero's multipart text (``2019-03-00 March 2019``), creators shared in ``creators``.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

#: Zotero's key alphabet (no 0, 1, O).
KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"
#: The fields Zotero stores as multipart dates, besides those based on ``date``.
DATE_FIELDS = ("date", "filingDate")
USER_LIBRARY = 1
_MONTHS = {name: number for number, name in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}

Creator = tuple[str, str, str] | tuple[str, str]  #: (type, first, last) or (type, one name)


def item_key(number: int) -> str:
    """An 8-character key in Zotero's alphabet, different for every number."""
    chars = []
    for _ in range(8):
        number, digit = divmod(number, len(KEY_ALPHABET))
        chars.append(KEY_ALPHABET[digit])
    return "".join(reversed(chars))


def multipart(text: str) -> str:
    """Zotero's stored form of a date: its SQL date (zeros where unknown), a space, the text."""
    year = re.search(r"\b(\d{4})\b", text)
    iso = re.match(r"^(\d{4})-(\d{2})(?:-(\d{2}))?", text)
    if iso:
        return f"{iso[1]}-{iso[2]}-{iso[3] or '00'} {text}"
    month = next((n for name, n in _MONTHS.items() if name in text.lower()), 0)
    return f"{year[1] if year else '0000'}-{month:02d}-00 {text}"


def schema_version(sql: str) -> int:
    """The version on the first line of one of Zotero's .sql files (``-- 129``)."""
    return int(sql.splitlines()[0].removeprefix("--").strip())


class ZoteroDb:
    """A new ``zotero.sqlite`` at ``path``, with Zotero's schema; items added by the methods."""

    def __init__(self, path: Path, shared: Path, userdata_version: int | None = None) -> None:
        self.path = path
        self.db = sqlite3.connect(path)
        self.count = 0
        self.keys: dict[int, str] = {}
        schema = json.loads((shared / "schemas" / "zotero-schema.json").read_text("utf-8"))
        versions: dict[str, int] = {}
        scripts = []
        for name in ("system", "userdata", "triggers"):
            sql = (shared / "zotero-db" / f"{name}.sql").read_text("utf-8")
            scripts.append(sql)
            versions[name] = schema_version(sql)
        # in one transaction, as Zotero does (else each statement is a commit to the disk)
        self.db.executescript("BEGIN;\n" + "\n".join(scripts) + "\nCOMMIT;")
        if userdata_version is not None:
            versions["userdata"] = userdata_version
        self.db.executemany("INSERT INTO version VALUES (?, ?)", versions.items())
        self.db.execute("INSERT INTO version VALUES ('globalSchema', ?)", (schema["version"],))
        self._load_schema(schema["itemTypes"])
        self.db.execute("INSERT INTO libraries (libraryID, type, editable, filesEditable) "
                        "VALUES (?, 'user', 1, 1)", (USER_LIBRARY,))
        self.db.commit()

    # -- the global schema, as Zotero loads it at start-up -------------------------------------
    def _load_schema(self, item_types: Sequence[dict[str, Any]]) -> None:
        fields: dict[str, int] = {}
        creator_types: dict[str, int] = {}
        for type_id, item_type in enumerate(item_types, start=1):
            self.db.execute("INSERT INTO itemTypes VALUES (?, ?, NULL, 1)",
                            (type_id, item_type["itemType"]))
            for order, entry in enumerate(item_type["fields"]):
                for name in filter(None, (entry.get("baseField"), entry["field"])):
                    if name not in fields:
                        fields[name] = len(fields) + 1
                        self.db.execute("INSERT INTO fields VALUES (?, ?, NULL)",
                                        (fields[name], name))
                self.db.execute("INSERT INTO itemTypeFields VALUES (?, ?, 0, ?)",
                                (type_id, fields[entry["field"]], order))
                if entry.get("baseField"):
                    self.db.execute("INSERT INTO baseFieldMappings VALUES (?, ?, ?)",
                                    (type_id, fields[entry["baseField"]], fields[entry["field"]]))
            for entry in item_type["creatorTypes"]:
                name = entry["creatorType"]
                if name not in creator_types:
                    creator_types[name] = len(creator_types) + 1
                    self.db.execute("INSERT INTO creatorTypes VALUES (?, ?)",
                                    (creator_types[name], name))
                self.db.execute("INSERT INTO itemTypeCreatorTypes VALUES (?, ?, ?)",
                                (type_id, creator_types[name], int(bool(entry.get("primary")))))
        self.db.executescript("""
            INSERT INTO itemTypesCombined SELECT itemTypeID, typeName, display, 0 FROM itemTypes;
            INSERT INTO fieldsCombined
                SELECT fieldID, fieldName, NULL, fieldFormatID, 0 FROM fields;
            INSERT INTO itemTypeFieldsCombined SELECT * FROM itemTypeFields;
            INSERT INTO baseFieldMappingsCombined SELECT * FROM baseFieldMappings;
        """)
        self.type_ids = {t["itemType"]: i for i, t in enumerate(item_types, start=1)}
        self.field_ids = fields
        self.creator_type_ids = creator_types
        self.date_fields = set(DATE_FIELDS) | {
            str(row[0]) for row in self.db.execute(
                "SELECT f.fieldName FROM baseFieldMappings b JOIN fields f ON f.fieldID = "
                "b.fieldID JOIN fields base ON base.fieldID = b.baseFieldID "
                "WHERE base.fieldName = 'date'")}

    # -- libraries and collections -------------------------------------------------------------
    def add_group(self, name: str, group_id: int) -> int:
        """A group library; its library ID."""
        cursor = self.db.execute("INSERT INTO libraries (type, editable, filesEditable) "
                                 "VALUES ('group', 1, 1)")
        library = int(cursor.lastrowid or 0)
        self.db.execute("INSERT INTO groups VALUES (?, ?, ?, '', 0)", (group_id, library, name))
        return library

    def add_collection(self, name: str, parent: int | None = None,
                       library: int = USER_LIBRARY) -> int:
        self.count += 1
        cursor = self.db.execute(
            "INSERT INTO collections (collectionName, parentCollectionID, libraryID, key) "
            "VALUES (?, ?, ?, ?)", (name, parent, library, item_key(10_000_000 + self.count)))
        return int(cursor.lastrowid or 0)

    # -- items ---------------------------------------------------------------------------------
    def _value(self, value: str) -> int:
        self.db.execute("INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)", (value,))
        row = self.db.execute("SELECT valueID FROM itemDataValues WHERE value = ?",
                              (value,)).fetchone()
        return int(row[0])

    def _creator(self, creator: Creator) -> tuple[int, int]:
        if len(creator) == 3:
            first, last, mode = creator[1], creator[2], 0
        else:
            first, last, mode = "", creator[1], 1
        self.db.execute("INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) "
                        "VALUES (?, ?, ?)", (first, last, mode))
        row = self.db.execute("SELECT creatorID FROM creators WHERE firstName = ? AND "
                              "lastName = ? AND fieldMode = ?", (first, last, mode)).fetchone()
        return int(row[0]), self.creator_type_ids[creator[0]]

    def add_item(self, item_type: str, fields: dict[str, str] | None = None,
                 creators: Iterable[Creator] = (), tags: Iterable[str | tuple[str, int]] = (),
                 collections: Iterable[int] = (), library: int = USER_LIBRARY,
                 added: str = "2024-05-01 09:30:00", key: str | None = None) -> int:
        """An item as Zotero stores it; its item ID."""
        self.count += 1
        cursor = self.db.execute(
            "INSERT INTO items (itemTypeID, dateAdded, dateModified, clientDateModified, "
            "libraryID, key, version) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (self.type_ids[item_type], added, added, added, library,
             key or item_key(self.count), self.count))
        item = int(cursor.lastrowid or 0)
        self.keys[item] = key or item_key(self.count)
        for name, value in (fields or {}).items():
            stored = multipart(value) if name in self.date_fields else value
            self.db.execute("INSERT INTO itemData VALUES (?, ?, ?)",
                            (item, self.field_ids[name], self._value(stored)))
        for order, creator in enumerate(creators):
            creator_id, type_id = self._creator(creator)
            self.db.execute("INSERT INTO itemCreators VALUES (?, ?, ?, ?)",
                            (item, creator_id, type_id, order))
        for tag in tags:
            name, kind = (tag, 0) if isinstance(tag, str) else tag
            self.db.execute("INSERT OR IGNORE INTO tags (name) VALUES (?)", (name,))
            self.db.execute("INSERT INTO itemTags SELECT ?, tagID, ? FROM tags WHERE name = ?",
                            (item, kind, name))
        for collection in collections:
            self.db.execute("INSERT INTO collectionItems VALUES (?, ?, 0)", (collection, item))
        return item

    def add_note(self, parent: int | None, html: str, library: int = USER_LIBRARY) -> int:
        item = self.add_item("note", library=library)
        self.db.execute("INSERT INTO itemNotes VALUES (?, ?, ?, ?)",
                        (item, parent, html, re.sub(r"<[^>]+>", "", html)[:80]))
        return item

    def add_attachment(self, parent: int | None, title: str, path: str, content_type: str,
                       link_mode: int = 0) -> int:
        item = self.add_item("attachment", {"title": title})
        self.db.execute("INSERT INTO itemAttachments (itemID, parentItemID, linkMode, "
                        "contentType, path) VALUES (?, ?, ?, ?, ?)",
                        (item, parent, link_mode, content_type, path))
        return item

    def trash(self, item: int) -> None:
        self.db.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (item,))

    def relate(self, item: int, predicate: str, target: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO relationPredicates (predicate) VALUES (?)",
                        (predicate,))
        self.db.execute("INSERT INTO itemRelations SELECT ?, predicateID, ? FROM "
                        "relationPredicates WHERE predicate = ?", (item, target, predicate))

    def touch(self, item: int, when: str) -> None:
        """What Zotero does to an edited item: a new modification time (and no new version
        until it syncs)."""
        self.db.execute("UPDATE items SET dateModified = ?, clientDateModified = ? "
                        "WHERE itemID = ?", (when, when, item))

    def set_field(self, item: int, name: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO itemData VALUES (?, ?, ?)",
                        (item, self.field_ids[name], self._value(value)))

    def key_of(self, item: int) -> str:
        return self.keys[item]

    def close(self) -> None:
        self.db.commit()
        self.db.close()


def better_bibtex_db(path: Path, keys: dict[str, str], table: str = "citationkey",
                     library: int = USER_LIBRARY) -> None:
    """Better BibTeX's database with ``keys`` (item key -> citation key): its ``citationkey``
    table (Better BibTeX 6 and later), or the older ``citekeys``."""
    column = "citationKey" if table == "citationkey" else "citekey"
    db = sqlite3.connect(path)
    db.execute(f"CREATE TABLE {table} (itemID INTEGER NOT NULL, itemKey TEXT NOT NULL, "
               f"libraryID INTEGER NOT NULL, {column} TEXT NOT NULL, pinned INTEGER NOT NULL "
               "DEFAULT 0, PRIMARY KEY (itemID))")
    db.executemany(f"INSERT INTO {table} (itemID, itemKey, libraryID, {column}) "
                   "VALUES (?, ?, ?, ?)",
                   [(n, item, library, key) for n, (item, key) in enumerate(keys.items(), 1)])
    db.commit()
    db.close()
