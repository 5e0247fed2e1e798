"""Which LaTeX writers may write as LaTeX: what could run when a user compiles is refused,
what a hand-kept .bib holds is accepted."""

from __future__ import annotations

import pytest

from refbridge.latex.safety import formula_is_writable, is_harmless


@pytest.mark.parametrize("tex", [
    r"Schr\"{o}dinger", r"\emph{in vivo}", r"{\TeX}book", r"\noopsort{1999}", r"\cite{knuth84}",
    r"H\textsubscript{2}O", r"\url{https://example.org/a_b}", r"Mr.\@ Smith",
    r"\begin{tabular}{c}x\end{tabular}", r"100\% pure", "plain text",
    r"Proceedings of COIN\@AAMAS 2010", r"{\@brilliantmaps}",
])
def test_what_a_bib_holds_is_harmless(tex: str) -> None:
    assert is_harmless(tex)


@pytest.mark.parametrize("tex", [
    r"\input{/etc/passwd}", r"\include{x}", r"\immediate\write18{rm -rf /}", r"\openout1=x",
    r"\catcode`\@=11", r"\csname input\endcsname{x}", r"\directlua{os.exit()}",
    r"\usepackage{shellesc}", r"\end{document}", r"\end {document}", r"\makeatletter",
    r"\@@input x", r"\@input{x}", r"\@iinput{x}", r"\@writefile{toc}{x}", "a^^5cinput b", r"\special{shell}", r"\scantokens{x}",
    r"\def\x{y}", r"\renewcommand{\textit}{x}", r"\let\emph\relax",
])
def test_what_could_run_or_redefine_is_not(tex: str) -> None:
    assert not is_harmless(tex)


def test_a_preamble_may_define_commands() -> None:
    assert is_harmless(r"\providecommand{\noopsort}[1]{}", preamble=True)
    assert not is_harmless(r"\providecommand{\noopsort}[1]{}")


def test_a_preamble_may_not_reach_files() -> None:
    assert not is_harmless(r"\newcommand{\x}{\input{/etc/passwd}}", preamble=True)


@pytest.mark.parametrize("tex", [r"O(n^2)", r"\sum_{i=1}^n x_i^2 \geq 0", r"\mathcal{O}(n)",
                                 r"\frac{a}{b}", r"\{x\}"])
def test_an_ordinary_formula_is_written_as_tex(tex: str) -> None:
    assert formula_is_writable(tex)


@pytest.mark.parametrize("tex", [r"x$ \input{y} $", r"x % y", r"\input{x}", r"{x", r"x}",
                                 r"a \) b", r"\[x\]"])
def test_a_formula_that_breaks_out_or_runs_is_not(tex: str) -> None:
    assert not formula_is_writable(tex)
