"""Reading CSL-JSON values for rendering: numbers, page ranges and dates.

Pure functions on item values (is-numeric, roman numerals, page-range-format, date parsing
and sort keys).  This module knows nothing about styles or output formats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from refbridge.rawdates import parse_raw_date

NUMERIC_RE = re.compile(
    r"^\s*(?:[A-Za-z]{0,3}\d+[A-Za-z]{0,3}|[ivxlcdmIVXLCDM]+)"
    r"(?:\s*(?:[-\u2013,&]|and)\s*(?:[A-Za-z]{0,3}\d+[A-Za-z]{0,3}|[ivxlcdmIVXLCDM]+))*\s*$"
)
_THOUSANDS_RE = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # 9,123,456 is one number
NUMBER_TOKEN_RE = re.compile(r"(\s*[-\u2013,&]\s*|\s+and\s+)")
_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def stringify(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_SLASHED_NUMBER_RE = re.compile(r"^[0-9]+(?:/[0-9]+)+$")


def is_numeric(value: Any) -> bool:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    text = stringify(value)
    if _SLASHED_NUMBER_RE.match(text):  # "2002/195": one number to citeproc-js
        return True
    return bool(text) and bool(NUMERIC_RE.match(text)) and any(c.isdigit() for c in text)


#: lower-case roman numbers citeproc-js's is-numeric accepts: any in a page, i, v and x elsewhere
_ROMAN_NUMERIC_RE = {
    "page": re.compile(r"^[ivxlcdm]+(?:\s*[-\u2013,&]\s*[ivxlcdm]+)*$"),
    "": re.compile(r"^[ivx]+(?:\s*[-\u2013,&]\s*[ivx]+)*$"),
}


def is_numeric_condition(value: Any, variable: str) -> bool:
    """CSL's is-numeric test of *variable*'s value, as citeproc-js decides it: a number, or a
    lower-case roman number ("xii-xv"; an upper-case one is text)."""
    if value in (None, ""):
        return False
    pattern = _ROMAN_NUMERIC_RE["page" if variable == "page" else ""]
    if is_numeric(value) or pattern.match(stringify(value).strip()):
        return True
    # as citeproc-js: numbers after a label abbreviation ("no. 10") are numeric
    labelled = split_locator_label(stringify(value)) if isinstance(value, str) else None
    return labelled is not None and is_numeric(labelled[1].strip())


def without_noise_words(title: str, noise_words: str, mode: str) -> str:
    """CSL-M, as citeproc-js: a title without the noise words it starts with (*noise_words*,
    the locale's comma-separated leading-noise-words): dropped ("drop"), or moved to its end
    after a comma ("demote": "English Title, An")."""
    words = {word.strip() for word in noise_words.split(",") if word.strip()}
    pieces = title.split()
    count = 0
    while count < len(pieces) and pieces[count].lower() in words:
        count += 1
    if not count:
        return title
    rest, noise = " ".join(pieces[count:]), " ".join(pieces[:count])
    return rest if mode == "drop" else f"{rest}, {noise}" if mode == "demote" else title


def is_plural(value: Any, and_term: str = "and") -> bool:
    """Whether a number variable holds several numbers (a range or a list; ``\\-`` is a
    literal hyphen, not a range).  Numbers after a label of their own ("1, fol. 186") do not
    count, as citeproc-js."""
    text = _THOUSANDS_RE.sub("", stringify(value).replace("\\-", ""))
    text = _EMBEDDED_LABEL_RE.split(text, 1)[0]
    if and_term != "and":
        text = text.replace(f" {and_term} ", " and ")
    numbers = [t for t in NUMBER_TOKEN_RE.split(text)
               if t and not NUMBER_TOKEN_RE.fullmatch(t) and (any(c.isdigit() for c in t) or _ROMAN_RE.match(t.strip()))]
    if len(numbers) < 2:
        return False
    # as citeproc-js: several numbers are plural only when the first is a whole number (or a
    # lowercase roman one), after any letters it starts with ("4.2-0", "1.0, 2.0" are one)
    first = numbers[0].strip()
    split = _PARTICLE_RE.match(first)
    return bool(_PLURAL_FIRST_RE.match(split.group(2) if split else first))


_PARTICLE_RE = re.compile(r"^([0-9]*[a-zA-Z]+0*)?([0-9]+(?:[a-zA-Z]*|[-,a-zA-Z]+))$")
_PLURAL_FIRST_RE = re.compile(r"^(?:[0-9]+|[ixv]+)(?:[-,:a-zA-Z]*|-[-0-9]+)$")


# citeproc-js's joiners in a number variable, and the terms it writes as a label before the
# variable's first number (so that a first number like "3a" reads as starting with a letter)
_JOINER_RE = re.compile(r"(\s*&\s*|,\s+and\s+|\s+and\s+|;\s+|,\s+|\s*\\*[-\u2013]+\s*)")
_AMPERSAND_RE = re.compile(r"\s*&\s*")
LABELLED_NUMBER_TERMS = frozenset(
    ["verse", "sub-verbo", "subparagraph", "opus", "subchapter", "addendum", "amendment", "annotation", "appendix", "article", "bibliography", "book", "chapter", "clause", "column", "comment", "decision", "department", "example", "field", "folio", "note", "hypothetical", "illustration", "introduction", "line", "issue", "page", "paragraph", "part", "preamble", "principle", "publication", "rule", "randnummer", "schedule", "section", "subdivision", "subsection", "supplement", "table", "title", "volume"]
) | {"sub verbo"}


def ampersand_joint(before: str, first: bool, labelled: bool, ampersand: str) -> str:
    """The locale's ampersand joining two numbers, spaced unless the number before it starts
    (or has a label) and ends with an ASCII letter ("A&B", "3a & 4"), as citeproc-js."""
    starts_with_letter = (first and labelled) or before[:1].isascii() and before[:1].isalpha()
    if starts_with_letter and before[-1:].isascii() and before[-1:].isalpha():
        return ampersand
    return f" {ampersand} "


def localize_ampersands(text: str, ampersand: str, labelled: bool) -> str:
    """*text* with every "&" joiner written as :func:`ampersand_joint`."""
    if "&" not in text:
        return text
    pieces = _JOINER_RE.split(text.strip())
    for i in range(1, len(pieces), 2):
        if _AMPERSAND_RE.fullmatch(pieces[i]):
            pieces[i] = ampersand_joint(pieces[i - 1], i == 1, labelled, ampersand)
    return "".join(pieces)


_LEADING_NUMBER_RE = re.compile(r"\s*[-+]?\d|[ivxlcmIVXLCM]+$")


def written_as_number(text: str) -> bool:
    """Whether citeproc-js writes a number variable as numbers, verbatim (no markup, no quote
    or apostrophe styling): its first number starts with a digit or is a roman numeral."""
    return _LEADING_NUMBER_RE.match(_JOINER_RE.split(text.strip(), 1)[0]) is not None


# citeproc-js's label abbreviations a locator may start with ("vol. 2" is volume 2)
LOCATOR_LABEL_ABBREVIATIONS = {
    "vrs": "verse", "sv": "sub-verbo", "subpara": "subparagraph", "op": "opus", "subch": "subchapter",
    "add": "addendum", "amend": "amendment", "annot": "annotation", "app": "appendix", "art": "article",
    "bibliog": "bibliography", "bk": "book", "ch": "chapter", "cl": "clause", "col": "column",
    "cmt": "comment", "dec": "decision", "dept": "department", "ex": "example", "fig": "figure",
    "fld": "field", "fol": "folio", "n": "note", "hypo": "hypothetical", "illus": "illustration",
    "intro": "introduction", "l": "line", "no": "issue", "p": "page", "pp": "page", "para": "paragraph",
    "pt": "part", "pmbl": "preamble", "princ": "principle", "pub": "publication", "r": "rule",
    "rn": "randnummer", "sched": "schedule", "sec": "section", "subdiv": "subdivision",
    "subsec": "subsection", "supp": "supplement", "tbl": "table", "tit": "title", "vol": "volume",
}
_LOCATOR_LABEL_RE = re.compile(
    "^((" + "|".join(sorted(LOCATOR_LABEL_ABBREVIATIONS, key=len, reverse=True)) + r")\.)\s+(.*)")


_EMBEDDED_LABEL_RE = re.compile(
    r"(?:,\s+|;\s+|\s*&\s*|\s+and\s+|\s*[-\u2013]+\s*)(?:"
    + "|".join(sorted(LOCATOR_LABEL_ABBREVIATIONS, key=len, reverse=True)) + r")\.")


_LABELLED_PART_RE = re.compile(
    r"(,\s+|;\s+|\s*&\s*|\s+and\s+)("
    + "|".join(sorted(LOCATOR_LABEL_ABBREVIATIONS, key=len, reverse=True)) + r")\.\s*")
_PLAIN_NUMBER_RE = re.compile(r"\d+[a-zA-Z]*|[ivxlcmIVXLCM]+")


def split_labelled_numbers(text: str, own_label: str) -> tuple[str, list[tuple[str, str, str]]]:
    """A number variable's numbers before any label of their own, and the labelled parts
    after, each as (joiner before it, label abbreviation, its numbers): "7, p. 3-8" ->
    ("7", [(", ", "p", "3-8")]), as citeproc-js reads them.  A leading abbreviation of the
    variable's own label (*own_label*, a term) is dropped: "pp. 5-10" in page is "5-10"."""
    leading = _LOCATOR_LABEL_RE.match(text)
    if leading and leading.group(3) and LOCATOR_LABEL_ABBREVIATIONS[leading.group(2)] == own_label:
        text = leading.group(3)
    pieces = _LABELLED_PART_RE.split(text)
    return pieces[0], [(pieces[i], pieces[i + 1], pieces[i + 2]) for i in range(1, len(pieces), 3)]


# a label abbreviation (known or not) after a number: "10 para. 1-6", "10 pos. 1-6"
_INNER_LABEL_RE = re.compile(r"(?<=[0-9ivxlcdmIVXLCDM])\s+([A-Za-z]+)\.\s+(?=[0-9ivxlcdmIVXLCDM])")


def split_embedded_labels(text: str) -> tuple[str | None, str, list[tuple[str, str]]]:
    """As citeproc-js reads a number variable (CSL-M's fixtures): its leading label's term, its first
    numbers, and the labels within it with their numbers: "ch. 10 para. 1-6" ->
    ("chapter", "10", [("para", "1-6")]); a label no term abbreviates is kept as written."""
    leading = _LOCATOR_LABEL_RE.match(text)
    term = None
    if leading and leading.group(3):
        term, text = LOCATOR_LABEL_ABBREVIATIONS[leading.group(2)], leading.group(3)
    pieces = _INNER_LABEL_RE.split(text)
    return term, pieces[0], [(pieces[i], pieces[i + 1]) for i in range(1, len(pieces), 2)]


def several_plain_numbers(text: str) -> bool:
    """Whether *text* is a range or list of plain numbers ("3-8", "3, 4"; not "8 April")."""
    numbers = [t.strip() for t in NUMBER_TOKEN_RE.split(text) if t and not NUMBER_TOKEN_RE.fullmatch(t)]
    return len(numbers) > 1 and all(_PLAIN_NUMBER_RE.fullmatch(n) for n in numbers)


def split_locator_label(locator: str) -> tuple[str, str] | None:
    """A locator that starts with a label abbreviation as (label term, the rest): "vol. 2" ->
    ("volume", "2"); None for any other locator."""
    match = _LOCATOR_LABEL_RE.match(locator)
    return (LOCATOR_LABEL_ABBREVIATIONS[match.group(2)], match.group(3)) if match else None


def roman(number: int) -> str:
    if number <= 0 or number >= 4000:
        return str(number)
    out = []
    for value, letters in _ROMAN:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


#: A roman numeral, in lower or upper case.
_ROMAN_RE = re.compile(r"^[ivxlcdm]+$|^[IVXLCDM]+$")


# --- dates ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DateValue:
    start: tuple[int, int, int]  # year, month (13-16 = season), day; 0 = missing
    end: tuple[int, int, int] | None  # (0, 0, 0): an open range ("1987–")
    season: str | None = None
    circa: bool = False
    literal: str | None = None


def _to_int(value: Any) -> int:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return 0


def _month(month: int) -> int:
    """Months 13-20 and 21-24 are seasons (stored as 13-16); other out-of-range months are dropped."""
    if 13 <= month <= 20:
        return 13 + (month - 13) % 4
    if 21 <= month <= 24:
        return month - 8
    return month if 0 <= month <= 12 else 0


def _parts(raw: Any) -> tuple[int, int, int]:
    values = [_to_int(v) for v in list(raw)[:3]] if isinstance(raw, (list, tuple)) else []
    values += [0] * (3 - len(values))
    return values[0], _month(values[1]), values[2]


def parse_date(raw: Any) -> DateValue | None:
    """A CSL-JSON date (date-parts, raw, literal, season, circa) as a :class:`DateValue`."""
    if not raw:
        return None
    if isinstance(raw, str):
        raw = {"raw": raw}
    if not isinstance(raw, dict):
        return None
    circa = bool(raw.get("circa"))
    season = raw.get("season")
    season_text = str(season) if season not in (None, "") else None
    parts = raw.get("date-parts")
    if parts and isinstance(parts, list) and parts[0] and str(parts[0][0]).strip():
        start = _parts(parts[0])
        end = _parts(parts[1]) if len(parts) > 1 and isinstance(parts[1], list) else None
        if end is not None and not end[0] and any(end):
            end = None
        if season_text in ("1", "2", "3", "4") and not start[1]:
            start = (start[0], 12 + int(season_text), start[2])  # (the season kept: see DatePart)
        if end == start:
            end = None
        return DateValue(start, end, season_text, circa)
    if raw.get("literal"):
        return DateValue((0, 0, 0), None, None, circa, str(raw["literal"]))
    if raw.get("raw"):
        found = parse_raw_date(str(raw["raw"]))
        if found.literal is not None:
            return DateValue((0, 0, 0), None, None, circa, found.literal)
        start = (found.start[0], _month(found.start[1]), found.start[2])
        end = found.end and (found.end[0], _month(found.end[1]), found.end[2])
        return DateValue(start, None if end == start else end, found.season, circa or found.circa)
    return None


def date_sort_key(value: DateValue | None, parts: frozenset[str] = frozenset(("year", "month", "day"))) -> str:
    """A sortable string of a date (parts not shown count as zero)."""
    if value is None or value.literal:  # a literal date sorts as no date (as in citeproc-js)
        return ""

    def one(date: tuple[int, int, int]) -> str:
        year, month, day = date
        if month > 12:  # a season sorts as no month (as in citeproc-js)
            month = day = 0
        return (f"{year + 10000:05d}" + (f"{month:02d}" if "month" in parts else "00")
                + (f"{day:02d}" if "day" in parts else "00"))

    # a space between the ends: collation compares runs of digits as numbers, and one run of
    # both ends would sort a range after every single date
    return one(value.start) + (" " + one(value.end) if value.end else "")
