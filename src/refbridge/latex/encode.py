"""Unicode to LaTeX for .bib field values: text that BibTeX, biber and pdflatex read literally.

Every character that is LaTeX or BibTeX syntax is written as a command that prints it, so no
value can close its braces, start a comment or run a command: ``\\`` -> ``\\textbackslash{}``,
``{`` -> ``\\textbraceleft{}`` (not ``\\{``: BibTeX counts every brace, escaped or not, so an
escaped lone brace would still end the field), ``# $ % & _`` -> ``\\#`` ..., ``~`` and ``^`` ->
``\\textasciitilde{}`` / ``\\textasciicircum{}``. TeX ligatures that would change the text
(``--``, ``''``, ``!```) are broken with ``{}``, a no-break space becomes ``~`` and a paragraph
break ``\\par``. Non-ASCII characters become brace-protected commands (``{\\"u}``, ``{\\L}``),
from pylatexenc's table with one fix: pylatexenc writes ``í`` as ``{\\'\\i}``, which biber turns
into a dotless i plus a combining accent that pdflatex rejects, so accents are put on plain
``i``/``j`` (``{\\'i}``), and a command is used only if it decodes back to the same character
(pylatexenc writes ``𝙰`` as ``\\mathtt{A}``). Other characters are kept as UTF-8, never dropped. With
``unicode=True`` only the syntax characters are encoded.

``protect_case`` adds the braces that stop BibTeX styles from lower-casing acronyms and proper
nouns in titles. ``refbridge.latex.decode`` reads all of this back to the same text. This
module must never let record text become LaTeX markup.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

#: Characters that are syntax in LaTeX or BibTeX, and the text each is written as.
SYNTAX_CHARACTERS: dict[str, str] = {
    "\\": "\\textbackslash{}",
    "{": "\\textbraceleft{}",
    "}": "\\textbraceright{}",
    "#": "\\#",
    "$": "\\$",
    "%": "\\%",
    "&": "\\&",
    "_": "\\_",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
    "\u00a0": "~",
}

#: Character pairs TeX (with T1 fonts) merges into another character (``--`` is an en dash,
#: ``<<`` a guillemet): ``{}`` is put between them.
LIGATURES: tuple[str, ...] = ("--", "``", "''", "!`", "?`", "<<", ">>", ",,")

_SPECIAL = re.compile("[" + re.escape("".join(SYNTAX_CHARACTERS)) + "]")
_LIGATURE = re.compile("|".join(f"(?<={re.escape(p[0])})(?={re.escape(p[1])})"
                                for p in LIGATURES))
_NEEDS_WORK = re.compile(r"[^ -~]|[\\{}#$%&_~^]|--|``|''|!`|\?`|<<|>>|,,|  ")
_PARAGRAPH = re.compile(r"[ \t\r\f\v]*\n[ \t\r\f\v]*\n[ \t\n\r\f\v]*")
_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
#: ``{\'\i}`` -> ``{\'i}`` (see the module docstring).
_DOTLESS_ACCENT = re.compile(r"(\\[`'^\"~=.uvHrcdbk])(?:\{\\([ij])\}|\\([ij])(?![A-Za-z]) ?)")


@cache
def _encoder() -> Any:
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    return UnicodeToLatexEncoder(non_ascii_only=True,
                                 replacement_latex_protection="braces-all",
                                 unknown_char_policy="keep", unknown_char_warning=False)


@cache
def latex_for(char: str) -> str:
    """The LaTeX command for one non-ASCII character, or the character itself when no command
    reads back as exactly that character (pylatexenc writes ``𝙰`` as ``\\mathtt{A}``)."""
    from refbridge.latex.decode import decode_latex

    latex: str = _encoder().unicode_to_latex(char)
    latex = _DOTLESS_ACCENT.sub(lambda m: f"{m.group(1)}{{{m.group(2)}}}" if m.group(2)
                                else f"{m.group(1)}{m.group(3)}", latex)
    return latex if decode_latex(latex) == char else char


def _non_ascii(match: re.Match[str]) -> str:
    return "".join(latex_for(char) for char in match.group())


def _syntax(match: re.Match[str]) -> str:
    return SYNTAX_CHARACTERS[match.group()]


def _line(text: str, unicode: bool) -> str:
    text = _LIGATURE.sub("{}", _SPECIAL.sub(_syntax, _SPACE.sub(" ", text)))
    return text if unicode else _NON_ASCII.sub(_non_ascii, text)


def encode_latex(text: str, *, unicode: bool = False) -> str:
    """``text`` as LaTeX that prints it; whitespace runs become one space, paragraph breaks
    ``\\par``. ``unicode``: keep non-ASCII characters as they are."""
    if not _NEEDS_WORK.search(text):
        return text
    paragraphs = _PARAGRAPH.split(text)
    return "\\par ".join(_line(p, unicode) for p in paragraphs)


# -- case protection ---------------------------------------------------------------------
#: A word, without the hyphens of a compound (``LLM-Generated`` is two words).
_WORD = re.compile(r"[^\W_](?:[\w'’.]*[^\W_])?")
#: Words whose case says nothing about the title's style.
_MINOR_WORDS: frozenset[str] = frozenset({
    "a", "an", "the", "of", "on", "in", "at", "to", "for", "and", "or", "but", "nor", "with",
    "from", "by", "as", "via", "into", "onto", "over", "under", "about", "after", "before",
    "between", "through", "during", "without", "within", "is", "are", "be", "vs",
})
_SENTENCE_END = re.compile(r"[:.?!]\s*$")


def _has_inner_capital(word: str) -> bool:
    return any(c.isupper() for c in word[1:])


def _is_sentence_case(words: list[tuple[int, str, bool]]) -> bool:
    """Whether most words that a title-cased text would capitalise (words of four letters or
    more, not starting a sentence) are in lower case."""
    upper = lower = 0
    for _, word, starts_sentence in words:
        if starts_sentence or len(word) < 4 or word.lower() in _MINOR_WORDS or \
                not word[0].isalpha():
            continue
        if word[0].isupper():
            upper += 1
        else:
            lower += 1
    return lower >= upper


def _protected_spans(text: str) -> list[tuple[int, int]]:
    """Where the words that need braces are, adjacent ones (``TPC-C``) merged."""
    words: list[tuple[int, str, bool]] = []
    for match in _WORD.finditer(text):
        starts_sentence = not words or bool(_SENTENCE_END.search(text[:match.start()]))
        words.append((match.start(), match.group(), starts_sentence))
    sentence_case = _is_sentence_case(words)
    spans: list[tuple[int, int]] = []
    for start, word, starts_sentence in words:
        after_hyphen = start > 0 and text[start - 1] == "-"
        if _has_inner_capital(word) or (after_hyphen and len(word) == 1 and word.isupper()) \
                or (sentence_case and not starts_sentence and word[0].isupper()):
            end = start + len(word)
            if spans and text[spans[-1][1]:start] == "-":
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((start, end))
    return spans


def protect_case(text: str, *, unicode: bool = False) -> str:
    """``text`` encoded like ``encode_latex``, with words whose capitals must survive a
    lower-casing style in braces: acronyms and mixed case (``{SpecDB}``, ``{LLM}``,
    ``{TPC-C}``) always, capitalised words in a sentence-case title (proper nouns) too."""
    pieces: list[str] = []
    position = 0
    for start, end in _protected_spans(text):
        pieces.append(encode_latex(text[position:start], unicode=unicode))
        pieces.append("{" + encode_latex(text[start:end], unicode=unicode) + "}")
        position = end
    pieces.append(encode_latex(text[position:], unicode=unicode))
    return "".join(pieces)
