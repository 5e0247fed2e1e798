"""LaTeX in .bib values decoded to rich text by BibTeX's own rules, nothing lost."""

from __future__ import annotations

import pytest

from refbridge.latex.decode import decode_latex
from refbridge.richtext import Link, Math, Raw, RichText, Style, Styled, Text, Url, plain, rich


def nocase(*content: str | Styled) -> Styled:
    return Styled(Style.NOCASE, content)


def inlines(value: Text) -> tuple[object, ...]:
    return value.inlines if isinstance(value, RichText) else (value,)


def test_text_without_latex_is_a_plain_string() -> None:
    assert decode_latex("Deep learning for protein folding") == \
        "Deep learning for protein folding"


def test_a_group_at_the_top_level_protects_case() -> None:
    assert inlines(decode_latex("{SpecDB}: {LLM}-Generated Databases")) == (
        nocase("SpecDB"), ": ", nocase("LLM"), "-Generated Databases")


def test_a_protected_family_name_is_one_protected_unit() -> None:
    assert inlines(decode_latex("{van Vugt}")) == (nocase("van Vugt"),)


def test_a_group_that_starts_with_a_command_is_a_special_character_whose_case_may_change(
        ) -> None:
    assert inlines(decode_latex('{\\"U}ber {\\em Cataglyphis}')) == (
        "Über ", Styled(Style.ITALIC, ("Cataglyphis",)))


def test_the_argument_of_a_command_at_the_top_level_is_a_protecting_group() -> None:
    assert inlines(decode_latex('\\"{U}ber \\emph{Drosophila}')) == (
        nocase("Ü"), "ber ", Styled(Style.ITALIC, (nocase("Drosophila"),)))


def test_deeper_groups_only_group() -> None:
    assert inlines(decode_latex("{The {DNA} of {{life}}}")) == (nocase("The DNA of life"),)


@pytest.mark.parametrize(("latex", "text"), [
    ('{\\"u}', "ü"), ('\\"{u}', "ü"), ('\\"u', "ü"), ("\\c c", "ç"), ("{\\c{c}}", "ç"),
    ("{\\'\\i}", "í"), ("\\'{\\i}", "í"), ("Nguy{\\~{\\^e}}n", "Nguyễn"), ("{\\v{S}}koda", "Škoda"),
    ("{\\ss}", "ß"), ("{\\o}", "ø"), ("{\\L}ukasz", "Łukasz"), ("\\aa{}", "å"),
    ("\\H{o}", "ő"), ("\\k{a}", "ą"), ("\\r{a}", "å"), ("\\u{g}", "ğ"), ("\\.{Z}", "Ż"),
])
def test_every_accent_form_reads_as_its_character(latex: str, text: str) -> None:
    assert plain(decode_latex(latex)) == text


@pytest.mark.parametrize(("latex", "text"), [
    # Zotero's BibTeX case 06 ends its title with a tilde accent on nothing.
    ("tilde operator: \\~", "tilde operator: \u02dc"), ("x\\^{}2", "x\u02c62"),
    ("\\'{}", "\u00b4"), ('\\"{}', "\u00a8"),
])
def test_an_accent_on_nothing_is_the_mark_alone_as_tex_prints_it(latex: str, text: str) -> None:
    assert plain(decode_latex(latex)) == text


@pytest.mark.parametrize(("latex", "text"), [
    ("pages 1113--1121", "pages 1113\u20131121"),
    ("yes---no", "yes\u2014no"),
    ("``quoted''", "\u201cquoted\u201d"),
    ("Dr.~Who", "Dr.\u00a0Who"),
    ("a\\,b", "a b"),
    ("and\\slash or", "and/or"),
    ("50\\% \\& \\$5 \\# \\_", "50% & $5 # _"),
    ("Sch\\-rift", "Sch\u00adrift"),
    ("e.g.\\@ this", "e.g. this"),
])
def test_dashes_quotes_ties_and_escaped_characters(latex: str, text: str) -> None:
    assert plain(decode_latex(latex)) == text


@pytest.mark.parametrize(("latex", "style"), [
    ("\\textit{x}", Style.ITALIC), ("\\textbf{x}", Style.BOLD), ("\\textsc{x}", Style.SMALL_CAPS),
    ("\\textsuperscript{x}", Style.SUPERSCRIPT), ("\\textsubscript{x}", Style.SUBSCRIPT),
    ("\\texttt{x}", Style.MONOSPACE), ("\\mkbibemph{x}", Style.ITALIC),
])
def test_font_commands_become_styles(latex: str, style: str) -> None:
    assert inlines(decode_latex(latex)) == (Styled(style, (nocase("x"),)),)


