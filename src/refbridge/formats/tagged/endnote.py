"""EndNote's tagged export (refer, ``.enw``: ``%0 Journal Article``, ``%A``, ``%T``, ``%D``),
read and written; and the mapping of EndNote's fields that its XML export shares.

EndNote, Google Scholar's "Import into EndNote" link and many publishers write this format: a
record is a block of ``%X value`` lines separated by a blank line, and a second ``%0`` line
starts another record too (as JabRef reads records written one after the other); a ``%0``
another follows at once, and a block without any value, are no records (reported). ``%0``
names the reference type (a record without one is typed by refer's tags: ``%J`` a journal
article, ``%B`` a chapter, ``%I`` a book), ``%A``/``%E``/``%Y``/``%?`` the authors, editors,
series editors and translators (``Family, Given``; a corporate name ends with a comma, as
EndNote asks; as EndNote labels them, an Edited Book's authors are its editors and a Book's
``%E`` its series editors, its ``%Y`` its editors), ``%D`` the year and ``%8`` the month
and day (``January 15``), ``%K`` one keyword a line, ``%F`` the label, where the citation key
goes, ``%R`` the DOI (of several, the one that is or says it is a DOI). Lines that are not
tags continue the value before them.

The mapping from EndNote's fields to the model is one function for both EndNote formats
(``record_of`` / ``native_values``), driven by a ``Vocabulary`` of keys: the tags here, the
element paths in ``endnote_xml``. What EndNote has no field for (CSL types it lacks, name
particles, date ranges, most roles, eprints, other formats' fields) goes into one note
``%Z refbridge: {CSL-JSON}`` (see ``formats.residue``), so reading refbridge's own output gives
back the records it wrote. Tags the model has no slot for are kept as ``endnote.X`` extras and
written back. This module must never drop a record or a value silently.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TextIO

from refbridge.citekeys import LINE_KEY_UNSAFE
from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.csljson import apply_residues, residue_note
from refbridge.formats.datetext import date_of, month_day_text, read_date_or_warn, year_text
from refbridge.formats.residue import RESIDUE_LABEL, looks_like_residue, note_residue
from refbridge.formats.tagged import endnote_tables as t
from refbridge.formats.tagged import ris
from refbridge.formats.tagged.records import (
    TaggedDraft,
    TaggedSyntax,
    TaggedWriter,
    one_line,
    read_drafts,
)
from refbridge.identifiers import bare_doi, clean_doi, clean_doi_field, doi_of
from refbridge.model import Date, ModelError, Name, Record, Source
from refbridge.names.reading import split_name
from refbridge.richtext import Text, plain, strip
from refbridge.textlines import lines
from refbridge.vocab import VERBATIM_VARIABLES

#: The first identifier of an ISBN/ISSN value (``1532-1827 (Electronic)``, ``978-0-19-…``).
_FIRST_ISSN = re.compile(r"^\d{4}-?\d{3}[\dXx](?![\d-])")
_FIRST_ISBN = re.compile(r"^(?:97[89][- ]?)?\d{1,5}[- ]?\d+[- ]?\d+[- ]?[\dXx](?![\d-])")
TYPE_OF_NAME: dict[str, str] = {
    **t.TYPE_NAME_ALIASES, **{name: csl for csl, name in reversed(list(t.TYPE_NAMES.items()))}}
_TYPE_OF_LOWER = {name.lower(): csl for name, csl in TYPE_OF_NAME.items()}
#: Values kept as written (identifiers) and values whose lines are kept (prose).
_PROSE = frozenset({"abstract", "note", "annote"})


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Where one EndNote format keeps each kind of value: keys are tags or element paths."""

    extra_prefix: str  #: the namespace of the extras it keeps (``endnote``)
    fields: Mapping[str, str]  #: key -> CSL variable, for reading (aliases included)
    field_keys: Mapping[str, str]  #: CSL variable -> key, for writing
    names: Mapping[str, str]  #: CSL role -> key
    type: str
    year: str
    date: str
    accessed: str
    key: str
    keyword: str
    isbn: str
    number: str
    issue: str | None  #: None: the number key holds the issue in periodical types
    periodical: str
    container: str
    note: str
    notes: frozenset[str]  #: keys read as notes
    extra_key: re.Pattern[str]  #: which extras' keys the writer may write back

    @property
    def handled(self) -> frozenset[str]:
        return frozenset({*self.fields, *self.names.values(), self.type, self.year, self.date,
                          self.accessed, self.key, self.keyword, self.isbn, self.number,
                          self.issue or self.number, self.periodical, self.container,
                          *self.notes})


