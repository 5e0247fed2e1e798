"""Citation keys through every writer that carries keys: a key is written as it was read and
read back as written; a key a format cannot hold (a line break in a line-based value, a
control character in XML) is changed, unique, and reported ``old -> new`` (exit 3)."""

from __future__ import annotations

import io
import json
import re
import string
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from refbridge.cli import main
from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import write_stream
from refbridge.registry import WriteOptions, get_reader, get_writer

#: Every writer that carries keys, and the reader that reads its output.
KEY_FORMATS = {"csl-json": "csl-json", "ris": "ris", "endnote": "endnote",
               "endnote-xml": "endnote-xml", "mods": "mods", "word-xml": "word-xml",
               "csv": "csv", "hayagriva": "hayagriva", "zotero": "zotero"}
#: A key with what other tools' keys hold: an apostrophe, a tilde, a colon, a slash, a plus,
#: dots (Better BibTeX's and JabRef's patterns make them all).
ODD_KEY = "o'brien~2020:credit/a+b.c"


def _records(*keys: str) -> list[Record]:
    items = [{"id": key, "type": "book", "title": "Patterns of Rural Credit"} for key in keys]
    return list(get_reader("csl-json").read(io.StringIO(json.dumps(items)), "lib.json",
                                            Diagnostics()))


def _write(to_format: str, *keys: str) -> tuple[str, Diagnostics]:
    out, diagnostics = io.StringIO(), Diagnostics()
    write_stream(_records(*keys), out, get_writer(to_format), WriteOptions(), diagnostics)
    return out.getvalue(), diagnostics


def _keys_read(to_format: str, text: str) -> list[str | None]:
    reader = get_reader(KEY_FORMATS[to_format])
    return [r.citation_key for r in reader.read(io.StringIO(text, newline=""), "out",
                                                 Diagnostics())]


def _changes(diagnostics: Diagnostics) -> list[str]:
    return [m.message for m in diagnostics.messages]


def test_csl_json_writes_the_key_as_read() -> None:
    text, diagnostics = _write("csl-json", ODD_KEY, "Müller 2020")
    assert text == (
        '[\n  {\n    "id": "o\'brien~2020:credit/a+b.c",\n    "type": "book",\n'
        '    "title": "Patterns of Rural Credit"\n  },\n'
        '  {\n    "id": "Müller 2020",\n    "type": "book",\n'
        '    "title": "Patterns of Rural Credit"\n  }\n]\n')
    assert _keys_read("csl-json", text) == [ODD_KEY, "Müller 2020"]
    assert diagnostics.keys_changed == 0


def test_csl_json_holds_a_line_break_in_a_key() -> None:
    text, diagnostics = _write("csl-json", "two\nlines")
    assert _keys_read("csl-json", text) == ["two\nlines"]
    assert diagnostics.keys_changed == 0


def test_ris_writes_the_key_as_read() -> None:
    text, diagnostics = _write("ris", ODD_KEY)
    assert text == ("TY  - BOOK\nID  - o'brien~2020:credit/a+b.c\n"
                    "TI  - Patterns of Rural Credit\nER  - \n")
    assert _keys_read("ris", text) == [ODD_KEY]
    assert diagnostics.keys_changed == 0


def test_ris_changes_and_reports_a_key_with_a_line_break() -> None:
    text, diagnostics = _write("ris", "two\nlines")
    assert text == "TY  - BOOK\nID  - two-lines\nTI  - Patterns of Rural Credit\nER  - \n"
    assert _changes(diagnostics) == [
        "citation key changed: 'two\\nlines' -> 'two-lines' (ris cannot hold it)"]
    assert diagnostics.keys_changed == 1


def test_ris_changes_white_space_around_a_key_which_readers_strip() -> None:
    text, diagnostics = _write("ris", " padded ")
    assert "ID  - -padded-\n" in text
    assert _keys_read("ris", text) == ["-padded-"]
    assert diagnostics.keys_changed == 1


def test_a_changed_key_never_takes_another_records_key() -> None:
    text, diagnostics = _write("ris", "two\nlines", "two-lines")
    assert _keys_read("ris", text) == ["two-linesa", "two-lines"]
    assert _changes(diagnostics) == [
        "citation key changed: 'two\\nlines' -> 'two-linesa' (ris cannot hold it)"]


def test_endnote_writes_the_key_as_read_in_its_label() -> None:
    text, diagnostics = _write("endnote", ODD_KEY)
    assert text == ("%0 Book\n%T Patterns of Rural Credit\n"
                    "%F o'brien~2020:credit/a+b.c\n")
    assert _keys_read("endnote", text) == [ODD_KEY]
    assert diagnostics.keys_changed == 0


