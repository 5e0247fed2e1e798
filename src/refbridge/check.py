"""Library lint: what ``refbridge check`` reports about records that read without error.

Findings are of four kinds: duplicate citation keys, duplicate records (same DOI, or same title,
year and first author), fields a style needs that a record lacks (``REQUIREMENTS``, one table
per style, by CSL item type), and values that are well-formed text but suspicious as what they
claim to be (a year far in the future, pages ``12-``, a DOI that is no DOI, a URL that is no web
address, an ISBN or ISSN whose check digit is wrong). Each finding names the file and line of
the record. Records stream through: only keys and signatures are kept, so a library of any size
is checked in bounded memory. This module must never change a record or write a file.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from refbridge.errors import Diagnostics, ExitStatus, RefbridgeError, location
from refbridge.identifiers import DOI, bare_doi
from refbridge.model import Record, Source
from refbridge.pipeline import read_records
from refbridge.runs import ReadOptions

#: style -> CSL item type -> what the style needs; ``a|b`` means either will do. Names are CSL
#: variables (text, name or date variables) plus ``eprint`` (the record's preprint identity).
#: bibtex: the required fields of the standard styles (btxdoc, "Entry Types"), in CSL terms
#: (journal = container-title, school/institution = publisher, year = issued).
#: biblatex: the required fields of the biblatex manual (section 2.1.1).
#: apa: what an APA 7 reference needs to be complete (Publication Manual, chapters 9-10).
REQUIREMENTS: dict[str, dict[str, tuple[str, ...]]] = {
    "bibtex": {
        "article-journal": ("author", "title", "container-title", "issued"),
        "article-magazine": ("author", "title", "container-title", "issued"),
        "article-newspaper": ("author", "title", "container-title", "issued"),
        "book": ("author|editor", "title", "publisher", "issued"),
        "chapter": ("author|editor", "title", "container-title", "publisher", "issued"),
        "paper-conference": ("author", "title", "container-title", "issued"),
        "thesis": ("author", "title", "publisher", "issued"),
        "report": ("author", "title", "publisher", "issued"),
        "manuscript": ("author", "title", "note"),
        "pamphlet": ("title",),
    },
    "biblatex": {
        "article-journal": ("author", "title", "container-title", "issued"),
        "article-magazine": ("author", "title", "container-title", "issued"),
        "article-newspaper": ("author", "title", "container-title", "issued"),
        "book": ("author", "title", "issued"),
        "chapter": ("author", "title", "container-title", "issued"),
        "paper-conference": ("author", "title", "container-title", "issued"),
        "thesis": ("author", "title", "genre", "publisher", "issued"),
        "report": ("author", "title", "genre", "publisher", "issued"),
        "webpage": ("author|editor", "title", "issued", "URL"),
        "article": ("author|editor", "title", "issued"),
        "dataset": ("author|editor", "title", "issued"),
        "software": ("author|editor", "title", "issued"),
        "manuscript": ("author", "title", "issued"),
        "patent": ("author", "title", "number", "issued"),
    },
    "apa": {
        "article-journal": ("author", "issued", "title", "container-title", "volume",
                            "page|number|DOI"),
        "article-magazine": ("author", "issued", "title", "container-title"),
        "article-newspaper": ("author", "issued", "title", "container-title"),
        "article": ("author", "issued", "title", "publisher|eprint|URL|DOI"),
        "book": ("author|editor", "issued", "title", "publisher"),
        "chapter": ("author", "issued", "title", "editor", "container-title", "page",
                    "publisher"),
        "paper-conference": ("author", "issued", "title", "container-title"),
        "thesis": ("author", "issued", "title", "genre", "publisher"),
        "report": ("author", "issued", "title", "publisher"),
        "webpage": ("author", "issued", "title", "URL"),
        "dataset": ("author", "issued", "title", "publisher|DOI|URL"),
        "software": ("author", "issued", "title", "publisher|URL"),
    },
}

#: style -> .bib entry type -> what the style needs, for entry types whose CSL item type is
#: broader than they are (a ``@proceedings`` is a CSL ``book`` but needs no author; a
#: ``@manual`` is a ``report`` but needs only a title). Used for records read from a .bib.
#: bibtex: btxdoc's required fields; biblatex: its manual, section 2.1.1.
ENTRY_REQUIREMENTS: dict[str, dict[str, tuple[str, ...]]] = {
    "bibtex": {
        "proceedings": ("title", "issued"),
        "manual": ("title",),
        "inbook": ("author|editor", "title", "chapter-number|page", "publisher", "issued"),
        "misc": (),
    },
    "biblatex": {
        "proceedings": ("title", "issued"),
        "mvproceedings": ("title", "issued"),
        "collection": ("editor", "title", "issued"),
        "mvcollection": ("editor", "title", "issued"),
        "reference": ("editor", "title", "issued"),
        "mvreference": ("editor", "title", "issued"),
        "periodical": ("editor", "title", "issued"),
        "inreference": ("author", "title", "container-title", "issued"),
        "booklet": ("author|editor", "title", "issued"),
        "manual": ("author|editor", "title", "issued"),
        "misc": ("author|editor", "title", "issued"),
        "online": ("author|editor", "title", "issued", "DOI|eprint|URL"),
    },
}

#: years outside this range (relative to the current year at the top) are suspicious
EARLIEST_YEAR = 1000
YEARS_AHEAD = 2

_LITERAL_YEAR = re.compile(r"(?<!\d)\d{4,}(?!\d)")
_PAGE = r"(?:[A-Za-z]{0,3}\d+[A-Za-z]?|[ivxlcdmIVXLCDM]+)"
_PAGES = re.compile(rf"^{_PAGE}(?:\s*(?:-+|–|—)\s*{_PAGE})?$")
_PAGE_NUMBER = re.compile(r"\d+")
_ISBN_SEPARATORS = re.compile(r"[\s-]")
_WEB_SCHEMES = frozenset({"http", "https", "ftp"})


class CheckUsageError(RefbridgeError):
    """A check that cannot run as asked (an unknown requirement table or finding code)."""

    exit_status = ExitStatus.USAGE


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem with one record: a short code (``duplicate-key``) and what is wrong."""

    code: str
    message: str
    source: Source | None

    def __str__(self) -> str:
        file, line = (self.source.file, self.source.line) if self.source else (None, None)
        return f"{location(file, line)}: warning: {self.message} [{self.code}]"


