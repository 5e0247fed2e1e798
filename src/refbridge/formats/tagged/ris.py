"""RIS reader and writer (``TY  - `` ... ``ER  - ``), as Zotero, EndNote and Mendeley use it.

Why not rispy: measured with rispy 0.10.0 on ``BOM + two records, the last without ER, a UR with a
semicolon``, it returned no record at all (the BOM hides the first ``TY``), dropped the record
without ``ER`` and split the URL at ``;``; it also gives no line numbers, which error messages
need. Wrapping it would mean re-parsing the text to repair each loss, so this is a small reader
driven by the tables in ``ris_tables``: a line is ``XX  - value`` (lenient about the spaces), a
line without a tag continues the previous value, ``TY`` starts a record and ``ER`` ends it (a
record cut off by the next ``TY`` or by the end of the file is kept, with a warning).

Names are ``Family, Given, Suffix``; dates ``YYYY/MM/DD/other`` in ``DA`` (``PY`` holds the
year); pages ``SP``/``EP``; keywords one per ``KW``; unknown tags are kept as ``ris.XX`` extra
fields and written back. An eprint gets a human note ``N1  - arXiv:ID [class]``, and a preprint
also ``DB``/``PB`` ``arXiv``, which Zotero and others import (a published paper's publisher is
not arXiv). What RIS cannot hold (CSL types without an RIS type, name particles that do not
survive ``Family, Given``, date ranges, other roles and variables) goes into one note
``N1  - refbridge: {CSL-JSON}`` (see ``formats.residue``), so reading refbridge's own RIS gives
back the record that was written.

This module must never drop a record or a value silently: problems go to ``Diagnostics``
with the file and line.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics
from refbridge.formats.csl_markup import from_markup
from refbridge.formats.csljson import SEASON_NAMES
from refbridge.formats.datetext import DateReading, not_understood_message, read_date
from refbridge.formats.residue import (
    RESIDUE_LABEL,
    RESIDUE_PREFIX,
    apply_residue,
    dump,
    note_residue,
    residue,
)
from refbridge.formats.tagged import ris_tables as t
from refbridge.formats.tagged.records import TaggedWriter
from refbridge.model import SEASONS, Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names.reading import name_from_fields
from refbridge.richtext import Text, plain
from refbridge.vocab import VERBATIM_VARIABLES

TAG_LINE = re.compile(r"^(?P<tag>[A-Z][A-Z0-9]) {1,2}-(?: (?P<value>.*))?$")
_DATE = re.compile(r"^(?P<y>-?\d{1,4})?(?:/(?P<m>\d{0,2})(?:/(?P<d>\d{0,2})(?:/(?P<other>.*))?)?)?$")
_ISSN = re.compile(r"^\d{4}-?\d{3}[\dXx]$")
#: What separates the first and last page of a range: hyphens (``1-20``, BibTeX's ``1--20``)
#: or a dash (``1–20``), with or without spaces.
_PAGE_RANGE = re.compile(r"\s*(?:-+|\u2013|\u2014)\s*")
_EPRINT_NOTE = re.compile(
    r"^(?P<archive>arXiv)(?::(?P<id>\S+))?(?: \[(?P<classes>[^\]\s]+(?: [^\]\s]+)*)\])?$")
YEAR_ONLY_TAGS = frozenset({t.YEAR_TAG, "Y1"})
_YEAR_START = re.compile(r"^(\d{4})(?!\d)")

_FIELD_OF_TAG = {tag: var for var, tag in t.FIELD_TAGS.items()} | t.FIELD_TAG_ALIASES
_ROLE_OF_TAG = {tag: role for role, tag in t.NAME_TAGS.items()} | t.NAME_TAG_ALIASES
_DATE_OF_TAG = {tag: var for var, tag in t.DATE_TAGS.items()} | t.DATE_TAG_ALIASES
#: RIS tags as names for ``--fields`` / ``--exclude-fields`` -> the model part each writes.
TAG_PARTS: dict[str, str] = {
    **_FIELD_OF_TAG, **_ROLE_OF_TAG, **_DATE_OF_TAG, t.KEYWORD_TAG: "keywords",
    t.START_PAGE_TAG: "page", t.END_PAGE_TAG: "page"}


@dataclass(slots=True)
class _Draft:
    """The tag lines of one record, as read."""

    line: int
    read_tags: list[tuple[str, str, int]] = field(default_factory=list)  #: (tag, value, line)
    #: lines continuing the last value, joined to it when the tags are read (joining line by
    #: line made a value of n lines cost n² time)
    continued: list[str] = field(default_factory=list)

    @property
    def tags(self) -> list[tuple[str, str, int]]:
        if self.continued:
            tag, value, line = self.read_tags[-1]
            self.read_tags[-1] = (tag, "\n".join((value, *self.continued)), line)
            self.continued.clear()
        return self.read_tags

    def add(self, tag: str, value: str, line: int) -> None:
        self.tags.append((tag, value, line))

    def continue_value(self, text: str) -> None:
        self.continued.append(text)


# -- values ---------------------------------------------------------------------------------
#: Variables read as they are written: identifiers, and notes (which hold residues).
_PLAIN_VARIABLES: frozenset[str] = VERBATIM_VARIABLES | {"note"}


def parse_name(text: str) -> Name:
    """``Family, Given, Suffix`` (particles split off); a name without a comma is corporate."""
    if "," not in text:
        return Name(literal=text)
    family, _, rest = (p.strip() for p in text.partition(","))
    given, _, suffix = (p.strip() for p in rest.partition(","))
    return name_from_fields(family, given, suffix)


def format_name(name: Name) -> str:
    if name.literal is not None:
        return name.literal
    family = " ".join(p for p in (name.non_dropping_particle, name.family) if p)
    given = " ".join(p for p in (name.given, name.dropping_particle) if p)
    parts = [family, given, name.suffix or ""]
    while parts and not parts[-1]:
        parts.pop()
    # a family name alone keeps its comma: without one, a name is corporate
    return ", ".join(parts) + ("," if len(parts) == 1 else "")


def parse_date(text: str) -> Date:
    """``YYYY``, ``YYYY/MM/DD/other`` (parts may be empty), or a date as people write it
    (``2015-10-05``, ``October 2015``); anything else is a literal date."""
    return read_ris_date(text).date or Date(literal=text.strip())


def read_ris_date(text: str, year: int | None = None) -> DateReading:
    """What an RIS date tag says: ``YYYY/MM/DD/other`` (other a season, a literal, or the
    year again as EBSCO writes it: ``2020/01/01/2020``), else whatever the free-text date
    reader reads, completed by ``year`` (the ``PY`` of a ``DA - MAY 6``)."""
    match = _DATE.match(text.strip())
    if match is None or not (match["y"] or match["other"]):
        return read_date(text, year=year)
    other = (match["other"] or "").strip()
    if other == match["y"]:
        other = ""
    season = SEASON_NAMES.get(other.lower())
    literal = other if other and season is None else None
    if not match["y"]:
        return DateReading(Date(literal=other, season=season) if other
                           else Date(literal=text.strip()))
    month = int(match["m"]) if match["m"] else None
    day = int(match["d"]) if match["d"] and month else None
    return DateReading(Date(start=DateParts(int(match["y"]), month, day), season=season,
                            literal=literal))


def _year_tag_year(tags: Iterable[tuple[str, str, int]]) -> int | None:
    """The year a record's ``PY``/``Y1`` gives, for a ``DA`` that names none."""
    for tag, value, _ in tags:
        if tag in YEAR_ONLY_TAGS and (found := _YEAR_START.match(value.strip())):
            return int(found[1]) or None
    return None


