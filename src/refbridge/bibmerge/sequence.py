"""Three versions of a .bib file merged block by block, in order.

A block is the same in every version by its id (``units``), an entry also by its identity
(``identity``) when one side renamed its key. A block added on either side is kept, where
that side put it (after the block it follows there); one deleted on one side and unchanged
in content on the other is deleted; one changed on one side takes that change; one changed
on both is merged (entries field by field: ``entry``; JabRef's settings line by line:
``lines``; other blocks whole); one key added on
both sides for two different works, or for one work with fields that conflict, keeps both
entries, ours first, under that key, as git's line merge does and as people committed such
merges (with a note: BibTeX and biber read the first), and two broken blocks added in one
place are both kept; a key added on both sides and written twice on one pairs the entries of
equal content (``paired_repeats``), so that one entry both added is not kept a third time; an entry deleted on
one side and only cut (fields removed) on the other is deleted. Blocks neither
side touched are written as they were, byte for byte. The order is ours, unless only theirs
reordered the blocks. This module must never drop a block one side changed: a block deleted
on one side and changed on the other is a conflict, both versions marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from refbridge.bibmerge.entry import OURS_MARK, SEPARATOR, THEIRS_MARK, merged_entry
from refbridge.bibmerge.lines import merged_lines
from refbridge.bibmerge.units import Library, Unit, is_jabref_setting
from refbridge.sameness.keys import bib_identity


@dataclass(frozen=True, slots=True)
class Merged:
    """The merged text and how many blocks hold conflict markers."""

    text: str
    conflicts: int
    notes: tuple[str, ...] = ()


def _identities(units: Sequence[Unit]) -> dict[str, str]:
    """Identity to id, for the entries whose identity is theirs alone in the file."""
    found: dict[str, list[str]] = {}
    for unit in units:
        if unit.kind == "entry":
            identity = _identity(unit)
            if identity is not None:
                found.setdefault(identity, []).append(unit.id)
    return {identity: ids[0] for identity, ids in found.items() if len(ids) == 1}


def followed(base: Library, side: Library) -> dict[str, Unit]:
    """``side``'s units by the id they have in ``base``: a renamed entry (a key that
    ``base`` lacks, and an identity of a ``base`` entry whose key ``side`` lacks) takes the
    ``base`` entry's id."""
    base_ids = {unit.id for unit in base.units}
    side_ids = {unit.id for unit in side.units}
    gone = _identities([unit for unit in base.units if unit.id not in side_ids])
    new = _identities([unit for unit in side.units if unit.id not in base_ids])
    renamed = {new_id: gone[identity] for identity, new_id in new.items() if identity in gone}
    return {renamed.get(unit.id, unit.id): unit for unit in side.units}


def _key_of(unit_id: str) -> str:
    """The id a repeated block's id repeats (``entry:lee2023#2`` -> ``entry:lee2023``)."""
    return unit_id.partition("#")[0]


def paired_repeats(base_ids: set[str], ours: dict[str, Unit],
                   theirs: dict[str, Unit]) -> dict[str, Unit]:
    """``theirs`` with each entry of a key that both sides added, and one side wrote more than
    once, under the id of ``ours``' entry of equal content (as git's lines pair them), not
    of the entry that comes first under that key on each side; the others under the ids
    left, in their order."""
    added: dict[str, dict[str, list[str]]] = {"ours": {}, "theirs": {}}
    for name, side in (("ours", ours), ("theirs", theirs)):
        for unit_id, unit in side.items():
            if unit_id not in base_ids and unit.kind == "entry":
                added[name].setdefault(_key_of(unit_id), []).append(unit_id)
    renamed: dict[str, str] = {}
    for key, their_ids in added["theirs"].items():
        our_ids = added["ours"].get(key, [])
        if len(our_ids) < 2 and len(their_ids) < 2:
            continue
        twins: dict[str, str] = {}
        for their_id in their_ids:
            twin = next((our_id for our_id in our_ids if our_id not in twins.values()
                         and ours[our_id].content == theirs[their_id].content), None)
            if twin is not None:
                twins[their_id] = twin
        spare = iter([unit_id for unit_id in their_ids if unit_id not in twins.values()])
        renamed.update({their_id: twins.get(their_id) or next(spare)
                        for their_id in their_ids})
    return {renamed.get(unit_id, unit_id): unit for unit_id, unit in theirs.items()}


def _identity(unit: Unit) -> str | None:
    return bib_identity(unit.block.entry_type, unit.fields) if unit.block else None


def _reordered(base: Sequence[str], side: Sequence[str]) -> bool:
    base_set, side_set = set(base), set(side)
    return [i for i in base if i in side_set] != [i for i in side if i in base_set]


