"""A Hayagriva YAML file cut into records of fields for the merge driver (``records``): a
record is one top-level key (the entry's key, its id) with the lines under it; a field is one
key of the entry at the entry's indentation with every line under it (a list, a ``parent``
mapping), compared by its YAML value. Comments and blank lines before the next entry stay
with the entry they follow.

The file must be what Typst reads: a YAML mapping of keys to entries, each a block mapping.
Anything else (flow style, anchors, one YAML document of another kind) is ``Unreadable``, and
the driver leaves the file to git's line merge. This module only cuts and reads the text: it
must never change it.
"""

from __future__ import annotations

import json
import re
import textwrap

import yaml

from refbridge.bibmerge.records import Document, Field, Record
from refbridge.bibmerge.units import Unreadable

#: A top-level key with nothing after its colon (an entry in block style).
_ENTRY = re.compile(r"""^(?P<key>"[^"]*"|'[^']*'|[^\s#'"{\[&*!|>%@`-][^:#]*?)[ \t]*:[ \t]*"""
                    r"(?:#.*)?$")
_FIELD = re.compile(r"^(?P<indent>[ \t]+)(?P<name>[A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)")


def _loaded(text: str) -> object:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as problem:
        mark = getattr(problem, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise Unreadable(f"{where}not YAML: {getattr(problem, 'problem', problem)}") from None


def _content(text: str) -> str:
    """A field's YAML value as canonical JSON (layout, quoting and comments left out)."""
    value = _loaded(textwrap.dedent(text))
    return json.dumps(value, sort_keys=True, default=str) if value is not None else ""


def _record(key: str, lines: list[str]) -> Record:
    head, rest = lines[0], lines[1:]
    trailing = len(rest)
    while trailing and (not rest[trailing - 1].strip() or rest[trailing - 1].startswith("#")):
        trailing -= 1
    body, tail = rest[:trailing], rest[trailing:]
    indent = next((match.group("indent") for line in body if (match := _FIELD.match(line))),
                  None)
    fields: list[tuple[str, list[str]]] = []
    for line in body:
        match = _FIELD.match(line)
        if match and match.group("indent") == indent:
            fields.append((match.group("name"), [line]))
        elif fields:
            fields[-1][1].append(line)
        else:
            raise Unreadable(f"entry {key}: a line before its first field")
    return Record(key, head, tuple(Field(name, "".join(text), _content("".join(text)))
                                   for name, text in fields), "".join(tail))


def read_hayagriva(text: str) -> Document:
    """The entries of Hayagriva ``text``; ``Unreadable`` when it is not a mapping of keys to
    block-style entries."""
    data = _loaded(text)
    if not isinstance(data, dict) or not data or not all(
            isinstance(entry, dict) for entry in data.values()):
        raise Unreadable("not a Hayagriva file (a mapping of keys to entries)")
    lines = text.splitlines(keepends=True)
    heads = [(index, match) for index, line in enumerate(lines) if (match := _ENTRY.match(line))]
    starts = [index for index, _ in heads]
    keys = [str(_loaded(match.group("key"))) for _, match in heads]
    if sorted(keys) != sorted(str(key) for key in data):
        raise Unreadable("an entry not written in block style")
    records = [_record(key, lines[start:end]) for key, start, end in zip(
        keys, starts, [*starts[1:], len(lines)], strict=True)]
    return Document("".join(lines[:starts[0]]), tuple(records))
