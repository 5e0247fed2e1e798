"""A field's value rewritten in ways bibtex and biber read as the same value: ``"..."`` and
``{...}`` swapped (a brace value is written in quotes only when no ``"`` stands at its top
level), a month written out in full as its macro (``{March}`` -> ``mar``: plain.bst's macros
say the same, biber reads both as 3; ``{3}`` or ``{mar}`` are left alone, since bibtex prints
them as they are), accented letters as UTF-8 or LaTeX (``characters``), white space as single
spaces for wrapping. Pieces joined with ``#`` keep their order.

This module must never change the text a value resolves to (but for the spelling of accents,
when asked) and never touch a verbatim field (URLs, DOIs, files, keys).
"""

from __future__ import annotations

import re

from refbridge.formats.bibtex.syntax import MONTH_MACROS, value_pieces
from refbridge.formats.bibtex.tables import VERBATIM_FIELDS
from refbridge.tidy.characters import to_latex, to_unicode
from refbridge.tidy.options import TidyOptions

#: A month written out as plain.bst's macro expands it -> the macro.
MONTH_NAMES: dict[str, str] = {name: macro for macro, name in MONTH_MACROS.items()}
#: Fields that hold citation keys (renamed with the keys they name).
KEY_FIELDS: frozenset[str] = frozenset({"crossref", "xref", "xdata", "entryset", "related"})
#: Fields whose value is never rewritten.
KEPT_FIELDS: frozenset[str] = VERBATIM_FIELDS | KEY_FIELDS
#: BibTeX's white space (a no-break space is a character it keeps).
_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_BRACE_OR_QUOTE = re.compile(r'[{}"]')


def _top_level_quote(text: str) -> bool:
    """Whether a ``"`` stands outside every brace group of ``text``."""
    depth = 0
    for match in _BRACE_OR_QUOTE.finditer(text):
        char = match.group()
        if char == '"' and depth == 0:
            return True
        depth += {"{": 1, "}": -1}.get(char, 0)
    return False


def delimited(piece: str) -> bool:
    return piece[:1] in ('{', '"')


def _delimiters(piece: str, values: str) -> str:
    content = piece[1:-1]
    if values == "braces" and piece[0] == '"':
        return "{" + content + "}"
    if values == "quotes" and piece[0] == "{" and not _top_level_quote(content):
        return '"' + content + '"'
    return piece


def _characters(piece: str, unicode: bool | None) -> str:
    if unicode is None or not delimited(piece):
        return piece
    content = to_unicode(piece[1:-1]) if unicode else to_latex(piece[1:-1])
    return piece[0] + content + piece[-1]


def month_macro(pieces: tuple[str, ...], months_redefined: bool) -> str | None:
    """The macro of a month value written out in full (``{March}``), else None."""
    if months_redefined or len(pieces) != 1 or not delimited(pieces[0]):
        return None
    return MONTH_NAMES.get(pieces[0][1:-1].strip())


def collapsed(piece: str) -> str:
    """A delimited piece with each run of white space as one space, none at its ends."""
    return piece[0] + _SPACE.sub(" ", piece[1:-1]).strip(" ") + piece[-1]


def wrappable(name: str, value: str) -> bool:
    """Whether ``value`` of field ``name`` may be wrapped: one delimited piece of a text
    field, without TABs (biber keeps those)."""
    return name not in KEPT_FIELDS and delimited(value) and "\t" not in value and \
        value_pieces(value) == (value,)


def field_value(name: str, raw: str, options: TidyOptions, months_redefined: bool = False
                ) -> str:
    """The value of field ``name`` (``raw``: as written) as ``options`` write it."""
    pieces = value_pieces(raw)
    if pieces is None:  # the tokenizer read it, so this cannot be; keep it as it is
        return raw
    if options.months and name == "month":
        macro = month_macro(pieces, months_redefined)
        if macro is not None:
            return macro
    if name not in KEPT_FIELDS:
        pieces = tuple(_characters(piece, options.unicode) for piece in pieces)
    written = [_delimiters(piece, options.values) for piece in pieces]
    if options.wrap and len(written) == 1 and wrappable(name, written[0]):
        return collapsed(written[0])
    return " # ".join(written)
