"""How a formatted .bib is laid out: one block after another with one blank line between
them, each entry as ``@type{key,`` then one field a line (names lower-cased, indented, the
``=`` aligned when asked, a comma after each) and ``}``; long values wrapped at spaces to
the line length asked, their lines under the value's first character. Comments are kept as
written, but for spaces at their lines' ends and runs of blank lines; one that touched the
block after it still does. ``@comment`` blocks are written as they were.

This module must never change a value: it receives the values as they are to be written
(``values``) and only places them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

_BLANK_LINES = re.compile(r"\n{3,}")
_SPACE = re.compile(r" +")


@dataclass(frozen=True, slots=True)
class EntryText:
    """What an entry is made of, ready to be placed: each field's name, its value as it is
    written, and whether it may be wrapped."""

    entry_type: str
    key: str
    fields: Sequence[tuple[str, str, bool]]


def comment_text(text: str) -> tuple[str, bool]:
    """A comment between blocks, tidied, and whether it touches the block after it."""
    lines = [line.rstrip() for line in text.split("\n")]
    touches = len(lines) > 1 and lines[-1] == "" and lines[-2] != "" or \
        len(lines) == 1 and lines[0] != ""
    tidied = _BLANK_LINES.sub("\n\n", "\n".join(lines).strip("\n"))
    return tidied, touches


def _wrapped(value: str, column: int, width: int) -> str:
    """A one-line value (``{words ...}``) starting at ``column``, cut at spaces into lines of
    at most ``width`` characters (a longer word stays whole); the lines after the first
    start under its first character, after the delimiter."""
    if column + len(value) + 1 <= width:
        return value
    lines: list[str] = []
    line = ""
    start = column
    for word in _SPACE.split(value):
        if line and start + len(line) + 1 + len(word) + 1 > width:
            lines.append(line)
            line, start = word, column + 1
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return ("\n" + " " * (column + 1)).join(lines)


def entry_text(entry: EntryText, indent: str, align: bool, wrap: int) -> str:
    """The text of an entry; values that may be are wrapped at ``wrap`` (0: never)."""
    width = max((len(name) for name, _, _ in entry.fields), default=0) if align else 0
    lines = [f"@{entry.entry_type}{{{entry.key},"]
    for name, value, wrappable in entry.fields:
        head = f"{indent}{name.ljust(width)} = "
        if wrap and wrappable:
            value = _wrapped(value, len(head.expandtabs()), wrap)
        lines.append(f"{head}{value},")
    lines.append("}")
    return "\n".join(lines)


def document_text(blocks: Iterable[tuple[str, str, str]], after: str) -> str:
    """The file: each block as (comment before it, its text, the text after it on its last
    line), then the comment after the last."""
    return "".join(document_parts(blocks, lambda: after))


def document_parts(blocks: Iterable[tuple[str, str, str]], after: Callable[[], str]
                   ) -> Iterator[str]:
    """``document_text`` in pieces, one a block, as ``blocks`` come (``after``: the comment
    after the last, asked for once they have all come)."""
    between = ""
    for before, text, tail in blocks:
        comment, touches = comment_text(before)
        lead = comment + ("\n" if touches else "\n\n") if comment else ""
        yield between + lead + text + (" " + tail if tail else "") + "\n"
        between = "\n"
    closing, _ = comment_text(after())
    if closing:
        yield between + closing + "\n"
