"""How faithfully do refbridge's readers read other tools' test data? ``python benchmarks/readers.py``

Every input of ``../shared/conformance`` (``--shared DIR``) is read by refbridge and each record
compared, field by field, with what the other tool's own tests expect:

- Zotero's import translators: ``zotero-import/<slug>/NN.input`` with ``NN.expected.json``
  (Zotero item JSON). Cases whose expectation is stale (``DRIFT.json``) are first brought up to
  what the translator produces today.
- JabRef's importers: ``jabref-importer/X.ext`` with JabRef's expected ``X.bib`` (read with
  refbridge's own BibTeX reader), and the expectations JabRef states only in Java
  (``EXPECTED-FROM-TESTS.json``, only the fields a test asserts).

Both sides are brought to one normal form (``Normal``): item type by coarse class, title,
creators per CSL role in order (family and given, or the literal of a one-field name), the
issued date as year-month-day parts, container title, volume, issue, pages, DOI, ISBN, ISSN,
URL, abstract and keywords (as a set). Zotero's fields and creator types are mapped to CSL
through refbridge's tables generated from Zotero's schema. Values are compared after the small
normalisations below (white space, dash kinds, identifier spelling); nothing else is forgiven.
A field counts when the expected record has it: equal or different. Records are paired by
title, else by position; an expected record without a partner is a lost record.

Formats refbridge has no reader for (MARCXML, Citavi, Copac, Ovid) are listed apart, not
counted as failures. ``KNOWN_DIFFERENCES`` (``readers_known.json`` beside this file) lists
differences where the expectation itself is wrong or keeps less than refbridge, each with its
reason: they are reported apart too.

This is a measuring tool, not a test: it asserts nothing. tests/formats/test_reader_conformance.py
runs it and keeps a floor per format.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.formats.zotero.tables import (
    BASE_FIELDS,
    CREATORS,
    CSL_TYPE_OF_ZOTERO,
    DATE_FIELDS,
    FIELDS,
)
from refbridge.model import Date, Name, Record
from refbridge.pipeline import ReadOptions, read_file
from refbridge.registry import UnknownFormat, detect_reader, get_reader
from refbridge.textio import open_input

ROOT = Path(__file__).resolve().parent.parent
KNOWN_FILE = Path(__file__).with_name("readers_known.json")

#: A comparable value: text, a tuple (date parts, names), a frozenset (keywords, ISBNs) or a
#: mapping of CSL roles to names.
Value = Any
#: A record in the normal form: normal field name -> comparable value.
Normal = dict[str, Value]

# -- tables -----------------------------------------------------------------------------------

#: The refbridge reader of each Zotero translator's cases (None: refbridge has no reader).
ZOTERO_READERS: dict[str, str | None] = {
    "ris": "ris", "medlinenbib": "nbib", "endnote-xml": "endnote-xml", "referbibix": "endnote",
    "pubmed-xml": "pubmed-xml", "web-of-science-tagged": "wos", "mods": "mods",
    "csl-json": "csl-json", "bibtex": "bibtex", "openalex-json": "openalex", "marcxml": None,
}
#: The format a Zotero translator reads, named for the unsupported list.
ZOTERO_FORMAT_NAMES: dict[str, str] = {"marcxml": "MARCXML"}

#: JabRef's importers by the start of their test files' names: (importer, refbridge reader);
#: ``DETECT``: the reader refbridge detects from the content (JabRef's ISI importer also reads
#: MEDLINE and INSPEC text); None: refbridge has no reader for the format.
DETECT = "detect"
JABREF_READERS: tuple[tuple[str, str, str | None], ...] = (
    ("RisImporter", "RIS", "ris"),
    ("EndnoteXmlImporter", "EndNote XML", "endnote-xml"),
    ("MedlinePlainImporter", "MEDLINE", "nbib"),
    ("NbibImporter", "MEDLINE", "nbib"),
    ("MedlineImporter", "MEDLINE XML", "pubmed-xml"),
    ("IsiImporter", "ISI", DETECT),
    ("IEEEImport", "ISI", DETECT),
    ("MODSImporter", "MODS", "mods"),
    ("MsBib", "MsBib", "word-xml"),
    ("EmptyMsBib", "MsBib", "word-xml"),
    ("Endnote.", "EndNote tagged", "endnote"),
    ("refer.", "Refer/BibIX", "endnote"),
    ("CopacImporter", "Copac", None),
    ("OvidImporter", "Ovid", None),
    ("CitaviXmlImporter", "Citavi", None),
)
#: The reader of JabRef's test inputs given in the Java source, by importer.
JABREF_INLINE_READERS: dict[str, str] = {
    "EndnoteImporter": "endnote", "ReferImporter": "endnote", "MedlinePlainImporter": "nbib"}

#: Coarse classes of CSL item types (any other type: ``other``).
TYPE_CLASSES: dict[str, str] = {
    "article-journal": "article", "article-magazine": "article",
    "article-newspaper": "article", "article": "article", "review": "article",
    "book": "book", "chapter": "chapter", "paper-conference": "paper-conference",
    "thesis": "thesis", "report": "report",
    "webpage": "webpage", "post-weblog": "webpage", "post": "webpage",
}

#: The CSL text variables compared, with the normal field each goes to.
TEXT_VARIABLES: tuple[str, ...] = (
    "title", "container-title", "volume", "issue", "page", "DOI", "ISBN", "ISSN", "URL",
    "abstract")
#: The normal fields, in the order they are reported.
NORMAL_FIELDS: tuple[str, ...] = (
    "type", "title", "creators", "date", *TEXT_VARIABLES[1:], "keywords")

#: Zotero base fields -> CSL variable, for a field the item type's own table lacks (a field
#: the schema now allows on the type: DRIFT.json's additions).
ZOTERO_BASE_VARIABLES: dict[str, str] = {
    "title": "title", "publicationTitle": "container-title", "volume": "volume",
    "issue": "issue", "pages": "page", "DOI": "DOI", "ISBN": "ISBN", "ISSN": "ISSN",
    "url": "URL", "abstractNote": "abstract"}

#: Zotero's rich-text markup in titles (its HTML subset), dropped before comparing.
_TITLE_MARKUP = re.compile(r"</?(?:i|b|sup|sub|sc|span)(?:\s[^>]*)?>", re.IGNORECASE)
_SCRIPT_CHARACTERS = str.maketrans("₀₁₂₃₄₅₆₇₈₉₊₋⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-0123456789+-")
_DASHES = re.compile(r"\s*(?:--|[\u2010-\u2015\u2212-])\s*")
_KEYWORD_DASHES = re.compile(r"--|[\u2013\u2014]")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
#: An ISBN-13, ISBN-10 or ISSN, hyphens removed.
_IDENTIFIER = re.compile(r"(?<![\dX])(?:97[89]\d{9}[\dX]|\d{9}[\dX]|\d{7}[\dX])(?![\dX])")
_MONTHS: dict[str, int] = {
    name: number for number, names in enumerate((
        ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
        ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
        ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
        ("dec", "december")), start=1) for name in names}


# -- values -----------------------------------------------------------------------------------

def spaced(text: str) -> str:
    """``text`` with runs of white space made one space, and stripped."""
    return " ".join(text.split())


def title_text(text: str) -> str:
    """A title without markup; Unicode sub- and superscript digits and signs (JabRef's
    ``LiNbO₃``) as the plain characters refbridge's rich text holds under its sub- or
    superscript style."""
    return spaced(_TITLE_MARKUP.sub("", text)).translate(_SCRIPT_CHARACTERS)


def pages_text(text: str) -> str:
    """Pages with every kind of dash (``--``, en dash, minus) made ``-``, spaces around it
    dropped."""
    return _DASHES.sub("-", spaced(text))


def doi_text(text: str) -> str:
    return _DOI_PREFIX.sub("", text.strip()).casefold()


def identifier_set(text: str) -> frozenset[str]:
    """The ISBNs or ISSNs in ``text``, without hyphens, upper case: a list of several, or
    one with a qualifier (``0801486394 (pbk. : acid-free paper)``)."""
    found = _IDENTIFIER.findall(text.replace("-", "").upper())
    return frozenset(map(isbn13, found)) if found else frozenset({spaced(text).upper()})


def isbn13(identifier: str) -> str:
    """An ISBN-10 as the ISBN-13 of the same book (any other identifier as it is)."""
    if len(identifier) != 10:
        return identifier
    digits = "978" + identifier[:9]
    check = -sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10
    return digits + str(check)


def keyword_set(keywords: Iterable[str]) -> frozenset[str]:
    """Keywords as a set, case, white space and dash kinds ignored (a subject's parts are
    joined with ``--``, which a .bib reads as an en dash); each split at ``;`` and ``,``, as
    JabRef joins a list of keywords into one with either separator."""
    return frozenset(_KEYWORD_DASHES.sub("-", spaced(part)).casefold() for keyword in keywords
                     for part in re.split(r"[;,]", keyword) if part.strip())


TEXT_NORMALISERS: dict[str, Any] = {
    "title": title_text, "container-title": title_text, "page": pages_text,
    "DOI": doi_text, "ISBN": identifier_set, "ISSN": identifier_set, "URL": str.strip,
}


def text_value(variable: str, text: str) -> Value:
    return TEXT_NORMALISERS.get(variable, spaced)(text)


def date_parts(text: str) -> tuple[int, ...] | None:
    """Year, month and day of a date written as text, as far as it says them: ``1996 Jul 9``,
    ``FEB 2011``, ``2010 Sep-Oct`` (the first month), ``2015-08-01``, ``2001/05/03/``,
    ``January 1, 2013``, ``9 July 1996``. None when no year > 0 is found."""
    iso = re.fullmatch(r"\s*(\d{4})(?:[-/](\d{1,2}))?(?:[-/](\d{1,2}))?(?:/|T[\d:.Z+-]*)?\s*",
                       text)
    if iso:
        parts = tuple(int(p) for p in iso.groups() if p is not None)
        return parts if parts[0] > 0 and all(p > 0 for p in parts) else None
    year = re.search(r"(?<!\d)(\d{4})(?!\d)", text)
    if year is None or int(year.group(1)) == 0:
        return None
    words = re.findall(r"[A-Za-z]+", text)
    month = next((_MONTHS[w.casefold()] for w in words if w.casefold() in _MONTHS), None)
    if month is None:
        return (int(year.group(1)),)
    rest = text[:year.start()] + " " + text[year.end():]
    day = re.search(r"(?<!\d)(\d{1,2})(?!\d)", rest)
    return (int(year.group(1)), month) + ((int(day.group(1)),) if day else ())


def date_value(text: str) -> Value:
    """A date's parts when it has them, else its text."""
    parts = date_parts(text)
    return parts if parts is not None else spaced(text)


