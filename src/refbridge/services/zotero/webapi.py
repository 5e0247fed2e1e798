"""Writing to a library on zotero.org through the Web API v3.

- ``POST <library>/items`` takes at most 50 items (more: 413) and answers, per item of the
  batch, ``successful``, ``unchanged`` or ``failed`` (with Zotero's code and message). Each batch
  carries its own ``Zotero-Write-Token``, kept when the batch is sent again after a lost answer,
  429 or 503: if the first attempt was saved after all, Zotero answers 412 ("Write token
  already used") instead of saving the items twice, and the batch counts as saved.
- An item sent with its ``key`` and ``version`` is updated in place (the Web API treats it as a
  PATCH: fields not sent are left alone); a version that moved meanwhile fails that item (412).
- ``POST <library>/collections`` creates a collection (the Web API can; the connector cannot),
  under the parent whose key is given.

Batches go out up to four at once (``ZoteroClient``'s limit).

Why not pyzotero, as suggested (measured with pyzotero 1.16.0 from PyPI against this test
suite's fake Web API): releases since 1.14 pin ``bibtexparser<2``, which cannot be installed
beside the ``bibtexparser>=2`` the test extra checks the .bib tokenizer against (pip backtracks
to pyzotero 1.6.11, of March 2025), and 1.16 brings a second HTTP stack (``httpx2``) beside
``httpx``. ``create_items`` draws a new write token on every call (three calls, three
tokens), so after a lost answer (it raises ``RemoteProtocolError``; the two items had been
saved) calling again saves them twice; on a 429 it notes ``Retry-After``, then fails to read
the 429's text as the result (``JSONDecodeError``): nothing saved, nothing retried. Its base
addresses are fixed (api.zotero.org, localhost:23119/api) and it has no connector protocol.
Wrapping it would have meant replacing every write it makes, so the bridge speaks the protocol
through ``services.retrying`` and ``httpx``, which refbridge already uses.

This module must never build items from records, nor find a collection by name.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from refbridge.services.zotero.client import CONCURRENCY, ZoteroClient
from refbridge.services.zotero.errors import ZoteroRefused

#: Objects per write request (the Web API's limit).
BATCH = 50

#: Outcome of one item of a batch: None when saved, else Zotero's reason.
Outcome = str | None


def _refused(client: ZoteroClient, answer: Mapping[str, Any], doing: str) -> dict[int, str]:
    """Index in the batch -> Zotero's reason, from a write's ``failed`` object."""
    failed = answer.get("failed") or {}
    if not isinstance(failed, dict) or not all(
            str(index).isdigit() and isinstance(entry, dict) for index, entry in failed.items()):
        raise client.answer_error(doing, "'failed' is not an object of numbered objects")
    return {int(index): f"{entry.get('message', 'refused')} (HTTP {entry.get('code', '?')})"
            for index, entry in failed.items()}


class WebLibrary:
    """The write endpoints of one library on zotero.org."""

    def __init__(self, client: ZoteroClient) -> None:
        self.client = client
        self.prefix = client.prefix

    def _write(self, path: str, objects: Sequence[Mapping[str, Any]], doing: str
               ) -> list[Outcome]:
        token = uuid.uuid4().hex  # one per batch, the same on every attempt of it
        response = self.client.request("POST", f"{self.prefix}/{path}", doing,
                                       json=list(objects),
                                       headers={"Zotero-Write-Token": token})
        if response.status_code == 412 and "Write token already used" in response.text:
            return [None] * len(objects)  # an earlier attempt of this batch was saved
        if response.status_code != 200:
            self.client.fail(response, doing)
        refused = _refused(self.client, self.client.json(response, doing), doing)
        return [refused.get(index) for index in range(len(objects))]

    def write_items(self, items: Sequence[Mapping[str, Any]],
                    progress: Callable[[int, int], None] | None = None) -> list[Outcome]:
        """Create or update ``items`` in batches; the outcome of each, in order."""
        batches = [items[i:i + BATCH] for i in range(0, len(items), BATCH)]
        outcomes: list[Outcome] = []
        with ThreadPoolExecutor(max_workers=CONCURRENCY) as pool:
            for batch, result in zip(batches, pool.map(
                    lambda b: self._write("items", b, "saving items on zotero.org"), batches)):
                outcomes += result
                if progress is not None:
                    progress(len(outcomes), len(items))
        return outcomes

    def create_collection(self, path: Sequence[str], known: Mapping[tuple[str, ...], str]
                          ) -> str:
        """The key of the collection at ``path``, created with any missing parents;
        ``known``: the library's collections, path of names -> key."""
        parent: str | None = None
        for depth in range(1, len(path) + 1):
            here = tuple(path[:depth])
            if here in known:
                parent = known[here]
                continue
            body = [{"name": here[-1], "parentCollection": parent or False}]
            response = self.client.request("POST", f"{self.prefix}/collections",
                                           "creating the collection",
                                           json=body,
                                           headers={"Zotero-Write-Token": uuid.uuid4().hex})
            doing = f"creating the collection {'/'.join(here)!r}"
            if response.status_code != 200:
                self.client.fail(response, doing)
            answer = self.client.json(response, doing)
            if (refused := _refused(self.client, answer, doing)):
                raise ZoteroRefused(f"zotero.org refused {doing}: {refused[0]}")
            created = (answer.get("successful") or {}).get("0")
            if not isinstance(created, dict) or not isinstance(created.get("key"), str):
                raise self.client.answer_error(doing, "the answer names no created "
                                                  "collection")
            parent = created["key"]
        assert parent is not None
        return parent
