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
fields and written back. Tags whose meaning depends on the reference type (``BT``, ``T2``,
``C3``, ``M3``) are read by ``ris_tables.TYPED_TAGS``, ``SN`` by the shape of its numbers;
every title tag (``TI``, ``T1``, ``CT``) is read, a second one kept as its extra. An eprint
gets a human note ``N1  - arXiv:ID [class]``, and a preprint
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

from refbridge.citekeys import LINE_KEY_UNSAFE
from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.csl_markup import from_markup
from refbridge.formats.csljson import SEASON_NAMES, apply_residue, residue
from refbridge.formats.datetext import DateReading, not_understood_message, read_date
from refbridge.formats.residue import RESIDUE_LABEL, RESIDUE_PREFIX, dump, note_residue
from refbridge.formats.tagged import ris_tables as t
from refbridge.formats.tagged.records import TaggedWriter, one_line
from refbridge.formats.zotero.extra import key_and_fields
from refbridge.identifiers import clean_doi, doi_of
from refbridge.model import SEASONS, Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names.reading import name_from_fields
from refbridge.richtext import Text, plain
from refbridge.textlines import lines
from refbridge.vocab import VERBATIM_VARIABLES

TAG_LINE = re.compile(r"^(?P<tag>[A-Z][A-Z0-9]) {1,2}-(?: (?P<value>.*))?$")
_DATE = re.compile(r"^(?P<y>-?\d{1,4})?(?:/(?P<m>\d{0,2})(?:/(?P<d>\d{0,2})(?:/(?P<other>.*))?)?)?$")
_BRACKETED = re.compile(r"^(?P<value>\S+?)\s*\[(?P<kind>[A-Za-z]+)\]$")
_ISSN = re.compile(r"^\d{4}-?\d{3}[\dXx]$")
#: What separates the numbers of one ``SN`` and what qualifies one (``(Print)``).
_SN_SEPARATORS = re.compile(r"[\s,;]+")
_SN_QUALIFIER = re.compile(r"\([^()]*\)")
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
#: Variables whose lines are kept; in the others a line break (a title wrapped onto a
#: continuation line) is a space.
_PROSE_VARIABLES: frozenset[str] = frozenset({"abstract", "note", "annote"})


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


def _says_more(date: Date, than: Date) -> bool:
    """Whether ``date`` says all that ``than`` says and more (a month, a day, a season, an
    end)."""
    if date.start is None or than.start is None or than.end is not None and date.end is None \
            or than.season is not None and date.season != than.season:
        return False
    parts, other = date.start.as_list(), than.start.as_list()
    return parts[:len(other)] == other and (len(parts) > len(other)
                                            or date.end is not None and than.end is None
                                            or date.season is not None and than.season is None)


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
def variables_of(tag: str, record_type: str) -> tuple[str, ...]:
    """The variables an RIS tag may fill in a record of ``record_type``, the first still free
    winning (none: the value is kept as an ``ris.XX`` extra)."""
    typed = t.TYPED_TAGS.get(tag)
    if typed is not None:
        found = typed.get(record_type, typed.get(t.ANY_TYPE))
        if found is not None:
            return found
    variable = _FIELD_OF_TAG.get(tag)
    return (variable,) if variable else ()


def role_of(tag: str, record_type: str) -> str | None:
    """The CSL role a name tag gives in a record of ``record_type`` (None: the tag names no
    person of a role CSL has in that type)."""
    typed = t.TYPED_NAME_TAGS.get(tag)
    if typed is None:
        return _ROLE_OF_TAG[tag]
    return typed.get(record_type, typed.get(t.ANY_TYPE))


def tag_of_role(role: str, record_type: str) -> str | None:
    """The tag refbridge writes a ``role`` of a record of ``record_type`` with: the first that
    reads back as that role (None: the residue note carries those names)."""
    tags = (*t.NAME_TAGS.values(), *t.NAME_TAG_ALIASES)
    return next((tag for tag in tags if role_of(tag, record_type) == role
                 and record_type not in t.NAME_TAG_VARIABLES.get(tag, {})), None)


