"""The Zotero desktop's connector protocol, as ``server_connector.js`` and ``saveSession.js`` in
Zotero's source define it, for saving items into the running program.

- ``GET /connector/ping``: 200 while Zotero runs;
- ``POST /connector/getSelectedCollection``: the library or collection selected in Zotero, and
  every editable library and collection as save targets (``L1``, ``C12``, with levels);
- ``POST /connector/saveItems`` ``{"items", "uri", "sessionID"}``: saves translator items into
  the selected target (201, empty body; 409 for a session ID in use; 500 with
  ``libraryEditable: false`` for a read-only library). Zotero files each saved item in the
  session under the item's ``id``, so every item gets its own;
- ``POST /connector/updateSession`` ``{"sessionID", "target", "tags"}``: moves the session's
  items into ``target`` and adds ``tags`` (400 ``SESSION_NOT_FOUND``,
  ``COLLECTION_NOT_FOUND``).

The connector cannot create collections, and only adds items: it cannot change one. Zotero
stores the tags of saved items as automatic tags, and drops them when its setting
"Automatically tag items with keywords and subject headings" is off. Items are saved into a
target given by its id (``L1``, ``C12``); which target a ``--collection`` names is the Zotero
bridge's (``zotero_bridge.collections``). This module must never read the library's items (the
local API does that).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from refbridge.formats.zotero.items import translator_item
from refbridge.model import Record
from refbridge.services.zotero.client import ZoteroClient
from refbridge.services.zotero.errors import ZoteroRefused

#: Items per saveItems request (each its own save session).
BATCH = 50


class Connector:
    """The connector endpoints of one running Zotero."""

    def __init__(self, client: ZoteroClient) -> None:
        self.client = client

    def ping(self) -> None:
        self.client.get("/connector/ping", "checking that Zotero is running")

    def _post(self, endpoint: str, body: Any, doing: str, ok: int) -> Any:
        response = self.client.request("POST", f"/connector/{endpoint}", doing, json=body)
        if response.status_code != ok:
            error = _error_of(response.text)
            if error == "COLLECTION_NOT_FOUND":
                raise ZoteroRefused("the collection was deleted in Zotero while saving; the "
                                    "items saved so far are in the collection selected there")
            if error == "libraryEditable":
                raise ZoteroRefused("the library selected in Zotero is read-only: select one "
                                    "you can edit, or name a collection with --collection")
            self.client.fail(response, doing)
        return self.client.json(response, doing) if response.content.strip() else None

    def selection(self) -> dict[str, Any]:
        """``getSelectedCollection``'s answer: the selection and the save targets."""
        doing = "asking Zotero for its collections"
        answer = self._post("getSelectedCollection", {}, doing, 200)
        targets = answer.get("targets", []) if isinstance(answer, dict) else None
        if not isinstance(targets, list) or not all(isinstance(t, dict) for t in targets):
            raise self.client.answer_error(doing, "the answer has no list of save targets")
        selection: dict[str, Any] = answer
        return selection

    def save(self, records: Sequence[Record], target: str, tags: Sequence[str], uri: str,
             progress: Callable[[int, int], None] | None = None) -> None:
        """Save ``records`` as new items into the target of id ``target``, tagged with
        ``tags``."""
        for start in range(0, len(records), BATCH):
            batch = records[start:start + BATCH]
            session = uuid.uuid4().hex
            items = [translator_item(record, f"{session}-{number}")
                     for number, record in enumerate(batch)]
            self._post("saveItems", {"items": items, "uri": uri, "sessionID": session},
                       "saving items in Zotero", 201)
            self._post("updateSession", {"sessionID": session, "target": target,
                                         "tags": list(tags)},
                       "moving the saved items into their collection", 200)
            if progress is not None:
                progress(start + len(batch), len(records))


def _error_of(text: str) -> str | None:
    """The error code of a connector's JSON error answer (``{"error": ...}``)."""
    import json

    try:
        answer = json.loads(text)
    except ValueError:
        return None
    if not isinstance(answer, dict):
        return None
    if answer.get("libraryEditable") is False:
        return "libraryEditable"
    error = answer.get("error")
    return error if isinstance(error, str) else None
