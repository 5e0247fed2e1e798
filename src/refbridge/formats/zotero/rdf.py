"""Zotero RDF reader and writer: the format of Zotero's "Export Library… → Zotero RDF".

Zotero's own RDF carries what its BibTeX, RIS and CSL-JSON imports lose (measured with Zotero's
import translators): an item with ``z:itemType`` ``preprint``, publisher ``arXiv`` and
``prism:number`` ``arXiv:ID`` imports as a preprint with repository and archive ID, and every
``dc:subject`` becomes a tag. The structure is the one Zotero's export writes: ``rdf:RDF`` holding
``bib:Article``/``bib:Book``/… items with ``z:itemType``, ``dc:title``, ``bib:authors`` (an
``rdf:Seq`` of ``foaf:Person``), ``dcterms:isPartOf`` a ``bib:Journal`` for the container,
``dc:publisher`` a ``foaf:Organization``, ``dc:date``, ``dcterms:abstract``, ``dc:subject`` tags,
``dc:description`` for Extra, other Zotero fields as ``z:field``, and a ``z:Collection`` whose
``dcterms:hasPart`` lists the items. Which Zotero field holds which CSL variable in which item
type comes from Zotero's schema (``zotero_tables``).

What has no Zotero field goes into Extra, in the lines Zotero and Better BibTeX read
(``formats.zotero.extra``): ``Citation Key: KEY``, ``variable: value`` for CSL variables the
item lacks, ``tex.field: value`` for a .bib's own fields, and one ``refbridge: {CSL-JSON}`` line
for the rest (incomplete author lists, date ranges, name particles Zotero's two name fields do
not keep, a .bib's spellings a .bib writer would not make again; see ``formats.residue``), so
reading refbridge's own export gives back the records. The abstract is plain text, as Zotero's
is.
arXiv categories become tags twice, as code (``cs.DB``) and as name (``Databases``).

XML is built and parsed with lxml (no entity resolution, no network), so record text is always
escaped text, never markup. This module must never drop a record or value silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from refbridge.arxiv_taxonomy import category_name, is_category
from refbridge.citekeys import LINE_XML_KEY_UNSAFE
from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.bibtex.tables import ARXIV, EXTRA_FIELDS
from refbridge.formats.csl_markup import from_markup, to_markup
from refbridge.formats.csljson import apply_residue, residue, to_csl
from refbridge.formats.datetext import read_date, read_date_or_warn
from refbridge.formats.residue import RESIDUE_LABEL
from refbridge.formats.selection import select
from refbridge.formats.xml.safe import parse_xml, xml_text
from refbridge.formats.zotero import tables as zt
from refbridge.formats.zotero.extra import (
    extra_text,
    fits_a_line,
    is_plain_note,
    read_extra,
    tex_extras,
    variable_of,
)
from refbridge.identifiers import ARXIV_EXTRA_LINE, ARXIV_LABELLED, clean_doi_field
from refbridge.model import SEASONS, Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names.reading import name_from_fields
from refbridge.registry import WriteOptions
from refbridge.richtext import Text, is_plain, plain
from refbridge.vocab import (
    DATE_VARIABLE_SET,
    NAME_VARIABLES,
    PLAIN_TEXT_VARIABLES,
    TEXT_VARIABLE_SET,
    VERBATIM_VARIABLES,
)

NAMESPACES: dict[str, str] = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "z": catalogue.ZOTERO_NAMESPACE,
    "dcterms": "http://purl.org/dc/terms/",
    "bib": "http://purl.org/net/biblio#",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "link": "http://purl.org/rss/1.0/modules/link/",
    "dc": "http://purl.org/dc/elements/1.1/",
    "vcard": "http://nwalsh.com/rdf/vCard#",
    "prism": "http://prismstandard.org/namespaces/1.2/basic/",
}

#: Zotero item type -> the RDF class of its node (Zotero's export; others: rdf:Description).
ITEM_CLASSES: dict[str, str] = {
    "book": "bib:Book", "bookSection": "bib:BookSection", "journalArticle": "bib:Article",
    "magazineArticle": "bib:Article", "newspaperArticle": "bib:Article",
    "thesis": "bib:Thesis", "letter": "bib:Letter", "manuscript": "bib:Manuscript",
    "interview": "bib:Interview", "film": "bib:MotionPicture", "artwork": "bib:Illustration",
    "webpage": "bib:Document", "report": "bib:Report", "bill": "bib:Legislation",
    "case": "bib:Document", "hearing": "bib:Report", "patent": "bib:Patent",
    "statute": "bib:Legislation", "email": "bib:Letter", "map": "bib:Image",
    "blogPost": "bib:Document", "instantMessage": "bib:Letter", "forumPost": "bib:Document",
    "audioRecording": "bib:Recording", "presentation": "bib:ConferenceProceedings",
    "videoRecording": "bib:Recording", "tvBroadcast": "bib:Recording",
    "radioBroadcast": "bib:Recording", "podcast": "bib:Recording",
    "computerProgram": "bib:Data",
}
DEFAULT_CLASS = "rdf:Description"

#: Zotero item type -> the RDF class of its container node (journal, book, website ...).
CONTAINER_CLASSES: dict[str, str] = {
    "journalArticle": "bib:Journal", "magazineArticle": "bib:Periodical",
    "newspaperArticle": "bib:Newspaper", "bookSection": "bib:Book",
    "encyclopediaArticle": "bib:Book", "dictionaryEntry": "bib:Book",
    "conferencePaper": "bib:Journal", "webpage": "z:Website", "blogPost": "z:Blog",
    "forumPost": "z:Forum", "case": "bib:CourtReporter",
}

#: Zotero base field -> (node, predicate) where Zotero's export puts it. Nodes: ``item``,
#: ``container`` (the item itself when its type has none), ``series``, ``publisher`` (a
#: foaf:Organization), ``address`` (the publisher's vcard:Address), ``conference``, ``uri``
#: (a dcterms:URI), ``lcc`` (a dcterms:LCC subject). Other fields are ``z:field`` on the item.
PLACEMENT: dict[str, tuple[str, str]] = {
    "title": ("item", "dc:title"),
    "abstractNote": ("item", "dcterms:abstract"),
    "date": ("item", "dc:date"),
    "accessDate": ("item", "dcterms:dateSubmitted"),
    "pages": ("item", "bib:pages"),
    "extra": ("item", "dc:description"),
    "rights": ("item", "dc:rights"),
    "archiveLocation": ("item", "dc:coverage"),
    "edition": ("item", "prism:edition"),
    "publicationTitle": ("container", "dc:title"),
    "journalAbbreviation": ("container", "dcterms:alternative"),
    "volume": ("container", "prism:volume"),
    "issue": ("container", "prism:number"),
    "number": ("container", "prism:number"),
    "series": ("series", "dc:title"),
    "seriesTitle": ("series", "dcterms:alternative"),
    "seriesText": ("series", "dc:description"),
    "seriesNumber": ("series", "dc:identifier"),
    "publisher": ("publisher", "foaf:name"),
    "place": ("address", "vcard:locality"),
    "conferenceName": ("conference", "dc:title"),
    "url": ("uri", "rdf:value"),
    "callNumber": ("lcc", "rdf:value"),
}
#: Base fields that share one predicate: read into whichever the item type has.
SHARED_PREDICATE_BASES: frozenset[str] = frozenset({"issue", "number"})
#: Identifiers Zotero's export writes as ``dc:identifier`` text with a prefix.
PREFIXED_IDENTIFIERS: dict[str, str] = {"DOI": "DOI ", "ISBN": "ISBN ", "ISSN": "ISSN "}
#: Creator types Zotero's export puts in the bib: namespace (others: ``z:<type>s``).
BIB_CREATOR_TYPES: frozenset[str] = frozenset({"author", "editor", "contributor"})
#: Wrapper nodes: node name -> (predicate from its parent, RDF class, parent node).
WRAPPERS: dict[str, tuple[str, str, str]] = {
    "series": ("dcterms:isPartOf", "bib:Series", "container"),
    "publisher": ("dc:publisher", "foaf:Organization", "item"),
    "address": ("vcard:adr", "vcard:Address", "publisher"),
    "conference": ("bib:presentedAt", "bib:Conference", "item"),
    "uri": ("dc:identifier", "dcterms:URI", "item"),
    "lcc": ("dc:subject", "dcterms:LCC", "item"),
}

FALLBACK_TYPE = "document"
#: Where the reader keeps an item's child notes (Zotero's HTML), as ``zotero.notes`` extra.
CHILD_NOTES_FIELD = "notes"
#: The namespace of the extras this format keeps, and the one that keeps the item type.
NAMESPACE = "zotero"
ITEM_TYPE_FIELD = "itemType"
DEFAULT_COLLECTION = "refbridge import"
#: The namespace of a .bib's own fields among the extras (``bibtex.crossref``).
BIBTEX_PREFIX = "bibtex."
#: A name spelled as capitalised words only (no particle, command or brace).
_PLAIN_NAME = re.compile(r"[A-Z][A-Za-z.']*(?:[ -][A-Z][A-Za-z.']*)*")
#: A .bib field's name that a ``tex.`` line of Extra can carry.
_TEX_NAME = re.compile(r"^[a-z][a-z0-9_:+-]*$")
#: A preprint's archive ID, ``arXiv:ID``: Zotero writes the label in this case only.
_ARXIV_NUMBER = re.compile(ARXIV_LABELLED.pattern)

_CSL_OF_FIELD = {ztype: {zf: var for var, zf in fields.items()}
                 for ztype, fields in zt.FIELDS.items()}
_CSL_OF_DATE_FIELD = {ztype: {zf: var for var, zf in fields.items()}
                      for ztype, fields in zt.DATE_FIELDS.items()}
_ROLE_OF_CREATOR = {ztype: {ct: role for role, ct in creators.items()}
                    for ztype, creators in zt.CREATORS.items()}
#: Zotero item type -> base field -> the field that has that base in the type.
FIELD_OF_BASE: dict[str, dict[str, str]] = {
    ztype: {zt.BASE_FIELDS.get(zf, zf): zf
            for zf in set(fields.values()) | set(zt.DATE_FIELDS[ztype].values())}
    for ztype, fields in zt.FIELDS.items()}


def qname(name: str) -> str:
    """``prefix:local`` as lxml's ``{namespace}local``."""
    prefix, local = name.split(":")
    return f"{{{NAMESPACES[prefix]}}}{local}"


