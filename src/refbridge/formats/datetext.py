"""Dates written as text by reference managers and databases: a year field plus a month and
day text (``January 15``, ``Jan 15``, ``15 Jan``, ``2020-01-15``), as EndNote, MEDLINE, Web of
Science and Word keep them. This module must never guess a date it cannot read: such text is
kept as a literal date or reported by the caller.
"""

from __future__ import annotations

import re

from refbridge.model import Date, DateParts, ModelError

MONTH_NAMES: tuple[str, ...] = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December")
#: Lower-case month names and their first three letters -> month number.
MONTHS: dict[str, int] = {
    **{name.lower(): number for number, name in enumerate(MONTH_NAMES, start=1)},
    **{name[:3].lower(): number for number, name in enumerate(MONTH_NAMES, start=1)},
    "sept": 9}
SEASONS: dict[str, int] = {"spring": 1, "summer": 2, "autumn": 3, "fall": 3, "winter": 4}

_YEAR = re.compile(r"^-?\d{1,4}$")
_ISO = re.compile(r"^(?P<y>-?\d{1,4})-(?P<m>\d{1,2})(?:-(?P<d>\d{1,2}))?$")
_MONTH_DAY = re.compile(r"^(?P<m>[A-Za-z]+)\.?(?:\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?)?,?$")
_DAY_MONTH = re.compile(r"^(?P<d>\d{1,2})\.?\s+(?P<m>[A-Za-z]+)\.?$")
_NUMERIC = re.compile(r"^(?P<m>\d{1,2})(?:/(?P<d>\d{1,2}))?$")


def year_of(text: str) -> int | None:
    """The year ``text`` is (``2020``, ``-44``), or None."""
    stripped = text.strip()
    return int(stripped) if _YEAR.match(stripped) and int(stripped) != 0 else None


def month_of(text: str) -> int | None:
    """The month a name or abbreviation names (``Jan``, ``january``, ``Sept.``), or None."""
    return MONTHS.get(text.strip().rstrip(".").lower())


def month_day(text: str) -> tuple[int, int | None] | None:
    """The month and day of ``January 15``, ``Jan``, ``15 Jan``, ``1/15`` (or None)."""
    stripped = text.strip()
    for pattern in (_MONTH_DAY, _DAY_MONTH):
        match = pattern.match(stripped)
        if match is not None and (month := month_of(match["m"])) is not None:
            return month, int(match["d"]) if match["d"] else None
    numeric = _NUMERIC.match(stripped)
    if numeric is not None and 1 <= int(numeric["m"]) <= 12:
        return int(numeric["m"]), int(numeric["d"]) if numeric["d"] else None
    return None


def dated(year: int, month: int | None = None, day: int | None = None) -> Date | None:
    """The date, or None when it is not a calendar date (month 13, day 32)."""
    try:
        return Date(start=DateParts(year, month, day))
    except ModelError:
        return None


def date_of(year_text: str, date_text: str = "") -> Date | None:
    """The date of a year field and a month/day text (or a whole ISO date in either);
    None when they do not make a date."""
    year_text, date_text = year_text.strip(), date_text.strip()
    iso = _ISO.match(date_text) or _ISO.match(year_text)
    if iso is not None:
        return dated(int(iso["y"]), int(iso["m"]), int(iso["d"]) if iso["d"] else None)
    year = year_of(year_text)
    if year is None:
        return None
    if not date_text:
        return dated(year)
    if date_text.lower() in SEASONS:
        return Date(start=DateParts(year), season=SEASONS[date_text.lower()])
    parts = month_day(date_text)
    return dated(year, *parts) if parts is not None else None


def month_day_text(date: Date) -> str:
    """The month and day of a date as EndNote and Word write them (``January 15``), or ''."""
    if date.start is None or date.start.month is None:
        return ""
    month = MONTH_NAMES[date.start.month - 1]
    return f"{month} {date.start.day}" if date.start.day else month


def year_text(date: Date) -> str:
    """The year of a date as text, or ''."""
    return str(date.start.year) if date.start is not None else ""
