"""The changes between two libraries' entries: added, removed, renamed (a key gone and a key
new with the same identity, unique on each side) and changed field by field (a renamed entry
under its new key). This module must never count layout as a change: it compares values as
``entries`` gives them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from refbridge.libdiff.entries import Entry

#: A field's value before and after (None: the field is absent on that side).
FieldChange = tuple["str | None", "str | None"]


@dataclass(slots=True)
class Changes:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    changed: dict[str, dict[str, FieldChange]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.renamed or self.changed)


def _by_key(entries: Sequence[Entry]) -> dict[str, Entry]:
    found: dict[str, Entry] = {}
    for entry in entries:
        found.setdefault(entry.key, entry)
    return found


def _unique_identities(entries: Sequence[Entry]) -> dict[str, Entry]:
    counts: dict[str, int] = {}
    for entry in entries:
        if entry.identity is not None:
            counts[entry.identity] = counts.get(entry.identity, 0) + 1
    return {entry.identity: entry for entry in entries
            if entry.identity is not None and counts[entry.identity] == 1}


def field_changes(old: Entry, new: Entry) -> dict[str, FieldChange]:
    names = list(old.fields) + [name for name in new.fields if name not in old.fields]
    return {name: (old.fields.get(name), new.fields.get(name)) for name in names
            if old.fields.get(name) != new.fields.get(name)}


def compare(old: Sequence[Entry], new: Sequence[Entry]) -> Changes:
    """What changed from ``old`` to ``new``."""
    old_keys, new_keys = _by_key(old), _by_key(new)
    gone = [entry for key, entry in old_keys.items() if key not in new_keys]
    arrived = [entry for key, entry in new_keys.items() if key not in old_keys]
    gone_ids, arrived_ids = _unique_identities(gone), _unique_identities(arrived)
    changes = Changes()
    pairs = [(old_keys[key], entry) for key, entry in new_keys.items() if key in old_keys]
    renamed_old, renamed_new = set(), set()
    for identity, entry in arrived_ids.items():
        if identity in gone_ids:
            before = gone_ids[identity]
            changes.renamed.append((before.key, entry.key))
            renamed_old.add(before.key)
            renamed_new.add(entry.key)
            pairs.append((before, entry))
    changes.added = [entry.key for entry in arrived if entry.key not in renamed_new]
    changes.removed = [entry.key for entry in gone if entry.key not in renamed_old]
    place = {key: index for index, key in enumerate(new_keys)}
    for before, after in sorted(pairs, key=lambda pair: place[pair[1].key]):
        fields = field_changes(before, after)
        if fields:
            changes.changed[after.key] = fields
    return changes
