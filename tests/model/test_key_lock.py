"""The key lock: a key once given to a work is given to it again, in any run, on any machine."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support import mounted, run_cli

from refbridge.citekeys import assign_keys
from refbridge.keylock import KeyLock
from refbridge.model import Date, Name, Record
from refbridge.sameness.keys import identities

LITERATE = """\
TY  - JOUR
AU  - Knuth, Donald E.
TI  - Literate Programming
T2  - The Computer Journal
PY  - 1984
DO  - 10.1093/comjnl/27.2.97
ER  - 
"""
TEXBOOK = """\
TY  - BOOK
AU  - Knuth, Donald E.
TI  - The TeXbook
PY  - 1984
ER  - 
"""


def keys_of(bib: str) -> list[str]:
    return [line[line.index("{") + 1:-1] for line in bib.splitlines() if line.startswith("@")]


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    path = tmp_path / "in.ris"
    path.write_text(LITERATE + "\n" + TEXBOOK, encoding="utf-8")
    return path


def test_the_lock_files_each_key_made_under_every_identity_sorted(inputs: Path,
                                                                   tmp_path: Path) -> None:
    run_cli("convert", str(inputs), "--to", "bibtex", "--key-lock", str(tmp_path / "k.json"))
    assert (tmp_path / "k.json").read_text(encoding="utf-8") == """\
{
  "doi:10.1093/comjnl/27.2.97": "knuth1984literate",
  "work:literate programming|1984|knuth": "knuth1984literate",
  "work:the texbook|1984|knuth": "knuth1984texbook"
}
"""


def test_a_locked_key_is_given_again_whatever_the_pattern(inputs: Path, tmp_path: Path) -> None:
    lock = tmp_path / "k.json"
    lock.write_text('{"doi:10.1093/comjnl/27.2.97": "Knuth84lp"}\n', encoding="utf-8")
    _, out, _ = run_cli("convert", str(inputs), "--to", "bibtex", "--key-lock", str(lock),
                        "--key-pattern", "[auth][year]")
    assert keys_of(out) == ["Knuth84lp", "Knuth1984"]


def test_a_key_locked_to_an_absent_work_is_never_given_to_another(tmp_path: Path) -> None:
    (tmp_path / "in.ris").write_text(TEXBOOK, encoding="utf-8")
    lock = tmp_path / "k.json"
    lock.write_text('{"work:literate programming|1984|knuth": "Knuth1984"}\n', encoding="utf-8")
    _, out, _ = run_cli("convert", str(tmp_path / "in.ris"), "--to", "bibtex", "--key-lock",
                        str(lock), "--key-pattern", "[auth][year]")
    assert keys_of(out) == ["Knuth1984a"]


def test_a_work_that_gained_a_doi_finds_its_key_by_title_and_files_the_doi() -> None:
    lock = KeyLock("k.json", {"work:literate programming|1984|knuth": "Knuth84lp"})
    record = Record("r1", "article-journal", {"title": "Literate Programming",
                                               "DOI": "10.1093/comjnl/27.2.97"},
                    {"author": (Name("Knuth", "Donald E."),)}, {"issued": Date.of(1984)})
    assert assign_keys([record], lock=lock)[0].citation_key == "Knuth84lp"
    assert lock.keys["doi:10.1093/comjnl/27.2.97"] == "Knuth84lp"


def test_the_same_keys_whatever_the_order_of_the_input(inputs: Path, tmp_path: Path) -> None:
    lock = tmp_path / "k.json"
    run_cli("convert", str(inputs), "--to", "bibtex", "--key-lock", str(lock),
            "--key-pattern", "[auth][year]")
    swapped = tmp_path / "swapped.ris"
    swapped.write_text(TEXBOOK + "\n" + LITERATE, encoding="utf-8")
    _, out, _ = run_cli("convert", str(swapped), "--to", "bibtex", "--key-lock", str(lock),
                        "--key-pattern", "[auth][year]")
    assert keys_of(out) == ["Knuth1984a", "Knuth1984"]


def test_regenerated_keys_of_a_bib_come_from_the_lock(tmp_path: Path) -> None:
    bib = tmp_path / "lib.bib"
    bib.write_text("@book{tb, author = {Knuth, Donald E.}, title = {The TeXbook}, "
                   "year = 1984}\n", encoding="utf-8")
    (tmp_path / "refbridge.keys.json").write_text(
        '{"work:the texbook|1984|knuth": "texbook"}\n', encoding="utf-8")
    _, out, _ = run_cli("convert", str(bib), "--to", "biblatex", "--regenerate-keys")
    assert keys_of(out) == ["texbook"]


def test_no_lock_is_made_unless_asked_for(inputs: Path, tmp_path: Path) -> None:
    run_cli("convert", str(inputs), "--to", "bibtex", "-o", str(tmp_path / "out.bib"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.ris", "out.bib"]


def test_a_lock_that_is_not_an_object_of_keys_is_refused_naming_it(inputs: Path,
                                                                   tmp_path: Path) -> None:
    lock = tmp_path / "k.json"
    lock.write_text('["knuth"]\n', encoding="utf-8")
    status, out, err = run_cli("convert", str(inputs), "--to", "bibtex", "--key-lock",
                               str(lock))
    assert (status, out, err) == (1, "", (f"refbridge: error: {lock}: not a key lock: it must "
                                         "be one JSON object of identity -> key\n"))


@contextmanager
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder no file can be made in: read-only by its mode, or (for root, whom modes do not
    stop) a read-only tmpfs."""
    if os.geteuid() == 0:
        with mounted(tmp_path / "locked", "ro") as folder:
            yield folder
        return
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o555)
    try:
        yield folder
    finally:
        folder.chmod(0o755)


