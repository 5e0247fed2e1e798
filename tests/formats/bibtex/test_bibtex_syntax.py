""".bib syntax: the streaming tokenizer, and its agreement with bibtexparser 2."""

from __future__ import annotations

import io

import pytest
from support import biblatex_examples

from refbridge.formats.bibtex.syntax import Block, parse_blocks, read_blocks

HOSTILE = r"""
@string{ acm = {Association for Computing Machinery} }
@string(tug = "TeX Users Group")

@article{hostile:1,
  title = {50\% of {\&} \#1 \$x\_y \{escaped\} \textbackslash{}},
  author = "Doe, Jane and {Barnes and Noble, Inc.}",
  journal = acm # " and " # tug,
  note = "He said {"}quoted{"} things",
  month = mar,
  year = 2024,
}

@book(paren,
  title = {A (parenthesised) entry},
  publisher = {O'Reilly}
)

@misc{at-sign, title = {LeQua @ {CLEF} on one line}, url = {https://x.org/a%20b#c_d}}
"""


def blocks(text: str) -> list[Block]:
    return list(read_blocks(io.StringIO(text)))


def entry_fields(block: Block) -> dict[str, str]:
    return {field.name: field.value for field in block.fields}


def test_macros_concatenation_and_month_names_are_resolved() -> None:
    hostile = blocks(HOSTILE)[2]
    assert entry_fields(hostile)["journal"] == \
        "Association for Computing Machinery and TeX Users Group"
    assert entry_fields(hostile)["month"] == "March"


def test_each_field_keeps_its_raw_source_text() -> None:
    hostile = blocks(HOSTILE)[2]
    raw = {field.name: field.raw for field in hostile.fields}
    assert raw["journal"] == 'acm # " and " # tug'
    assert raw["month"] == "mar"


def test_escaped_characters_stay_as_written() -> None:
    hostile = blocks(HOSTILE)[2]
    assert entry_fields(hostile)["title"] == \
        r"50\% of {\&} \#1 \$x\_y \{escaped\} \textbackslash{}"


def test_an_escaped_brace_still_counts_as_a_brace_as_in_bibtex() -> None:
    (block,) = blocks("@misc{k, title = {a \\} b}}")
    assert (block.kind, block.message) == (
        "error", "expected ',' or '}' after the value of 'title', found 'b'")


def test_a_braced_quote_does_not_end_a_quoted_value() -> None:
    assert entry_fields(blocks(HOSTILE)[2])["note"] == 'He said {"}quoted{"} things'


def test_a_quoted_value_with_nested_brace_groups_keeps_its_braces_and_raw_text() -> None:
    (block,) = blocks('@book{k, title = "The {\\TeX}nical {Kom{\\"o}die} of {Ulm}", year = 1991}')
    assert [(f.name, f.value, f.raw) for f in block.fields] == [
        ("title", 'The {\\TeX}nical {Kom{\\"o}die} of {Ulm}',
         '"The {\\TeX}nical {Kom{\\"o}die} of {Ulm}"'),
        ("year", "1991", "1991")]


def test_a_quoted_value_with_an_unclosed_group_is_never_closed() -> None:
    (block,) = blocks('@book{k, title = "The {Ulm story", year = 1991}')
    assert (block.kind, block.message) == ("error", "a quoted value is never closed")


def test_parenthesised_entries_and_an_at_sign_inside_a_value_are_read() -> None:
    found = blocks(HOSTILE)
    assert [(b.kind, b.entry_type, b.key) for b in found] == [
        ("string", "", "acm"), ("string", "", "tug"), ("entry", "article", "hostile:1"),
        ("entry", "book", "paren"), ("entry", "misc", "at-sign")]
    assert entry_fields(found[4])["title"] == "LeQua @ {CLEF} on one line"


def test_blocks_carry_the_line_they_start_on() -> None:
    assert [b.line for b in blocks(HOSTILE)] == [2, 3, 5, 14, 19]


def test_preamble_and_comment_blocks_are_kept() -> None:
    found = blocks('@preamble{ "\\newcommand{\\noop}[1]{}" }\n'
                   "@comment{jabref-meta: databaseType:biblatex;}\n")
    assert [(b.kind, b.text) for b in found] == [
        ("preamble", '"\\newcommand{\\noop}[1]{}"'),
        ("comment", "jabref-meta: databaseType:biblatex;")]


def test_a_broken_entry_is_reported_with_its_line_and_the_next_entry_is_still_read() -> None:
    text = ("@article{ok1, title = {One}}\n"
            "@article{bad,\n  title = {Never closed,\n  year = 2001,\n}\n"
            "@article{ok2, title = {Two}}\n")
    found = blocks(text)
    assert [(b.kind, b.key, b.fields) for b in found] == [
        ("entry", "ok1", found[0].fields), ("error", "bad", ()), ("entry", "ok2", found[2].fields)]
    assert found[1].message == ("the value of 'title' runs to the end of the entry: a '{' in "
                                "it is never closed (it opens on line 3)")
    assert found[1].error_line == 2