# -- names ----------------------------------------------------------------------------------
def parse_name(text: str) -> Name:
    """``Family, Given, Suffix``; ``Name,`` (a trailing comma) is corporate; a name without a
    comma is in reading order (``Zhengping Qian``)."""
    if text.endswith(",") and text[:-1].strip():
        return Name(literal=text[:-1].strip())
    if "," in text:
        return ris.parse_name(text)
    return split_name(text)


def format_name(name: Name) -> str:
    if name.literal is not None:
        return name.literal + ","
    text = ris.format_name(name)
    return text.removesuffix(",")


# -- values -> record -------------------------------------------------------------------------
def isbn_issn_variable(record_type: str, text: str) -> str:
    """The CSL variable of an ISBN/ISSN value: by its shape (an ISSN ``1532-1827``, an ISBN of
    10 or 13 digits), else by the record's type (``ISBN_ISSN_VARIABLES``)."""
    if _FIRST_ISSN.match(text):
        return "ISSN"
    if (isbn := _FIRST_ISBN.match(text)) and len(re.sub(r"[- ]", "", isbn.group())) in (10, 13):
        return "ISBN"
    return t.ISBN_ISSN_VARIABLES.get(record_type, "ISBN")


def type_of(name: str) -> str | None:
    """The CSL type of an EndNote reference type name, or None."""
    return _TYPE_OF_LOWER.get(name.strip().lower())


def _issued(year: str, date: str, extra: dict[str, list[str]], v: Vocabulary,
            warn: Callable[[str], None]) -> Date | None:
    """The date of the year and date values: the two read together (``2015`` and ``October
    5``, or a whole date in either); else the year alone (``12/2009`` too), the date value
    kept as an extra; what cannot be read stays literal, after ``warn``."""
    if not year and not date:
        return None
    found = date_of(year, date)
    if found is not None:
        return found
    if date:
        extra.setdefault(f"{v.extra_prefix}.{v.date}", []).append(date)
    return read_date_or_warn(year, warn, v.year) if year else None



def doi_rank(text: str) -> int:
    """How surely a value is a DOI: 2 it is one, 1 it is labelled as one (``doi:…``), 0
    neither; of several values the surest is the record's DOI."""
    return 2 if doi_of(text) else int(bare_doi(text) != text.strip())


def _roles_of_type(names: dict[str, list[Name]], type_name: str) -> dict[str, list[Name]]:
    """``names`` with the roles a reference type gives its name fields (``TYPE_ROLES``: a
    Book's secondary authors are its series editors; an Edited Book's authors are its
    editors, before those of another field read as editors)."""
    roles = t.TYPE_ROLES.get(type_name, {})
    read: dict[str, list[Name]] = {}
    for moved in (True, False):
        for role, people in names.items():
            if (role in roles) is moved:
                read.setdefault(roles.get(role, role), []).extend(people)
    return read


def keys_of_type(v: Vocabulary, type_name: str) -> dict[str, str]:
    """CSL role -> the key a record of EndNote type ``type_name`` writes its people under:
    ``v.names`` with ``TYPE_ROLES`` undone (a Book's editors go where a Book's editors are
    read from), so that what is written reads back as it was; in the order of ``v.names``'
    keys (the DTD's order of the contributors)."""
    roles = t.TYPE_ROLES.get(type_name, {})
    keys = {role: key for role, key in v.names.items() if role not in roles.values()}
    keys.update({read_as: v.names[role] for role, read_as in roles.items() if role in v.names})
    order = list(v.names.values())
    return dict(sorted(keys.items(), key=lambda item: order.index(item[1])))