@pytest.mark.parametrize(("latex", "style"), [
    ("{\\em x}", Style.ITALIC), ("{\\it x}", Style.ITALIC), ("{\\bf x}", Style.BOLD),
    ("{\\sc x}", Style.SMALL_CAPS),
    ("{\\tt x}", Style.MONOSPACE), ("{\\itshape x}", Style.ITALIC),
])
def test_font_switches_style_the_rest_of_their_group(latex: str, style: str) -> None:
    assert inlines(decode_latex(latex + " y")) == (Styled(style, ("x",)), " y")


def test_a_command_without_braces_takes_one_character_as_tex_does() -> None:
    assert inlines(decode_latex("{\\textit Cataglyphis fortis}")) == (
        Styled(Style.ITALIC, ("C",)), "ataglyphis fortis")


def test_sub_and_superscripts_keep_their_structure() -> None:
    assert inlines(decode_latex("H\\textsubscript{2}O")) == (
        "H", Styled(Style.SUBSCRIPT, (nocase("2"),)), "O")


@pytest.mark.parametrize(("latex", "formula"), [
    ("$O(n^2)$", Math("O(n^2)")),
    ("$\\sum_{i=1}^n x_i^2 \\geq 0$", Math("\\sum_{i=1}^n x_i^2 \\geq 0")),
    ("\\(x\\)", Math("x")),
    ("\\[x\\]", Math("x", display=True)),
    ("$$x$$", Math("x", display=True)),
    ("\\ensuremath{x^2}", Math("x^2")),
])
def test_formulas_are_kept_as_their_tex(latex: str, formula: Math) -> None:
    assert inlines(decode_latex(latex)) == (formula,)


def test_a_formula_of_one_symbol_in_ensuremath_is_the_character() -> None:
    assert decode_latex("{\\ensuremath{\\alpha}}") == "α"


@pytest.mark.parametrize("latex", [
    "\\cite{knuth84}", "\\noopsort{1999}", "\\flash", "\\ref{sec:intro}", "\\\\",
])
def test_commands_without_a_meaning_are_kept_as_written(latex: str) -> None:
    assert inlines(decode_latex(latex)) == (Raw(latex),)


def test_an_unknown_command_keeps_the_space_after_it() -> None:
    assert inlines(decode_latex("\\flash is fast")) == (Raw("\\flash "), "is fast")


def test_addresses_and_links_are_kept_verbatim() -> None:
    assert inlines(decode_latex("see \\url{https://a.org/x_y%20z} or "
                                "\\href{https://b.org}{\\emph{this}}")) == (
        "see ", Url("https://a.org/x_y%20z"), " or ",
        Link("https://b.org", (Styled(Style.ITALIC, ("this",)),)))


def test_a_quotation_command_puts_its_argument_in_curly_quotes() -> None:
    assert plain(decode_latex("\\mkbibquote{De Motu}")) == "\u201cDe Motu\u201d"


def test_a_decoded_value_remembers_its_spelling() -> None:
    value = decode_latex('Schr\\"{o}dinger')
    assert isinstance(value, RichText)
    assert value.latex == 'Schr\\"{o}dinger'


def test_text_outside_ascii_is_read_as_it_is_and_keeps_its_spelling() -> None:
    value = decode_latex("Müller")
    assert value == "Müller"
    assert isinstance(value, RichText) and value.latex == "Müller"


def test_a_brace_that_pairs_with_none_is_a_character() -> None:
    assert plain(decode_latex("{der Berg")) == "{der Berg"
    assert plain(decode_latex("Jan}")) == "Jan}"


def test_groups_nested_hundreds_deep_are_read() -> None:
    value = decode_latex("{" * 600 + "x" + "}" * 600)
    assert inlines(value) == (nocase("x"),)


def test_prose_reads_a_tilde_after_a_space_and_a_lone_dollar_as_characters() -> None:
    value = decode_latex("costs ~3% and $5, and $1.94\\times$ faster", prose=True)
    assert plain(value) == "costs ~3% and $5, and 1.94× faster"
    assert isinstance(value, RichText) and value.latex is None


def test_prose_keeps_formulas() -> None:
    assert inlines(decode_latex("speedup $O(n^2)$", prose=True)) == ("speedup ", Math("O(n^2)"))


def test_decoded_values_are_immutable_and_shared() -> None:
    assert decode_latex("{DNA} repair") is decode_latex("{DNA} repair")
    assert rich(inlines(decode_latex("{DNA} repair"))) == decode_latex("{DNA} repair")


def test_a_logo_is_kept_as_latex_and_reads_as_its_name() -> None:
    assert inlines(decode_latex("The \\TeX book and {\\LaTeX}")) == (
        "The ", Raw("\\TeX", "TeX"), "book and ", Raw("\\LaTeX", "LaTeX"))
    assert plain(decode_latex("The \\TeX book")) == "The TeXbook"
