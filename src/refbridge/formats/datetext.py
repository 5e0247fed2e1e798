"""The one reader of dates written as free text, used by every reader that meets one: Zotero
RDF's ``dc:date``, RIS ``PY``/``DA``, MEDLINE ``DP``, EndNote, Web of Science, Word, MODS,
PubMed, and the CSV and Google Scholar sheets.

It reads what people and databases write, as forgivingly as Zotero's ``strToDate``: numeric
dates (``2018-2-12``, ``07/26/2017`` month first unless told the day comes first,
``26.07.2017`` day first, ``12/2009``, ``2020/2``), ISO date-times (the time is dropped),
month names and abbreviations in the major European languages (``20th February 2020``,
``5 de mayo de 2019``, ``20. Februar 2020``, ``Apr 1990``, ``1990 Apr``), seasons
(``Spring 2021``), circa (``ca. 1850``, ``~1995``, ``2004-06~``), eras (``44 BC``,
``1000–900 BCE``), ranges (``1985-1988``, ``2021-22``, ``Sep-Oct 2010``, ``2010 Sep-Oct``,
``May 5-7, 2019``), RIS's ``YYYY/MM/DD/other`` with an
empty or repeated other part (EBSCO's ``2020/01/01/2020``), and the phrases that say there is
no date (``n.d.``, ``forthcoming``, ``in press``), which stay literal dates as CSL keeps them.

It must never invent a part it did not see: every word and number of the text has to be
understood, two-digit years are not given a century (only a condensed end year takes its
start's), a day must be in its month (no 29 February 2023), and a text it cannot read stays a
literal date, reported (``not_understood``) so the caller warns with file and line.

CSL-JSON ``raw`` dates are read by ``refbridge.rawdates`` instead: what a raw date means
is what citeproc-js makes of it, quirks included (``2015-12-01 to 2015-12-02`` is one day
there), so that port must not change with this reader. BibLaTeX's ISO 8601-2 ``date`` fields
are read by ``refbridge.formats.bibtex.dates``: a .bib date is exact syntax, not free text.
"""

from __future__ import annotations

import calendar
import dataclasses
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from refbridge.formats.datetext_tables import (
    CIRCA_WORDS,
    ERA_WORDS,
    IGNORED_WORDS,
    MONTH_ABBREVIATIONS,
    MONTH_WORDS,
    NO_DATE_PHRASES,
    SEASON_WORDS,
    TIME_ZONES,
)
from refbridge.model import Date, DateParts, ModelError

#: Which comes first in an all-numeric date with three parts: month (US) or day.
DayOrder = Literal["mdy", "dmy"]

MONTH_NAMES: tuple[str, ...] = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December")


