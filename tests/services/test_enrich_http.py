"""The polite client: pacing per service, retries with backoff, the cache, offline mode."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from enrich_support import FixtureData, FixtureServer, serving

from refbridge.enrich.settings import EnrichOptions
from refbridge.services.cache import ResponseCache, cache_key
from refbridge.services.errors import ServiceError
from refbridge.services.http import NotCached, PoliteClient

pytestmark = pytest.mark.usefixtures("no_remote_network")


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    with serving(FixtureData("scenarios.atom")) as running:
        yield running


class FakeTime:
    """A clock that moves only when the client sleeps, remembering every pause."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.pauses: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.pauses.append(round(seconds, 3))
        self.now += seconds

    def clock(self) -> float:
        return self.now


def client_for(server: FixtureServer, time: FakeTime, cache: ResponseCache | None = None,
               **changes: object) -> PoliteClient:
    options = EnrichOptions(endpoints=server.endpoints(), **changes)  # type: ignore[arg-type]
    return PoliteClient(options, cache, sleep=time.sleep, clock=time.clock)


def test_arxiv_requests_are_three_seconds_apart(server: FixtureServer) -> None:
    time = FakeTime()
    client = client_for(server, time)
    url = server.endpoints()["arxiv"]
    for number in range(3):
        client.get("arxiv", url, {"id_list": f"2601.0010{number}"})
    assert time.pauses == [3.0, 3.0]


def test_backoff_doubles_between_retries(server: FixtureServer) -> None:
    time = FakeTime()
    server.fail_next("arxiv", 503, 429, 502)
    client = client_for(server, time, backoff=1.5, intervals={"arxiv": 0.0})
    answer = client.get("arxiv", server.endpoints()["arxiv"], {"id_list": "2601.00101"})
    assert answer.status == 200
    assert time.pauses == [1.5, 3.0, 6.0]


def test_a_client_error_is_not_retried(server: FixtureServer) -> None:
    client = client_for(server, FakeTime())
    with pytest.raises(ServiceError, match="Crossref answered HTTP 400"):
        server.fail_next("crossref", 400)
        client.get("crossref", server.endpoints()["crossref"] + "/works", {"rows": "x"})
    assert len(server.log) == 1


def test_answers_are_cached_without_the_contact_address(server: FixtureServer,
                                                        tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "enrich.sqlite3")
    url = server.endpoints()["crossref"] + "/works/10.5555/unknown"
    client_for(server, FakeTime(), cache).get("crossref", url, {"mailto": "a@example.org"})
    answer = client_for(server, FakeTime(), cache).get("crossref", url,
                                                       {"mailto": "b@example.org"})
    assert (answer.status, answer.from_cache) == (404, True)
    assert len(server.log) == 1
    assert cache_key(url + "?mailto=a%40example.org") == url


def test_old_answers_are_asked_again(server: FixtureServer, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "enrich.sqlite3")
    url = server.endpoints()["arxiv"]
    cache.put(url + "?id_list=2601.00101", 200, b"<feed/>", fetched=0.0)
    answer = client_for(server, FakeTime(), cache).get("arxiv", url, {"id_list": "2601.00101"})
    assert answer.from_cache is False and b"2601.00101v2" in answer.body


def test_offline_without_a_cached_answer_says_so(server: FixtureServer,
                                                 tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "enrich.sqlite3")
    client = client_for(server, FakeTime(), cache, offline=True)
    with pytest.raises(NotCached, match=r"arXiv: no cached answer for .*\(offline\)"):
        client.get("arxiv", server.endpoints()["arxiv"], {"id_list": "2601.00101"})
    assert server.log == []
