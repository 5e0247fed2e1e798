"""``refbridge diff``'s work: two libraries compared (``OLD NEW``, or git's seven arguments
of an external diff: path, old file, old hash, old mode, new file, new hash, new mode; nine
for a renamed file), or
one written for git's ``textconv``. Git names a file that does not exist on one side
``/dev/null``: an empty library. This module must never write a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from refbridge.errors import ParseError
from refbridge.libdiff.changes import Changes, compare
from refbridge.libdiff.entries import Entry, bib_entries, is_bib, model_entries
from refbridge.libdiff.report import FORMATS, as_textconv

#: How many arguments git gives an external diff command (nine for a renamed file).
GIT_ARGUMENTS = frozenset({7, 9})


def _entries(path: str, as_bib: bool) -> list[Entry]:
    try:
        empty = path == "/dev/null" or not Path(path).stat().st_size
    except OSError as exc:
        raise ParseError(f"cannot open: {exc.strerror}", path) from None
    if empty:
        return []
    return bib_entries(path) if as_bib else model_entries(path)


def library_changes(old: str, new: str) -> Changes:
    """The changes from library ``old`` to ``new`` (.bib against .bib in their own terms,
    anything else through the model)."""
    as_bib = is_bib(old) and is_bib(new)
    return compare(_entries(old, as_bib), _entries(new, as_bib))


def run_diff(arguments: Sequence[str], output_format: str) -> tuple[str, bool]:
    """The report of ``arguments`` (two paths, or git's seven), and whether they differ."""
    if len(arguments) in GIT_ARGUMENTS:
        path, old, new = arguments[0], arguments[1], arguments[4]
        changes = library_changes(old, new)
        header = f"refbridge diff a/{path} b/{path}\n" if changes else ""
        return header + FORMATS[output_format](changes), bool(changes)
    changes = library_changes(*arguments)
    return FORMATS[output_format](changes), bool(changes)


def textconv(path: str) -> str:
    return as_textconv(_entries(path, is_bib(path)))
