"""refbridge fetch, end to end against the local stand-in services (tests/sources_support.py):
every service's paging, ORCID's fall-back to summaries, 429 with Retry-After, a service that
is down, the cache, and targets that are not a person."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from enrich_support import running
from sources_support import SPECIMENS, ServicesServer

from refbridge.cli import main
from refbridge.errors import Diagnostics
from refbridge.fetch import fetch_records, fetch_to_file, parse_target
from refbridge.services.http import PoliteClient
from refbridge.services.settings import ClientOptions

pytestmark = pytest.mark.usefixtures("no_remote_network")


@pytest.fixture
def services() -> Iterator[ServicesServer]:
    with running(ServicesServer()) as server:
        yield server


@pytest.fixture
def environment(services: ServicesServer, tmp_path: Path) -> dict[str, str]:
    return {**services.environment(), "REFBRIDGE_CACHE_DIR": str(tmp_path / "cache"),
            "REFBRIDGE_REQUEST_INTERVAL": "0"}


def fetch(environment: dict[str, str], *arguments: str) -> Any:
    return CliRunner().invoke(main, ["fetch", *arguments], env=environment)


def items(path: Path) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(path.read_text("utf-8"))
    return data


def authors(item: dict[str, Any]) -> list[str]:
    return [f"{a.get('given', '')} {a['family']}".strip() for a in item.get("author", [])]


def test_orcid_gives_one_record_per_work_group_with_the_full_works_authors(
        environment: dict[str, str], services: ServicesServer, tmp_path: Path) -> None:
    out = tmp_path / "orcid.json"
    result = fetch(environment, "orcid:0000-0002-1825-0097", "-o", str(out))
    assert result.exit_code == 0, result.output
    records = items(out)
    assert [r.get("DOI") for r in records] == [
        "10.5555/refbridge.flat", "10.5555/refbridge.cardest", "10.5555/refbridge.fspn-data.v1",
        "10.5555/refbridge.fspn-data.v2", None]
    assert authors(records[0]) == ["Jing Wang", "Zhengping Qian", "Ming Zhou", "Xiaoyu Liu"]
    assert authors(records[1]) == ["Wei Zhang", "Zhengping Qian", "Yuxin Chen"]
    assert authors(records[4]) == ["Zhengping Qian"]
    assert records[4]["custom"]["incomplete-names"] == ["author"]
    assert records[0]["custom"]["extra"]["profile.owner"] == "Zhengping Qian"
    assert records[0]["custom"]["name-ids"]["author"][1] == ["orcid:0000-0002-1825-0097"]
    assert [path for path, _ in services.requests_to("orcid")] == [
        "v3.0/0000-0002-1825-0097/works",
        "v3.0/0000-0002-1825-0097/works/310001,310003,310004,310005,310006",
        "v3.0/0000-0002-1825-0097/person"]
    assert services.log[0][3]["Accept"] == "application/json"
    assert result.stderr.splitlines() == [
        "refbridge: fetch: orcid:0000-0002-1825-0097: 5 record(s)",
        (f"{services.url}/orcid/v3.0/0000-0002-1825-0097/works: warning: ORCID reported an "
        "error for a work: 404 Not Found: The resource was not found. Full validation error: "
        "No entity found with id: 310006")]


def test_orcid_without_full_works_makes_the_records_from_the_summaries(
        environment: dict[str, str], services: ServicesServer, tmp_path: Path) -> None:
    services.orcid_bulk_missing = True
    out = tmp_path / "orcid.json"
    result = fetch(environment, "orcid:0000-0002-1825-0097", "-o", str(out))
    assert result.exit_code == 0, result.output
    records = items(out)
    assert len(records) == 5
    assert [authors(r) for r in records] == [["Zhengping Qian"]] * 5
    assert "ORCID has no full works for these put-codes (404); the records are made from " \
           "the summaries" in result.stderr


def test_dblp_gives_the_person_page_with_every_author(environment: dict[str, str],
                                                      tmp_path: Path) -> None:
    out = tmp_path / "dblp.bib"
    result = fetch(environment, "dblp:95/7448-1", "-o", str(out))
    assert result.exit_code == 0, result.output
    bib = out.read_text("utf-8")
    assert bib.count("@") == 5
    assert "author = {Wang, Jing and Qian, Zhengping and Zhou, Ming and Liu, Xiaoyu}" in bib
    assert result.stderr == "refbridge: fetch: dblp:95/7448-1: 5 record(s)\n"


def test_openalex_follows_the_cursor_to_the_empty_page(environment: dict[str, str],
                                                       services: ServicesServer,
                                                       tmp_path: Path) -> None:
    out = tmp_path / "openalex.json"
    result = fetch(environment, "openalex:A5025692314", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert [r["DOI"] for r in items(out)] == [
        "10.5555/refbridge.flat", "10.5555/refbridge.truss", "10.48550/arxiv.2601.00002"]
    assert [query["cursor"] for _, query in services.requests_to("openalex")] == [
        "*", "page-2", "page-4"]
    assert services.requests_to("openalex")[0][1]["filter"] == "author.id:A5025692314"


def test_semantic_scholar_follows_the_offset_to_the_empty_page(
        environment: dict[str, str], services: ServicesServer, tmp_path: Path) -> None:
    out = tmp_path / "s2.json"
    result = fetch(environment, "s2:1723755", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert len(items(out)) == 4
    assert [query["offset"] for _, query in services.requests_to("s2")] == ["0", "2", "4"]
    assert items(out)[0]["custom"]["extra"]["profile.owner-id"] == "s2:1723755"


def test_arxiv_author_listing_pages_with_start(environment: dict[str, str],
                                              services: ServicesServer, tmp_path: Path) -> None:
    out = tmp_path / "arxiv.json"
    result = fetch(environment, 'arxiv-author:"Zhengping Qian"', "-o", str(out))
    assert result.exit_code == 0, result.output
    records = items(out)
    assert [r["custom"]["eprint"]["id"] for r in records] == [
        "2601.00001v2", "2601.00006v1", "2601.00012v1"]
    assert records[0]["custom"]["extra"]["profile.owner"] == "Zhengping Qian"
    assert [query["start"] for _, query in services.requests_to("arxiv")] == ["0", "2", "3"]


@pytest.mark.parametrize(("target", "specimen"), [
    ("dblp:95/7448-1", "qian.dblp.xml"), ("openalex:A5025692314", "qian.openalex.json"),
    ("s2:1723755", "qian.s2-papers.json"), ('arxiv-author:"Zhengping Qian"', "qian.arxiv.atom"),
])
def test_a_fetch_gives_the_records_of_the_saved_answer(environment: dict[str, str],
                                                       tmp_path: Path, target: str,
                                                       specimen: str) -> None:
    fetched, saved = tmp_path / "fetched.json", tmp_path / "saved.json"
    assert fetch(environment, target, "-o", str(fetched)).exit_code == 0
    converted = CliRunner().invoke(main, ["convert", str(SPECIMENS / specimen), "--to",
                                          "csl-json", "-o", str(saved)])
    assert converted.exit_code == 0, converted.output
    assert items(fetched) == items(saved)


def test_a_second_fetch_is_answered_from_the_cache(environment: dict[str, str],
                                                   services: ServicesServer,
                                                   tmp_path: Path) -> None:
    first = fetch(environment, "dblp:95/7448-1", "-o", str(tmp_path / "a.json"))
    asked = len(services.log)
    second = fetch(environment, "dblp:95/7448-1", "-o", str(tmp_path / "b.json"), "--offline")
    assert (first.exit_code, second.exit_code) == (0, 0)
    assert len(services.log) == asked
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()


def test_offline_without_a_cached_answer_fails_and_writes_nothing(
        environment: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = fetch(environment, "dblp:95/7448-1", "-o", str(out), "--offline")
    assert result.exit_code == 1
    assert result.stderr.startswith("refbridge: error: dblp: no cached answer for ")
    assert not out.exists()


def test_a_429_waits_as_long_as_retry_after_says(services: ServicesServer) -> None:
    pauses: list[float] = []
    services.fail_next("s2", 429, {"Retry-After": "7"})
    options = ClientOptions(endpoints=services.endpoints(), intervals={"s2": 0.0},
                            use_cache=False, backoff=0.5)
    client = PoliteClient(options, None, sleep=pauses.append, clock=lambda: 0.0)
    records = fetch_records(parse_target("s2:1723755"), options, Diagnostics(), client=client)
    assert len(records) == 4
    assert pauses == [7.0]
    assert [query["offset"] for _, query in services.requests_to("s2")] == ["0", "0", "2", "4"]


def test_a_service_that_keeps_failing_ends_the_fetch_and_writes_nothing(
        environment: dict[str, str], services: ServicesServer, tmp_path: Path) -> None:
    services.fail_next("openalex", 503, times=2)
    out = tmp_path / "out.json"
    result = fetch(environment, "openalex:A5025692314", "-o", str(out), "--retries", "1")
    assert result.exit_code == 1
    assert result.stderr.startswith("refbridge: error: OpenAlex kept failing (HTTP 503) "
                                    "after 2 attempts: ")
    assert not out.exists()


def test_a_service_that_is_down_is_a_clear_error(environment: dict[str, str],
                                                 tmp_path: Path) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    out = tmp_path / "out.json"
    out.write_text("kept\n")
    result = fetch({**environment, "REFBRIDGE_DBLP_API": f"http://127.0.0.1:{port}"},
                   "dblp:95/7448-1", "-o", str(out), "--retries", "0")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"refbridge: error: cannot reach dblp at 127.0.0.1:{port} ")
    assert "use --offline to work from cached answers only" in result.stderr
    assert out.read_text() == "kept\n"


def test_an_unknown_person_is_an_error_naming_them(environment: dict[str, str]) -> None:
    result = fetch(environment, "dblp:12/3456")
    assert result.exit_code == 1
    assert result.stderr == "refbridge: error: dblp has no person 12/3456\n"


@pytest.mark.parametrize(("target", "message"), [
    ("orcid:0000-0002-1825-0098",
     ("cannot fetch 'orcid:0000-0002-1825-0098': 0000-0002-1825-0098 is not an ORCID iD: its "
     "check digit is wrong")),
    ("scholar:abc", ("cannot fetch 'scholar:abc': name a person as one of orcid:..., dblp:..., "
                    "openalex:..., s2:..., arxiv-author:...")),
    ("openalex:W123", "cannot fetch 'openalex:W123': 'W123' is not of the form A5025692314"),
])
def test_a_target_that_is_not_a_person_is_a_usage_error(
        environment: dict[str, str], services: ServicesServer, target: str,
        message: str) -> None:
    result = fetch(environment, "dblp:95/7448-1", target)
    assert result.exit_code == 2
    assert result.stderr == f"refbridge: error: {message}\n"
    assert services.log == []


def test_several_targets_are_written_one_after_the_other(environment: dict[str, str],
                                                         tmp_path: Path) -> None:
    out = tmp_path / "both.json"
    result = fetch(environment, "dblp:95/7448-1", "s2:1723755", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert len(items(out)) == 9
    assert result.stderr.splitlines() == ["refbridge: fetch: dblp:95/7448-1: 5 record(s)",
                                          "refbridge: fetch: s2:1723755: 4 record(s)"]


def test_the_fetch_job_says_each_list_writes_them_once_and_files_their_keys(
        services: ServicesServer, tmp_path: Path) -> None:
    """``fetch_to_file`` is the whole command: each target fetched and said, its pages told to
    ``on_page``, one output written, then the key lock saved with the keys written."""
    out, lock = tmp_path / "both.bib", tmp_path / "keys.json"
    said: list[str] = []
    pages: dict[str, int] = {}
    options = ClientOptions(endpoints=services.endpoints(), intervals={"dblp": 0.0, "s2": 0.0},
                            use_cache=False)
    written = fetch_to_file([parse_target("dblp:95/7448-1"), parse_target("s2:1723755")],
                            str(out), "bibtex", options, str(lock), Diagnostics(), said.append,
                            lambda target, count: pages.update({str(target): count}))
    assert written == 9
    assert said == ["refbridge: fetch: dblp:95/7448-1: 5 record(s)",
                    "refbridge: fetch: s2:1723755: 4 record(s)"]
    assert pages == {"dblp:95/7448-1": 5, "s2:1723755": 4}
    keys = re.findall(r"^@\w+\{([^,]+),", out.read_text(encoding="utf-8"), re.MULTILINE)
    assert len(keys) == 9
    # three works are on both lists: written twice (the second key with a suffix), filed once
    twice = {"huang2022highera", "wang2021flata", "wang2026specdba"}
    assert twice <= set(keys)
    assert set(json.loads(lock.read_text(encoding="utf-8")).values()) == set(keys) - twice


def _with_a_lone_surrogate(monkeypatch: pytest.MonkeyPatch, name: str,
                           change: Callable[[Any], None]) -> None:
    """The stand-in service answers ``name`` changed by ``change`` (JSON escapes the lone
    surrogate it puts in as ``\\ud800``, as a service's JavaScript may)."""
    import sources_support

    original = sources_support.specimen

    def answer(wanted: str) -> Any:
        data = original(wanted)
        if wanted == name:
            change(data)
        return data

    monkeypatch.setattr(sources_support, "specimen", answer)


def test_a_lone_surrogate_from_orcid_is_replaced_and_reported(
        environment: dict[str, str], services: ServicesServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(data: Any) -> None:
        data["bulk"][0]["work"]["title"]["title"]["value"] = "FLAT\ud800"

    _with_a_lone_surrogate(monkeypatch, "qian.orcid-bulk.json", broken)
    out = tmp_path / "orcid.json"
    result = fetch(environment, "orcid:0000-0002-1825-0097", "-o", str(out))
    assert result.exit_code == 3, result.output
    assert items(out)[0]["title"] == "FLAT\ufffd"
    url = f"{services.url}/orcid/v3.0/0000-0002-1825-0097/works/310001,310003,310004,310005,310006"
    assert (f"{url}: warning: field 'bulk[0].work.title.title.value' held a lone surrogate "
            "(half of a UTF-16 pair, which no file can hold): replaced by U+FFFD"
            ) in result.stderr.splitlines()


def test_a_lone_surrogate_from_openalex_is_replaced_and_reported(
        environment: dict[str, str], services: ServicesServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(data: Any) -> None:
        data["results"][0]["title"] = "FLAT\ud800"

    _with_a_lone_surrogate(monkeypatch, "qian.openalex.json", broken)
    out = tmp_path / "openalex.json"
    result = fetch(environment, "openalex:A5025692314", "-o", str(out))
    assert result.exit_code == 3, result.output
    assert items(out)[0]["title"] == "FLAT\ufffd"
    assert (f"{services.url}/openalex/works: warning: field 'results[0].title' held a lone "
            "surrogate (half of a UTF-16 pair, which no file can hold): replaced by U+FFFD"
            ) in result.stderr.splitlines()
