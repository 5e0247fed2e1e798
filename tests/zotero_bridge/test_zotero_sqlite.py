"""Reading a Zotero library from ``zotero.sqlite`` (``zotero-sqlite:``), with databases built at
test time from Zotero's own schema (``../shared/zotero-db``, ``../shared/schemas``; see
``zotero_db_support``)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import run_cli, running
from zotero_db_support import ZoteroDb, better_bibtex_db
from zotero_fakes import FakeDesktop, item_data

from refbridge.errors import Diagnostics
from refbridge.formats.zotero.items import records_of_items
from refbridge.model import Record
from refbridge.zotero_bridge.address import DatabaseAddress, parse_address, source_address
from refbridge.zotero_bridge.datadir import data_dir_of_prefs, default_data_dir
from refbridge.zotero_bridge.dbmirror import DatabaseMirror
from refbridge.zotero_bridge.pull import database_records
from refbridge.zotero_bridge.sqlite import open_database

NOT_RECORDS = {"note", "attachment", "annotation"}


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def zotero(shared_dir: Path, tmp_path: Path) -> Iterator[ZoteroDb]:
    """An empty Zotero database, as the desktop creates it, in a data directory."""
    folder = tmp_path / "Zotero"
    folder.mkdir()
    database = ZoteroDb(folder / "zotero.sqlite", shared_dir)
    yield database
    database.db.close()


def read(path: Path, library: str | None = None, collection: str | None = None
         ) -> tuple[list[Record], Diagnostics]:
    diagnostics = Diagnostics()
    records = list(database_records(DatabaseAddress(path, library, collection), diagnostics))
    return records, diagnostics


def items_json(path: Path, library: str | None = None) -> list[dict[str, Any]]:
    with open_database(path, Diagnostics()) as database:
        scope = database.scope(library, None)
        return database.items(scope, [s.item_id for s in database.stamps(scope).values()])


def ada(zotero: ZoteroDb, **fields: str) -> int:
    return zotero.add_item("journalArticle", {"title": "On Graphs", "date": "2020",
                                              "publicationTitle": "Journal of Graphs", **fields},
                           [("author", "Ada", "Lovelace")])


# -- every item type, mapped as pull maps the APIs' items -------------------------------------
def schema_types(shared: Path) -> list[dict[str, Any]]:
    schema = json.loads((shared / "schemas" / "zotero-schema.json").read_text("utf-8"))
    return [t for t in schema["itemTypes"] if t["itemType"] not in NOT_RECORDS]


def title_and_other(item_type: dict[str, Any]) -> tuple[str, str]:
    """The type's title field (``title`` or a field based on it) and the field after it."""
    names = [(f["field"], f.get("baseField")) for f in item_type["fields"]]
    title = next(name for name, base in names if "title" in (name, base))
    other = next(name for name, _ in names
                 if name not in (title, "abstractNote", "citationKey", "extra"))
    return title, other


def test_every_item_type_of_zoteros_schema_reads_as_its_api_item_does(
        zotero: ZoteroDb, shared_dir: Path) -> None:
    types = schema_types(shared_dir)
    expected: list[dict[str, Any]] = []
    for number, item_type in enumerate(types):
        title, other = title_and_other(item_type)
        fields = {title: f"A {item_type['itemType']} (Ærø)",
                  other: f"{2000 + number}-05-01" if other == "date" else f"{other} {number}"}
        item = zotero.add_item(item_type["itemType"], fields,
                               added=f"2024-05-01 09:{number // 60:02d}:{number % 60:02d}")
        expected.append(item_data(item_type["itemType"], zotero.key_of(item), number + 1,
                                  **fields, dateAdded=f"2024-05-01T09:{number // 60:02d}:"
                                                      f"{number % 60:02d}Z"))
    zotero.close()
    records, diagnostics = read(zotero.path)
    from_api = [r for _, r in records_of_items(expected, f"zotero-sqlite:{zotero.path}",
                                               Diagnostics())]
    assert len(records) == len(types) > 30
    assert records == from_api
    assert [str(r.fields["title"]) for r in records] == [
        f"A {t['itemType']} (Ærø)" for t in types]
    assert diagnostics.messages == []


