"""LaTeX to Unicode for text fields, built on pylatexenc and configured never to delete text.

pylatexenc's default context silently drops the content of ``\\texttt{...}`` and similar macros,
every unknown macro, and turns ``&`` into spaces. Here text-style macros keep their argument,
unknown macros stay readable as ``\\name``, and ``&`` stays ``&``. Math is rendered as readable
text (``$\\times$`` becomes ``×``).

Most field values contain no LaTeX at all; they skip the parser entirely (the fast path), and
most of the rest hold only braces, accents, symbol commands and simple inline math
(``$O(n \\log n)$``), which ``refbridge.latex.simple`` decodes to the parser's exact result in
about 3 us instead of the parser's 0.5 ms; that is what makes decoding a large ``.bib`` cheap.
The last ``DECODED_REMEMBERED`` distinct values are remembered (values repeat in a file).
This module must never touch identifiers (DOI, URL, file names): callers decode text fields
only.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from refbridge.latex.simple import decode_simple

#: Text that needs the parser: a macro, a group, math, a tie, or a TeX ligature.
_NEEDS_PARSER = re.compile(r"[\\{}$~&%]|--|``|''|!`|\?`")

#: Macros whose argument is the text itself (font and style switches).
TEXT_ARGUMENT_MACROS: tuple[str, ...] = (
    "texttt", "textsf", "textrm", "textup", "textmd", "textnormal", "textsc", "textsl",
    "textbf", "textit", "emph", "mbox", "hbox", "text", "mathrm", "mathtt", "mathsf", "mathit",
    "mathbf", "mathcal", "mathbb", "operatorname", "url", "nolinkurl", "NoCaseChange",
    "MakeUppercase", "MakeLowercase", "uppercase", "lowercase", "ensuremath",
    "mkbibemph", "mkbibitalic", "mkbibbold", "mkbibacro", "textsmallcaps",
)

#: BibLaTeX's quotation macro: its argument in curly quotes.
QUOTE_MACROS: dict[str, str] = {"mkbibquote": "\u201c%s\u201d"}

#: Macros that stand for one character or a paragraph break (what the encoder writes for
#: characters that would otherwise be syntax).
_SYMBOL_MACROS: dict[str, str] = {
    "textbraceleft": "{", "textbraceright": "}", "textasciicircum": "^", "par": "\n\n",
    "slash": "/", "hyphen": "-", "TeX": "TeX", "LaTeX": "LaTeX", "BibTeX": "BibTeX",
    "LaTeXe": "LaTeX2e", "XeTeX": "XeTeX", "LuaTeX": "LuaTeX",
}

#: In prose (profile pages), a ``~`` after a space means "approximately", not a tie.
_PROSE_TILDE = re.compile(r"(^|(?<=\s))~")
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
#: A ``%`` not escaped: a TeX comment, but in a field value it is a literal percent sign.
_UNESCAPED_PERCENT = re.compile(r"(?<!\\)((?:\\\\)*)%")


def _keep_unknown_macro(n: Any) -> str:
    return "\\" + str(n.macroname) + str(n.macro_post_space)


@cache
def _converter() -> Any:
    from pylatexenc.latex2text import (
        LatexNodes2Text,
        MacroTextSpec,
        SpecialsTextSpec,
        get_default_latex_context_db,
    )
    from pylatexenc.macrospec import LatexContextDb

    db: LatexContextDb = get_default_latex_context_db()
    db.add_context_category(
        "refbridge-keep-text",
        prepend=True,
        macros=[MacroTextSpec(name, discard=False) for name in TEXT_ARGUMENT_MACROS]
        + [MacroTextSpec(name, simplify_repl=text) for name, text in _SYMBOL_MACROS.items()]
        + [MacroTextSpec(name, simplify_repl=text) for name, text in QUOTE_MACROS.items()],
        specials=[SpecialsTextSpec("&", "&")],
    )
    db.set_unknown_macro_spec(MacroTextSpec("", simplify_repl=_keep_unknown_macro))
    return LatexNodes2Text(latex_context=db, math_mode="text",
                           strict_latex_spaces=True)


def _balance_math(text: str) -> str:
    """Escape a lone ``$`` (``$5 million``) so it cannot swallow the rest of the text as math."""
    dollars = list(_UNESCAPED_DOLLAR.finditer(text))
    if len(dollars) % 2 == 0:
        return text
    last = dollars[-1].start()
    return text[:last] + "\\" + text[last:]


def _escape_stray_braces(text: str) -> str:
    """Escape braces that close nothing or are never closed, and a trailing lone backslash,
    so the parser keeps them as characters instead of dropping them."""
    stray: list[int] = []
    open_at: list[int] = []
    escaped = False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            open_at.append(index)
        elif char == "}":
            if open_at:
                open_at.pop()
            else:
                stray.append(index)
    stray.extend(open_at)
    for index in sorted(stray, reverse=True):
        text = text[:index] + "\\" + text[index:]
    return text[:-1] + "\\textbackslash{}" if escaped else text


def decode_latex(text: str, *, prose: bool = False) -> str:
    """Unicode text for a LaTeX-encoded ``text``; nothing is deleted.

    ``prose``: the text is plain prose with occasional LaTeX (as on profile pages), so a ``~``
    after a space is a literal tilde and an unpaired ``$`` a dollar sign.
    """
    if not _NEEDS_PARSER.search(text):
        return text
    if prose:
        return _decoded(_balance_math(_PROSE_TILDE.sub(r"\\textasciitilde{}", text)))
    return _remembered(text)


def _decoded(text: str) -> str:
    """``text`` through the fast decoder, or the parser when the fast decoder declines."""
    simple = decode_simple(text)
    if simple is not None:
        return simple
    try:
        return parse_latex(text)
    except (RecursionError, IndexError):  # pylatexenc fails on groups nested hundreds deep
        return text  # and on a \verb at the very end: the text is kept as written


#: How many decoded values are remembered: a file names the same journals, publishers,
#: places and people again and again, and a hit costs a dictionary look-up instead of a decode.
DECODED_REMEMBERED = 4096
_remembered = lru_cache(maxsize=DECODED_REMEMBERED)(_decoded)


@cache
def _walker_context() -> Any:
    from pylatexenc.latexwalker import get_default_latex_context_db
    from pylatexenc.macrospec import MacroSpec

    db = get_default_latex_context_db()
    db.add_context_category(
        "refbridge-arguments", prepend=True,
        macros=[MacroSpec(name, "{") for name in (*TEXT_ARGUMENT_MACROS, *QUOTE_MACROS)
                if db.get_macro_spec(name) is None])
    return db


@cache
def fixed_macro_text(name: str) -> str | None:
    """What the parser turns ``\\name`` into when it is a macro without arguments that always
    stands for the same text (``\\alpha`` -> ``α``, ``\\log`` -> ``log``), else None."""
    walker_spec = _walker_context().get_macro_spec(name)
    if walker_spec is not None and getattr(walker_spec.args_parser, "argspec", None) != "":
        return None
    replacement = _converter().latex_context.get_macro_spec(name).simplify_repl
    if not isinstance(replacement, str) or "%" in replacement:  # a callable or a format
        return None
    return parse_latex(f"\\{name}{{}}")


@cache
def is_unknown_macro(name: str) -> bool:
    """Whether the parser keeps ``\\name`` as text (it knows no meaning and no arguments)."""
    converter_db = _converter().latex_context
    return _walker_context().get_macro_spec(name) is None and \
        converter_db.get_macro_spec(name) is converter_db.get_macro_spec("\x00unknown")


def parse_latex(text: str) -> str:
    """``text`` decoded by pylatexenc (the full parser, without the fast paths)."""
    text = _UNESCAPED_PERCENT.sub(r"\1\\%", _escape_stray_braces(text))
    decoded: str = _converter().latex_to_text(text, latex_context=_walker_context())
    return decoded
