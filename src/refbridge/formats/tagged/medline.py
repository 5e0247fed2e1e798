"""MEDLINE / PubMed ``.nbib`` (PubMed: *Send to → Citation manager*), read and written.

A record is a block of tagged lines separated by a blank line: a tag of up to four letters
padded to four columns, ``- ``, the value (``PMID- 31452104``, ``TI  - Title``,
``FAU - Qian, Zhengping``, ``AU  - Qian Z``); continuation lines are indented by six spaces.
``DP`` is the date (``2020 Jan 15``, ``2019 Winter``), ``LID``/``AID`` identifiers with their
kind in brackets (``10.1000/x [doi]``, ``S0-1 [pii]``), ``PT`` the publication types, ``OT``
keywords and ``MH`` MeSH headings (both read as keywords). Full names (``FAU``) are read;
short names (``AU``: family and initials, or, in ERIC's exports, ``Family, Given``) only where
a record has no full names. ``LID``'s e-locator (``e123 [pii]``) is the page of an article
without pages; a DOI in any spelling (ERIC: a ``dx.doi.org`` link in ``AID``) is the DOI.
ERIC's ``.nbib`` shares the tags: its publication types (``Reports - Research``), its
prefixed ``ISSN``/``ISBN`` and the publisher a report or book names in ``JT`` are read too.

What MEDLINE has no tag for (URLs, most CSL types, name particles, date ranges, other roles
...) is written in a general note ``GN  - refbridge: {CSL-JSON}`` (``formats.residue``), so
reading refbridge's own ``.nbib`` gives back its records. Tags the model has no slot for
(affiliations ``AD``, grants ``GR``, ``MHDA`` ...) are kept as ``nbib.TAG`` extras and written
back. Every record written starts with ``PMID- `` (empty without a PMID), as importers
recognise MEDLINE by it. This module must never drop a record or value silently.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, TextIO

from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.csljson import apply_residues, residue_note
from refbridge.formats.datetext import (
    MONTH_NAMES,
    date_of,
    not_understood_message,
    read_date,
)
from refbridge.formats.residue import RESIDUE_LABEL, looks_like_residue, note_residue
from refbridge.formats.tagged import medline_tables as t
from refbridge.formats.tagged import ris
from refbridge.formats.tagged.records import (
    TagField,
    TaggedSyntax,
    TaggedWriter,
    one_line,
    read_drafts,
)
from refbridge.identifiers import doi_of
from refbridge.model import Date, ModelError, Name, Record, Source
from refbridge.pageranges import format_page_range
from refbridge.richtext import plain
from refbridge.textlines import lines

SYNTAX = TaggedSyntax(
    "MEDLINE", catalogue.MEDLINE_TAG_LINE,
    continuation=re.compile(r"^\s+(?P<value>\S.*)$"))
_FIELD_OF_TAG = {tag: var for var, tag in t.FIELD_TAGS.items()}
_ROLE_OF_TAG = {full: role for role, (full, _) in t.NAME_TAGS.items()}
_ROLE_OF_SHORT = {short: role for role, (_, short) in t.NAME_TAGS.items()}
_IDENTIFIER = re.compile(r"^(?P<value>.+?)\s*\[(?P<kind>[a-z-]+)\]$")
_ISSN = re.compile(r"^(?P<issn>\d{4}-?\d{3}[\dXx])(?:\s*\((?P<kind>[A-Za-z]+)\))?$")
_PROSE_TAGS = frozenset({"AB", "GN"})
#: PubMed's label of an abstract section without one, at the start of a section.
_UNLABELLED = re.compile(rf"(?:^|(?<=\s)){t.UNLABELLED}:\s+")
_ERIC_PREFIX = re.compile(r"^(?:E?ISSN|ISBN)-")
_WEB_ADDRESS = re.compile(r"^https?://\S+$", re.IGNORECASE)
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


def medline_pages(pages: str) -> str:
    """MEDLINE's pages with the end of each range written out (``132-42``: ``132-142``), as
    Zotero and JabRef read them; what is not a range of numbers stays as written."""
    return format_page_range(pages, "expanded", "-") if pages else pages


def _short_name(text: str) -> Name:
    """``Qian Z`` (family, then initials) as a name; ERIC's ``AU`` has full names with a
    comma (``van Groen, Maaike M.``), split at it."""
    if "," in text:
        return ris.parse_name(text)
    family, _, initials = text.rpartition(" ")
    if not family:
        return Name(family=initials)
    return Name(family=family, given=initials)


def _identifier(tag: str, text: str, values: dict[str, str], extra: dict[str, list[str]],
                locators: list[str]) -> None:
    """An ``LID``/``AID``: ``10.1/x [doi]`` (or a DOI link, ERIC) the DOI, ``e123 [pii]`` of
    ``LID`` the e-locator (the page of an article without pages), a web address (ERIC's full
    text and catalogue page) the URL; the rest, and repeats, are kept as ``nbib.TAG``."""
    match = _IDENTIFIER.match(text)
    kind, value = (match["kind"], match["value"]) if match else ("", text)
    doi = doi_of(value) if kind in ("doi", "") else None
    if doi is not None:
        if values.setdefault("DOI", doi) == doi:
            return
    elif kind == "pii" and tag == "LID":
        locators.append(value)
        return
    elif kind == "" and _WEB_ADDRESS.match(value) and "URL" not in values:
        values["URL"] = value
        return
    if not (kind == "pii" and value in locators):  # AID repeats LID's e-locator
        extra.setdefault(f"nbib.{tag}", []).append(text)


def _is_eric_article(extra: dict[str, list[str]]) -> bool:
    """Whether ERIC's number of the record says it is a journal's article (``EJ1208101``)."""
    return any(number.startswith(t.ERIC_JOURNAL_PREFIX)
               for number in extra.get(f"nbib.{t.ERIC_NUMBER_TAG}", ()))


def _value(field: TagField) -> str:
    if field.tag == t.FIELD_TAGS["abstract"]:
        return _UNLABELLED.sub("", " ".join(part.strip() for part in field.lines).strip())
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
    locators: list[str] = []
    book_title = ""
    issns: dict[str, None] = {}
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
        elif tag in t.IDENTIFIER_TAGS:
            _identifier(tag, text, values, extra, locators)
        elif tag == t.NOTE_TAG:
            found = note_residue(text, source, field.line, diagnostics)
            if found is not None:
                residues.append(found)
            else:
                notes.append(text)
        elif tag == "IS" and (issn := _ISSN.match(text)):
            issns[issn["issn"]] = None  # print, electronic and linking ISSN, once each
            if issn["kind"]:  # the kind is kept, the writer gives it back
                extra.setdefault(f"nbib.{tag}", []).append(text)
        elif tag in t.PREFIXED_IDENTIFIER_TAGS and t.PREFIXED_IDENTIFIER_TAGS[tag] not in values:
            if bare := _ERIC_PREFIX.sub("", text):  # ERIC's ``EISSN-`` alone says nothing
                values[t.PREFIXED_IDENTIFIER_TAGS[tag]] = bare
        elif tag in _FIELD_OF_TAG and tag != "IS" and _FIELD_OF_TAG[tag] not in values:
            values[_FIELD_OF_TAG[tag]] = text
        else:
            extra.setdefault(f"nbib.{tag}", []).append(text)
    for role, people in short.items():
        names.setdefault(role, people)
    if issns and "ISSN" not in values:
        values["ISSN"] = ", ".join(issns)
    if "page" in values:
        values["page"] = medline_pages(values["page"])
    typing = next((p for p in t.PUBLICATION_TYPES if p in types), None)
    record_type = t.PUBLICATION_TYPES[typing] if typing else (
        "article-journal" if types or values.get("container-title") else "document")
    if record_type == "report" and _is_eric_article(extra):
        record_type = "article-journal"
    others = [p for p in types if p != typing]  # Research Support, Comparative Study ...
    if others:
        extra.setdefault(f"nbib.{t.TYPE_TAG}", []).extend(others)
    if book_title:
        if record_type in ("article-journal", "document"):
            record_type = "chapter"
        values.setdefault("container-title", book_title)
    if record_type in t.JOURNAL_TAG_AS and not book_title and "container-title" in values:
        values.setdefault(t.JOURNAL_TAG_AS[record_type], values.pop("container-title"))
    if locators and "page" not in values:  # an article without pages: its e-locator
        values["page"] = locators[0]
    elif locators:
        extra.setdefault("nbib.LID", []).extend(f"{pii} [pii]" for pii in locators)
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


def _issn_kinds(record: Record) -> dict[str, str]:
    """The ``IS`` lines with a kind (``0033-3506 (Print)``) kept for the record's ISSNs, by
    ISSN."""
    issns = plain(record.fields.get("ISSN", "")).split(", ")
    lines = (record.extra.get("nbib.IS") or "").split("\n")
    kinds: dict[str, str] = {}
    for line in lines:
        if (match := _ISSN.match(line)) and match["issn"] in issns:
            kinds.setdefault(match["issn"], line)
    return kinds


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
    kinds = _issn_kinds(record)
    written = set(kinds.values())
    for issn in fields.pop("ISSN", "").split(", ") if "ISSN" in fields else ():
        tags.append((t.FIELD_TAGS["ISSN"], kinds.get(issn, issn)))
    tags += [(tag, fields[v]) for v, tag in t.FIELD_TAGS.items() if v in fields]
    tags += [(t.KEYWORD_TAG, keyword) for keyword in record.keywords]
    for tag, value in record.extra_for("nbib"):
        if _EXTRA_TAG.match(tag) and tag not in (t.DATE_TAG, t.NOTE_TAG):
            tags += [(tag, line) for line in lines(value)
                     if line.strip() and not (tag == "IS" and line in written)]
    order = {tag: i for i, tag in enumerate(t.TAG_ORDER)}
    return sorted(tags, key=lambda pair: order.get(pair[0], len(order)))


def format_tags(tags: Iterable[tuple[str, str]]) -> str:
    lines = [f"{tag:<4}- {text}" for tag, value in tags if (text := one_line(value))]
    return "\n".join(lines) + "\n"


#: The first line of a record without a PMID: Zotero's MEDLINE import takes a file for
#: MEDLINE only when one of its first five lines starts with ``PMID- `` (JabRef's when any
#: line does). An empty one is no PMID to refbridge; Zotero imports the record whole, with an
#: empty ``PMID:`` label in its Extra.
NO_PMID_LINE = "PMID- \n"


def format_record(record: Record) -> str:
    tags = native_tags(record)
    (native,) = read_records(io.StringIO(format_tags(tags)), "<nbib>", Diagnostics(),
                             with_residue=False)
    note = residue_note(record, native)
    text = format_tags(tags + ([(t.NOTE_TAG, note)] if note else []))
    return text if text.startswith("PMID- ") else NO_PMID_LINE + text


class NbibReader(catalogue.CatalogueReader):
    name = "nbib"

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
WRITER = TaggedWriter("nbib", catalogue.WRITERS["nbib"].description,
                      catalogue.WRITERS["nbib"].extension, format_record, TAG_PARTS)
COVERAGE = _coverage()
