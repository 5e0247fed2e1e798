"""Dates as biblatex reads its date fields (``date``, ``urldate``, ``eventdate``,
``origdate``): ISO 8601-2 / EDTF level 1 as the biblatex manual (section 2.3.8) describes it,
the grammar biber parses before it validates the data model. A value it cannot read is one
biber ignores (``Invalid format ... of date field``). This module must never change a value.
"""

from __future__ import annotations

import calendar
import re

#: A year of four digits (signed: ``-0044``), the last digits perhaps unspecified (``19XX``).
_YEAR = r"[+-]?(?:\d{4}|\d{3}X|\d{2}XX)"
_TIME = r"T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}(?::?\d{2})?)?"
_POINT = re.compile(rf"^({_YEAR})(?:-(\d{{2}}|XX)(?:-(\d{{2}}|XX))?)?({_TIME})?[~?%]?$")
#: Months 21-41 are ISO 8601-2's divisions of a year (seasons, quarters, halves).
_YEAR_DIVISIONS = range(21, 42)
#: An open end of a range (``2020/..`` or ``2020/``).
_OPEN = ("", "..")


def _point_ok(text: str) -> bool:
    match = _POINT.match(text)
    if match is None:
        return False
    year, month, day, time = match.groups()
    if month is None or "X" in month:
        return day is None or "X" in day or month is not None and "X" not in year
    number = int(month)
    if day is None:
        return 1 <= number <= 12 or number in _YEAR_DIVISIONS and time is None
    if not 1 <= number <= 12:
        return False
    if "X" in day:
        return True
    if "X" in year:
        return 1 <= int(day) <= 31
    return 1 <= int(day) <= calendar.monthrange(int(year), number)[1]


def biblatex_date_ok(value: str) -> bool:
    """Whether biber reads ``value`` as a date or a date range."""
    text = value.strip()
    start, slash, end = text.partition("/")
    if not slash:
        return _point_ok(text)
    if start in _OPEN and end in _OPEN:
        return False
    return all(part in _OPEN or ("X" not in part and _point_ok(part)) for part in (start, end))
