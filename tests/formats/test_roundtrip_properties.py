"""Round trips as properties: CSL-JSON -> model -> X -> model is unchanged on what X carries.

For every registered format with a reader, a writer and a declared ``Coverage``, hypothesis draws
realistic records (``strategies``) and checks that writing and reading them back gives the same
value for every model part the coverage table says the format carries: the same table
``docs/field-coverage.md`` is generated from. RIS and Zotero RDF keep what their own syntax
cannot hold in a residue (an RIS note, Zotero's Extra), so for them a second property checks the
syntax itself: with the residue ignored, the parts the table calls native still come back.

Runs 200 examples per property; ``--hypothesis-profile=thorough`` or ``REFBRIDGE_THOROUGH=1``
runs 3000.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from hypothesis import example, given
from strategies import plain_records, records

from refbridge.coverage import Coverage, coverage_of, declared_coverages
from refbridge.errors import Diagnostics
from refbridge.formats.bibtex import tables as bibtex_tables
from refbridge.formats.csl_markup import from_markup, to_markup
from refbridge.formats.csljson import from_csl, to_csl
from refbridge.formats.datetext import read_date
from refbridge.formats.tagged import ris, ris_tables
from refbridge.formats.zotero import rdf as zotero
from refbridge.formats.zotero import tables as zotero_tables
from refbridge.latex.encode import PROTECTED_VARIABLES, guess_protection
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.registry import WriteOptions, get_reader, get_writer, reader_names
from refbridge.richtext import RichText, map_text, plain, strip

ROUND_TRIP_FORMATS = sorted(c.format for c in declared_coverages() if c.format in reader_names())


def part(record: Record, name: str) -> Any:
    """The value of one model part (see ``refbridge.coverage.MODEL_PARTS``)."""
    record_parts = {
        "type": record.type, "citation-key": record.citation_key,
        "keywords": record.keywords, "eprint": record.eprint,
        "incomplete-names": record.incomplete_names, "extra": dict(record.extra)}
    if name in record_parts:
        return record_parts[name]
    return record.fields.get(name) or record.names.get(name) or record.dates.get(name)


def bib_form(name: str, value: Any) -> Any:
    """A value as a .bib file holds it (the limits its coverage notes state): white space
    collapsed, particles as BibTeX's ``von`` part (a keyword holding a comma or semicolon is
    braced, and stays one); a title that says nothing of case with its acronyms and proper
    nouns protected."""
    if isinstance(value, (str, RichText)):
        value = strip(map_text(value, lambda text: re.sub(r"\s+", " ", text)))
        return guess_protection(value) if name in PROTECTED_VARIABLES else value
    if name == "keywords":
        return tuple(" ".join(k.split()) for k in value if k.strip())
    if isinstance(value, tuple) and value and isinstance(value[0], Name):
        return tuple(" ".join(person.display().split()) for person in value)
    return value


#: Formats whose documented limits a value passes through before comparison.
FORMS = {"bibtex": bib_form, "biblatex": bib_form}


def without_bib_derived_values(back: Record, original: Record) -> Record:
    """``back`` without the values the .bib writers derive on purpose (their docstrings): a
    preprint's arXiv abstract page as ``url`` and ``pubstate = {prepublished}``, the genre an
    entry type implies (``@phdthesis``, ``@techreport``)."""
    fields = dict(back.fields)
    eprint = original.eprint
    if "URL" not in original.fields and eprint is not None and eprint.identifier \
            and fields.get("URL") == bibtex_tables.ARXIV_ABS_URL + eprint.identifier:
        del fields["URL"]
    if "genre" not in original.fields:  # @phdthesis, @techreport ... imply one
        fields.pop("genre", None)
    if "status" not in original.fields and eprint is not None \
            and fields.get("status") == bibtex_tables.PREPRINT_PUBSTATE:
        del fields["status"]
    return back.replace(fields=fields)


#: What a round trip may add on purpose, per format.
DERIVED_VALUES = {"bibtex": without_bib_derived_values, "biblatex": without_bib_derived_values}


def carried(record: Record, coverage: Coverage, original_type: str) -> dict[str, Any]:
    """The parts of ``record`` the format carries (the type only where the format keeps
    ``original_type``, the type of the record that was written), as the format holds them."""
    parts = coverage.carried - (set() if coverage.keeps_type(original_type) else {"type"})
    form = FORMS.get(coverage.format, lambda name, value: value)
    values = {name: form(name, part(record, name)) for name in sorted(parts)}
    if "incomplete-names" in values:  # only the roles the format carries can be incomplete
        values["incomplete-names"] = values["incomplete-names"] & coverage.carried
    return values


def round_trip(record: Record, format_name: str) -> Record:
    out = io.StringIO()
    get_writer(format_name).write([record], out, WriteOptions())
    (back,) = get_reader(format_name).read(io.StringIO(out.getvalue()), "round-trip",
                                           Diagnostics(strict=True))
    return back


@given(records())
def test_generated_records_are_what_csl_json_gives(record: Record) -> None:
    assert from_csl(to_csl(record)) == record


@pytest.mark.parametrize("format_name", ROUND_TRIP_FORMATS)
@given(record=records())
def test_a_round_trip_keeps_every_part_the_format_carries(format_name: str,
                                                          record: Record) -> None:
    coverage = coverage_of(format_name)
    assert coverage is not None
    back = round_trip(record, format_name)
    back = DERIVED_VALUES.get(format_name, lambda b, o: b)(back, record)
    assert carried(back, coverage, record.type) == carried(record, coverage, record.type)


def test_round_trips_cover_the_formats_of_the_issue() -> None:
    assert {"csl-json", "ris", "zotero", "bibtex", "biblatex", "endnote", "endnote-xml",
            "nbib", "mods", "word-xml", "csv"} <= set(ROUND_TRIP_FORMATS)


# -- what RIS's own tags carry ---------------------------------------------------------------
def _ris_name(name: Name) -> str:
    """A name as RIS's ``Family, Given, Suffix`` spells it: particles merged, in reading order."""
    return name.display()


