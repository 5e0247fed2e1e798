"""The reads of one Zotero library (``refbridge.services.zotero.library``), asked with plain
values (a collection's key, a library version, item keys) of a local fake of zotero.org that
follows Zotero's source."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support import running
from zotero_fakes import FakeWebAPI

from refbridge.services.zotero import library
from refbridge.services.zotero.client import Library, ZoteroClient
from refbridge.services.zotero.errors import ZoteroAnswerError

pytestmark = pytest.mark.usefixtures("no_remote_network")


@pytest.fixture
def web() -> Iterator[FakeWebAPI]:
    with running(FakeWebAPI()) as server:
        yield server


@pytest.fixture
def client(web: FakeWebAPI) -> Iterator[ZoteroClient]:
    with ZoteroClient(web.url, Library("user", "1"), False, "WRITEKEY1234") as asking:
        yield asking


def test_a_collections_versions_are_its_items_and_the_librarys_version(
        web: FakeWebAPI, client: ZoteroClient) -> None:
    reading = web.add_collection("Reading")
    graphs = web.add_item(title="On Graphs", collections=[reading])
    web.add_item(title="Not in it")
    answer = library.item_versions(client, reading, None)
    assert answer.modified and list(answer.changed()) == [graphs]
    assert answer.library_version == web.library().version


def test_versions_asked_since_the_current_version_are_not_modified(
        web: FakeWebAPI, client: ZoteroClient) -> None:
    web.add_item(title="On Graphs")
    answer = library.item_versions(client, None, web.library().version)
    assert not answer.modified


def test_what_changed_and_what_was_deleted_since_a_version(web: FakeWebAPI,
                                                           client: ZoteroClient) -> None:
    web.add_item(title="Kept")
    gone = web.add_item(title="Gone")
    version = web.library().version
    new = web.add_item(title="New")
    web.delete_item(gone)
    assert list(library.changed_since(client, version).changed()) == [new]
    assert library.deleted_since(client, version) == [gone]


def test_items_are_read_by_key(web: FakeWebAPI, client: ZoteroClient) -> None:
    keys = [web.add_item(title=f"Book {n}") for n in range(3)]
    entries = library.items_by_key(client, keys[:2])
    assert sorted(e["key"] for e in entries) == sorted(keys[:2])
    assert {e["data"]["title"] for e in entries} == {"Book 0", "Book 1"}


def test_every_item_is_read_page_by_page_with_the_total(web: FakeWebAPI,
                                                        client: ZoteroClient) -> None:
    for number in range(150):
        web.add_item(title=f"Book {number}")
    pages = list(library.item_pages(client, None))
    assert [(len(p.entries), p.total) for p in pages] == [(100, 150), (50, 150)]


def test_the_collections_are_listed_with_their_parents(web: FakeWebAPI,
                                                       client: ZoteroClient) -> None:
    projects = web.add_collection("Projects")
    web.add_collection("2026", parent=projects)
    listed = {e["data"]["name"]: e["data"].get("parentCollection")
              for e in library.collections(client)}
    assert listed == {"Projects": False, "2026": projects}


def test_a_deleted_listing_without_item_keys_is_an_answer_error(
        web: FakeWebAPI, client: ZoteroClient, monkeypatch: pytest.MonkeyPatch) -> None:
    original = web.answer

    def no_items(method: str, path: str, query: dict[str, str], headers: Any, body: bytes
                 ) -> tuple[int, dict[str, str], Any] | None:
        answered = original(method, path, query, headers, body)
        if answered is not None and path.endswith("/deleted"):
            return answered[0], answered[1], {"items": "none"}
        return answered

    monkeypatch.setattr(web, "answer", no_items)
    with pytest.raises(ZoteroAnswerError, match="asking what was deleted: the answer has no "
                                                "list of item keys"):
        library.deleted_since(client, 0)
