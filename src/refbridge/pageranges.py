"""Page ranges under ``page-range-format``, as citeproc-js writes them.

The page variable (and a locator labelled page) is cut into values at citeproc-js's joiners
(``-``, ``–``, ``, ``, ``; ``, ``&``, ``and``); a value is an optional letter prefix and a
number ("S12"). Of a chain ``a-b-c`` only the last pair is a range. A range of two plain
values (same prefix) is written with the locale's page-range delimiter and shortened as the
style asks (expanded, minimal, minimal-two, chicago, chicago-16: a port of citeproc-js's
``PageRangeMangler``); a range whose values are not plain ("41:1-41:15", "2.1-2.55",
"94-98,93") keeps its hyphen, as citeproc-js leaves it; so does a range without a style
format whose end is the start ("12-12"), while a format writes it with the delimiter
("12–12"). Roman numerals ("iv-ix") take the delimiter. This module knows no styles or
output formats.
"""

from __future__ import annotations

import re
from functools import lru_cache

_JOINER_RE = re.compile(r"(\s*&\s*|,\s+and\s+|\s+and\s+|;\s+|,\s+|\s*\\*[-\u2013]+\s*)")
_HYPHEN_RE = re.compile(r"\s*\\*[-\u2013]+\s*")
_VALUE_RE = re.compile(r"^([0-9]*[a-zA-Z]+0*)?([0-9]+(?:[a-zA-Z]*|[-,a-zA-Z]+))$")
_RESULT_RE = re.compile(r"^((?:[0-9]*[a-zA-Z]+0*))?([0-9]+[a-z]*)(\s*[^0-9]+\s*)([-,a-zA-Z]?0*)([0-9]+[a-z]*)$")
_PLAIN_RE = re.compile(r"^([0-9]+|[ivxlcmIVXLCM]+)$")
_LEADING_INT_RE = re.compile(r"\s*([-+]?[0-9]+)")
_ROMAN_RE = re.compile(r"^[ivxlcmIVXLCM]+$")
_RANGE_IN_TEXT_RE = re.compile(r"((?:[0-9]*[a-zA-Z]+0*)?[0-9]+[a-z]*\s+-\s+(?:[0-9]*[a-zA-Z]+0*)?[0-9]+[a-z]*)")
_RANGE_RE = re.compile(r"([0-9]*[a-zA-Z]+0*)?([0-9]+[a-z]*)\s*(?:\u2013|-)\s*([0-9]*[a-zA-Z]+0*)?([0-9]+[a-z]*)")


def _js_int(text: str) -> int | None:
    """JavaScript's parseInt: the leading number, or None (NaN)."""
    match = _LEADING_INT_RE.match(text)
    return int(match.group(1)) if match else None


def _split_value(text: str) -> tuple[str, str]:
    match = _VALUE_RE.match(text)
    return (match.group(1) or "", match.group(2)) if match else ("", text)


# -- citeproc-js's PageRangeMangler ------------------------------------------------------


def _expand(text: str, delimiter: str) -> list[str | list[str]]:
    """The text with its ranges as [prefix, start, delimiter+prefix, end] lists (expanded)."""
    own = "" if delimiter == "-" else re.escape(delimiter)
    text = re.sub(f"([^\\\\])[-{own}\u2013]", r"\1 - ", text)
    text = re.sub(r"\s+-\s+", " - ", text)
    ranges = _RANGE_IN_TEXT_RE.findall(text)
    rest = _RANGE_IN_TEXT_RE.split(text)[::2]
    pieces: list[str | list[str]] = [rest[0]]
    for found, after in zip(ranges, rest[1:]):
        pieces.extend([re.sub(r"\s*-\s*", "-", found), after])
    for i in range(1, len(pieces), 2):
        piece = pieces[i]
        assert isinstance(piece, str)
        match = _RANGE_RE.search(piece)
        if match:
            prefix, start, end_prefix, end = (match.group(k) for k in range(1, 5))
            if not end_prefix or prefix == end_prefix:
                if len(end) < len(start):
                    end = start[: len(start) - len(end)] + end
                if (_js_int(start) or 0) < (_js_int(end) or 0):
                    pieces[i] = [prefix or "", start, delimiter + (prefix or ""), end]
                    continue
        pieces[i] = piece.replace("-", delimiter)
    return pieces


def _stringify(pieces: list[str | list[str]], delimiter: str) -> str:
    text = "".join("".join(p) if isinstance(p, list) else p for p in pieces)
    return re.sub(r"([^\\])-", r"\1" + delimiter.replace("\\", "\\\\"), text)


def _minimize_end(start: str, end: str, keep: int) -> str:
    if len(start) != len(end):
        return end
    digits = list(reversed(end))
    for i, char in enumerate(start):
        if char == end[i] and len(digits) > keep:
            digits.pop()
        else:
            break
    return "".join(reversed(digits))


def _minimal(pieces: list[str | list[str]], delimiter: str, keep: int) -> str:
    for piece in pieces[1::2]:
        if isinstance(piece, list):
            piece[3] = _minimize_end(piece[1], piece[3], keep)
            if piece[2][1:] == piece[0]:
                piece[2] = delimiter
    return _stringify(pieces, delimiter)