def test_a_lock_that_cannot_be_written_is_refused_before_any_output(inputs: Path,
                                                                    tmp_path: Path) -> None:
    with read_only_folder(tmp_path) as folder:
        lock, output = folder / "keys.json", tmp_path / "out.bib"
        status, out, err = run_cli("convert", str(inputs), "--to", "bibtex", "-o",
                                   str(output), "--key-lock", str(lock))
        reason = os.strerror(30 if os.geteuid() == 0 else 13)  # EROFS, EACCES
        assert (status, out, err) == (
            1, "", f"refbridge: error: key lock {lock}: cannot write: {reason}\n")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["in.ris", "locked"]
        assert list(folder.iterdir()) == []


def test_a_lock_under_a_file_is_refused_before_any_output(inputs: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a folder\n", encoding="utf-8")
    lock, output = tmp_path / "notes.txt" / "keys.json", tmp_path / "out.bib"
    status, out, err = run_cli("convert", str(inputs), "--to", "bibtex", "-o", str(output),
                               "--key-lock", str(lock))
    assert (status, out) == (1, "")
    assert err.startswith(f"refbridge: error: {lock}: ") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.ris", "notes.txt"]


def test_an_arxiv_doi_is_the_works_arxiv_identity() -> None:
    record = Record("r", "article", {"title": "Attention", "DOI": "10.48550/arXiv.1706.03762"})
    assert identities(record) == ("arxiv:1706.03762", "work:attention||")


def test_sync_gives_a_new_item_the_key_the_lock_has_for_its_work() -> None:
    from refbridge.zotero_bridge.sync import decide_keys

    lock = KeyLock("k.json", {"work:the texbook|1984|knuth": "texbook"})
    record = Record("zotero:ABCD1234", "book", {"title": "The TeXbook"},
                    {"author": (Name("Knuth", "Donald E."),)}, {"issued": Date.of(1984)})
    keys, warnings = decide_keys({}, {}, ["ABCD1234"], lambda item: record,
                                 "[auth:lower][year]", lock)
    assert (keys, warnings) == ({"ABCD1234": "texbook"}, [])
