"""MEDLINE / PubMed ``.nbib`` (PubMed: *Send to → Citation manager*), read and written.

A record is a block of tagged lines separated by a blank line: a tag of up to four letters
padded to four columns, ``- ``, the value (``PMID- 31452104``, ``TI  - Title``,
``FAU - Qian, Zhengping``, ``AU  - Qian Z``); continuation lines are indented by six spaces.
``DP`` is the date (``2020 Jan 15``, ``2019 Winter``), ``LID``/``AID`` identifiers with their
kind in brackets (``10.1000/x [doi]``, ``S0-1 [pii]``), ``PT`` the publication types, ``OT``
keywords and ``MH`` MeSH headings (both read as keywords). Full names (``FAU``) are read;
short names (``AU``) only where a record has no full names.

What MEDLINE has no tag for (URLs, most CSL types, name particles, date ranges, other roles
...) is written in a general note ``GN  - refbridge: {CSL-JSON}`` (``formats.residue``), so
reading refbridge's own ``.nbib`` gives back its records. Tags the model has no slot for
(affiliations ``AD``, grants ``GR``, ``MHDA`` ...) are kept as ``nbib.TAG`` extras and written
back. This module must never drop a record or value silently.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, TextIO

from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics
from refbridge.formats.datetext import (
    MONTH_NAMES,
    date_of,
    not_understood_message,
    read_date,
)
from refbridge.formats.residue import (
    RESIDUE_LABEL,
    apply_residues,
    looks_like_residue,
    note_residue,
    residue_note,
)
from refbridge.formats.tagged import medline_tables as t
from refbridge.formats.tagged import ris
from refbridge.formats.tagged.records import (
    TagField,
    TaggedSyntax,
    TaggedWriter,
    one_line,
    read_drafts,
)
from refbridge.model import Date, ModelError, Name, Record, Source
from refbridge.richtext import plain

SYNTAX = TaggedSyntax(
    "MEDLINE", re.compile(r"^(?P<tag>[A-Z][A-Z0-9]{1,3}) *-(?: (?P<value>.*))?$"),
    continuation=re.compile(r"^\s+(?P<value>\S.*)$"))
_FIELD_OF_TAG = {tag: var for var, tag in t.FIELD_TAGS.items()}
_ROLE_OF_TAG = {full: role for role, (full, _) in t.NAME_TAGS.items()}
_ROLE_OF_SHORT = {short: role for role, (_, short) in t.NAME_TAGS.items()}
_IDENTIFIER = re.compile(r"^(?P<value>.+?)\s*\[(?P<kind>[a-z-]+)\]$")
_ISSN = re.compile(r"^(?P<issn>\d{4}-?\d{3}[\dXx])(?:\s*\((?P<kind>[A-Za-z]+)\))?$")
_PROSE_TAGS = frozenset({"AB", "GN"})
_EXTRA_TAG = re.compile(r"^[A-Z][A-Z0-9]{1,3}$")


def parse_date(text: str, extra: dict[str, list[str]],
               warn: Callable[[str], None] | None = None) -> Date:
    """A MEDLINE date (``2020 Jan 15``, ``2019 Winter``, ``1990 Apr``, ``Apr 1990``,
    ``2000 Dec-2001 Jan``: whatever ``refbridge.formats.datetext`` reads); when only its year
    can be read, the whole text is kept in ``extra`` as ``nbib.DP``; when not even that, it is
    a literal date, after ``warn``."""
    reading = read_date(text)
    if reading.understood and reading.date is not None:
        return reading.date
    year, _, _ = text.strip().partition(" ")
    start = date_of(year)
    if start is None:
        if warn is not None:
            warn(not_understood_message(t.DATE_TAG, text))
        return Date(literal=text)
    extra.setdefault(f"nbib.{t.DATE_TAG}", []).append(text)
    return start


#: Seasons as NLM writes them in ``DP`` (spring .. winter).
SEASON_WORDS: tuple[str, ...] = ("Spring", "Summer", "Fall", "Winter")


def format_date(date: Date) -> str | None:
    """``2020 Jan 15``, ``2020 Jan``, ``2020``, ``2019 Winter``; None when MEDLINE's date
    cannot say it (ranges, circa, a literal with parts)."""
    if date.start is None:
        return date.literal
    if date.end is not None or date.circa or date.literal:
        return None
    start = date.start
    text = str(start.year)
    if date.season:
        return f"{text} {SEASON_WORDS[date.season - 1]}"
    if start.month:
        text += f" {MONTH_NAMES[start.month - 1][:3]}"
    return text + (f" {start.day}" if start.day else "")


def _short_name(text: str) -> Name:
    """``Qian Z`` (family, then initials) as a name."""
    family, _, initials = text.rpartition(" ")
    if not family:
        return Name(family=initials)
    return Name(family=family, given=initials)


def _value(field: TagField) -> str:
    if field.tag in _PROSE_TAGS:
        return " ".join(part.strip() for part in field.lines).strip()
    return field.text


def record_of(fields: Iterable[TagField], source: str, line: int, number: int,
              diagnostics: Diagnostics, with_residue: bool = True) -> Record:
    """The record of one MEDLINE record; raises ``ValueError`` when it cannot be built."""
    values: dict[str, str] = {}
    names: dict[str, list[Name]] = {}
    short: dict[str, list[Name]] = {}
    keywords: list[str] = []
    types: list[str] = []
    extra: dict[str, list[str]] = {}
    notes: list[str] = []
    residues: list[dict[str, Any]] = []
    dates: dict[str, Date] = {}
    book_title = ""
    for field in fields:
        tag, text = field.tag, _value(field)
        if not text:
            continue
        if tag in _ROLE_OF_TAG or tag == t.CORPORATE_TAG:
            try:
                person = Name(literal=text) if tag == t.CORPORATE_TAG else ris.parse_name(text)
            except ModelError:
                person = Name(literal=text)
            names.setdefault(_ROLE_OF_TAG.get(tag, "author"), []).append(person)
        elif tag in _ROLE_OF_SHORT:
            short.setdefault(_ROLE_OF_SHORT[tag], []).append(_short_name(text))
        elif tag == t.DATE_TAG and "issued" not in dates:
            dates["issued"] = parse_date(
                text, extra, partial(diagnostics.warning, file=source, line=field.line))
        elif tag == t.TYPE_TAG:
            types.append(text)
        elif tag in (t.KEYWORD_TAG, t.MESH_TAG):
            keywords.append(text)
        elif tag == t.BOOK_TITLE_TAG:
            book_title = text
        elif tag in t.IDENTIFIER_TAGS and (match := _IDENTIFIER.match(text)) \
                and match["kind"] == "doi":
            values.setdefault("DOI", match["value"])
        elif tag == t.NOTE_TAG:
            found = note_residue(text, source, field.line, diagnostics)
            if found is not None:
                residues.append(found)
            else:
                notes.append(text)
        elif tag == "IS" and (issn := _ISSN.match(text)):
            values.setdefault("ISSN", issn["issn"])
        elif tag in _FIELD_OF_TAG and tag != "IS" and _FIELD_OF_TAG[tag] not in values:
            values[_FIELD_OF_TAG[tag]] = text
        elif tag not in t.IDENTIFIER_TAGS or not text.endswith("[doi]"):
            extra.setdefault(f"nbib.{tag}", []).append(text)
    for role, people in short.items():
        names.setdefault(role, people)
    record_type = next((t.PUBLICATION_TYPES[p] for p in t.PUBLICATION_TYPES if p in types),
                       "article-journal" if types or values.get("container-title") else
                       "document")
    if book_title:
        if record_type in ("article-journal", "document"):
            record_type = "chapter"
        values.setdefault("container-title", book_title)
    if notes:
        values["note"] = "\n".join(notes)
    record = Record(
        id=f"pmid{values['PMID']}" if "PMID" in values else f"nbib{number}",
        type=record_type, fields=values,
        names={role: tuple(people) for role, people in names.items()}, dates=dates,
        keywords=tuple(dict.fromkeys(keywords)),
        extra={k: "\n".join(v) for k, v in extra.items()}, source=Source(source, line))
    return apply_residues(record, residues) if with_residue else record


def read_records(stream: TextIO, source: str, diagnostics: Diagnostics,
                 with_residue: bool = True) -> Iterator[Record]:
    for number, draft in enumerate(read_drafts(stream, source, diagnostics, SYNTAX), start=1):
        try:
            yield record_of(draft.fields, source, draft.line, number, diagnostics,
                            with_residue)
        except ValueError as exc:
            diagnostics.error(f"record skipped: {exc}", source, draft.line)


# -- writing ------------------------------------------------------------------------------------
def _short(person: Name) -> str:
    if person.literal is not None:
        return person.literal
    family = " ".join(p for p in (person.non_dropping_particle, person.family) if p)
    initials = "".join(word[0] for word in (person.given or "").replace("-", " ").split())
    return f"{family} {initials}".strip()


def native_tags(record: Record) -> list[tuple[str, str]]:
    fields = {v: plain(value) for v, value in record.fields.items()}
    tags: list[tuple[str, str]] = []
    for role, (full, short) in t.NAME_TAGS.items():
        for person in record.names.get(role, ()):
            if person.literal is not None and role == "author":
                tags.append((t.CORPORATE_TAG, person.literal))
            elif person.literal is None:
                tags += [(full, ris.format_name(person).rstrip(",")), (short, _short(person))]
    issued = record.dates.get("issued")
    if issued is not None and (text := format_date(issued)):
        tags.append((t.DATE_TAG, text))
    tags.append((t.TYPE_TAG, t.TYPE_PUBLICATION.get(record.type, t.FALLBACK_PUBLICATION)))
    if record.type == "chapter" and "container-title" in fields:
        tags.append((t.BOOK_TITLE_TAG, fields.pop("container-title")))
    if "DOI" in fields:
        tags += [("LID", f"{fields['DOI']} [doi]"), ("AID", f"{fields['DOI']} [doi]")]
    if "note" in fields and looks_like_residue(fields["note"]):
        del fields["note"]
    tags += [(tag, fields[v]) for v, tag in t.FIELD_TAGS.items() if v in fields]
    tags += [(t.KEYWORD_TAG, keyword) for keyword in record.keywords]
    for tag, value in record.extra_for("nbib"):
        if _EXTRA_TAG.match(tag) and tag not in (t.DATE_TAG, t.NOTE_TAG):
            tags += [(tag, line) for line in value.split("\n") if line.strip()]
    order = {tag: i for i, tag in enumerate(t.TAG_ORDER)}
    return sorted(tags, key=lambda pair: order.get(pair[0], len(order)))


def format_tags(tags: Iterable[tuple[str, str]]) -> str:
    lines = [f"{tag:<4}- {text}" for tag, value in tags if (text := one_line(value))]
    return "\n".join(lines) + "\n"


def format_record(record: Record) -> str:
    tags = native_tags(record)
    (native,) = read_records(io.StringIO(format_tags(tags)), "<nbib>", Diagnostics(),
                             with_residue=False)
    note = residue_note(record, native)
    return format_tags(tags + ([(t.NOTE_TAG, note)] if note else []))


class NbibReader:
    name = "nbib"
    sniff_first = True
    description = "MEDLINE / PubMed .nbib (PubMed: Send to → Citation manager)"
    extensions = (".nbib", ".medline")

    def sniff(self, head: str) -> bool:
        first = next((line for line in head.splitlines() if line.strip()), "")
        return re.match(r"^PMID- ?\d", first) is not None or (
            SYNTAX.tag_line.match(first) is not None and first[4:6] == "- ")

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        return read_records(stream, source, diagnostics)



#: MEDLINE tags as names for ``--fields`` / ``--exclude-fields``.
TAG_PARTS: dict[str, str] = {
    **_FIELD_OF_TAG, t.KEYWORD_TAG: "keywords", t.DATE_TAG: "issued",
    **{full: role for role, (full, _) in t.NAME_TAGS.items()},
    **{short: role for role, (_, short) in t.NAME_TAGS.items()}}


def _coverage() -> Coverage:
    native = {
        "type": f"{t.TYPE_TAG} ({len(t.TYPE_PUBLICATION)} CSL types)",
        "keywords": t.KEYWORD_TAG, "issued": t.DATE_TAG, "DOI": "LID/AID `… [doi]`",
        "author": "FAU + AU, CN", "editor": "FED + ED", "extra": "nbib.TAG extras as TAG",
        **{v: tag for v, tag in t.FIELD_TAGS.items()},
    }
    note = f"{t.NOTE_TAG} `{RESIDUE_LABEL}: {{CSL-JSON}}`"
    return Coverage(
        format="nbib",
        native=native,
        elsewhere={part: note for part in MODEL_PARTS if part not in native},
        notes=(
            ("Dates are `YYYY Mon DD` or `YYYY Season`; ranges and circa travel in the "
             "residue note."),
            ("Names are `FAU` (`Family, Given, Suffix`) with `AU` (family and initials) "
             "beside it; particles are split off again by the particle table."),
            "Values are one line each: the exact value travels in the residue note.",
        ),
    )


READER = NbibReader()
WRITER = TaggedWriter(
    "nbib", "MEDLINE / PubMed .nbib (imports into EndNote, Zotero, Mendeley, Papers)", ".nbib",
    format_record, TAG_PARTS)
WRITER.coverage = _coverage()  # type: ignore[attr-defined]