def _chicago(pieces: list[str | list[str]], delimiter: str, edition16: bool) -> str:
    for piece in pieces[1::2]:
        if not isinstance(piece, list):
            continue
        start, end = _js_int(piece[1]) or 0, _js_int(piece[3]) or 0
        if edition16:
            if start > 100 and start % 100:
                for power in range(2, len(str(end))):
                    divisor = 10 ** power
                    if start // divisor == end // divisor:
                        piece[3] = str(end % divisor)
                        break
        elif start > 100 and start % 100 and start // 100 == end // 100:
            piece[3] = str(end % 100)
        elif start >= 10000:
            piece[3] = str(end % 1000)
        if piece[2][1:] == piece[0]:
            piece[2] = delimiter
    return _stringify(pieces, delimiter)


def page_mangler(text: str, style_format: str | None, delimiter: str) -> str:
    """citeproc-js's page range formatting of a text holding ranges ("12 - 18")."""
    pieces = _expand(text, delimiter)
    if style_format in ("minimal", "minimal-two"):
        return _minimal(pieces, delimiter, 2 if style_format == "minimal-two" else 0)
    if style_format in ("chicago", "chicago-15", "chicago-16"):
        return _chicago(pieces, delimiter, style_format == "chicago-16")
    return _stringify(pieces, delimiter)


# -- the page variable ------------------------------------------------------------------


def _range(start: str, end: str, style_format: str | None, delimiter: str) -> str | None:
    """A range of two values as citeproc-js writes it, or None: left with its hyphen."""
    (start_prefix, start_value), (end_prefix, end_value) = _split_value(start), _split_value(end)
    if start_prefix != end_prefix:
        return None
    first, second = _js_int(start_value), _js_int(end_value)
    if not style_format and first is not None and second is not None and first > second:
        return start + delimiter + end
    if first is not None and second is not None:
        mangled = page_mangler(f"{start} - {end}", style_format, delimiter)
    elif _PLAIN_RE.match(start_value) and _PLAIN_RE.match(end_value):
        mangled = start + delimiter + end
        if not _RESULT_RE.match(mangled):
            return mangled
    else:
        return None
    match = _RESULT_RE.match(mangled)
    if match is None:
        return None
    joiner = delimiter if match.group(3) == "-" else match.group(3)
    return (match.group(1) or "") + match.group(2) + joiner + match.group(4) + match.group(5)


_NUMERIC_RE = re.compile(r"^(?:[0-9]+|[ixv]+)([-,:a-zA-Z]*|-[-0-9]+)$")
_LEADING_PAGE_LABEL_RE = re.compile(r"^\s*pp?\.\s*")
_SUBSECTION_RE = re.compile(r"^[0-9]+[,a-zA-Z]+$")
_LETTERS_RE = re.compile(r"^[,a-zA-Z]+$")


def several_pages(value: str) -> bool:
    """Whether a page value is plural for its label, as citeproc-js counts: several values
    and a first one that is a plain number ("3-8", "11-+"; not "3:1-12", "2.1-2.55")."""
    if "\\-" in value:  # an escaped hyphen joins nothing
        return False
    text = _LEADING_PAGE_LABEL_RE.sub("", value.replace("\u2013", "-"))
    pieces = _JOINER_RE.split(text)
    values = [v.strip() for v in pieces[0::2]]
    if len(values) == 2 and _HYPHEN_RE.fullmatch(pieces[1]) and _SUBSECTION_RE.match(values[0]) \
            and _LETTERS_RE.match(values[1]):  # "12a-c": one page and its parts
        return False
    if len(values) < 2:
        return False
    first = _split_value(values[0].strip())[1]
    return bool(_NUMERIC_RE.match(first)) and _collapsible(first)


def _collapsible(value: str) -> bool:
    number = _split_value(value)[1]
    return _js_int(number) is not None or bool(_ROMAN_RE.match(number))


@lru_cache(maxsize=4096)
def format_page_range(value: str, style_format: str | None, delimiter: str) -> str:
    """The page variable as citeproc-js writes it (see the module's docstring); remembered,
    as a bibliography renders an entry's pages more than once (sorting, disambiguating)."""
    if "\\-" in value:  # an escaped hyphen is not a range
        return value.replace("\\-", "-")
    pieces = _JOINER_RE.split(value.replace("\u2013", "-"))
    values, joiners = pieces[0::2], pieces[1::2]
    hyphens = [bool(_HYPHEN_RE.fullmatch(joiner)) for joiner in joiners]
    joiners = ["-" if hyphen else joiner for joiner, hyphen in zip(joiners, hyphens)]
    if values[0].strip() == "" and joiners:  # a leading joiner belongs to no value
        values, joiners, hyphens = values[1:], joiners[1:], hyphens[1:]
    out = [values[0].strip()]
    collapsible = _collapsible(values[0].strip())
    for i, joiner in enumerate(joiners):
        end = values[i + 1].strip()
        if collapsible and hyphens[i] and (i + 1 == len(joiners) or not hyphens[i + 1]):
            formatted = _range(out[-1], end, style_format, delimiter)
            if formatted is not None:
                out[-1] = formatted
                continue
        out.extend([joiner, end])
    return "".join(out)