@dataclass(slots=True)
class ZoteroItem:
    """One Zotero item as its fields, creators and tags (what the RDF holds)."""

    item_type: str
    fields: dict[str, str] = field(default_factory=dict)  #: Zotero field -> value
    creators: list[tuple[str, Name]] = field(default_factory=list)  #: (creator type, name)
    tags: list[str] = field(default_factory=list)
    line: int | None = None


# -- names and dates -----------------------------------------------------------------------------
def name_fields(name: Name) -> tuple[str, str | None]:
    """Zotero's (lastName, firstName); a corporate name has no first name."""
    if name.literal is not None:
        return name.literal, None
    last = " ".join(p for p in (name.non_dropping_particle, name.family) if p)
    first = " ".join(p for p in (name.given, name.dropping_particle) if p)
    if name.suffix:
        first = f"{first}, {name.suffix}"
    return last, first or None


def name_of(last: str, first: str) -> Name:
    """The name of Zotero's (lastName, firstName); at least one of them is not empty."""
    if not first:
        return Name(literal=last)
    given, _, suffix = first.rpartition(", ") if ", " in first else (first, "", "")
    return name_from_fields(last, given, suffix)


def format_date(date: Date) -> str | None:
    """Zotero's date text: ISO parts for a plain date (``2009-12``), a range as an EDTF
    interval (``1985/1988``), ``Spring 2021``, ``ca. 1850``, the literal text: what Zotero and
    ``parse_date`` read back as the same date; None for what no such text says (a season or
    circa with a range, a BC year with either, a range ending where or before it starts, a
    literal beside date parts)."""
    if date.start is None:
        return date.literal if date.season is None and not date.circa else None
    if date.literal is not None or date.end == date.start or sum((
            date.end is not None, date.season is not None, date.circa)) > 1:
        return None
    points = (date.start, date.end) if date.end is not None else (date.start,)
    if (date.end is not None or date.season or date.circa) and min(p.year for p in points) < 0:
        return None
    if date.end is not None and _order_key(date.end) < _order_key(date.start):
        return None  # a range that runs backwards reads as no date
    if date.season is not None:
        return f"{SEASONS[date.season - 1].capitalize()} {date.start.year}" \
            if date.start.month is None else None
    text = "/".join(_iso_point(p) for p in points)
    return f"ca. {text}" if date.circa else text


