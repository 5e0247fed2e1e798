"""Zotero's item JSON and the model: library items into records, records into items to save.

Both directions go through the Zotero RDF format's own mapping (``formats.zotero`` and its
tables), so a record saved through the bridge is exactly what Zotero's import translator makes
of refbridge's Zotero RDF, and an item read from a library is the record the RDF reader gives
for the same item in an export: preprints with repository and archive ID, tags (arXiv
categories as code and name), creators, and in Extra what Zotero has no field for.

- ``translator_item``: the connector's format (what an import translator hands to Zotero's
  ItemSaver): fields by name, creators ``{lastName, firstName}`` (``fieldMode: 1`` for a
  one-field name), tags as strings, and an ``id`` the save session files the item under;
- ``web_item``: the Web API's editable JSON (fields valid for the item type, creators with
  ``name`` for a one-field name, tags as ``{"tag": ...}``, collection keys);
- ``records_of_items``: item JSON (from the Web API or the local API) into records. Child notes
  go with their parent (``zotero.notes``, as the RDF reader keeps them); given the library's
  storage folder, a parent's files (linked, and stored: ``STORAGE/KEY/NAME``) go with it as
  the ``file`` field Better BibTeX and JabRef write (``Description:path:type`` joined by
  ``;``), in the ``bibtex.file`` extra; other attachments, annotations and standalone notes
  are not records and are counted, not read.

Rich text is Zotero's title markup (``csl_markup``) both ways. This module must never make a
request.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refbridge.errors import Diagnostics
from refbridge.formats.surrogates import repaired, reporter
from refbridge.formats.zotero.rdf import (
    CHILD_NOTES_FIELD,
    FIELD_OF_BASE,
    ZoteroItem,
    name_fields,
    name_of,
    record_of,
    zotero_item,
)
from refbridge.model import ModelError, Name, Record

#: Keys of Zotero's item JSON that are not item fields.
META_KEYS: frozenset[str] = frozenset({
    "key", "version", "itemType", "creators", "tags", "collections", "relations", "parentItem",
    "deleted", "inPublications", "dateAdded", "dateModified", "note"})
#: Item types that are not records.
NOT_RECORDS: frozenset[str] = frozenset({"note", "attachment", "annotation"})
#: The extra of a record's files: a .bib's ``file`` field, as Better BibTeX and JabRef write it.
FILE_EXTRA = "bibtex.file"
#: Link modes of attachments whose file is in the library's storage folder (``filename``).
STORED_FILES: frozenset[str] = frozenset({"imported_file", "imported_url", "embedded_image"})
#: What JabRef's ``file`` field escapes with a backslash in a description or path.
_FILE_FIELD_SPECIAL = re.compile(r"([\\:;])")


def _creator_name(creator: Mapping[str, Any]) -> Name | None:
    last = str(creator.get("lastName") or creator.get("name") or "").strip()
    first = str(creator.get("firstName") or "").strip()
    if not (last or first):
        return None
    return name_of(last or first, first if last else "")


def zotero_item_of(data: Mapping[str, Any], notes: Iterable[str] = ()) -> ZoteroItem:
    """The ``ZoteroItem`` of one item's JSON (``data``), with its child notes' HTML."""
    item = ZoteroItem(str(data.get("itemType") or ""))
    item.fields = {name: value for name, value in data.items()
                   if name not in META_KEYS and isinstance(value, str) and value.strip()}
    for base, field_name in FIELD_OF_BASE.get(item.item_type, {}).items():
        # Better BibTeX's JSON names a field by its base (a patent's ``date``, not ``issueDate``)
        if base != field_name and base in item.fields and field_name not in item.fields:
            item.fields[field_name] = item.fields.pop(base)
    for creator in data.get("creators") or ():
        person = _creator_name(creator)
        if person is not None:
            item.creators.append((str(creator.get("creatorType") or "author"), person))
    item.tags = [str(tag["tag"]) for tag in data.get("tags") or ()
                 if isinstance(tag, Mapping) and str(tag.get("tag") or "").strip()]
    written = [note for note in notes if note.strip()]
    if written:
        item.fields[CHILD_NOTES_FIELD] = "\n\n".join(written)
    return item


@dataclass(slots=True)
class Skipped:
    """What a library holds that is not a record, by kind."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def describe(self) -> str:
        return ", ".join(f"{count} {kind}(s)" for kind, count in sorted(self.counts.items()))


