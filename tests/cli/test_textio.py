"""Input decoding and atomic output."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from refbridge.errors import Diagnostics, OutputError, ParseError
from refbridge.textio import atomic_output, open_input

TEXT = "Łukasz, Müller & Søren\r\nsecond line\rthird\n"


def read_back(path: Path, encoding: str | None = None) -> tuple[str, str, list[str]]:
    diagnostics = Diagnostics()
    with open_input(str(path), diagnostics, encoding) as (stream, head):
        text = stream.read()
    return text, head, [str(m) for m in diagnostics.messages]


@pytest.mark.parametrize(
    "data",
    [
        TEXT.encode("utf-8"),
        codecs.BOM_UTF8 + TEXT.encode("utf-8"),
        TEXT.encode("utf-16"),
        TEXT.encode("utf-32"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16-bom", "utf-32-bom"],
)
def test_unicode_encodings_and_line_endings_read_the_same(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    text, head, messages = read_back(path)
    assert text == "Łukasz, Müller & Søren\nsecond line\nthird\n"
    assert head == text
    assert messages == []


def test_legacy_8_bit_files_are_read_as_cp1252_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "old.bib"
    path.write_bytes("title = {Müller – “quoted”}\n".encode("cp1252"))
    text, _, messages = read_back(path)
    assert text == "title = {Müller – “quoted”}\n"
    assert messages == [(f"{path}:1: warning: not UTF-8 (byte 0xfc); reading as cp1252 (name "
                        "another encoding with --encoding)")]


def test_a_named_encoding_is_used(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("Ærø\n".encode("latin-1"))
    assert read_back(path, "latin-1")[0] == "Ærø\n"


def test_an_unknown_encoding_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("a", encoding="utf-8")
    with pytest.raises(ParseError, match=r"a.txt: unknown encoding 'klingon'"):
        read_back(path, "klingon")


def test_binary_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(ParseError, match=r"image.png: binary data \(NUL byte at offset 8\)"):
        read_back(path)


def test_bad_bytes_after_the_sampled_head_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "late.txt"
    path.write_bytes(b"ok\n" * 30000 + b"bad \xff byte\n")
    diagnostics = Diagnostics()
    with pytest.raises(ParseError, match=r"late.txt:30001: cannot decode as utf-8"), \
            open_input(str(path), diagnostics) as (stream, _):
        for _line in stream:
            pass


def test_output_appears_only_when_the_block_succeeds(tmp_path: Path) -> None:
    target = tmp_path / "out.bib"
    with atomic_output(str(target)) as out:
        out.write("@misc{a}\n")
        assert not target.exists()
    assert target.read_text(encoding="utf-8") == "@misc{a}\n"


def test_an_output_named_with_a_trailing_slash_is_the_file_before_it(tmp_path: Path) -> None:
    with atomic_output(f"{tmp_path / 'out.bib'}/") as out:
        out.write("@misc{a}\n")
    assert [(p.name, p.read_text(encoding="utf-8")) for p in tmp_path.iterdir()] == [
        ("out.bib", "@misc{a}\n")]


def test_a_failure_keeps_the_old_output_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.bib"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_output(str(target)) as out:
        out.write("half")
        raise RuntimeError("writer failed")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bib"]


def test_an_unwritable_directory_is_an_output_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="cannot write"), \
            atomic_output(str(tmp_path / "missing-dir" / "out.bib")):
        pass


def test_standard_output_gets_nothing_when_the_block_fails(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RuntimeError), atomic_output("-") as out:
        out.write("partial")
        raise RuntimeError("writer failed")
    assert capsys.readouterr().out == ""