def given_text(given: str) -> str:
    """A given name with initials' full stops dropped: ``S.A.`` and ``S. A.`` are ``S A``,
    ``P.-L.`` is ``P-L``."""
    return " ".join(part for part in re.split(r"[.\s]+", given) if part).replace(" -", "-")


def person(family: str, given: str) -> tuple[str, ...]:
    """A personal name as (family, given); a name of one part as that part alone, so that it
    equals the same text read as a one-field (literal) name."""
    family, given = spaced(family), given_text(given)
    if not given or not family:
        return (family or given,)
    return (family, given)


def literal(name: str) -> tuple[str, ...]:
    return (spaced(name),)


def show(value: Value) -> str:
    """A value as the report prints it."""
    if isinstance(value, frozenset):
        return "{" + ", ".join(sorted(value)) + "}"
    if isinstance(value, tuple) and all(isinstance(p, int) for p in value):
        return "-".join(str(p) for p in value)
    if isinstance(value, Mapping):
        return "; ".join(f"{role}: " + " / ".join(", ".join(n) for n in names)
                         for role, names in value.items())
    return str(value)


# -- normal forms -----------------------------------------------------------------------------

def record_name(name: Name) -> tuple[str, ...]:
    """A name as Zotero keeps it: particles in the family name, a suffix after the given."""
    if name.literal is not None:
        return literal(name.literal)
    family = " ".join(p for p in (name.dropping_particle, name.non_dropping_particle,
                                  name.family) if p)
    given = name.given or ""
    if name.suffix:
        given = f"{given}, {name.suffix}" if given else name.suffix
    return person(family, given)


