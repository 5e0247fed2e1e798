"""A .bib entry against its dialect's data model: for biblatex, the entry types, the fields
each type takes, the fields each requires and the data type of each value, from biblatex's own
``blx-dm.def`` (``biblatex_datamodel``) with the aliases biber reads first
(``dialects``); for BibTeX, the standard styles' entry types and required fields (btxdoc).
A field whose value biber would ignore counts as absent for the required fields, as biber
counts it. This module must never change an entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from refbridge.check import biblatex_datamodel as dm
from refbridge.check.dates import biblatex_date_ok
from refbridge.check.dialects import (
    BIBLATEX_FIELD_ALIASES,
    BIBLATEX_TYPE_ALIASES,
    BIBTEX_REQUIRED,
)
from refbridge.check.entry import BibEntry
from refbridge.check.rules import Finding

#: What Perl's looks_like_number takes, which biber asks of an integer field.
_NUMBER = re.compile(r"^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$")
_ENTRY_TYPES = frozenset(dm.ENTRY_TYPES)
_DATE_FIELDS = frozenset(f for f, (_, datatype, _) in dm.FIELD_TYPES.items()
                         if datatype == "date")
_DEFAULT_TYPE = "misc"


def ismn_ok(text: str) -> bool:
    """Whether ``text`` is an ISMN (``979-0-...`` or the older ``M-...``) with a right check
    digit."""
    digits = re.sub(r"[\s-]", "", text.upper())
    digits = "9790" + digits[1:] if digits.startswith("M") else digits
    if not re.fullmatch(r"9790\d{9}", digits):
        return False
    return sum((3 if i % 2 else 1) * int(c) for i, c in enumerate(digits)) % 10 == 0


@dataclass(frozen=True, slots=True)
class Biblatex:
    """An entry as biber sees it: its type after the aliases, its fields by biblatex's names
    (raw name -> biblatex name) and the ``type`` an alias implies."""

    entry_type: str
    known_type: bool
    names: dict[str, str]
    implied_type: str

    @classmethod
    def of(cls, entry: BibEntry) -> Biblatex:
        entry_type, implied = BIBLATEX_TYPE_ALIASES.get(entry.entry_type,
                                                        (entry.entry_type, ""))
        known = entry_type in _ENTRY_TYPES
        names = {name: BIBLATEX_FIELD_ALIASES.get(name, name) for name in entry.fields}
        return cls(entry_type if known else _DEFAULT_TYPE, known, names, implied)

    def allows(self, field: str) -> bool:
        allowed = dm.ENTRY_FIELDS.get(self.entry_type, frozenset())
        if field in _DATE_FIELDS:  # a date is allowed where its year part is
            field = field[:-len("date")] + "year"
        return field in allowed or field in dm.ENTRY_FIELDS["*"]


def _value_problem(field: str, datatype: str, value: str) -> str | None:
    """What is wrong with ``value`` as biblatex's ``datatype``, or None."""
    if datatype == "integer" and not _NUMBER.match(value):
        return f"{field} {value!r} is not an integer: biber ignores the field"
    if datatype == "date" and not biblatex_date_ok(value):
        return (f"{field} {value!r} is not a date biblatex reads (ISO 8601-2: 2020, 2020-05, "
                "2020-05-21, 2001/2003): biber ignores it")
    return None


def _constraint_problem(field: str, value: str) -> str | None:
    kind, pattern = dm.DATA_CONSTRAINTS.get(field, ("", ""))
    if kind == "ismn" and not ismn_ok(value):
        return f"ISMN {value!r} has a wrong form or check digit"
    if kind == "pattern" and not re.fullmatch(pattern, value, re.IGNORECASE):
        return f"{field} {value!r} is not one of {pattern.strip('(?:)').replace('|', ', ')}"
    return None


#: datatype -> the rule a wrong value breaks
_TYPE_RULES = {"integer": "field-type", "date": "date-format"}
#: fields biber reads as date parts, which must be numbers
_DATE_PARTS = ("year", "month", "day")


def biblatex_fields(entry: BibEntry, view: Biblatex) -> tuple[list[Finding], set[str]]:
    """Findings about the entry's type and fields in biblatex's data model, and the biblatex
    names of the fields biber would ignore for their values."""
    found: list[Finding] = []
    ignored: set[str] = set()

    def finding(code: str, message: str) -> None:
        found.append(Finding(code, message, entry.source, entry.key))

    if not view.known_type:
        finding("unknown-entry-type", f"biblatex has no entry type @{entry.entry_type} "
                "(biber reads it as @misc)")
    for raw_name, name in view.names.items():
        value = entry.value(raw_name)
        field_type = dm.FIELD_TYPES.get(name)
        if field_type is None and name not in _DATE_PARTS:
            finding("unknown-field", f"biblatex's data model has no field {raw_name!r} "
                    "(biber ignores it)")
            continue
        if not view.allows(name):
            finding("field-not-for-type", f"biblatex's data model has no field {raw_name!r} "
                    f"for @{view.entry_type} (biber ignores it)")
        if value is None:
            continue
        datatype = field_type[1] if field_type else "datepart"
        if datatype == "datepart" and name == "year" and not _NUMBER.match(value):
            finding("field-type", f"year {value!r} is not a number: biber ignores the field")
            ignored.add(name)
        problem = _value_problem(raw_name, datatype, value)
        if problem is not None:
            finding(_TYPE_RULES[datatype], problem)
            ignored.add(name)
        problem = _constraint_problem(name, value)
        if problem is not None:
            finding("field-type", problem)
    return found, ignored


def biblatex_missing(entry: BibEntry, view: Biblatex, present: frozenset[str]
                     ) -> Iterator[Finding]:
    """What biblatex's data model requires of the entry's type and ``present`` (biblatex
    field names) lacks."""
    have = present | ({"type"} if view.implied_type else set())
    for _, fields in dm.MANDATORY.get(view.entry_type, ()):
        if not have.intersection(fields):
            yield Finding("missing-field", f"biblatex needs {' or '.join(fields)} for "
                          f"@{entry.entry_type}", entry.source, entry.key)


def bibtex_type(entry: BibEntry) -> Iterator[Finding]:
    """An entry type the standard BibTeX styles do not know."""
    if entry.entry_type not in BIBTEX_REQUIRED:
        yield Finding("unknown-entry-type", f"the standard BibTeX styles have no entry type "
                      f"@{entry.entry_type} (they print it as @misc)", entry.source, entry.key)


def bibtex_missing(entry: BibEntry, present: frozenset[str]) -> Iterator[Finding]:
    """What btxdoc requires of the entry's type and ``present`` (field names) lacks."""
    for fields in BIBTEX_REQUIRED.get(entry.entry_type, ()):
        if not present.intersection(fields):
            yield Finding("missing-field", f"bibtex needs {' or '.join(fields)} for "
                          f"@{entry.entry_type}", entry.source, entry.key)