def test_a_file_cut_short_is_reported_where_its_last_entry_starts() -> None:
    text = ("@article{ok, title = {One}}\n\n"
            "@article{cut,\n  title = {Two},\n  author = {Doe, Jane},\n  pages = {1--20}\n\n")
    _, cut = blocks(text)
    assert (cut.kind, cut.error_line, cut.message) == (
        "error", 3, "the entry is never closed (missing '}')")
    assert [field.name for field in cut.fields] == ["title", "author", "pages"]


def test_a_file_cut_inside_a_value_says_where_the_value_opens() -> None:
    text = ("@article{ok, title = {One}}\n\n"
            "@article{cut,\n  title = {Two},\n  abstract = {A long abstract that\n stops")
    _, cut = blocks(text)
    assert (cut.kind, cut.error_line, cut.message) == (
        "error", 3, "a '{' is never closed (it opens on line 5)")


@pytest.mark.parametrize(("text", "message"), [
    ("@article{key title = {x}}", "expected ',' after the citation key 'key'"),
    ("@article{ = {x}}", "the entry has no citation key"),
    ("@article{key, title {x}}", "expected '=' after the field name 'title'"),
    ("@article{key, title = {x} year = 1}",
     "expected ',' or '}' after the value of 'title', found 'y'"),
    ("@article{key, title = }", "expected a value ({...}, \"...\", a number or a macro)"),
    ("@article{key, title = {x},", "the entry is never closed (missing '}')"),
    ("@article{key, year = 2024)", "expected a field name or '}', found ')'"),
    ("@article{key, month = jan)", "expected ',' or '}' after the value of 'month', found ')'"),
    ("@article(key, title = {x}}", "expected a field name or ')', found '}'"),
])
def test_syntax_errors_say_what_was_expected(text: str, message: str) -> None:
    (block,) = blocks(text)
    assert (block.kind, block.message) == ("error", message)


def test_an_undefined_macro_is_kept_as_text_and_named() -> None:
    (block,) = blocks("@article{k, journal = jacm}")
    assert (block.fields[0].value, block.fields[0].undefined_macros) == ("jacm", ("jacm",))


def test_numbers_and_macros_among_braced_fields_keep_their_order_and_raw_text() -> None:
    (block,) = blocks("@misc{k, year = \u0662\u0660\u0662\u0664, month = feb, journal = jacm,"
                      " number = 12b, title = {T}}")
    assert [tuple(field) for field in block.fields] == [
        ("year", "\u0662\u0660\u0662\u0664", "\u0662\u0660\u0662\u0664", ()),
        ("month", "February", "feb", ()), ("journal", "jacm", "jacm", ("jacm",)),
        ("number", "12b", "12b", ("12b",)), ("title", "T", "{T}", ())]


def test_a_macro_defined_in_the_file_is_resolved_between_braced_fields() -> None:
    (_, block) = blocks("@string{tods = {ACM Transactions on Database Systems}}\n"
                        "@article{k, title = {T}, journal = TODS, volume = 12, pages = {1--2}}")
    assert entry_fields(block) == {"title": "T", "journal": "ACM Transactions on Database Systems",
                                   "volume": "12", "pages": "1--2"}


def test_reading_in_small_chunks_gives_the_same_blocks() -> None:
    assert list(read_blocks(io.StringIO(HOSTILE), chunk_size=7)) == blocks(HOSTILE)


def test_strings_defined_in_an_earlier_chunk_are_used_in_later_ones() -> None:
    text = "@string{me = {Jane Doe}}\n" + "@misc{filler, note = {" + "x" * 200 + "}}\n" + \
        "@misc{k, author = me}\n"
    assert entry_fields(list(read_blocks(io.StringIO(text), chunk_size=16))[-1]) == \
        {"author": "Jane Doe"}


def test_blocks_are_yielded_before_the_stream_is_read_to_the_end() -> None:
    class Endless(io.StringIO):
        def read(self, size: int | None = -1) -> str:
            return "@misc{k, title = {T}}\n" * 100

    first = next(read_blocks(Endless()))
    assert (first.kind, first.key) == ("entry", "k")


# -- agreement with bibtexparser 2 ---------------------------------------------------------
def _bibtexparser_entries(text: str) -> list[tuple[str, str, dict[str, str]]]:
    bibtexparser = pytest.importorskip("bibtexparser")
    library = bibtexparser.parse_string(text, parse_stack=[])
    return [(e.entry_type.lower(), e.key, {f.key.lower(): str(f.value).strip() for f in e.fields})
            for e in library.entries]


def _our_entries(text: str) -> list[tuple[str, str, dict[str, str]]]:
    return [(b.entry_type, b.key, {f.name: f.raw for f in b.fields})
            for b in parse_blocks(text, {}) if b.kind == "entry"]


def test_biblatex_examples_gives_the_same_entries_and_values_as_bibtexparser() -> None:
    text = biblatex_examples().read_text(encoding="utf-8")
    ours = _our_entries(text)
    assert len(ours) == 92
    assert ours == _bibtexparser_entries(text)


def test_hostile_input_gives_the_same_entries_and_values_as_bibtexparser() -> None:
    assert _our_entries(HOSTILE) == _bibtexparser_entries(HOSTILE)


def test_an_empty_key_before_the_comma_is_a_key_bibtex_reads() -> None:
    (block,) = blocks("@article{, title = {x}}")
    assert (block.kind, block.key, [f.name for f in block.fields]) == ("entry", "", ["title"])