def record_of(values: Iterable[tuple[str, Text, int]], v: Vocabulary, source: str, line: int,
              number: int, diagnostics: Diagnostics, with_residue: bool = True,
              default_type: str = "document") -> Record:
    """The record of one EndNote record's (key, value, line) values (of ``default_type``
    when none names a type); raises ``ValueError`` for a record that cannot be built."""
    role_of = {key: role for role, key in v.names.items()}
    fields: dict[str, Text] = {}
    names: dict[str, list[Name]] = {}
    dates: dict[str, Date] = {}
    keywords: list[str] = []
    extra: dict[str, list[str]] = {}
    notes: list[str] = []
    residues: list[dict[str, Any]] = []
    numbers: dict[str, str] = {}
    year = date = type_name = ""
    year_line = line
    key: str | None = None
    record_type = default_type
    for tag, value, at in values:
        text = plain(value).strip()
        if not text:
            continue
        if tag == v.type:
            known = type_of(text)
            if known is None:
                diagnostics.warning(f"unknown EndNote reference type {text!r}, read as a "
                                    "generic document", source, at)
                extra.setdefault(f"{v.extra_prefix}.{tag}", []).append(text)
            record_type, type_name = known or "document", text.strip()
        elif tag in role_of:
            try:
                person = parse_name(" ".join(text.split()))
            except ModelError:
                person = Name(literal=text)
            names.setdefault(role_of[tag], []).append(person)
        elif tag == v.year and not year:
            year, year_line = text, at
        elif tag == v.date and not date:
            date = text
        elif tag == v.accessed and "accessed" not in dates:
            dates["accessed"] = read_date_or_warn(
                text, partial(diagnostics.warning, file=source, line=at), tag) \
                or Date(literal=text)
        elif tag == v.key and key is None:
            key = text
        elif tag == v.keyword:
            keywords.extend(k.strip() for k in text.split("\n") if k.strip())
        elif tag == v.isbn and not ({"ISBN", "ISSN"} & fields.keys()) and (
                variable := isbn_issn_variable(record_type, text)) not in fields:
            fields[variable] = text
        elif tag in (v.number, v.issue) and tag not in numbers:
            numbers[tag] = text
        elif v.fields.get(tag) == "DOI" and "DOI" in fields and doi_rank(text) > doi_rank(
                plain(fields["DOI"])):  # a DOI after a value that is none (``%R doi:…``)
            extra.setdefault(f"{v.extra_prefix}.{tag}", []).append(plain(fields["DOI"]))
            fields["DOI"] = clean_doi(text)
        elif (variable := v.fields.get(tag, "container-title" if tag in (
                v.periodical, v.container) else "")) in fields and plain(
                fields[variable]) == text:
            continue  # the same value again (a journal as title and as periodical)
        elif tag in (v.periodical, v.container) and "container-title" not in fields:
            fields["container-title"] = text if isinstance(value, str) else strip(value)
        elif tag in v.notes:
            found = note_residue(text, source, at, diagnostics)
            if found is not None:
                residues.append(found)
            else:
                notes.append(text)
        elif tag in v.fields and v.fields[tag] not in fields:
            variable = v.fields[tag]
            fields[variable] = text if variable in VERBATIM_VARIABLES or isinstance(
                value, str) else strip(value)
            if variable not in _PROSE and isinstance(fields[variable], str):
                fields[variable] = " ".join(text.split())
            if variable == "DOI":
                fields[variable] = clean_doi(text)
        else:
            extra.setdefault(f"{v.extra_prefix}.{tag}", []).append(text)
    if v.number in numbers:
        holds_issue = record_type in t.ISSUE_TYPES and (v.issue is None
                                                        or v.issue not in numbers)
        fields["issue" if holds_issue else "number"] = numbers[v.number]
    if v.issue is not None and v.issue in numbers:
        fields["issue"] = numbers[v.issue]
    issued = _issued(year, date, extra, v,
                     partial(diagnostics.warning, file=source, line=year_line))
    if issued is not None:
        dates["issued"] = issued
    if notes:
        fields["note"] = "\n".join(notes)
    clean_doi_field(fields)
    record = Record(
        id=key or f"endnote{number}",
        type=record_type,
        fields=fields,
        names={role: tuple(people)
               for role, people in _roles_of_type(names, type_name).items()},
        dates=dates,
        keywords=tuple(dict.fromkeys(keywords)),
        citation_key=key,
        extra={k: "\n".join(values) for k, values in extra.items()},
        source=Source(source, line),
    )
    return apply_residues(record, residues) if with_residue else record


# -- record -> values -------------------------------------------------------------------------
def _date_values(record: Record, v: Vocabulary) -> list[tuple[str, Text]]:
    values: list[tuple[str, Text]] = []
    issued = record.dates.get("issued")
    if issued is not None and issued.start is None and issued.literal:
        values.append((v.year, issued.literal))
    elif issued is not None and issued.start is not None:
        values.append((v.year, year_text(issued)))
        if month_day_text(issued):
            values.append((v.date, month_day_text(issued)))
    accessed = record.dates.get("accessed")
    if accessed is not None and accessed.start is not None:
        parts = accessed.start.as_list()
        values.append((v.accessed, "-".join([str(parts[0])] + [f"{p:02d}" for p in parts[1:]])))
    return values


