"""Rich text to LaTeX for .bib field values: what BibTeX, biber and pdflatex read back as the
same value, by BibTeX's own rules.

A value read from LaTeX is written as its source spelled it (``RichText.latex``), unless the
caller asks for UTF-8 (``unicode=True``) or the value has none: then it is encoded here.

Plain text: every character that is LaTeX or BibTeX syntax is written as a command that prints
it, so no text can close its braces, start a comment or run a command: ``\\`` ->
``\\textbackslash{}``, ``{`` -> ``\\textbraceleft{}`` (not ``\\{``: BibTeX counts every brace,
escaped or not, so an escaped lone brace would still end the field), ``# $ % & _`` -> ``\\#``
..., ``~`` and ``^`` -> ``\\textasciitilde{}`` / ``\\textasciicircum{}``. Dashes and curly
quotes are written as TeX's ligatures (``--``, ``---``, ````` ``, ``''``), other TeX
ligatures that would change the text are broken with ``{}``, a no-break space becomes ``~``;
a line break of any kind (a blank line too: ``\\par`` would end the argument of the command a
style prints the field with) is a space, and control characters (which TeX rejects) are
dropped (``refbridge.textlines``). Non-ASCII characters become brace-protected commands (``{\\"u}``,
``{\\L}``, stacked accents ``{\\~{\\^e}}``), from pylatexenc's table with one fix (``{\\'\\i}``,
which biber turns into a dotless i plus a combining accent that pdflatex rejects, is written
``{\\'i}``), and only where the command reads back as the same character; a character with no
command is kept as UTF-8, never dropped.

Structure, at the top level of a value where BibTeX decides case: *nocase* is a brace group
``{DNA}`` (``{{\\"O}}`` when it would start with a command, which would make it a "special
character" whose case styles change); a style over protected text is the command with its
argument as the protecting group (``\\textit{Drosophila}``), over unprotected text a special
character (``{\\textit{in vivo}}``), and a style over both is cut into pieces of each kind.
Formulas are written as TeX (``$...$``), addresses as ``\\url{}``, links as ``\\href{}{}``
(an address with its backslashes and the braces it cannot pair percent-encoded: ``address``),
raw LaTeX as it was. ``refbridge.latex.decode`` reads all of it back to the same value.

``guess_protection`` (for titles from sources that say nothing of case) protects the words
that BibTeX styles must not lower-case: acronyms and proper nouns. This module must never let
record text become LaTeX markup: only formulas, raw LaTeX and spellings, which were LaTeX in
the source, are written as LaTeX, and of those only what ``refbridge.latex.safety`` finds
harmless (the rest is written as the text it shows).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from refbridge.latex.math import math_plain
from refbridge.latex.safety import formula_is_writable, is_harmless
from refbridge.richtext import (
    Inline,
    Link,
    Math,
    Style,
    Styled,
    Text,
    Url,
    inlines,
    latex_source,
    plain,
    rich,
    unprotected,
    walk,
    without_latex,
)
from refbridge.textlines import CONTROL, one_line

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
#: Characters written as TeX's own ligatures rather than commands.
LIGATURE_CHARACTERS: dict[str, str] = {
    "\u2013": "--", "\u2014": "---", "\u201c": "``", "\u201d": "''",
}
#: The command of each style.
STYLE_COMMANDS: dict[str, str] = {
    Style.ITALIC: "textit", Style.BOLD: "textbf", Style.SMALL_CAPS: "textsc",
    Style.SUPERSCRIPT: "textsuperscript",
    Style.SUBSCRIPT: "textsubscript", Style.MONOSPACE: "texttt",
}
#: Combining marks and the accent commands that put them on a letter.
ACCENT_COMMANDS: dict[str, str] = {
    "\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~",
    "\u0304": "=", "\u0307": ".", "\u0306": "u", "\u030c": "v", "\u030b": "H",
    "\u0327": "c", "\u0323": "d", "\u0331": "b", "\u0328": "k", "\u030a": "r",
}

#: Character pairs TeX (with T1 fonts) merges into another character (``--`` is an en dash,
#: ``<<`` a guillemet): ``{}`` is put between them.
LIGATURES: tuple[str, ...] = ("--", "``", "''", "!`", "?`", "<<", ">>", ",,")

_SPECIAL = re.compile("[" + re.escape("".join(SYNTAX_CHARACTERS)) + "]")
_LIGATURE = re.compile("|".join(f"(?<={re.escape(p[0])})(?={re.escape(p[1])})"
                                for p in LIGATURES))
_NEEDS_WORK = re.compile(r"[^ -~]|[\\{}#$%&_~^]|--|``|''|!`|\?`|<<|>>|,,|  ")
_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_LIGATURE_CHARACTERS = re.compile("[" + "".join(LIGATURE_CHARACTERS) + "]")
#: ``{\'\i}`` -> ``{\'i}`` (see the module docstring).
_DOTLESS_ACCENT = re.compile(r"(\\[`'^\"~=.uvHrcdbk])(?:\{\\([ij])\}|\\([ij])(?![A-Za-z]) ?)")


@cache
def _encoder() -> Any:
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    return UnicodeToLatexEncoder(non_ascii_only=True,
                                 replacement_latex_protection="braces-all",
                                 unknown_char_policy="keep", unknown_char_warning=False)


def _stacked_accents(char: str) -> str | None:
    """``ễ`` as ``{\\~{\\^e}}``: a letter and accents that each have a command."""
    decomposed = unicodedata.normalize("NFD", char)
    base, marks = decomposed[0], decomposed[1:]
    if not marks or not base.isascii() or not all(m in ACCENT_COMMANDS for m in marks):
        return None
    latex = base
    for mark in marks:
        command = ACCENT_COMMANDS[mark]
        latex = f"\\{command}{{{latex}}}" if command.isalpha() or len(latex) > 1 \
            else f"\\{command}{latex}"
    return "{" + latex + "}"


@cache
def latex_for(char: str) -> str:
    """The LaTeX command for one non-ASCII character, or the character itself when no command
    reads back as exactly that character (pylatexenc writes ``𝙰`` as ``\\mathtt{A}``)."""
    from refbridge.latex.decode import decode_latex

    latex: str = _encoder().unicode_to_latex(char)
    if latex == char:
        latex = _stacked_accents(char) or char
    latex = _DOTLESS_ACCENT.sub(lambda m: f"{m.group(1)}{{{m.group(2)}}}" if m.group(2)
                                else f"{m.group(1)}{m.group(3)}", latex)
    decoded = decode_latex(latex)
    return latex if isinstance(decoded, str) and decoded == char or \
        not isinstance(decoded, str) and decoded.inlines == (char,) else char


def _non_ascii(match: re.Match[str]) -> str:
    return "".join(latex_for(char) for char in match.group())


def _syntax(match: re.Match[str]) -> str:
    return SYNTAX_CHARACTERS[match.group()]


def _ligature_character(match: re.Match[str]) -> str:
    """A dash or curly quote as TeX's ligature, unless a neighbour would join it (``-–``)."""
    char, text = match.group(), match.string
    spelled = LIGATURE_CHARACTERS[char]
    start, end = match.span()
    if (start and text[start - 1] == spelled[0]) or (end < len(text) and text[end] == spelled[0]):
        return char  # written as a command (or kept, with ``unicode``)
    return spelled


