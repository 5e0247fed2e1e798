"""TeX formulas shown without TeX: Unicode and superscript/subscript inlines.

A formula stays TeX in the model (``Math.tex``) and in every LaTeX output; elsewhere it is
shown by this module: symbols as their Unicode characters (``\\geq`` -> ``≥``, ``\\alpha`` ->
``α``, ``\\sum`` -> ``∑``, ``\\mathbb{R}`` -> ``ℝ``, ``\\mathcal{O}`` -> ``𝒪``), scripts as
superscript and subscript inlines (``n^2`` -> n<sup>2</sup>), fractions and roots in a line
(``\\frac{a}{b}`` -> ``a/b``, ``\\sqrt{n}`` -> ``√n``), accents as combining marks. As plain
text, a script becomes Unicode superscript or subscript characters where every character has
one (``n²``, ``x₁``), else ``^``/``_`` with the script (``x^α``), but a script of text
(``\\textrm{ème}``) as its text (``4ème``). What it does not know (an
unknown command) is shown as written, never dropped. Symbol texts come from pylatexenc's
tables (through ``refbridge.latex.symbols.fixed_macro_text``).

This module must never be used to write LaTeX: LaTeX outputs write ``Math.tex`` as it is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from refbridge.inlines import Inline, Style, Styled, inlines_text, normalized
from refbridge.latex.symbols import fixed_macro_text

_TOKEN = re.compile(r"\\([A-Za-z]+)|\\(.)|([{}^_'])|(\s+)|([^\\{}^_'\s]+)", re.DOTALL)

#: Commands whose argument is shown as it is (fonts and text in formulas) ...
FONT_COMMANDS: frozenset[str] = frozenset(
    {"mathrm", "mathsf", "mathtt", "text", "textrm", "mbox", "operatorname", "mathnormal",
     "textnormal"})
#: ... or in bold or italics.
STYLE_COMMANDS: dict[str, str] = {
    "mathbf": Style.BOLD, "textbf": Style.BOLD, "boldsymbol": Style.BOLD, "bm": Style.BOLD,
    "mathit": Style.ITALIC, "textit": Style.ITALIC, "emph": Style.ITALIC}
#: Font switches (``{\bf P}``): the rest of their group in bold or italics, or as it is.
FONT_SWITCHES: dict[str, str | None] = {
    "bf": Style.BOLD, "boldmath": Style.BOLD, "it": Style.ITALIC, "rm": None, "sf": None,
    "tt": None, "normalfont": None}
#: Alphabets with Unicode letters of their own: command -> Unicode name prefix.
ALPHABETS: dict[str, tuple[str, ...]] = {
    "mathcal": ("MATHEMATICAL SCRIPT CAPITAL ", "SCRIPT CAPITAL "),
    "mathscr": ("MATHEMATICAL SCRIPT CAPITAL ", "SCRIPT CAPITAL "),
    "mathbb": ("MATHEMATICAL DOUBLE-STRUCK CAPITAL ", "DOUBLE-STRUCK CAPITAL "),
    "mathfrak": ("MATHEMATICAL FRAKTUR CAPITAL ", "BLACK-LETTER CAPITAL "),
}
#: Math accents: combining marks.
ACCENTS: dict[str, str] = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
    "bar": "\u0304", "overline": "\u0305", "vec": "\u20d7", "dot": "\u0307", "ddot": "\u0308",
    "acute": "\u0301", "grave": "\u0300", "breve": "\u0306", "check": "\u030c",
    "underline": "\u0332",
}
#: Commands that size or space and show nothing of their own.
INVISIBLE: frozenset[str] = frozenset(
    {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl",
     "biggr", "displaystyle", "textstyle", "scriptstyle", "limits", "nolimits", "middle",
     "!", "/", "@"})
#: Symbols where pylatexenc's table has none or shows them otherwise in a formula.
SYMBOLS: dict[str, str] = {
    ",": "\u2009", ";": "\u2005", ":": "\u2005", " ": " ", "{": "{", "}": "}", "|": "\u2016",
    "%": "%", "&": "&", "$": "$", "#": "#", "_": "_", "quad": "\u2003", "qquad": "\u2003\u2003",
    "mid": "\u2223", "ell": "\u2113", "emptyset": "\u2205", "varnothing": "\u2205",
    "lbrace": "{", "rbrace": "}", "lvert": "|", "rvert": "|", "vert": "|", "Vert": "\u2016",
    "lceil": "\u2308", "rceil": "\u2309", "lfloor": "\u230a", "rfloor": "\u230b",
    "langle": "\u27e8", "rangle": "\u27e9", "prime": "\u2032", "cdots": "\u22ef",
    "dots": "\u2026", "ldots": "\u2026", "colon": ":", "setminus": "\u2216",
}
ROOTS: dict[str, str] = {"": "\u221a", "2": "\u221a", "3": "\u221b", "4": "\u221c"}
SUPERSCRIPTS: dict[str, str] = dict(zip(
    "0123456789+-=()nijklmabcdefghoprstuvwxyzABDEGHIJKLMNOPRTUVW\u2212",
    "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207c\u207d"
    "\u207e\u207f\u2071\u02b2\u1d4f\u02e1\u1d50\u1d43\u1d47\u1d9c\u1d48\u1d49\u1da0\u1d4d"
    "\u02b0\u1d52\u1d56\u02b3\u02e2\u1d57\u1d58\u1d5b\u02b7\u02e3\u02b8\u1dbb\u1d2c\u1d2e"
    "\u1d30\u1d31\u1d33\u1d34\u1d35\u1d36\u1d37\u1d38\u1d39\u1d3a\u1d3c\u1d3e\u1d3f\u1d40"
    "\u1d41\u2c7d\u1d42\u207b"))
SUBSCRIPTS: dict[str, str] = dict(zip(
    "0123456789+-=()aehijklmnoprstuvx\u2212",
    "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u208a\u208b\u208c\u208d"
    "\u208e\u2090\u2091\u2095\u1d62\u2c7c\u2096\u2097\u2098\u2099\u2092\u209a\u1d63\u209b"
    "\u209c\u1d64\u1d65\u2093\u208b"))


class _Formula:
    """One pass over the tokens of a formula."""

    def __init__(self, tex: str) -> None:
        self.tex = tex
        self.tokens = list(_TOKEN.finditer(tex))
        self.index = 0

    def peek(self) -> re.Match[str] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def sequence(self, until_close: bool = False) -> list[Inline]:
        out: list[Inline] = []
        while self.index < len(self.tokens):
            token = self.tokens[self.index]
            if token.group(3) == "}" and until_close:
                self.index += 1
                return out
            if token.group(1) in FONT_SWITCHES:
                self.index += 1
                while (space := self.peek()) is not None and space.group(4) is not None:
                    self.index += 1  # TeX skips the spaces after a command's name
                rest = normalized(self.sequence(until_close))
                style = FONT_SWITCHES[token.group(1)]
                out.extend([Styled(style, rest)] if style and rest else rest)
                return out
            if token.group(3) in ("^", "_"):
                self.index += 1
                script = normalized(self.argument())
                if script:
                    style = Style.SUPERSCRIPT if token.group(3) == "^" else Style.SUBSCRIPT
                    out.append(Styled(style, script))
                continue
            out.extend(self.atom())
        return out

    def atom(self) -> list[Inline]:
        """One thing: a group, a command with its arguments, or a run of characters (only
        its first character when it is a script)."""
        token = self.peek()
        if token is None:
            return []
        self.index += 1
        word, symbol, special, space, text = token.groups()
        if special == "{":
            return self.sequence(until_close=True)
        if special == "}":
            return ["}"]
        if special == "'":
            return ["\u2032"]
        if special in ("^", "_"):
            return [special]
        if space is not None:
            return [" "]
        if text is not None:
            return [text]
        if symbol is not None:
            return [] if symbol in INVISIBLE else [SYMBOLS.get(symbol, "\\" + symbol)]
        return self.command(word)

    def argument(self) -> list[Inline]:
        """The argument of a command or script: a group, a command, or one character."""
        while (token := self.peek()) is not None and token.group(4) is not None:
            self.index += 1  # spaces before an argument
        if token is None:
            return []
        text = token.group(5)
        if text is not None and len(text) > 1:
            rest = _TOKEN.match(self.tex, token.start() + 1)
            assert rest is not None  # the rest of a run of characters is one
            self.tokens[self.index] = rest
            return [text[0]]
        return self.atom()

    def optional(self) -> str:
        token = self.peek()
        if token is None or token.group(5) is None or not token.group(5).startswith("["):
            return ""
        self.index += 1
        return token.group(5)[1:].split("]")[0]

    def command(self, name: str) -> list[Inline]:
        if name in INVISIBLE:
            return []
        if name in FONT_COMMANDS:
            return self.argument()
        if name in STYLE_COMMANDS:
            content = normalized(self.argument())
            return [Styled(STYLE_COMMANDS[name], content)] if content else []
        if name in ALPHABETS:
            return [_alphabet(inlines_text(self.argument(), math_plain), ALPHABETS[name])]
        if name in ACCENTS:
            argument = inlines_text(self.argument(), math_plain)
            return [unicodedata.normalize("NFC", argument[:1] + ACCENTS[name]) + argument[1:]]
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            numerator, denominator = self.argument(), self.argument()
            return [*_bracketed(numerator), "/", *_bracketed(denominator)]
        if name == "sqrt":
            degree = self.optional()
            radicand = self.argument()
            sign = ROOTS.get(degree) or (_scripted(degree, SUPERSCRIPTS) or degree) + "\u221a"
            return [sign, *_bracketed(radicand)]
        if name in SYMBOLS:
            return [SYMBOLS[name]]
        text = fixed_macro_text(name)
        if text is not None:
            return [text]
        start = self.tokens[self.index - 1].start()
        end = self.tokens[self.index - 1].end()
        while (token := self.peek()) is not None and token.group(3) == "{" and \
                token.start() == end:
            depth = 0
            for index in range(self.index, len(self.tokens)):
                brace = self.tokens[index].group(3)
                depth += 1 if brace == "{" else -1 if brace == "}" else 0
                if depth == 0:
                    end = self.tokens[index].end()
                    self.index = index + 1
                    break
            else:
                break
        return [self.tex[start:end]]  # unknown: shown as written


def _alphabet(letters: str, prefixes: tuple[str, ...]) -> str:
    out = []
    for letter in letters:
        for prefix in prefixes:
            try:
                out.append(unicodedata.lookup(prefix + letter))
                break
            except KeyError:
                continue
        else:
            out.append(letter)
    return "".join(out)


def _bracketed(items: list[Inline]) -> list[Inline]:
    """``items`` as one term: in parentheses unless a single character or symbol."""
    text = inlines_text(items, math_plain)
    return items if len(text.strip()) <= 1 or text.isalnum() else ["(", *items, ")"]


def _scripted(text: str, table: dict[str, str]) -> str | None:
    """``text`` in superscript or subscript characters, when every character has one."""
    if not text or not all(c in table for c in text):
        return None
    return "".join(table[c] for c in text)


@lru_cache(maxsize=1024)
def math_inlines(tex: str) -> tuple[Inline, ...]:
    """A formula as inlines: Unicode text, with superscript and subscript styles (a formula
    nested too deeply to follow is shown as written)."""
    try:
        return _trimmed(normalized(_Formula(tex).sequence()))
    except RecursionError:
        return (tex,)


def _trimmed(items: tuple[Inline, ...]) -> tuple[Inline, ...]:
    if not items:
        return items
    out = list(items)
    if isinstance(out[0], str):
        out[0] = out[0].lstrip()
    if isinstance(out[-1], str):
        out[-1] = out[-1].rstrip()
    return normalized(out)


_SCRIPTS = frozenset({Style.SUPERSCRIPT, Style.SUBSCRIPT})


def _plain(items: tuple[Inline, ...]) -> Iterator[str]:
    for item in items:
        if isinstance(item, str):
            yield item
        elif isinstance(item, Styled) and item.style not in _SCRIPTS:
            yield from _plain(item.content)
        elif isinstance(item, Styled):
            text = "".join(_plain(item.content))
            table = SUPERSCRIPTS if item.style == Style.SUPERSCRIPT else SUBSCRIPTS
            scripted = _scripted(text, table)
            if scripted is not None:
                yield scripted
            else:
                mark = "^" if item.style == Style.SUPERSCRIPT else "_"
                yield mark + (text if len(text) == 1 else f"({text})")
        else:
            yield inlines_text((item,), math_plain)


#: A script that is text (``^{\textrm{ème}}``, ``_\text{max}``): the script sign and the text.
_TEXT_SCRIPT = re.compile(
    r"([\^_])\s*(\{\s*)?\\(?:text|textrm|textup|textnormal|mbox)\s*\{([^{}]*)\}(?(2)\s*\})")


def _text_script(match: re.Match[str]) -> str:
    """A script of text as plain text: in Unicode script characters when it has them, else
    the text itself, a raised word reading as the word (``4^{\\textrm{ème}}``: ``4ème``)."""
    table = SUPERSCRIPTS if match.group(1) == "^" else SUBSCRIPTS
    return match.group(0) if _scripted(match.group(3), table) else match.group(3)


@lru_cache(maxsize=1024)
def math_plain(tex: str) -> str:
    """A formula as plain text (``n²``, ``x₁``, ``x^α``, ``O(n log n)``; a script of text
    Unicode cannot raise as its text: ``4ème``)."""
    return "".join(_plain(math_inlines(_TEXT_SCRIPT.sub(_text_script, tex))))