def test_endnote_changes_and_reports_a_key_with_a_carriage_return() -> None:
    text, diagnostics = _write("endnote", "two\rlines")
    assert text == "%0 Book\n%T Patterns of Rural Credit\n%F two-lines\n"
    assert _changes(diagnostics) == [
        "citation key changed: 'two\\rlines' -> 'two-lines' (endnote cannot hold it)"]


def test_endnote_xml_writes_the_key_as_read_in_its_label() -> None:
    text, diagnostics = _write("endnote-xml", ODD_KEY, "two\nlines")
    assert ('<label><style face="normal" font="default" size="100%">'
            "o'brien~2020:credit/a+b.c</style></label>") in text
    assert _keys_read("endnote-xml", text) == [ODD_KEY, "two\nlines"]
    assert diagnostics.keys_changed == 0


def test_endnote_xml_changes_and_reports_a_control_character() -> None:
    text, diagnostics = _write("endnote-xml", "bell\x07key")
    assert _keys_read("endnote-xml", text) == ["bell-key"]
    assert _changes(diagnostics) == [
        "citation key changed: 'bell\\x07key' -> 'bell-key' (endnote-xml cannot hold it)"]


def test_word_xml_writes_the_key_as_read_in_its_tag() -> None:
    text, diagnostics = _write("word-xml", ODD_KEY)
    assert "  <b:Tag>o'brien~2020:credit/a+b.c</b:Tag>\n" in text
    assert _keys_read("word-xml", text) == [ODD_KEY]
    assert diagnostics.keys_changed == 0


def test_mods_writes_the_key_as_its_citekey_and_as_id_when_it_is_an_xml_name() -> None:
    text, diagnostics = _write("mods", ODD_KEY, "smith2020")
    assert text.count("<identifier type=\"citekey\">") == 2
    assert "<identifier type=\"citekey\">o'brien~2020:credit/a+b.c</identifier>" in text
    assert '<mods xmlns="http://www.loc.gov/mods/v3">\n' in text  # no ID: not an xs:ID
    assert '<mods xmlns="http://www.loc.gov/mods/v3" ID="smith2020">\n' in text
    assert _keys_read("mods", text) == [ODD_KEY, "smith2020"]
    assert diagnostics.keys_changed == 0


def test_mods_changes_and_reports_a_control_character_instead_of_failing() -> None:
    text, diagnostics = _write("mods", "tab\x0bkey")
    assert _keys_read("mods", text) == ["tab-key"]
    assert diagnostics.keys_changed == 1


def test_zotero_rdf_writes_the_key_as_read_in_both_places() -> None:
    text, diagnostics = _write("zotero", ODD_KEY)
    assert "    <z:citationKey>o'brien~2020:credit/a+b.c</z:citationKey>\n" in text
    assert "    <dc:description>Citation Key: o'brien~2020:credit/a+b.c</dc:description>\n" \
        in text
    assert _keys_read("zotero", text) == [ODD_KEY]
    assert diagnostics.keys_changed == 0


def test_zotero_rdf_changes_and_reports_a_key_that_no_line_of_extra_holds() -> None:
    text, diagnostics = _write("zotero", "two\nlines")
    assert "    <dc:description>Citation Key: two-lines</dc:description>\n" in text
    assert _changes(diagnostics) == [
        "citation key changed: 'two\\nlines' -> 'two-lines' (zotero cannot hold it)"]


def test_csv_writes_the_key_as_read() -> None:
    text, diagnostics = _write("csv", ODD_KEY, "two\nlines")
    assert text.splitlines(keepends=True)[1:] == [
        "o'brien~2020:credit/a+b.c,book,Patterns of Rural Credit,,,,,,,,,,,,,,,,,\n",
        '"two\n', 'lines",book,Patterns of Rural Credit,,,,,,,,,,,,,,,,,\n']
    assert _keys_read("csv", text) == [ODD_KEY, "two\nlines"]
    assert diagnostics.keys_changed == 0


def test_csv_changes_and_reports_a_carriage_return_which_text_reading_turns_to_a_line_feed(
        ) -> None:
    text, diagnostics = _write("csv", "two\rlines")
    assert text.splitlines()[1] == "two-lines,book,Patterns of Rural Credit,,,,,,,,,,,,,,,,,"
    assert diagnostics.keys_changed == 1


