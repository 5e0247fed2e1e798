"""Duplicate citation keys and duplicate records (the same DOI; the same title, year and first
author) across every input of a check. Only keys, DOIs and signatures are kept, never the
records, so a library of any size is checked in bounded memory. This module must never change
a record.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from refbridge.check.rules import Finding
from refbridge.identifiers import bare_doi
from refbridge.model import Record, Source
from refbridge.sameness.keys import signature


def _where(source: Source | None) -> str:
    return str(source) if source is not None else "an earlier record"


@dataclass(slots=True)
class DuplicateFinder:
    """Remembers the keys, DOIs and signatures seen so far (not the records)."""

    keys: dict[str, Source | None] = field(default_factory=dict)
    dois: dict[str, Source | None] = field(default_factory=dict)
    signatures: dict[tuple[str, int | None, str], Source | None] = field(default_factory=dict)

    def check(self, record: Record) -> Iterator[Finding]:
        key = record.citation_key
        if key is not None:
            if key.casefold() in self.keys:
                yield Finding("duplicate-key", f"citation key {key!r} is already used at "
                              f"{_where(self.keys[key.casefold()])}", record.source, key)
            else:
                self.keys[key.casefold()] = record.source
        doi = record.get("DOI")
        if doi is not None:
            bare = bare_doi(doi).casefold()
            if bare in self.dois:
                yield Finding("duplicate-record", "same DOI as the record at "
                              f"{_where(self.dois[bare])}", record.source, key)
                return
            self.dois[bare] = record.source
        found = signature(record)
        if found is not None:
            if found in self.signatures:
                yield Finding("duplicate-record", "same title, year and first author as the "
                              f"record at {_where(self.signatures[found])}", record.source, key)
            else:
                self.signatures[found] = record.source
