"""Dates written as text in CSL-JSON (``{"raw": "June 1, 2001"}``), read as citeproc-js reads them.

CSL-JSON leaves the reading of a ``raw`` date to the processor, so what a raw date means is
what citeproc-js (the processor inside Zotero, which writes such dates) makes of it. This is a
port of its date parser (``CSL.DateParser.parseDateToObject``, month-day order, English month
names and seasons): numeric dates with ``-`` or ``/`` ("2/2017", "2017/02/03", "05.11.2011"
is the literal text), month names anywhere in a word ("Aug. 19, 1981"), ranges ("1999-2001",
"2015/2016"), circa markers, BC/AD, times dropped ("2021-06-22T15:17:27Z"), legal terms
("Michaelmas 1892") as a season. Its quirks are kept on purpose, since they decide what the
item shows: "2015-12-01 to 2015-12-02" is 2 December 2015 (the later date wins), and a text
without a year, or with a day but no month, is a literal. This module only reads text; it
never renders. Readers of other formats read free-text dates with
``refbridge.formats.datetext``, which is more forgiving (month names in other languages,
``12/2009``, ordinal days) and stricter (every word must be understood); a raw date must not
follow it, since an item would then show another date here than in Zotero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "spring", "summer", "fall", "winter", "spring", "summer"]
# citeproc-js's default month patterns: the first three letters, found anywhere in a word
_MONTH_RES = [re.compile(name[:3]) for name in _MONTHS]
_YEAR_LAST = "(?:[?0-9]{1,2}%NUMD%){0,2}[?0-9]{4}(?![0-9])"
_YEAR_FIRST = "[?0-9]{4}(?:%NUMD%[?0-9]{1,2}){0,2}(?![0-9])"
_TOKEN = (f"({_YEAR_FIRST}|{_YEAR_LAST}|[?0-9]{{1,3}}|[%DATED%]|[?~]|[^\\-/~?0-9]+)")


def _splitter(number_delimiter: str, range_delimiter: str) -> re.Pattern[str]:
    return re.compile(_TOKEN.replace("%NUMD%", number_delimiter).replace("%DATED%", range_delimiter))


_DASH = _splitter("-", "-")
_DASH_SLASH = _splitter("-", "/")
_SLASH_DASH = _splitter("/", "-")
_ELEMENT = re.compile(r"^\s*([-/]|[^-/~?0-9]+|[-~?0-9]+)\s*$")
_PARTS = ("year", "month", "day")


@dataclass(frozen=True, slots=True)
class RawDate:
    """What citeproc-js reads in a raw date: (year, month, day) points (0: absent; month 13-16
    a season), or the literal text when it finds no date."""

    start: tuple[int, int, int] = (0, 0, 0)
    end: tuple[int, int, int] | None = None
    season: str | None = None  #: a season written as a word it does not know (a law term)
    circa: bool = False
    literal: str | None = None


def _numeric(found: dict[str, str], delimiter: str, suffix: str, text: str) -> None:
    """citeproc-js's ``_parseNumericDate``: a four-digit piece is the year, the others month and
    day (month first unless the first is above 12)."""
    pieces = text.split(delimiter)
    for i, piece in enumerate(pieces):
        if len(piece) == 4:
            found["year" + suffix] = piece.lstrip("0")
            pieces = pieces[1:] if i == 0 else pieces[:i]
            break
    numbers = [_js_int(piece) for piece in pieces]
    if len(numbers) == 1 or (len(numbers) == 2 and not numbers[1]):
        if numbers[0]:
            found["month" + suffix] = str(numbers[0])
    elif len(numbers) == 2:
        month, day = (numbers[1], numbers[0]) if (numbers[0] or 0) > 12 else (numbers[0], numbers[1])
        if month:
            found["month" + suffix] = str(month)
            if day:
                found["day" + suffix] = str(day)


def _js_int(text: str) -> int | None:
    """JavaScript's parseInt: the leading digits, or None (NaN)."""
    match = re.match(r"\s*([-+]?\d+)", text)
    return int(match.group(1)) if match else None