def native_values(record: Record, v: Vocabulary) -> list[tuple[str, Text]]:
    """The (key, value) pairs EndNote's own fields give ``record`` (no residue yet)."""
    type_name = t.TYPE_NAMES.get(record.type, t.FALLBACK_TYPE_NAME)
    values: list[tuple[str, Text]] = [(v.type, type_name)]
    if record.citation_key:
        values.append((v.key, record.citation_key))
    for role, key in keys_of_type(v, type_name).items():
        values += [(key, format_name(person)) for person in record.names.get(role, ())]
    fields = dict(record.fields)
    if "container-title" in fields:
        values.append((v.periodical if record.type in t.PERIODICAL_TYPES else v.container,
                       fields.pop("container-title")))
    if record.type in t.ISSUE_TYPES:
        if "issue" in fields:
            values.append((v.number, fields.pop("issue")))
    elif "number" in fields:
        values.append((v.number, fields.pop("number")))
    if v.issue is not None and "issue" in fields:
        values.append((v.issue, fields.pop("issue")))
    values += _date_values(record, v)
    identifier = fields.get("ISBN") or fields.get("ISSN")
    if identifier is not None:
        values.append((v.isbn, identifier))
    note = record.get("note")
    if note is not None and not looks_like_residue(note):
        values.append((v.note, fields["note"]))
    values += [(key, fields[var]) for var, key in v.field_keys.items() if var in fields]
    values += [(v.keyword, keyword) for keyword in record.keywords]
    handled = v.handled
    for key, value in record.extra_for(v.extra_prefix):
        if key not in handled and v.extra_key.match(key):
            values += [(key, line) for line in lines(value) if line.strip()]
    return values


# -- the tagged format --------------------------------------------------------------------------
SYNTAX = TaggedSyntax("EndNote", catalogue.ENDNOTE_TAG_LINE)
VOCABULARY = Vocabulary(
    extra_prefix="endnote",
    fields={tag: var for var, tag in t.FIELD_TAGS.items()},
    field_keys=t.FIELD_TAGS,
    names=t.NAME_TAGS,
    type=t.TYPE_TAG, year=t.YEAR_TAG, date=t.DATE_TAG, accessed=t.ACCESSED_TAG, key=t.KEY_TAG,
    keyword=t.KEYWORD_TAG, isbn=t.ISBN_ISSN_TAG, number=t.NUMBER_TAG, issue=None,
    periodical=t.PERIODICAL_TAG, container=t.CONTAINER_TAG, note=t.NOTE_TAG,
    notes=frozenset({t.NOTE_TAG}) | t.NOTE_TAG_ALIASES,
    extra_key=re.compile(r"^[^\s0]$"),
)


def _draft_values(fields: Iterable[Any]) -> Iterator[tuple[str, Text, int]]:
    for field in fields:
        if field.tag == t.KEYWORD_TAG or VOCABULARY.fields.get(field.tag) in _PROSE \
                or field.tag in VOCABULARY.notes:
            yield field.tag, "\n".join(part.strip() for part in field.lines), field.line
        else:
            yield field.tag, field.text, field.line


def _lines(tag: str, value: Text) -> str:
    """A tag's line, with continuation lines for a value of several lines when none of them
    would end the record or read as a tag (else the value is one line)."""
    text = plain(value).strip()
    parts = lines(text)
    if len(parts) > 1 and all(p.strip() and not p.startswith("%") for p in parts):
        return f"%{tag} " + "\n".join(parts)
    return f"%{tag} {one_line(text)}" if one_line(text) else ""


def format_values(values: Iterable[tuple[str, Text]]) -> str:
    order = {tag: i for i, tag in enumerate(t.TAG_ORDER)}
    lines = [line for tag, value in sorted(values, key=lambda p: order.get(p[0], len(order)))
             if (line := _lines(tag, value))]
    return "\n".join(lines) + "\n"


def refer_type(draft: TaggedDraft) -> str:
    """The CSL type of a record without ``%0``, by refer's tags (``REFER_TYPE_TAGS``)."""
    tags = {f.tag for f in draft.fields if f.text}
    return next((csl for tag, csl in t.REFER_TYPE_TAGS if tag in tags), "document")


def record_drafts(draft: TaggedDraft, source: str, diagnostics: Diagnostics
                  ) -> Iterator[TaggedDraft]:
    """The records of one block of lines: a second ``%0`` starts another record, as EndNote
    starts each with one and JabRef reads them; a reference type another ``%0`` follows at
    once, and a record without any value, are no records (reported)."""
    current = TaggedDraft(draft.line)
    for tag_field in draft.fields:
        if tag_field.tag == t.TYPE_TAG and any(f.tag == t.TYPE_TAG for f in current.fields):
            if all(f.tag == t.TYPE_TAG for f in current.fields):
                kind = current.fields[0].text
                diagnostics.warning(f"reference type {kind or 'line'!r} without a field "
                                    "before the next %0: no record, skipped", source,
                                    current.line)
            else:
                yield current
            current = TaggedDraft(tag_field.line)
        current.fields.append(tag_field)
    if any(f.text for f in current.fields):
        yield current
    else:
        diagnostics.warning("a record without any value is skipped", source, current.line)


