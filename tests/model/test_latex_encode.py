"""Rich text -> LaTeX for .bib values: what BibTeX, biber and pdflatex read back as the same."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import rich_value

from refbridge.latex.decode import decode_latex
from refbridge.latex.encode import (
    address,
    encode_latex,
    encode_text,
    guess_protection,
    variable_latex,
)
from refbridge.richtext import (
    Link,
    Math,
    Raw,
    Style,
    Styled,
    Text,
    Url,
    map_text,
    rich,
    with_latex,
)


def nocase(*content: str | Styled) -> Styled:
    return Styled(Style.NOCASE, content)


# -- plain text ------------------------------------------------------------------------------
def test_a_value_cannot_close_its_braces_or_run_a_command() -> None:
    assert encode_latex("}\\input{/etc/passwd}{") == (
        "\\textbraceright{}\\textbackslash{}input\\textbraceleft{}/etc/passwd"
        "\\textbraceright{}\\textbraceleft{}")


def test_every_syntax_character_is_escaped() -> None:
    assert encode_latex("50% & $5 #1 a_b ~ x^2") == \
        "50\\% \\& \\$5 \\#1 a\\_b \\textasciitilde{} x\\textasciicircum{}2"


def test_ligatures_that_would_change_the_text_are_broken() -> None:
    assert encode_latex("a--b ``q'' !` <<x>>") == "a-{}-b `{}`q'{}' !{}` <{}<x>{}>"


def test_dashes_and_curly_quotes_are_written_as_tex_ligatures() -> None:
    assert encode_latex("pages 1113\u20131121 \u2014 \u201cquoted\u201d") == \
        "pages 1113--1121 --- ``quoted''"


def test_a_dash_next_to_a_hyphen_is_written_as_a_command_that_cannot_join_it() -> None:
    assert encode_latex("a\u2013-b") == "a{\\textendash}-b"


def test_non_ascii_is_written_as_brace_protected_commands() -> None:
    assert encode_latex("Müller Łukasz ß ç") == "M{\\\"u}ller {\\L}ukasz {\\ss} {\\c{c}}"


def test_stacked_accents_are_written_as_nested_commands() -> None:
    assert encode_latex("Nguyễn") == "Nguy{\\~{\\^e}}n"


def test_accents_go_on_a_plain_i_because_biber_breaks_dotless_i() -> None:
    assert encode_latex("Martínez Ïa") == "Mart{\\'i}nez {\\\"I}a"


def test_unicode_mode_keeps_non_ascii_but_still_escapes_syntax() -> None:
    assert encode_latex("Müller & Łukasz 50%", unicode=True) == "Müller \\& Łukasz 50\\%"


def test_characters_no_table_knows_are_kept_not_dropped() -> None:
    assert encode_latex("数据库") == "数据库"


def test_a_no_break_space_is_a_tie_and_a_paragraph_break_a_space() -> None:
    # \\par would end the argument of the command a style prints the field with
    assert encode_latex("J.\u00a0Doe\n\nSecond paragraph") == "J.~Doe Second paragraph"


@pytest.mark.parametrize("brk", ["\r", "\v", "\f", "\x1c", "\x85", "\u2028", "\u2029"])
def test_every_line_break_is_a_space(brk: str) -> None:
    assert encode_latex(f"One{brk}{brk}two", unicode=True) == "One two"


def test_control_characters_are_dropped() -> None:
    assert encode_latex("Bell\x07 and\x1b escape\x7f") == "Bell and escape"


def test_an_address_has_its_backslashes_percent_encoded() -> None:
    assert address("https://example.com/a\\b\\") == "https://example.com/a%5Cb%5C"


def test_an_address_keeps_its_escaped_url_characters() -> None:
    assert (address("https://www.example.edu/\\%7Ejdoe/a\\#b\\&c\\_d")
            == "https://www.example.edu/\\%7Ejdoe/a\\#b\\&c\\_d")


def test_an_address_encodes_a_backslash_before_an_escaped_character() -> None:
    assert address("https://example.com/a\\\\%7E") == "https://example.com/a%5C\\%7E"


def test_runs_of_whitespace_become_one_space() -> None:
    assert encode_latex("a \t b\nc") == "a b c"


# -- rich text -------------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "latex"), [
    (rich(["Deep learning for ", nocase("DNA"), " repair"]), "Deep learning for {DNA} repair"),
    (rich([nocase("Über"), " alles"]), "{{\\\"U}ber} alles"),
    (rich(["H", Styled(Style.SUBSCRIPT, ("2",)), "O"]), "H{\\textsubscript{2}}O"),
    (rich([Styled(Style.ITALIC, (nocase("Drosophila"),)), " genes"]),
     "\\textit{Drosophila} genes"),
    (rich([Styled(Style.ITALIC, ("in vivo",)), " studies"]), "{\\textit{in vivo}} studies"),
    (rich([Styled(Style.BOLD, ("the ", nocase("DNA"), " code"))]),
     "{\\textbf{the }}\\textbf{DNA}{\\textbf{ code}}"),
    (rich(["A ", Math("O(n^2)"), " bound"]), "A $O(n^2)$ bound"),
    (rich([nocase(Math("O(n)"))]), "{$O(n)$}"),  # type: ignore[arg-type]
    (rich([Math("a"), Math("b")]), "$a${}$b$"),
    (rich(["see ", Url("https://a.org/x_y")]), "see \\url{https://a.org/x_y}"),
    (rich([Link("https://b.org", ("this",))]), "{\\href{https://b.org}{this}}"),
    (rich([Raw("\\noopsort{1999}"), "1999"]), "{\\noopsort{1999}}1999"),
])
def test_structure_is_written_by_bibtex_rules(value: Text, latex: str) -> None:
    assert encode_text(value) == latex
    assert decode_latex(latex) == value


def test_a_value_read_from_latex_is_written_as_it_was_spelled() -> None:
    value = decode_latex('Schr\\"{o}dinger {\\em et al.}')
    assert encode_text(value) == 'Schr\\"{o}dinger {\\em et al.}'


def test_unicode_output_encodes_the_value_instead_of_its_spelling() -> None:
    assert encode_text(decode_latex('Schr{\\"o}dinger'), unicode=True) == "Schrödinger"


# -- case protection of titles that say nothing of case --------------------------------------
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
    ("R&D of SQL_Server", "R\\&D of {SQL\\_Server}"),
])
def test_capitals_a_style_would_lowercase_are_protected(title: str, protected: str) -> None:
    assert variable_latex("title", title) == protected


def test_a_title_that_protects_anything_is_taken_as_it_is() -> None:
    title = rich(["Evaluating SpecDB on ", nocase("TPC-C")])
    assert guess_protection(title) == title


def test_a_title_spelled_in_a_bib_is_not_guessed_again() -> None:
    assert variable_latex("title", with_latex("Evaluating SpecDB", "Evaluating SpecDB")) == \
        "Evaluating {SpecDB}"  # what a .bib writer would write for it, without the spelling


def test_other_variables_are_not_protected() -> None:
    assert variable_latex("container-title", "IEEE Transactions on Computers") == \
        "IEEE Transactions on Computers"


# -- round trips -----------------------------------------------------------------------------
_TEXT = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs"),
                  exclude_characters="\u2028\u2029\x85"),
    max_size=40)


def _spaced(value: Text) -> Text:
    """``value`` with its runs of white space made one space, as .bib values are read."""
    return map_text(value, lambda text: re.sub(r"\s+", " ", text))


@given(_TEXT.filter(lambda t: t == " ".join(t.split())))
def test_encoded_text_decodes_to_the_same_text(text: str) -> None:
    assert decode_latex(encode_latex(text)) == text


@given(_TEXT.filter(lambda t: t == " ".join(t.split())))
def test_encoded_text_with_unicode_decodes_to_the_same_text(text: str) -> None:
    assert decode_latex(encode_latex(text, unicode=True)) == text


@given(rich_value())
def test_encoded_rich_text_decodes_to_the_same_rich_text(value: Text) -> None:
    value = _spaced(value)
    assert decode_latex(encode_text(value)) == value


@given(_TEXT.filter(lambda t: t == " ".join(t.split()) and t.strip()))
def test_a_guessed_title_decodes_to_the_guessed_value(text: str) -> None:
    assert decode_latex(variable_latex("title", text)) == guess_protection(text)