def _elements(text: str) -> tuple[list[str], str, str]:
    """The tokens of a date text, its range delimiter and its date delimiter."""
    if "/" in text and "-" in text:
        if text.count("/") > 2:
            return _tokens(_SLASH_DASH, text.replace("_", "-")), "-", "/"
        return _tokens(_DASH_SLASH, text.replace("_", "/")), "/", "-"
    return _tokens(_DASH, text.replace("/", "-").replace("_", "-")), "-", "-"


def _tokens(splitter: re.Pattern[str], text: str) -> list[str]:
    out = []
    for piece in splitter.split(text):
        if piece is None:
            continue
        match = _ELEMENT.match(piece)
        if match:
            out.append(match.group(1))
    return out


def parse_raw_date(text: str) -> RawDate:
    """The date citeproc-js reads in ``text`` (a literal when it finds none)."""
    original = text
    text = re.sub(r"^(.*[0-9])T[0-9].*", r"\1", text, flags=re.DOTALL)
    negative = text.startswith("-")
    if negative:
        text = text[1:]
    if re.fullmatch(r"[0-9]{1,3}", text):
        text = text.zfill(4)
    text = re.sub(r"\s*[0-9]{2}:[0-9]{2}(?::[0-9]+)", "", text, count=1)
    text = re.sub(r"([A-Za-z])\.", r"\1", text)
    if text[:1] == '"' and text[-1:] == '"' and len(text) > 1:
        return RawDate(literal=text[1:-1])
    elements, range_delimiter, date_delimiter = _elements(text)
    found: dict[str, str] = {}
    circa = False
    sides = [elements]
    if range_delimiter in elements:
        at = elements.index(range_delimiter)
        sides = [elements[:at], elements[at + 1:]]
    number = note = ""
    for side, suffix in zip(sides, ("", "_end")):
        for element in side:
            if date_delimiter in element:
                _numeric(found, date_delimiter, suffix, element)
                continue
            if re.search(r"[0-9]{4}", element):
                found["year" + suffix] = element.lstrip("0")
                continue
            lower = element.lower()
            if element in ("~", "?", "c") or element.startswith("cir"):
                circa = True
            month = next((k for k, rex in enumerate(_MONTH_RES) if rex.search(lower)), None)
            if month is not None:
                found["month" + suffix] = str(month + 1)
                continue
            if re.fullmatch(r"[0-9]+", element):
                number = element
            if lower.startswith("bc") and number:
                found["year" + suffix] = str(-int(number))
                number = ""
                continue
            if lower.startswith("ad") and number:
                found["year" + suffix] = number
                number = ""
                continue
            if re.search("mic|tri|hil|eas", lower) and "season" + suffix not in found:
                note = element
        if number:
            found["day" + suffix] = number
            number = ""
        if note and "season" + suffix not in found:
            found["season" + suffix] = note.strip()
            note = ""
    if len(sides) == 2:
        for part in (*_PARTS, "season"):
            if found.get(part) and not found.get(part + "_end"):
                found[part + "_end"] = found[part]
            elif not found.get(part) and found.get(part + "_end"):
                found[part] = found[part + "_end"]
    if not found.get("year") or (found.get("day") and not found.get("month")):
        return RawDate(literal=original)
    start = _point(found, "", negative)
    end = _point(found, "_end", False) if found.get("year_end") else None
    return RawDate(start, end, found.get("season"), circa)


def _point(found: dict[str, str], suffix: str, negative: bool) -> tuple[int, int, int]:
    values = []
    for part in _PARTS:
        value = found.get(part + suffix, "")
        values.append(int(value) if re.fullmatch(r"-?[0-9]+", value) else 0)
    if negative:
        values[0] = -values[0]
    return values[0], values[1], values[2]
