"""Values that are well-formed text but suspicious as what they claim to be: a DOI that is no
DOI, pages ``12-``, a URL that is no web address, an ISBN or ISSN whose check digit is wrong, a
year far from now. Each checker takes a value and gives a message or None, so the same checks
run on the model (``suspicious_values``) and on a .bib entry's fields as written. This module
must never change a value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from urllib.parse import urlsplit

from refbridge.check.rules import Finding
from refbridge.identifiers import DOI, bare_doi
from refbridge.model import Record

#: years outside this range (relative to the current year at the top) are suspicious
EARLIEST_YEAR = 1000
YEARS_AHEAD = 2

_LITERAL_YEAR = re.compile(r"(?<!\d)\d{4,}(?!\d)")
_PAGE = r"(?:[A-Za-z]{0,3}\d+[A-Za-z]?|[ivxlcdmIVXLCDM]+)"
_PAGES = re.compile(rf"^{_PAGE}(?:\s*(?:-+|–|—)\s*{_PAGE})?$")
_PAGE_NUMBER = re.compile(r"\d+")
_PAGE_LIST = re.compile(r"\s*[,;&]\s*")
_ISBN_SEPARATORS = re.compile(r"[\s-]")
_ISBN_LIST = re.compile(r"\s*[,;]\s*|\s+(?=\d{3}[\d-]{7})")
_ISSN_LIST = re.compile(r"\s*[,;]\s*|\s+")
_WEB_SCHEMES = frozenset({"http", "https", "ftp"})


def isbn_ok(digits: str) -> bool:
    """Whether ``digits`` (no separators) is an ISBN-10 or ISBN-13 with a right check digit."""
    if re.fullmatch(r"\d{9}[\dXx]", digits):
        total = sum((10 - i) * (10 if c in "Xx" else int(c)) for i, c in enumerate(digits))
        return total % 11 == 0
    if re.fullmatch(r"97[89]\d{10}", digits):
        return sum((3 if i % 2 else 1) * int(c) for i, c in enumerate(digits)) % 10 == 0
    return False


def issn_ok(text: str) -> bool:
    """Whether ``text`` is an ISSN (``0163-5808``) with a right check digit."""
    digits = text.replace("-", "")
    if not re.fullmatch(r"\d{7}[\dXx]", digits):
        return False
    total = sum((8 - i) * int(c) for i, c in enumerate(digits[:7]))
    check = (11 - total % 11) % 11
    return digits[7].upper() == ("X" if check == 10 else str(check))


def check_doi(value: str) -> str | None:
    bare = bare_doi(value)
    if not DOI.match(bare):
        return f"DOI {value!r} is not a DOI (10.NNNN/suffix)"
    if bare != value:
        return f"DOI {value!r} holds more than the DOI; write {bare!r}"
    return None


def check_url(value: str) -> str | None:
    parts = urlsplit(value.strip())
    if parts.scheme.lower() not in _WEB_SCHEMES or not parts.netloc or re.search(r"\s", value):
        return f"URL {value!r} is not a web address (http, https or ftp)"
    return None


def check_pages(value: str) -> str | None:
    for part in _PAGE_LIST.split(value.strip()):
        if not _PAGES.match(part):
            return f"pages {value!r} are not a page or a range such as 12-19"
        numbers = [int(n) for n in _PAGE_NUMBER.findall(part)]
        if len(numbers) == 2 and numbers[1] < numbers[0] and \
                len(str(numbers[1])) >= len(str(numbers[0])):
            return f"pages {value!r} end before they start"
    return None


def check_isbn(value: str) -> str | None:
    for isbn in _ISBN_LIST.split(value.strip()):
        if not isbn_ok(_ISBN_SEPARATORS.sub("", isbn)):
            return f"ISBN {isbn!r} has a wrong length or check digit"
    return None


def check_issn(value: str) -> str | None:
    for issn in _ISSN_LIST.split(value.strip()):
        if not issn_ok(issn):
            return f"ISSN {issn!r} has a wrong form or check digit"
    return None


def check_year(year: int, this_year: int) -> str | None:
    latest = this_year + YEARS_AHEAD
    if not EARLIEST_YEAR <= year <= latest:
        return f"year {year} is outside {EARLIEST_YEAR}-{latest}"
    return None


#: CSL variable -> (finding code, checker returning a message or None)
VALUE_CHECKS: dict[str, tuple[str, Callable[[str], str | None]]] = {
    "DOI": ("doi", check_doi),
    "URL": ("url", check_url),
    "page": ("pages", check_pages),
    "ISBN": ("isbn", check_isbn),
    "ISSN": ("issn", check_issn),
}


def model_years(record: Record, this_year: int, judged: Collection[str] = ()
                ) -> Iterator[Finding]:
    """Findings about the record's years that are far from now (but those of the date
    variables already *judged*)."""
    for variable, date in record.dates.items():
        if variable in judged:
            continue
        years = [point.year for point in (date.start, date.end) if point is not None]
        if date.literal is not None:  # a date no reader could parse: judge its numbers
            years.extend(int(number) for number in _LITERAL_YEAR.findall(date.literal))
        for year in years:
            message = check_year(year, this_year)
            if message is not None:
                yield Finding("year", f"{variable} {message}", record.source,
                              record.citation_key)


def suspicious_values(record: Record, this_year: int) -> Iterator[Finding]:
    """Findings about values of the model that are not what their field says they are."""
    yield from model_years(record, this_year)
    for variable, (code, checker) in VALUE_CHECKS.items():
        value = record.get(variable)
        message = checker(value) if value is not None else None
        if message is not None:
            yield Finding(code, message, record.source, record.citation_key)
