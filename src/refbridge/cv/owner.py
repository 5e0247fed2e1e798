"""Recognising the CV owner's name in author lists, whatever form a source gave it.

``Zhengping Qian`` must match ``Qian, Zhengping``, ``Qian, Z.``, ``Z. Qian``, ``QIAN Zhengping``,
``Zheng-Ping Qian`` and a name stored in the wrong order (family ``Zhengping``, given ``Qian``);
``José Núñez`` must match ``Jose Nunez``. Names are compared as lower-case ASCII (``anyascii``),
family names exactly, given names in full when both are written in full and by their first
initial when either is only initials. A name that carries identifiers (``Name.ids``, given
to the CSL processor as ``IDS_KEY``) is the owner's when one of them is the owner's, whatever
its spelling, and is not when it has another identifier of a scheme the owner has one of (a
namesake: dblp's ``Wei Wang 0002`` is not ``Wei Wang 0001``); otherwise the spelling decides.
This module must never format or change a name.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from anyascii import anyascii

from refbridge.model import Name, Record
from refbridge.names.reading import split_name

_WORD = re.compile(r"[a-z0-9]+")
#: The key of a CSL-JSON name that carries the person's identifiers, separated by spaces,
#: while the CV formats its entries (not a CSL name part: never written out).
IDS_KEY = "refbridge-ids"
_INITIALS = re.compile(r"^(?:[A-Z]\.?[\s-]*)+$")


#: How many folded names are remembered (a list names its owner in every entry).
FOLDED_REMEMBERED = 8192


@lru_cache(maxsize=FOLDED_REMEMBERED)
def _fold(text: str) -> str:
    return " ".join(_WORD.findall(anyascii(text).lower()))


@lru_cache(maxsize=FOLDED_REMEMBERED)
def _is_initials(given: str) -> bool:
    return bool(_INITIALS.match(anyascii(given).strip()))


@dataclass(frozen=True, slots=True)
class NameForm:
    """A name as folded family and given names; ``given_initials``: written as initials only."""

    family: str
    given: str
    given_initials: bool

    @classmethod
    def of(cls, family: str, given: str) -> NameForm:
        return cls(_fold(family), _fold(given), _is_initials(given))

    def matches(self, other: NameForm) -> bool:
        if not self.family or self.family != other.family:
            return False
        if not self.given or not other.given:
            return True
        if self.given_initials or other.given_initials:
            return self.given[0] == other.given[0]
        return self.given.replace(" ", "") == other.given.replace(" ", "")


def _csl_forms(name: Mapping[str, Any]) -> list[NameForm]:
    """The ways a CSL-JSON name may be read: as given, with family and given swapped, and a
    literal name in both orders."""
    literal = str(name.get("literal") or "")
    if literal:
        words = literal.replace(",", " ").split()
        if len(words) < 2:
            return [NameForm.of(literal, "")]
        if "," in literal:
            family, _, given = literal.partition(",")
            return [NameForm.of(family, given), NameForm.of(given, family)]
        return [NameForm.of(words[-1], " ".join(words[:-1])),
                NameForm.of(words[0], " ".join(words[1:]))]
    family = " ".join(str(name[part]) for part in ("non-dropping-particle", "family")
                      if name.get(part))
    given = str(name.get("given") or "")
    forms = [NameForm.of(family, given)]
    if given:
        forms.append(NameForm.of(given, family))
    return forms


def owner_forms(owner: str) -> NameForm:
    """The owner's name as typed: ``Family, Given`` or ``Given Family`` (reading order)."""
    if "," in owner:
        family, _, given = owner.partition(",")
        return NameForm.of(family, given)
    name = split_name(owner)
    family = " ".join(p for p in (name.non_dropping_particle, name.family) if p)
    return NameForm.of(family, name.given or "")


def reading_order(owner: str) -> str:
    """The owner's name as a heading shows it: ``Qian, Zhengping`` -> ``Zhengping Qian``."""
    family, comma, given = owner.partition(",")
    return f"{given.strip()} {family.strip()}" if comma and given.strip() else owner.strip()


@dataclass(frozen=True, slots=True)
class OwnerMatcher:
    """True for a CSL-JSON name that is one of the owner's names (several for a name change)
    or carries one of the owner's identifiers."""

    owners: tuple[NameForm, ...]
    ids: frozenset[str] = frozenset()

    @classmethod
    def of(cls, names: Iterable[str], ids: Iterable[str] = ()) -> OwnerMatcher:
        return cls(tuple(owner_forms(n) for n in names if n.strip()), frozenset(ids))

    def __call__(self, name: Mapping[str, Any]) -> bool:
        carried = set(str(name.get(IDS_KEY) or "").split())
        if carried & self.ids:
            return True
        schemes = {identifier.partition(":")[0] for identifier in self.ids}
        if any(identifier.partition(":")[0] in schemes for identifier in carried):
            return False  # a namesake: known by another identifier where the owner has one
        forms = _csl_forms(name)
        return any(owner.matches(form) for owner in self.owners for form in forms)


def csl_name(person: Name) -> dict[str, Any]:
    """``person`` as a CSL-JSON name carrying its identifiers under ``IDS_KEY``."""
    name: dict[str, Any] = dict(person.parts)
    if person.ids:
        name[IDS_KEY] = " ".join(person.ids)
    return name


def names_owner(record: Record, owner: OwnerMatcher) -> bool:
    """Whether one of the record's people (authors, editors, ...) is the owner."""
    return any(owner(csl_name(person)) for people in record.names.values() for person in people)


def same_person(first: str, second: str) -> bool:
    """Whether two owner names are one person's (``Qian, Zhengping`` and ``Z. Qian``)."""
    return owner_forms(first).matches(owner_forms(second))


def closest_name(owner: str, records: Iterable[Record]) -> str | None:
    """The person of ``records`` whose name is spelled most like ``owner`` (a typo's fix)."""
    people = {person.display() for record in records for people in record.names.values()
              for person in people}
    close = difflib.get_close_matches(reading_order(owner), sorted(people), n=1, cutoff=0.6)
    return close[0] if close else None


def with_name_ids(item: dict[str, Any], record: Record) -> dict[str, Any]:
    """A CSL-JSON item of ``record`` whose names carry their identifiers under ``IDS_KEY``."""
    for role, people in record.names.items():
        names = item.get(role)
        if not isinstance(names, list):
            continue
        for name, person in zip(names, people):
            if person.ids:
                name[IDS_KEY] = " ".join(person.ids)
    return item
