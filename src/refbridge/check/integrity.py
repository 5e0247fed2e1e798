"""The integrity of a .bib entry's values as written, in the manner of JabRef's integrity
checks: capitals in titles that a style would lower, braces that do not balance, HTML
entities and markup, text not in Unicode normal form C, months and years, page ranges, name
lists, DOIs, ISBNs and ISSNs, macros no ``@string`` defines. Each rule reads the raw fields
(``BibEntry``); a problem with a safe repair carries it as a ``Fix`` of the raw text. This
module must never change an entry.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Iterator

from refbridge.check.dialects import (
    LOWERED_TITLE_TYPES,
    MONTH_NAMES,
    NAME_FIELDS,
    TITLE_FIELDS,
    VERBATIM_FIELDS,
)
from refbridge.check.entry import BibEntry
from refbridge.check.rules import Finding, Fix
from refbridge.check.values import check_doi, check_isbn, check_issn, check_pages, check_url
from refbridge.formats.bibtex.syntax import MONTH_MACROS, Field
from refbridge.identifiers import clean_doi
from refbridge.latex.encode import encode_latex

_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);")
_TAG = re.compile(r"</?(?:i|b|em|strong|sup|sub|sc|span|br|p|a|u|tt|font)\b[^<>]*>",
                  re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.)")
_MATH = re.compile(r"\$[^$]*\$")
_AND = re.compile(r"\s+and\s+|^and\s+|\s+and$|^and$", re.IGNORECASE)
_SINGLE_HYPHEN = re.compile(r"(?<=[\dA-Za-z])\s*(?<!-)-(?!-)\s*(?=[\dA-Za-z])")
_MONTH_NUMBER = re.compile(r"^\s*(0?[1-9]|1[0-2])\s*$")


def rewrapped(raw: str, value: str) -> str:
    """``value`` written as ``raw`` was: in its braces or quotes (a bare word gets braces)."""
    if raw[:1] + raw[-1:] in ("{}", '""'):
        return raw[0] + value + raw[-1]
    return "{" + value + "}"


def _masked(value: str) -> str:
    """``value`` with what a style's case change keeps blanked out: braced groups, math and
    command names."""
    value = _MATH.sub(lambda m: " " * len(m[0]), value)
    value = _COMMAND.sub(lambda m: " " * len(m[0]), value)
    out: list[str] = []
    depth = 0
    for char in value:
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        out.append(char if depth == 0 and char not in "{}" else " ")
    return "".join(out)


def _unbalanced(value: str) -> bool:
    depth = 0
    for match in re.finditer(r"\\.|[{}]", value):
        token = match[0]
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                return True
    return depth != 0


def _top_level_parts(value: str) -> list[str]:
    """A name list split at each ``and`` outside braces."""
    masked = _masked(value).replace("\\", " ")
    parts: list[str] = []
    start = 0
    for match in _AND.finditer(masked):
        parts.append(value[start:match.start()].strip())
        start = match.end()
    parts.append(value[start:].strip())
    return parts


def _name_problem(value: str) -> str | None:
    parts = _top_level_parts(value)
    if any(not part for part in parts):
        return "has an empty name (an 'and' at the start or end, or twice)"
    for index, part in enumerate(parts):
        if part.lower() == "others" and index != len(parts) - 1:
            return "has 'others' before its last name ('and others' ends a list)"
        if _masked(part).count(",") > 2:
            return (f"has too many commas in {part!r}: an 'and' is missing between names "
                    "(biber skips the entry)")
    return None


Rule = Callable[[BibEntry, str, Field], Iterator[Finding]]


def _finding(entry: BibEntry, code: str, message: str, fix: Fix | None = None) -> Finding:
    return Finding(code, message, entry.source, entry.key, fix)


def title_case(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if name not in TITLE_FIELDS or entry.entry_type not in LOWERED_TITLE_TYPES:
        return
    words = [word for word in _WORD.findall(_masked(field.value))
             if any(char.isupper() for char in word[1:])]
    if words:
        shown = ", ".join(dict.fromkeys(words))
        yield _finding(entry, "title-case", f"{name} has capitals a style that changes case "
                       f"would lower: {shown} (protect them with braces: {{{words[0]}}})")


def braces(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if _unbalanced(field.value):
        yield _finding(entry, "braces", f"{name}: the braces do not balance as LaTeX reads them "
                       "(\\{ and \\} are characters, not groups)")


def markup(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    tag = _TAG.search(field.value)
    entity = _ENTITY.search(field.value)
    if tag is not None:
        yield _finding(entry, "html", f"{name} holds HTML markup {tag[0]!r} (write LaTeX: "
                       "\\textit{...}, \\textsuperscript{...})")
    elif entity is not None:
        new = _ENTITY.sub(lambda m: encode_latex(html.unescape(m[0]), unicode=True), field.raw)
        yield _finding(entry, "html", f"{name} holds the HTML entity {entity[0]!r}",
                       Fix(name, field.raw, new) if new != field.raw else None)


def normal_form(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if not field.raw.isascii() and not unicodedata.is_normalized("NFC", field.raw):
        yield _finding(entry, "unicode-nfc", f"{name} is not in Unicode normal form C",
                       Fix(name, field.raw, unicodedata.normalize("NFC", field.raw)))


def month(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if name != "month" or field.raw.lower() in MONTH_MACROS or \
            _MONTH_NUMBER.match(field.value) or field.undefined_macros:
        return
    spelled = field.value.strip().rstrip(".").lower()
    macro = next((macro for macro, full in MONTH_NAMES.items()
                  if len(spelled) >= 3 and full.startswith(spelled)), None)
    yield _finding(entry, "month", f"month {field.value!r} is neither a month macro (jan .. dec)"
                   " nor a number 1-12", Fix(name, field.raw, macro) if macro else None)


def year(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if name == "year" and not field.undefined_macros and \
            not re.fullmatch(r"\s*\d{4}\s*", field.value):
        yield _finding(entry, "year", f"year {field.value!r} is not a four-digit number")


def pages(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if name != "pages":
        return
    message = check_pages(field.value)
    if message is not None:
        yield _finding(entry, "pages", message)
    elif _SINGLE_HYPHEN.search(field.value):
        new = _SINGLE_HYPHEN.sub("--", field.raw)
        yield _finding(entry, "page-range-dash", f"pages {field.value!r}: a range is written "
                       "with -- (an en dash)", Fix(name, field.raw, new))


def names(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if name in NAME_FIELDS:
        problem = _name_problem(field.value)
        if problem is not None:
            yield _finding(entry, "names", f"{name} {problem}")


def doi(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if name == "doi":
        message = check_doi(field.value)
        if message is not None:
            bare = clean_doi(field.value)
            new = rewrapped(field.raw, bare)
            yield _finding(entry, "doi", message, Fix(name, field.raw, new)
                           if check_doi(bare) is None and new != field.raw else None)


#: field -> (rule, checker of the value) for the identifier fields
_IDENTIFIERS: dict[str, tuple[str, Callable[[str], str | None]]] = {
    "url": ("url", check_url), "isbn": ("isbn", check_isbn), "issn": ("issn", check_issn)}


def identifiers(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if name in _IDENTIFIERS:
        code, checker = _IDENTIFIERS[name]
        message = checker(field.value)
        if message is not None:
            yield _finding(entry, code, message)


def macros(entry: BibEntry, name: str, field: Field) -> Iterator[Finding]:
    if field.undefined_macros:
        yield _finding(entry, "undefined-macro", f"{name} uses {', '.join(field.undefined_macros)}"
                       ", which no @string defines (bibtex and biber read it as empty)")


#: Rules on the text of every field but the verbatim ones, then rules on every field.
TEXT_RULES: tuple[Rule, ...] = (title_case, braces, markup, names)
FIELD_RULES: tuple[Rule, ...] = (normal_form, month, year, pages, doi, identifiers, macros)


def integrity(entry: BibEntry) -> Iterator[Finding]:
    """The integrity findings of ``entry``, field by field."""
    for name, field in entry.fields.items():
        if not field.value.strip():
            continue
        if name not in VERBATIM_FIELDS:
            for rule in TEXT_RULES:
                yield from rule(entry, name, field)
        for rule in FIELD_RULES:
            yield from rule(entry, name, field)
