"""What ``fmt --check`` and ``fmt --diff`` show: the entries a run would change, one line
each (``refs.bib:12: knuth84: reformatted``), and a unified diff of a file (difflib).

This module must never write a file: it only describes.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence

from refbridge.tidy.formatter import Change, TidiedText


def change_lines(source: str, changed: bool, changes: Sequence[Change]) -> Iterator[str]:
    """One line per block formatting changes in ``source`` (``changes``); one for the file
    when only the text between blocks changes (``changed``: whether its text does)."""
    if not changed:
        return
    for change in changes:
        yield f"{source}:{change.line}: {change.key}: {change.how}"
    if not changes:
        yield f"{source}: comments or spacing between blocks reformatted"


def diff_text(source: str, original: str, tidied: TidiedText) -> str:
    """A unified diff from ``original`` to the formatted text (empty: no change)."""
    if tidied.text is None or tidied.text == original:
        return ""
    return "".join(difflib.unified_diff(
        original.splitlines(keepends=True), tidied.text.splitlines(keepends=True),
        fromfile=f"{source} (original)", tofile=f"{source} (formatted)"))
