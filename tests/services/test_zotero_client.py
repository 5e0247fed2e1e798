"""The Zotero service's client (``refbridge.services.zotero``), asked with plain values (a base
URL, a library), against a local fake of zotero.org that follows Zotero's source: the Web
API's rules on retries, write tokens, ``Backoff``, requests at once, batch size and keys, and
its pages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support import running
from zotero_fakes import FakeWebAPI

from refbridge.services.retrying import Retries
from refbridge.services.zotero.client import Library, ZoteroClient
from refbridge.services.zotero.webapi import WebLibrary

pytestmark = pytest.mark.usefixtures("no_remote_network")

USER_1 = Library("user", "1")


@pytest.fixture
def web() -> Iterator[FakeWebAPI]:
    with running(FakeWebAPI()) as server:
        yield server


# -- the Web API's rules, with the client's clock in hand -------------------------------------------
class Pauses:
    def __init__(self) -> None:
        self.taken: list[float] = []
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.taken.append(round(seconds, 3))
        self.now += seconds

    def clock(self) -> float:
        return self.now


def web_client(web: FakeWebAPI, pauses: Pauses) -> ZoteroClient:
    return ZoteroClient(web.url, USER_1, False, "WRITEKEY1234", Retries(3, 1.0),
                        sleep=pauses.sleep, clock=pauses.clock)


def items(count: int) -> list[dict[str, object]]:
    return [{"itemType": "book", "title": f"Book {n}", "creators": [], "tags": []}
            for n in range(count)]


def test_a_429_is_waited_out_and_the_batch_keeps_its_write_token(web: FakeWebAPI) -> None:
    pauses = Pauses()
    web.faults = [(429, 7.0), (503, None)]
    with web_client(web, pauses) as client:
        assert WebLibrary(client).write_items(items(3)) == [None, None, None]
    tokens = [entry[3]["Zotero-Write-Token"] for entry in web.requests("POST")]
    assert len(tokens) == 3 and len(set(tokens)) == 1
    assert pauses.taken == [7.0, 14.0] and len(web.library().items) == 3


def test_a_batch_whose_answer_was_lost_is_not_saved_twice(web: FakeWebAPI) -> None:
    web.lose_next_write = True
    with web_client(web, Pauses()) as client:
        assert WebLibrary(client).write_items(items(2)) == [None, None]
    assert len(web.requests("POST")) == 2 and len(web.library().items) == 2


def test_backoff_delays_the_next_request(web: FakeWebAPI) -> None:
    pauses = Pauses()
    web.backoff_next = 30.0
    with web_client(web, pauses) as client:
        client.get("/users/1/items", "reading")
        assert pauses.taken == []
        client.get("/users/1/items", "reading")
    assert pauses.taken == [30.0]


def test_no_more_than_four_requests_at_once(web: FakeWebAPI) -> None:
    web.write_delay = 0.05
    with web_client(web, Pauses()) as client:
        WebLibrary(client).write_items(items(400))
    assert web.most_in_flight == 4 and len(web.library().items) == 400


def test_more_than_fifty_at_once_is_what_zotero_refuses(web: FakeWebAPI) -> None:
    with web_client(web, Pauses()) as client:
        response = client.request("POST", "/users/1/items", "writing", json=items(51))
    assert (response.status_code, response.text) == (413, ("Cannot add more than 50 items "
                                                          "at a time"))


def test_the_key_never_goes_in_a_url(web: FakeWebAPI) -> None:
    with web_client(web, Pauses()) as client, pytest.raises(ValueError, match="header"):
        client.get("/users/1/items", "reading", {"key": "WRITEKEY1234"})


def test_multi_page_answers_are_followed_by_their_links(web: FakeWebAPI) -> None:
    for number in range(250):
        web.add_item("book", title=f"Book {number}")
    with ZoteroClient(web.url, USER_1, False, "WRITEKEY1234") as client:
        pages = [page.json() for page in client.pages("/users/1/items", "reading")]
    assert [len(page) for page in pages] == [100, 100, 50]
    assert [q.get("start") for _, _, q, _, _ in web.requests("GET")] == [None, "100", "200"]
