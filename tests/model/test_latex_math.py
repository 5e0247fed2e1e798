"""Formulas shown without TeX: Unicode, superscripts and subscripts, never dropped."""

from __future__ import annotations

import pytest

from refbridge.latex.math import math_inlines, math_plain
from refbridge.richtext import Style, Styled


@pytest.mark.parametrize(("tex", "text"), [
    ("O(n^2)", "O(n²)"),
    ("\\sum_{i=1}^n x_i^2 \\geq 0", "∑ᵢ₌₁ⁿ xᵢ² ≥ 0"),
    ("O(n \\log n)", "O(n log n)"),
    ("10^{-3}", "10⁻³"),
    ("\\alpha", "α"),
    ("\\mathcal{O}(n)", "𝒪(n)"),
    ("\\mathbb{R}^d", "ℝᵈ"),
    ("\\sqrt{n}", "√n"),
    ("\\sqrt[3]{2}", "∛2"),
    ("\\frac{a+b}{c}", "(a+b)/c"),
    ("\\tilde{O}(n)", "Õ(n)"),
    ("\\left(x\\right)", "(x)"),
    ("f'(x)", "f′(x)"),
    ("a \\times b", "a × b"),
])
def test_a_formula_reads_as_unicode(tex: str, text: str) -> None:
    assert math_plain(tex) == text


def test_a_script_without_unicode_characters_keeps_its_mark() -> None:
    assert math_plain("x^\\alpha") == "x^α"
    assert math_plain("x_{\\beta\\gamma}") == "x_(βγ)"


def test_a_script_of_text_without_unicode_characters_reads_as_its_text() -> None:
    # Zotero's BibTeX case 07: journal = {Actes du $4^{\textrm{ème}}$ Congrès ...}.
    assert math_plain("4^{\\textrm{ème}}") == "4ème"


def test_a_script_of_text_with_unicode_characters_is_raised() -> None:
    # The same case's title: DNA$_{\textrm{2}}$.
    assert math_plain("_{\\textrm{2}}") == "\u2082"


def test_a_script_of_text_stays_a_script_in_the_rich_text() -> None:
    assert math_inlines("4^{\\textrm{ème}}") == ("4", Styled(Style.SUPERSCRIPT, ("ème",)))


def test_scripts_are_superscript_and_subscript_inlines() -> None:
    assert math_inlines("x_i^2") == (
        "x", Styled(Style.SUBSCRIPT, ("i",)), Styled(Style.SUPERSCRIPT, ("2",)))


def test_an_unknown_command_is_shown_as_written() -> None:
    assert math_plain("\\unknown{y} + 1") == "\\unknown{y} + 1"


def test_a_formula_nested_too_deeply_to_follow_is_shown_as_written() -> None:
    tex = "{" * 900 + "x" + "}" * 900
    assert math_plain(tex) == tex


def test_a_font_switch_makes_the_rest_of_its_group_bold() -> None:
    # a real .bib title: {Curves in ${\bf P}^{n}$ of low degree}
    assert math_inlines("{\\bf P}^{n}") == (
        Styled(Style.BOLD, ("P",)), Styled(Style.SUPERSCRIPT, ("n",)))


def test_a_bold_font_command_makes_its_argument_bold() -> None:
    assert math_inlines("\\mathbf{x} + \\boldsymbol\\mu") == (
        Styled(Style.BOLD, ("x",)), " + ", Styled(Style.BOLD, ("μ",)))


def test_a_roman_font_switch_shows_the_rest_of_its_group_as_it_is() -> None:
    assert math_inlines("x_{\\rm max}") == ("x", Styled(Style.SUBSCRIPT, ("max",)))


def test_bold_and_italics_read_as_their_letters_in_plain_text() -> None:
    assert math_plain("{\\bf P}^{n}") == "Pⁿ"
