"""A fast decoder for the LaTeX that .bib values mostly hold, giving pylatexenc's exact result.

Why: decoding biblatex-examples.bib replicated to 10,028 entries took 50 s through pylatexenc
(about 2 ms per value that needs the parser; 21,691 such values), against a goal of about
0.5 s for the whole conversion. Almost all of those values hold only brace groups
(``{SpecDB}``), accents (``{\\"u}``, ``\\'{e}``, ``\\c c``), letter commands (``{\\ss}``,
``\\L``), escaped specials (``\\&``), ties, dashes and quote ligatures, font and quotation
commands with a braced argument (``\\texttt{x}``, ``\\mkbibquote{x}``) and commands the parser
keeps as text. This module decodes exactly those with one regular expression and returns None for anything else (math, unknown commands, unbalanced braces, a
control word followed by a space where TeX's rules get subtle), so the caller falls back to
pylatexenc. Every replacement text is taken from pylatexenc's own conversion at start-up, and
tests/test_latex_simple.py checks that both decoders agree. This module must never return a
result that differs from ``refbridge.latex.decode``'s parser path.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache

#: Accents written with a symbol (``\\'e``) and with a letter (``\\c{c}``): combining marks.
ACCENTS: dict[str, str] = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
    "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
    "c": "\u0327", "d": "\u0323", "b": "\u0331", "k": "\u0328", "r": "\u030a",
}
#: Commands without argument that stand for one character (replacements from pylatexenc).
SYMBOL_COMMANDS: tuple[str, ...] = (
    "ss", "o", "O", "l", "L", "ae", "AE", "oe", "OE", "aa", "AA", "i", "j",
    "textendash", "textemdash", "textquoteleft", "textquoteright", "textquotedblleft",
    "textquotedblright", "textbackslash", "textasciitilde", "textasciicircum",
    "textbraceleft", "textbraceright", "textellipsis", "ldots", "dots", "textdegree",
    "texteuro", "textregistered", "texttrademark", "textcopyright", "textsection",
    "textparagraph", "textdagger", "textdaggerdbl", "textbullet", "guillemotleft",
    "guillemotright", "textexclamdown", "textquestiondown", "textperiodcentered", "par",
    "slash", "hyphen", "TeX", "LaTeX", "BibTeX",
)
#: Plain characters and the text each stands for outside commands.
CHARACTERS: dict[str, str] = {"~": "\u00a0", "%": "%", "&": "&"}
LIGATURES: dict[str, str] = {"---": "\u2014", "--": "\u2013", "``": "\u201c", "''": "\u201d",
                             "!`": "\u00a1", "?`": "\u00bf"}

_SYMBOL_ACCENTS = re.escape("'`^\"~=.")


@cache
def _token() -> re.Pattern[str]:
    from refbridge.latex.decode import QUOTE_MACROS, TEXT_ARGUMENT_MACROS

    fonts = "|".join(sorted(TEXT_ARGUMENT_MACROS, key=len, reverse=True))
    return re.compile(
        r"(?P<text>[^\\{}~%&\-`'!?$^_#]+)"
        r"|(?P<open>\{)|(?P<close>\})"
        r"|(?P<ligature>---|--|``|''|!`|\?`)"
        r"|(?P<char>[~%&\-`'!?])"
        r"|\\(?P<escaped>[&%$#_{}])"
        rf"|\\(?P<accent>[{_SYMBOL_ACCENTS}])(?:\{{(?P<braced>[A-Za-z]|\\[ij])\}}"
        r"|(?P<bare>[A-Za-z]|\\[ij](?![A-Za-z\s])))"
        r"|\\(?P<letter_accent>[uvHcdbkr])(?:\{(?P<letter_braced>[A-Za-z]|\\[ij])\}"
        r"|[ ](?P<letter_bare>[A-Za-z]))"
        rf"|\\(?P<font>{fonts})\{{"
        rf"|\\(?P<quote>{'|'.join(QUOTE_MACROS)})\{{"
        r"|\\(?P<word>[A-Za-z]+)(?P<empty>\{\})?(?P<post>[ \t\n]*)"
    )


@cache
def _quotes() -> dict[str, tuple[str, str]]:
    """The text before and after the argument of each quotation command."""
    from refbridge.latex.decode import QUOTE_MACROS

    return {name: tuple(form.split("%s")) for name, form in  # type: ignore[misc]
            QUOTE_MACROS.items()}


@cache
def _symbols() -> dict[str, str]:
    """What pylatexenc turns each symbol command into (``\\ss`` -> ``ß``)."""
    from refbridge.latex.decode import parse_latex

    return {name: parse_latex(f"\\{name}{{}}") for name in SYMBOL_COMMANDS}


def _accented(accent: str, base: str) -> str:
    letter = base.removeprefix("\\")  # an accent puts its dot on \i
    return unicodedata.normalize("NFC", letter + ACCENTS[accent])


def _command(match: re.Match[str]) -> str | None:
    """A control word: a symbol (TeX eats the spaces after it), a command the parser keeps as
    text, or None for anything with arguments."""
    from refbridge.latex.decode import is_unknown_macro

    name, post = match.group("word"), match.group("post")
    symbol = _symbols().get(name)
    if symbol is not None:
        return symbol + post if match.group("empty") else symbol
    if is_unknown_macro(name):
        return "\\" + name + post
    return None


_HANDLERS: dict[str, Callable[[re.Match[str]], str | None]] = {
    "text": lambda m: m.group(),
    "ligature": lambda m: LIGATURES[m.group()],
    "char": lambda m: CHARACTERS.get(m.group(), m.group()),
    "escaped": lambda m: m.group("escaped"),
    "accent": lambda m: _accented(m.group("accent"), m.group("braced") or m.group("bare")),
    "letter_accent": lambda m: _accented(m.group("letter_accent"),
                                         m.group("letter_braced") or m.group("letter_bare")),
    "word": _command,
}
#: Inner groups that ``Match.lastgroup`` may name, and the alternative they belong to.
_ALTERNATIVE_OF: dict[str, str] = {
    "braced": "accent", "bare": "accent", "letter_braced": "letter_accent",
    "letter_bare": "letter_accent", "empty": "word", "post": "word",
}


#: LaTeX other than brace groups: a command, a special character or a ligature. Text without
#: it (``{DNA} and {Fourier}``) is decoded by dropping its braces when they are balanced.
_BEYOND_BRACES = re.compile(r"[\\~%&`'!?$^_#]|--")
_BRACE = re.compile(r"[{}]")


def _without_braces(text: str) -> str | None:
    """``text`` (braces its only LaTeX) without its braces, or None when they do not pair."""
    depth = 0
    for brace in _BRACE.findall(text):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return None
    return text.replace("{", "").replace("}", "") if depth == 0 else None


def decode_simple(text: str) -> str | None:
    """The Unicode text of ``text`` when it holds only the simple LaTeX above, else None."""
    if not _BEYOND_BRACES.search(text):
        return _without_braces(text)
    out: list[str] = []
    closers: list[str] = []  # what each open group prints when it closes
    position = 0
    for match in _token().finditer(text):
        if match.start() != position:
            return None
        position = match.end()
        kind = match.lastgroup
        if kind in ("open", "font"):
            closers.append("")
            continue
        if kind == "quote":
            opening, closing = _quotes()[match.group("quote")]
            out.append(opening)
            closers.append(closing)
            continue
        if kind == "close":
            if not closers:
                return None
            out.append(closers.pop())
            continue
        kind = _ALTERNATIVE_OF.get(kind, kind)  # type: ignore[arg-type]
        piece = _HANDLERS[kind](match)  # type: ignore[index]
        if piece is None:
            return None
        out.append(piece)
    if position != len(text) or closers:
        return None
    return "".join(out)
