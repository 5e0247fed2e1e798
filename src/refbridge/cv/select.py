"""Choosing the records a CV lists: by year range, publication kind, arXiv subject and words.

Every filter that is set must hold (they combine with AND); within one filter any listed value
may match (``--type journal --type conference``). Subjects are arXiv category codes
(``cs.DB``) or archives (``cs`` matches every ``cs.*``), compared with all of a record's
categories. Free text matches when every word appears, ignoring case and accents, in the title,
authors, venue, year, abstract or keywords. This module must never reorder records.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from anyascii import anyascii

from refbridge.cv.types import KIND_NAMES, kind_of
from refbridge.errors import ExitStatus, RefbridgeError
from refbridge.model import Record
from refbridge.vocab import ITEM_TYPES


class CvOptionError(RefbridgeError):
    """A CV option with a value refbridge does not know (a usage error)."""

    exit_status = ExitStatus.USAGE


@dataclass(frozen=True, slots=True)
class Filters:
    """What to keep; ``None`` or empty: no restriction."""

    since: int | None = None  #: first year, inclusive
    until: int | None = None  #: last year, inclusive
    kinds: tuple[str, ...] = ()  #: publication kinds (``refbridge.cv.types``) or CSL types
    subjects: tuple[str, ...] = ()  #: arXiv categories (``cs.DB``) or archives (``cs``)
    text: str | None = None  #: words that must all appear

    def __post_init__(self) -> None:
        for kind in self.kinds:
            if kind not in KIND_NAMES and kind not in ITEM_TYPES:
                raise CvOptionError(f"unknown publication type {kind!r} (choose from "
                                     f"{', '.join(KIND_NAMES)}, or a CSL item type)")
        if self.since is not None and self.until is not None and self.since > self.until:
            raise CvOptionError(f"the year range {self.since}-{self.until} is empty")


def _fold(text: str) -> str:
    return anyascii(text).casefold()


def record_subjects(record: Record) -> tuple[str, ...]:
    """The record's arXiv categories, primary first."""
    return record.eprint.classes if record.eprint is not None else ()


def searchable_text(record: Record) -> str:
    parts: list[str] = [record.get(v, "") or "" for v in
                        ("title", "container-title", "collection-title", "publisher",
                         "abstract", "event-title")]
    parts += [person.display() for people in record.names.values() for person in people]
    parts += list(record.keywords) + list(record_subjects(record))
    parts.append(str(record.year or ""))
    return _fold(" ".join(parts))


def _subject_matches(wanted: str, categories: Iterable[str]) -> bool:
    wanted = wanted.casefold()
    return any(code.casefold() == wanted or code.casefold().startswith(wanted + ".")
               for code in categories)


def keep(record: Record, filters: Filters) -> bool:
    """Whether ``record`` passes every filter (a BibLaTeX ``@set`` is its members, not a work
    of its own)."""
    from refbridge.formats.bibtex.reader import is_container

    if is_container(record):
        return False
    year = record.year
    if filters.since is not None and (year is None or year < filters.since):
        return False
    if filters.until is not None and (year is None or year > filters.until):
        return False
    if filters.kinds and not (record.type in filters.kinds
                              or kind_of(record.type).name in filters.kinds):
        return False
    if filters.subjects and not any(_subject_matches(s, record_subjects(record))
                                    for s in filters.subjects):
        return False
    if filters.text:
        haystack = searchable_text(record)
        return all(word in haystack for word in _fold(filters.text).split())
    return True


def select(records: Iterable[Record], filters: Filters) -> list[Record]:
    return [record for record in records if keep(record, filters)]
