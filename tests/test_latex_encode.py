"""Unicode -> LaTeX for .bib values: literal text that no value can break out of."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refbridge.latex.decode import decode_latex
from refbridge.latex.encode import encode_latex, protect_case


def test_a_value_cannot_close_its_braces_or_run_a_command() -> None:
    assert encode_latex("}\\input{/etc/passwd}{") == (
        "\\textbraceright{}\\textbackslash{}input\\textbraceleft{}/etc/passwd"
        "\\textbraceright{}\\textbraceleft{}")


def test_every_syntax_character_is_escaped() -> None:
    assert encode_latex("50% & $5 #1 a_b ~ x^2") == \
        "50\\% \\& \\$5 \\#1 a\\_b \\textasciitilde{} x\\textasciicircum{}2"


def test_ligatures_that_would_change_the_text_are_broken() -> None:
    assert encode_latex("a--b ``q'' !` <<x>>") == "a-{}-b `{}`q'{}' !{}` <{}<x>{}>"


def test_non_ascii_is_written_as_brace_protected_commands() -> None:
    assert encode_latex("Müller Łukasz ß ç") == "M{\\\"u}ller {\\L}ukasz {\\ss} {\\c{c}}"


def test_accents_go_on_a_plain_i_because_biber_breaks_dotless_i() -> None:
    assert encode_latex("Martínez Ïa") == "Mart{\\'i}nez {\\\"I}a"
    assert encode_latex("í") == "{\\'i}"


def test_unicode_mode_keeps_non_ascii_but_still_escapes_syntax() -> None:
    assert encode_latex("Müller & Łukasz 50%", unicode=True) == "Müller \\& Łukasz 50\\%"


def test_characters_no_table_knows_are_kept_not_dropped() -> None:
    assert encode_latex("数据库") == "数据库"


def test_no_break_space_and_paragraph_breaks_become_their_latex_forms() -> None:
    assert encode_latex("J.\u00a0Doe\n\nSecond paragraph") == "J.~Doe\\par Second paragraph"


def test_runs_of_whitespace_become_one_space() -> None:
    assert encode_latex("a \t b\nc") == "a b c"


@pytest.mark.parametrize(("title", "protected"), [
    ("SpecDB: LLM-Generated Benchmarks for TPC-C",
     "{SpecDB}: {LLM}-Generated Benchmarks for {TPC-C}"),
    ("Gromov invariants for holomorphic maps on Riemann surfaces",
     "Gromov invariants for holomorphic maps on {Riemann} surfaces"),
    ("The True Frontier", "The True Frontier"),
    ("A study of iPhone use: what Google knows",
     "A study of {iPhone} use: what {Google} knows"),
    ("Pd-N-heterocyclic carbenes in Mizoroki-Heck reactions",
     "Pd-{N}-heterocyclic carbenes in {Mizoroki-Heck} reactions"),
])
def test_capitals_a_style_would_lowercase_are_protected(title: str, protected: str) -> None:
    assert protect_case(title) == protected


def test_case_protection_still_escapes_the_text() -> None:
    assert protect_case("R&D of SQL_Server") == "R\\&D of {SQL\\_Server}"


_TEXT = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs"),
                  exclude_characters="\u2028\u2029\x85"),
    max_size=40)


def _normalised(text: str) -> str:
    return " ".join(text.split(" ")).strip()


@given(_TEXT.filter(lambda t: t == " ".join(t.split())))
def test_encoded_text_decodes_to_the_same_text(text: str) -> None:
    assert decode_latex(encode_latex(text)) == text


@given(_TEXT.filter(lambda t: t == " ".join(t.split())))
def test_encoded_text_with_unicode_decodes_to_the_same_text(text: str) -> None:
    assert decode_latex(encode_latex(text, unicode=True)) == text


@given(_TEXT.filter(lambda t: t == " ".join(t.split())))
def test_a_protected_title_decodes_to_the_same_text(text: str) -> None:
    assert decode_latex(protect_case(text)) == text
