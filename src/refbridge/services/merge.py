"""Copying what a matched work knows into a record, without losing what the record says.

Values the record lacks are filled; a date the record gives as a bare year is refined by a
full date of that year; an incomplete author list ("and others") is replaced by the found list;
an eprint gains its identifier and categories. A value the record has and the work contradicts
is left alone and reported as a conflict, unless ``overwrite``. When the work is the published
version of a preprint record (type ``article`` with an arXiv eprint), the record takes the
published type and date, and the preprint's date moves to ``available-date``; the eprint stays
as the related identifier. Every value set here is credited in ``extra``:
``"enrich.<field>" = "<service>:<identifier>"`` (``"enrich.author" = "arxiv:2601.00001v2"``),
and a moved date as ``"input:issued"``. This module must never make a request or judge a match.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refbridge.identifiers import arxiv_base
from refbridge.model import Date, Eprint, Record
from refbridge.richtext import plain
from refbridge.sameness.text import normalize_title
from refbridge.services.found import Found

PROVENANCE_PREFIX = "enrich."
#: The CSL type of preprints: a record of this type with an eprint can become the paper.
PREPRINT_TYPE = "article"
#: Fields whose differing values are not worth a conflict (an abstract is re-worded freely).
QUIET_FIELDS: frozenset[str] = frozenset({"abstract"})


@dataclass(slots=True)
class Merge:
    """The record being changed, and what changed."""

    record: Record
    filled: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)


def _same_text(a: str, b: str) -> bool:
    return normalize_title(a) == normalize_title(b) or a.strip().lower() == b.strip().lower()


def merge(record: Record, found: Found, overwrite: bool = False) -> Merge:
    """``record`` completed from ``found``; see the module docstring for the rules."""
    source = found.record
    fields = dict(record.fields)
    names = dict(record.names)
    dates = dict(record.dates)
    incomplete = set(record.incomplete_names)
    extra = dict(record.extra)
    result = Merge(record)

    def credit(target: str, provenance: str = found.provenance) -> None:
        result.filled.append(target)
        extra[PROVENANCE_PREFIX + target] = provenance

    record_type = record.type
    promote = (found.published and record.type == PREPRINT_TYPE and record.eprint is not None
               and source.type != record.type)
    if promote:
        record_type = source.type
        credit("type")
        if "issued" in dates and "available-date" not in dates and "issued" in source.dates:
            dates["available-date"] = dates.pop("issued")
            credit("available-date", extra.pop(PROVENANCE_PREFIX + "issued", "input:issued"))

    for variable, value in source.fields.items():
        mine = fields.get(variable)
        if mine is None or (overwrite and not _same_text(plain(mine), plain(value))):
            fields[variable] = value
            credit(variable)
        elif not _same_text(plain(mine), plain(value)) and variable not in QUIET_FIELDS:
            result.conflicts.append(f"{variable}: kept {plain(mine)!r}, {found.provenance} "
                                    f"has {plain(value)!r}")

    for role, people in source.names.items():
        mine_people = names.get(role)
        if mine_people is None or role in incomplete or (overwrite and mine_people != people):
            names[role] = people
            incomplete.discard(role)
            credit(role)
        elif mine_people != people and len(mine_people) != len(people):
            result.conflicts.append(f"{role}: kept {len(mine_people)} names, "
                                    f"{found.provenance} lists {len(people)}")

    for variable, date in source.dates.items():
        mine_date = dates.get(variable)
        if mine_date is None or _refines(mine_date, date) or (overwrite and mine_date != date):
            dates[variable] = date
            credit(variable)
        elif mine_date.year != date.year:
            result.conflicts.append(f"{variable}: kept {mine_date.year}, {found.provenance} "
                                    f"has {date.year}")

    eprint = _merged_eprint(record.eprint, source.eprint, overwrite, result, found)
    if eprint is not record.eprint:
        credit("eprint")

    for key, value in source.extra.items():
        if key not in extra:
            extra[key] = value

    if not result.filled:
        return result
    result.record = record.replace(type=record_type, fields=fields, names=names, dates=dates,
                                   incomplete_names=frozenset(incomplete), eprint=eprint,
                                   extra=extra)
    return result


def _refines(mine: Date, theirs: Date) -> bool:
    """Whether ``theirs`` says more than ``mine`` and agrees with it (2021 -> 2021-03-05)."""
    if mine.start is None or theirs.start is None or mine.end or mine.literal:
        return False
    return (mine.start.year == theirs.start.year and mine.start.month is None
            and theirs.start.month is not None)


def _merged_eprint(mine: Eprint | None, theirs: Eprint | None, overwrite: bool,
                   result: Merge, found: Found) -> Eprint | None:
    if theirs is None:
        return mine
    if mine is None or (overwrite and mine != theirs):
        return theirs
    if mine.archive.lower() != theirs.archive.lower():
        return mine
    identifier = mine.identifier
    if identifier is None or (arxiv_base(identifier) == arxiv_base(theirs.identifier or "")
                              and identifier != theirs.identifier
                              and identifier == arxiv_base(identifier)):
        identifier = theirs.identifier
    elif theirs.identifier and arxiv_base(identifier) != arxiv_base(theirs.identifier):
        result.conflicts.append(f"eprint: kept {identifier}, {found.provenance} is "
                                f"{theirs.identifier}")
    if mine.primary_class and theirs.primary_class and mine.primary_class != theirs.primary_class:
        result.conflicts.append(f"eprint primary class: kept {mine.primary_class}, "
                                f"{found.provenance} has {theirs.primary_class}")
    merged = Eprint(mine.archive, identifier, mine.primary_class or theirs.primary_class,
                    mine.cross_lists or theirs.cross_lists)
    return mine if merged == mine else merged
