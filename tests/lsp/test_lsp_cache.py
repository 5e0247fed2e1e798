"""The language server's index cache: a library unchanged since it was indexed is indexed from
the cache, one changed (even keeping its size and modification time) from its text; a cache
file that is broken is ignored and made again; stores at once leave a whole cache. A .bib is
held as UTF-8 bytes, and an entry changed is re-read in part as the whole file would be."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refbridge.errors import Diagnostic
from refbridge.lsp import cache, library
from refbridge.lsp.library import Entry, Library, LibraryFile

ENTRIES = "".join(
    f"@article{{author{n}2001,\n  author = {{Wr{'ï' * n}ter, Number{n}}},\n  title = {{Study "
    f"{n} of Tables — part {n}}},\n  journal = {{TUGboat}},\n  year = {{{2000 + n}}},\n}}\n\n"
    for n in range(6))


def indexed(path: Path) -> LibraryFile:
    """The library file as the server has it once indexed."""
    status = os.stat(path)
    found = library.read_library(str(path), (status.st_mtime_ns, status.st_size))
    assert found.index(float("inf"))
    return found


def described(entries: list[Entry]) -> list[tuple[str, int, str, str, int, int]]:
    return [(e.key, e.line, e.words, e.detail, e.start, e.end) for e in entries]


@pytest.fixture
def refs(tmp_path: Path) -> Path:
    path = tmp_path / "refs.bib"
    path.write_text(ENTRIES, encoding="utf-8")
    return path


def scanned_anew(path: Path) -> LibraryFile:
    """The library file indexed from its text, whatever the cache holds (and then cached)."""
    file = LibraryFile(str(path), (0, 0), [], [])
    file.indexing = library._indexing(file, path.read_bytes())
    assert file.index(float("inf"))
    return file


def never_scanned(monkeypatch: pytest.MonkeyPatch) -> None:
    def scanned(*arguments: object) -> Iterator[Entry]:
        raise AssertionError("the text was scanned")

    monkeypatch.setattr(library, "_scanned", scanned)


def test_a_library_indexed_once_is_indexed_from_the_cache_the_next_time(
        refs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = indexed(refs)
    assert first.cached and cache.cache_file(str(refs)).exists()
    never_scanned(monkeypatch)
    again = indexed(refs)
    assert described(again.entries) == described(first.entries)
    assert again.record(again.entries[3]) == first.record(first.entries[3])


def test_a_library_restarted_on_its_cache_is_searched_whole_once_followed(
        refs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = Library()
    first.follow([str(refs)])
    assert first.advance(float("inf"))
    monkeypatch.setattr(library, "FIRST_STEP", 0.0)
    never_scanned(monkeypatch)
    restarted = Library()
    restarted.follow([str(refs)])
    assert not restarted.indexing
    assert [(described(found), more) for found, more in
            (restarted.search("table", 3), restarted.search("author", 10))] == \
        [(described(found), more) for found, more in
         (first.search("table", 3), first.search("author", 10))]
    assert [found.key for found in restarted.search("table", 3)[0]] == \
        ["author02001", "author12001", "author22001"]
    entry, before = restarted.entry("author42001"), first.entry("author42001")
    assert entry is not None and before is not None
    assert described([entry]) == described([before])
    assert restarted.record(entry) == first.record(before)


UNSORTED = "".join(
    f"@book{{{key},\n  author = {{{name}, Ann}},\n  title = {{{title}}},\n"
    f"  year = {{{year}}},\n}}\n\n" for key, name, title, year in [
        ("carol2003", "Carol", "Gardens", 2003), ("alice2001", "Alice", "Rivers", 2001),
        ("bob2002", "Bob", "Bridges", 2002), ("alice2001", "Alice", "Rivers Again", 2004)])


def test_a_cache_keeps_the_first_entry_of_each_key_in_key_order(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(UNSORTED, encoding="utf-8")
    indexed(path)
    found = cache.load(str(path), None, None, library._TEXTS, library._CACHED_NUMBERS)
    assert found is not None and found.numbers["ranked"] == [1, 2, 0, -1]
    assert indexed(path).ranked == [1, 2, 0]


def test_a_library_with_a_key_twice_restarted_on_its_cache_finds_its_first_entry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(UNSORTED, encoding="utf-8")
    Library().follow([str(path)])
    never_scanned(monkeypatch)
    restarted = Library()
    restarted.follow([str(path)])
    assert not restarted.indexing
    assert [(e.key, e.line) for e in restarted.search("", 10)[0]] == \
        [("alice2001", 7), ("bob2002", 13), ("carol2003", 1)]
    assert [e.detail for e in restarted.search("rivers", 10)[0]] == ["Alice (2001) Rivers"]
    assert [(later.line, first.line) for later, first in restarted.duplicates()] == [(19, 7)]


def test_a_cached_key_order_naming_rows_the_cache_has_not_is_not_taken(
        refs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = Library()
    first.follow([str(refs)])
    found = cache.load(str(refs), None, None, library._TEXTS, library._CACHED_NUMBERS)
    assert found is not None
    cache.store(str(refs), (0, found.size), found.digest, cache.Columns(
        found.texts, {**found.numbers, "ranked": [5, 4, 3, 2, 1, 99]}))
    never_scanned(monkeypatch)
    restarted = Library()
    restarted.follow([str(refs)])
    assert [e.key for e in restarted.search("", 10)[0]] == \
        [e.key for e in first.search("", 10)[0]] == [f"author{n}{2001}" for n in range(6)]


def test_a_library_only_touched_keeps_its_cache(refs: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    first = indexed(refs)
    os.utime(refs, ns=(1_000_000_000, 1_000_000_000))
    never_scanned(monkeypatch)
    assert described(indexed(refs).entries) == described(first.entries)


def test_a_library_changed_keeping_its_size_and_time_is_indexed_from_its_text(
        refs: Path) -> None:
    indexed(refs)
    status = os.stat(refs)
    refs.write_text(ENTRIES.replace("author3", "writer3"), encoding="utf-8")
    os.utime(refs, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert os.stat(refs).st_size == status.st_size
    assert [e.key for e in indexed(refs).entries][2:5] == \
        ["author22001", "writer32001", "author42001"]


@pytest.mark.parametrize("broken", [
    b"not a cache", b"", b'{"format": 1}\n', b'["a list"]\nxyz',
    b'{"format": 1, "count": 2, "columns": [["key", 1000]]}\n',
])
def test_a_broken_cache_file_is_ignored_and_made_again(refs: Path, broken: bytes) -> None:
    first = indexed(refs)
    target = cache.cache_file(str(refs))
    target.write_bytes(broken)
    again = indexed(refs)
    assert described(again.entries) == described(first.entries) and again.cached
    assert target.read_bytes() != broken


def test_a_cache_cut_short_is_ignored(refs: Path) -> None:
    first = indexed(refs)
    target = cache.cache_file(str(refs))
    target.write_bytes(target.read_bytes()[:-5])
    assert described(indexed(refs).entries) == described(first.entries)


def test_a_cache_of_columns_of_another_length_is_ignored(refs: Path) -> None:
    digest = cache.content_hash(refs.read_bytes())
    assert not cache.store(str(refs), (0, refs.stat().st_size), digest, cache.Columns(
        {"key": ["a", "b"]}, {"line": [1]}))
    assert cache.store(str(refs), (0, refs.stat().st_size), digest, cache.Columns(
        {"key": ["a", "b"]}, {"line": [1, 9]}))
    assert cache.load(str(refs), refs.stat().st_size, digest, ["key"], ["line"]) == \
        cache.Columns({"key": ["a", "b"]}, {"line": [1, 9]}, refs.stat().st_size, digest)
    assert cache.load(str(refs), refs.stat().st_size, digest, ["key", "words"],
                      ["line"]) is None


def test_caches_stored_at_once_leave_one_whole_cache(refs: Path) -> None:
    size, digest = refs.stat().st_size, cache.content_hash(refs.read_bytes())
    wholes = [cache.Columns({"key": [f"{name}{n}" for n in range(2000)]},
                            {"line": list(range(2000))}) for name in ("first", "second")]
    wholes = [cache.Columns(whole.texts, whole.numbers, size, digest) for whole in wholes]
    seen: list[cache.Columns | None] = []

    def store(columns: cache.Columns) -> None:
        for _ in range(20):
            assert cache.store(str(refs), (0, size), digest, columns)

    def load() -> None:
        for _ in range(40):
            seen.append(cache.load(str(refs), size, digest, ["key"], ["line"]))

    threads = [threading.Thread(target=store, args=(columns,)) for columns in wholes]
    threads.append(threading.Thread(target=load))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found is None or found in wholes for found in seen)
    assert cache.load(str(refs), size, digest, ["key"], ["line"]) in wholes
    assert [path.name for path in cache.cache_file(str(refs)).parent.iterdir()] == \
        [cache.cache_file(str(refs)).name]


def test_a_library_that_is_not_utf8_is_indexed_but_not_cached(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(ENTRIES.replace("—", "-").encode("cp1252"))
    found = indexed(path)
    assert found.entries[2].detail == "Wrïïter (2002) Study 2 of Tables - part 2"
    assert not found.cached and not cache.cache_file(str(path)).exists()


def test_a_restarted_library_follows_a_change_in_part(refs: Path) -> None:
    indexed(refs)
    followed = Library()
    followed.follow([str(refs)])
    assert followed.advance(float("inf"))
    refs.write_text(ENTRIES.replace("author4", "writer4"), encoding="utf-8")
    followed.follow([str(refs)])
    assert not followed.indexing
    assert [e.key for e in followed.search("writer4", 5)[0]] == ["writer42001"]


def test_entries_beyond_non_ascii_text_are_read_at_their_bytes_in_short_stretches(
        refs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(library, "_STRETCH", 40)
    found = indexed(refs)
    whole = library.read_whole(str(refs), (0, 0))
    assert [(e.key, e.line, e.detail, found.record(e).fields)  # type: ignore[union-attr]
            for e in found.entries] == \
        [(e.key, e.line, e.detail, e.record.fields)  # type: ignore[union-attr]
         for e in whole.entries]


ENTRY_TEXTS = st.builds(
    lambda key, title, lines: f"@book{{{key},\n  title = {{{title}}},\n" +
    "  note = {x},\n" * lines + "}\n\n",
    st.text("abcé", min_size=1, max_size=3), st.text("abc ïé—", max_size=8),
    st.integers(0, 2))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ENTRY_TEXTS, min_size=1, max_size=8), st.data())
def test_a_library_changed_anywhere_is_read_in_part_as_it_would_be_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, texts: list[str],
        data: st.DataObject) -> None:
    """Re-read by the server that followed it, or by one started again on its cache."""
    monkeypatch.setattr(library, "_CHUNK", 16)
    path = tmp_path / "refs.bib"
    path.write_text("".join(texts), encoding="utf-8")
    before = indexed(path)
    at = data.draw(st.integers(0, len(texts)), label="where")
    change = data.draw(st.sampled_from(["insert", "delete", "replace", "comment"]),
                       label="change")
    changed = list(texts)
    if change == "insert" or at == len(texts):
        changed.insert(at, data.draw(ENTRY_TEXTS, label="entry"))
    elif change == "delete":
        del changed[at]
    elif change == "replace":
        changed[at] = data.draw(ENTRY_TEXTS, label="entry")
    else:
        changed[at] = "% a comment\n" + changed[at]
    path.write_text("".join(changed), encoding="utf-8")
    restarted = indexed(path)  # from the cache's entries, in part
    in_part = library.reread_in_part(before, (0, 1))
    assert in_part.index(float("inf"))
    whole = scanned_anew(path)
    assert described(in_part.entries) == described(whole.entries) == \
        described(restarted.entries)


def test_a_library_changed_since_it_was_cached_is_indexed_from_the_cache_in_part(
        refs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(library, "_CHUNK", 64)
    indexed(refs)
    changed = ENTRIES.replace("Study 3 of", "Study 3\n  of a few").replace("author4", "w4")
    refs.write_text(changed, encoding="utf-8")
    read: list[tuple[int, int]] = []
    scanner = library._scanned

    def scanned(text: bytes, path: str, begin: int, end: int, line: int) -> Iterator[Entry]:
        read.append((begin, end))
        return scanner(text, path, begin, end, line)

    monkeypatch.setattr(library, "_scanned", scanned)
    restarted = indexed(refs)
    assert read == [(ENTRIES.encode().index(b"@article{author3"),
                     changed.encode().index(b"@article{author5"))]
    monkeypatch.setattr(library, "_scanned", scanner)
    assert described(restarted.entries) == described(scanned_anew(refs).entries)
    assert [(e.key, e.line) for e in restarted.entries][3:] == \
        [("author32001", 22), ("w42001", 30), ("author52001", 37)]


def test_the_problems_of_reading_a_library_are_cached_once_known(
        refs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    refs.write_text(ENTRIES.replace("journal = {TUGboat}", "journal = tugb"), encoding="utf-8")
    first = indexed(refs)
    assert first.pending and indexed(refs).pending  # not known yet: to be read apart
    first.problems, first.pending = library.reading_problems(str(refs)), False
    assert first.save()
    never_scanned(monkeypatch)
    again = indexed(refs)
    assert not again.pending
    assert [(p.level, p.message, p.file, p.line) for p in again.problems] == \
        [(p.level, p.message, p.file, p.line) for p in first.problems]
    assert again.problems[0] == Diagnostic(
        "warning", "entry 'author02001': field 'journal' uses undefined macro(s) tugb; kept "
        "as text", str(refs), 1)