def _ris_date(date: Date) -> Date:
    """A date as ``YYYY/MM/DD/other`` holds it: no range, no circa."""
    return Date(start=date.start, season=date.season, literal=date.literal)


def _ris_eprint(eprint: Eprint | None) -> Eprint | None:
    """An eprint as the note ``arXiv:ID [class]`` holds it: arXiv, without cross-lists."""
    if eprint is None or eprint.archive != "arXiv":
        return None
    return Eprint(eprint.archive, eprint.identifier, eprint.primary_class)


def ris_native(record: Record) -> dict[str, Any]:
    """The parts the RIS coverage table calls native, as RIS's syntax can spell them."""
    values: dict[str, Any] = {}
    for name in ris.COVERAGE.native:
        value = part(record, name)
        if name == "type":
            value = ris_tables.TY_TO_TYPE[ris_tables.TYPE_TO_TY.get(value,
                                                                   ris_tables.FALLBACK_TY)]
        elif name == "extra":
            value = {k: v for k, v in value.items() if k.startswith("ris.")}
        elif name == "eprint":
            value = _ris_eprint(value)
        elif isinstance(value, tuple) and value and isinstance(value[0], Name):
            value = tuple(_ris_name(n) for n in value)
        elif isinstance(value, Date):
            value = _ris_date(value)
        elif isinstance(value, RichText):
            value = plain(value).strip()  # RIS holds plain text
        if name == "page" and isinstance(value, str):  # a range is cut into SP and EP
            value = "-".join(p for p in ris._PAGE_RANGE.split(value, maxsplit=1) if p)
        values[name] = value
    if values.get("issue") is None and record.type in ris_tables.M1_ISSUE_TYPES \
            and values.get("number") is not None:  # M1 without IS is a journal's issue
        values["issue"], values["number"] = values["number"], None
    return values


@given(plain_records())
@example(Record(id="key1", type="article", fields={"title": "Data", "page": "1203\u20131212"}))
@example(Record(id="key1", type="article-journal", fields={"title": "Data", "number": "1"}))
def test_ris_tags_alone_carry_every_part_the_table_calls_native(record: Record) -> None:
    text = ris.format_record(record)
    (draft,) = ris.read_drafts(io.StringIO(text), "native.ris", Diagnostics())
    native = ris.record_from_draft(draft, "native.ris", 1, Diagnostics(), with_residue=False)
    assert ris_native(native) == ris_native(record)


# -- what Zotero's own fields carry ------------------------------------------------------------
def _as_date_text_reads(date: Date) -> Date:
    """A date as a free-text date field gives it back: a literal that is a date (``ca. 1850``,
    ``Spring 1999``) is read as that date, as Zotero reads it."""
    if date.literal is None or date.start is not None:
        return date
    return read_date(date.literal).date or date


def zotero_native(record: Record) -> dict[str, Any]:
    """The parts Zotero's own fields hold for the record's item type, as Zotero spells them:
    names in reading order, plain dates, arXiv eprints without the cross-list order (an eprint
    without an archive ID only when the repository field, which names its archive, is not
    taken by the record's publisher)."""
    item_type = zotero_tables.ZOTERO_TYPE_OF_CSL.get(record.type, zotero.FALLBACK_TYPE)
    fields = {k: from_markup(to_markup(v)) for k, v in record.fields.items()
              if k in zotero_tables.FIELDS[item_type] and k != "note"}  # as its markup says
    dates = {k: read_back for k, v in record.dates.items()
             if k in zotero_tables.DATE_FIELDS[item_type]
             and zotero.format_date(read_back := _as_date_text_reads(v))}
    names = {role: tuple(" ".join(p.display().split()) for p in people)
             for role, people in record.names.items()
             if role in zotero_tables.CREATORS[item_type]}
    eprint = record.eprint if item_type == "preprint" and record.eprint else None
    if eprint and not eprint.identifier and record.get("publisher") not in (None, eprint.archive):
        eprint = None
    return {"type": zotero_tables.CSL_TYPE_OF_ZOTERO[item_type], "fields": fields,
            "dates": dates, "names": names, "keywords": record.keywords,
            "eprint": eprint and Eprint(eprint.archive, eprint.identifier,
                                        eprint.primary_class, eprint.cross_lists)}


@given(plain_records())
@example(Record(id="key1", type="article", fields={"title": "Data", "publisher": "Database"},
                eprint=Eprint("arXiv")))
@example(Record(id="key1", type="article", fields={"title": "Data", "publisher": "Database"},
                eprint=Eprint("arXiv", None, "astro-ph")))  # its categories are no keywords
@example(Record(id="key1", type="article", fields={"title": "Data", "number": "1", "publisher": "Database"},
                eprint=Eprint("arXiv", "0701.00001", "astro-ph")))  # the archive ID goes to Extra
@example(Record(id="key1", type="article", fields={"title": "Data"},  # a backwards range
                dates={"issued": Date(start=DateParts(1900, 2), end=DateParts(1900, 1))}))
def test_zotero_fields_alone_carry_every_part_the_table_calls_native(record: Record) -> None:
    from lxml import etree

    written = etree.fromstring(etree.tostring(zotero.item_element(zotero.native_item(record),
                                                                  "#item_1")))
    native = zotero.record_of(zotero.read_item(written, {}, "native.rdf"), "native.rdf",
                              Diagnostics(), with_residue=False)
    assert zotero_native(native) == zotero_native(record)
