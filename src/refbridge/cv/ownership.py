"""Whose CV it is, and which records are theirs.

The owner is the ``--owner`` (or ``--owner-id``) a user names, else the one person whose lists
the inputs are (a profile page, an ORCID record, a dblp page: ``profile.owner``); inputs that
are two people's lists need ``--owner``. A record is the owner's when the owner is one of its
people, or when it came from the owner's own list; records of someone else's list that do
not name the owner are left out (and counted), unless every record is asked for. An owner
that names nobody in the records is most likely a typo: it is said, with the closest name,
and nothing is left out. This module must never format a record.
"""

from __future__ import annotations

from collections.abc import Sequence

from refbridge.cv.owner import (
    OwnerMatcher,
    closest_name,
    names_owner,
    reading_order,
    same_person,
)
from refbridge.cv.select import CvOptionError
from refbridge.errors import Diagnostics
from refbridge.formats.profile import OWNER_EXTRA
from refbridge.model import Record


def one_owner(list_owners: Sequence[str]) -> tuple[str, ...]:
    """The owner of lists whose owners are ``list_owners`` (several spellings of one person
    are one owner); ``CvOptionError`` when they are different people."""
    people: list[str] = []
    for owner in list_owners:
        if not any(same_person(owner, known) for known in people):
            people.append(owner)
    if len(people) > 1:
        raise CvOptionError(
            f"the inputs are the publication lists of {len(people)} people "
            f"({', '.join(reading_order(p) for p in people)}); say whose CV this is with "
            "--owner NAME")
    return tuple(list_owners)


def owners_records(records: Sequence[Record], owners: Sequence[str], owner_ids: Sequence[str],
                   keep_all: bool, diagnostics: Diagnostics) -> list[Record]:
    """The records of ``records`` that are the owner's (all of them with ``keep_all``); what
    is left out, and an owner who is nobody here, are reported to ``diagnostics``."""
    if not owners and not owner_ids:
        return list(records)
    matcher = OwnerMatcher.of(owners, owner_ids)
    named = [names_owner(record, matcher) for record in records]
    owner = reading_order(owners[0]) if owners else owner_ids[0]
    if records and not any(named):
        fix = closest_name(owners[0], records) if owners else None
        hint = f"; did you mean {fix!r}?" if fix else ""
        diagnostics.warning(f"the owner {owner!r} is no author of any record{hint} (nothing "
                            "is highlighted and no record is left out)")
        return list(records)
    if keep_all:
        return list(records)
    mine = [record for record, found in zip(records, named)
            if found or _listed_by(record, owners)]
    if len(mine) < len(records):
        diagnostics.warning(f"{len(records) - len(mine)} of {len(records)} records do not "
                            f"name {owner} among their people and are left out "
                            "(--all-records lists them)")
    return mine


def _listed_by(record: Record, owners: Sequence[str]) -> bool:
    """Whether the record came from a list of the owner's own (whose works are theirs even
    where the source names only some of the authors)."""
    listed_by = record.extra.get(OWNER_EXTRA)
    return listed_by is not None and any(same_person(listed_by, owner) for owner in owners)