def test_the_same_library_pulls_the_same_from_the_file_and_the_local_api(
        zotero: ZoteroDb, monkeypatch: pytest.MonkeyPatch) -> None:
    book = {"title": "Sketch of the Analytical Engine", "date": "1843-10", "publisher": "Taylor",
            "extra": "Citation Key: menabrea1843"}
    paper = {"title": "On Graphs", "date": "2020", "publicationTitle": "Journal of Graphs",
             "DOI": "10.1000/graphs"}
    engines = zotero.add_item("book", book, [("author", "Luigi", "Menabrea"),
                                             ("translator", "Ada", "Lovelace")],
                              ["engines", "history"], added="2024-05-01 09:00:00")
    graphs = zotero.add_item("journalArticle", paper, [("author", "Ada", "Lovelace")],
                             added="2024-05-01 09:30:00")
    zotero.add_note(graphs, "<p>Read twice.</p>")
    zotero.close()
    with running(FakeDesktop()) as desktop:  # the same library, as Zotero's local API has it
        monkeypatch.setenv("REFBRIDGE_ZOTERO_DESKTOP", desktop.url)
        desktop.add_item("book", **book, dateAdded="2024-05-01T09:00:00Z", creators=[
            {"creatorType": "author", "firstName": "Luigi", "lastName": "Menabrea"},
            {"creatorType": "translator", "firstName": "Ada", "lastName": "Lovelace"}],
            tags=[{"tag": "engines"}, {"tag": "history"}])
        parent = desktop.add_item("journalArticle", **paper, dateAdded="2024-05-01T09:30:00Z",
                                  creators=[{"creatorType": "author", "firstName": "Ada",
                                             "lastName": "Lovelace"}])
        desktop.add_item("note", parentItem=parent, note="<p>Read twice.</p>")
        code, from_api, _ = run_cli("pull", "--from", "zotero-desktop", "--to", "biblatex")
    assert code == 0
    code, from_file, stderr = run_cli("pull", "--from", f"zotero-sqlite:{zotero.path}",
                                      "--to", "biblatex")
    assert code == 0 and from_file == from_api
    assert "@book{menabrea1843," in from_file and zotero.key_of(engines) not in from_file
    assert stderr == f"refbridge: pull: 2 record(s) from zotero-sqlite:{zotero.path}\n"


def test_items_are_the_web_apis_json(zotero: ZoteroDb) -> None:
    item = zotero.add_item(
        "journalArticle", {"title": "Über Graphen", "date": "March 2019",
                           "accessDate": "2024-01-02 03:04:05"},
        [("author", "Antonín", "Dvořák"), ("editor", "Royal Society")],
        ["物理", ("automatic", 1)])
    zotero.relate(item, "dc:relation", "http://zotero.org/users/1/items/ABCD2345")
    zotero.relate(item, "dc:relation", "http://zotero.org/users/1/items/ABCD3456")
    zotero.relate(item, "owl:sameAs", "http://zotero.org/groups/2/items/ABCD4567")
    zotero.close()
    [data] = items_json(zotero.path)
    assert data == {
        "key": zotero.key_of(item), "version": 1, "itemType": "journalArticle",
        "dateAdded": "2024-05-01T09:30:00Z", "dateModified": "2024-05-01T09:30:00Z",
        "title": "Über Graphen", "date": "March 2019", "accessDate": "2024-01-02T03:04:05Z",
        "creators": [{"creatorType": "author", "firstName": "Antonín", "lastName": "Dvořák"},
                     {"creatorType": "editor", "name": "Royal Society"}],
        "tags": [{"tag": "automatic", "type": 1}, {"tag": "物理"}],
        "collections": [],
        "relations": {"dc:relation": ["http://zotero.org/users/1/items/ABCD2345",
                                      "http://zotero.org/users/1/items/ABCD3456"],
                      "owl:sameAs": "http://zotero.org/groups/2/items/ABCD4567"}}


def test_non_ascii_text_reaches_the_record(zotero: ZoteroDb) -> None:
    zotero.add_item("book", {"title": "Über die Elektrodynamik — 電磁気学"},
                    [("author", "Antonín", "Dvořák")], ["物理"])
    zotero.close()
    [record], _ = read(zotero.path)
    assert str(record.fields["title"]) == "Über die Elektrodynamik — 電磁気学"
    assert [(n.family, n.given) for n in record.names["author"]] == [("Dvořák", "Antonín")]
    assert record.keywords == ("物理",)


