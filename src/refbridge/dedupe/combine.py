"""One entry from a group of entries that record the same work (``refbridge dedupe``).

The winner is the entry of the published version (a preprint loses to it) that holds the most
values, the first in the library among equals: its key and type are kept. Each field then takes
the most complete value any entry holds (the longest plain text; the winner's among equals),
except the fields that say where the work is published (``PUBLISHED_FIELDS``), which come whole
from the published version when it has them; each name list is the longest one with the fullest
given names (``Donald E.`` over ``D. E.``), each date the most precise one of the published
version. The keys of the other entries go into biblatex's ``ids`` field (with the ``ids`` they
had), so ``\\cite{oldkey}`` still finds the entry. Every value taken from another entry than
the winner is reported. This module must never drop a value that no kept value stands for, nor
read or write files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from refbridge.formats.bibtex.reader import HINT_LAYOUT
from refbridge.model import Date, Name, Record
from refbridge.richtext import Text, plain
from refbridge.sameness.text import fold
from refbridge.sameness.works import Profile

#: The ``extra`` key of biblatex's ``ids`` field: other keys of the same entry.
IDS = "bibtex.ids"
#: Fields that say where and how the work is published: taken together from the published
#: version, never mixed with a preprint's.
PUBLISHED_FIELDS: tuple[str, ...] = ("container-title", "collection-title", "volume", "issue",
                                     "page", "publisher", "publisher-place", "DOI",
                                     "number", "event-title")

#: The fields of an eprint taken from another entry, in the layout of a winner read from a .bib
#: (whose writer writes the eprint fields the entry had).
EPRINT_LAYOUT: tuple[str, ...] = ("eprint", "eprinttype")


@dataclass(frozen=True, slots=True)
class Choice:
    """A value the merged entry took from an entry other than the winner."""

    field: str
    value: str
    key: str  #: the entry it came from
    instead_of: str | None  #: the winner's value (None: the winner had none)

    def __str__(self) -> str:
        was = "" if self.instead_of is None else f" (instead of {self.instead_of!r})"
        return f"{self.field} = {self.value!r} from {self.key}{was}"


@dataclass(frozen=True, slots=True)
class Combined:
    """The merged entry, the keys it replaces, and the values taken from them."""

    record: Record
    replaced: tuple[str, ...]
    choices: tuple[Choice, ...]


def key_of(record: Record) -> str:
    return record.citation_key or record.id


def _size(record: Record) -> int:
    return len(record.fields) + len(record.names) + len(record.dates) + len(record.extra)


def winner(group: Sequence[Record]) -> Record:
    """The entry whose key and type the merged entry keeps."""
    return max(group, key=lambda r: (not Profile(r).preprint, _size(r),
                                     -group.index(r)))


def _given_length(people: tuple[Name, ...]) -> int:
    return sum(len(p.given or "") for p in people)


def _names(role: str, ranked: Sequence[Record]) -> Record:
    holders = [r for r in ranked if role in r.names]
    return max(holders, key=lambda r: (role not in r.incomplete_names, len(r.names[role]),
                                       _given_length(r.names[role]), -ranked.index(r)))


def _date_precision(date: Date) -> int:
    return len(date.start.as_list()) if date.start else 0


def combine(group: Sequence[Record]) -> Combined:
    """The group merged into its winner."""
    best = winner(group)
    ranked = [best, *(r for r in group if r is not best)]  # the winner first among equals
    published = [r for r in ranked if not Profile(r).preprint] or ranked
    venue = next((r for r in published if any(f in r.fields for f in PUBLISHED_FIELDS)), best)
    choices: list[Choice] = []

    def chose(variable: str, source: Record, value: str) -> None:
        if source is not best:
            theirs = best.get(variable) if variable in best.fields else None
            choices.append(Choice(variable, value, key_of(source), theirs))

    fields: dict[str, Text] = {}
    for variable in dict.fromkeys(v for r in ranked for v in r.fields):
        if variable in PUBLISHED_FIELDS and variable in venue.fields:
            holder = venue
        else:  # more words, not more punctuation: "A: B" is no more complete than "A - B"
            holder = max((r for r in ranked if variable in r.fields),
                         key=lambda r: (len(fold(plain(r.fields[variable]))),
                                        -ranked.index(r)))
        fields[variable] = holder.fields[variable]
        chose(variable, holder, plain(holder.fields[variable]))
    names: dict[str, tuple[Name, ...]] = {}
    incomplete: set[str] = set()
    for role in dict.fromkeys(role for r in ranked for role in r.names):
        holder = _names(role, ranked)
        names[role] = holder.names[role]
        if role in holder.incomplete_names:
            incomplete.add(role)
        if holder.names[role] != best.names.get(role):
            chose(role, holder, "; ".join(p.display() for p in holder.names[role]))
    dates: dict[str, Date] = {}
    for variable in dict.fromkeys(v for r in ranked for v in r.dates):
        holders = [r for r in published if variable in r.dates] or \
            [r for r in ranked if variable in r.dates]
        holder = max(holders, key=lambda r: (_date_precision(r.dates[variable]),
                                             -ranked.index(r)))
        dates[variable] = holder.dates[variable]
        if holder.dates[variable] != best.dates.get(variable):
            chose(variable, holder, str(holder.dates[variable].year))
    replaced = tuple(dict.fromkeys(key_of(r) for r in ranked if key_of(r) != key_of(best)))
    extra: dict[str, str] = {}
    for record in ranked:
        for key, value in record.extra.items():
            extra.setdefault(key, value)
    ids = [i.strip() for r in ranked for i in r.extra.get(IDS, "").split(",") if i.strip()]
    all_ids = [i for i in dict.fromkeys([*ids, *replaced]) if i != key_of(best)]
    if all_ids:
        extra[IDS] = ",".join(all_ids)
    keywords = tuple(dict.fromkeys(k for r in ranked for k in r.keywords))
    eprint_holder = next((r for r in ranked if r.eprint is not None), None)
    eprint = eprint_holder.eprint if eprint_holder is not None else None
    hints = dict(best.hints)
    if eprint_holder is not None and eprint_holder is not best:
        choices.append(Choice("eprint", eprint.identifier or eprint.archive,  # type: ignore
                              key_of(eprint_holder), None))
        if HINT_LAYOUT in hints:  # a .bib entry is written with the fields it had: add these
            hints[HINT_LAYOUT] += "," + ",".join(EPRINT_LAYOUT)
    record = best.replace(fields=fields, names=names, dates=dates, keywords=keywords,
                          eprint=eprint, incomplete_names=frozenset(incomplete), extra=extra,
                          hints=hints)
    return Combined(record, replaced, tuple(choices))
