"""Three-way merge of CSL-JSON libraries (a JSON array of items, each keyed by its ``id``),
item by item and field by field, as git's merge driver merges a .bib.

An item added on either side is kept, after the item it follows on that side; one deleted on
one side and unchanged on the other is deleted; each top-level field takes the side that
changed it (values compared as JSON, layout left out). An item changed on both sides in one
field to two values, or deleted on one side and changed on the other, is a conflict: the
item's two versions written between git's markers. The result is written in ours' layout as
``json.dumps`` writes it (ours' indentation; non-ASCII characters escaped when ours
escapes them), so a file another tool wrote may change in layout, never in content. This
module must never drop an item or a field one side wrote without marking it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from refbridge.bibmerge.entry import OURS_MARK, SEPARATOR, THEIRS_MARK
from refbridge.bibmerge.records import placed
from refbridge.bibmerge.units import Unreadable

Item = dict[str, Any]


@dataclass(frozen=True, slots=True)
class CslLibrary:
    """The items of a CSL-JSON file by id, in order, and how its JSON is indented."""

    items: dict[str, Item]
    indent: int | str | None
    ascii_only: bool


def read_csl(text: str) -> CslLibrary:
    """The items of CSL-JSON ``text``; ``Unreadable`` when it is not an array of objects each
    with its own ``id`` (an empty file: no items)."""
    if not text.strip():
        return CslLibrary({}, 2, False)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as problem:
        raise Unreadable(f"line {problem.lineno}: not JSON: {problem.msg}") from None
    if not isinstance(data, list) or not all(
            isinstance(item, dict) and isinstance(item.get("id"), (str, int)) for item in data):
        raise Unreadable("not a CSL-JSON array of items, each with an id")
    items = {str(item["id"]): item for item in data}
    if len(items) != len(data):
        raise Unreadable("two items have one id")
    return CslLibrary(items, _indent(text), text.isascii() and "\\u" in text)


def _indent(text: str) -> int | str | None:
    """The indentation of the file's first indented line (None: all on one line)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            prefix = line[:len(line) - len(stripped)]
            return prefix if "\t" in prefix else len(prefix)
    return None


#: A field an item lacks.
_ABSENT = object()


def _same(one: Any, other: Any) -> bool:
    if one is _ABSENT or other is _ABSENT:
        return one is other
    return json.dumps(one, sort_keys=True) == json.dumps(other, sort_keys=True)


def _merged_item(base: Item | None, ours: Item, theirs: Item) -> Item | None:
    """``ours`` and ``theirs`` merged field by field (in ours' order, theirs' new fields
    after), or None when a field was changed to two values."""
    merged: Item = {}
    base = base or {}
    for name in list(ours) + [name for name in theirs if name not in ours]:
        old, mine, other = (item.get(name, _ABSENT) for item in (base, ours, theirs))
        if _same(mine, other) or _same(other, old):
            value = mine
        elif _same(mine, old):
            value = other
        else:
            return None
        if value is not _ABSENT:
            merged[name] = value
    return merged


@dataclass(frozen=True, slots=True)
class _Slot:
    """One item of the result: merged, or two versions to mark (``None``: deleted)."""

    item: Item | None
    conflict: tuple[Item | None, Item | None] | None = None


def _slot(base: Item | None, ours: Item | None, theirs: Item | None) -> _Slot | None:
    """The item of the result for one id, or None: deleted."""
    if ours is None or theirs is None:
        kept = ours if theirs is None else theirs
        if kept is None or base is not None and _same(kept, base):
            return None
        if base is None:
            return _Slot(kept)
        return _Slot(None, (ours, theirs))
    merged = _merged_item(base, ours, theirs)
    return _Slot(merged) if merged is not None else _Slot(None, (ours, theirs))


def merge_csl(base: CslLibrary, ours: CslLibrary, theirs: CslLibrary) -> tuple[str, int]:
    """The merged CSL-JSON text, in ours' layout, and its number of conflicts."""
    slots = [slot for item_id in placed(list(ours.items), list(theirs.items)) if (slot := _slot(
        base.items.get(item_id), ours.items.get(item_id), theirs.items.get(item_id)))]
    conflicts = sum(slot.conflict is not None for slot in slots)
    if not slots:
        return "[]\n", 0
    if ours.indent is None and not conflicts:
        return "[" + ", ".join(_dumped(slot.item or {}, ours) for slot in slots) + "]\n", 0
    last = len(slots) - 1
    body = "".join(_item_text(slot, ours, "," if index < last else "") + "\n"
                   for index, slot in enumerate(slots))
    return "[\n" + body + "]\n", conflicts


def _dumped(item: Item, library: CslLibrary) -> str:
    text = json.dumps(item, indent=library.indent, ensure_ascii=library.ascii_only)
    if library.indent is None:
        return text
    prefix = " " * library.indent if isinstance(library.indent, int) else library.indent
    return "\n".join(prefix + line for line in text.splitlines())


def _item_text(slot: _Slot, library: CslLibrary, comma: str) -> str:
    """An item as the file writes it, then ``comma``; a conflict's two versions between
    git's markers."""
    if slot.conflict is None:
        return _dumped(slot.item or {}, library) + comma
    sides = [_dumped(item, library) + comma + "\n" if item is not None else ""
             for item in slot.conflict]
    return OURS_MARK + sides[0] + SEPARATOR + sides[1] + THEIRS_MARK.rstrip("\n")
