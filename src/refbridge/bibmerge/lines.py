"""Three-way merge of a block's lines, for a block that is a list of lines rather than fields
(JabRef's groups tree in ``@comment{jabref-meta: grouping: ...}``): each side's changes to the
base's lines are applied together when they touch different lines, none adjacent to another.
This module must never mix two changes of the same or neighbouring lines: it gives up (None)
and the caller marks a conflict.
"""

from __future__ import annotations

from difflib import SequenceMatcher

#: A change to the base: the base's lines ``start:end`` replaced by ``lines``.
Change = tuple[int, int, tuple[str, ...]]


def _changes(base: list[str], side: list[str]) -> list[Change]:
    matcher = SequenceMatcher(None, base, side, autojunk=False)
    return [(i1, i2, tuple(side[j1:j2])) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag != "equal"]


def merged_lines(base: str, ours: str, theirs: str) -> str | None:
    """``base`` with the changes of ``ours`` and of ``theirs``, or None when a change of one
    side touches or borders a different change of the other."""
    base_lines = base.splitlines(keepends=True)
    ours_changes = _changes(base_lines, ours.splitlines(keepends=True))
    theirs_changes = _changes(base_lines, theirs.splitlines(keepends=True))
    for start, end, lines in ours_changes:
        for other_start, other_end, other_lines in theirs_changes:
            same = (start, end, lines) == (other_start, other_end, other_lines)
            if not same and start <= other_end and other_start <= end:
                return None
    changes = sorted(set(ours_changes) | set(theirs_changes))
    merged: list[str] = []
    position = 0
    for start, end, lines in changes:
        merged.extend(base_lines[position:start])
        merged.extend(lines)
        position = end
    merged.extend(base_lines[position:])
    return "".join(merged)