def format_date(date: Date) -> str:
    other = date.literal or (SEASONS[date.season - 1].capitalize() if date.season else "")
    if date.start is None:
        return f"///{other}"
    start = date.start
    parts = [f"{start.year:04d}" if start.year > 0 else str(start.year),
             f"{start.month:02d}" if start.month else "", f"{start.day:02d}" if start.day else ""]
    return "/".join(parts) + "/" + other


def format_eprint(eprint: Eprint) -> str:
    text = eprint.archive + (f":{eprint.identifier}" if eprint.identifier else "")
    return text + (f" [{eprint.primary_class}]" if eprint.primary_class else "")


# -- tags -> record -------------------------------------------------------------------------
def record_from_draft(draft: _Draft, source: str, number: int, diagnostics: Diagnostics,
            with_residue: bool = True) -> Record:
    """The record of one draft; raises ``ValueError`` for a record that cannot be built."""
    fields: dict[str, Text] = {}
    names: dict[str, list[Name]] = {}
    dates: dict[str, Date] = {}
    keywords: list[str] = []
    extra: dict[str, list[str]] = {}
    notes: list[str] = []
    residues: list[dict[str, Any]] = []
    eprint: Eprint | None = None
    key: str | None = None
    pages: dict[str, str] = {}
    years: list[tuple[str, str, Date]] = []
    given_year = _year_tag_year(draft.tags)
    record_type = "document"
    for tag, raw, line in draft.tags:
        value = raw.strip()
        if not value:
            continue
        if tag == t.TYPE_TAG:
            known = t.TY_TO_TYPE.get(value.upper())
            if known is None:
                diagnostics.warning(f"unknown RIS type {value!r}, read as a generic document",
                                    source, line)
                extra.setdefault("ris.TY", []).append(value)
            record_type = known or "document"
        elif tag in _ROLE_OF_TAG:
            try:
                person = parse_name(value)
            except ModelError:
                diagnostics.warning(f"{tag}: {value!r} is no name; kept as written",
                                    source, line)
                person = Name(literal=value)
            names.setdefault(_ROLE_OF_TAG[tag], []).append(person)
        elif tag in _DATE_OF_TAG:
            variable = _DATE_OF_TAG[tag]
            try:
                reading = read_ris_date(value, given_year)
                date = reading.date or Date(literal=value)
                if reading.not_understood:
                    diagnostics.warning(not_understood_message(tag, value), source, line)
            except ModelError as exc:
                diagnostics.warning(f"{tag}: {exc}; kept as written", source, line)
                date = Date(literal=value)
            if tag in YEAR_ONLY_TAGS:
                years.append((tag, value, date))
            elif variable in dates:
                extra.setdefault(f"ris.{tag}", []).append(value)
            else:
                dates[variable] = date
        elif tag == t.KEYWORD_TAG:
            keywords.extend(k for k in (part.strip() for part in value.split("\n")) if k)
        elif tag == t.KEY_TAG:
            key = value
        elif tag in (t.START_PAGE_TAG, t.END_PAGE_TAG):
            pages[tag] = value
        elif tag == t.ISBN_ISSN_TAG:
            fields.setdefault("ISSN" if _ISSN.match(value) else "ISBN", value)
        elif tag == t.NOTE_TAG:
            if (found := note_residue(value, source, line, diagnostics)) is not None:
                residues.append(found)
            elif (match := _EPRINT_NOTE.match(value)) and eprint is None:
                classes = (match["classes"] or "").split()
                eprint = Eprint(match["archive"], match["id"], classes[0] if classes else None)
            else:
                notes.append(value)
        elif tag in _FIELD_OF_TAG and _FIELD_OF_TAG[tag] not in fields:
            variable = _FIELD_OF_TAG[tag]
            fields[variable] = value if variable in _PLAIN_VARIABLES else from_markup(value)
        else:
            extra.setdefault(f"ris.{tag}", []).append(value)
    for tag, value, date in years:
        if "issued" not in dates:
            dates["issued"] = date
        elif dates["issued"].year != date.year:
            extra.setdefault(f"ris.{tag}", []).append(value)
    if notes:
        fields["note"] = "\n".join(notes)
    if pages:
        fields["page"] = "-".join(p for p in (pages.get("SP"), pages.get("EP")) if p)
    if eprint is not None:
        for variable in ("archive", "publisher"):
            if variable in fields and plain(fields[variable]) == eprint.archive:
                del fields[variable]
    record = Record(
        id=key or f"ris{number}",
        type=record_type,
        fields=fields,
        names={role: tuple(people) for role, people in names.items()},
        dates=dates,
        keywords=tuple(keywords),
        eprint=eprint,
        citation_key=key,
        extra={k: "\n".join(v) for k, v in extra.items()},
        source=Source(source, draft.line),
    )
    if with_residue:
        for difference in residues:
            record = apply_residue(record, difference, record.source)
    return record