def record_date(date: Date) -> Value:
    if date.start is not None:
        return tuple(date.start.as_list())
    return date_value(date.literal or "")


def normal_of_record(record: Record) -> Normal:
    """The normal form of a record refbridge read."""
    normal: Normal = {"type": TYPE_CLASSES.get(record.type, "other")}
    for variable in TEXT_VARIABLES:
        text = record.get(variable)
        if text and text.strip():
            normal[variable] = text_value(variable, text)
    if record.names:
        normal["creators"] = {role: tuple(record_name(n) for n in names)
                              for role, names in sorted(record.names.items())}
    issued = record.dates.get("issued")
    if issued is not None:
        normal["date"] = record_date(issued)
    if record.keywords:
        normal["keywords"] = keyword_set(record.keywords)
    return normal


def zotero_variable(item_type: str, zotero_field: str) -> str | None:
    """The CSL variable a Zotero field of ``item_type`` holds, if one compared here."""
    variables = {zotero: csl for csl, zotero in FIELDS.get(item_type, {}).items()}
    variable = variables.get(zotero_field)
    if variable is None:
        variable = ZOTERO_BASE_VARIABLES.get(BASE_FIELDS.get(zotero_field, zotero_field))
    return variable if variable in TEXT_VARIABLES else None


def zotero_creator(creator: Mapping[str, Any]) -> tuple[str, ...]:
    last = str(creator.get("lastName") or creator.get("name") or "")
    if creator.get("fieldMode") == 1 or "name" in creator:
        return literal(last)
    return person(last, str(creator.get("firstName") or ""))


