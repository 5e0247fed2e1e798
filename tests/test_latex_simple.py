"""The fast decoder for simple LaTeX gives pylatexenc's result exactly, or hands over."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refbridge.latex.decode import decode_latex, fixed_macro_text, parse_latex
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
    ("\\ss\n\nNeuer Absatz", "ß\n\nNeuer Absatz"),
])
def test_simple_latex_is_decoded_without_the_parser(latex: str, text: str) -> None:
    assert decode_simple(latex) == text


@pytest.mark.parametrize("latex", [
    "\\emph x", "{unbalanced", "closed}", "\\'\\i x", "\\mkbibquote q", "a_b",
    "$$x$$", "$x^2", "\\(x\\)", "$\\frac{1}{2}$", "$\\sqrt[3]{2}$", "$\\sqrt n$",
    "$\\tilde{\\alpha }$", "$\\mathcal O$", "$a\\\\b$",
])
def test_anything_else_is_left_to_the_parser(latex: str) -> None:
    assert decode_simple(latex) is None


@pytest.mark.parametrize(("latex", "text"), [
    ("$k$-means", "k-means"),
    ("$\\ell_1$", "\u2113_1"),
    ("$n^2$", "n^2"),
    ("$x_{ij}$", "x_ij"),
    ("$10^{-3}$", "10^-3"),
    ("$\\mathcal{O}(n)$", "O(n)"),
    ("$\\sqrt{n}$", "\u221a(n)"),
    ("$\\tilde{O}(n)$", "\u00d5(n)"),
    ("$\\geq$", "\u2265"),
    ("$\\alpha$-Stable Laws", "\u03b1-Stable Laws"),
    ("$O(n \\log n)$ Algorithms", "O(n logn) Algorithms"),
    ("$a \\times b$", "a \u00d7b"),
    ("$ \\beta $-Reduction", "\u03b2-Reduction"),
    ("About $50\\,\\%$", "About 50 %"),
    ("$\\left(x\\right)$", "\\left(x\\right)"),
])
def test_inline_math_is_decoded_without_the_parser(latex: str, text: str) -> None:
    """As the parser does: a command eats the spaces after it, ``^`` and ``_`` stay, and the
    spaces around the formula go."""
    assert decode_simple(latex) == text


#: Titles with inline math as .bib files hold them.
MATH_TITLES: tuple[str, ...] = (
    "$k$-means++: The Advantages of Careful Seeding",
    "Near-Optimal Algorithms for $\\ell_1$ Regression",
    "An $O(n \\log n)$ Sorting Network",
    "$\\mathcal{O}(n)$ Time Suffix Array Construction",
    "Testing Uniformity with $\\sqrt{n}$ Samples",
    "Error Rates below $10^{-3}$",
    "The $\\Lambda$CDM Model",
    "Learning with $\\ell_{2,1}$-Norm Regularization",
    "Sparse Recovery for $p \\geq 2$",
    "Products of $2 \\times 2$ Matrices",
    "Solving $Ax = b$ in Nearly Linear Time",
    "$\\epsilon$-Nets and Simplex Range Queries",
    "$H_\\infty$ Control of Delay Systems",
    "Breaking the $n^2$ Barrier",
    "Graphs with $\\Delta \\leq 3$",
    "$\\mathbb{Z}_2$ Homology of Configuration Spaces",
    "The $\\lambda$-Calculus: Its Syntax and Semantics",
    "$\\chi^2$ Tests for Goodness of Fit",
    "A $\\mu$SR Study of Superconductors",
    "A $(1 + \\epsilon)$-Approximation for Euclidean {TSP}",
    "$\\mathrm{SU}(2)$ Gauge Theory",
    "$\\text{NP}$-Hardness of Learning",
    "$\\Omega(n^{1/3})$ Lower Bounds",
    "Codes over $\\{0,1\\}^n$",
    "Limits as $n \\to \\infty$",
    "$K_{3,3}$-Free Graphs",
    "Na{\\\"\\i}ve $k$-{NN} Classifiers",
    "\\emph{$p$-adic} Numbers",
    "$\\tilde{O}(n)$-Time Algorithms for Planar Graphs",
    "An $O(\\sqrt{n})$ Bound",
    "$O(n^{2.373})$ Matrix Multiplication",
    "Points $x_i \\in \\mathbb{R}^d$",
    "$\\pi$ and $e$ Are Transcendental",
    "$\\Pi_2^p$-Completeness",
    "$\\log n$ Rounds Suffice",
    "$\\sum_{i=1}^{n} a_i$ Revisited",
    "$|V| \\cdot |E|$ Time",
    "The Class $\\mathcal{NP}$",
    "$\\overline{K}_n$ Is Connected",
    "$\\phi$-Divergences and Their Applications",
    "$\\hat{\\theta}$ Is Consistent",
    "Over $\\mathbb{F}_{2^k}$: Fast Arithmetic",
    "M{\\\"o}bius Functions and $q$-Analogues",
    "$\\beta$-Reduction~and $\\eta$-Expansion",
    "$\\alpha\\beta$-Pruning --- Revisited",
)


@pytest.mark.parametrize("latex", MATH_TITLES)
def test_math_in_titles_is_decoded_as_the_parser_does(latex: str) -> None:
    assert decode_simple(latex) == parse_latex(latex)


@pytest.mark.parametrize(("name", "text"), [
    ("alpha", "\u03b1"), ("log", "log"), ("times", "\u00d7"), (",", " "), ("ss", "\u00df"),
    ("sqrt", None), ("emph", None), ("hat", None), ("noindent", None), ("foo", None),
])
def test_fixed_text_is_known_only_for_commands_without_arguments(name: str,
                                                                 text: str | None) -> None:
    assert fixed_macro_text(name) == text


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


_MATH_PIECES = st.sampled_from([
    "x", "n", "2", "10", " ", "  ", "(", ")", "+", "-", "=", "<", ",", "|", "'", "''", "--",
    "^", "_", "{", "}", "{}", "~", "\\%", "\\{", "\\}", "\\_", "\\alpha", "\\Omega",
    "\\ell", "\\log", "\\log ", "\\lim", "\\geq", "\\times", "\\infty", "\\cdot",
    "\\in", "\\to", "\\prime", "\\quad", "\\,", "\\;", "\\!", "\\ ", "\\-",
    "\\ss", "\\alpha{}", "\\foo", "\\mathcal{", "\\mathbb{", "\\mathrm{", "\\text{",
    "\\sqrt{", "\\overline{", "\\sqrt", "\\frac{", "\\tilde{O}", "\\hat{x}", "\\hat{\\theta}",
    "\\bar", "\\tilde", "\\'e", "\\left(", "\\right)", "\\\\", "\\", "\n", "$",
])


@settings(max_examples=600)
@given(st.lists(_PIECES, max_size=4).map("".join), st.lists(_MATH_PIECES, max_size=10)
       .map("".join), st.lists(_PIECES, max_size=4).map("".join))
def test_the_fast_decoder_agrees_with_the_parser_on_math(before: str, formula: str,
                                                         after: str) -> None:
    latex = f"{before}${formula}${after}"
    fast = decode_simple(latex)
    if fast is not None:
        assert fast == parse_latex(latex)


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_decoding_never_fails(latex: str) -> None:
    assert isinstance(decode_latex(latex), str)