def _line(text: str, unicode: bool) -> str:
    text = _LIGATURE.sub("{}", _SPECIAL.sub(_syntax, _SPACE.sub(" ", text)))
    text = _LIGATURE_CHARACTERS.sub(_ligature_character, text)
    return text if unicode else _NON_ASCII.sub(_non_ascii, text)


def needs_encoding(text: str) -> bool:
    """Whether ``encode_latex`` writes ``text`` otherwise than as it is."""
    return _NEEDS_WORK.search(text) is not None


def encode_latex(text: str, *, unicode: bool = False) -> str:
    """Plain ``text`` as LaTeX that prints it, on one line: whitespace runs (line breaks
    too) become one space, control characters are dropped. ``unicode``: keep non-ASCII
    characters as they are (dashes and curly quotes are TeX's ligatures all the same)."""
    if not _NEEDS_WORK.search(text):
        return text
    return _line(one_line(text), unicode)


# -- rich text ---------------------------------------------------------------------------
#: CSL variables whose text BibTeX styles change the case of: their words that must keep their
#: capitals are protected (``guess_protection``) when the value says nothing of case.
PROTECTED_VARIABLES: frozenset[str] = frozenset({"title"})


def variable_latex(variable: str, value: Text, *, unicode: bool = False) -> str:
    """How a .bib writer encodes the value of a CSL ``variable`` that has no spelling."""
    value = without_latex(value)
    if variable in PROTECTED_VARIABLES:
        value = guess_protection(value)
    return encode_text(value, unicode=unicode)