def _order_key(parts: DateParts) -> tuple[int, int, int]:
    return parts.year, parts.month or 0, parts.day or 0


def _iso_point(start: DateParts) -> str:
    year = f"{start.year:04d}" if start.year > 0 else f"-{-start.year:04d}"
    return "-".join([year] + [f"{p:02d}" for p in (start.month, start.day) if p])


def parse_date(text: str) -> Date:
    """A Zotero date text (``1984-02-17``, ``February 1984``, ``12/2009``, ``Spring 2021``,
    ``20th February 2020``: whatever ``refbridge.formats.datetext`` reads); anything else is
    a literal date."""
    return read_date(text).date or Date(literal=text)


# -- record -> Zotero item ------------------------------------------------------------------------
def _date_line(value: Any) -> str | None:
    """A CSL-JSON date as an Extra line's value (``1984-02-17``), when the line reads back as
    that date."""
    if not (isinstance(value, dict) and list(value) == ["date-parts"]
            and len(value["date-parts"]) == 1 and value["date-parts"][0]
            and value["date-parts"][0][0] > 0):
        return None
    return "-".join(f"{p:04d}" if i == 0 else f"{p:02d}"
                    for i, p in enumerate(value["date-parts"][0]))


def _extra_variables(difference: dict[str, Any], native: Mapping[str, Any]) -> dict[str, str]:
    """The keys of a residue that Extra carries as ``variable: value`` lines (where Zotero and
    citeproc-js read them), taken out of ``difference``: variables the item lacks (``native``
    is its CSL-JSON), as such a line gives a variable only to an item without it (in Zotero
    and citeproc-js); a value that replaces the item's stays in the residue. A ``type:`` line
    always gives the type."""
    lines: dict[str, str] = {}
    for key, value in list(difference.items()):
        if key in native and key != "type":
            continue
        if key in TEXT_VARIABLE_SET | {"type"} and isinstance(value, str) \
                and fits_a_line(value) and variable_of(key) == key:
            lines[key] = value
        elif key in DATE_VARIABLE_SET and (text := _date_line(value)) is not None:
            lines[key] = text
        else:
            continue
        del difference[key]
    return lines


def _tex_fields(record: Record) -> dict[str, str]:
    """The .bib fields of ``record`` (``bibtex.*`` extras, and the extras a .bib keeps as
    fields of their own) that Extra carries as Better BibTeX's ``tex.field: value`` lines."""
    fields = {name[len(BIBTEX_PREFIX):]: value for name, value in record.extra.items()
              if name.startswith(BIBTEX_PREFIX) and _TEX_NAME.match(name[len(BIBTEX_PREFIX):])
              and fits_a_line(value)}
    fields.update({EXTRA_FIELDS[name]: value for name, value in record.extra.items()
                   if name in EXTRA_FIELDS and fits_a_line(value)})
    return fields



