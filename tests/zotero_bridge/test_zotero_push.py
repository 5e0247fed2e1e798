"""``refbridge push``: records into the Zotero desktop (connector) and zotero.org (Web API),
each once, against local fakes that follow Zotero's source."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import SAMPLES, run_cli, running
from zotero_fakes import FakeDesktop, FakeWebAPI, free_port

from refbridge.errors import Diagnostics
from refbridge.runs import ReadOptions
from refbridge.zotero_bridge.address import library_address
from refbridge.zotero_bridge.push import PushOptions, push_inputs

QIAN = str(SAMPLES / "zhengping-qian.profile.txt")
pytestmark = pytest.mark.usefixtures("no_remote_network")


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ZOTERO_API_KEY", raising=False)
    return tmp_path / "cache"


@pytest.fixture
def desktop() -> Iterator[FakeDesktop]:
    with running(FakeDesktop()) as server:
        yield server


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeWebAPI]:
    with running(FakeWebAPI()) as server:
        monkeypatch.setenv("ZOTERO_API_KEY", "WRITEKEY1234")
        yield server




def papers(tmp_path: Path, count: int, name: str = "papers.json") -> str:
    """A CSL-JSON file of ``count`` distinct articles, one DOI each."""
    items = ",\n".join(
        f'{{"id": "p{n}", "type": "article-journal", "title": "Paper number {n}", '
        f'"DOI": "10.5555/p.{n}", "author": [{{"family": "Lovelace", "given": "Ada"}}], '
        f'"issued": {{"date-parts": [[2020]]}}}}' for n in range(count))
    path = tmp_path / name
    path.write_text(f"[\n{items}\n]\n", encoding="utf-8")
    return str(path)


# -- the desktop -------------------------------------------------------------------------------
def test_a_profile_page_goes_into_an_existing_collection(desktop: FakeDesktop) -> None:
    number = desktop.add_collection("Zhengping Qian")
    code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--collection",
                          "Zhengping Qian", "--zotero-url", desktop.url)
    assert (code, stderr) == (0, ("refbridge: push: 14 record(s) to Zotero (My Library: "
                                 "Zhengping Qian): 14 added, 0 already in the library\n"))
    items = list(desktop.libraries[1].items.values())
    collection = desktop.collection_ids[number][1]
    assert len(items) == 14 and all(i["collections"] == [collection] for i in items)
    specdb = next(i for i in items if i["title"].startswith("SpecDB"))
    assert (specdb["itemType"], specdb["repository"], specdb["date"]) == (
        "preprint", "arXiv", "2026")
    assert specdb["tags"] == [{"tag": "cs.DB", "type": 1}, {"tag": "Databases", "type": 1}]
    assert specdb["creators"] == [{"creatorType": "author", "firstName": "Zhengping",
                                   "lastName": "Qian"}]


def test_the_connector_is_spoken_as_zotero_defines_it(desktop: FakeDesktop) -> None:
    desktop.add_collection("Reading")
    run_cli("push", QIAN, "--to", "zotero-desktop", "--collection", "Reading", "--tag", "cv",
        "--zotero-url", desktop.url)
    [save] = desktop.requests("POST", "/connector/saveItems")
    headers, body = save[3], save[4]
    assert headers["X-Zotero-Connector-API-Version"] == "3"
    assert headers["Host"] == desktop.url.removeprefix("http://")
    assert set(body) == {"items", "uri", "sessionID"}
    assert len({item["id"] for item in body["items"]}) == 14  # each filed apart
    [update] = desktop.requests("POST", "/connector/updateSession")
    assert update[4] == {"sessionID": body["sessionID"], "target": "C1", "tags": ["cv"]}
    tags = [t["tag"] for t in desktop.libraries[1].items.popitem()[1]["tags"]]
    assert tags[-1] == "cv"


def test_pushing_again_adds_nothing(desktop: FakeDesktop) -> None:
    run_cli("push", QIAN, "--to", "zotero-desktop", "--zotero-url", desktop.url)
    code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--zotero-url", desktop.url)
    assert code == 0
    assert stderr.endswith(": 0 added, 14 already in the library\n")
    assert len(desktop.libraries[1].items) == 14
    assert len(desktop.requests("POST", "/connector/saveItems")) == 1


def test_zotero_7s_version_does_not_hide_items_the_connector_saved(
        desktop: FakeDesktop) -> None:
    run_cli("push", QIAN, "--to", "zotero-desktop", "--zotero-url", desktop.url)
    assert desktop.libraries[1].version == 0  # the connector did not move it
    run_cli("push", QIAN, "--to", "zotero-desktop", "--zotero-url", desktop.url)
    assert len(desktop.libraries[1].items) == 14
    assert desktop.requests("GET", "/api/users/0/items")[-1][2] == {"format": "json"}


def test_a_dry_run_says_what_it_would_do_and_saves_nothing(desktop: FakeDesktop) -> None:
    key = desktop.add_item("preprint", title="SpecDB: LLM-Generated Customized Databases via "
                     "Feature-Oriented Decomposition", date="2026",
                     creators=[{"creatorType": "author", "firstName": "Zhengping",
                                "lastName": "Qian"}])
    code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--dry-run",
                          "--zotero-url", desktop.url)
    lines = stderr.splitlines()
    assert code == 0
    assert lines[0] == (f"{QIAN}:9: already in the library 'SpecDB: LLM-Generated Customized "
                        f"Databases via Feature-Oriented Decomposition' (item {key}, "
                        "skipped)")
    assert lines[1].startswith(f"{QIAN}:17: would add 'TrainMover")
    assert lines[-1] == ("refbridge: push: dry run, nothing saved: 14 record(s) to Zotero "
                         "(My Library): 13 to add, 1 already in the library")
    assert desktop.requests("POST", "/connector/saveItems") == []


def test_an_unknown_collection_is_refused_with_the_existing_ones(desktop: FakeDesktop) -> None:
    parent = desktop.add_collection("Projects")
    desktop.add_collection("2026", parent=parent)
    desktop.add_collection("Reading")
    code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--collection", "Readings",
                          "--zotero-url", desktop.url)
    assert code == 2
    assert stderr == (
        "refbridge: error: Zotero has no collection 'Readings' (Zotero's connector cannot "
        "create collections: create it in Zotero first, with File → New Collection); its "
        "collections: My Library: Projects; My Library: Projects/2026; My Library: Reading\n")
    assert desktop.requests("POST", "/connector/saveItems") == []


def test_a_nested_collection_is_named_by_its_path(desktop: FakeDesktop) -> None:
    parent = desktop.add_collection("Projects")
    nested = desktop.add_collection("2026", parent=parent)
    code, _, _ = run_cli("push", QIAN, "--to", "zotero-desktop", "--collection", "Projects/2026",
                     "--zotero-url", desktop.url)
    assert code == 0
    [update] = desktop.requests("POST", "/connector/updateSession")
    assert update[4]["target"] == f"C{nested}"


def test_zotero_not_running_is_said_plainly_and_nothing_is_done() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    code, stdout, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--zotero-url", url)
    assert (code, stdout) == (1, "")
    assert stderr.startswith(f"refbridge: error: Zotero is not running at {url} (")
    assert stderr.endswith("): start the Zotero desktop program (version 7 or later) and try "
                           "again, or point --zotero-url at it\n")


def test_an_address_zotero_does_not_answer_for_is_explained(desktop: FakeDesktop) -> None:
    url = desktop.url.replace("127.0.0.1", "127.1")  # the same address, spelled otherwise
    code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--zotero-url", url)
    assert code == 1
    assert "answers only requests addressed to 127.0.0.1 or localhost" in stderr


def test_without_the_local_api_the_push_says_how_to_turn_it_on() -> None:
    with running(FakeDesktop(local_api=False)) as desktop:
        code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop",
                              "--zotero-url", desktop.url)
        assert code == 1
        assert "Settings → Advanced" in stderr and "--allow-duplicates" in stderr
        assert desktop.requests("POST", "/connector/saveItems") == []
        code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--allow-duplicates",
                              "--zotero-url", desktop.url)
        assert code == 0 and len(desktop.libraries[1].items) == 14


def test_update_needs_the_web_api(desktop: FakeDesktop) -> None:
    code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--update",
                          "--zotero-url", desktop.url)
    assert (code, stderr) == (2, ("refbridge: error: --update needs --to zotero-web: Zotero's "
                                 "connector can add items but not change them\n"))


def test_a_read_only_selection_is_explained(desktop: FakeDesktop) -> None:
    desktop.libraries[1].editable = False
    desktop.add_group(2, 77, "Lab")
    desktop.selected = "L1"
    code, _, stderr = run_cli("push", QIAN, "--to", "zotero-desktop", "--allow-duplicates",
                          "--zotero-url", desktop.url)
    assert code == 1 and "read-only" in stderr


# -- zotero.org -----------------------------------------------------------------------------------
def test_a_web_push_creates_items_in_batches_of_fifty(web: FakeWebAPI, tmp_path: Path) -> None:
    code, _, stderr = run_cli("push", papers(tmp_path, 120), "--to", "zotero-web", "--library",
                          "user:1", "--zotero-url", web.url)
    assert (code, stderr) == (0, ("refbridge: push: 120 record(s) to zotero.org (user:1): "
                                 "120 added, 0 already in the library\n"))
    writes = web.requests("POST", "/users/1/items")
    assert sorted(len(w[4]) for w in writes) == [20, 50, 50]
    assert len({w[3]["Zotero-Write-Token"] for w in writes}) == 3
    assert all(w[3]["Zotero-API-Key"] == "WRITEKEY1234" for w in writes)
    assert web.key_in_url == [] and len(web.library().items) == 120


def test_a_web_push_twice_adds_nothing_and_update_updates(web: FakeWebAPI,
                                                          tmp_path: Path) -> None:
    source = papers(tmp_path, 3)
    run_cli("push", source, "--to", "zotero-web", "--library", "user:1", "--zotero-url", web.url)
    code, _, stderr = run_cli("push", source, "--to", "zotero-web", "--library", "user:1",
                          "--zotero-url", web.url)
    assert stderr.endswith(": 0 added, 3 already in the library\n")
    key = next(iter(web.library().items))
    web.edit_item(key, tags=[{"tag": "mine"}])
    retitled = Path(source).read_text(encoding="utf-8").replace("Paper number", "Paper no.")
    Path(source).write_text(retitled, encoding="utf-8")
    code, _, stderr = run_cli("push", source, "--to", "zotero-web", "--library", "user:1",
                          "--update", "--zotero-url", web.url)
    assert (code, stderr.splitlines()[-1]) == (0, ("refbridge: push: 3 record(s) to zotero.org "
                                                  "(user:1): 0 added, 3 updated, 0 already "
                                                  "in the library"))
    assert len(web.library().items) == 3
    item = web.library().items[key]
    assert item["title"].startswith("Paper no. ") and item["tags"] == [{"tag": "mine"}]


def test_a_new_collection_is_created_on_the_web(web: FakeWebAPI, tmp_path: Path) -> None:
    code, _, stderr = run_cli("push", papers(tmp_path, 2), "--to", "zotero-web", "--library",
                          "user:1", "--collection", "Reading", "--zotero-url", web.url)
    assert code == 0
    assert stderr.splitlines()[0] == ("refbridge: created the collection 'Reading' on "
                                      "zotero.org")
    [collection] = web.library().collections
    assert all(i["collections"] == [collection] for i in web.library().items.values())


def test_a_refused_item_is_named_with_its_file_and_line(web: FakeWebAPI,
                                                        tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@book{a,\n  title = {Fine},\n  year = {2001},\n}\n\n"
                   "@book{b,\n  title = {Refused},\n  year = {2002},\n}\n", encoding="utf-8")
    original = FakeWebAPI._problem

    def refuse(self: FakeWebAPI, library: object, data: dict[str, object]) -> object:
        if data.get("title") == "Refused":
            return 400, "'title' is too long"
        return original(self, library, data)  # type: ignore[arg-type]

    FakeWebAPI._problem = refuse  # type: ignore[assignment,method-assign]
    try:
        code, _, stderr = run_cli("push", str(bib), "--to", "zotero-web", "--library", "user:1",
                              "--zotero-url", web.url)
    finally:
        FakeWebAPI._problem = original  # type: ignore[method-assign]
    assert code == 1
    assert stderr.splitlines() == [
        f"{bib}:6: error: Zotero refused 'Refused': 'title' is too long (HTTP 400)",
        ("refbridge: push: 2 record(s) to zotero.org (user:1): 1 added, 0 already in the "
        "library, 1 refused")]


def test_a_missing_api_key_says_where_to_get_one(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    with running(FakeWebAPI()) as web:
        code, _, stderr = run_cli("push", papers(tmp_path, 1), "--to", "zotero-web", "--library",
                              "user:1", "--zotero-url", web.url)
        assert (code, stderr) == (1, ("refbridge: error: set ZOTERO_API_KEY to a Zotero API "
                                     "key with write access to the library (make one at "
                                     "zotero.org/settings/keys)\n"))
        monkeypatch.setenv("ZOTERO_API_KEY", "READKEY12345")
        code, _, stderr = run_cli("push", papers(tmp_path, 1), "--to", "zotero-web", "--library",
                              "user:1", "--zotero-url", web.url)
        assert code == 1 and "Write access denied" in stderr
        assert "zotero.org/settings/keys" in stderr and web.library().items == {}


def test_a_web_library_is_required(web: FakeWebAPI, tmp_path: Path) -> None:
    code, _, stderr = run_cli("push", papers(tmp_path, 1), "--to", "zotero-web",
                          "--zotero-url", web.url)
    assert (code, stderr) == (2, ("refbridge: error: zotero-web needs --library user:ID or "
                                 "group:ID\n"))


def test_the_push_job_reads_its_inputs_and_says_what_it_did(web: FakeWebAPI,
                                                            tmp_path: Path) -> None:
    """``push_inputs`` is the whole command: the inputs read, the records pushed, a line per
    refused record and the summary said."""
    said: list[str] = []
    report = push_inputs([papers(tmp_path, 2)], ReadOptions(),
                         library_address("zotero-web", "user:1", None, web.url), PushOptions(),
                         Diagnostics(), said.append)
    assert report.failed == [] and len(web.library().items) == 2
    assert said == [("refbridge: push: 2 record(s) to zotero.org (user:1): 2 added, 0 already "
                     "in the library")]


def test_a_bib_pushed_and_pulled_back_keeps_its_keys_even_without_a_key_field(
        web: FakeWebAPI, tmp_path: Path) -> None:
    bib = tmp_path / "mine.bib"
    bib.write_text("@article{knuth:lp, title={Literate Programming}, author={Knuth, Donald E.},"
                   " journal={The Computer Journal}, year=1984, fjournal={The Computer "
                   "Journal}}\n@book{lamport94, title={{\\LaTeX}: A Document Preparation "
                   "System}, author={Lamport, Leslie}, publisher={Addison-Wesley}, year=1994}\n",
                   encoding="utf-8")
    code, _, stderr = run_cli("push", str(bib), "--to", "zotero-web", "--library", "user:1",
                              "--zotero-url", web.url)
    assert code == 0, stderr
    for data in web.library().items.values():  # a Zotero whose schema has no citationKey
        assert data.pop("citationKey") in data["extra"]
    out = tmp_path / "back.bib"
    code, _, stderr = run_cli("pull", "--from", "zotero-web", "--library", "user:1",
                              "--zotero-url", web.url, "--to", "bibtex", "-o", str(out))
    assert code == 0, stderr
    text = out.read_text(encoding="utf-8")
    assert sorted(re.findall(r"^@\w+\{([^,]+),", text, re.MULTILINE)) == ["knuth:lp",
                                                                          "lamport94"]
    assert "  fjournal = {The Computer Journal},\n" in text and "refbridge" not in text
