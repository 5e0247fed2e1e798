"""One entry merged from three versions, field by field, into one side's layout.

Each field (and the entry's type and key) takes the side that changed it; a field changed on
both sides to different values is a conflict, written inside the entry between git's markers
with both values, the rest merged around it. An empty value counts as none (``note = {}``
removed on one side and filled on the other is the fill). The merged entry is written in the layout of
the side that only reformatted it (``refbridge fmt``, another tool), else in ours: only the
fields whose value differs are rewritten there, deleted or added. When a conflict cannot be
marked on lines of its own, the whole entry is (both versions between the markers). This
module must never drop a value one side wrote without marking it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from refbridge.bibmerge.units import Unit

OURS_MARK, SEPARATOR, THEIRS_MARK = "<<<<<<< ours\n", "=======\n", ">>>>>>> theirs\n"

_HEAD = re.compile(r"@\s*([A-Za-z_][\w:-]*)\s*[{(]\s*")
_FIELD_NAME = re.compile(r'[\s,]*([^\s=,{}()"#]+)\s*=\s*')


@dataclass(frozen=True, slots=True)
class Spans:
    """Where an entry's parts are in its source: the type, the key, and each field's name
    start and value end (by lower-case name; the first of a repeated name)."""

    type_span: tuple[int, int]
    key_span: tuple[int, int]
    fields: dict[str, tuple[int, int]]
    order: tuple[str, ...]


def spans_of(unit: Unit) -> Spans | None:
    """The spans of ``unit``'s entry, or None where its text is not laid out as read."""
    source, block = unit.source, unit.block
    assert block is not None
    head = _HEAD.match(source)
    if head is None or not source.startswith(block.key, head.end()):
        return None
    key_end = head.end() + len(block.key)
    position = key_end
    fields: dict[str, tuple[int, int]] = {}
    order: list[str] = []
    for field in block.fields:
        name = _FIELD_NAME.match(source, position)
        if (name is None or name.group(1).lower() != field.name
                or not source.startswith(field.raw, name.end())):
            return None
        position = name.end() + len(field.raw)
        if field.name not in fields:
            fields[field.name] = (name.start(1), position)
            order.append(field.name)
    return Spans(head.span(1), (head.end(), key_end), fields, tuple(order))


def _head(unit: Unit | None, part: str) -> str | None:
    """An entry's type (lower-cased: ``type_span``) or key (``key_span``); None: no entry."""
    if unit is None or unit.block is None:
        return None
    return unit.block.entry_type.lower() if part == "type_span" else unit.block.key


def _raw(unit: Unit, name: str) -> str | None:
    for field in unit.block.fields if unit.block else ():
        if field.name == name:
            return field.raw
    return None


def three_way(base: str | None, ours: str | None, theirs: str | None
               ) -> tuple[str, str | None]:
    """Which side a value comes from (``ours``, ``theirs``, or ``conflict``), compared
    with layout left out and an empty value as no value (BibTeX and biber read ``note =
    {}`` as no note: a side that fills an empty field the other removed changed it alone)."""
    said_base, said_ours, said_theirs = (value or None for value in (base, ours, theirs))
    if said_ours == said_theirs or said_theirs == said_base:
        return "ours", ours
    if said_ours == said_base:
        return "theirs", theirs
    return "conflict", None


def _filled(unit: Unit) -> dict[str, str]:
    """An entry's fields that hold a value (an empty one is read as none)."""
    return {name: value for name, value in unit.fields.items() if value}


def merged_entry(base: Unit | None, ours: Unit, theirs: Unit) -> tuple[str, int]:
    """The merged source of one entry (without its ``before`` and ``after``) and its number
    of conflicts (0 or 1)."""
    layout_only = {side: base is not None and _filled(side) == _filled(base)
                   and side.block is not None and base.block is not None
                   and (side.block.entry_type, side.block.key)
                   == (base.block.entry_type, base.block.key)
                   for side in (ours, theirs)}
    layout, other = ((theirs, ours) if layout_only[theirs] and not layout_only[ours]
                     else (ours, theirs))
    spans, other_spans = spans_of(layout), spans_of(other)
    if spans is None or other_spans is None:
        return whole_conflict(ours, theirs), 1
    conflicts = 0
    edits: list[tuple[int, int, str]] = []
    for part in ("type_span", "key_span"):
        side, value = three_way(*(_head(unit, part) for unit in (base, ours, theirs)))
        if side == "conflict":
            return whole_conflict(ours, theirs), 1
        chosen = ours if side == "ours" else theirs
        chosen_spans = spans_of(chosen)
        if value != _head(layout, part) and chosen_spans is not None:
            edits.append((*getattr(spans, part), chosen.source[slice(*getattr(chosen_spans,
                                                                              part))]))
    base_fields = base.fields if base is not None else {}
    ours_fields, theirs_fields = ours.fields, theirs.fields
    layout_fields = layout.fields
    names = list(spans.order) + [n for n in other_spans.order if n not in spans.fields]
    for name in names:
        side, value = three_way(base_fields.get(name), ours_fields.get(name),
                                 theirs_fields.get(name))
        if side == "conflict":
            edit = _conflict_edit(layout, spans, name, ours, theirs)
            if edit is None:
                return whole_conflict(ours, theirs), 1
            edits.append(edit)
            conflicts = 1
            continue
        if value == layout_fields.get(name):
            continue
        if value is None:
            edits.append(_deletion(spans, name))
        elif name in spans.fields:
            edits.append((*_value_span(layout, spans, name),
                           in_style(_raw(other, name) or "", _raw(layout, name) or "")))
        else:
            edits.append(_insertion(layout, spans, other, other_spans, name))
    edits.sort(key=lambda edit: (edit[0], edit[1]))
    if any(later[0] < earlier[1] for earlier, later in itertools.pairwise(edits)):
        return whole_conflict(ours, theirs), 1  # a conflict's lines hold another change
    source = layout.source
    for start, end, text in reversed(edits):
        source = source[:start] + text + source[end:]
    return source, conflicts


