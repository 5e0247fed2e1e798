"""Reading a damaged ``zotero.sqlite`` (``zotero-sqlite:PATH``) gives only allowed outcomes.

The seed is a small valid database built the way Zotero builds one (``zotero_db_support``,
which needs ../shared's Zotero schema). It is damaged in two ways: byte edits of the file (what
a disk or a half-finished copy does), and edits of its rows (a value of another type or out of
range in any column, a row deleted, a table dropped: what another program or a newer Zotero may
leave). Allowed outcomes: records, messages, or a ``RefbridgeError`` naming the database;
never another exception, never a hang (``SECONDS_PER_INPUT``).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fuzz.harness import FUZZ, SECONDS_PER_INPUT, time_limit
from hypothesis import assume, given
from hypothesis import strategies as st
from zotero_db_support import ZoteroDb

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.model import Record
from refbridge.pipeline import read_file
from refbridge.runs import ReadOptions

#: values no Zotero writes where the fuzzer puts them: other types, extremes, odd text
HOSTILE_VALUES: tuple[object, ...] = (
    None, 0, -1, 1, 2, 4, 99, 2**63 - 1, -(2**63), 1.5, float("inf"), "", " ", "x",
    "journalArticle", "note", "attachment", "9999-99-99 99:99:99", "0000-00-00 ",
    "2024-13-45 25:61:61", "storage:", "attachments:../../x", "ABCD2345", "{", "[]",
    '{"a": 1}', "<p>", "\x00", "\u202e", "a" * 10_000, b"\x00\xff", b"",
)


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> bytes:
    """A small library: a book with two kinds of creators, tags and a note, an article in a
    collection with an attachment, a trashed item, a related pair, a group library."""
    path = tmp_path_factory.mktemp("zotero") / "zotero.sqlite"
    zotero = ZoteroDb(path, shared_dir)
    reading = zotero.add_collection("Reading")
    book = zotero.add_item("book", {"title": "Sketch of the Analytical Engine", "date": "1843-10",
                                    "extra": "Citation Key: menabrea1843"},
                           [("author", "Luigi", "Menabrea"), ("translator", "Ada Lovelace")],
                           ["engines", ("history", 1)])
    zotero.add_note(book, "<p>Read twice.</p>")
    paper = zotero.add_item("journalArticle", {"title": "On Graphs", "date": "2020",
                                               "DOI": "10.1000/graphs", "accessDate":
                                               "2024-05-01 09:30:00"},
                            [("author", "Ada", "Lovelace")], collections=[reading])
    zotero.add_attachment(paper, "Full Text", "storage:graphs.pdf", "application/pdf")
    zotero.relate(book, "dc:relation", f"http://zotero.org/users/1/items/{zotero.key_of(paper)}")
    zotero.trash(zotero.add_item("book", {"title": "Thrown away"}))
    lab = zotero.add_group("Graph Lab", 4711)
    zotero.add_item("report", {"title": "Lab Handbook", "date": "2023"}, library=lab)
    zotero.close()
    return path.read_bytes()


@pytest.fixture(scope="module")
def columns(seed: bytes) -> list[tuple[str, str]]:
    """Every (table, column) of the seed database."""
    with _database(seed) as path:
        connection = sqlite3.connect(path)
        tables = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found = [(table, row[1]) for table in tables
                 for row in connection.execute(f'PRAGMA table_info("{table}")')]
        connection.close()
    return found


@pytest.fixture(autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


_FOLDER = Path(tempfile.mkdtemp(prefix="refbridge-fuzz-zotero-"))


@contextmanager
def _database(data: bytes) -> Iterator[Path]:
    """``data`` as ``zotero.sqlite`` in a folder of its own (no journal or Better BibTeX
    database of an earlier example beside it)."""
    shutil.rmtree(_FOLDER, ignore_errors=True)
    _FOLDER.mkdir()
    path = _FOLDER / "zotero.sqlite"
    path.write_bytes(data)
    yield path


def read_database(path: Path) -> list[Record]:
    """Read the database as ``refbridge`` reads ``zotero-sqlite:PATH``; assert the outcome is
    an allowed one."""
    address = f"zotero-sqlite:{path}"
    diagnostics = Diagnostics()
    try:
        with time_limit(SECONDS_PER_INPUT):
            records = list(read_file(address, diagnostics, ReadOptions()))
    except RefbridgeError as exc:
        assert str(path) in str(exc), exc
        return []
    assert all(isinstance(record, Record) for record in records)
    assert all(message.message.strip() for message in diagnostics.messages)
    return records


def test_the_seed_database_reads_the_records_of_its_user_library(seed: bytes) -> None:
    with _database(seed) as path:
        assert sorted(record.title or "" for record in read_database(path)) == [
            "On Graphs", "Sketch of the Analytical Engine"]


@st.composite
def byte_edits(draw: st.DrawFn, size: int) -> list[tuple[int, int]]:
    """Up to eight (offset, byte) overwrites of a file of ``size`` bytes."""
    return draw(st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, 255)),
                         min_size=1, max_size=8))


def test_a_database_with_damaged_bytes_gives_only_allowed_outcomes(seed: bytes) -> None:
    @FUZZ
    @given(byte_edits(len(seed)), st.none() | st.integers(0, len(seed)))
    def run(edits: list[tuple[int, int]], cut: int | None) -> None:
        data = bytearray(seed)
        for offset, value in edits:
            data[offset] = value
        with _database(bytes(data[:cut])) as path:
            read_database(path)

    run()


def test_a_database_with_damaged_rows_gives_only_allowed_outcomes(
        seed: bytes, columns: list[tuple[str, str]]) -> None:
    edit = st.one_of(
        st.tuples(st.just("update"), st.sampled_from(columns), st.integers(0, 40),
                  st.sampled_from(HOSTILE_VALUES)),
        st.tuples(st.just("delete"), st.sampled_from(columns), st.integers(0, 40), st.none()),
        st.tuples(st.just("drop"), st.sampled_from(columns), st.just(0), st.none()))

    @FUZZ
    @given(st.lists(edit, min_size=1, max_size=4))
    def run(edits: list[tuple[str, tuple[str, str], int, object]]) -> None:
        with _database(seed) as path:
            connection = sqlite3.connect(path)
            changed = 0
            for how, (table, column), row, value in edits:
                changed += _edit(connection, how, table, column, row, value)
            connection.commit()
            connection.close()
            assume(changed > 0)
            read_database(path)

    run()


def _edit(connection: sqlite3.Connection, how: str, table: str, column: str, row: int,
          value: object) -> int:
    """Apply one edit (Zotero's triggers may refuse it: then it changes nothing)."""
    pick = f'rowid = (SELECT rowid FROM "{table}" LIMIT 1 OFFSET {row})'
    statement = {"update": f'UPDATE "{table}" SET "{column}" = ? WHERE {pick}',
                 "delete": f'DELETE FROM "{table}" WHERE {pick}',
                 "drop": f'DROP TABLE "{table}"'}[how]
    try:
        cursor = connection.execute(statement, (value,) if how == "update" else ())
    except sqlite3.Error:
        return 0
    return 1 if how == "drop" else cursor.rowcount
