"""A large dump cut into pieces by byte ranges (``refbridge.splits``, the dump formats'
``BOUNDARIES``) reads, piece after piece, as the whole file reads: the same records with the same
lines, the same messages, wherever the cuts fall."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import FIXTURES

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.dumps.pieces import BOUNDARIES
from refbridge.pipeline import read_file
from refbridge.splits import Split, plan

DUMPS = FIXTURES / "dumps"


def _read(paths: list[str]) -> tuple[list[Any], list[str]]:
    diagnostics = Diagnostics()
    records = [record for path in paths for record in read_file(path, diagnostics)]
    return records, [str(message) for message in diagnostics.messages]


def _arxiv(tmp_path: Path) -> Path:
    """Two papers, a broken line, a blank line and a paper again: 5 lines, 3 records."""
    first, second = (DUMPS / "arxiv-metadata.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "arxiv-metadata.jsonl"
    path.write_text(f"{first}\n{second}\n{{\"id\": \n\n{first}\n", encoding="utf-8")
    return path


def _dblp(tmp_path: Path) -> Path:
    """The fixture's dump with an element that is no publication (a warning) before its end."""
    text = (DUMPS / "dblp.xml").read_text(encoding="latin-1")
    path = tmp_path / "dblp.xml"
    path.write_text(text.replace("</dblp>", "<person key='p/1'><name>N&eacute;e</name>"
                                            "</person>\n</dblp>"), encoding="latin-1")
    return path


DUMP_FILES = {"arxiv-metadata": _arxiv, "dblp-xml": _dblp}


def _starts(path: Path, form: str) -> list[int]:
    """Where the file's records start (the boundaries its format cuts at)."""
    data = path.read_bytes()
    return [found.start() for found in BOUNDARIES[form].pattern.finditer(data)]


@pytest.mark.parametrize("form", sorted(DUMP_FILES))
def test_pieces_cut_at_any_offset_read_as_the_whole_file(tmp_path: Path, form: str) -> None:
    path = DUMP_FILES[form](tmp_path)
    whole = _read([str(path)])
    boundary = _starts(path, form)[0]
    for split_bytes in (1, 2, 3, 17, boundary, boundary - 1, boundary + 1, boundary + 40):
        pieces = plan(str(path), split_bytes, BOUNDARIES[form])
        assert len(pieces) > 1
        assert _read(pieces) == whole, split_bytes


def test_a_piece_numbers_its_lines_as_the_whole_file(tmp_path: Path) -> None:
    path = _arxiv(tmp_path)
    records, messages = _read(plan(str(path), 1, BOUNDARIES["arxiv-metadata"]))
    assert [record.source.line for record in records] == [1, 2, 5]
    assert messages == [f"{path}:3:8: error: not valid JSON: Expecting value; line skipped"]


def test_the_dtds_entities_are_resolved_in_every_piece_of_dblp(tmp_path: Path) -> None:
    path = _dblp(tmp_path)
    pieces = plan(str(path), 1, BOUNDARIES["dblp-xml"])
    start = path.read_bytes().index(b"<inproceedings")
    records, messages = _read([piece for piece in pieces if piece.first == start])
    assert [(str(record.source), str(record.names["author"][0].family))
            for record in records] == [(f"{path}:20", "Sørensen")]
    assert messages == []
    assert _read(pieces[-1:])[1] == [
        f"{path}:37: warning: dblp <person> entry is not a publication; skipped"]


def test_each_piece_starts_at_a_record_and_ends_where_the_next_starts(tmp_path: Path) -> None:
    path = _arxiv(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    starts = [sum(map(len, lines[:n])) for n in range(len(lines) + 1)]
    pieces = plan(str(path), starts[1] + 10, BOUNDARIES["arxiv-metadata"])
    assert all(isinstance(piece, Split) for piece in pieces)
    assert [(piece.first, piece.stop, piece.line_shift) for piece in pieces] == [
        (0, starts[2], 0), (starts[2], starts[5], 2)]


def test_a_file_no_larger_than_a_piece_is_read_whole(tmp_path: Path) -> None:
    path = _arxiv(tmp_path)
    pieces = plan(str(path), path.stat().st_size, BOUNDARIES["arxiv-metadata"])
    assert pieces == [str(path)] and not isinstance(pieces[0], Split)


def test_a_dblp_dump_broken_in_its_last_piece_fails_at_the_whole_files_line(
        tmp_path: Path) -> None:
    path = tmp_path / "dblp.xml"
    text = (DUMPS / "dblp.xml").read_text(encoding="latin-1")
    path.write_text(text.replace("</dblp>", "<article key='x'>"), encoding="latin-1")
    failures = []
    for paths in ([str(path)], plan(str(path), 1, BOUNDARIES["dblp-xml"])):
        with pytest.raises(ParseError) as raised:
            _read(paths)
        failures.append(str(raised.value))
    assert failures[1] == failures[0] == (
        f"{path}:38:1: not well-formed XML: Premature end of data in tag article line 37, "
        "line 38, column 1")
