"""The fast decoder for simple LaTeX gives pylatexenc's result exactly, or hands over."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refbridge.latex.decode import decode_latex, parse_latex
from refbridge.latex.simple import decode_simple


@pytest.mark.parametrize(("latex", "text"), [
    ("{SpecDB}: {LLM}-Generated", "SpecDB: LLM-Generated"),
    ("Aks{\\i}n, {\\\"O}zge", "Aksın, Özge"),
    ("{\\c{C}}etinkaya \\c c", "Çetinkaya ç"),
    ("\\'{\\i} \\\"\\i{} \\v{s}", "í ï š"),
    ("pp.~1--10 ---", "pp.\u00a01–10 —"),
    ("``quoted''", "“quoted”"),
    ("50\\% \\& \\$ \\_", "50% & $ _"),
    ("\\TeX book \\ss{} x", "TeXbook ß x"),
    ("\\texttt{x} and \\emph{y}", "x and y"),
    ("baez\\slash article", "baez/article"),
    ("\\mkbibquote{De Motu {A}nimalium}", "“De Motu Animalium”"),
    ("\\arabic{author} authors", "\\arabicauthor authors"),
])
def test_simple_latex_is_decoded_without_the_parser(latex: str, text: str) -> None:
    assert decode_simple(latex) == text


@pytest.mark.parametrize("latex", [
    "$x^2$", "\\emph x", "{unbalanced", "closed}", "\\'\\i x", "\\mkbibquote q",
    "a_b",
])
def test_anything_else_is_left_to_the_parser(latex: str) -> None:
    assert decode_simple(latex) is None


_PIECES = st.sampled_from([
    "a", "Z", " ", "  ", "x y", "{", "}", "{}", "~", "-", "--", "---", "`", "``", "'", "''",
    "!", "?", "!`", "?`", "%", "&", "\\%", "\\&", "\\$", "\\#", "\\_", "\\{", "\\}",
    "\\'e", "\\'{e}", "\\\"{u}", "\\\"\\i", "\\'{\\i}", "\\c{c}", "\\c c", "\\v{s}",
    "\\H{o}", "\\k{a}", "\\r{a}", "\\u{g}", "\\d{s}", "\\b{b}", "\\=o", "\\.z", "\\~n",
    "\\^o", "\\`a", "\\ss", "\\ss{}", "\\o", "\\L", "\\AE", "\\aa{}", "\\i", "\\j",
    "\\textendash", "\\textendash{}", "\\dots", "\\TeX", "\\slash", "\\par", "\\foo",
    "\\textbraceleft{}", "\\textbackslash{}", "\\emph{", "\\texttt{", "\\textbf{", "\\url{",
    "$", "^", "_", "#", "\\", "\\t{oo}", "\\mkbibquote{", "\n",
])


@settings(max_examples=400)
@given(st.lists(_PIECES, max_size=12).map("".join))
def test_the_fast_decoder_agrees_with_the_parser(latex: str) -> None:
    fast = decode_simple(latex)
    if fast is not None:
        assert fast == parse_latex(latex)


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_decoding_never_fails(latex: str) -> None:
    assert isinstance(decode_latex(latex), str)