def encode_text(value: Text, *, unicode: bool = False) -> str:
    """``value`` as LaTeX: as its source spelled it when it has a spelling (and ``unicode`` is
    not asked for), else encoded."""
    source = latex_source(value)
    if source is not None and not unicode and is_harmless(source):
        return source
    if isinstance(value, str):
        return encode_latex(value, unicode=unicode)
    return _joined(_top(item, unicode) for item in value.inlines)


def _joined(pieces: Iterable[str]) -> str:
    """Pieces of LaTeX one after the other; ``{}`` between two formulas (``$a$$b$`` would be
    display math)."""
    out = ""
    for piece in pieces:
        if out.endswith("$") and piece.startswith("$"):
            out += "{}"
        out += piece
    return out


def _top(item: Inline, unicode: bool) -> str:
    """One inline at the top level of a value, where braces decide case."""
    if isinstance(item, str):
        return encode_latex(item, unicode=unicode)
    if isinstance(item, Styled) and item.style == Style.NOCASE:
        return _protecting_group(_inner(item.content, unicode))
    if isinstance(item, (Styled, Link)):
        return _joined(_styled_pieces(item, unicode))
    return _inner((item,), unicode)


def _protecting_group(latex: str) -> str:
    """``latex`` in a group that protects case: one that does not start with a command."""
    return "{{" + latex + "}}" if latex.startswith("\\") else "{" + latex + "}"


def _protection(item: Inline) -> bool:
    """Whether ``item`` is case-protected at the top level, all of it (text, formulas,
    addresses and raw LaTeX are not, unless nocase says so)."""
    if isinstance(item, Styled) and item.style == Style.NOCASE:
        return True
    if isinstance(item, (Styled, Link)):
        return all(_protection(i) for i in item.content)
    return False


def _is_mixed(item: Inline) -> bool:
    if not isinstance(item, (Styled, Link)):
        return False
    return len({_protection(i) for i in item.content}) > 1 or \
        any(_is_mixed(i) for i in item.content)


def _split(item: Styled | Link) -> Iterator[Styled | Link]:
    """A styled or linked inline cut into pieces each wholly protected or not."""
    if not _is_mixed(item):
        yield item
        return
    for part in item.content:
        pieces: Iterable[Inline] = _split(part) if isinstance(part, (Styled, Link)) \
            else (part,)
        for piece in pieces:
            yield Styled(item.style, (piece,)) if isinstance(item, Styled) \
                else Link(item.address, (piece,))


def _styled_pieces(item: Styled | Link, unicode: bool) -> Iterator[str]:
    for piece in _split(item):
        protected = _protection(piece)
        content = piece.content
        if protected:
            content = tuple(unprotected(content))
        inner = _inner(content, unicode)
        head = f"\\{STYLE_COMMANDS[piece.style]}" if isinstance(piece, Styled) \
            else f"\\href{{{address(piece.address)}}}"
        if protected:
            yield head + _protecting_group(inner)
        else:
            yield "{" + head + "{" + inner + "}}"


def _inner(items: Iterable[Inline], unicode: bool) -> str:
    """Inlines inside a group, where braces no longer decide case."""
    return _joined(_inner_piece(item, unicode) for item in items)


def _inner_piece(item: Inline, unicode: bool) -> str:
    if isinstance(item, str):
        return encode_latex(item, unicode=unicode)
    if isinstance(item, Styled):
        inner = _inner(item.content, unicode)
        if item.style == Style.NOCASE:
            return "{" + inner + "}"
        return f"\\{STYLE_COMMANDS[item.style]}{{{inner}}}"
    if isinstance(item, Math) and formula_is_writable(item.tex):
        return f"\\[{item.tex}\\]" if item.display else f"${item.tex}$"
    if isinstance(item, Math):  # shown, never run (see refbridge.latex.safety)
        return "{" + encode_latex(math_plain(item.tex), unicode=unicode) + "}"
    if isinstance(item, Url):
        return f"\\url{{{address(item.address)}}}"
    if isinstance(item, Link):
        return f"\\href{{{address(item.address)}}}{{{_inner(item.content, unicode)}}}"
    if is_harmless(item.tex):
        return "{" + item.tex + "}"  # in its group, it takes nothing that follows it
    return "{" + encode_latex(item.shown, unicode=unicode) + "}"


