"""LaTeX to rich text, by BibTeX's own rules: what a ``.bib`` field says, and nothing lost.

Why a decoder of our own: pylatexenc (used here for its tables: which command stands for
which character) flattens text to a string, so it cannot keep italics, case protection or
formulas, it deletes what it does not know or replaces it (``\\cite{x}`` becomes ``<cit.>``),
and its parser took about 0.5 ms a value, against about 10 us here (one regular expression
cuts the value into tokens, one pass builds the inlines).

BibTeX's rules, followed exactly because styles change case by them:

- a brace group at the top level of a value (depth 1) that does not start with a backslash
  protects the case of what it holds: ``{DNA}``, ``{van Vugt}``, the argument of a command at
  the top level (``\\emph{Drosophila}``, ``\\"{U}``) -> *nocase*;
- a brace group at depth 1 that starts with a backslash is a "special character", whose text
  styles may change: ``{\\"U}``, ``{\\em x}``, ``{\\textit Cataglyphis}``;
- deeper groups only group.

Decoded: accents in every form (``{\\"u}``, ``\\"{u}``, ``\\"u``, ``\\c c``, stacked
``\\~{\\^e}`` -> ``ễ``), characters and symbols (``\\ss``, ``\\o``, ``\\&``, ``\\%``, ``~``,
``\\,``), ligatures (``--``, ``---``, quotes), font commands and switches (``\\emph{}``,
``\\textit{}``, ``{\\em }``, ``{\\it }``, ``{\\bf }``, ``\\textbf{}``, ``\\textsc{}``,
``\\textsuperscript{}``, ``\\textsubscript{}``, ``\\texttt{}`` ...), formulas (``$...$``,
``\\(...\\)``, ``\\[...\\]``, ``$$...$$``, ``\\ensuremath{}``: kept as TeX), ``\\url{}``,
``\\href{}{}``, ``\\mkbibquote{}``. Anything else (``\\cite{x}``, ``\\noopsort{1999}``, unknown
macros) is kept as raw LaTeX, exactly as written. A decoded value remembers the LaTeX it was
read from (``RichText.latex``), so that a ``.bib`` writer can write it unchanged.

This module must never delete text and never touch identifiers (DOI, URL, file names):
callers decode text fields only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from refbridge.latex.symbols import fixed_macro_text
from refbridge.richtext import (
    Inline,
    Link,
    Math,
    Raw,
    RichText,
    Style,
    Styled,
    Text,
    Url,
    map_text,
    normalized,
    rich,
    strip,
    styled,
)

#: Accents: the command and the combining mark it puts on the next letter.
ACCENTS: dict[str, str] = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
    "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
    "c": "\u0327", "d": "\u0323", "b": "\u0331", "k": "\u0328", "r": "\u030a",
    "t": "\u0361", "G": "\u030f", "h": "\u0309", "f": "\u0311",
}
#: An accent on nothing (``\~{}``, ``\^{}``) prints the mark alone, raised as over a letter
#: and no wider than it: combining mark -> the spacing character Unicode has for it. A mark
#: without one stays on a space (Unicode's spacing form of any combining mark).
SPACING_ACCENTS: dict[str, str] = {
    "\u0301": "\u00b4", "\u0300": "\u0060", "\u0302": "\u02c6", "\u0308": "\u00a8",
    "\u0303": "\u02dc", "\u0304": "\u00af", "\u0307": "\u02d9", "\u0306": "\u02d8",
    "\u030c": "\u02c7", "\u030b": "\u02dd", "\u0327": "\u00b8", "\u0328": "\u02db",
    "\u030a": "\u02da",
}
#: Commands whose one argument is text in a style.
STYLE_COMMANDS: dict[str, str] = {
    "emph": Style.ITALIC, "textit": Style.ITALIC, "textsl": Style.ITALIC,
    "mkbibemph": Style.ITALIC,
    "mkbibitalic": Style.ITALIC, "textbf": Style.BOLD, "mkbibbold": Style.BOLD,
    "textsc": Style.SMALL_CAPS,
    "textsmallcaps": Style.SMALL_CAPS, "textsuperscript": Style.SUPERSCRIPT,
    "mkbibsuperscript": Style.SUPERSCRIPT, "textsubscript": Style.SUBSCRIPT,
    "mkbibsubscript": Style.SUBSCRIPT,
    "texttt": Style.MONOSPACE, "NoCaseChange": Style.NOCASE,
}
#: Switches: a style for the rest of the group they are in.
STYLE_SWITCHES: dict[str, str] = {
    "em": Style.ITALIC, "it": Style.ITALIC, "itshape": Style.ITALIC, "sl": Style.ITALIC,
    "slshape": Style.ITALIC,
    "bf": Style.BOLD, "bfseries": Style.BOLD, "sc": Style.SMALL_CAPS, "scshape": Style.SMALL_CAPS,
    "tt": Style.MONOSPACE, "ttfamily": Style.MONOSPACE,
}
#: Switches back to the normal font, which text in the model always is unless styled.
PLAIN_SWITCHES: frozenset[str] = frozenset(
    {"rm", "upshape", "normalfont", "mdseries", "sf", "sffamily", "rmfamily"})
#: Commands whose one argument is text without a style of its own.
PLAIN_COMMANDS: frozenset[str] = frozenset(
    {"mbox", "hbox", "text", "textrm", "textup", "textmd", "textnormal", "textsf",
     "mkbibacro", "ifmmode"})
#: Commands that change the case of their argument.
CASE_COMMANDS: dict[str, Callable[[str], str]] = {
    "MakeUppercase": str.upper, "uppercase": str.upper, "MakeTextUppercase": str.upper,
    "MakeLowercase": str.lower, "lowercase": str.lower, "MakeTextLowercase": str.lower,
}
#: Quotation commands: their argument between curly quotes.
QUOTE_COMMANDS: frozenset[str] = frozenset({"mkbibquote", "enquote", "textquote"})
#: Logos: commands that LaTeX typesets its own way, kept as LaTeX and read as this text.
LOGOS: dict[str, str] = {
    "TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2e", "BibTeX": "BibTeX", "XeTeX": "XeTeX",
    "LuaTeX": "LuaTeX", "XeLaTeX": "XeLaTeX", "LuaLaTeX": "LuaLaTeX", "AmSTeX": "AmS-TeX",
    "AmS": "AmS", "METAFONT": "METAFONT", "MF": "METAFONT", "MP": "MetaPost",
    "ConTeXt": "ConTeXt", "eTeX": "e-TeX", "pdfTeX": "pdfTeX", "SliTeX": "SliTeX",
}
_TOKEN = re.compile(
    r"(?P<text>[^\\{}$~\-`'!?]+)"
    r"|(?P<open>\{)|(?P<close>\})"
    r"|(?P<dmath>\$\$)|(?P<math>\$)"
    r"|\\(?P<word>[A-Za-z]+)(?P<post>\s*)"
    r"|\\(?P<symbol>.)"
    r"|(?P<ligature>---|--|``|''|!`|\?`)"
    r"|(?P<char>.)",
    re.DOTALL,
)
LIGATURES: dict[str, str] = {"---": "\u2014", "--": "\u2013", "``": "\u201c", "''": "\u201d",
                             "!`": "\u00a1", "?`": "\u00bf"}
CHARACTERS: dict[str, str] = {"~": "\u00a0"}
#: Delimiters of formulas other than ``$``: opening symbol -> (closing symbol, display).
_MATH_DELIMITERS: dict[str, tuple[str, bool]] = {"(": (")", False), "[": ("]", True)}

#: Text that needs decoding: a command, a group, a formula, a tie, a ligature; or that an
#: encoder would write otherwise (a character outside ASCII, ``&``, ``%``, ``#``, ``_``,
#: ``^``): read as it is, but remembered as spelled.
_NEEDS_DECODING = re.compile(r"[\\{}$~&%#_^]|--|``|''|!`|\?`|[^\x00-\x7f]")
#: LaTeX proper: a command, a group, a formula, a tie or a ligature.
_LATEX = re.compile(r"[\\{}$~]|--|``|''|!`|\?`")
#: LaTeX other than brace groups, ligatures and ties.
_COMMAND_OR_FORMULA = re.compile(r"[\\$]")
_LIGATURE_OR_TIE = re.compile(r"---|--|``|''|!`|\?`|~")
_BRACE = re.compile(r"[{}]")
#: In prose (profile pages), a ``~`` after a space means "approximately", not a tie.
_PROSE_TILDE = re.compile(r"(^|(?<=\s))~")
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
#: What makes the text between two dollar signs a formula.
_TEX_MARK = re.compile(r"[\\^_{}]")
#: A word of prose: three letters or more.
_PROSE_WORD = re.compile(r"[^\W\d_]{3,}")
#: A formula that is one command (``\ensuremath{\alpha}``, pylatexenc's spelling of ``α``).
_SINGLE_COMMAND = re.compile(r"\\([A-Za-z]+)")

# token kinds
_TEXT, _OPEN, _CLOSE, _DMATH, _MATH, _WORD, _SYMBOL, _LIGATURE, _CHAR = range(9)
_KIND = {"text": _TEXT, "open": _OPEN, "close": _CLOSE, "dmath": _DMATH, "math": _MATH,
         "word": _WORD, "post": _WORD, "symbol": _SYMBOL, "ligature": _LIGATURE,
         "char": _CHAR}
Token = tuple[int, str, int, int]  # (kind, value, start, end) of the source


def _tokens(text: str) -> list[Token]:
    """The tokens of ``text``; a brace that pairs with none is a character (a name part cut
    out of a .bib value can hold one: ``{der Berg``)."""
    tokens: list[Token] = []
    append = tokens.append
    opened: list[int] = []
    for match in _TOKEN.finditer(text):
        kind = _KIND[match.lastgroup]  # type: ignore[index]
        value = match.group("word") if kind == _WORD else (
            match.group("symbol") if kind == _SYMBOL else match.group())
        if kind == _OPEN:
            opened.append(len(tokens))
        elif kind == _CLOSE:
            if opened:
                opened.pop()
            else:
                kind = _CHAR
        append((kind, value, match.start(), match.end()))
    for index in opened:
        tokens[index] = (_CHAR, *tokens[index][1:])
    return tokens


class _Decoder:
    """One pass over the tokens of a value, building its inlines."""

    __slots__ = ("index", "prose", "text", "tokens")

    def __init__(self, text: str, prose: bool = False) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.index = 0
        self.prose = prose  # a command it does not know is text, not LaTeX to keep

    def unknown(self, latex: str) -> Inline:
        """A command the decoder has no meaning for: LaTeX kept as written, or in prose (no
        LaTeX document, no preamble defines it) the text as written."""
        return latex if self.prose else Raw(latex)

    def peek(self) -> Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def sequence(self, level: int) -> list[Inline]:
        """Inlines up to the ``}`` that closes the current group (consumed) or the end.
        ``level`` is the brace depth: protection is decided at level 0 only, so deeper groups
        only group (counted here, not parsed by recursion: a value may nest hundreds)."""
        out: list[Inline] = []
        tokens = self.tokens
        depth = 0  # groups opened inside this one
        while self.index < len(tokens):
            kind, value, start, end = tokens[self.index]
            self.index += 1
            if kind == _TEXT:
                out.append(value)
            elif kind == _CLOSE:
                if depth:
                    depth -= 1
                elif level:
                    return out
            elif kind == _OPEN:
                if level:
                    depth += 1
                else:
                    out.extend(self.group(level))
            elif kind == _WORD:
                if self.command(value, start, end, level, out):  # a switch took the rest
                    if not depth:  # of the group, and its closing brace
                        return out
                    depth -= 1
            elif kind == _SYMBOL:
                self.symbol(value, start, level, out)
            elif kind in (_MATH, _DMATH):
                out.extend(self.formula(value, start, end))
            elif kind == _LIGATURE:
                out.append(LIGATURES[value])
            else:
                out.append(CHARACTERS.get(value, value))
        return out

    def group(self, level: int) -> list[Inline]:
        """A brace group whose ``{`` was just read."""
        if level:
            return self.sequence(level + 1)
        following = self.peek()
        if following is not None and following[0] in (_WORD, _SYMBOL):
            return self.sequence(1)  # a special character: its case may change
        return list(styled(Style.NOCASE, self.sequence(1)))

    def argument(self, level: int) -> list[Inline]:
        """The argument of a command: a group, one character or one command."""
        following = self.peek()
        if following is None:
            return []
        kind, value, start, end = following
        if kind == _OPEN:
            self.index += 1
            return self.group(level)
        if kind == _TEXT:
            if len(value) == 1:
                self.index += 1
            else:
                self.tokens[self.index] = (kind, value[1:], start + 1, end)
            return [value[0]]
        if kind in (_WORD, _SYMBOL):
            out: list[Inline] = []
            self.index += 1
            if kind == _WORD:
                self.command(value, start, end, 1, out)
            else:
                self.symbol(value, start, 1, out)
            return out
        if kind in (_CHAR, _LIGATURE):
            self.index += 1
            return [CHARACTERS.get(value, LIGATURES.get(value, value))]
        return []

    def verbatim_argument(self) -> str | None:
        """The text of a braced argument as written (``\\url{...}``), or None."""
        following = self.peek()
        if following is None or following[0] != _OPEN:
            return None
        start = following[3]
        depth = 0
        for index in range(self.index, len(self.tokens)):
            kind = self.tokens[index][0]
            depth += 1 if kind == _OPEN else -1 if kind == _CLOSE else 0
            if depth == 0:
                self.index = index + 1
                return self.text[start:self.tokens[index][2]]
        return None

    def raw_groups_end(self, end: int) -> int:
        """Consume the brace groups right after a command (``\\noopsort{1999}``); where they
        end in the source."""
        while True:
            following = self.peek()
            if following is None or following[0] != _OPEN or following[2] != end:
                return end
            save = self.index
            if self.verbatim_argument() is None:
                self.index = save
                return end
            end = self.tokens[self.index - 1][3]

    def command(self, name: str, start: int, end: int, level: int, out: list[Inline]) -> bool:
        """A control word; True when it was a switch that took the rest of the group."""
        if name in ACCENTS:
            out.extend(_accented(self.argument(level), ACCENTS[name]))
            return False
        style = STYLE_COMMANDS.get(name)
        if style is not None:
            out.extend(styled(style, self.argument(level)))
            return False
        style = STYLE_SWITCHES.get(name)
        if style is not None:
            out.extend(styled(style, self.sequence(level)))
            return True
        if name in PLAIN_SWITCHES:
            return False
        if name in PLAIN_COMMANDS:
            out.extend(self.argument(level))
            return False
        if name in QUOTE_COMMANDS:
            out.extend(("\u201c", *self.argument(level), "\u201d"))
            return False
        change = CASE_COMMANDS.get(name)
        if change is not None:
            out.extend(_changed(self.argument(level), change))
            return False
        if name in ("url", "nolinkurl"):
            address = self.verbatim_argument()
            if address is not None and address.strip():
                out.append(Url(address))
                return False
        elif name == "href":
            address = self.verbatim_argument()
            if address is not None and address.strip():
                content = normalized(self.argument(level))
                out.append(Link(address, content) if content else Url(address))
                return False
        elif name == "ensuremath":
            tex = self.verbatim_argument()
            if tex is not None and tex.strip():
                symbol = _SINGLE_COMMAND.fullmatch(tex)
                text = fixed_macro_text(symbol.group(1)) if symbol else None
                out.append(text if text else Math(tex))  # one symbol is a character
                return False
        elif name in LOGOS:
            out.append(Raw(self.text[start:self.raw_groups_end(end)].rstrip(), LOGOS[name]))
            return False
        else:
            text = fixed_macro_text(name)
            if text is not None:
                following = self.peek()
                if following is not None and following[0] == _OPEN and \
                        self.tokens[self.index + 1:self.index + 2] and \
                        self.tokens[self.index + 1][0] == _CLOSE:
                    self.index += 2  # \ss{}: the empty group ends the command
                out.append(text)
                return False
        out.append(self.unknown(self.text[start:self.raw_groups_end(end)]))
        return False

    def symbol(self, char: str, start: int, level: int, out: list[Inline]) -> None:
        """A control symbol (``\\&``, ``\\"``, ``\\(``)."""
        if char in ACCENTS:
            out.extend(_accented(self.argument(level), ACCENTS[char]))
        elif char in _MATH_DELIMITERS:
            out.extend(self.delimited_formula(char, start))
        else:
            text = fixed_macro_text(char)
            out.append(self.unknown(self.text[start:start + 2]) if text is None else text)

    def formula(self, dollars: str, start: int, end: int) -> list[Inline]:
        """A formula after ``$`` or ``$$`` up to the same delimiter in the same group."""
        kind = _DMATH if dollars == "$$" else _MATH
        depth = 0
        for index in range(self.index, len(self.tokens)):
            token_kind, _, token_start, _ = self.tokens[index]
            depth += 1 if token_kind == _OPEN else -1 if token_kind == _CLOSE else 0
            if depth < 0:
                break
            if token_kind == kind and depth == 0:
                self.index = index + 1
                tex = self.text[end:token_start]
                return [Math(tex, display=kind == _DMATH)] if tex.strip() else \
                    [self.unknown(self.text[start:token_start + len(dollars)])]
        return [dollars]  # never closed: a dollar sign

    def delimited_formula(self, opener: str, start: int) -> list[Inline]:
        closer, display = _MATH_DELIMITERS[opener]
        for index in range(self.index, len(self.tokens)):
            kind, value, token_start, _ = self.tokens[index]
            if kind == _SYMBOL and value == closer:
                tex = self.text[start + 2:token_start]
                self.index = index + 1
                return [Math(tex, display)] if tex.strip() else \
                    [self.unknown(self.text[start:token_start + 2])]
        return [self.unknown(self.text[start:start + 2])]


def _accented(argument: list[Inline], mark: str) -> list[Inline]:
    """``argument`` with ``mark`` on its first letter (nocase and styles kept around it)."""
    items = normalized(argument)
    if not items:
        return [SPACING_ACCENTS.get(mark, " " + mark)]  # an accent on nothing
    first = items[0]
    if isinstance(first, str):
        base = {"\u0131": "i", "\u0237": "j"}.get(first[0], first[0])
        return [unicodedata.normalize("NFC", base + mark) + first[1:], *items[1:]]
    if isinstance(first, Styled):
        return [Styled(first.style, normalized(_accented(list(first.content), mark))),
                *items[1:]]
    return [*items[:1], mark, *items[1:]]


def _changed(argument: list[Inline], change: Callable[[str], str]) -> list[Inline]:
    value = map_text(rich(argument), change)
    return list(value.inlines) if not isinstance(value, str) else [value]


def _balance_math(text: str) -> str:
    """Escape the dollar signs of prose (``$5 million``, ``between $5 and $10``) so they
    cannot swallow text as a formula: a ``$`` opens a formula only when a ``$`` closes it and
    what is between looks like TeX (a command, a script, a group) or holds no word of prose
    (``$k$-means``, ``$(k, τ)$``)."""
    dollars = [m.start() for m in _UNESCAPED_DOLLAR.finditer(text)]
    literal: list[int] = []
    index = 0
    while index < len(dollars):
        start = dollars[index]
        if index + 1 < len(dollars):
            content = text[start + 1:dollars[index + 1]]
            if _TEX_MARK.search(content) or (content.strip() and
                                             not _PROSE_WORD.search(content)):
                index += 2
                continue
        literal.append(start)
        index += 1
    for position in reversed(literal):
        text = text[:position] + "\\" + text[position:]
    return text


def _decoded(text: str) -> Text:
    if not _LATEX.search(text):  # only characters an encoder would write otherwise
        return RichText((text,), text) if text.strip() == text else strip(rich((text,), text))
    if not _COMMAND_OR_FORMULA.search(text):  # groups, ligatures and ties: most values
        braced = _braces_only(text)
        if braced is not None:
            return strip(rich(braced, text))
    try:
        return strip(rich(_Decoder(text).sequence(0), text))
    except RecursionError:  # commands nested hundreds deep: kept as written
        return rich((Raw(text),), text)


def _braces_only(text: str) -> list[Inline] | None:
    """The inlines of text whose only LaTeX is brace groups (``{DNA} repair``, the most
    common kind): groups at the top level protect case, deeper ones only group; None when
    the braces do not pair (the decoder then reads them as characters)."""
    if "{" not in text and "}" not in text:
        return [_ligatures(text)]
    out: list[Inline] = []
    group: list[str] = []
    depth = 0
    position = 0
    for match in _BRACE.finditer(text):
        piece = _ligatures(text[position:match.start()])
        position = match.end()
        if depth:
            group.append(piece)
        elif piece:
            out.append(piece)
        if match.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                inner = "".join(group)
                group = []
                if inner:
                    out.append(Styled(Style.NOCASE, (inner,)))
    if depth:
        return None
    out.append(_ligatures(text[position:]))
    return out


def _ligatures(text: str) -> str:
    """``text`` with TeX's ligatures and ties as the characters they stand for."""
    return _LIGATURE_OR_TIE.sub(_ligature, text) if _LIGATURE_OR_TIE.search(text) else text


def _ligature(match: re.Match[str]) -> str:
    return LIGATURES.get(match.group()) or CHARACTERS[match.group()]


#: How many decoded values are remembered: a file names the same journals, publishers,
#: places and people again and again, and a hit costs a dictionary look-up.
DECODED_REMEMBERED = 4096
_remembered = lru_cache(maxsize=DECODED_REMEMBERED)(_decoded)


def decode_latex(text: str, *, prose: bool = False) -> Text:
    """The rich text of a LaTeX-encoded ``text``; nothing is deleted.

    The result remembers ``text`` as its LaTeX spelling, unless ``prose``: the text is plain
    prose with occasional LaTeX (profile pages, arXiv's API), so a ``~`` after a space is a
    literal tilde, an unpaired ``$`` a dollar sign and a command the decoder does not know
    the text as written (no preamble defines it), and the text is no LaTeX to keep.
    """
    if not _NEEDS_DECODING.search(text):
        return text
    if prose:
        prepared = _balance_math(_PROSE_TILDE.sub(r"\\textasciitilde{}", text))
        try:
            return strip(rich(_Decoder(prepared, prose=True).sequence(0)))
        except RecursionError:  # commands nested hundreds deep: text as written
            return text
    return _remembered(text)


def decode_plain(text: str) -> str:
    """The plain text of a LaTeX-encoded ``text`` (for values that hold no structure the
    model keeps, such as a year)."""
    from refbridge.richtext import plain

    return plain(decode_latex(text))
