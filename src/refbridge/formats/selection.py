"""``--fields`` / ``--exclude-fields`` for writers that work on model parts (RIS, Zotero RDF).

A name is a model part (``abstract``, ``keywords``, ``editor``, ``issued``: see
``refbridge.coverage.MODEL_PARTS``) or a name of the format's own (an RIS tag such as ``AB``),
which the writer maps to a part. The selection is applied to the record before writing, so a
part left out is left out everywhere, including the residue. This module must never know a
format's syntax.
"""

from __future__ import annotations

from collections.abc import Mapping

from refbridge.model import Record
from refbridge.registry import WriteOptions

#: Model parts that are not a CSL variable, and the empty value that removes each.
_RECORD_PARTS: dict[str, object] = {"keywords": (), "eprint": None,
                                    "incomplete-names": frozenset(), "extra": {}}


def _parts(names: frozenset[str], aliases: Mapping[str, str]) -> frozenset[str]:
    return frozenset(aliases.get(name, aliases.get(name.upper(), name)) for name in names)


def select(record: Record, options: WriteOptions, aliases: Mapping[str, str]) -> Record:
    """``record`` with only the parts ``options`` asks for."""
    if options.include_fields is None and not options.exclude_fields:
        return record
    excluded = _parts(options.exclude_fields, aliases)
    included = None if options.include_fields is None else _parts(options.include_fields,
                                                                   aliases)

    def wanted(part: str) -> bool:
        return part not in excluded and (included is None or part in included)

    names = {role: people for role, people in record.names.items() if wanted(role)}
    changes: dict[str, object] = {
        "fields": {k: v for k, v in record.fields.items() if wanted(k)},
        "names": names,
        "dates": {k: v for k, v in record.dates.items() if wanted(k)},
        "incomplete_names": record.incomplete_names & names.keys(),
    }
    for part, empty in _RECORD_PARTS.items():
        if not wanted(part):
            changes[part.replace("-", "_")] = empty
    return record.replace(**changes)