def _item_type(record: Record) -> str:
    """The Zotero item type of ``record``: the one a Zotero reader kept (``zotero.itemType``,
    for a type that shares its CSL type with others: email, letter), else its CSL type's."""
    kept = record.extra.get(f"{NAMESPACE}.{ITEM_TYPE_FIELD}")
    if kept in zt.FIELDS and zt.CSL_TYPE_OF_ZOTERO.get(kept) == record.type:
        return kept
    return zt.ZOTERO_TYPE_OF_CSL.get(record.type, FALLBACK_TYPE)


def _kept_creators(text: str) -> list[Name] | None:
    """The names of a ``zotero.<creatorType>`` extra (``Last, First`` lines), when each line
    reads back as written; else None."""
    people = []
    for line in text.split("\n"):
        last, _, first = line.partition(", ")
        if not last.strip():
            return None
        person = name_of(last, first)
        if ", ".join(p for p in name_fields(person) if p) != line:
            return None
        people.append(person)
    return people


def _restore_kept(record: Record, item: ZoteroItem) -> None:
    """Fields and creators of Zotero's that have no CSL counterpart, kept by a Zotero reader
    as ``zotero.*`` extras, back in their places (when the item type has them)."""
    fields = set(zt.OTHER_FIELDS.get(item.item_type, ())) - {"citationKey"}
    creator_types = set(zt.OTHER_CREATORS.get(item.item_type, ()))
    for name, value in record.extra_for(NAMESPACE):
        if name in fields:
            item.fields[name] = value
        elif name in creator_types and (people := _kept_creators(value)) is not None:
            item.creators += [(name, person) for person in people]


def native_item(record: Record) -> ZoteroItem:
    """The Zotero item of ``record``, without the residue (Zotero's own fields only)."""
    item_type = _item_type(record)
    item = ZoteroItem(item_type)
    fields = zt.FIELDS[item_type]
    for variable, value in record.fields.items():
        zotero_field = fields.get(variable)
        if zotero_field is not None and zotero_field != "extra":
            item.fields[zotero_field] = plain(value) if variable in PLAIN_TEXT_VARIABLES \
                else value if isinstance(value, str) and variable in VERBATIM_VARIABLES \
                else to_markup(value)
    for variable, date in record.dates.items():
        zotero_field = zt.DATE_FIELDS[item_type].get(variable)
        text = format_date(date)
        if zotero_field is not None and text is not None:
            item.fields[zotero_field] = text
    if record.citation_key:
        item.fields["citationKey"] = record.citation_key
    eprint = record.eprint
    archive_id = f"{eprint.archive}:{eprint.identifier}" if eprint and eprint.identifier else None
    arxiv_id = eprint.identifier if eprint is not None and eprint.archive == ARXIV else None
    if eprint is not None and item_type == "preprint":
        item.fields.setdefault(fields["publisher"], eprint.archive)
        if archive_id:
            item.fields.setdefault(fields["number"], archive_id)
    # a published work's arXiv id, or a preprint's whose archive ID field holds its number
    id_in_extra = bool(arxiv_id) and item.fields.get(fields.get("number", "")) != archive_id
    extra = _native_extra(record, f"{ARXIV}: {arxiv_id}" if id_in_extra else None)
    if extra is not None:
        item.fields["extra"] = extra
    for role in NAME_VARIABLES:
        creator_type = zt.CREATORS[item_type].get(role)
        if creator_type is not None:
            item.creators += [(creator_type, n) for n in record.names.get(role, ())]
    _restore_kept(record, item)
    item.tags = list(record.keywords)
    if eprint is not None and (id_in_extra or _names_arxiv(item, fields)):
        for code in eprint.classes:
            item.tags += [code] + ([name] if (name := category_name(code)) else [])
    return item


def _names_arxiv(item: ZoteroItem, fields: Mapping[str, str]) -> bool:
    """Whether *item* is a preprint whose archive ID or repository names arXiv, as the reader
    takes it back. An eprint's categories are tags only when the item carries the eprint (so,
    or by Extra's arXiv line): the reader would otherwise take them for keywords."""
    return item.item_type == "preprint" and _named_archive(
        item.fields.get(fields["number"], ""), item.fields.get(fields["publisher"], "")) == ARXIV


def _named_archive(number: str, publisher: str) -> str:
    """The archive a preprint's fields name: its archive ID's ("arXiv:2101.00001"), else its
    repository."""
    match = _ARXIV_NUMBER.match(number)
    return match["archive"] if match else publisher


def _plain_note(record: Record) -> str | None:
    """The record's note when it can stand in Extra as it is (plain text, no line of it
    reading as data); another note travels in the residue."""
    note = record.get("note")
    if note is None or not is_plain(record.fields["note"]) or not is_plain_note(note) \
            or any(ARXIV_EXTRA_LINE.match(line) for line in note.split("\n")):
        return None
    return note


def _native_extra(record: Record, arxiv_line: str | None, variables: Mapping[str, str] = {},
                  difference: Mapping[str, Any] | None = None) -> str | None:
    """The Extra text of ``record``: its key, the ``variables`` lines, the arXiv line, its .bib
    fields as ``tex.`` lines, the residue ``difference`` and its note."""
    return extra_text(record.citation_key, variables, _tex_fields(record), difference,
                      _plain_note(record), (arxiv_line,) if arxiv_line else ())