def _value_span(unit: Unit, spans: Spans, name: str) -> tuple[int, int]:
    end = spans.fields[name][1]
    raw = _raw(unit, name) or ""
    return end - len(raw), end


def _previous_end(spans: Spans, name: str) -> int:
    index = spans.order.index(name)
    return spans.key_span[1] if index == 0 else spans.fields[spans.order[index - 1]][1]


def _deletion(spans: Spans, name: str) -> tuple[int, int, str]:
    """Removes the field with the separator before it (the first field: the key's ``,``,
    leaving its own for the next)."""
    return _previous_end(spans, name), spans.fields[name][1], ""


def _separator(unit: Unit, spans: Spans) -> str:
    """What stands between a field's ``,`` and the next field's name in this layout."""
    if not spans.order:
        return "\n  "
    last = spans.order[-1]
    gap = unit.source[_previous_end(spans, last):spans.fields[last][0]]
    return gap[gap.find(",") + 1:]


def _insertion(layout: Unit, spans: Spans, other: Unit, other_spans: Spans, name: str
               ) -> tuple[int, int, str]:
    """Adds the field as ``other`` wrote it, after the field before it there (or the last)."""
    written = _laid_out(layout, spans, name, _raw(other, name) or "")
    index = other_spans.order.index(name)
    anchor = next((n for n in reversed(other_spans.order[:index]) if n in spans.fields),
                  spans.order[-1] if spans.order else None)
    at = spans.fields[anchor][1] if anchor is not None else spans.key_span[1]
    return at, at, "," + _separator(layout, spans) + written


def in_style(raw: str, layout_raw: str) -> str:
    """A value ``raw`` with the delimiters the layout's value has (``{...}`` or ``"..."``),
    where that changes nothing it means."""
    if not raw or not layout_raw or raw[0] == layout_raw[0] or "#" in raw:
        return raw
    inner = raw[1:-1]
    if raw[0] == '"' and layout_raw[0] == "{" and raw.endswith('"'):
        return "{" + inner + "}"
    if raw[0] == "{" and layout_raw[0] == '"' and raw.endswith("}") and '"' not in inner:
        return '"' + inner + '"'
    return raw


def _laid_out(layout: Unit, spans: Spans, name: str, raw: str) -> str:
    """``name = raw`` written as the layout writes its fields: the ``=`` in their column
    when they are aligned, else spaced as the last, the value delimited as the last's."""
    if not spans.order:
        return f"{name} = {raw}"
    heads = {field: layout.source[start:_value_span(layout, spans, field)[0]]
             for field, (start, _) in spans.fields.items()}
    columns = {head.index("=") for head in heads.values()}
    last = heads[spans.order[-1]]
    equals = last.index("=")
    value = in_style(raw, _raw(layout, spans.order[-1]) or "")
    aligned = len(columns) == 1 and len(heads) > 1
    if aligned and equals > len(name):
        return name.ljust(equals) + last[equals:] + value
    gap = " " if aligned else last[len(last[:equals].rstrip()):equals]
    return name + gap + last[equals:] + value


def _line_of(source: str, start: int, end: int) -> tuple[int, int, str] | None:
    """The whole lines a field stands on (from its name to its value and ``,``), and the
    comma, when nothing else stands on them."""
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    if line_end == -1 or source[line_start:start].strip():
        return None
    rest = source[end:line_end].strip()
    if rest not in ("", ","):
        return None
    return line_start, line_end + 1, rest


def _conflict_edit(layout: Unit, spans: Spans, name: str, ours: Unit, theirs: Unit
                   ) -> tuple[int, int, str] | None:
    """The field's lines replaced by both sides' versions between git's markers."""
    if name not in spans.fields:
        return None
    placed = _line_of(layout.source, *spans.fields[name])
    if placed is None:
        return None
    line_start, line_end, comma = placed
    indent = layout.source[line_start:spans.fields[name][0]]
    texts = []
    for side in (ours, theirs):
        side_spans = spans_of(side)
        if side_spans is None:
            return None
        field = side_spans.fields.get(name)
        texts.append(indent + side.source[slice(*field)] + comma + "\n" if field else "")
    return line_start, line_end, OURS_MARK + texts[0] + SEPARATOR + texts[1] + THEIRS_MARK


def whole_conflict(ours: Unit, theirs: Unit) -> str:
    """Both versions of a block between git's markers, each on lines of its own."""
    return (OURS_MARK + _lines(ours.source) + SEPARATOR + _lines(theirs.source)
            + THEIRS_MARK.rstrip("\n"))


def _lines(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"

