"""Variables written in an item's note as "key: value" lines, read as citeproc-js reads them.

Zotero keeps CSL variables it has no field for in the note ("extra") as lines such as
``event-date: 2004-10-01/2004-10-14`` or ``reviewed-author: Hall || W. C.``, or inline as
``{:container-title: Journal}``; citeproc-js (its default ``field_hack``) moves them into the
item before rendering, and so does :func:`read_note_fields`.  A leading line that is not a
field is skipped; the first non-field line after a field ends the fields.  Dates always take
the note's value; other variables only fill an empty one.  This module rewrites item dicts
only; it never renders.
"""

from __future__ import annotations

import re
from typing import Any

_INLINE_FIELD_RE = re.compile(r"\{:(?:[-_a-z]+|[A-Z]+):[^}]+\}")
_FIELD_RE = re.compile(r"^([-_a-z]+|[A-Z]+):\s*([^}]+)$")
# citeproc-js's tables (an "alt-" prefix is dropped before looking a key up)
_DATE_VARIABLES = frozenset(
    ["locator-date", "issued", "event-date", "accessed", "original-date", "publication-date", "available-date", "submitted"])
_NAME_VARIABLES = frozenset(
    ["author", "chair", "collection-editor", "compiler", "composer", "container-author", "contributor", "curator", "director", "editor", "editor-translator", "editorial-director", "executive-producer", "guest", "host", "illustrator", "interviewer", "narrator", "organizer", "original-author", "performer", "producer", "recipient", "reviewed-author", "script-writer", "series-creator", "translator", "commenter"])


def _inline_fields_on_lines(line: str, index: int) -> str:
    """Put each ``{:key: value}`` of *line* on a line of its own (unless text precedes it)."""
    fields = _INLINE_FIELD_RE.findall(line)
    if not fields:
        return line
    texts = _INLINE_FIELD_RE.split(line)
    pieces: list[str] = []
    for text, field in zip(texts, fields):
        pieces.extend([text, field])
    pieces.append(texts[-1])
    for j in range(1, len(pieces), 2):
        before = pieces[j - 1]
        if before.strip() and (index > 0 or j > 1) and not _FIELD_RE.match(before):
            break
        pieces[j] = "\n" + pieces[j][2:-1].strip() + "\n"
    return "".join(pieces)


def _note_name(value: str) -> dict[str, str] | None:
    """``Family || Given`` as a name, a single value as a literal name."""
    parts = re.split(r"\s*\|\|\s*", value)
    if len(parts) == 1:
        return {"literal": parts[0]}
    if len(parts) == 2:
        return {"family": parts[0], "given": parts[1]}
    return None


def read_note_fields(item: dict[str, Any]) -> None:
    """Move the note's field lines of *item* (a normalized CSL-JSON dict) into its variables."""
    note = item.get("note")
    if not isinstance(note, str) or ":" not in note:
        return
    lines = "\n".join(_inline_fields_on_lines(line, i) for i, line in enumerate(note.split("\n"))).split("\n")
    names: dict[str, list[dict[str, str]]] = {}
    for i, line in enumerate(lines):
        match = _FIELD_RE.match(line)
        if not line.strip():
            continue
        if not match:
            if i == 0:
                continue
            break
        key, value = match.group(1), match.group(2).strip()
        base = key.removeprefix("alt-")
        if key == "type":
            item["type"] = value
        elif base in _DATE_VARIABLES:
            item[key] = {"raw": value}
        elif item.get(key):
            continue  # the item's own value wins; the line stays in the note
        elif base in _NAME_VARIABLES:
            name = _note_name(value)
            if name is not None:
                names.setdefault(key, []).append(name)
        else:
            item[key] = value
        lines[i] = ""
    item.update(names)
    item["note"] = "\n".join(lines).strip()