def child_notes(items: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Parent key -> the HTML of its child notes, in the order of the notes' keys."""
    notes: dict[str, list[tuple[str, str]]] = {}
    for data in items:
        parent = data.get("parentItem")
        if data.get("itemType") == "note" and parent and str(data.get("note") or "").strip():
            notes.setdefault(str(parent), []).append((str(data.get("key")), str(data["note"])))
    return {parent: [text for _, text in sorted(found)] for parent, found in notes.items()}


def attachment_file(data: Mapping[str, Any], storage: Path) -> str | None:
    """An attachment's entry of a ``file`` field (``Description:path:type``), or None for an
    attachment without a file (a link)."""
    if data.get("linkMode") == "linked_file" and data.get("path"):
        path = str(data["path"])
    elif data.get("linkMode") in STORED_FILES and data.get("filename"):
        path = str(storage / str(data.get("key")) / str(data["filename"]))
    else:
        return None
    parts = (str(data.get("title") or ""), path, str(data.get("contentType") or ""))
    return ":".join(_FILE_FIELD_SPECIAL.sub(r"\\\1", part) for part in parts)


def child_files(items: Iterable[Mapping[str, Any]], storage: Path) -> dict[str, list[str]]:
    """Parent key -> the ``file`` entries of its attachments, in the order of the items."""
    files: dict[str, list[str]] = {}
    for data in items:
        parent = data.get("parentItem")
        if data.get("itemType") == "attachment" and parent and \
                (entry := attachment_file(data, storage)) is not None:
            files.setdefault(str(parent), []).append(entry)
    return files


def is_record_item(data: Mapping[str, Any]) -> bool:
    """Whether an item is a bibliographic record (not a note, attachment or annotation)."""
    return data.get("itemType") not in NOT_RECORDS and not data.get("parentItem")


def record_of_item(data: Mapping[str, Any], notes: Iterable[str], where: str,
                   diagnostics: Diagnostics, files: Iterable[str] = ()) -> Record:
    """The record of one top-level item, with the ``file`` entries of its attachments; raises
    ``ValueError`` when it cannot be built. A lone surrogate in its data or notes is replaced
    and reported (``formats.surrogates``)."""
    report = reporter(diagnostics, data.get("key"), where)
    data = repaired(data, report)
    notes = [repaired(note, report, f"notes[{index}]") for index, note in enumerate(notes)]
    record = record_of(zotero_item_of(data, notes), where, diagnostics)
    key = str(data.get("key") or "")
    listed: str = repaired(";".join(files), report, "file")
    if listed:
        record = record.replace(extra={**record.extra, FILE_EXTRA: listed})
    return record.replace(id=key) if key and record.citation_key is None else record


def records_of_items(items: Iterable[Mapping[str, Any]], where: str,
                     diagnostics: Diagnostics, skipped: Skipped | None = None,
                     storage: Path | None = None) -> Iterator[tuple[str, Record]]:
    """The records of a library's items with their item keys (in the order given); an item
    that cannot be read is reported with its key and skipped. With the library's ``storage``
    folder, each record lists its files in ``FILE_EXTRA``."""
    items = list(items)
    notes = child_notes(items)
    files = child_files(items, storage) if storage is not None else {}
    for data in items:
        kind = str(data.get("itemType") or "")
        if not is_record_item(data):
            carried = data.get("parentItem") and (kind == "note" or (
                kind == "attachment" and storage is not None
                and attachment_file(data, storage) is not None))
            if skipped is not None and not carried:
                skipped.add("standalone note" if kind == "note" else kind)
            continue
        key = str(data.get("key") or "")
        try:
            yield key, record_of_item(data, notes.get(key, ()), f"{where}/items/{key}",
                                      diagnostics, files.get(key, ()))
        except (ValueError, ModelError) as exc:
            diagnostics.error(f"item skipped: {exc}", f"{where}/items/{key}")


# -- records into items --------------------------------------------------------------------
#: The id the Zotero RDF reader gives an item without a key (``zotero_item`` compares with it).
_NATIVE_ID = "zotero1"


def _item(record: Record) -> ZoteroItem:
    """The Zotero item of ``record``. A record without a citation key has only a made-up id
    (a profile page's ``qian-1``): it is not carried into Extra, so that the library's item
    gets a key of its own when it is read back."""
    return zotero_item(record if record.citation_key else record.replace(id=_NATIVE_ID))


def translator_item(record: Record, item_id: str) -> dict[str, Any]:
    """The connector's translator item of ``record``, filed under ``item_id`` in its session."""
    item = _item(record)
    creators: list[dict[str, Any]] = []
    for creator_type, person in item.creators:
        last, first = name_fields(person)
        creators.append({"creatorType": creator_type, "lastName": last, "firstName": first}
                        if first is not None else
                        {"creatorType": creator_type, "lastName": last, "fieldMode": 1})
    return {"id": item_id, "itemType": item.item_type, **item.fields, "creators": creators,
            "tags": list(item.tags), "notes": [], "attachments": [], "seeAlso": []}


def web_item(record: Record, collections: Iterable[str] = (),
             tags: Iterable[str] = ()) -> dict[str, Any]:
    """The Web API's editable JSON of ``record``, in ``collections``, with ``tags`` added."""
    item = _item(record)
    creators: list[dict[str, str]] = []
    for creator_type, person in item.creators:
        last, first = name_fields(person)
        creators.append({"creatorType": creator_type, "lastName": last, "firstName": first}
                        if first is not None else {"creatorType": creator_type, "name": last})
    return {"itemType": item.item_type, **item.fields, "creators": creators,
            "tags": [{"tag": tag} for tag in dict.fromkeys([*item.tags, *tags])],
            "collections": list(collections), "relations": {}}