def zotero_creators(item_type: str, creators: Sequence[Mapping[str, Any]]
                    ) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Creators by CSL role, in order; a creator type with no CSL role keeps its Zotero name."""
    roles = {zotero: csl for csl, zotero in CREATORS.get(item_type, {}).items()}
    by_role: dict[str, list[tuple[str, ...]]] = {}
    for creator in creators:
        kind = str(creator.get("creatorType") or "author")
        by_role.setdefault(roles.get(kind, kind), []).append(zotero_creator(creator))
    return {role: tuple(names) for role, names in sorted(by_role.items())}


def normal_of_zotero_item(item: Mapping[str, Any]) -> Normal:
    """The normal form of one of Zotero's expected items."""
    item_type = str(item.get("itemType") or "")
    normal: Normal = {"type": TYPE_CLASSES.get(CSL_TYPE_OF_ZOTERO.get(item_type, ""), "other")}
    dates = {zotero: csl for csl, zotero in DATE_FIELDS.get(item_type, {}).items()}
    for name, value in item.items():
        if not isinstance(value, str) or not value.strip():
            continue
        variable = zotero_variable(item_type, name)
        if variable is not None:
            normal[variable] = text_value(variable, value)
        elif dates.get(name) == "issued":
            normal["date"] = date_value(value)
    if item.get("creators"):
        normal["creators"] = zotero_creators(item_type, item["creators"])
    tags = [t["tag"] if isinstance(t, Mapping) else str(t) for t in item.get("tags") or ()]
    if tags:
        normal["keywords"] = keyword_set(tags)
    return normal


# -- cases ------------------------------------------------------------------------------------

@dataclass(slots=True)
class Case:
    """One input and the records another tool's test expects from it."""

    suite: str  #: ``zotero`` or ``jabref``
    name: str  #: ``ris/03``, ``RisImporterTest1.ris``
    reader: str | None  #: refbridge reader name, ``DETECT``, or None: no reader
    format: str  #: the tool's name of the format (for unsupported ones)
    expected: list[Normal]
    path: Path | None = None
    text: str | None = None  #: an input given as text (JabRef's Java strings)
    expected_count: int | None = None  #: records the test expects, when it says