def _bracketed_identifier(tag: str, value: str) -> tuple[str, str] | None:
    """The variable and identifier of a user tag's ``26957754[pmid]`` (PubMed's RIS), if its
    kind is one ``BRACKETED_IDENTIFIERS`` knows."""
    match = _BRACKETED.match(value) if tag in t.USER_TAGS else None
    variable = t.BRACKETED_IDENTIFIERS.get(match["kind"].lower()) if match else None
    return (variable, match["value"]) if variable and match else None


def _is_isbn(token: str) -> bool:
    digits = token.replace("-", "")
    return (len(digits) == 10 and digits[:9].isdigit() and (digits[9].isdigit()
                                                           or digits[9] in "Xx")) or (
        len(digits) == 13 and digits.isdigit())


def identifier_kind(value: str, record_type: str) -> str:
    """What an ``SN`` holds: ``ISSN`` or ``ISBN`` by the shape of every number in it
    (``1528-1159 0362-2436``; ``(Print)`` and the like aside), else by the record's type (a
    report's or patent's other ``SN`` is its number)."""
    tokens = _SN_SEPARATORS.split(_SN_QUALIFIER.sub(" ", value).strip())
    if all(_ISSN.match(token) for token in tokens):
        return "ISSN"
    if all(_is_isbn(token) for token in tokens):
        return "ISBN"
    if record_type in t.SN_NUMBER_TYPES:
        return "number"
    return "ISSN" if record_type in t.ISSN_TYPES else "ISBN"