def read_drafts(stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[_Draft]:
    """The records of an RIS text as tag lists, with problems reported by line."""
    draft: _Draft | None = None
    for number, raw in enumerate(stream, start=1):
        line = raw.rstrip("\r\n")
        if number == 1:
            line = line.lstrip("\ufeff")
        match = TAG_LINE.match(line)
        if match is None:
            if draft is not None and draft.read_tags:
                draft.continue_value(line)
            elif line.strip():
                diagnostics.warning(f"text outside a record (expected 'TY  - '): "
                                    f"{line.strip()[:40]!r}", source, number)
            continue
        tag, value = match["tag"], match["value"] or ""
        if tag == t.TYPE_TAG:
            if draft is not None:
                diagnostics.warning(f"the record of line {draft.line} has no 'ER  -' line; "
                                    "it ends here", source, number)
                yield draft
            draft = _Draft(number)
            draft.add(tag, value, number)
        elif draft is None:
            diagnostics.warning(f"tag {tag} outside a record (expected 'TY  - ' first)",
                                source, number)
        elif tag == t.END_TAG:
            yield draft
            draft = None
        else:
            draft.add(tag, value, number)
    if draft is not None:
        diagnostics.warning(f"the record of line {draft.line} has no 'ER  -' line; "
                            "it ends at the end of the file", source, draft.line)
        yield draft


class RisReader:
    name = "ris"
    description = "RIS (Zotero, EndNote, Mendeley, publishers' exports)"
    extensions = (".ris",)

    def sniff(self, head: str) -> bool:
        for line in head.splitlines():
            if line.strip():
                return re.match(r"^TY {1,2}- ", line.lstrip("\ufeff")) is not None
        return False

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        for number, draft in enumerate(read_drafts(stream, source, diagnostics), start=1):
            try:
                yield record_from_draft(draft, source, number, diagnostics)
            except ValueError as exc:
                diagnostics.error(f"record skipped: {exc}", source, draft.line)


# -- record -> tags -------------------------------------------------------------------------
def _native_tags(record: Record) -> list[tuple[str, str]]:
    """The tags RIS's own syntax gives ``record`` (before the residue note)."""
    tags: list[tuple[str, str]] = [(t.TYPE_TAG, t.TYPE_TO_TY.get(record.type, t.FALLBACK_TY))]
    if record.citation_key:
        tags.append((t.KEY_TAG, record.citation_key))
    fields = {variable: plain(value) for variable, value in record.fields.items()}
    for role, tag in t.NAME_TAGS.items():
        tags += [(tag, format_name(n)) for n in record.names.get(role, ())]
    issued = record.dates.get("issued")
    if issued is not None and issued.year is not None:
        tags.append((t.YEAR_TAG, f"{issued.year:04d}" if issued.year > 0 else str(issued.year)))
    for variable, tag in t.DATE_TAGS.items():
        date = record.dates.get(variable)
        if date is not None and not (variable == "issued" and date == Date.of(date.year or 1)):
            tags.append((tag, format_date(date)))
    if "page" in fields:
        first, *last = _PAGE_RANGE.split(fields.pop("page"), maxsplit=1)
        tags += [(t.START_PAGE_TAG, first)] + [(t.END_PAGE_TAG, end) for end in last]
    for variable in ("ISBN", "ISSN"):
        if variable in fields:
            tags.append((t.ISBN_ISSN_TAG, fields.pop(variable)))
    if _reads_as_special_note(fields.get("note", "")):
        del fields["note"]  # it would read back as a residue or an eprint: residue keeps it
    tags += [(tag, fields[v]) for v, tag in t.FIELD_TAGS.items() if v in fields]
    tags += [(t.KEYWORD_TAG, k) for k in record.keywords]
    if record.eprint is not None:
        tags.append((t.NOTE_TAG, format_eprint(record.eprint)))
        for variable in ("archive", "publisher") if record.is_preprint else ():
            if variable not in fields:
                tags.append((t.FIELD_TAGS[variable], record.eprint.archive))
    for key, value in record.extra_for("ris"):
        if key not in (t.TYPE_TAG, t.END_TAG) and TAG_LINE.match(f"{key}  - "):
            tags += [(key, line) for line in value.split("\n")]
    order = {tag: i for i, tag in enumerate(t.TAG_ORDER)}
    return sorted(tags, key=lambda pair: order.get(pair[0], len(order)))


def _reads_as_special_note(note: str) -> bool:
    return note.startswith(RESIDUE_PREFIX) or _EPRINT_NOTE.match(note) is not None


def _value_lines(value: str) -> list[str]:
    """A value as RIS lines: continuation lines that would read as a tag get a leading space."""
    first, *rest = value.split("\n")
    return [first] + [f" {line}" if TAG_LINE.match(line) else line for line in rest]


def format_tags(tags: Iterable[tuple[str, str]]) -> str:
    lines: list[str] = []
    for tag, value in tags:
        first, *rest = _value_lines(value)
        lines.append(f"{tag}  - {first}")
        lines += rest
    lines.append(f"{t.END_TAG}  - ")
    return "\n".join(lines) + "\n"


def format_record(record: Record) -> str:
    """The RIS text of ``record``, with a residue note when RIS's own tags lose something."""
    tags = _native_tags(record)
    drafts = list(read_drafts(io.StringIO(format_tags(tags)), "<ris>", Diagnostics()))
    native = record_from_draft(drafts[0], "<ris>", 1, Diagnostics(), with_residue=False)
    difference = residue(record, native)
    if difference:
        tags.append((t.NOTE_TAG, RESIDUE_PREFIX + dump(difference)))
    return format_tags(tags)



def _coverage() -> Coverage:
    native = {
        "type": f"{t.TYPE_TAG} ({len(t.TYPE_TO_TY)} CSL types; others as {t.FALLBACK_TY})",
        "citation-key": t.KEY_TAG,
        "keywords": t.KEYWORD_TAG,
        "eprint": f"{t.NOTE_TAG} arXiv:ID [class]; a preprint's DB/PB",
        "extra": "ris.XX extras as tag XX",
        "page": f"{t.START_PAGE_TAG}/{t.END_PAGE_TAG}",
        "ISBN": t.ISBN_ISSN_TAG,
        "ISSN": t.ISBN_ISSN_TAG,
        **t.FIELD_TAGS, **t.NAME_TAGS,
        "issued": f"{t.YEAR_TAG} + {t.DATE_TAGS['issued']}", "accessed": t.DATE_TAGS["accessed"],
    }
    note = f"{t.NOTE_TAG} `{RESIDUE_LABEL}: {{CSL-JSON}}`"
    return Coverage(
        format="ris",
        native=native,
        elsewhere={part: note for part in MODEL_PARTS if part not in native},
        notes=(
            ("Names are `Family, Given, Suffix`: particles are merged into the family and given "
            "names and split off again by the particle table; what that does not give back, "
            "and corporate names with commas, travel in the residue note."),
            ("Dates are `YYYY/MM/DD/other` (other: a season or a literal date); ranges and "
            "circa travel in the residue note."),
            ("Values are lines: a continuation line that would read as a tag is indented by "
            "one space, and the exact value travels in the residue note."),
            ("Cross-listed arXiv categories and eprint archives other than arXiv travel in the "
            "residue note."),
        ),
    )


READER = RisReader()
WRITER = TaggedWriter("ris", "RIS (imports into Zotero, EndNote, Mendeley, citation managers)",
                      ".ris", format_record, TAG_PARTS)
WRITER.coverage = _coverage()  # type: ignore[attr-defined]