def apply_drift(items: list[dict[str, Any]], stale: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The expected items brought up to what the translator produces today (DRIFT.json)."""
    current = [dict(item) for item in items]
    for change in stale.get("items", ()):
        item = current[change["item"]]
        item.update(change.get("added", {}))
        item.update({k: v["current"] for k, v in change.get("changed", {}).items()})
        for key in change.get("removed", {}):
            item.pop(key, None)
    return current


def zotero_cases(shared: Path) -> Iterator[Case]:
    base = shared / "conformance" / "zotero-import"
    drift = json.loads((base / "DRIFT.json").read_text(encoding="utf-8"))
    stale = {entry["case"]: entry for entry in drift.get("stale", ())}
    for expected_file in sorted(base.glob("*/*.expected.json")):
        slug, number = expected_file.parent.name, expected_file.name.split(".")[0]
        name = f"{slug}/{number}"
        items = json.loads(expected_file.read_text(encoding="utf-8"))
        if name in stale:
            items = apply_drift(items, stale[name])
        yield Case("zotero", name, ZOTERO_READERS.get(slug), ZOTERO_FORMAT_NAMES.get(slug, slug),
                   [normal_of_zotero_item(item) for item in items],
                   path=expected_file.with_name(f"{number}.input"), expected_count=len(items))


def bib_records(text: str, source: str) -> list[Record]:
    """The records of BibTeX ``text``, read by refbridge's BibTeX reader."""
    reader = get_reader("bibtex")
    return list(reader.read(io.StringIO(text), source, Diagnostics()))


def jabref_importer(file_name: str) -> tuple[str, str | None]:
    """(format name, refbridge reader) of a JabRef test file."""
    for prefix, format_name, reader in JABREF_READERS:
        if file_name.startswith(prefix):
            return format_name, reader
    return file_name.rsplit(".", 1)[-1], None


def expected_bib(input_path: Path) -> Path:
    """The expected ``.bib`` of a JabRef input (Ovid's are ``OvidImporterTestBibN.bib``)."""
    stem = input_path.stem
    if stem.startswith("OvidImporterTest"):
        stem = stem.replace("OvidImporterTest", "OvidImporterTestBib")
    return input_path.with_name(stem + ".bib")


def jabref_file_cases(base: Path) -> Iterator[Case]:
    """The inputs that have an expected ``.bib`` beside them."""
    for path in sorted(base.iterdir()):
        bib = expected_bib(path)
        if path.suffix == ".bib" or not bib.is_file():
            continue
        records = bib_records(bib.read_text(encoding="utf-8-sig"), bib.name)
        format_name, reader = jabref_importer(path.name)
        yield Case("jabref", path.name, reader, format_name,
                   [normal_of_record(r) for r in records], path=path,
                   expected_count=len(records))


def asserted_entry(entry: Mapping[str, Any]) -> Normal:
    """The normal form of the fields a JabRef test asserts (read as a BibTeX entry)."""
    kind = entry.get("type") or "misc"
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in entry.get("fields", {}).items())
    records = bib_records(f"@{'misc' if kind == 'any' else kind}{{asserted,\n{body}}}\n",
                          "EXPECTED-FROM-TESTS.json")
    normal = normal_of_record(records[0]) if records else {}
    if kind == "any":
        normal.pop("type", None)
    return normal


def jabref_test_cases(base: Path) -> Iterator[Case]:
    """The expectations JabRef states in Java; tests that only check recognition are left out."""
    stated = json.loads((base / "EXPECTED-FROM-TESTS.json").read_text(encoding="utf-8"))
    for number, test in enumerate(stated["cases"], 1):
        if test.get("entry_count") is None and not test.get("entries"):
            continue
        entries = sorted(test.get("entries", ()), key=lambda e: e.get("index", 0))
        expected = [asserted_entry(e) for e in entries]
        if "input_file" in test:
            path = base / test["input_file"]
            format_name, reader = jabref_importer(path.name)
            yield Case("jabref", f"{test['test']} ({path.name})", reader, format_name,
                       expected, path=path, expected_count=test.get("entry_count"))
        else:
            reader = JABREF_INLINE_READERS.get(test["importer"])
            yield Case("jabref", f"{test['test']} (inline)", reader, test["importer"],
                       expected, text=test["input"], expected_count=test.get("entry_count"))


def jabref_cases(shared: Path) -> Iterator[Case]:
    base = shared / "conformance" / "jabref-importer"
    yield from jabref_file_cases(base)
    yield from jabref_test_cases(base)