# -- suspicious values ----------------------------------------------------------------------
def _isbn_ok(digits: str) -> bool:
    if re.fullmatch(r"\d{9}[\dXx]", digits):
        total = sum((10 - i) * (10 if c in "Xx" else int(c)) for i, c in enumerate(digits))
        return total % 11 == 0
    if re.fullmatch(r"97[89]\d{10}", digits):
        return sum((3 if i % 2 else 1) * int(c) for i, c in enumerate(digits)) % 10 == 0
    return False


def _issn_ok(text: str) -> bool:
    digits = text.replace("-", "")
    if not re.fullmatch(r"\d{7}[\dXx]", digits):
        return False
    total = sum((8 - i) * int(c) for i, c in enumerate(digits[:7]))
    check = (11 - total % 11) % 11
    return digits[7].upper() == ("X" if check == 10 else str(check))


def _check_doi(value: str) -> str | None:
    bare = bare_doi(value)
    if not DOI.match(bare):
        return f"DOI {value!r} is not a DOI (10.NNNN/suffix)"
    if bare != value:
        return f"DOI {value!r} holds more than the DOI; write {bare!r}"
    return None


def _check_url(value: str) -> str | None:
    parts = urlsplit(value.strip())
    if parts.scheme.lower() not in _WEB_SCHEMES or not parts.netloc or re.search(r"\s", value):
        return f"URL {value!r} is not a web address (http, https or ftp)"
    return None


def _check_pages(value: str) -> str | None:
    for part in re.split(r"\s*[,;&]\s*", value.strip()):
        if not _PAGES.match(part):
            return f"pages {value!r} are not a page or a range such as 12-19"
        numbers = [int(n) for n in _PAGE_NUMBER.findall(part)]
        if len(numbers) == 2 and numbers[1] < numbers[0] and \
                len(str(numbers[1])) >= len(str(numbers[0])):
            return f"pages {value!r} end before they start"
    return None


def _check_isbn(value: str) -> str | None:
    for isbn in re.split(r"\s*[,;]\s*|\s+(?=\d{3}[\d-]{7})", value.strip()):
        if not _isbn_ok(_ISBN_SEPARATORS.sub("", isbn)):
            return f"ISBN {isbn!r} has a wrong length or check digit"
    return None


def _check_issn(value: str) -> str | None:
    for issn in re.split(r"\s*[,;]\s*|\s+", value.strip()):
        if not _issn_ok(issn):
            return f"ISSN {issn!r} has a wrong form or check digit"
    return None


#: field -> (finding code, checker returning a message or None)
VALUE_CHECKS: dict[str, tuple[str, Callable[[str], str | None]]] = {
    "DOI": ("doi", _check_doi),
    "URL": ("url", _check_url),
    "page": ("pages", _check_pages),
    "ISBN": ("isbn", _check_isbn),
    "ISSN": ("issn", _check_issn),
}


def _check_years(record: Record, this_year: int) -> Iterator[Finding]:
    latest = this_year + YEARS_AHEAD
    for variable, date in record.dates.items():
        years = [point.year for point in (date.start, date.end) if point is not None]
        if date.literal is not None:  # a date no reader could parse: judge its numbers
            years.extend(int(number) for number in _LITERAL_YEAR.findall(date.literal))
        for year in years:
            if not EARLIEST_YEAR <= year <= latest:
                yield Finding("year", f"{variable} year {year} is outside "
                              f"{EARLIEST_YEAR}-{latest}", record.source)


def suspicious_values(record: Record, this_year: int) -> Iterator[Finding]:
    """Findings about values that are not what their field says they are."""
    yield from _check_years(record, this_year)
    for variable, (code, checker) in VALUE_CHECKS.items():
        value = record.get(variable)
        message = checker(value) if value is not None else None
        if message is not None:
            yield Finding(code, message, record.source)