def _without_written_spellings(difference: dict[str, Any], native: Record) -> dict[str, Any]:
    """``difference`` without the .bib spellings (``custom.latex``) that a .bib writer makes of
    the values Zotero keeps anyway (``95--98`` of ``95–98``), and without names' spellings that
    are plain words: a spelling is no part of a value, and Extra keeps only what is needed."""
    custom = difference.get("custom")
    if not isinstance(custom, dict) or not isinstance(custom.get("latex"), dict):
        return difference
    spellings: dict[str, Any] = custom["latex"]
    from refbridge.latex.encode import variable_latex

    kept: dict[str, Any] = {}
    for variable, spelling in spellings.items():
        if isinstance(spelling, list):
            names = [None if _plain_spelling(s) else s for s in spelling]
            if any(names):
                kept[variable] = names
        elif not (isinstance(spelling, str) and variable in native.fields
                  and variable_latex(variable, native.fields[variable]) == spelling):
            kept[variable] = spelling
    if kept == spellings:
        return difference
    trimmed = {**custom, "latex": kept} if kept else {
        k: v for k, v in custom.items() if k != "latex"}
    return {**difference, "custom": trimmed} if trimmed else {
        k: v for k, v in difference.items() if k != "custom"}


def _plain_spelling(spelling: Any) -> bool:
    """Whether a name's .bib spelling is plain capitalised words (``Donald E. Knuth``): a .bib
    writer's ``Knuth, Donald E.`` is the same name to bibtex and biber, so Extra need not keep
    it (a lower-case word, ``Jean-luc``, may be a particle to bibtex: kept)."""
    return isinstance(spelling, str) and _PLAIN_NAME.fullmatch(spelling) is not None


def zotero_item(record: Record) -> ZoteroItem:
    """The Zotero item of ``record``: its own fields, and Extra lines for the rest."""
    from lxml import etree

    item = native_item(record)
    written = etree.fromstring(etree.tostring(item_element(item, "#item")))
    native = record_of(read_item(written, {}, "<zotero>"), "<zotero>", Diagnostics(),
                       with_residue=False)
    difference = _without_written_spellings(residue(record, native), native)
    if difference:
        variables = _extra_variables(difference, to_csl(native))
        arxiv = next((line for line in (item.fields.get("extra") or "").split("\n")
                      if ARXIV_EXTRA_LINE.match(line)), None)
        item.fields["extra"] = _native_extra(record, arxiv, variables, difference) or ""
    return item


# -- Zotero item -> XML ---------------------------------------------------------------------------
def _sub(parent: Any, name: str, text: str | None = None, **attributes: str) -> Any:
    from lxml import etree

    element = etree.SubElement(parent, qname(name),
                               {qname(k.replace("_", ":", 1)): v for k, v in attributes.items()})
    if text is not None:
        element.text = xml_text(text)
    return element


def item_element(item: ZoteroItem, about: str) -> Any:
    """The RDF node of one item, as Zotero's export writes it."""
    from lxml import etree

    node = etree.Element(qname(ITEM_CLASSES.get(item.item_type, DEFAULT_CLASS)),
                         {qname("rdf:about"): about}, nsmap=NAMESPACES)
    _sub(node, "z:itemType", item.item_type)
    nodes: dict[str, Any] = {"item": node}

    def wrapper(kind: str) -> Any:
        if kind not in nodes:
            if kind == "container" and item.item_type not in CONTAINER_CLASSES:
                return node
            if kind == "container":
                holder = _sub(node, "dcterms:isPartOf")
                nodes[kind] = _sub(holder, CONTAINER_CLASSES[item.item_type])
            else:
                predicate, rdf_class, parent = WRAPPERS[kind]
                nodes[kind] = _sub(_sub(wrapper(parent), predicate), rdf_class)
        return nodes[kind]

    for creator_type in dict.fromkeys(ct for ct, _ in item.creators):
        prefix = "bib" if creator_type in BIB_CREATOR_TYPES else "z"
        sequence = _sub(_sub(node, f"{prefix}:{creator_type}s"), "rdf:Seq")
        for _, person in (c for c in item.creators if c[0] == creator_type):
            last, first = name_fields(person)
            element = _sub(_sub(sequence, "rdf:li"), "foaf:Person")
            _sub(element, "foaf:surname", last)
            if first is not None:
                _sub(element, "foaf:givenName", first)
    for zotero_field, value in item.fields.items():
        base = zt.BASE_FIELDS.get(zotero_field, zotero_field)
        if base in PREFIXED_IDENTIFIERS:
            _sub(wrapper("container"), "dc:identifier", PREFIXED_IDENTIFIERS[base] + value)
            continue
        kind, predicate = PLACEMENT.get(base, ("item", f"z:{zotero_field}"))
        if kind == "container" and predicate == "dc:title" \
                and item.item_type not in CONTAINER_CLASSES:
            kind, predicate = "item", f"z:{zotero_field}"
        _sub(wrapper(kind), predicate, value)
    for tag in item.tags:
        _sub(node, "dc:subject", tag)
    return node


def collection_name(records: list[Record], options: WriteOptions) -> str:
    """The collection's name: the option, else the first author common to all, else a default."""
    if options.collection:
        return options.collection
    if records:
        for person in records[0].authors:
            if all(person in r.authors for r in records[1:]):
                return person.display()
    return DEFAULT_COLLECTION


