"""Encodings, line endings, NUL bytes and binary files through every reader and every command
that reads; atomic output and refusing to write over an input for every command that writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzz.harness import read_bytes
from fuzz.seeds import SEEDS
from support import SAMPLES

from refbridge.cli import main
from refbridge.errors import ExitStatus

#: reader -> a small real input (text) of it
INPUTS: dict[str, Path] = {
    "profile": SAMPLES / "qinwei-yang.profile.txt",
    "csl-json": SAMPLES / "varied.json",
    "bibtex": SEEDS / "exports.bib",
    "ris": SEEDS / "exports.ris",
    "zotero": SEEDS / "zotero.rdf",
}
ENCODINGS = ("utf-8-sig", "utf-16", "utf-16-be")


def summary_of(reader: str, data: bytes) -> list[tuple[str, str | None]]:
    outcome = read_bytes(reader, data)
    assert outcome.error is None, outcome.error
    return [(r.id, r.fields.get("title")) for r in outcome.records]


@pytest.mark.parametrize("reader", INPUTS)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_unicode_encodings_with_a_bom_read_the_same(reader: str, encoding: str) -> None:
    text = INPUTS[reader].read_text(encoding="utf-8")
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    assert summary_of(reader, data) == summary_of(reader, text.encode())


@pytest.mark.parametrize("reader", INPUTS)
@pytest.mark.parametrize("ending", [b"\r\n", b"\r"])
def test_line_endings_read_the_same(reader: str, ending: bytes) -> None:
    data = INPUTS[reader].read_bytes()
    assert summary_of(reader, data.replace(b"\n", ending)) == summary_of(reader, data)


def test_a_latin_1_bib_file_is_read_as_cp1252_with_a_warning() -> None:
    outcome = read_bytes("bibtex", (SEEDS / "latin1.bib").read_bytes())
    assert [r.names["author"][0].family for r in outcome.records] == ["Gómez"]
    assert [r.fields["title"] for r in outcome.records] == ["Análisis de datos § 3"]
    assert [m.message.split(";")[0] for m in outcome.diagnostics.warnings] == [
        "not UTF-8 (byte 0xf3)"]


@pytest.mark.parametrize("reader", INPUTS)
def test_a_nul_byte_is_refused_naming_its_offset(reader: str) -> None:
    data = INPUTS[reader].read_bytes()
    outcome = read_bytes(reader, data[:100] + b"\x00" + data[100:])
    assert outcome.error is not None
    assert str(outcome.error).endswith("binary data (NUL byte at offset 100): not a text file")


@pytest.mark.parametrize("reader", INPUTS)
def test_a_binary_file_is_refused(reader: str) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    assert read_bytes(reader, png).error is not None


# -- commands -------------------------------------------------------------------------------
#: every command that reads records and writes an output, with its options
WRITING_COMMANDS: dict[str, list[str]] = {
    "convert": ["convert", "--to", "csl-json"],
    "format": ["format", "--style", "apa"],
    "cv": ["cv", "--owner", "Qinwei Yang"],
}
READING_COMMANDS: dict[str, list[str]] = {**WRITING_COMMANDS, "check": ["check"]}


def invoke(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.stderr


@pytest.mark.parametrize("command", READING_COMMANDS)
def test_every_command_refuses_a_binary_input_with_status_1(tmp_path: Path,
                                                             command: str) -> None:
    binary = tmp_path / "refs.bib"
    binary.write_bytes(b"@article{x,\x00}")
    status, err = invoke(READING_COMMANDS[command] + [str(binary)])
    assert status == ExitStatus.FAILED
    assert f"{binary}: binary data (NUL byte at offset 11)" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", READING_COMMANDS)
def test_every_command_reports_skipped_records_in_its_status(tmp_path: Path,
                                                              command: str) -> None:
    library = tmp_path / "refs.bib"
    library.write_text("@article{ok, author = {Yang, Qinwei}, title = {Kept}, journal = {J},"
                       " year = 2020}\n\n@article{broken,\n  title = {never closed\n")
    status, err = invoke(READING_COMMANDS[command] + [str(library)])
    assert status == ExitStatus.SKIPPED
    assert f"{library}:3: error: broken entry" in err
    assert "refbridge: 1 broken record(s) read up to the break" in err
    status, _ = invoke(READING_COMMANDS[command] + [str(library), "--skip-invalid"])
    # check judges the entry read up to its break: its missing journal is a finding
    assert status == (ExitStatus.PROBLEMS if command == "check" else ExitStatus.OK)


@pytest.mark.parametrize("command", WRITING_COMMANDS)
def test_a_failed_run_keeps_the_existing_output(tmp_path: Path, command: str) -> None:
    output = tmp_path / "out.txt"
    output.write_text("precious")
    missing = tmp_path / "missing.bib"
    status, _ = invoke(WRITING_COMMANDS[command] + [str(missing), "-o", str(output)])
    assert status == ExitStatus.FAILED
    assert output.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("command", WRITING_COMMANDS)
def test_writing_over_an_input_is_refused(tmp_path: Path, command: str) -> None:
    library = tmp_path / "refs.bib"
    text = "@article{ok, author = {Yang, Qinwei}, title = {Kept}, journal = {J}, year = 2020}\n"
    library.write_text(text)
    status, err = invoke(WRITING_COMMANDS[command] + [str(library), "-o", str(library)])
    assert status == ExitStatus.FAILED
    assert "refusing to write over an input file" in err
    assert library.read_text() == text


def test_encoding_named_on_the_command_line_is_used(tmp_path: Path) -> None:
    koi8 = tmp_path / "refs.bib"
    koi8.write_bytes("@article{k, author = {Пушкин, Александр}, title = {Стихи}, year = 1830}\n"
                     .encode("koi8-r"))
    result = CliRunner().invoke(main, ["convert", str(koi8), "--to", "csl-json",
                                       "--encoding", "koi8-r"])
    assert result.exit_code == ExitStatus.OK
    assert '"title": "Стихи"' in result.stdout
    assert '"family": "Пушкин"' in result.stdout