def all_cases(shared: Path) -> list[Case]:
    return [*zotero_cases(shared), *jabref_cases(shared)]


# -- reading ----------------------------------------------------------------------------------

def detected_reader(path: Path) -> str | None:
    """The reader refbridge picks for ``path`` on its own (None: it cannot tell)."""
    diagnostics = Diagnostics()
    try:
        with open_input(str(path), diagnostics) as (_stream, head):
            return detect_reader(path.name, head).name
    except RefbridgeError:
        return None


def read_case(case: Case) -> tuple[str | None, list[Record], str | None]:
    """(reader used, records read, error) of one case's input."""
    diagnostics = Diagnostics()
    reader = case.reader
    try:
        if case.text is not None and reader is not None:
            stream = io.StringIO(case.text)
            return reader, list(get_reader(reader).read(stream, case.name, diagnostics)), None
        assert case.path is not None
        if reader == DETECT:
            reader = detected_reader(case.path)
            if reader is None:
                return None, [], "refbridge cannot tell the format"
        options = ReadOptions(from_format=reader)
        return reader, list(read_file(str(case.path), diagnostics, options)), None
    except (RefbridgeError, UnknownFormat, UnicodeDecodeError, ValueError) as error:
        return reader, [], f"{type(error).__name__}: {error}"


# -- comparing --------------------------------------------------------------------------------

#: The pseudo-field of a known difference in the number of records (``"field": "records"``).
RECORDS = "records"


@dataclass(frozen=True, slots=True)
class KnownDifference:
    """A difference where the expectation is wrong or keeps less than refbridge."""

    case: str  #: case name (``ris/03``), or a pattern of names (``ris/0[35]``, ``pubmed-xml/*``)
    field: str  #: normal field, or a pattern of fields (``*``: every field)
    reason: str
    item: int | None = None  #: 0-based expected record; None: any

    def matches(self, case: str, item: int, name: str) -> bool:
        """Whether this is the difference of field ``name`` of record ``item`` of ``case``."""
        return (fnmatchcase(case, self.case) and fnmatchcase(name, self.field)
                and self.item in (None, item))


def load_known(path: Path = KNOWN_FILE) -> list[KnownDifference]:
    if not path.is_file():
        return []
    return [KnownDifference(**entry) for entry in json.loads(path.read_text(encoding="utf-8"))]


@dataclass(frozen=True, slots=True)
class Difference:
    case: str
    item: int
    field: str
    expected: str
    got: str
    known: str | None = None  #: the reason, for a known difference


@dataclass(slots=True)
class CaseResult:
    """What one case gave."""

    suite: str
    name: str
    format: str  #: ``zotero:ris``; ``zotero:MARCXML (unsupported)``
    supported: bool
    records_expected: int = 0
    records_read: int = 0
    records_lost: int = 0
    titles_lost: int = 0
    compared: int = 0
    equal: int = 0
    known: int = 0
    differences: list[Difference] = field(default_factory=list)
    error: str | None = None
    #: the reader refbridge detects, when it is not the case's own (or the case asks for it)
    detected: str | None = None


def pair_records(expected: Sequence[Normal], got: Sequence[Normal]
                 ) -> list[tuple[int, Normal, Normal | None]]:
    """Each expected record with the read record of the same title, else the one at the
    same position when it is free, else None (lost)."""
    free = set(range(len(got)))
    pairs: list[tuple[int, Normal, Normal | None]] = []
    for index, record in enumerate(expected):
        match = next((j for j in sorted(free)
                      if "title" in record and got[j].get("title") == record["title"]), None)
        if match is None and index in free and not any(
                got[index].get("title") == other.get("title") for other in expected[index + 1:]
                if "title" in other):
            match = index
        if match is not None:
            free.discard(match)
        pairs.append((index, record, got[match] if match is not None else None))
    return pairs


def known_reason(known: Sequence[KnownDifference], case: str, item: int, name: str
                 ) -> str | None:
    return next((k.reason for k in known if k.matches(case, item, name)), None)