class ZoteroWriter:
    name = "zotero"
    description = catalogue.WRITERS["zotero"].description
    extension = catalogue.WRITERS["zotero"].extension
    key_unsafe = LINE_XML_KEY_UNSAFE  #: XML 1.0's forbidden characters; a line of Extra

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        from lxml import etree

        records = [select(record, options, {}) for record in records]
        root = etree.Element(qname("rdf:RDF"), nsmap=NAMESPACES)
        abouts = [f"#item_{number}" for number in range(1, len(records) + 1)]
        for record, about in zip(records, abouts):
            root.append(item_element(zotero_item(record), about))
        collection = _sub(root, "z:Collection", rdf_about="#collection_1")
        _sub(collection, "dc:title", collection_name(records, options))
        for about in abouts:
            _sub(collection, "dcterms:hasPart", rdf_resource=about)
        etree.indent(root, space=options.indent or "  ")
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(etree.tostring(root, encoding="unicode"))
        out.write("\n")


# -- XML -> Zotero item ---------------------------------------------------------------------------
def _objects(node: Any, predicate: str, index: Mapping[str, Any]) -> list[Any]:
    """The objects of ``predicate`` on ``node``: nested nodes, referenced nodes or text."""
    found: list[Any] = []
    resource = qname("rdf:resource")
    for element in node.findall(qname(predicate)):
        if element.get(resource) is not None:
            found.append(index.get(element.get(resource), element.get(resource)))
        elif len(element):
            found.append(element[0])
        elif element.text is not None:
            found.append(element.text)
    return found


def _of_class(objects: list[Any], rdf_class: str) -> Any | None:
    for value in objects:
        if not isinstance(value, str) and value.tag == qname(rdf_class):
            return value
        if not isinstance(value, str) and value.tag == qname("rdf:Description") and any(
                t.get(qname("rdf:resource")) == NAMESPACES[rdf_class.split(":")[0]]
                + rdf_class.split(":")[1] for t in value.findall(qname("rdf:type"))):
            return value
    return None


def _texts(node: Any, predicate: str, index: Mapping[str, Any]) -> list[str]:
    return [v for v in _objects(node, predicate, index) if isinstance(v, str)]


def read_item(node: Any, index: Mapping[str, Any], source: str) -> ZoteroItem:
    """The Zotero item an RDF node describes (Zotero's export structure, references resolved)."""
    item_type = (node.findtext(qname("z:itemType")) or "").strip()
    item = ZoteroItem(item_type, line=node.sourceline)
    field_of_base = FIELD_OF_BASE.get(item_type, {})
    container = _of_class(_objects(node, "dcterms:isPartOf", index),
                          CONTAINER_CLASSES.get(item_type, "bib:Journal")) \
        if item_type in CONTAINER_CLASSES else None
    nodes: dict[str, Any] = {"item": node, "container": container if container is not None
                             else node}
    for kind in ("series", "publisher", "conference", "uri", "lcc", "address"):
        predicate, rdf_class, parent = WRAPPERS[kind]
        holder = nodes.get(parent)
        nodes[kind] = None if holder is None else _of_class(
            _objects(holder, predicate, index), rdf_class)
    if nodes["series"] is None and container is not None:
        nodes["series"] = _of_class(_objects(node, "dcterms:isPartOf", index), "bib:Series")
    for base, (kind, predicate) in PLACEMENT.items():
        holder = nodes.get(kind)
        if holder is None or kind == "container" and predicate == "dc:title" \
                and container is None:
            continue  # a type without a container keeps its container title in z:field
        if base in SHARED_PREDICATE_BASES and base not in field_of_base:
            continue
        values = _texts(holder, predicate, index)
        if values:
            item.fields.setdefault(field_of_base.get(base, base), values[0])
    for identifier in _texts(nodes["container"], "dc:identifier", index) + (
            _texts(node, "dc:identifier", index) if container is not None else []):
        for base, prefix in PREFIXED_IDENTIFIERS.items():
            if identifier.startswith(prefix):
                item.fields.setdefault(field_of_base.get(base, base), identifier[len(prefix):])
    z_prefix = "{" + NAMESPACES["z"] + "}"
    for element in node:
        if not isinstance(element.tag, str) or not element.tag.startswith(z_prefix):
            continue
        local = element.tag[len(z_prefix):]
        if local == "itemType" or len(element):
            continue
        item.fields[local] = element.text or ""
    for predicate in {qname("bib:authors"), qname("bib:editors"), qname("bib:contributors")} \
            | {e.tag for e in node if isinstance(e.tag, str) and e.tag.startswith(z_prefix)
               and e.tag.endswith("s") and len(e)}:
        local = predicate.split("}")[1]
        for element in node.findall(predicate):
            people = element.iter(qname("foaf:Person"))
            for person in people:
                last = (person.findtext(qname("foaf:surname")) or "").strip()
                first = (person.findtext(qname("foaf:givenName")) or person.findtext(
                    qname("foaf:givenname")) or "").strip()
                if last or first:  # an empty foaf:Person names no one
                    item.creators.append((local[:-1], name_of(last, first)))
    notes = [memo.findtext(qname("rdf:value")) or "" for memo in _objects(
        node, "dcterms:isReferencedBy", index) if not isinstance(memo, str)]
    if any(n.strip() for n in notes):
        item.fields[CHILD_NOTES_FIELD] = "\n\n".join(n for n in notes if n.strip())
    item.tags = [tag for tag in _texts(node, "dc:subject", index) if tag.strip()]
    for automatic in node.iter(qname("z:AutomaticTag")):
        if (value := automatic.findtext(qname("rdf:value"))) and value.strip():
            item.tags.append(value)
    return item