#: A backslash of an address, with the URL character it escapes if it escapes one.
_ADDRESS_BACKSLASH = re.compile(r"\\([%#&_]?)")


def _encoded_backslash(match: re.Match[str]) -> str:
    """An escaped URL character as it is, a lone backslash percent-encoded."""
    return match.group(0) if match.group(1) else "%5C"


def address(text: str) -> str:
    """An address (a URL, a DOI) as the argument of ``\\url{}`` or a .bib's verbatim field,
    which hyperref reads as it is: backslashes percent-encoded (``%5C``, as a URL spells
    them: a trailing one would escape the closing brace and swallow the rest of the
    bibliography, one before letters is a command to a style that prints the value as text),
    except in an escaped URL character (``\\%``, ``\\#``, ``\\&``, ``\\_``: hyperref reads the
    character, a style that prints the value as text prints it, and bibtex and biber pass it
    on as the source spelled it), braces it cannot pair percent-encoded, control characters
    dropped."""
    text = _ADDRESS_BACKSLASH.sub(_encoded_backslash, CONTROL.sub("", text))
    depth = 0
    for char in text:
        depth += 1 if char == "{" else -1 if char == "}" else 0
        if depth < 0:
            break
    if depth == 0:
        return text
    return text.replace("{", "%7B").replace("}", "%7D")


# -- case protection ---------------------------------------------------------------------
#: A word, without the hyphens of a compound (``LLM-Generated`` is two words).
_WORD = re.compile(r"[^\W_](?:[\w'’.]*[^\W_])?")
#: Words whose case says nothing about the title's style.
_MINOR_WORDS: frozenset[str] = frozenset({
    "a", "an", "the", "of", "on", "in", "at", "to", "for", "and", "or", "but", "nor", "with",
    "from", "by", "as", "via", "into", "onto", "over", "under", "about", "after", "before",
    "between", "through", "during", "without", "within", "is", "are", "be", "vs",
})
_SENTENCE_ENDS = ":.?!"


def _has_inner_capital(word: str) -> bool:
    return any(c.isupper() for c in word[1:])


def _words(text: str) -> list[tuple[int, str, bool]]:
    """The words of ``text``: where each starts, the word, and whether it starts a sentence
    (it is the first, or the text before it ends in ``:``, ``.``, ``?`` or ``!``)."""
    words: list[tuple[int, str, bool]] = []
    end = 0
    for match in _WORD.finditer(text):
        start = match.start()
        before = text[end:start].rstrip() or (words[-1][1] if words else "")
        words.append((start, match.group(), not words or before[-1:] in _SENTENCE_ENDS))
        end = match.end()
    return words


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


def _protected_spans(text: str, sentence_case: bool) -> list[tuple[int, int]]:
    """Where the words that need braces are, adjacent ones (``TPC-C``) merged."""
    words = _words(text)
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


def guess_protection(value: Text) -> Text:
    """A title that says nothing of case (no part of it is protected) with the words whose
    capitals must survive a lower-casing style protected: acronyms and mixed case
    (``SpecDB``, ``LLM``, ``TPC-C``) always, capitalised words in a sentence-case title
    (proper nouns) too. A value that protects anything is taken as it is."""
    if any(isinstance(item, Styled) and item.style == Style.NOCASE for item in walk(value)):
        return value
    sentence_case = _is_sentence_case(_words(plain(value)))
    return rich(part for item in inlines(value)
                for part in (_protected_parts(item, sentence_case) if isinstance(item, str)
                             else (item,)))


def _protected_parts(text: str, sentence_case: bool) -> Iterator[Inline]:
    position = 0
    for start, end in _protected_spans(text, sentence_case):
        yield text[position:start]
        yield Styled(Style.NOCASE, (text[start:end],))
        position = end
    yield text[position:]