def read_records(stream: TextIO, source: str, diagnostics: Diagnostics,
                 with_residue: bool = True) -> Iterator[Record]:
    drafts = (part for block in read_drafts(stream, source, diagnostics, SYNTAX)
              for part in record_drafts(block, source, diagnostics))
    for number, draft in enumerate(drafts, start=1):
        default_type = "document"
        if not any(f.tag == t.TYPE_TAG for f in draft.fields):
            default_type = refer_type(draft)
            read_as = ("a generic document" if default_type == "document" else
                       f"a {default_type.replace('-', ' ')} (refer's reading of its tags)")
            diagnostics.warning(f"a record without %0 (reference type) is read as {read_as}",
                                source, draft.line)
        try:
            yield record_of(_draft_values(draft.fields), VOCABULARY, source, draft.line,
                            number, diagnostics, with_residue, default_type)
        except ValueError as exc:
            diagnostics.error(f"record skipped: {exc}", source, draft.line)


def format_record(record: Record) -> str:
    """The tagged text of ``record``, with a residue note when EndNote's fields lose
    something."""
    values = native_values(record, VOCABULARY)
    (native,) = read_records(io.StringIO(format_values(values)), "<endnote>", Diagnostics(),
                             with_residue=False)
    note = residue_note(record, native)
    return format_values(values + ([(t.NOTE_TAG, note)] if note else []))


class EndNoteReader(catalogue.CatalogueReader):
    name = "endnote"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        return read_records(stream, source, diagnostics)



#: Tags as names for ``--fields`` / ``--exclude-fields`` -> the model part each writes.
TAG_PARTS: dict[str, str] = {
    **{f"%{tag}": var for var, tag in t.FIELD_TAGS.items()},
    **{f"%{tag}": role for role, tag in t.NAME_TAGS.items()},
    f"%{t.KEYWORD_TAG}": "keywords", f"%{t.YEAR_TAG}": "issued", f"%{t.DATE_TAG}": "issued",
    f"%{t.PERIODICAL_TAG}": "container-title", f"%{t.CONTAINER_TAG}": "container-title",
}


def endnote_coverage(format_name: str, native: Mapping[str, str], note: str,
                     notes: tuple[str, ...]) -> Coverage:
    """The coverage of an EndNote format: ``native`` where its own fields hold a part, the
    residue note for the rest."""
    kept = frozenset(csl for csl, name in t.TYPE_NAMES.items() if TYPE_OF_NAME[name] == csl)
    return Coverage(
        format=format_name,
        native=native,
        elsewhere={part: note for part in MODEL_PARTS if part not in native},
        kept_types=None,
        notes=((f"Reference types: {len(kept)} CSL types have an EndNote type of their own; "
               "the others are written as the nearest type (`Generic` when none is near) and "
               "the CSL type travels in the residue note."), *notes),
    )


def _coverage() -> Coverage:
    v = VOCABULARY
    native = {
        "type": f"%{v.type}", "citation-key": f"%{v.key}", "keywords": f"%{v.keyword}",
        "issued": f"%{v.year} + %{v.date}", "accessed": f"%{v.accessed}",
        "container-title": f"%{v.periodical} / %{v.container}", "issue": f"%{v.number}",
        "number": f"%{v.number}", "ISBN": f"%{v.isbn}", "ISSN": f"%{v.isbn}",
        "note": f"%{v.note}", "extra": "endnote.X extras as tag %X",
        **{var: f"%{tag}" for var, tag in t.FIELD_TAGS.items()},
        **{role: f"%{tag}" for role, tag in t.NAME_TAGS.items()},
    }
    return endnote_coverage("endnote", native, f"%{t.NOTE_TAG} `{RESIDUE_LABEL}: {{CSL-JSON}}`", (
        ("Values are one line each: line breaks become spaces, and the exact value travels in "
        "the residue note."),
        "`%N` is the issue in periodical types and the number in the others.",
    ))


READER = EndNoteReader()
WRITER = TaggedWriter("endnote", catalogue.WRITERS["endnote"].description,
                      catalogue.WRITERS["endnote"].extension, format_record, TAG_PARTS,
                      key_unsafe=LINE_KEY_UNSAFE)
COVERAGE = _coverage()
