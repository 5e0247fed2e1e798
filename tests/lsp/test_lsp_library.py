"""The language server's libraries: a .bib indexed by its syntax gives what reading it whole
gives, re-indexed in part too, and search by key prefix and by words."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refbridge.lsp import library
from refbridge.lsp.library import (
    Library,
    LibraryFile,
    read_whole,
    reading_problems,
)

ENTRIES = "".join(
    f"@article{{author{n}2001,\n  author = {{Writer, Number{n}}},\n  title = {{Study {n} "
    f"of Tables}},\n  journal = {{TUGboat}},\n  year = {{{2000 + n}}},\n}}\n\n"
    for n in range(6))


def read_library(path: str, stamp: tuple[int, int]) -> LibraryFile:
    """The library file as the server has it once indexed."""
    found = library.read_library(path, stamp)
    assert found.index(float("inf"))
    return found


def reread_in_part(old: LibraryFile, stamp: tuple[int, int]) -> LibraryFile:
    """The library file re-read as the server has it once indexed."""
    found = library.reread_in_part(old, stamp)
    assert found.index(float("inf"))
    return found


def stamped(path: Path) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_mtime_ns, status.st_size


def test_a_bib_changed_in_the_middle_is_read_in_part_as_it_would_be_whole(
        tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text(ENTRIES, encoding="utf-8")
    before = read_library(str(library), stamped(library))
    library.write_text(ENTRIES.replace(
        "  title = {Study 2 of Tables},\n",
        "  title = {Study 2 of Tables},\n  note = {two lines\n    more},\n").replace(
        "author3", "writer3"), encoding="utf-8")
    in_part = reread_in_part(before, stamped(library))
    whole = read_library(str(library), stamped(library))
    # the server places entries by their own line; a record's source is for messages
    assert [(e.key, e.line, replace(in_part.record(e), source=None))  # type: ignore[type-var]
            for e in in_part.entries] == \
        [(e.key, e.line, replace(whole.record(e), source=None))  # type: ignore[type-var]
         for e in whole.entries]
    assert [(e.key, e.line) for e in in_part.entries][2:5] == \
        [("author22001", 15), ("writer32001", 24), ("author42001", 31)]


def test_a_bib_with_macros_is_read_whole_again(tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text('@string{tb = "TUGboat"}\n' + ENTRIES, encoding="utf-8")
    before = read_library(str(library), stamped(library))
    assert before.alone is False
    library.write_text('@string{tb = "TUGboat"}\n' + ENTRIES.replace("author5", "x5"),
                       encoding="utf-8")
    assert [e.key for e in reread_in_part(before, stamped(library)).entries][-1] == "x52001"


def test_search_gives_key_prefixes_first_then_entries_with_every_word(
        tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text(ENTRIES + "@book{study1999,\n  title = {Tables},\n  year = 1999,\n}\n",
                       encoding="utf-8")
    found = Library()
    found.follow([str(library)])
    assert [e.key for e in found.search("author1", 10)[0]] == ["author12001"]
    assert [e.key for e in found.search("study tables 2003", 10)[0]] == ["author32001"]
    assert [e.key for e in found.search("study", 3)[0]] == \
        ["study1999", "author02001", "author12001"]
    assert found.search("study", 3)[1] is True


def test_a_warning_of_the_changed_stretch_is_at_its_line_in_the_file(tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text(ENTRIES, encoding="utf-8")
    before = read_library(str(library), stamped(library))
    before.problems = reading_problems(str(library))  # as the server gets them
    library.write_text(ENTRIES.replace("journal = {TUGboat},\n  year = {2004}",
                                       "journal = tugb,\n  year = {2004}"), encoding="utf-8")
    in_part = reread_in_part(before, stamped(library))
    whole = read_whole(str(library), stamped(library))
    assert [(p.level, p.message, p.line) for p in in_part.problems] == \
        [(p.level, p.message, p.line) for p in whole.problems] == \
        [("warning", ("entry 'author42001': field 'journal' uses undefined macro(s) tugb; kept "
          "as text"), 29)]


def test_a_change_in_the_first_and_the_last_entry_is_read_in_part_as_whole(
        tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text(ENTRIES, encoding="utf-8")
    before = read_library(str(library), stamped(library))
    library.write_text("% notes\n" + ENTRIES.replace("author0", "first0").replace(
        "Study 5", "Last study 5"), encoding="utf-8")
    in_part = reread_in_part(before, stamped(library))
    whole = read_library(str(library), stamped(library))
    assert [(e.key, e.line, e.words) for e in in_part.entries] == \
        [(e.key, e.line, e.words) for e in whole.entries]
    assert (in_part.entries[0].key, in_part.entries[0].line) == ("first02001", 2)


def test_an_entry_indexed_by_its_syntax_is_searched_and_named_as_its_record_read_whole(
        tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text(ENTRIES + "@book{handbook2010,\n  editor = {M{\\\"u}ller, J{\\'o}zsef and"
                       " Ulrich, Ada},\n  title = {Tables},\n  subtitle = {A   {Handbook}},\n"
                       "  date = {2010-05},\n}\n", encoding="utf-8")
    indexed = read_library(str(library), stamped(library))
    whole = read_whole(str(library), stamped(library))
    assert indexed.alone and not whole.alone
    assert [(e.key, e.line, e.words, e.detail) for e in indexed.entries] == \
        [(e.key, e.line, e.words, e.detail) for e in whole.entries]
    assert (indexed.entries[-1].words, indexed.entries[-1].detail) == (
        "handbook2010 muller ulrich tables a handbook 2010", "Müller (2010) Tables: A Handbook")
    assert indexed.record(indexed.entries[-1]) == whole.entries[-1].record


def test_while_a_library_is_indexed_search_answers_from_the_entries_indexed_so_far(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library_file = tmp_path / "refs.bib"
    library_file.write_text(ENTRIES, encoding="utf-8")
    monkeypatch.setattr(library, "FIRST_STEP", 0.0)
    monkeypatch.setattr(library, "_STEP_ENTRIES", 2)
    found = Library()
    found.follow([str(library_file)])
    assert found.indexing
    assert found.search("author", 10) == ([], True)  # the file is read, nothing indexed yet
    found.advance(0.0)
    assert [e.key for e in found.search("author", 10)[0]] == ["author02001", "author12001"]
    assert found.advance(float("inf")) and not found.indexing
    assert [e.key for e in found.search("author", 10)[0]] == \
        [f"author{n}2001" for n in range(6)]


def searched(found: Library) -> list[tuple[str, int, bool]]:
    """What the library answers for a few queries: keys and lines, whether there are more."""
    return [(entry.key, entry.line, more) for query in ("", "author", "study 3", "writer")
            for entries, more in [found.search(query, 4)] for entry in entries]


def test_an_entry_changed_in_place_gives_what_the_whole_library_indexed_anew_gives(
        tmp_path: Path) -> None:
    library_file = tmp_path / "refs.bib"
    library_file.write_text(ENTRIES, encoding="utf-8")
    followed = Library()
    followed.follow([str(library_file)])
    for changed in (ENTRIES.replace("author3", "writer3").replace("Study 3", "Study\n  3"),
                    ENTRIES.replace("author3", "author1")):  # a key another entry has
        library_file.write_text(changed, encoding="utf-8")
        followed.follow([str(library_file)])
        anew = Library()
        anew.follow([str(library_file)])
        assert searched(followed) == searched(anew)
        assert list(followed.duplicates()) == list(anew.duplicates())
    assert [(later.key, first.line) for later, first in followed.duplicates()] == \
        [("author12001", 8)]


def test_a_key_in_two_libraries_indexed_a_step_at_a_time_is_the_first_librarys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "first.bib", tmp_path / "second.bib"
    first.write_text(ENTRIES, encoding="utf-8")
    second.write_text(ENTRIES.replace("Study 4", "Other study 4"), encoding="utf-8")
    monkeypatch.setattr(library, "FIRST_STEP", 0.0)
    monkeypatch.setattr(library, "_STEP_ENTRIES", 1)
    found = Library()
    found.follow([str(first), str(second)])
    while not found.advance(0.0):
        assert found.indexing
    entry = found.entry("author42001")
    assert entry is not None and (entry.file, entry.detail) == \
        (str(first), "Writer (2004) Study 4 of Tables")
    assert [(later.file, earlier.file) for later, earlier in found.duplicates()][:1] == \
        [(str(second), str(first))]


def test_while_a_library_is_indexed_an_entry_not_indexed_yet_is_found_in_its_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library_file = tmp_path / "refs.bib"
    library_file.write_text(ENTRIES, encoding="utf-8")
    monkeypatch.setattr(library, "FIRST_STEP", 0.0)
    found = Library()
    found.follow([str(library_file)])
    entry = found.entry("author42001")
    assert found.indexing and entry is not None
    assert (entry.line, entry.detail) == (29, "Writer (2004) Study 4 of Tables")
    assert found.entry("author92001") is None


KEYED_ENTRIES = st.builds(
    lambda key, title: f"@book{{{key},\n  title = {{{title}}},\n}}\n\n",
    st.sampled_from(["author1", "author2", "study3", "writer4", "writer5"]),
    st.sampled_from(["Study", "Tables", "Writer study", "Author tables"]))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(KEYED_ENTRIES, min_size=1, max_size=6),
       st.lists(st.tuples(st.integers(0, 5), KEYED_ENTRIES), min_size=1, max_size=3))
def test_entries_changed_one_after_another_are_searched_as_the_library_indexed_anew(
        tmp_path: Path, texts: list[str], changes: list[tuple[int, str]]) -> None:
    library_file = tmp_path / "refs.bib"
    library_file.write_text("".join(texts), encoding="utf-8")
    followed = Library()
    followed.follow([str(library_file)])
    for number, (at, text) in enumerate(changes):
        texts[at % len(texts)] = text
        library_file.write_text("".join(texts), encoding="utf-8")
        os.utime(library_file, ns=(number, number))  # a stamp of its own
        followed.follow([str(library_file)])
        anew = Library()
        anew.follow([str(library_file)])
        assert searched(followed) == searched(anew)
        assert [(later.key, later.line, first.line) for later, first in followed.duplicates()] \
            == [(later.key, later.line, first.line) for later, first in anew.duplicates()]
