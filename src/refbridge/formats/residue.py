"""The residue: what a format's own syntax could not carry, kept as CSL-JSON so nothing is lost.

RIS and Zotero RDF have no slot for parts of the model (CSL types they lack, name particles,
date ranges, most name roles, other formats' extra fields). Their writers compare the record with
what their own reader makes of the native output and keep the difference, as CSL-JSON keys of
``formats.csljson.to_csl``, in the format's free-text slot (an RIS note, Zotero's Extra field);
their readers apply it back. Reading what was written therefore gives the record that was
written. The residue is plain CSL-JSON, so a person (or another CSL tool) can read it.

This module holds the residue as CSL-JSON items and text (compared, applied, written as a line,
read back); the residue of two records and a record with a residue applied are
``formats.csljson``'s (``residue``, ``apply_residues``), which builds on this module. This
module must never know the syntax of any format, nor import one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from refbridge.errors import Diagnostics

#: The prefix of the line that holds a residue, in every format that writes one.
RESIDUE_LABEL = "refbridge"
RESIDUE_PREFIX = RESIDUE_LABEL + ": "


#: The CSL-JSON key whose object is compared key by key (the rest are compared whole), and so
#: is each object in it (``custom.extra``: a residue names only the extra fields that differ).
NESTED = "custom"
#: The key of ``NESTED`` that holds layout hints (``Record.hints``); a residue carries only
#: what a .bib keeps of its library (``formats.csljson.LIBRARY_HINTS``).
HINTS = "hints"


def item_difference(wanted: Mapping[str, Any], got: Mapping[str, Any], depth: int = 0
                    ) -> dict[str, Any]:
    """What turns CSL-JSON item ``got`` into ``wanted`` (a residue); objects under ``NESTED``
    are compared key by key."""
    difference: dict[str, Any] = {}
    for key, value in wanted.items():
        other = got.get(key)
        if other == value:
            continue
        nested = depth == 0 and key == NESTED or depth == 1
        difference[key] = item_difference(value, other, depth + 1) if nested and isinstance(
            value, dict) and isinstance(other, dict) else value
    difference.update({k: None for k in got if k not in wanted})
    return difference


def apply_to_item(item: dict[str, Any], difference: Mapping[str, Any], depth: int = 0
                  ) -> None:
    """Apply a residue to CSL-JSON item ``item`` in place."""
    for key, value in difference.items():
        nested = depth == 0 and key == NESTED or depth == 1
        if value is None:
            item.pop(key, None)
        elif nested and isinstance(value, Mapping) and isinstance(item.get(key), dict):
            apply_to_item(item[key], value, depth + 1)
            if not item[key]:
                del item[key]
        else:
            item[key] = value


#: the line breaks ``json.dumps`` leaves as they are, as JSON escapes
_UNICODE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028",
                                 "\u2029": "\\u2029"})


def dump(difference: Mapping[str, Any]) -> str:
    """One line of JSON (line breaks inside values are escaped: JSON escapes those below
    U+0020, and NEL and the line and paragraph separators are escaped here, as every line
    break ends a line for some reader)."""
    return json.dumps(difference, ensure_ascii=False, separators=(", ", ": "),
                      sort_keys=True).translate(_UNICODE_BREAKS)


def load(text: str) -> dict[str, Any]:
    """The residue written by ``dump``; raises ``ValueError`` when it is not one."""
    try:
        value = json.loads(text)
    except RecursionError:  # record text: a note of ten thousand brackets
        raise ValueError("a residue is not nested that deeply") from None
    if not isinstance(value, dict):
        raise ValueError("a residue must be a JSON object")  # noqa: TRY004 (as JSON errors)
    return value


def note_residue(note: str, source: str, line: int | None, diagnostics: Diagnostics
                 ) -> dict[str, Any] | None:
    """The residue a note holds, or None for an ordinary note (one that only looks like a
    residue is reported and stays a note)."""
    if not note.startswith(RESIDUE_PREFIX):
        return None
    try:
        return load(note[len(RESIDUE_PREFIX):])
    except ValueError:
        diagnostics.warning(f"a note starts with {RESIDUE_PREFIX!r} but holds no residue; "
                            "kept as a note", source, line)
        return None


def looks_like_residue(note: str) -> bool:
    """Whether a line of ``note`` would read as a residue (such a note travels in the
    residue instead of the format's own note)."""
    return any(line.startswith(RESIDUE_PREFIX) for line in note.split("\n"))
