"""``refbridge pull``, libraries as the input of every command, and ``refbridge sync``, against
local fakes of the Zotero desktop and of zotero.org."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from support import run_cli, running
from zotero_fakes import FakeDesktop, FakeWebAPI, free_port

from refbridge.errors import Diagnostics
from refbridge.registry import WriteOptions
from refbridge.zotero_bridge.address import library_address
from refbridge.zotero_bridge.pull import pull

pytestmark = pytest.mark.usefixtures("no_remote_network")

ADA = [{"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"}]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ZOTERO_API_KEY", "WRITEKEY1234")
    return tmp_path / "cache"


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeWebAPI]:
    with running(FakeWebAPI()) as server:
        monkeypatch.setenv("REFBRIDGE_ZOTERO_API", server.url)
        yield server


@pytest.fixture
def desktop(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDesktop]:
    with running(FakeDesktop()) as server:
        monkeypatch.setenv("REFBRIDGE_ZOTERO_DESKTOP", server.url)
        yield server




def fill(web: FakeWebAPI) -> dict[str, str]:
    """A small library: two papers in 'Reading', a book outside it, a note and a PDF."""
    reading = web.add_collection("Reading")
    graphs = web.add_item(title="On Graphs", date="2020", creators=ADA,
                          publicationTitle="Journal of Graphs", collections=[reading])
    engines = web.add_item(title="Analytical Engines", date="1843", creators=ADA,
                           citationKey="lovelace1843", collections=[reading])
    book = web.add_item("book", title="Notes", date="1844", creators=ADA,
                        extra="Citation Key: lovelace-notes")
    web.add_item("note", parentItem=graphs, note="<p>Read twice.</p>")
    web.add_item("attachment", parentItem=graphs, linkMode="imported_file", title="PDF")
    return {"reading": reading, "graphs": graphs, "engines": engines, "book": book}


# -- pull -------------------------------------------------------------------------------------------
def test_pull_a_web_collection_as_csl_json(web: FakeWebAPI) -> None:
    fill(web)
    code, stdout, stderr = run_cli("pull", "--from", "zotero-web", "--library", "user:1",
                               "--collection", "Reading", "--to", "csl-json")
    assert code == 0
    items = json.loads(stdout)
    assert [i["id"] for i in items] == ["lovelace2020graphs", "lovelace1843"]
    assert items[0]["container-title"] == "Journal of Graphs"
    assert items[0]["custom"]["extra"] == {"zotero.notes": "<p>Read twice.</p>"}
    assert stderr.splitlines() == [
        "refbridge: pull: 2 record(s) from zotero-web:user:1/Reading",
        "zotero-web:user:1/Reading: warning: not records, not read: 1 attachment(s)"]


def test_pull_from_the_desktop_uses_the_librarys_keys(desktop: FakeDesktop,
                                                       tmp_path: Path) -> None:
    desktop.add_item(title="Analytical Engines", date="1843", creators=ADA,
                     extra="Citation Key: lovelace1843engines\nSeen at the library.")
    out = tmp_path / "refs.bib"
    code, _, _ = run_cli("pull", "--from", "zotero-desktop", "--to", "bibtex", "-o", str(out))
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("@article{lovelace1843engines,\n")
    assert "note = {Seen at the library.}" in text


def test_every_command_that_reads_takes_a_library(web: FakeWebAPI, desktop: FakeDesktop
                                                  ) -> None:
    keys = fill(web)
    code, stdout, _ = run_cli("check", "zotero-web:user:1/Reading")
    assert code == 4
    assert stdout.splitlines()[0] == (f"zotero-web:user:1/Reading/items/{keys['engines']}: "
                                      "warning: bibtex needs container-title for type "
                                      "article-journal [missing-field]")
    desktop.add_item("book", title="Notes", date="1844", creators=ADA, publisher="Taylor")
    code, stdout, _ = run_cli("format", "zotero-desktop:", "--style", "apa")
    assert (code, stdout) == (0, "Lovelace, A. (1844). Notes. Taylor.\n")
    code, stdout, _ = run_cli("cv", "zotero-desktop:", "--owner", "Ada Lovelace", "--to", "text",
                          "--no-summary")
    assert code == 0 and "Notes" in stdout


def test_the_pull_job_writes_the_library_says_so_and_files_its_keys(web: FakeWebAPI,
                                                                   tmp_path: Path) -> None:
    """``pull`` is the whole command: the library read, the output written, then the key lock
    saved with the keys written, and the count said."""
    fill(web)
    out, lock = tmp_path / "library.bib", tmp_path / "keys.json"
    said: list[str] = []
    written = pull(library_address("zotero-web", "user:1", None), str(out), "bibtex",
                   WriteOptions(), str(lock), Diagnostics(), said.append)
    assert (written, said) == (3, ["refbridge: pull: 3 record(s) from zotero-web:user:1"])
    keys = re.findall(r"^@\w+\{([^,]+),", out.read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(keys) == ["lovelace-notes", "lovelace1843", "lovelace2020graphs"]
    assert set(json.loads(lock.read_text(encoding="utf-8")).values()) == set(keys)


def test_pull_when_zotero_is_not_running(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFBRIDGE_ZOTERO_DESKTOP", f"http://127.0.0.1:{free_port()}")
    code, stdout, stderr = run_cli("pull", "--from", "zotero-desktop", "--to", "bibtex")
    assert (code, stdout) == (1, "")
    assert "Zotero is not running at" in stderr


# -- sync -------------------------------------------------------------------------------------------
def sync(out: Path, *more: str) -> tuple[int, str, str]:
    return run_cli("sync", "--from", "zotero-web", "--library", "user:1", "-o", str(out), *more)


def test_sync_writes_entries_in_key_order_and_a_key_file(web: FakeWebAPI,
                                                         tmp_path: Path) -> None:
    keys = fill(web)
    out = tmp_path / "refs.bib"
    code, _, stderr = sync(out)
    assert (code, stderr) == (0, (f"refbridge: sync: {out}: written, 3 entries (3 added, "
                                 "0 changed, 0 removed)\n"))
    text = out.read_text(encoding="utf-8")
    heads = [line for line in text.splitlines() if line.startswith("@")]
    assert heads == ["@book{lovelace-notes,", "@article{lovelace1843,",
                     "@article{lovelace2020graphs,"]
    saved = json.loads((tmp_path / "refs.bib.keys.json").read_text(encoding="utf-8"))
    assert saved == {"library": "zotero-web:user:1", "keys": dict(sorted({
        keys["graphs"]: "lovelace2020graphs", keys["engines"]: "lovelace1843",
        keys["book"]: "lovelace-notes"}.items()))}
    assert "2026" not in text and "version" not in text  # no stamp of any kind


def test_the_sync_job_files_the_keys_it_made_in_the_key_lock(web: FakeWebAPI,
                                                            tmp_path: Path) -> None:
    """Two items have keys of their own in the library; the key made for the third is filed."""
    from refbridge.keylock import KeyLock
    from refbridge.zotero_bridge.sync import SyncOptions, sync_once

    fill(web)
    out, lock_path = tmp_path / "refs.bib", tmp_path / "keys.json"
    lock = KeyLock.load(str(lock_path))
    sync_once(library_address("zotero-web", "user:1", None), out,
              SyncOptions("bibtex", None, WriteOptions(key_lock=lock)))
    assert "@article{lovelace2020graphs," in out.read_text(encoding="utf-8")
    assert list(json.loads(lock_path.read_text(encoding="utf-8")).values()) == ["lovelace2020graphs"]


def test_a_large_library_is_fetched_fifty_items_a_request(web: FakeWebAPI,
                                                          tmp_path: Path) -> None:
    for number in range(120):
        web.add_item("book", title=f"Book {number}", date="2001", creators=ADA)
    code, _, stderr = sync(tmp_path / "refs.bib")
    assert code == 0
    assert stderr.endswith("written, 120 entries (120 added, 0 changed, 0 removed)\n")
    batches = [len(q["itemKey"].split(",")) for _, _, q, _, _ in web.log if "itemKey" in q]
    assert sorted(batches) == [20, 50, 50]


def test_an_unchanged_library_leaves_the_file_alone(web: FakeWebAPI, tmp_path: Path) -> None:
    fill(web)
    out = tmp_path / "refs.bib"
    sync(out)
    os.utime(out, (1_000_000, 1_000_000))
    before = out.read_bytes()
    asked = len(web.log)
    code, _, stderr = sync(out)
    assert (code, stderr) == (0, f"refbridge: sync: {out}: up to date (3 entries)\n")
    assert out.read_bytes() == before and out.stat().st_mtime == 1_000_000
    [request] = web.log[asked:]
    assert request[3]["If-Modified-Since-Version"] == str(web.library().version)


def test_a_file_edited_by_hand_is_written_again(web: FakeWebAPI, tmp_path: Path) -> None:
    fill(web)
    out = tmp_path / "refs.bib"
    sync(out)
    written = out.read_bytes()
    out.write_text("% my own notes\n", encoding="utf-8")
    code, _, stderr = sync(out)
    assert (code, out.read_bytes()) == (0, written)
    assert stderr.endswith("written, 3 entries (0 added, 0 changed, 0 removed)\n")


def test_only_what_changed_is_fetched_and_keys_stay(web: FakeWebAPI, tmp_path: Path) -> None:
    keys = fill(web)
    out = tmp_path / "refs.bib"
    sync(out)
    web.edit_item(keys["graphs"], title="Graphs Revisited")
    web.delete_item(keys["book"])
    asked = len(web.log)
    _code, _, stderr = sync(out)
    assert stderr == (f"refbridge: sync: {out}: written, 2 entries (0 added, 1 changed, "
                      "1 removed)\n")
    fetched = [q["itemKey"] for _, _, q, _, _ in web.log[asked:] if "itemKey" in q]
    assert fetched == [keys["graphs"]]
    assert [q.get("since") for _, p, q, _, _ in web.log[asked:] if p.endswith("/deleted")] \
        == [str(web.library().version - 2)]
    text = out.read_text(encoding="utf-8")
    assert "@article{lovelace2020graphs," in text and "Graphs Revisited" in text
    assert "lovelace-notes" not in text


def test_the_same_library_gives_the_same_bytes_anywhere(web: FakeWebAPI, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    fill(web)
    first, second = tmp_path / "a" / "refs.bib", tmp_path / "b" / "refs.bib"
    first.parent.mkdir()
    second.parent.mkdir()
    sync(first)
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(tmp_path / "other-machine"))
    sync(second)
    assert first.read_bytes() == second.read_bytes()


def test_a_collection_sync_drops_what_left_the_collection(web: FakeWebAPI,
                                                          tmp_path: Path) -> None:
    keys = fill(web)
    out = tmp_path / "reading.bib"
    sync(out, "--collection", "Reading")
    web.edit_item(keys["engines"], collections=[])
    _code, _, stderr = sync(out, "--collection", "Reading")
    assert stderr.endswith("written, 1 entries (0 added, 0 changed, 1 removed)\n")
    assert "lovelace1843" not in out.read_text(encoding="utf-8")


def test_zotero_7_desktop_items_saved_by_the_connector_reach_the_file(
        desktop: FakeDesktop, tmp_path: Path) -> None:
    desktop.add_item("book", title="Notes", date="1844", creators=ADA)
    out = tmp_path / "refs.bib"
    assert run_cli("sync", "--from", "zotero-desktop", "-o", str(out))[0] == 0
    desktop.add_item("book", title="Sketch of the Analytical Engine", date="1842",
                     creators=ADA)  # version 0, the library's version unchanged
    _code, _, stderr = run_cli("sync", "--from", "zotero-desktop", "-o", str(out))
    assert stderr.endswith("written, 2 entries (1 added, 0 changed, 0 removed)\n")
    assert "@book{lovelace1842sketch," in out.read_text(encoding="utf-8")


def test_a_newer_desktop_is_read_by_version(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    with running(FakeDesktop(local_versions=True)) as desktop:
        monkeypatch.setenv("REFBRIDGE_ZOTERO_DESKTOP", desktop.url)
        desktop.add_item("book", title="Notes", date="1844", creators=ADA)
        out = tmp_path / "refs.bib"
        run_cli("sync", "--from", "zotero-desktop", "-o", str(out))
        desktop.add_item("book", title="Sketch", date="1842", creators=ADA)
        asked = len(desktop.log)
        run_cli("sync", "--from", "zotero-desktop", "-o", str(out))
        reads = [q for m, p, q, _, _ in desktop.log[asked:] if p == "/api/users/0/items"]
        assert [q.get("format") for q in reads] == ["versions", "json"]
        assert len(reads[1]["itemKey"].split(",")) == 1


def test_sync_keeps_only_formats_whose_entries_stand_alone(web: FakeWebAPI,
                                                           tmp_path: Path) -> None:
    code, _, stderr = sync(tmp_path / "refs.rdf", "--to", "zotero")
    assert (code, stderr) == (2, ("refbridge: error: sync writes formats whose entries stand "
                                 "alone (bibtex, biblatex, csl-json, ris), not zotero\n"))


def test_watch_syncs_until_interrupted(web: FakeWebAPI, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    keys = fill(web)
    naps: list[float] = []

    def nap(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 1:
            web.edit_item(keys["graphs"], title="Graphs Revisited")
        else:
            raise KeyboardInterrupt

    # (the sync module's own time, not the time module every thread shares)
    monkeypatch.setattr("refbridge.zotero_bridge.sync.time", SimpleNamespace(sleep=nap))
    out = tmp_path / "refs.bib"
    code, _, stderr = sync(out, "--watch", "5")
    assert (code, naps) == (0, [5.0, 5.0])
    assert stderr.splitlines() == [
        f"refbridge: sync: {out}: written, 3 entries (3 added, 0 changed, 0 removed)",
        f"refbridge: sync: {out}: written, 3 entries (0 added, 1 changed, 0 removed)",
        "refbridge: sync: stopped"]


def test_a_lone_surrogate_in_an_item_is_replaced_and_later_syncs_still_write(
        web: FakeWebAPI, tmp_path: Path) -> None:
    key = web.add_item(title="On Graphs \ud800", date="2020", creators=ADA)
    out = tmp_path / "refs.bib"
    code, _, stderr = sync(out)
    assert code == 3
    assert (f"zotero-web:user:1/items/{key}: warning: record {key!r}: field 'title' held a "
            "lone surrogate (half of a UTF-16 pair, which no file can hold): replaced by "
            "U+FFFD\n") in stderr
    assert "title = {On Graphs \ufffd}" in out.read_text(encoding="utf-8")
    web.add_item("book", title="Notes", date="1844", creators=ADA)
    code, _, stderr = sync(out)
    assert (code, stderr.splitlines()[-1]) == (0, (f"refbridge: sync: {out}: written, 2 "
                                               "entries (1 added, 0 changed, 0 removed)"))
    web.edit_item(key, title="On Graphs")
    assert sync(out)[0] == 0
    assert "title = {On Graphs}" in out.read_text(encoding="utf-8")


def test_a_title_with_lone_carriage_returns_syncs_to_one_ris_record(web: FakeWebAPI,
                                                                    tmp_path: Path) -> None:
    title = "Victim\rER  - \r\rTY  - JOUR\rTI  - INJECTED\rUR  - http://evil.example/"
    web.add_item(title=title, date="2020", creators=ADA)
    out = tmp_path / "refs.ris"
    assert sync(out, "--to", "ris")[0] == 0
    lines = out.read_bytes().decode("utf-8").splitlines()
    assert [line for line in lines if line.startswith(("TY  - ", "ER  - "))] == \
        ["TY  - JOUR", "ER  - "]
    assert not any(line.startswith(("TI  - INJECTED", "UR  - ")) for line in lines)