def _extra_date(text: str) -> dict[str, Any]:
    """A date line of Extra (``original-date: 1983-05``) as CSL-JSON: its date parts when it
    reads as a plain date or range, else its text as a literal (a season or circa included,
    which Zotero's Extra lines do not say apart)."""
    date = parse_date(text)
    if date.start is None or date.season is not None or date.circa or date.literal:
        return {"literal": text}
    ends = (date.start, date.end) if date.end is not None else (date.start,)
    return {"date-parts": [end.as_list() for end in ends]}


def _split_extra(extra: str, key: str | None
                 ) -> tuple[str | None, dict[str, Any], str | None, str | None, dict[str, str]]:
    """Extra as its free text, the residue its data lines hold, the arXiv id of its
    ``arXiv: ID`` line, the citation key and the .bib fields of its ``tex.`` lines. A
    ``Citation Key:`` line gives the key when the item has none; one naming another key than
    the item's stays text."""
    found = read_extra(extra)
    text_lines = found.text.split("\n") if found.text is not None else []
    if found.citation_key is not None and key is not None and found.citation_key != key:
        text_lines.insert(0, f"Citation Key: {found.citation_key}")
    arxiv: str | None = None
    for number, line in enumerate(text_lines):
        if (match := ARXIV_EXTRA_LINE.match(line)):
            arxiv = match["id"]
            del text_lines[number]
            break
    difference: dict[str, Any] = {}
    for variable, value in found.variables.items():
        if variable in DATE_VARIABLE_SET:
            difference[variable] = _extra_date(value)
        else:
            difference[variable] = value
    difference.update(found.residue)
    text = "\n".join(text_lines)
    tex = tex_extras(found.tex)
    return (text if text.strip() else None), difference, arxiv, key or found.citation_key, tex


def record_of(item: ZoteroItem, source: str, diagnostics: Diagnostics,
              with_residue: bool = True, number: int = 1) -> Record:
    """The record of a Zotero item; raises ``ValueError`` when it cannot be built."""
    item_type = item.item_type
    if item_type not in zt.FIELDS:
        diagnostics.warning(f"unknown Zotero item type {item_type!r}, read as a document",
                            source, item.line)
    fields: dict[str, Text] = {}
    dates: dict[str, Date] = {}
    extra: dict[str, str] = {}
    csl_of_field = _CSL_OF_FIELD.get(item_type, {})
    csl_of_date = _CSL_OF_DATE_FIELD.get(item_type, {})
    difference: dict[str, Any] = {}
    arxiv: str | None = None
    key = item.fields.get("citationKey", "").strip() or None
    for zotero_field, value in item.fields.items():
        if zotero_field == "citationKey" or not value.strip():
            continue
        if zotero_field == "extra":
            note, difference, arxiv, key, tex = _split_extra(value, key)
            extra.update(tex)
            if note is not None:
                fields["note"] = note
        elif zotero_field in csl_of_date:
            dates[csl_of_date[zotero_field]] = read_date_or_warn(
                value, lambda message: diagnostics.warning(message, source, item.line),
                zotero_field) or Date(literal=value)
        elif zotero_field in csl_of_field:
            variable = csl_of_field[zotero_field]
            fields[variable] = value if variable in VERBATIM_VARIABLES | PLAIN_TEXT_VARIABLES \
                else from_markup(value)
        else:
            extra[f"{NAMESPACE}.{zotero_field}"] = value
    names: dict[str, list[Name]] = {}
    roles = _ROLE_OF_CREATOR.get(item_type, {})
    for creator_type, person in item.creators:
        if creator_type in roles:
            names.setdefault(roles[creator_type], []).append(person)
        else:
            previous = extra.get(f"{NAMESPACE}.{creator_type}")
            text = ", ".join(p for p in name_fields(person) if p)
            extra[f"{NAMESPACE}.{creator_type}"] = f"{previous}\n{text}" if previous else text
    eprint = None
    if item_type == "preprint":
        archive_id = plain(fields.get("number", ""))
        number_match = _ARXIV_NUMBER.match(archive_id)
        archive = _named_archive(archive_id, plain(fields.get("publisher", "")))
        if archive == ARXIV:
            eprint = Eprint(archive, number_match["id"] if number_match else arxiv)
            if number_match:
                del fields["number"]
            if plain(fields.get("publisher", "")) == archive:
                del fields["publisher"]
    if eprint is None and arxiv is not None:
        eprint = Eprint(ARXIV, arxiv)
    tags = list(item.tags)
    if eprint is not None:
        codes = [t for t in tags if is_category(t)]
        names_of_codes = {category_name(c) for c in codes}
        tags = [t for t in tags if t not in codes and t not in names_of_codes]
        eprint = Eprint(eprint.archive, eprint.identifier, codes[0] if codes else None,
                        tuple(codes[1:]))
    csl_type = zt.CSL_TYPE_OF_ZOTERO.get(item_type)
    if csl_type is not None and zt.ZOTERO_TYPE_OF_CSL.get(csl_type) != item_type:
        extra[f"{NAMESPACE}.{ITEM_TYPE_FIELD}"] = item_type  # an email is no letter
    clean_doi_field(fields)
    record = Record(
        id=key or f"zotero{number}",
        type=zt.CSL_TYPE_OF_ZOTERO.get(item_type, FALLBACK_TYPE),
        fields=fields,
        names={role: tuple(people) for role, people in names.items()},
        dates=dates,
        keywords=tuple(dict.fromkeys(tags)),
        eprint=eprint,
        citation_key=key,
        extra=extra,
        source=Source(source, item.line),
    )
    if with_residue and difference:
        def warn(message: str) -> None:
            diagnostics.warning(f"record {record.id!r}: {message}", source, item.line)

        record = apply_residue(record, difference, record.source, warn)
        if key is None and not {"id", "citation-key"} & difference.keys():
            record = record.replace(citation_key=None)  # CSL-JSON's id is no key here
    return record


