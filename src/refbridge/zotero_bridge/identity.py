"""When a record is already in a library: the same DOI, arXiv identifier or ISBN, else the same
normalised title, year and first author.

A push looks every record up here before it saves anything, so pushing the same records twice
adds nothing the second time. Identifiers are compared in one form each (a DOI bare and in lower
case, an arXiv identifier without its version, an ISBN-10 as its ISBN-13), with ``merge`` and
``check``'s own normalisations. Title, year and first author decide only between works that do
not have different identifiers of the same kind. This module must never make a request.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from refbridge.check.duplicates import signature
from refbridge.identifiers import isbns_in
from refbridge.merge import arxiv_id, normalized_doi
from refbridge.model import Record


def isbns(record: Record) -> list[str]:
    """The record's ISBNs, each as its 13 digits."""
    return isbns_in(record.get("ISBN") or "")


def identifiers(record: Record) -> dict[str, set[str]]:
    """The record's identifiers by kind: ``doi``, ``arxiv``, ``isbn``."""
    found: dict[str, set[str]] = {}
    doi, arxiv = normalized_doi(record), arxiv_id(record)
    if doi:
        found["doi"] = {doi}
    if arxiv:
        found["arxiv"] = {arxiv}
    if (numbers := isbns(record)):
        found["isbn"] = set(numbers)
    return found


@dataclass(slots=True)
class LibraryIndex:
    """The records of a library, findable by identifier and by title, year and first author;
    each filed under a handle (the item's key)."""

    by_identifier: dict[tuple[str, str], str] = field(default_factory=dict)
    by_signature: dict[tuple[str, int | None, str], list[str]] = field(default_factory=dict)
    identifiers_of: dict[str, dict[str, set[str]]] = field(default_factory=dict)

    def add(self, record: Record, handle: str) -> None:
        found = identifiers(record)
        self.identifiers_of[handle] = found
        for kind, values in found.items():
            for value in values:
                self.by_identifier.setdefault((kind, value), handle)
        if (title := signature(record)) is not None:
            self.by_signature.setdefault(title, []).append(handle)

    def add_all(self, pairs: Iterable[tuple[Record, str]]) -> None:
        for record, handle in pairs:
            self.add(record, handle)

    def find(self, record: Record) -> str | None:
        """The handle of the library's record that is the same work as ``record``, or None."""
        found = identifiers(record)
        for kind, values in found.items():
            for value in sorted(values):
                if (kind, value) in self.by_identifier:
                    return self.by_identifier[(kind, value)]
        title = signature(record)
        for handle in self.by_signature.get(title, ()) if title is not None else ():
            theirs = self.identifiers_of[handle]
            if not any(kind in theirs and not (values & theirs[kind])
                       for kind, values in found.items()):
                return handle
        return None
