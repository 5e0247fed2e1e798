"""Titles and names folded to the words they are compared by: ASCII, lower case, one space
apart, so ``Über-Graphs`` and ``Uber graphs`` are one title; ``normalize_title`` also sets TeX
commands aside (``\\emph{Graphs}`` reads as ``graphs``). This module must never change a
record nor keep anything of the text but its letters and digits.
"""

from __future__ import annotations

import re
from functools import lru_cache

_NOT_WORD = re.compile(r"[^a-z0-9]+")
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+")
#: How many normalized titles and names are remembered (a run compares each many times).
NORMALIZED_REMEMBERED = 8192


def fold(text: str) -> str:
    """Lower-case ASCII words of ``text``, one space apart (``Über-Graphs`` -> ``uber graphs``)."""
    if not text.isascii():
        from anyascii import anyascii

        text = anyascii(text)
    return _NOT_WORD.sub(" ", text.lower()).strip()


@lru_cache(maxsize=NORMALIZED_REMEMBERED)
def normalize_title(text: str) -> str:
    """``fold`` with TeX commands set aside: ``"Higher-Order $(k,τ)$-Truss"`` -> ``"higher
    order k t truss"``."""
    return fold(_TEX_COMMAND.sub(" ", text))