# -- missing fields -------------------------------------------------------------------------
def _has(record: Record, variable: str) -> bool:
    if variable == "eprint":
        return record.eprint is not None
    return variable in record.fields or variable in record.names or variable in record.dates


def missing_fields(record: Record, style: str) -> Iterator[Finding]:
    """Findings for what ``style`` needs (``REQUIREMENTS``, ``ENTRY_REQUIREMENTS``) and
    ``record`` lacks, named in the input's language: .bib field names and entry types for a
    record read from a .bib (``journal``, ``@article``), CSL's for the others."""
    from refbridge.formats.bibtex.terms import bib_terms

    terms = bib_terms(record, style if style in ENTRY_REQUIREMENTS else None)
    requirements = REQUIREMENTS[style].get(record.type, ())
    if terms is not None:
        requirements = ENTRY_REQUIREMENTS.get(style, {}).get(terms.entry_type, requirements)
    for requirement in requirements:
        alternatives = requirement.split("|")
        if not any(_has(record, variable) for variable in alternatives):
            if terms is None:
                wanted, kind = " or ".join(alternatives), f"type {record.type}"
            else:
                wanted = " or ".join(dict.fromkeys(terms.field(v) for v in alternatives))
                kind = f"@{terms.entry_type}"
            yield Finding("missing-field", f"{style} needs {wanted} for {kind}", record.source)


# -- duplicates -----------------------------------------------------------------------------
def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in text if c.isalnum())


def signature(record: Record) -> tuple[str, int | None, str] | None:
    """The normalised title, year and first author's family name (editor's when there is no
    author) that tell one work from another; None without a title."""
    title = record.get("title")
    if title is None or not _fold(title):
        return None
    issued = record.dates.get("issued")
    people = record.names.get("author") or record.names.get("editor") or ()
    first = people[0] if people else None
    family = _fold(first.family or first.literal or first.given or "") if first else ""
    return _fold(title), issued.year if issued else None, family


def _where(source: Source | None) -> str:
    return str(source) if source is not None else "an earlier record"


@dataclass(slots=True)
class DuplicateFinder:
    """Remembers the keys, DOIs and signatures seen so far (not the records)."""

    keys: dict[str, Source | None] = field(default_factory=dict)
    dois: dict[str, Source | None] = field(default_factory=dict)
    signatures: dict[tuple[str, int | None, str], Source | None] = field(default_factory=dict)

    def check(self, record: Record) -> Iterator[Finding]:
        if record.citation_key is not None:
            key = record.citation_key.casefold()
            if key in self.keys:
                yield Finding("duplicate-key", f"citation key {record.citation_key!r} is "
                              f"already used at {_where(self.keys[key])}", record.source)
            else:
                self.keys[key] = record.source
        doi = record.get("DOI")
        if doi is not None:
            bare = bare_doi(doi).casefold()
            if bare in self.dois:
                yield Finding("duplicate-record", "same DOI as the record at "
                              f"{_where(self.dois[bare])}", record.source)
                return
            self.dois[bare] = record.source
        found = signature(record)
        if found is not None:
            if found in self.signatures:
                yield Finding("duplicate-record", "same title, year and first author as the "
                              f"record at {_where(self.signatures[found])}", record.source)
            else:
                self.signatures[found] = record.source


# -- the check ------------------------------------------------------------------------------
#: every finding code, for ``--ignore``
CODES: tuple[str, ...] = ("duplicate-key", "duplicate-record", "missing-field", "year",
                          *(code for code, _ in VALUE_CHECKS.values()))


def check_records(records: Iterable[Record], requirements: Sequence[str] = ("bibtex",),
                  ignore: Iterable[str] = (), this_year: int | None = None
                  ) -> Iterator[Finding]:
    """Every finding about ``records``, record by record, except the codes in ``ignore``."""
    unknown = [style for style in requirements if style not in REQUIREMENTS]
    if unknown:
        raise CheckUsageError(f"no requirement table {', '.join(map(repr, unknown))} "
                              f"(known: {', '.join(sorted(REQUIREMENTS))})")
    skip = frozenset(ignore)
    if skip - set(CODES):
        raise CheckUsageError(f"no finding code {', '.join(map(repr, sorted(skip - set(CODES))))}"
                              f" (known: {', '.join(CODES)})")
    year = this_year or datetime.date.today().year
    duplicates = DuplicateFinder()
    for record in records:
        findings = [*duplicates.check(record), *suspicious_values(record, year)]
        for style in requirements:
            findings.extend(missing_fields(record, style))
        yield from (finding for finding in findings if finding.code not in skip)


def check_files(paths: Sequence[str], diagnostics: Diagnostics,
                requirements: Sequence[str] = ("bibtex",), ignore: Iterable[str] = (),
                read_options: ReadOptions | None = None) -> Iterator[Finding]:
    """Read ``paths`` (reading problems go to ``diagnostics``) and check their records."""
    records = read_records(paths, diagnostics, read_options or ReadOptions())
    return check_records(records, requirements, ignore)

