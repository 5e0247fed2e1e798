"""The residue: what a format's own syntax could not carry, kept as CSL-JSON so nothing is lost.

RIS and Zotero RDF have no slot for parts of the model (CSL types they lack, name particles,
date ranges, most name roles, other formats' extra fields). Their writers compare the record with
what their own reader makes of the native output and keep the difference, as CSL-JSON keys of
``formats.csljson.to_csl``, in the format's free-text slot (an RIS note, Zotero's Extra field);
their readers apply it back. Reading what was written therefore gives the record that was
written. The residue is plain CSL-JSON, so a person (or another CSL tool) can read it.

Of the record's layout hints, a residue carries only what a .bib keeps of its library
(``LIBRARY_HINTS``): the text around its entry (``%`` lines, ``@comment``, ``@preamble`` and
``@string`` blocks) and its key where the .bib had none or repeated one, under
``custom.hints`` as CSL-JSON does, so that a .bib written after a trip through another format
has them in their place; applying a residue reads them as CSL-JSON's ``custom.hints`` is read
(a ``@preamble`` that could run harmful LaTeX does not come back: ``formats.csljson``).

This module must never know the syntax of any format.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.tables import (
    HINT_AFTER,
    HINT_BEFORE,
    HINT_COMMENT,
    HINT_KEY,
    HINT_PREAMBLE,
)
from refbridge.formats.csljson import from_csl, to_csl
from refbridge.model import Record, Source

#: The prefix of the line that holds a residue, in every format that writes one.
RESIDUE_LABEL = "refbridge"
RESIDUE_PREFIX = RESIDUE_LABEL + ": "


#: The CSL-JSON key whose object is compared key by key (the rest are compared whole), and so
#: is each object in it (``custom.extra``: a residue names only the extra fields that differ).
NESTED = "custom"
#: The key of ``NESTED`` that holds layout hints (``Record.hints``); a residue carries only
#: those of ``LIBRARY_HINTS``.
HINTS = "hints"
#: The hints of what a .bib keeps of its library, not of an entry's layout: the text around
#: an entry, and the key of an entry that had none or repeated one.
LIBRARY_HINTS = frozenset({HINT_BEFORE, HINT_AFTER, HINT_PREAMBLE, HINT_COMMENT, HINT_KEY})


def _diff(wanted: Mapping[str, Any], got: Mapping[str, Any], depth: int = 0
          ) -> dict[str, Any]:
    """What turns ``got`` into ``wanted``; objects under ``NESTED`` are compared key by key."""
    difference: dict[str, Any] = {}
    for key, value in wanted.items():
        other = got.get(key)
        if other == value:
            continue
        nested = depth == 0 and key == NESTED or depth == 1
        difference[key] = _diff(value, other, depth + 1) if nested and isinstance(
            value, dict) and isinstance(other, dict) else value
    difference.update({k: None for k in got if k not in wanted})
    return difference


def _apply(item: dict[str, Any], difference: Mapping[str, Any], depth: int = 0) -> None:
    for key, value in difference.items():
        nested = depth == 0 and key == NESTED or depth == 1
        if value is None:
            item.pop(key, None)
        elif nested and isinstance(value, Mapping) and isinstance(item.get(key), dict):
            _apply(item[key], value, depth + 1)
            if not item[key]:
                del item[key]
        else:
            item[key] = value


def residue(original: Record, native: Record) -> dict[str, Any]:
    """The CSL-JSON keys that turn ``native`` (what the format carried) into ``original``.

    A key whose value is ``None`` is one ``native`` has and ``original`` has not; ``custom``
    and the objects in it are compared key by key, so the residue names only the custom keys
    (and the extra fields) that differ.
    """
    wanted, got = to_csl(original), to_csl(native)
    for item in (wanted, got):  # an entry's layout in another format is no data to carry
        custom = item.get(NESTED)
        if isinstance(custom, dict) and HINTS in custom:
            kept = {k: v for k, v in custom.pop(HINTS).items() if k in LIBRARY_HINTS}
            if kept:
                custom[HINTS] = kept
            elif not custom:
                del item[NESTED]
    return _diff(wanted, got)


def apply_residue(native: Record, difference: Mapping[str, Any],
                  source: Source | None, warn: Callable[[str], None] | None = None) -> Record:
    """``native`` with ``difference`` applied; raises ``ValueError`` naming a bad value.
    ``warn`` hears of a .bib's text that is left out (``formats.csljson.from_csl``)."""
    item = to_csl(native)
    _apply(item, difference)
    return from_csl(item, source, left_out=warn)


def apply_residues(native: Record, differences: list[dict[str, Any]],
                   warn: Callable[[str], None] | None = None) -> Record:
    """``native`` with each residue applied; its citation key (or its lack of one) is kept
    unless a residue names the record's ``id``."""
    record = native
    for difference in differences:
        record = apply_residue(record, difference, native.source, warn)
    if record is not native and not any("id" in d for d in differences):
        record = record.replace(id=native.id, citation_key=native.citation_key)
    return record


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


def residue_note(original: Record, native: Record) -> str | None:
    """The note that turns ``native`` into ``original`` (``refbridge: {…}``), or None."""
    difference = residue(original, native)
    return RESIDUE_PREFIX + dump(difference) if difference else None


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
