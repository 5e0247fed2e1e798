"""Dates of .bib entries: BibLaTeX's ISO 8601-2 ``date`` fields and classic ``year``/``month``.

``2006``, ``2006-05``, ``2006-05-21``, ranges ``2001/2003``, circa ``2006~``, seasons
``2006-21`` (spring) .. ``2006-24`` (winter); ``year = 1974`` with ``month = jan`` and ``day``;
``year = {2001--2003}``. Text that is no date becomes a literal date, never an error. The same
module writes dates back in each dialect. It must never guess a missing part of a date. A .bib
date is exact syntax, not free text: ``year = {12/2009}`` stays the literal it is, so BibTeX
and Biber print what the file says (free text elsewhere is read by
``refbridge.formats.datetext``). A ``month`` that is free text beside a plain year, as Web of
Science's BibTeX export writes it (``month = {JUL 3}``, ``{NOV-DEC}``), is read by that date
reader too, and written back as it was.
"""

from __future__ import annotations

import re
from functools import lru_cache

from refbridge.formats.bibtex.tables import MONTH_NUMBERS, MONTHS, SEASON_MONTHS
from refbridge.model import Date, DateParts, ModelError

_ISO_POINT = re.compile(r"^(-?\d{1,4})(?:-(\d{2})(?:-(\d{2}))?)?([~?%]?)$")
_YEAR_RANGE = re.compile(r"^(-?\d{1,4})\s*(?:--?|/|–)\s*(-?\d{1,4})$")
_YEAR = re.compile(r"^-?\d{1,4}$")
_SEASON_OF: dict[int, int] = {season: month for month, season in SEASON_MONTHS.items()}


def _point(text: str) -> tuple[DateParts, int | None, bool] | None:
    """Date parts, season and circa of one ISO 8601-2 point, or None."""
    match = _ISO_POINT.match(text.strip())
    if match is None:
        return None
    year, month, day, mark = match.groups()
    month_number = int(month) if month else None
    season = SEASON_MONTHS.get(month_number) if month_number else None
    if season is not None:
        month_number = None
    try:
        parts = DateParts(int(year), month_number, int(day) if day else None)
    except ModelError:
        return None
    return parts, season, mark in ("~", "%")


@lru_cache(maxsize=1024)
def parse_iso_date(text: str) -> Date:
    """A BibLaTeX date field's value as a date (a literal date when it is not ISO 8601-2, or
    when the end of a range has a season or circa of its own, which the model's one season
    and circa per date cannot say); dates are immutable and recur in a file, so the last 1024
    are remembered."""
    ends = text.strip().split("/")
    points = [_point(end) for end in ends]
    if len(ends) > 2 or not all(points):
        return Date(literal=text.strip())
    start, season, circa = points[0]  # type: ignore[misc]
    if len(points) == 1:
        return Date(start=start, season=season, circa=circa)
    end, end_season, end_circa = points[1]  # type: ignore[misc]
    if end_season is not None or end_circa:
        return Date(literal=text.strip())
    return Date(start=start, end=end, season=season, circa=circa)


def parse_year_month(year: str, month: str | None, day: str | None) -> tuple[Date, list[str]]:
    """A date from classic ``year``/``month``/``day`` fields, and what could not be used."""
    unused: list[str] = []
    year = year.strip()
    month_number = MONTH_NUMBERS.get(month.strip().rstrip(".").lower()) if month else None
    if month and month_number is None and not day:
        spoken = month_text_date(year, month)
        if spoken is not None:
            return spoken, unused
    if month and month_number is None:
        unused.append("month")
    day_number = int(day) if day and day.strip().isdigit() and month_number else None
    if day and day_number is None:
        unused.append("day")
    try:
        if _YEAR.match(year):
            return Date(start=DateParts(int(year), month_number, day_number)), unused
        span = _YEAR_RANGE.match(year)
        if span:
            return Date(start=DateParts(int(span.group(1))),
                        end=DateParts(int(span.group(2)))), unused + [
                            name for name, value in (("month", month), ("day", day))
                            if value and name not in unused]
    except ModelError:
        pass
    return Date(literal=year), unused + [name for name, value in (("month", month), ("day", day))
                                         if value and name not in unused]


def month_text_date(year: str, month: str) -> Date | None:
    """The date a free-text ``month`` (``JUL 3``, ``NOV-DEC``) says beside a plain ``year``;
    None when ``year`` is not one or the text names no month or season of it."""
    if not _YEAR.match(year.strip()):
        return None
    from refbridge.formats.datetext import date_of  # here: few entries spell a month so

    date = date_of(year, month)
    if date is None or date.start is None or (date.start.month is None and date.season is None):
        return None
    return date


def _iso_point(parts: DateParts, season: int | None) -> str:
    text = f"{parts.year:04d}" if parts.year > 0 else f"-{-parts.year:04d}"
    if parts.month is not None:
        text += f"-{parts.month:02d}"
        if parts.day is not None:
            text += f"-{parts.day:02d}"
    elif season is not None:
        text += f"-{_SEASON_OF[season]}"
    return text


def format_iso_date(date: Date) -> str | None:
    """A date as a BibLaTeX date field value (None for a literal date)."""
    if date.start is None:
        return None
    text = _iso_point(date.start, date.season)
    if date.end is not None:
        text += "/" + _iso_point(date.end, None)
    return text + ("~" if date.circa else "")


def format_year_month(date: Date) -> tuple[str, str | None, str | None]:
    """A date as classic ``year``, ``month`` (a month macro name) and ``day`` values."""
    if date.start is None:
        return date.literal or "", None, None
    if date.end is not None:  # "--" would read back as an em dash before a BC year's minus
        separator = "/" if min(date.start.year, date.end.year) < 0 else "--"
        return f"{date.start.year}{separator}{date.end.year}", None, None
    month = MONTHS[date.start.month - 1] if date.start.month else None
    day = str(date.start.day) if date.start.day else None
    return str(date.start.year), month, day