def test_hayagriva_writes_the_key_as_read_quoted_when_yaml_would_read_another_value() -> None:
    text, diagnostics = _write("hayagriva", ODD_KEY, "1984", "true")
    assert text == ("o'brien~2020:credit/a+b.c:\n  type: book\n  title: Patterns of Rural Credit\n"
                    "\n'1984':\n  type: book\n  title: Patterns of Rural Credit\n"
                    "\n'true':\n  type: book\n  title: Patterns of Rural Credit\n")
    assert _keys_read("hayagriva", text) == [ODD_KEY, "1984", "true"]
    assert diagnostics.keys_changed == 0


def test_convert_reports_each_changed_key_and_exits_3(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    items = [{"id": "two\nlines", "type": "book", "title": "Patterns of Rural Credit"},
             {"id": "knuth84", "type": "book", "title": "The TeXbook"}]
    (tmp_path / "lib.json").write_text(json.dumps(items), encoding="utf-8")
    result = CliRunner().invoke(main, ["convert", "lib.json", "--to", "ris", "-o", "out.ris"])
    assert result.exit_code == 3
    assert "ID  - two-lines\n" in (tmp_path / "out.ris").read_text(encoding="utf-8")
    assert result.stderr.splitlines() == [
        ("lib.json:1: warning: citation key changed: 'two\\nlines' -> 'two-lines' "
        "(ris cannot hold it)"),
        "refbridge: 1 citation key(s) changed"]


# -- properties ----------------------------------------------------------------------------
#: Keys over a wide alphabet: letters of several scripts, digits, the punctuation of keys
#: (``'~:/+.-_``), markup of every format, white space and line breaks, control characters.
_WIDE = st.characters(codec="utf-8", exclude_characters="\x00", exclude_categories=("Cs",))
_KEYS = st.lists(st.text(_WIDE, min_size=1, max_size=12).filter(str.strip), min_size=1,
                 max_size=6, unique=True)


@given(_KEYS, st.sampled_from(sorted(KEY_FORMATS)))
def test_every_key_carrying_format_keeps_every_key_it_can_hold(keys: list[str],
                                                               to_format: str) -> None:
    text, diagnostics = _write(to_format, *keys)
    read = _keys_read(to_format, text)
    changed = {m: m for m in _changes(diagnostics)}
    unsafe = getattr(get_writer(to_format), "key_unsafe", None)
    assert len(read) == len(keys) and len(set(read)) == len(read)
    for old, new in zip(keys, read):
        if unsafe is None or not unsafe.search(old):
            assert new == old
        else:
            assert new is not None and not unsafe.search(new)
            assert f"citation key changed: {old!r} -> {new!r} ({to_format} cannot hold it)" \
                in changed
    assert diagnostics.keys_changed == sum(1 for key in keys if unsafe and unsafe.search(key))


#: The keys the .bib writer keeps today (it replaces white space and ``,{}()"#%'=\~``).
_BIB_KEY = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Z", "Cc"),
                                 exclude_characters=',{}()"#%\'=\\~\u0085\u2028\u2029'
                                 + string.whitespace), min_size=1, max_size=12)


@given(st.lists(_BIB_KEY, min_size=1, max_size=6, unique=True),
       st.sampled_from(sorted(KEY_FORMATS)))
def test_bib_to_every_key_carrying_format_and_back_keeps_every_key(keys: list[str],
                                                                  to_format: str) -> None:
    bib = "".join(f"@book{{{key},\n  title = {{Patterns of Rural Credit}}\n}}\n\n"
                  for key in keys)
    records = list(get_reader("bibtex").read(io.StringIO(bib), "lib.bib", Diagnostics()))
    there = io.StringIO()
    write_stream(records, there, get_writer(to_format), WriteOptions())
    read = list(get_reader(KEY_FORMATS[to_format]).read(
        io.StringIO(there.getvalue(), newline=""), "out", Diagnostics()))
    back = io.StringIO()
    write_stream(read, back, get_writer("bibtex"), WriteOptions())
    again = get_reader("bibtex").read(io.StringIO(back.getvalue()), "again.bib", Diagnostics())
    assert [r.citation_key for r in again] == keys


def test_the_line_pattern_finds_only_line_breaks_and_white_space_at_either_end() -> None:
    from refbridge.citekeys import LINE_KEY_UNSAFE

    assert [m.group() for m in LINE_KEY_UNSAFE.finditer(" a b\nc\r\nd\t")] == \
        [" ", "\n", "\r", "\n", "\t"]
    assert re.sub(LINE_KEY_UNSAFE, "-", "a b") == "a b"