class ZoteroReader(catalogue.CatalogueReader):
    name = "zotero"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        root = parse_xml(stream.read(), source, "Zotero RDF", diagnostics)
        if root.getroottree().docinfo.doctype:
            raise ParseError("a document type declaration is not allowed in Zotero RDF "
                             "(entities are never expanded)", source, 1)
        if root.tag != qname("rdf:RDF"):
            raise ParseError("not Zotero RDF: the root element is not rdf:RDF", source,
                             root.sourceline)
        about = qname("rdf:about")
        index = {e.get(about): e for e in root.iter() if e.get(about) is not None}
        number = 0
        for node in root:
            if not isinstance(node.tag, str) or node.find(qname("z:itemType")) is None:
                continue
            item = read_item(node, index, source)
            if item.item_type in ("note", "attachment", "annotation"):
                diagnostics.warning(f"Zotero {item.item_type} items are not records; "
                                    "skipped", source, node.sourceline)
                continue
            number += 1
            try:
                yield record_of(item, source, diagnostics, number=number)
            except (ValueError, ModelError) as exc:
                diagnostics.error(f"item skipped: {exc}", source, node.sourceline)


def _coverage() -> Coverage:
    fields = {v for table in zt.FIELDS.values() for v in table if v != "note"}
    dates = {v for table in zt.DATE_FIELDS.values() for v in table}
    roles = {r for table in zt.CREATORS.values() for r in table}
    native = {
        "type": f"z:itemType ({len(zt.ZOTERO_TYPE_OF_CSL)} CSL types; others as document)",
        "citation-key": "z:citationKey and Extra `Citation Key: KEY` (Zotero's exporters and "
                        "Better BibTeX read the line)",
        "keywords": "dc:subject (tags)",
        "eprint": ("preprint repository + archive ID arXiv:ID, else Extra `arXiv: ID`; "
                   "categories as tags"),
        "note": "dc:description (Extra)",
        **{v: "Zotero field (per item type)" for v in sorted(fields)},
        **{v: "Zotero date field (per item type)" for v in sorted(dates)},
        **{r: "creators (per item type)" for r in sorted(roles)},
    }
    extra = f"Extra `variable: value` / `{RESIDUE_LABEL}: {{CSL-JSON}}`"
    return Coverage(
        format="zotero",
        native=native,
        elsewhere={part: extra for part in MODEL_PARTS if part not in native},
        notes=(
            ("A field is native only in the item types whose Zotero fields include it; in "
            "other types it travels in Extra (`variable: value`, which Zotero itself reads)."),
            ("Names are Zotero's last and first name: particles are merged into them, a suffix "
            "follows the first name after a comma; what that does not give back travels in "
            "Extra. A corporate name is a single-field name."),
            ("Dates are Zotero's date text (`YYYY-MM-DD`, or the literal text); ranges, "
            "seasons and circa travel in Extra."),
            ("arXiv categories become two tags each (`cs.DB`, `Databases`); a preprint's "
            "repository is `arXiv` and its archive ID `arXiv:ID`; a work published elsewhere "
            "keeps its venue, and its arXiv id is the Extra line `arXiv: ID`, as Zotero's "
            "arXiv translator writes it."),
            ("Extra holds what Zotero and Better BibTeX read: `Citation Key: KEY`, CSL "
             "`variable: value` lines for variables the item lacks, `tex.field: value` for a "
             ".bib's fields Zotero has no field for; the residue line only what those cannot "
             "say. Zotero's CSL JSON export moves Extra into `note`, where the CSL-JSON reader "
             "reads the same lines."),
            ("The abstract is plain text (Zotero's is); its rich text travels in the residue."),
            ("Characters XML 1.0 cannot hold become U+FFFD in the RDF (the residue keeps them "
            "escaped in JSON)."),
            ("Zotero fields and creator types with no CSL counterpart (`rights`, `wordsBy` ...), "
             "and an item type that shares its CSL type with another (`email`), are read into "
             "`zotero.*` extras and written back into their own places."),
        ),
    )


READER = ZoteroReader()
WRITER = ZoteroWriter()
COVERAGE = _coverage()