def compare_record(result: CaseResult, item: int, expected: Normal, got: Normal,
                   known: Sequence[KnownDifference]) -> None:
    for name in NORMAL_FIELDS:
        if name not in expected:
            continue
        result.compared += 1
        if same(name, expected[name], got.get(name)):
            result.equal += 1
            continue
        reason = known_reason(known, result.name, item, name)
        result.known += reason is not None
        result.differences.append(Difference(
            result.name, item, name, show(expected[name]),
            show(got[name]) if name in got else "(none)", reason))


def same(name: str, expected: Value, got: Value) -> bool:
    """Whether ``got`` is the ``expected`` value of field ``name``. A date that says more
    than the expected one is the same when it starts with it (a .bib of JabRef's has no day)."""
    if name == "date" and isinstance(expected, tuple) and isinstance(got, tuple):
        return got[:len(expected)] == expected
    return bool(got == expected)


def format_key(case: Case) -> str:
    """The row of a case in the table: the suite and refbridge's reader; the other tool's
    format name when refbridge has no reader, or when the reader is the one detected."""
    if case.reader is None:
        return f"{case.suite}:{case.format} (unsupported)"
    if case.reader == DETECT:
        return f"{case.suite}:{case.format} (detected)"
    return f"{case.suite}:{case.reader}"


def run_case(case: Case, known: Sequence[KnownDifference]) -> CaseResult:
    expected_count = (case.expected_count if case.expected_count is not None
                      else len(case.expected))
    if case.reader is None:
        return CaseResult(case.suite, case.name, format_key(case), False, expected_count)
    reader, records, error = read_case(case)
    result = CaseResult(case.suite, case.name, format_key(case), True, expected_count,
                        len(records), error=error)
    if case.path is not None:
        detected = detected_reader(case.path)
        result.detected = detected if detected != reader or case.reader == DETECT else None
    got = [normal_of_record(r) for r in records]
    result.records_lost = max(0, expected_count - len(records))
    lost_reason = known_reason(known, case.name, 0, RECORDS) if result.records_lost else None
    if lost_reason is not None:  # the other tool expects a record the input does not hold
        result.differences.append(Difference(case.name, 0, RECORDS, str(expected_count),
                                             str(len(records)), lost_reason))
        result.records_lost = 0
    for item, expected, partner in pair_records(case.expected, got):
        if partner is None:
            result.titles_lost += "title" in expected
            continue
        result.titles_lost += "title" in expected and "title" not in partner
        compare_record(result, item, expected, partner, known)
    return result


def run(shared: Path, known: Sequence[KnownDifference] | None = None) -> list[CaseResult]:
    """Every case of ``shared``/conformance read and compared."""
    known = load_known() if known is None else known
    return [run_case(case, known) for case in all_cases(shared)]


# -- figures ----------------------------------------------------------------------------------

@dataclass(slots=True)
class Figures:
    """The sums of a format's cases (or of all)."""

    cases: int = 0
    records_expected: int = 0
    records_read: int = 0
    records_lost: int = 0
    titles_lost: int = 0
    compared: int = 0
    equal: int = 0
    known: int = 0

    def add(self, result: CaseResult) -> None:
        self.cases += 1
        for name in ("records_expected", "records_read", "records_lost", "titles_lost",
                     "compared", "equal", "known"):
            setattr(self, name, getattr(self, name) + getattr(result, name))

    @property
    def percent(self) -> float:
        """Equal fields in per cent of the fields compared, known differences left out."""
        counted = self.compared - self.known
        return 100.0 * self.equal / counted if counted else 100.0


def figures_by_format(results: Iterable[CaseResult]) -> dict[str, Figures]:
    by_format: dict[str, Figures] = {}
    for result in results:
        by_format.setdefault(result.format, Figures()).add(result)
    return dict(sorted(by_format.items()))


def overall(results: Iterable[CaseResult]) -> Figures:
    total = Figures()
    for result in results:
        if result.supported:
            total.add(result)
    return total


def field_figures(results: Iterable[CaseResult]) -> dict[str, tuple[int, int]]:
    """(differences, of which known) per normal field."""
    counts: dict[str, list[int]] = {}
    for result in results:
        for difference in result.differences:
            entry = counts.setdefault(difference.field, [0, 0])
            entry[0] += 1
            entry[1] += difference.known is not None
    return {name: (c[0], c[1]) for name, c in sorted(counts.items(), key=lambda kv: -kv[1][0])}