def _only_removed_fields(old: Unit, new: Unit) -> bool:
    """Whether ``new`` is entry ``old`` with fields removed and nothing else changed: merged
    field by field with a deletion of the entry (all its fields removed), the deletion."""
    if old.kind != "entry" or new.kind != "entry" or old.block is None or new.block is None:
        return False
    if (old.block.entry_type, old.block.key) != (new.block.entry_type, new.block.key):
        return False
    return new.fields.items() <= old.fields.items()


def _lines(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def _marked(ours: str, theirs: str) -> str:
    """Two versions of a block (either may be empty: deleted) between git's markers."""
    return OURS_MARK + _lines(ours) + SEPARATOR + _lines(theirs) + THEIRS_MARK


def _marked_blocks(ours: Unit, theirs: Unit) -> str:
    """Both versions of a block between git's markers, the space before it outside them."""
    return ours.before + _marked(ours.source + ours.after, theirs.source + theirs.after)


def _merged_unit(base: Unit | None, ours: Unit, theirs: Unit) -> tuple[str, int, bool]:
    """The text of a block both sides have, its conflicts (0 or 1), and whether it is one
    key added on both sides for two entries, both kept."""
    if ours.text == theirs.text or base is not None and theirs.text == base.text:
        return ours.text, 0, False
    if base is not None and ours.text == base.text:
        return theirs.text, 0, False
    if ours.content == theirs.content:
        return ours.text, 0, False
    if ours.kind == "entry" and theirs.kind == "entry":
        layout_side = theirs if base is not None and theirs.content == base.content else ours
        source, conflicts = merged_entry(base, ours, theirs)
        if base is None and (conflicts or _identity(ours) != _identity(theirs)):
            return ours.text + _lines(theirs.text), 0, True
        return layout_side.before + source + layout_side.after, conflicts, False
    if base is None and ours.kind == theirs.kind == "broken":
        return ours.text + _lines(theirs.text), 0, False
    if base is not None and ours.content == base.content:
        return theirs.text, 0, False
    if base is not None and theirs.content == base.content:
        return ours.text, 0, False
    if base is not None and is_jabref_setting(ours) and is_jabref_setting(theirs):
        lines = merged_lines(base.source, ours.source, theirs.source)
        if lines is not None:
            return ours.before + lines + ours.after, 0, False
    return _marked_blocks(ours, theirs), 1, False


def _trailer(base: str, ours: str, theirs: str) -> tuple[str, int]:
    if ours == theirs or theirs == base or ours.split() == theirs.split():
        return ours, 0
    if ours == base:
        return theirs, 0
    return _marked(ours, theirs), 1


def merge_libraries(base: Library, ours: Library, theirs: Library) -> Merged:
    """The merge of ``ours`` and ``theirs``, two versions of ``base``."""
    base_units = {unit.id: unit for unit in base.units}
    sides = {"ours": followed(base, ours), "theirs": followed(base, theirs)}
    sides["theirs"] = paired_repeats(set(base_units), sides["ours"], sides["theirs"])
    base_order = list(base_units)
    backbone, other = ("theirs", "ours") if (
        _reordered(base_order, list(sides["theirs"]))
        and not _reordered(base_order, list(sides["ours"]))) else ("ours", "theirs")
    texts: dict[str, str] = {}
    notes: list[str] = []
    conflicts = 0

    def one_sided(unit_id: str, present: str) -> bool:
        """Whether the block only ``present`` has is kept, its text in ``texts``."""
        nonlocal conflicts
        unit, old = sides[present][unit_id], base_units.get(unit_id)
        if old is None:
            texts[unit_id] = unit.text
        elif unit.content == old.content or _only_removed_fields(old, unit):
            return False  # deleted on the other side, unchanged (or only cut) here
        else:
            kept = unit.source + unit.after
            texts[unit_id] = unit.before + (_marked(kept, "") if present == "ours"
                                            else _marked("", kept))
            conflicts += 1
        return True

    order: list[str] = []
    for unit_id in sides[backbone]:
        if unit_id in sides[other]:
            trio = base_units.get(unit_id), sides["ours"][unit_id], sides["theirs"][unit_id]
            text, found, twice = _merged_unit(*trio)
            if twice:
                notes.append(f"key {unit_id.removeprefix('entry:')} was added on both sides "
                             "with different entries; both kept under it (BibTeX and biber "
                             "read the first)")
            texts[unit_id] = text
            conflicts += found
            order.append(unit_id)
        elif one_sided(unit_id, backbone):
            order.append(unit_id)
    kept = set(order)
    following: dict[str | None, list[str]] = {}
    anchor: str | None = None
    for unit_id in sides[other]:
        if unit_id in kept:
            anchor = unit_id
        elif one_sided(unit_id, other):
            following.setdefault(anchor, []).append(unit_id)
    placed = following.get(None, [])
    for unit_id in order:
        placed.append(unit_id)
        placed.extend(following.get(unit_id, []))
    trailer, found = _trailer(base.trailer, ours.trailer, theirs.trailer)
    text = "".join(texts[unit_id] for unit_id in placed) + trailer
    return Merged(text, conflicts + found, tuple(notes))
