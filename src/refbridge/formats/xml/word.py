"""Word's bibliography XML (``Sources.xml``; *References → Manage Sources* in Microsoft Word),
read and written.

A ``b:Sources`` element holds one ``b:Source`` per record: ``b:Tag`` (the citation key),
``b:SourceType`` (``JournalArticle``, ``Book``, ``BookSection``, ``ConferenceProceedings``,
``Report`` ...), ``b:Title``, the container in the element of its source type
(``b:JournalName``, ``b:BookTitle`` ...), ``b:Year``/``b:Month``/``b:Day``, ``b:Pages``,
``b:Volume``, ``b:Issue``, ``b:Publisher``, ``b:City``, ``b:DOI``, ``b:URL``,
``b:StandardNumber`` (an ISSN or ISBN by its shape, else the number; JabRef's
``:ISSN:0937-6429`` pairs), ``b:LCID`` (a Windows locale id: ``1031`` is ``de-DE``),
``b:City`` with ``b:StateProvince`` and ``b:CountryRegion`` (the place, joined), JabRef's
``b:BIBTEX_KeyWords``, ``b:BIBTEX_Abstract`` and ``b:BIBTEX_Series``, ``b:Comments`` and
contributors in ``b:Author`` (``b:Author``,
``b:Editor``, ``b:Translator`` ... each a ``b:NameList`` of ``b:Person`` with ``b:Last``,
``b:First``, ``b:Middle``, or a ``b:Corporate`` name). Element names are read regardless of
case (bibutils writes ``b:Url``). Other elements are kept as ``word.<element>`` extras; an
unknown contributor role is reported and read as a contributor.

What Word has no element for (abstracts, keywords, CSL types it lacks, name particles and
suffixes, date ranges ...) travels in ``b:Comments`` as a line ``refbridge: {CSL-JSON}``
(``formats.residue``); Word shows it as the source's comments. Parsing refuses entity
declarations (``formats.xmlinput``). This module must never drop a record or value silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, TextIO

from refbridge.citekeys import XML_KEY_UNSAFE
from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.csljson import apply_residues, residue_note
from refbridge.formats.datetext import MONTH_NAMES, dated, month_of, read_date_or_warn, year_of
from refbridge.formats.residue import RESIDUE_LABEL, looks_like_residue, note_residue
from refbridge.formats.selection import select
from refbridge.formats.xml import word_tables as t
from refbridge.formats.xml.safe import local_name, parse_xml, text_of, xml_text
from refbridge.identifiers import clean_doi_field
from refbridge.model import Date, Name, Record, Source, extra_key
from refbridge.names.reading import name_from_fields
from refbridge.registry import WriteOptions
from refbridge.richtext import plain

_TYPE_OF_SOURCE = {**{k.lower(): v for k, v in t.SOURCE_TYPE_ALIASES.items()},
                   **{s.lower(): c for c, s in reversed(list(t.SOURCE_TYPES.items()))}}
_FIELD_OF = {**t.FIELD_ALIASES, **{e.lower(): v for v, e in t.FIELDS.items()}}
_ROLE_OF = {**t.ROLE_ALIASES, **{e.lower(): r for r, e in t.ROLES.items()}}
_CONTAINERS = frozenset(e.lower() for e in (*t.CONTAINER_ELEMENTS.values(),
                                              *t.CONTAINER_ALIASES))
_DATE_OF = {part.lower(): (variable, index) for variable, parts in t.DATE_ELEMENTS.items()
            for index, part in enumerate(parts)}
_ORDER = {name: i for i, name in enumerate(t.ORDER)}
_PLACE = tuple(e.lower() for e in t.PLACE_ELEMENTS)
#: The locale id the writer gives a language (its first id in ``LOCALES``), by lower case.
_LOCALE_OF = {tag.lower(): lcid for lcid, tag in reversed(list(t.LOCALES.items()))}
_STANDARD_NUMBER = re.compile(r":([A-Za-z]+):\s*([^:]+?)\s*(?=:[A-Za-z]+:|$)")
_ISSN_SHAPE = re.compile(r"^\d{4}-?\d{3}[\dXx]$")


def _q(name: str) -> str:
    return f"{{{t.NAMESPACE}}}{name}"


# -- reading ------------------------------------------------------------------------------------
def _person(element: Any) -> Name | None:
    parts = {local_name(p).lower(): text_of(p) for p in element}
    given = " ".join(p for p in (parts.get("first"), parts.get("middle")) if p)
    if not parts.get("last") and not given:
        return None
    return name_from_fields(parts.get("last") or None, given or None)


def _contributors(element: Any, source: str, diagnostics: Diagnostics
                  ) -> Iterator[tuple[str, Name]]:
    for role_element in element:
        role = _ROLE_OF.get(local_name(role_element).lower())
        if role is None:
            diagnostics.warning(f"unknown Word contributor role <{local_name(role_element)}>, "
                                "read as a contributor", source, role_element.sourceline)
            role = "contributor"
        for holder in role_element:
            kind = local_name(holder).lower()
            if kind == "corporate" and text_of(holder):
                yield role, Name(literal=text_of(holder))
            elif kind == "namelist":
                for person in holder:
                    if (name := _person(person)) is not None:
                        yield role, name


def _date(parts: list[str], label: str, warn: Callable[[str], None]) -> Date | None:
    """The date of Word's year, month and day texts (``2020``, ``May`` or ``5``, ``12``), read
    together as one date text; what cannot be read stays literal, after ``warn``."""
    year, month, day = (part.strip() for part in parts)
    number = year_of(year)
    month_number = (month_of(month) or (int(month) if month.isdecimal() else None)) if month \
        else None
    if number is not None and bool(month) == bool(month_number) and (
            not day or day.isdecimal() and month_number):
        found = dated(number, month_number, int(day) if day else None)
        if found is not None:
            return found
    if month_number is not None and 1 <= month_number <= 12:
        month = MONTH_NAMES[month_number - 1]
    text = " ".join(p for p in (month, day, year) if p)
    return read_date_or_warn(text, warn, label) if text else None


def record_of(source_element: Any, source: str, number: int, diagnostics: Diagnostics,
              with_residue: bool = True) -> Record:
    """The record of a ``b:Source``; raises ``ValueError`` when it cannot be built."""
    line = source_element.sourceline or 1
    fields: dict[str, str] = {}
    names: dict[str, list[Name]] = {}
    date_parts: dict[str, list[str]] = {}
    extra: dict[str, str] = {}
    notes: list[str] = []
    residues: list[dict[str, Any]] = []
    key: str | None = None
    record_type = "document"
    place = ["", "", ""]
    keywords: list[str] = []
    for element in source_element:
        name, text = local_name(element), text_of(element)
        lower = name.lower()
        if lower == "author":
            for role, person in _contributors(element, source, diagnostics):
                names.setdefault(role, []).append(person)
        elif not text:
            continue
        elif lower == t.TAG.lower():
            key = text
        elif lower == t.SOURCE_TYPE.lower():
            found = _TYPE_OF_SOURCE.get(text.lower())
            if found is None:
                diagnostics.warning(f"unknown Word source type {text!r}, read as a document",
                                    source, element.sourceline)
                extra["word.SourceType"] = text
            record_type = found or "document"
        elif lower in _DATE_OF:
            variable, index = _DATE_OF[lower]
            date_parts.setdefault(variable, ["", "", ""])[index] = text
        elif lower == t.NOTE.lower():
            for part in text.split("\n"):
                found_residue = note_residue(part, source, element.sourceline, diagnostics)
                if found_residue is not None:
                    residues.append(found_residue)
                else:
                    notes.append(part)
        elif lower in _CONTAINERS and "container-title" not in fields:
            fields["container-title"] = text
        elif lower == "standardnumber":
            _standard_number(text, fields, extra)
        elif lower in _PLACE:
            place[_PLACE.index(lower)] = text
        elif lower == t.LANGUAGE.lower() and text in t.LOCALES:
            fields.setdefault("language", t.LOCALES[text])
        elif lower == t.JABREF_KEYWORDS:
            keywords += [k.strip() for k in text.split(";") if k.strip()]
        elif lower in t.JABREF_FIELDS and t.JABREF_FIELDS[lower] not in fields:
            fields[t.JABREF_FIELDS[lower]] = text
        elif lower in _FIELD_OF and _FIELD_OF[lower] not in fields:
            fields[_FIELD_OF[lower]] = text
        else:
            extra[f"word.{name}"] = text
    note = "\n".join(notes).strip()
    if note:
        fields["note"] = note
    if any(place):
        fields.setdefault("publisher-place", ", ".join(p for p in place if p))
    dates = {variable: date for variable, parts in date_parts.items()
             if (date := _date(parts, "/".join(t.DATE_ELEMENTS[variable]), partial(
                 diagnostics.warning, file=source, line=line))) is not None}
    for variable, parts in date_parts.items():
        start = dates[variable].start if variable in dates else None
        if parts[1] and start is not None and start.month is None:  # a month no date holds
            extra[f"word.{t.DATE_ELEMENTS[variable][1]}"] = parts[1]
    clean_doi_field(fields)
    record = Record(
        id=key or f"word{number}", type=record_type, fields=fields,
        names={role: tuple(people) for role, people in names.items()}, dates=dates,
        keywords=tuple(dict.fromkeys(keywords)), citation_key=key, extra=extra,
        source=Source(source, line))
    return apply_residues(record, residues) if with_residue else record


def _standard_number(text: str, fields: dict[str, str], extra: dict[str, str]) -> None:
    """``StandardNumber``: JabRef's ``:KIND:value`` pairs, or one ISSN or ISBN by its shape
    (another value is the record's number)."""
    pairs = _STANDARD_NUMBER.findall(text) if text.startswith(":") else []
    for kind, value in pairs:
        variable = t.STANDARD_NUMBER_KINDS.get(kind.upper())
        if variable is not None:
            fields.setdefault(variable, value)
        else:
            extra[extra_key("word", f"StandardNumber_{kind.upper()}")] = value
    if pairs:
        return
    digits = text.replace("-", "").replace(" ", "")
    variable = "ISSN" if _ISSN_SHAPE.match(text) else "ISBN" if len(digits) in (10, 13) and (
        digits[:-1].isdigit()) else "number"
    fields.setdefault(variable, text)


def _records_of(root: Any, source: str, diagnostics: Diagnostics, with_residue: bool = True
                ) -> Iterator[Record]:
    if local_name(root) not in ("Sources", "Source"):
        raise ParseError("not a Word bibliography: the root element is not b:Sources", source,
                         root.sourceline)
    items = [root] if local_name(root) == "Source" else [
        e for e in root if local_name(e) == "Source"]
    for number, item in enumerate(items, start=1):
        try:
            yield record_of(item, source, number, diagnostics, with_residue)
        except ValueError as exc:
            diagnostics.error(f"source skipped: {exc}", source, item.sourceline or 1)


# -- writing ------------------------------------------------------------------------------------
def _values(record: Record) -> list[tuple[str, str]]:
    fields = {v: plain(value) for v, value in record.fields.items()}
    source_type = t.SOURCE_TYPES.get(record.type, t.FALLBACK_SOURCE_TYPE)
    values = [(t.SOURCE_TYPE, source_type)]
    if record.citation_key:
        values.append((t.TAG, record.citation_key))
    values += [(e, fields[v]) for v, e in t.FIELDS.items() if v in fields]
    if (locale := _LOCALE_OF.get(fields.get("language", "").lower())) is not None:
        values.append((t.LANGUAGE, locale))
    if "container-title" in fields:
        values.append((t.CONTAINER_ELEMENTS.get(source_type, "BookTitle"),
                       fields["container-title"]))
    identifier = fields.get("ISBN") or fields.get("ISSN")
    if identifier is not None and "number" not in fields:
        values.append(("StandardNumber", identifier))
    for variable, (year, month, day) in t.DATE_ELEMENTS.items():
        date = record.dates.get(variable)
        if date is None or date.start is None:
            continue
        values.append((year, str(date.start.year)))
        if date.start.month:
            values.append((month, MONTH_NAMES[date.start.month - 1]))
        if date.start.day:
            values.append((day, str(date.start.day)))
    return values


def source_element(record: Record, note: str | None = None) -> Any:
    """The ``b:Source`` of ``record``'s native Word fields (plus ``note``, the residue)."""
    from lxml import etree

    element = etree.Element(_q("Source"), nsmap={"b": t.NAMESPACE})
    values = _values(record)
    comments = [record.get("note") or ""] if not looks_like_residue(
        record.get("note") or "") else []
    comments = [c for c in comments + ([note] if note else []) if c]
    if comments:
        values.append((t.NOTE, "\n".join(comments)))
    people = [(role, record.names[role]) for role in t.ROLES if role in record.names]
    for name, value in sorted(values + ([("Author", "")] if people else []),
                              key=lambda pair: _ORDER.get(pair[0], len(_ORDER))):
        child = etree.SubElement(element, _q(name))
        if name != "Author":
            child.text = xml_text(value)
            continue
        for role, names in people:
            holder = etree.SubElement(child, _q(t.ROLES[role]))
            corporate = [n for n in names if n.literal is not None]
            if len(corporate) == 1 and len(names) == 1:
                etree.SubElement(holder, _q("Corporate")).text = xml_text(corporate[0].literal
                                                                          or "")
                continue
            name_list = etree.SubElement(holder, _q("NameList"))
            for person in names:
                entry = etree.SubElement(name_list, _q("Person"))
                last = person.literal or " ".join(
                    p for p in (person.non_dropping_particle, person.family) if p)
                first = " ".join(p for p in (person.given, person.dropping_particle) if p)
                if last:
                    etree.SubElement(entry, _q("Last")).text = xml_text(last)
                if first:
                    etree.SubElement(entry, _q("First")).text = xml_text(first)
    return element


def record_source(record: Record) -> Any:
    """The ``b:Source`` of ``record``, with a residue line in Comments when Word loses
    something."""
    from lxml import etree

    written = etree.fromstring(etree.tostring(source_element(record)))
    (native,) = _records_of(written, "<word>", Diagnostics(), with_residue=False)
    return source_element(record, residue_note(record, native))


class WordReader(catalogue.CatalogueReader):
    name = "word-xml"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        root = parse_xml(stream.read(), source, "Word bibliography", diagnostics)
        return _records_of(root, source, diagnostics)


class WordWriter:
    name = "word-xml"
    description = catalogue.WRITERS["word-xml"].description
    extension = catalogue.WRITERS["word-xml"].extension
    key_unsafe = XML_KEY_UNSAFE  #: XML 1.0's forbidden characters

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        from lxml import etree

        out.write('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                  f'<b:Sources xmlns:b="{t.NAMESPACE}" xmlns="{t.NAMESPACE}" '
                  'SelectedStyle="" Version="6">\n')
        for record in records:
            element = record_source(select(record, options, {}))
            etree.indent(element, space=options.indent or "  ")
            text = etree.tostring(element, encoding="unicode")
            out.write(text.replace(f' xmlns:b="{t.NAMESPACE}"', "", 1) + "\n")
        out.write("</b:Sources>\n")


def _coverage() -> Coverage:
    native = {
        "type": "b:SourceType", "citation-key": "b:Tag", "note": "b:Comments",
        "container-title": "b:JournalName / b:BookTitle / … (per source type)",
        "ISBN": "b:StandardNumber", "ISSN": "b:StandardNumber",
        "issued": "b:Year + b:Month + b:Day",
        "accessed": "b:YearAccessed + b:MonthAccessed + b:DayAccessed",
        **{v: f"b:{e}" for v, e in t.FIELDS.items()},
        **{r: f"b:Author/b:{e}" for r, e in t.ROLES.items()},
    }
    note = f"b:Comments `{RESIDUE_LABEL}: {{CSL-JSON}}`"
    return Coverage(
        format="word-xml",
        native=native,
        elsewhere={part: note for part in MODEL_PARTS if part not in native},
        notes=(
            (f"{len(t.SOURCE_TYPES)} CSL types have a Word source type; the others are "
             "written as `Misc` and the CSL type travels in the residue."),
            ("Names are `b:Last` and `b:First`: particles are merged into them and split off "
             "again by the particle table; suffixes travel in the residue."),
            "Word has no abstract or keywords: they travel in the residue.",
        ),
    )


READER = WordReader()
WRITER = WordWriter()
COVERAGE = _coverage()