# -- libraries, collections, trash, children --------------------------------------------------
def test_a_group_library_is_named_by_its_name_or_id(zotero: ZoteroDb) -> None:
    ada(zotero)
    lab = zotero.add_group("Graph Lab", 4711)
    zotero.add_item("book", {"title": "Lab Handbook", "date": "2023"}, library=lab)
    zotero.close()
    for library in ("group:Graph Lab", "group:4711", "group:graph lab"):
        records, _ = read(zotero.path, library)
        assert [str(r.fields["title"]) for r in records] == ["Lab Handbook"], library
    [own], _ = read(zotero.path)
    assert str(own.fields["title"]) == "On Graphs"


def test_an_unknown_group_is_an_error_listing_the_groups(zotero: ZoteroDb) -> None:
    zotero.add_group("Graph Lab", 4711)
    zotero.close()
    code, _, stderr = run_cli("pull", "--from", f"zotero-sqlite:{zotero.path}", "--library",
                              "group:Chemistry", "--to", "bibtex")
    assert code == 2
    assert stderr == (f"refbridge: error: {zotero.path} has no group 'Chemistry'; its groups: "
                      "Graph Lab (4711)\n")


def test_nested_collections_by_name_or_path(zotero: ZoteroDb,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    projects = zotero.add_collection("Projects")
    year = zotero.add_collection("2026", projects)
    zotero.add_collection("2026")  # the same name at the top
    zotero.add_item("book", {"title": "In Projects"}, collections=[projects])
    zotero.add_item("book", {"title": "In Projects/2026"}, collections=[year])
    zotero.close()
    records, _ = read(zotero.path, None, "Projects/2026")
    assert [str(r.fields["title"]) for r in records] == ["In Projects/2026"]
    records, _ = read(zotero.path, None, "Projects")
    assert [str(r.fields["title"]) for r in records] == ["In Projects"]
    monkeypatch.setenv("REFBRIDGE_ZOTERO_DATA_DIR", str(zotero.path.parent))
    code, stdout, stderr = run_cli("pull", "--from", "zotero-sqlite", "--collection", "2026",
                                   "--to", "bibtex")
    assert (code, stdout) == (2, "")
    assert stderr == (f"refbridge: error: --collection '2026' names 2 collections in "
                      f"{zotero.path} (user) (2026; Projects/2026): give its path from the "
                      "top, e.g. '/2026'\n")
    records, _ = read(zotero.path, None, "/2026")
    assert records == []  # the top collection 2026, which is empty


def test_a_collection_address_as_the_input_of_convert(zotero: ZoteroDb) -> None:
    projects = zotero.add_collection("Projects")
    year = zotero.add_collection("2026", projects)
    lab = zotero.add_group("Graph Lab", 4711)
    reading = zotero.add_collection("Reading", library=lab)
    zotero.add_item("book", {"title": "In 2026"}, collections=[year])
    zotero.add_item("book", {"title": "Lab Reading"}, library=lab, collections=[reading])
    zotero.close()
    code, stdout, _ = run_cli("convert", f"zotero-sqlite:{zotero.path}/Projects/2026",
                              "--to", "csl-json")
    assert code == 0 and [i["title"] for i in json.loads(stdout)] == ["In 2026"]
    code, stdout, _ = run_cli("convert", f"zotero-sqlite:{zotero.path}/group:Graph Lab/Reading",
                              "--to", "csl-json")
    assert code == 0 and [i["title"] for i in json.loads(stdout)] == ["Lab Reading"]


def test_format_and_cv_read_a_database(zotero: ZoteroDb) -> None:
    zotero.add_item("book", {"title": "Notes", "date": "1844", "publisher": "Taylor"},
                    [("author", "Ada", "Lovelace")])
    zotero.close()
    code, stdout, _ = run_cli("format", f"zotero-sqlite:{zotero.path}", "--style", "apa")
    assert (code, stdout) == (0, "Lovelace, A. (1844). Notes. Taylor.\n")
    code, stdout, _ = run_cli("cv", f"zotero-sqlite:{zotero.path.parent}", "--owner",
                              "Ada Lovelace", "--to", "text", "--no-summary")
    assert code == 0 and "Notes" in stdout


def test_trashed_items_and_their_children_are_left_out(zotero: ZoteroDb) -> None:
    ada(zotero)
    gone = zotero.add_item("book", {"title": "Thrown Away"})
    zotero.add_note(gone, "<p>A note on a trashed book.</p>")
    kept = zotero.add_item("book", {"title": "Kept"})
    zotero.trash(zotero.add_note(kept, "<p>A trashed note.</p>"))
    zotero.trash(gone)
    zotero.close()
    records, diagnostics = read(zotero.path)
    assert [str(r.fields["title"]) for r in records] == ["On Graphs", "Kept"]
    assert records[1].extra == {}
    assert diagnostics.messages == []


def test_child_notes_and_files_go_with_their_item(zotero: ZoteroDb) -> None:
    graphs = ada(zotero)
    zotero.add_note(graphs, "<p>Read twice.</p>")
    pdf = zotero.add_attachment(graphs, "Full Text PDF", "storage:Lovelace - 2020.pdf",
                                "application/pdf")
    link = zotero.add_attachment(graphs, "Data", "/home/ada/data.csv", "text/csv",
                                 link_mode=2)
    zotero.add_attachment(graphs, "Publisher page", "", "text/html", link_mode=3)
    zotero.add_note(None, "<p>A standalone note.</p>")
    zotero.close()
    [record], diagnostics = read(zotero.path)
    storage = zotero.path.parent / "storage" / zotero.key_of(pdf)
    assert record.extra == {
        "zotero.notes": "<p>Read twice.</p>",
        "bibtex.file": (f"Full Text PDF:{storage}/Lovelace - 2020.pdf:application/pdf;"
                        "Data:/home/ada/data.csv:text/csv")}
    assert [str(m) for m in diagnostics.messages] == [
        (f"zotero-sqlite:{zotero.path}: warning: not records, not read: 1 attachment(s), "
        "1 standalone note(s)")]
    attachments = {d["key"]: d for d in items_json(zotero.path) if d["itemType"] == "attachment"}
    assert {k: (d["linkMode"], d["contentType"], d.get("filename"), d.get("path"), d["title"],
                d["parentItem"]) for k, d in attachments.items()
            if d["linkMode"] != "linked_url"} == {
        zotero.key_of(pdf): ("imported_file", "application/pdf", "Lovelace - 2020.pdf", None,
                             "Full Text PDF", zotero.key_of(graphs)),
        zotero.key_of(link): ("linked_file", "text/csv", None, "/home/ada/data.csv", "Data",
                              zotero.key_of(graphs))}


def test_a_bib_of_a_database_lists_each_items_files(zotero: ZoteroDb) -> None:
    graphs = ada(zotero)
    zotero.add_attachment(graphs, "Scan", r"C:\Users\ada\scan; 2.pdf", "application/pdf",
                          link_mode=2)
    zotero.close()
    code, stdout, _ = run_cli("convert", f"zotero-sqlite:{zotero.path}", "--to", "bibtex")
    assert code == 0
    assert [line for line in stdout.splitlines() if line.startswith("  file")] == [
        r"  file = {Scan:C\:\\Users\\ada\\scan\; 2.pdf:application/pdf},"]


# -- citation keys ----------------------------------------------------------------------------
def test_better_bibtex_keys_come_from_its_database(zotero: ZoteroDb) -> None:
    graphs = ada(zotero)
    plain = zotero.add_item("book", {"title": "Notes", "date": "1844"},
                            [("author", "Ada", "Lovelace")])
    zotero.close()
    better_bibtex_db(zotero.path.with_name("better-bibtex.sqlite"),
                     {zotero.key_of(graphs): "lovelaceGraphs2020"})
    records, _ = read(zotero.path)
    assert [r.citation_key for r in records] == ["lovelaceGraphs2020", None]
    assert records[1].id == zotero.key_of(plain)


def test_better_bibtex_keys_of_its_older_citekeys_table(zotero: ZoteroDb) -> None:
    graphs = ada(zotero)
    zotero.close()
    better_bibtex_db(zotero.path.with_name("better-bibtex.sqlite"),
                     {zotero.key_of(graphs): "lovelace_graphs"}, table="citekeys")
    [record], _ = read(zotero.path)
    assert record.citation_key == "lovelace_graphs"


def test_a_key_pinned_in_extra_and_the_native_field(zotero: ZoteroDb) -> None:
    ada(zotero, extra="Citation Key: lovelace2020\nRead at the British Library.")
    zotero.add_item("book", {"title": "Notes", "citationKey": "lovelace1844notes"})
    zotero.close()
    records, _ = read(zotero.path)
    assert [r.citation_key for r in records] == ["lovelace2020", "lovelace1844notes"]
    assert str(records[0].fields["note"]) == "Read at the British Library."


def test_zoteros_own_key_field_wins_over_better_bibtex(zotero: ZoteroDb) -> None:
    book = zotero.add_item("book", {"title": "Notes", "citationKey": "lovelace1844notes"})
    zotero.close()
    better_bibtex_db(zotero.path.with_name("better-bibtex.sqlite"),
                     {zotero.key_of(book): "Lovelace1844"})
    [record], _ = read(zotero.path)
    assert record.citation_key == "lovelace1844notes"


# -- the database file: where it is, never written, read while Zotero writes ------------------
def test_the_default_database_is_in_the_data_directory(zotero: ZoteroDb,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    ada(zotero)
    zotero.close()
    monkeypatch.setenv("REFBRIDGE_ZOTERO_DATA_DIR", str(zotero.path.parent))
    code, stdout, _ = run_cli("convert", "zotero-sqlite:", "--to", "csl-json")
    assert code == 0 and json.loads(stdout)[0]["title"] == "On Graphs"


def test_the_data_directory_of_zoteros_prefs(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "D" / "Zotero Data"
    elsewhere.mkdir(parents=True)
    (elsewhere / "zotero.sqlite").write_bytes(b"")
    profile = tmp_path / "home" / ".zotero" / "zotero" / "x1y2z3.default"
    profile.mkdir(parents=True)
    (profile / "prefs.js").write_text(
        'user_pref("extensions.zotero.dataDir", "' + str(elsewhere).replace("\\", "\\\\")
        + '");\nuser_pref("extensions.zotero.useDataDir", true);\n', "utf-8")
    monkeypatch.delenv("REFBRIDGE_ZOTERO_DATA_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(sys, "platform", "linux")
    assert default_data_dir() == elsewhere
    (profile / "prefs.js").write_text('user_pref("extensions.zotero.useDataDir", false);\n')
    assert default_data_dir() == tmp_path / "home" / "Zotero"


def test_prefs_strings_are_javascript_strings() -> None:
    assert data_dir_of_prefs('user_pref("extensions.zotero.dataDir", "C:\\\\Users\\\\ada\\\\'
                             'Zotero");\nuser_pref("extensions.zotero.useDataDir", true);') \
        == Path("C:\\Users\\ada\\Zotero")


def test_addresses_of_a_database() -> None:
    home = Path.home()
    assert parse_address("zotero-sqlite:~/Zotero/zotero.sqlite") == \
        DatabaseAddress(home / "Zotero" / "zotero.sqlite", None, None)
    assert parse_address("zotero-sqlite:/data/zotero.sqlite/Projects/2026") == \
        DatabaseAddress(Path("/data/zotero.sqlite"), None, "Projects/2026")
    assert parse_address("zotero-sqlite:/data/zotero.sqlite/group:Graph Lab/Reading") == \
        DatabaseAddress(Path("/data/zotero.sqlite"), "group:Graph Lab", "Reading")
    assert source_address("zotero-sqlite:/data/zotero.sqlite", "group:4711", "Reading") == \
        DatabaseAddress(Path("/data/zotero.sqlite"), "group:4711", "Reading")


def test_reading_never_changes_the_database(zotero: ZoteroDb) -> None:
    ada(zotero)
    zotero.close()
    before = (zotero.path.read_bytes(), zotero.path.stat().st_mtime_ns)
    read(zotero.path)
    assert (zotero.path.read_bytes(), zotero.path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in zotero.path.parent.iterdir()) == ["zotero.sqlite"]


WRITER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
if sys.argv[2] == "exclusive":
    db.execute("PRAGMA locking_mode = EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE" if sys.argv[2] == "exclusive" else "BEGIN IMMEDIATE")
db.execute("UPDATE itemDataValues SET value = 'Changed, not committed' "
           "WHERE value = 'On Graphs'")
print("holding", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
print("committed", flush=True)
"""


@pytest.mark.parametrize("mode", ["immediate", "exclusive"])
def test_a_database_zotero_is_writing_is_read_without_blocking_it(zotero: ZoteroDb,
                                                                  mode: str) -> None:
    ada(zotero)
    zotero.close()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(zotero.path), mode],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline() == "holding\n"
        if mode == "exclusive":  # as Zotero holds it: a plain read-only open is refused
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                sqlite3.connect(f"file:{zotero.path}?mode=ro", uri=True, timeout=0).execute(
                    "SELECT count(*) FROM items").fetchone()
        [record], _ = read(zotero.path)
        assert str(record.fields["title"]) == "On Graphs"  # the last committed state
        writer.stdin.write("\n")
        writer.stdin.flush()
        assert writer.stdout.readline() == "committed\n"  # refbridge held no lock
    finally:
        writer.kill()
        writer.wait()
    [record], _ = read(zotero.path)
    assert str(record.fields["title"]) == "Changed, not committed"


SPILLING_WRITER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
db.execute("PRAGMA cache_size = 2")  # changed pages go to the file before the commit
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE itemDataValues SET value = 'Not committed: ' || value")
print("holding", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
"""


def test_a_write_that_already_reached_the_file_is_not_read(zotero: ZoteroDb) -> None:
    for number in range(400):
        zotero.add_item("book", {"title": f"Book {number}", "abstractNote": "An abstract. " * 60})
    zotero.close()
    writer = subprocess.Popen([sys.executable, "-c", SPILLING_WRITER, str(zotero.path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline() == "holding\n"
        assert zotero.path.with_name("zotero.sqlite-journal").stat().st_size > 0  # a hot one
        live = sqlite3.connect(f"file:{zotero.path}?mode=ro&immutable=1", uri=True)
        [(seen,)] = live.execute("SELECT count(*) FROM itemDataValues "
                                 "WHERE value LIKE 'Not committed: %'").fetchall()
        live.close()
        assert seen > 0  # what reading the live file unlocked (immutable=1) would have given
        records, _ = read(zotero.path)  # the copy's journal rolled back: the committed state
        assert [str(r.fields["title"]) for r in records] == [f"Book {n}" for n in range(400)]
        writer.stdin.write("\n")
        writer.stdin.flush()
    finally:
        writer.wait(timeout=10)


def test_changes_committed_to_a_write_ahead_log_are_read(zotero: ZoteroDb) -> None:
    ada(zotero)
    zotero.close()
    writer = sqlite3.connect(zotero.path, isolation_level=None)
    try:
        assert writer.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE itemDataValues SET value = 'On Graphs, Revised' "
                       "WHERE value = 'On Graphs'")
        assert zotero.path.with_name("zotero.sqlite-wal").stat().st_size > 0
        [record], _ = read(zotero.path)
        assert str(record.fields["title"]) == "On Graphs, Revised"
    finally:
        writer.close()


# -- schemas and files refbridge cannot read --------------------------------------------------
def test_a_newer_schema_is_read_with_a_warning(shared_dir: Path, tmp_path: Path) -> None:
    newer = ZoteroDb(tmp_path / "zotero.sqlite", shared_dir, userdata_version=140)
    newer.add_item("book", {"title": "From the Future"})
    newer.db.execute("DROP TABLE itemRelations")
    newer.close()
    [record], diagnostics = read(newer.path)
    assert str(record.fields["title"]) == "From the Future"
    assert [str(m) for m in diagnostics.messages] == [
        (f"{newer.path}: warning: userdata schema 140 is newer than the ones refbridge knows "
        "(80 to 129): read as far as its tables allow"),
        f"{newer.path}: warning: relations not read: this database has no itemRelations table"]


def test_the_zotero_4_database_of_zoteros_tests_is_refused_by_name(shared_dir: Path,
                                                                  tmp_path: Path) -> None:
    with zipfile.ZipFile(shared_dir / "zotero-db" / "zotero-4.0.sqlite.zip") as archive:
        archive.extractall(tmp_path)
    path = tmp_path / "zotero.sqlite"
    code, stdout, stderr = run_cli("pull", "--from", f"zotero-sqlite:{path}", "--to", "bibtex")
    assert (code, stdout) == (1, "")
    assert stderr == (f"refbridge: error: {path}: a Zotero 4 database (userdata schema 77): "
                      "refbridge reads the databases of Zotero 5 and later; open it once in a "
                      "current Zotero, which upgrades it, and read it again\n")


@pytest.mark.parametrize(("content", "says"), [
    (b"%PDF-1.7\n", ("not a Zotero database: not a SQLite database (another kind of file, or "
                    "an encrypted database)")),
    (bytes(range(256)) * 64, ("not a Zotero database: not a SQLite database (another kind of "
                             "file, or an encrypted database)")),
])
def test_a_file_that_is_not_a_database_is_an_error_naming_it(tmp_path: Path, content: bytes,
                                                             says: str) -> None:
    path = tmp_path / "zotero.sqlite"
    path.write_bytes(content)
    code, _, stderr = run_cli("convert", f"zotero-sqlite:{path}", "--to", "bibtex")
    assert (code, stderr) == (1, f"refbridge: error: {path}: {says}\n")


def test_a_damaged_database_is_an_error_naming_it(zotero: ZoteroDb) -> None:
    for number in range(300):
        ada(zotero, extra=f"Padding {number} " * 40)
    zotero.close()
    data = bytearray(zotero.path.read_bytes())
    data[4096:len(data) - 4096] = b"\xff" * (len(data) - 8192)
    zotero.path.write_bytes(bytes(data))
    code, _, stderr = run_cli("pull", "--from", f"zotero-sqlite:{zotero.path}", "--to", "ris")
    assert code == 1
    assert stderr == (f"refbridge: error: {zotero.path}: cannot be read as a Zotero database: "
                      "database disk image is malformed (a damaged or encrypted file)\n")


def test_a_sqlite_file_that_is_not_zoteros(tmp_path: Path) -> None:
    path = tmp_path / "places.sqlite"
    sqlite3.connect(path).executescript("CREATE TABLE moz_places (id INTEGER PRIMARY KEY);")
    code, _, stderr = run_cli("pull", "--from", f"zotero-sqlite:{path}", "--to", "bibtex")
    assert (code, stderr) == (1, (f"refbridge: error: {path}: not a Zotero database (it has no "
                                 "creatorTypes, creators, itemCreators, itemData, "
                                 "itemDataValues, items, libraries, version table)\n"))


def test_a_damaged_table_name_that_is_not_utf8_is_an_error_naming_the_database(
        tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    sqlite3.connect(path).executescript("CREATE TABLE items (itemID INTEGER PRIMARY KEY);")
    # the name in sqlite_master damaged, not the CREATE statement: SQLite's message about the
    # mismatch quotes the name, which is not UTF-8
    path.write_bytes(path.read_bytes().replace(b"tableitems", b"tableitem\x80", 1))
    code, _, stderr = run_cli("pull", "--from", f"zotero-sqlite:{path}", "--to", "bibtex")
    assert (code, stderr) == (1, (f"refbridge: error: {path}: cannot be read as a Zotero "
                                 "database: its schema holds bytes that are not UTF-8 (a "
                                 "damaged or encrypted file)\n"))


def test_a_missing_database_says_where_it_was_looked_for(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFBRIDGE_ZOTERO_DATA_DIR", str(tmp_path / "Zotero"))
    code, _, stderr = run_cli("pull", "--from", "zotero-sqlite", "--to", "bibtex")
    assert (code, stderr) == (1, (f"refbridge: error: {tmp_path / 'Zotero' / 'zotero.sqlite'}: "
                                 "no such file (a Zotero database)\n"))


# -- sync ---------------------------------------------------------------------------------------
def test_a_refresh_reads_again_only_the_items_whose_stamp_moved(
        zotero: ZoteroDb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from refbridge.zotero_bridge.sqlite import ZoteroDatabase

    graphs = ada(zotero)
    book = zotero.add_item("book", {"title": "Notes", "date": "1844"})
    zotero.db.commit()
    asked: list[list[int]] = []
    built = ZoteroDatabase.items
    monkeypatch.setattr(ZoteroDatabase, "items", lambda self, scope, ids: built(
        self, scope, asked.append(sorted(ids)) or asked[-1]))
    address, copy = DatabaseAddress(zotero.path, None, None), tmp_path / "copy.json"
    changes = DatabaseMirror(address, copy, Diagnostics()).refresh()
    assert changes.changed == {zotero.key_of(graphs), zotero.key_of(book)}
    assert not DatabaseMirror(address, copy, Diagnostics()).refresh()
    zotero.set_field(graphs, "DOI", "10.1000/graphs")
    zotero.touch(graphs, "2024-06-01 12:00:00")
    zotero.db.commit()
    mirror = DatabaseMirror(address, copy, Diagnostics())
    changes = mirror.refresh()
    assert (changes.changed, changes.removed) == ({zotero.key_of(graphs)}, set())
    assert mirror.items[zotero.key_of(graphs)]["DOI"] == "10.1000/graphs"
    zotero.trash(book)
    zotero.db.commit()
    changes = DatabaseMirror(address, copy, Diagnostics()).refresh()
    assert (changes.changed, changes.removed) == (set(), {zotero.key_of(book)})
    assert asked == [[graphs, book], [], [graphs], []]


def test_sync_from_the_database_writes_only_when_the_library_changed(zotero: ZoteroDb,
                                                                     tmp_path: Path) -> None:
    graphs = ada(zotero)
    zotero.add_item("book", {"title": "Notes", "date": "1844"}, [("author", "Ada", "Lovelace")])
    zotero.db.commit()
    out = tmp_path / "refs.bib"
    source = f"zotero-sqlite:{zotero.path}"
    code, _, stderr = run_cli("sync", "--from", source, "-o", str(out))
    assert code == 0
    assert stderr == f"refbridge: sync: {out}: written, 2 entries (2 added, 0 changed, 0 removed)\n"
    first = out.read_text("utf-8")
    code, _, stderr = run_cli("sync", "--from", source, "-o", str(out))
    assert stderr == f"refbridge: sync: {out}: up to date (2 entries)\n"
    zotero.set_field(graphs, "DOI", "10.1000/graphs")
    zotero.touch(graphs, "2024-06-01 12:00:00")
    zotero.db.commit()
    code, _, stderr = run_cli("sync", "--from", source, "-o", str(out))
    assert stderr == f"refbridge: sync: {out}: written, 2 entries (0 added, 1 changed, 0 removed)\n"
    entries = out.read_text("utf-8").split("\n\n")
    assert entries[0] == first.split("\n\n")[0] and "doi = {10.1000/graphs}" in entries[1]


def test_sync_from_the_database_lists_each_items_files(zotero: ZoteroDb, tmp_path: Path) -> None:
    graphs = ada(zotero)
    pdf = zotero.add_attachment(graphs, "Full Text PDF", "storage:Lovelace - 2020.pdf",
                                "application/pdf")
    zotero.db.commit()
    out = tmp_path / "refs.bib"
    code, _, _ = run_cli("sync", "--from", f"zotero-sqlite:{zotero.path}", "-o", str(out))
    assert code == 0
    stored = zotero.path.parent / "storage" / zotero.key_of(pdf) / "Lovelace - 2020.pdf"
    assert [line for line in out.read_text("utf-8").splitlines() if "file =" in line] == [
        f"  file = {{Full Text PDF:{stored}:application/pdf}},"]


@pytest.mark.parametrize(("stored", "title"), [
    ("Über Graphen".encode("utf-16"), "Über Graphen"),
    ("\ufeffÜber Graphen".encode(), "Über Graphen"),
    ("Über Graphen".encode(), "Über Graphen"),
], ids=["utf-16-bom", "utf-8-bom", "utf-8"])
def test_a_title_stored_as_bytes_is_read_as_text(zotero: ZoteroDb, stored: bytes,
                                                 title: str) -> None:
    item = ada(zotero)
    zotero.set_field(item, "title", stored)  # type: ignore[arg-type]
    zotero.close()
    [record], diagnostics = read(zotero.path)
    assert (str(record.fields["title"]), diagnostics.messages) == (title, [])


def test_a_title_stored_as_bytes_that_are_no_text_is_reported(zotero: ZoteroDb) -> None:
    item = ada(zotero)
    zotero.set_field(item, "title", b"On \xff Graphs")  # type: ignore[arg-type]
    zotero.close()
    [record], diagnostics = read(zotero.path)
    assert str(record.fields["title"]) == "On \ufffd Graphs"
    assert [str(m) for m in diagnostics.messages] == [
        (f"{zotero.path}: warning: item {zotero.key_of(item)}: field 'title' is stored as "
        "bytes that are neither UTF-8 nor UTF-16 text: read with U+FFFD for what does not "
        "decode")]
    assert diagnostics.changed == 1


def test_a_lone_surrogate_stored_in_the_database_is_replaced_and_reported(
        zotero: ZoteroDb) -> None:
    item = ada(zotero)
    zotero.db.execute("UPDATE itemDataValues SET value = CAST(x'4f6e20eda08020477261706873' "
                      "AS TEXT) WHERE value = 'On Graphs'")
    zotero.close()
    [record], diagnostics = read(zotero.path)
    assert str(record.fields["title"]) == "On \ufffd Graphs"
    assert [str(m) for m in diagnostics.messages] == [
        (f"zotero-sqlite:{zotero.path}/items/{zotero.key_of(item)}: warning: record "
        f"{zotero.key_of(item)!r}: field 'title' held a lone surrogate (half of a UTF-16 pair, "
        "which no file can hold): replaced by U+FFFD")]
