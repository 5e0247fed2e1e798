"""The changes of ``refbridge diff`` written as text, JSON or Markdown; and a library written
as text for git's ``textconv`` (entries sorted by key, fields by name, so that ``git diff``
shows changed entries and fields, not lines moved or reformatted). Record text is data:
Markdown output escapes what Markdown would read as markup; nothing is ever interpreted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from refbridge.libdiff.changes import Changes, FieldChange
from refbridge.libdiff.entries import TYPE_FIELD, Entry

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def _shown(value: str | None) -> str:
    return "(none)" if value is None else json.dumps(value, ensure_ascii=False)


def as_json(changes: Changes) -> str:
    return json.dumps({"added": changes.added, "removed": changes.removed,
                       "renamed": [list(pair) for pair in changes.renamed],
                       "changed": {key: {name: list(values) for name, values in fields.items()}
                                   for key, fields in changes.changed.items()}},
                      ensure_ascii=False, indent=2) + "\n"


def _field_lines(fields: dict[str, FieldChange], indent: str,
                 quote: Callable[[str], str]) -> list[str]:
    return [f"{indent}{quote(name)}: {quote(_shown(old))} -> {quote(_shown(new))}"
            for name, (old, new) in fields.items()]


def as_text(changes: Changes) -> str:
    lines = [f"added: {key}" for key in changes.added]
    lines += [f"removed: {key}" for key in changes.removed]
    lines += [f"renamed: {old} -> {new}" for old, new in changes.renamed]
    for key, fields in changes.changed.items():
        lines.append(f"changed: {key}")
        lines += _field_lines(fields, "  ", str)
    return "".join(line + "\n" for line in lines)


def _markdown(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def as_markdown(changes: Changes) -> str:
    sections: list[str] = []
    for title, keys in (("Added", changes.added), ("Removed", changes.removed)):
        if keys:
            sections.append(f"## {title}\n\n" + "".join(f"- {_markdown(k)}\n" for k in keys))
    if changes.renamed:
        sections.append("## Renamed\n\n" + "".join(
            f"- {_markdown(old)} → {_markdown(new)}\n" for old, new in changes.renamed))
    if changes.changed:
        body = []
        for key, fields in changes.changed.items():
            body.append(f"- {_markdown(key)}\n")
            body += [line + "\n" for line in _field_lines(fields, "  - ", _markdown)]
        sections.append("## Changed\n\n" + "".join(body))
    return "\n".join(sections)


#: The writers by the name ``--format`` takes.
FORMATS: dict[str, Callable[[Changes], str]] = {
    "text": as_text, "json": as_json, "markdown": as_markdown}


def as_textconv(entries: Sequence[Entry]) -> str:
    """A library as lines: ``@type{key`` then ``  field = value`` sorted, then ``}``."""
    out: list[str] = []
    for entry in sorted(entries, key=lambda entry: entry.key):
        out.append(f"@{entry.fields.get(TYPE_FIELD, '')}{{{entry.key}\n")
        out += [f"  {name} = {value}\n" for name, value in sorted(entry.fields.items())
                if name != TYPE_FIELD]
        out.append("}\n")
    return "".join(out)
