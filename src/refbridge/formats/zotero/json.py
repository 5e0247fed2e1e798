"""Zotero's item JSON as files: Better BibTeX's JSON export and the Web API's or local API's
answers saved to disk.

Better BibTeX's *Better BibTeX JSON* export (``{"config": ..., "collections": ...,
"items": [...]}``) is how many Zotero users back up or move a library; its items are Zotero's
item JSON with the citation key (``citationKey``), tags as text or ``{"tag": ...}``, child notes
in ``notes`` and attachments in ``attachments``. The Web API and Zotero's local API answer with
a list of items, each ``{"key", "data": {...}}`` or the data alone. Both are read through the
same item mapping as ``pull`` (``formats.zotero.items``), so a library gives the same records
from an export, from the local API and from the Web API. An attachment is no record: its
title, path and address are kept in the parent's ``zotero.attachments`` extra. This module must
never make a request.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.services.answers import JsonLines, load_json
from refbridge.formats.zotero.items import records_of_items
from refbridge.model import Record, Source

#: The extra that lists an item's attachments, one per line.
ATTACHMENTS_FIELD = "attachments"


def _tag(tag: Any) -> dict[str, str] | None:
    """A tag as Zotero's item JSON writes it (Better BibTeX writes plain text, or objects)."""
    if isinstance(tag, Mapping):
        text = str(tag.get("tag") or "").strip()
    else:
        text = str(tag or "").strip()
    return {"tag": text} if text else None


def _attachment_line(attachment: Mapping[str, Any]) -> str:
    parts = (attachment.get(key) for key in ("title", "path", "url", "mimeType"))
    return " | ".join(str(part) for part in parts if part)


def _item_data(item: Mapping[str, Any], number: int) -> tuple[dict[str, Any], list[str]]:
    """The Web API's item data of one item of a file, and the HTML of its child notes."""
    data = dict(item["data"]) if isinstance(item.get("data"), Mapping) else dict(item)
    data["key"] = str(data.get("key") or data.get("itemKey") or item.get("key") or
                      f"item{number}")
    data["tags"] = [t for t in map(_tag, data.get("tags") or ()) if t is not None]
    data["creators"] = [{k: v for k, v in creator.items() if k != "fieldMode" or v}
                        for creator in data.get("creators") or () if isinstance(creator, Mapping)]
    key = data.pop("citekey", None) or data.get("citationKey")
    if key:
        data["citationKey"] = str(key)
    notes = [str(n.get("note") if isinstance(n, Mapping) else n)
             for n in data.pop("notes", None) or ()]
    attachments = [_attachment_line(a) for a in data.pop("attachments", None) or ()
                   if isinstance(a, Mapping)]
    if attachments:
        data[ATTACHMENTS_FIELD] = "\n".join(line for line in attachments if line)
    for unused in ("itemID", "uri", "relations", "related", "seeAlso", "collections",
                   "select", "version", "library", "links", "meta", "multi"):
        data.pop(unused, None)
    return data, notes


def items_of(document: Any, source: str) -> list[Mapping[str, Any]]:
    """The items of a Better BibTeX export or an API answer."""
    if isinstance(document, Mapping) and isinstance(document.get("items"), list):
        items = document["items"]
    elif isinstance(document, list):
        items = document
    else:
        raise ParseError("not Zotero item JSON: expected a list of items or a Better BibTeX "
                         "export with 'items'", source, 1)
    return [item for item in items if isinstance(item, Mapping)]


class ZoteroJsonReader(catalogue.CatalogueReader):
    name = "zotero-json"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        text = stream.read()
        items = items_of(load_json(text, source, "Zotero item JSON"), source)
        lines = JsonLines(text)
        data: list[dict[str, Any]] = []
        line_of_key: dict[str, int | None] = {}
        for number, item in enumerate(items, start=1):
            fields, notes = _item_data(item, number)
            data.append(fields)
            line_of_key[fields["key"]] = lines.line_of('"itemType"')
            data += [{"itemType": "note", "parentItem": fields["key"], "note": note,
                      "key": f"{fields['key']}-note{index:04d}"}
                     for index, note in enumerate(notes, start=1)]
        for key, record in records_of_items(data, source, diagnostics):
            yield record.replace(source=Source(source, line_of_key.get(key)))


READER = ZoteroJsonReader()
