"""The text a LaTeX command without arguments always stands for (``\\alpha`` -> ``α``,
``\\ss`` -> ``ß``, ``\\S`` -> ``§``): pylatexenc's table (``refbridge.latex.fixed_macros``)
with refbridge's own ``SYMBOLS`` first. Both the text decoder (``latex.decode``) and formulas
(``latex.math``) read commands through it. This module must never parse LaTeX.
"""

from __future__ import annotations

from refbridge.latex.fixed_macros import FIXED_MACROS

#: Commands that stand for fixed text, where pylatexenc's table has none or another.
SYMBOLS: dict[str, str] = {
    "textbraceleft": "{", "textbraceright": "}", "textasciicircum": "^", "par": "\n\n",
    "slash": "/", "hyphen": "-", "S": "\u00a7", "P": "\u00b6", "copyright": "\u00a9",
    "pounds": "\u00a3", "euro": "\u20ac", "textsection": "\u00a7", "textparagraph": "\u00b6",
    "textemdash": "\u2014", "textendash": "\u2013", "textunderscore": "_",
    "@": "", "/": "", "%": "%", "&": "&", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}",
    " ": " ", "\n": " ",
}


def fixed_macro_text(name: str) -> str | None:
    """The text ``\\name`` always stands for, when it is a command without arguments
    (``\\alpha`` -> ``α``, ``\\log`` -> ``log``, ``\\ss`` -> ``ß``), else None. From
    pylatexenc's tables (``refbridge.latex.fixed_macros``), with ``SYMBOLS`` first."""
    if name in SYMBOLS:
        return SYMBOLS[name]
    return FIXED_MACROS.get(name)