def _in_reading_order(tags: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """The tags with ``FIRST_TAGS`` moved to the front, in that order (the others in
    theirs)."""
    rank = {tag: i for i, tag in enumerate(t.FIRST_TAGS)}
    return sorted(tags, key=lambda entry: rank.get(entry[0], len(rank)))


@dataclass(slots=True)
class _Values:
    """The text values of a record being read, and the extras of those that found no
    variable."""

    record_type: str
    fields: dict[str, Text] = field(default_factory=dict)
    extra: dict[str, list[str]] = field(default_factory=dict)
    short_from: str | None = None  #: the tag that gave the abbreviated periodical name

    def keep(self, tag: str, value: str) -> None:
        self.extra.setdefault(f"ris.{tag}", []).append(value)

    def add(self, tag: str, value: str) -> None:
        """``value`` in the first free variable ``tag`` may fill, else an extra."""
        self.add_to(tag, variables_of(tag, self.record_type), value)

    def add_to(self, tag: str, candidates: tuple[str, ...] | str, value: str) -> None:
        """``value`` in the first free variable of ``candidates``, else an extra."""
        if isinstance(candidates, str):
            candidates = (candidates,)
        if any(plain(self.fields.get(v, "")) == value for v in candidates):
            return  # the same value again (a journal as T2 and as JF)
        for variable in candidates:
            if variable not in self.fields:
                if variable not in _PROSE_VARIABLES:
                    value = one_line(value)
                self.fields[variable] = value if variable in _PLAIN_VARIABLES \
                    else from_markup(value)
                if variable == "container-title-short":
                    self.short_from = tag
                return
        doi = doi_of(value) if tag == "M3" else None  # EndNote writes DOIs in M3
        if doi is None or self.fields.setdefault("DOI", doi) != doi:
            self.keep(tag, value)

    def add_identifier(self, tag: str, value: str) -> None:
        """An ``SN``: ISSNs and ISBNs of several lines are all kept, one after the other."""
        variable = identifier_kind(value, self.record_type)
        if variable not in self.fields:
            self.fields[variable] = value
        elif variable != "number":
            self.fields[variable] = f"{plain(self.fields[variable])}, {value}"
        else:
            self.keep(tag, value)

    def complete(self) -> None:
        """An abbreviation that stands in for a missing periodical name is that name too; a
        journal article's ``M1`` without an ``IS`` is its issue."""
        if (self.record_type in t.M1_ISSUE_TYPES and "issue" not in self.fields
                and "number" in self.fields):
            self.fields["issue"] = self.fields.pop("number")
        if "container-title" not in self.fields and self.short_from in t.TITLE_STAND_INS:
            self.fields["container-title"] = self.fields["container-title-short"]


def record_from_draft(draft: _Draft, source: str, number: int, diagnostics: Diagnostics,
            with_residue: bool = True) -> Record:
    """The record of one draft; raises ``ValueError`` for a record that cannot be built."""
    names: dict[str, list[Name]] = {}
    dates: dict[str, Date] = {}
    keywords: list[str] = []
    notes: list[str] = []
    residues: list[dict[str, Any]] = []
    eprint: Eprint | None = None
    key: str | None = None
    pages: dict[str, str] = {}
    years: list[tuple[str, str, Date]] = []
    given_year = _year_tag_year(draft.tags)
    values = _Values("document")
    reference_type = ""
    extra, fields = values.extra, values.fields
    for tag, raw, line in _in_reading_order(draft.tags):
        value = raw.strip()
        if not value:
            continue
        if tag == t.TYPE_TAG:
            known = t.TY_TO_TYPE.get(value.upper())
            if known is None:
                diagnostics.warning(f"unknown RIS type {value!r}, read as a generic document",
                                    source, line)
                extra.setdefault("ris.TY", []).append(value)
            values.record_type = known or "document"
            reference_type = value.upper()
        elif (variable := t.NAME_TAG_VARIABLES.get(tag, {}).get(values.record_type)):
            values.add_to(tag, variable, value)
        elif tag in _ROLE_OF_TAG:
            role = t.TY_NAME_ROLES.get(reference_type, {}).get(tag) or role_of(
                tag, values.record_type)
            if role is None:
                values.keep(tag, value)
                continue
            try:
                person = parse_name(value)
            except ModelError:
                diagnostics.warning(f"{tag}: {value!r} is no name; kept as written",
                                    source, line)
                person = Name(literal=value)
            names.setdefault(role, []).append(person)
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
            values.add_identifier(tag, value)
        elif (identifier := _bracketed_identifier(tag, value)) and identifier[0] not in fields:
            fields[identifier[0]] = identifier[1]
        elif tag == t.DOI_TAG:
            values.add(tag, clean_doi(value))
        elif tag == t.NOTE_TAG:
            if (found := note_residue(value, source, line, diagnostics)) is not None:
                residues.append(found)
            elif (match := _EPRINT_NOTE.match(value)) and eprint is None:
                classes = (match["classes"] or "").split()
                eprint = Eprint(match["archive"], match["id"], classes[0] if classes else None)
            elif (kept := key_and_fields(value)) is not None:  # Zotero's Extra as a note
                key = key or kept[0]
                for name, text in kept[1].items():
                    extra.setdefault(name, []).append(text)
            else:
                notes.append(value)
        else:
            values.add(tag, value)
    values.complete()
    for tag, value, date in years:
        issued = dates.get("issued")
        if issued is None or issued.year == date.year and _says_more(date, issued):
            dates["issued"] = date  # IEEE's ``Y1 - 16-18 Oct. 2014`` beside ``PY - 2014``
        elif issued.year != date.year or not _says_more(issued, date) and date != issued:
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
        type=values.record_type,
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
        def warn(message: str) -> None:
            diagnostics.warning(f"record {record.id!r}: {message}", source, draft.line)

        for difference in residues:
            record = apply_residue(record, difference, record.source, warn)
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


class RisReader(catalogue.CatalogueReader):
    name = "ris"

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
    read_as = t.TY_TO_TYPE[tags[0][1]]  # the type the record reads back as
    for role, people in record.names.items():
        if (tag := tag_of_role(role, read_as) or _author_tag(role, read_as, record)):
            tags += [(tag, format_name(n)) for n in people]
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
    tags += [(tag, fields[v]) for v, tag in t.FIELD_TAGS.items()
             if v in fields and v in variables_of(tag, read_as)]  # else: the residue
    tags += [(t.KEYWORD_TAG, k) for k in record.keywords]
    if record.eprint is not None:
        tags.append((t.NOTE_TAG, format_eprint(record.eprint)))
        for variable in ("archive", "publisher") if record.is_preprint else ():
            if variable not in fields:
                tags.append((t.FIELD_TAGS[variable], record.eprint.archive))
    for key, value in record.extra_for("ris"):
        if key not in (t.TYPE_TAG, t.END_TAG) and TAG_LINE.match(f"{key}  - "):
            tags += [(key, line) for line in lines(value)]
    order = {tag: i for i, tag in enumerate(t.TAG_ORDER)}
    return sorted(tags, key=lambda pair: order.get(pair[0], len(order)))


def _author_tag(role: str, record_type: str, record: Record) -> str | None:
    """``AU`` for the authors of a type whose ``AU`` means another role (a broadcast's
    director, a score's composer) the record does not have: every program shows ``AU`` as the
    authors; the residue note tells refbridge they are authors."""
    other = role_of(t.NAME_TAGS["author"], record_type)
    if role == "author" and other is not None and other not in record.names:
        return t.NAME_TAGS["author"]
    return None


def _reads_as_special_note(note: str) -> bool:
    return note.startswith(RESIDUE_PREFIX) or _EPRINT_NOTE.match(note) is not None \
        or key_and_fields(note) is not None


def _value_lines(value: str) -> list[str]:
    """A value as RIS lines: continuation lines that would read as a tag get a leading space."""
    first, *rest = lines(value)
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



def _typed_roles() -> list[str]:
    """Every role a name tag gives in some type."""
    roles = {role for typed in t.TYPED_NAME_TAGS.values() for role in typed.values() if role}
    return sorted(roles | set(t.NAME_TAGS) | set(t.NAME_TAG_ALIASES.values()))


def _role_tags(role: str) -> str:
    """The tags that give ``role``, and in which types (for the coverage table)."""
    parts: list[str] = []
    for tag in (*t.NAME_TAGS.values(), "ED"):
        typed = t.TYPED_NAME_TAGS.get(tag, {t.ANY_TYPE: _ROLE_OF_TAG[tag]})
        if typed.get(t.ANY_TYPE) == role:
            others = sorted(k for k, v in typed.items() if v != role)
            parts.append(tag + (f" (not in {', '.join(others)})" if others else ""))
        elif types := sorted(k for k, v in typed.items() if v == role):
            parts.append(f"{tag} in {', '.join(types)}")
    return "; ".join(parts)


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
        **t.FIELD_TAGS, "editor": _role_tags("editor"),
        "issued": f"{t.YEAR_TAG} + {t.DATE_TAGS['issued']}", "accessed": t.DATE_TAGS["accessed"],
    }
    # a tag that means the variable in some types only is native in none
    typed = {variable: tag for variable, tag in t.FIELD_TAGS.items()
             if any(variable not in variables for variables in t.TYPED_TAGS.get(tag, {}).values())}
    for variable in typed:
        del native[variable]
    note = f"{t.NOTE_TAG} `{RESIDUE_LABEL}: {{CSL-JSON}}`"
    elsewhere = {part: note for part in MODEL_PARTS if part not in native}
    for variable, tag in typed.items():
        types = sorted(k for k, v in t.TYPED_TAGS[tag].items() if variable in v)
        elsewhere[variable] = f"{tag} in {', '.join(types)}; else {note}"
    for role in _typed_roles():
        if role not in native:
            elsewhere[role] = f"{_role_tags(role)}; else {note}"
    return Coverage(
        format="ris",
        native=native,
        elsewhere=elsewhere,
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
WRITER = TaggedWriter("ris", catalogue.WRITERS["ris"].description,
                      catalogue.WRITERS["ris"].extension, format_record, TAG_PARTS,
                      key_unsafe=LINE_KEY_UNSAFE)
COVERAGE = _coverage()