# -- report -----------------------------------------------------------------------------------

def table(results: Sequence[CaseResult]) -> str:
    head = (f"{'format':<34} {'cases':>5} {'rec exp':>7} {'read':>5} {'lost':>5} "
            f"{'titles lost':>11} {'fields':>6} {'equal':>6} {'known':>5} {'%':>6}")
    lines = [head, "-" * len(head)]
    rows = list(figures_by_format(results).items()) + [("overall (supported)", overall(results))]
    for name, f in rows:
        if name.endswith("(unsupported)"):
            lines.append(f"{name:<34} {f.cases:>5} {f.records_expected:>7}")
            continue
        lines.append(f"{name:<34} {f.cases:>5} {f.records_expected:>7} {f.records_read:>5} "
                     f"{f.records_lost:>5} {f.titles_lost:>11} {f.compared:>6} {f.equal:>6} "
                     f"{f.known:>5} {f.percent:>6.1f}")
    return "\n".join(lines)


def clip(text: str, start: int, width: int) -> str:
    """``width`` characters of ``text`` from ``start``, with ``…`` where it is cut."""
    cut = text[start:start + width]
    return ("…" if start else "") + cut + ("…" if start + width < len(text) else "")


def clipped(expected: str, got: str, width: int) -> tuple[str, str]:
    """Both texts cut to ``width`` around where they first differ."""
    common = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b),
                  min(len(expected), len(got)))
    start = max(0, common - width // 3) if common > width // 2 else 0
    return clip(expected, start, width), clip(got, start, width)


def difference_lines(results: Iterable[CaseResult], verbose: bool) -> Iterator[str]:
    width = 10_000 if verbose else 70
    for result in results:
        if result.error:
            yield f"{result.name}: {result.error}"
        if result.detected is not None and verbose:
            yield f"{result.name}: detected as {result.detected}"
        if result.records_lost:
            yield (f"{result.name}: {result.records_lost} of {result.records_expected} "
                   "records lost")
        elif result.supported and result.records_read > result.records_expected:
            yield (f"{result.name}: {result.records_read} records read, "
                   f"{result.records_expected} expected")
        for d in result.differences:
            mark = "  (known: " + d.known + ")" if d.known else ""
            if d.known and not verbose:
                continue
            expected, got = clipped(d.expected, d.got, width)
            yield f"{d.case}#{d.item} {d.field}: expected {expected!r}, got {got!r}{mark}"


def as_json(results: Sequence[CaseResult]) -> dict[str, Any]:
    return {
        "formats": {name: {**asdict(f), "percent": round(f.percent, 2)}
                    for name, f in figures_by_format(results).items()},
        "overall": {**asdict(overall(results)), "percent": round(overall(results).percent, 2)},
        "fields": {name: {"differences": n, "known": k}
                   for name, (n, k) in field_figures(results).items()},
        "cases": [asdict(result) for result in results],
    }


def print_report(results: Sequence[CaseResult], verbose: bool,
                 apart: Iterable[str] = ()) -> None:
    """The table, the differences by field, the lines of ``apart`` (what was not compared),
    then every difference (known ones too when ``verbose``)."""
    print(table(results))
    print("\ndifferences by field: " + ", ".join(
        f"{name} {n}" + (f" ({k} known)" if k else "")
        for name, (n, k) in field_figures(results).items()))
    for line in apart:
        print(line)
    print()
    for line in difference_lines(results, verbose):
        print(line)


def write_json(path: Path, figures: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared",
                        help="the shared directory that holds conformance/ (default: %(default)s)")
    parser.add_argument("--verbose", action="store_true",
                        help="every difference in full, known ones too, and format detection")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write all figures to FILE")
    args = parser.parse_args(argv)
    if not (args.shared / "conformance").is_dir():
        parser.error(f"no conformance data at {args.shared / 'conformance'}")
    results = run(args.shared)
    print_report(results, args.verbose)
    if args.json:
        write_json(args.json, as_json(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
