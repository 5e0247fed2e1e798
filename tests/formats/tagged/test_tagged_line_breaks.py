"""Line-tagged writers (RIS, EndNote tagged, MEDLINE): a line break of any kind in a value
never starts a line of its own, so record text cannot end a record and start another."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from support import run_cli

from refbridge.errors import Diagnostics
from refbridge.model import Name, Record
from refbridge.pipeline import record_texts
from refbridge.registry import WriteOptions, get_reader, get_writer
from refbridge.textlines import lines

#: a title that ends its record and starts another for a reader taking CR as a line end
INJECTION = "Victim\rER  - \r\rTY  - JOUR\rTI  - INJECTED\rUR  - http://evil.example/"
#: every line break str.splitlines knows
LINE_BREAKS = ("\r", "\n", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
               "\u2029")
TAGGED = ("ris", "endnote", "nbib")


def victim(title: str) -> Record:
    return Record(id="doe2020", type="article-journal", citation_key="doe2020",
                  fields={"title": title, "container-title": "Journal of Tests"},
                  names={"author": (Name(family="Doe", given="Jane"),)})


def write(name: str, records: list[Record]) -> str:
    out = io.StringIO()
    get_writer(name).write(records, out, WriteOptions())
    return out.getvalue()


def read(name: str, text: str) -> list[Record]:
    return list(get_reader(name).read(io.StringIO(text, newline=None), "out", Diagnostics()))


def test_lines_cut_at_every_line_break() -> None:
    assert lines("a\rb\r\nc\u2028d\x85e\vf") == ["a", "b", "c", "d", "e", "f"]


@pytest.mark.parametrize("name", TAGGED)
def test_a_lone_cr_cannot_inject_a_record(name: str) -> None:
    text = write(name, [victim(INJECTION)])
    assert "INJECTED" not in [line.strip() for line in text.splitlines()]
    assert not any(line.startswith(("TI  - INJECTED", "UR  - ")) for line in
                   text.splitlines())
    (back,) = read(name, text)
    assert back.get("title") == INJECTION


@pytest.mark.parametrize("name", TAGGED)
@pytest.mark.parametrize("brk", LINE_BREAKS, ids=[f"U+{ord(b[-1]):04X}" for b in LINE_BREAKS])
def test_every_line_break_is_a_line_break(name: str, brk: str) -> None:
    title = f"First line{brk}ER  - {brk}TY  - JOUR{brk}%0 Book{brk}PMID- 1"
    text = write(name, [victim(title), victim("Second")])
    lines = text.splitlines()
    if name == "ris":
        assert [line for line in lines if line.startswith("TY  - ")] == ["TY  - JOUR"] * 2
        assert [line for line in lines if line.startswith("ER  - ")] == ["ER  - "] * 2
    if name == "endnote":
        assert [line for line in lines if line.startswith("%0")] == ["%0 Journal Article"] * 2
    assert [r.get("title") for r in read(name, text)] == [title, "Second"]


def test_the_interactive_cv_copies_ris_without_injected_records() -> None:
    (ris_text,) = record_texts([victim(INJECTION)], "ris")
    assert ris_text.count("\nER  - ") == 1
    assert [line for line in ris_text.splitlines() if line.startswith("TY  - ")] == \
        ["TY  - JOUR"]


def test_convert_writes_one_ris_record_for_an_injected_title(tmp_path: Path) -> None:
    source = tmp_path / "in.json"
    source.write_text(json.dumps([{"id": "doe2020", "type": "article-journal",
                                   "title": INJECTION}]), encoding="utf-8")
    status, _, _ = run_cli("convert", str(source), "--to", "ris", "-o",
                           str(tmp_path / "out.ris"))
    assert status == 0
    written = (tmp_path / "out.ris").read_bytes().decode("utf-8")
    assert "\r" not in written
    assert [line for line in written.splitlines() if line.startswith("TY  - ")] == \
        ["TY  - JOUR"]