def fold(word: str) -> str:
    """A word as the tables spell it: lower case, without accents (``Févr.`` -> ``févr`` ->
    ``fevr``), without a final period."""
    decomposed = unicodedata.normalize("NFKD", word.strip().rstrip(".").lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _month_table() -> dict[str, int]:
    """Every full month name, and every prefix of three letters or more that names one month
    only (``sep``, ``févr``, ``okt``; not ``jui``, which is juin or juillet)."""
    full: dict[str, int] = {}
    prefixes: dict[str, set[int]] = {}
    for names in MONTH_WORDS.values():
        for number, name in enumerate(names, start=1):
            full[name] = number
            for end in range(3, len(name)):
                prefixes.setdefault(name[:end], set()).add(number)
    unique = {prefix: months.pop() for prefix, months in prefixes.items() if len(months) == 1}
    return {**unique, **MONTH_ABBREVIATIONS, **full}


#: Folded month words -> month number.
MONTHS: dict[str, int] = _month_table()

_BC_ISO = re.compile(r"^-(?P<y>\d{1,4})(?:-(?P<m>\d{2})(?:-(?P<d>\d{2}))?)?$")
_RIS_FORM = re.compile(r"^(?P<y>\d{4})/(?P<m>\d{0,2})/(?P<d>\d{0,2})/(?P<other>.*)$")
_ISO_TIME = re.compile(r"^(\d{3,4}-\d{1,2}-\d{1,2})T\d{1,2}(?::\d{2}){0,2}(?:[.,]\d+)?"
                       r"(?:Z|[+-]\d{2}(?::?\d{2})?)?$")
_CLOCK = re.compile(r"\s*\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[AaPp]\.?[Mm]\.?)?"
                    r"(?:\s*(?:" + "|".join(TIME_ZONES) + r"|[+-]\d{2}:?\d{2})\b)?")
_CJK = re.compile(r"^(\d{1,4})\s*年\s*(?:(\d{1,2})\s*月\s*(?:(\d{1,2})\s*日)?)?$")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")  # ISO 8601's basic form, MEDLINE's 20210115
#: A year, then a month and day in numbers, apart (MEDLINE's ``DP - 2013 06 10``)
_SPACED = re.compile(r"^(\d{4}) (\d{1,2})(?: (\d{1,2}))?$")
_NUMERIC = re.compile(r"^(\d{1,4})([-/.])(\d{1,4})(?:\2(\d{1,4}))?$")
_ORDINAL = re.compile(r"^(\d{1,2})(?:st|nd|rd|th|er|e|eme|º|ª|\.)$", re.IGNORECASE)
_YEAR_POINT = re.compile(r"^(\d{3,4})\.$")
_MONTH_DAYS: tuple[int, ...] = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_CONDENSED = re.compile(r"^(\d{3,4})\s*(?:--?|[–—/])\s*(\d{2})$")  # 2021-22, 1995--96
_RANGE = re.compile(r"\s*(?:--|[-–—/]|\b(?:to|until|through|bis|au)\b)\s*", re.IGNORECASE)
_ERA_PHRASE = re.compile(r"\b([BbAaCc])\.?\s?([CcDdEe])\.?(?:\s?([Ee])\.?)?(?=\s|$)|"
                         r"\b([vn])\.\s?Chr\.?", re.IGNORECASE)
_YEAR = re.compile(r"^-?\d{1,4}$")


@dataclass(frozen=True, slots=True)
class DateReading:
    """What the reader made of a text: the date (None for an empty text), and whether it
    understood it (False: the date is the text kept literally, and the caller warns)."""

    date: Date | None
    understood: bool = True

    @property
    def not_understood(self) -> bool:
        return not self.understood


@dataclass(slots=True)
class _Found:
    """The parts one side of a date names; None where the text says nothing."""

    year: int | None = None
    month: int | None = None
    day: int | None = None
    season: int | None = None
    circa: bool = False
    era: int = 0  #: -1 for an era marker BC, 1 for AD, 0 without one

    def parts(self) -> DateParts:
        if self.year is None:
            raise ModelError("no year")
        return DateParts(self.year, self.month, self.day)


def read_date(text: str, order: DayOrder = "mdy", year: int | None = None) -> DateReading:
    """The date ``text`` says. ``order`` decides ``05/06/2019`` (``mdy``: May 6, as in the US
    and in Zotero's default; ``dmy``: 5 June); ``year`` is the year another field of the record gives, used only when
    the text names none (RIS ``DA - MAY 6`` beside ``PY - 2023``). A text no literal date can
    hold (a NUL character) raises ``ModelError``, as ``Date`` does."""
    return _read(" ".join(text.split()), order, year)


@lru_cache(maxsize=2048)
def _read(text: str, order: DayOrder, year: int | None) -> DateReading:
    if not text:
        return DateReading(None)
    if text.lower() in NO_DATE_PHRASES or text.lower().strip("[]()") in NO_DATE_PHRASES:
        return DateReading(Date(literal=text))
    date = _date_of(_without_time(text), order, year)
    return DateReading(date) if date is not None else DateReading(Date(literal=text), False)


def read_date_or_warn(text: str, warn: Callable[[str], None], label: str,
                      order: DayOrder = "mdy", year: int | None = None) -> Date | None:
    """The date ``text`` says; when it cannot be read, the literal text, after
    ``warn("<label>: date '<text>' not understood; kept as written")``."""
    reading = read_date(text, order, year)
    if reading.not_understood:
        warn(not_understood_message(label, text))
    return reading.date


def not_understood_message(label: str, text: str) -> str:
    """The warning for a date that stays literal."""
    return f"{label}: date {' '.join(text.split())!r} not understood; kept as written"


def _without_time(text: str) -> str:
    """The text without a clock time (``2019-09-29T19:19:24Z`` -> ``2019-09-29``)."""
    iso = _ISO_TIME.match(text)
    if iso is not None:
        return iso[1]
    return _CLOCK.sub("", text).strip(" ,")


def _date_of(text: str, order: DayOrder, year: int | None) -> Date | None:
    """The date of a text without its clock time, circa marks included (``~1995``,
    ``2004-06~``, ``1850?``: CSL has one mark for an approximate date)."""
    marked = text[:1] == "~" or text[-1:] in ("~", "?", "%")
    if marked:
        text = text.removeprefix("~").rstrip("~?%").strip()
    date = _unmarked_date_of(text, order, year)
    return dataclasses.replace(date, circa=True) if date is not None and marked else date


def _unmarked_date_of(text: str, order: DayOrder, year: int | None) -> Date | None:
    ris = _RIS_FORM.match(text)
    if ris is not None:
        return _ris_form(ris)
    bc = _BC_ISO.match(text)
    if bc is not None:  # ISO 8601's year -0044 (45 BC), as Zotero and CSL-JSON write it
        return _date(_Found(-int(bc["y"]), int(bc["m"]) if bc["m"] else None,
                            int(bc["d"]) if bc["d"] else None))
    text = _ERA_PHRASE.sub(_era_word, text)
    point = _side(text, order)
    if point is not None:
        return _finished(point, None, year)
    condensed = _CONDENSED.match(text)
    if condensed is not None:  # the end year in the start's century (2021-22), never before it
        first, last = int(condensed[1]), int(condensed[1]) // 100 * 100 + int(condensed[2])
        return _date(_Found(first), _Found(last)) if last > first else None
    for separator in _RANGE.finditer(text):
        left, right = text[:separator.start()], text[separator.end():]
        if not left or not right:
            continue
        start, end = _side(left, order), _side(right, order)
        if start is not None and end is not None:
            date = _finished(start, end, year)
            if date is not None:
                return date
    return None


def _era_word(match: re.Match[str]) -> str:
    """``B.C.``, ``A.D.``, ``v. Chr.`` as one word (``bc``, ``ad``, ``vchr``)."""
    return " " + "".join(g for g in match.groups() if g).lower() + ("chr" if match[4] else "")


def _ris_form(match: re.Match[str]) -> Date | None:
    """RIS's ``YYYY/MM/DD/other``: other empty, a season or the year again (EBSCO)."""
    other = match["other"].strip()
    season = SEASON_WORDS.get(fold(other)) if other else None
    if other and season is None and other != match["y"]:
        return None
    month = int(match["m"]) if match["m"] else None
    day = int(match["d"]) if match["d"] and month else None
    return _date(_Found(int(match["y"]), month, day, season))


def _date(found: _Found, end: _Found | None = None) -> Date | None:
    """The date of the parts found; None when they are no calendar date (30 February)."""
    try:
        start = found.parts()
        last = end.parts() if end is not None else None
    except ModelError:
        return None
    if not all(_in_calendar(p) for p in (start, last) if p is not None):
        return None
    return Date(start=start, end=last, season=found.season, circa=found.circa)


def _in_calendar(parts: DateParts) -> bool:
    """Whether the day is in its month (29 February in leap years only; a BC year leaps as
    the proleptic Gregorian calendar's year before it)."""
    if parts.day is None or parts.month is None:
        return True
    year = parts.year + 1 if parts.year < 0 else parts.year
    return parts.day <= _MONTH_DAYS[parts.month - 1] + (
        parts.month == 2 and calendar.isleap(year))


def _finished(start: _Found, end: _Found | None, year: int | None) -> Date | None:
    """The date of one side, or of two sides each completed by the other (``Sep-Oct 2010``:
    September takes 2010; ``May 5-7, 2019``: the 7th takes May); None when a part is missing
    or the range runs backwards."""
    if end is None:
        if start.year is None:
            start.year = year
        if start.day is not None and start.month is None:
            return None
        return _date(start)
    if start.season is not None or end.season is not None:
        return None
    if not start.era and end.era < 0 and start.year is not None:
        start.year = -start.year  # 1000-900 BCE: the marker on the end is the start's too
    if start.year is None:
        start.year = end.year if end.year is not None else year
    if end.year is None:
        end.year = start.year
    if end.day is not None and end.month is None:
        end.month = start.month
    if start.day is not None and start.month is None:
        start.month = end.month
    start.circa = start.circa or end.circa
    if start.month is None and end.month is not None or start.day is None and end.day is not None:
        return None  # "2010-Oct 2011": the start is vaguer than its end
    date = _date(start, end)
    if date is None or date.start is None or date.end is None:
        return None
    key = (date.start.year, date.start.month or 0, date.start.day or 0)
    if key > (date.end.year, date.end.month or 0, date.end.day or 0):
        return None
    return date if date.end != date.start else Date(start=date.start, circa=date.circa)


def _side(text: str, order: DayOrder) -> _Found | None:
    """The parts one date (or one side of a range) names; None when a word or number of it
    is not understood or a part is named twice."""
    spelled = _CJK.match(text.strip()) or _COMPACT.match(text.strip()) or \
        _SPACED.match(text.strip())
    if spelled is not None:  # 2020年2月12日, 20200212, 2020 02 12: as 2020-2-12
        text = "-".join(g for g in spelled.groups() if g)
    found = _Found()
    numbers: list[str] = []
    era = 0
    for token in text.replace(",", " ").split():
        word = fold(token)
        if _NUMERIC.match(token):
            if not _numeric(token, order, found):
                return None
        elif token.isdecimal() or _YEAR_POINT.match(token):
            numbers.append(token.rstrip("."))
        elif (ordinal := _ORDINAL.match(token)) is not None:
            if found.day is not None:
                return None
            found.day = int(ordinal[1])
        elif word in SEASON_WORDS and found.season is None:
            found.season = SEASON_WORDS[word]
        elif word in MONTHS and found.month is None:
            found.month = MONTHS[word]
        elif word in CIRCA_WORDS or token in ("~", "?"):
            found.circa = True
        elif word.replace(" ", "") in ERA_WORDS and not era:
            era = ERA_WORDS[word.replace(" ", "")]
        elif word not in IGNORED_WORDS:
            return None
    found.era = era
    if not _numbers(numbers, era, found):
        return None
    if found.season is not None and (found.month is not None or found.day is not None):
        return None
    return found


def _numbers(numbers: list[str], era: int, found: _Found) -> bool:
    """Bare numbers as the year (three or four digits; with an era marker, the last number,
    ``5 May 44 BC``) and the day (one or two digits); False when they do not fit."""
    if era and numbers and found.year is None:
        *numbers, last = numbers
        if len(last) > 4 or not int(last):
            return False
        found.year = era * int(last)
    for number in numbers:
        value = int(number)
        if len(number) in (3, 4) and found.year is None and value:
            found.year = value
        elif len(number) <= 2 and found.day is None and 1 <= value <= 31:
            found.day = value
        else:
            return False
    return not era or found.year is not None


def _numeric(token: str, order: DayOrder, found: _Found) -> bool:
    """An all-numeric date (``2018-2-12``, ``07/26/2017``, ``26.07.2017``, ``12/2009``,
    ``2020/2``) into ``found``; False when it is none or ``found`` already has its parts."""
    match = _NUMERIC.match(token)
    if match is None or found.year is not None or found.month is not None:
        return False
    first, separator, second, third = match.groups()
    if len(first) >= 3:
        if len(second) > 2 or (third is not None and len(third) > 2):
            return False
        found.year, found.month = int(first), int(second)
        found.day = int(third) if third is not None else None
    elif third is None:
        if len(second) != 4:
            return False
        found.year, found.month = int(second), int(first)
    else:
        if len(third) not in (3, 4):
            return False
        month, day = (int(second), int(first)) if separator == "." or order == "dmy" \
            else (int(first), int(second))
        if month > 12 >= day:
            month, day = day, month
        found.year, found.month, found.day = int(third), month, day
    return (found.day is None or found.day >= 1) and found.year > 0 and \
        found.month is not None and 1 <= found.month <= 12


# -- year fields and month/day texts (EndNote, MEDLINE, Web of Science, Word) ------------------
def year_of(text: str) -> int | None:
    """The year ``text`` is (``2020``, ``-44``), or None."""
    stripped = text.strip()
    return int(stripped) if _YEAR.match(stripped) and int(stripped) != 0 else None


def month_of(text: str) -> int | None:
    """The month a name or abbreviation names (``Jan``, ``january``, ``Sept.``, ``févr.``),
    or None."""
    return MONTHS.get(fold(text))


def dated(year: int, month: int | None = None, day: int | None = None) -> Date | None:
    """The date, or None when it is not a calendar date (month 13, day 32)."""
    try:
        return Date(start=DateParts(year, month, day))
    except ModelError:
        return None


def date_of(year_text: str, date_text: str = "", order: DayOrder = "mdy") -> Date | None:
    """The date of a year field and a date text (``January 15``, ``15 Jan``, ``Spring``, a
    whole date in either); None when they do not make a date, or say two different years."""
    year_text, date_text = year_text.strip(), date_text.strip()
    year = year_of(year_text)
    if not date_text:
        reading = read_date(year_text, order)
        return reading.date if reading.understood and reading.date is not None \
            and reading.date.start is not None else None
    reading = read_date(date_text, order, year)
    found = reading.date
    if not reading.understood or found is None or found.start is None:
        return None
    if year_text and year is None:
        return None
    if year is not None and found.start.year != year:
        return None
    return found


def month_day_text(date: Date) -> str:
    """The month and day of a date as EndNote and Word write them (``January 15``), or ''."""
    if date.start is None or date.start.month is None:
        return ""
    month = MONTH_NAMES[date.start.month - 1]
    return f"{month} {date.start.day}" if date.start.day else month


def year_text(date: Date) -> str:
    """The year of a date as text, or ''."""
    return str(date.start.year) if date.start is not None else ""
