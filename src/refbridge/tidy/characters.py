"""Accented letters in a .bib value as UTF-8 characters or as LaTeX commands, in the
spellings biber reads as the same text (measured with biber 2.19: ``{\\"o}``, ``\\"{o}`` and
``\\"o`` all read as ``ö``, a brace group that is one accent included; ``\\ss{}`` and
``\\ss x`` as ``ß``, but ``{\\ss}`` as ``{ß}``, braces kept).

To UTF-8: an accent command on one ASCII letter becomes the composed character (dropping the
group around it when the group holds only it); a letter command (``\\ss``, ``\\o``, ``\\L``
...) becomes its character in place, the ``{}`` after it dropped (one followed by a space is
kept: BibTeX reads ``Stra\\ss e`` as two words, ``Straße`` as one). To LaTeX: a
composed character becomes ``{\\"o}``, a letter with a command ``\\ss{}``. Anything else is
kept as written, and nothing changes inside a formula (``$...$``); a dotless ``\\i`` is never
written (biber and pdflatex disagree on it). This module must never change what a value
says: a spelling it cannot map back exactly is kept.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from refbridge.latex.decode import ACCENTS
from refbridge.latex.symbols import fixed_macro_text

#: Letter commands that stand for one letter.
LETTER_COMMANDS: tuple[str, ...] = ("ss", "o", "O", "aa", "AA", "ae", "AE", "oe", "OE", "l",
                                    "L")
#: Accent commands whose name is a symbol (``\\"o``: no space or group needed).
_SYMBOL_ACCENTS = "".join(sorted(c for c in ACCENTS if not c.isalpha()))
_LETTER_ACCENTS = "".join(sorted(c for c in ACCENTS if c.isalpha()))
_ACCENT = (r"\\(?:([" + re.escape(_SYMBOL_ACCENTS) + r"])\s*(?:\{([A-Za-z])\}|([A-Za-z]))"
           r"|([" + _LETTER_ACCENTS + r"])(?:\s*\{([A-Za-z])\}|\s+([A-Za-z])))")
#: An accent, alone in a group or not; a letter command, followed by ``{}`` or by neither a
#: letter nor a space (``\\ss e``, which BibTeX reads as two words, is left as written).
_LATEX_LETTER = re.compile(
    r"\{" + _ACCENT + r"\}|" + _ACCENT
    + r"|\\(" + "|".join(LETTER_COMMANDS) + r")(?:\{\}|(?![A-Za-z\s]))")
#: A formula: left as it is.
_MATH = re.compile(r"(?<!\\)\$[^$]*(?<!\\)\$")
_MARK_TO_COMMAND: dict[str, str] = {mark: command for command, mark in ACCENTS.items()}


@cache
def _composed(letter: str, command: str) -> str | None:
    character = unicodedata.normalize("NFC", letter + ACCENTS[command])
    return character if len(character) == 1 else None


@cache
def _letter(command: str) -> str | None:
    text = fixed_macro_text(command)
    return text if text is not None and len(text) == 1 else None


def _unicode_letter(match: re.Match[str]) -> str:
    groups = match.groups()
    for offset in (0, 6):  # an accent alone in a group, an accent outside one
        symbol, word = groups[offset], groups[offset + 3]
        if symbol or word:
            letter = (groups[offset + 1] or groups[offset + 2]) if symbol \
                else (groups[offset + 4] or groups[offset + 5])
            return _composed(letter, symbol or word) or match.group()
    character = _letter(groups[12])
    return match.group() if character is None else character


def _outside_math(text: str, change: re.Pattern[str], replace: object) -> str:
    pieces: list[str] = []
    position = 0
    for formula in _MATH.finditer(text):
        pieces.append(change.sub(replace, text[position:formula.start()]))  # type: ignore[call-overload]
        pieces.append(formula.group())
        position = formula.end()
    pieces.append(change.sub(replace, text[position:]))  # type: ignore[call-overload]
    return "".join(pieces)


def to_unicode(value: str) -> str:
    """``value`` (LaTeX) with its accented letters and letter commands as UTF-8."""
    if "\\" not in value:
        return value
    return _outside_math(value, _LATEX_LETTER, _unicode_letter)


@cache
def _latex_of(character: str) -> str:
    for command in LETTER_COMMANDS:
        if _letter(command) == character:
            return f"\\{command}{{}}"
    decomposed = unicodedata.normalize("NFD", character)
    if len(decomposed) == 2 and decomposed[0].isascii() and decomposed[0].isalpha() \
            and decomposed[1] in _MARK_TO_COMMAND:
        command = _MARK_TO_COMMAND[decomposed[1]]
        return f"{{\\{command}{decomposed[0]}}}" if not command.isalpha() \
            else f"{{\\{command}{{{decomposed[0]}}}}}"
    return character


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def to_latex(value: str) -> str:
    """``value`` with its accented letters and letters that have a command as LaTeX (other
    characters are kept as UTF-8)."""
    if value.isascii():
        return value
    return _outside_math(value, _NON_ASCII, lambda m: _latex_of(m.group()))
