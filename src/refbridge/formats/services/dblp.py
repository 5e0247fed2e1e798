"""Reader for dblp person pages: the XML of ``https://dblp.org/pid/<pid>.xml`` (root
``dblpperson``), as dblp's XML documentation (dblpxml.pdf, dblp.dtd) describes its records.

Each ``<r>`` holds one publication (``article``, ``inproceedings``, ``incollection``, ``book``,
``proceedings``, ``phdthesis``, ``mastersthesis``, ``data``) that becomes one record: every
author in dblp's order, with dblp's person id (and ORCID iD where dblp has one) as identifiers
and without dblp's homonym number (``Wei Wang 0001`` is ``Wei Wang``); the title without the
period dblp ends titles with, its ``<i>``/``<sub>``/``<sup>``/``<tt>`` as rich text; the venue,
volume, number, pages and year; the DOI and arXiv id from the ``ee`` links. A CoRR entry is the
arXiv preprint it stands for (type ``article`` with its arXiv identity, not a journal named
"CoRR"). Elements without a slot are kept as ``dblp.<element>``. The page's person (name, pid,
ORCID from their ``url``) owns every record. DBLP's BibTeX is BibTeX: the ``bibtex`` reader
reads it. This module must never make a request.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.services.answers import (
    element_text,
    local,
    owned,
    parse_xml,
    record_or_error,
)
from refbridge.identifiers import DOI_RESOLVER, arxiv_id_from_url, clean_doi
from refbridge.model import Date, Eprint, Name, Record, Source
from refbridge.names.ids import PersonIdError, person_id
from refbridge.names.reading import split_name
from refbridge.richtext import Style, Text, inlines, plain, rich, strip

if TYPE_CHECKING:
    from lxml.etree import _Element

#: dblp record element -> CSL item type.
RECORD_TYPES: dict[str, str] = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "incollection": "chapter",
    "book": "book",
    "proceedings": "book",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "data": "dataset",
}
#: The record of a person's home page: not a publication.
HOMEPAGE = "www"
#: ``publtype`` values that change the type: dblp's software and data entries.
PUBLTYPE_TYPES: dict[str, str] = {"software": "software", "data": "dataset"}
#: dblp record element -> CSL genre.
GENRES: dict[str, str] = {"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis"}
#: dblp element holding text -> CSL variable (the first of repeated elements is used).
TEXT_ELEMENTS: dict[str, str] = {
    "journal": "container-title",
    "booktitle": "container-title",
    "volume": "volume",
    "number": "issue",
    "pages": "page",
    "publisher": "publisher",
    "school": "publisher",
    "series": "collection-title",
    "isbn": "ISBN",
    "note": "note",
}
#: dblp element holding a person -> CSL name role.
NAME_ELEMENTS: dict[str, str] = {"author": "author", "editor": "editor"}
#: Inline elements of dblp titles -> rich-text style.
TITLE_STYLES: dict[str, str] = {"i": Style.ITALIC, "b": Style.BOLD, "sub": Style.SUBSCRIPT,
                                "sup": Style.SUPERSCRIPT, "tt": Style.MONOSPACE}
#: Elements read elsewhere in this module (the rest go to ``extra``).
_HANDLED = frozenset({"title", "year", "month", "ee", *TEXT_ELEMENTS, *NAME_ELEMENTS})
#: The journal dblp files arXiv preprints under, and its volume spelling (``abs/2101.00001``).
CORR = "CoRR"
_CORR_VOLUME = re.compile(r"^abs/(?P<id>.+)$")
HOMONYM_NUMBER = re.compile(r"\s+\d{4}$")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")


def _person(element: _Element) -> Name:
    name = split_name(HOMONYM_NUMBER.sub("", " ".join((element.text or "").split())))
    ids = []
    for scheme, attribute in (("dblp", "pid"), ("orcid", "orcid")):
        value = element.get(attribute)
        if value:
            try:
                ids.append(person_id(scheme, value))
            except PersonIdError:
                pass  # an identifier dblp got wrong identifies nobody
    return Name(family=name.family, given=name.given,
                non_dropping_particle=name.non_dropping_particle, suffix=name.suffix,
                ids=tuple(ids))


def _title(element: _Element) -> Text:
    """A title without the period dblp ends it with (``...?`` and ``...!`` have none)."""
    title = element_text(element, TITLE_STYLES)
    items = list(inlines(title))
    if items and isinstance(items[-1], str) and items[-1].endswith(".") \
            and not items[-1].endswith(".."):
        items[-1] = items[-1][:-1]
        return strip(rich(items))
    return title


def _date(entry: _Element) -> Date | None:
    year = (entry.findtext("year") or "").strip()
    if not year.isdigit():
        return None
    month_text = (entry.findtext("month") or "").strip().lower()
    month = next((i + 1 for i, name in enumerate(_MONTHS)
                  if month_text and name.startswith(month_text[:3])), None)
    return Date.of(int(year), month)


def _links(entry: _Element, fields: dict[str, Text]) -> str | None:
    """DOI and URL from the ``ee`` links into ``fields``; the arXiv id, if one is linked."""
    arxiv: str | None = None
    for ee in entry.iterfind("ee"):
        url = (ee.text or "").strip()
        if not url:
            continue
        if DOI_RESOLVER.match(url):
            fields.setdefault("DOI", clean_doi(url))
        elif arxiv_id_from_url(url):
            arxiv = arxiv or url.rsplit("/abs/", 1)[-1].rsplit("/pdf/", 1)[-1]
        else:
            fields.setdefault("URL", url)
    return arxiv


def entry_record(entry: _Element, source: Source, diagnostics: Diagnostics) -> Record | None:
    """The record of one dblp publication element (``article``, ``inproceedings`` ...)."""
    kind = local(entry)
    key = entry.get("key") or f"{kind}-{entry.sourceline}"
    fields: dict[str, Text] = {}
    names: dict[str, list[Name]] = {}
    extra: dict[str, str] = {"dblp.key": key}
    for child in entry:
        name = local(child)
        if name == "title":
            fields["title"] = _title(child)
        elif name in NAME_ELEMENTS:
            names.setdefault(NAME_ELEMENTS[name], []).append(_person(child))
        elif name in TEXT_ELEMENTS:
            text = " ".join((child.text or "").split())
            if text:
                fields.setdefault(TEXT_ELEMENTS[name], text)
        elif name not in _HANDLED and name and (child.text or "").strip():
            previous = extra.get(f"dblp.{name}")
            text = " ".join(child.text.split())
            extra[f"dblp.{name}"] = f"{previous}\n{text}" if previous else text
    arxiv = _links(entry, fields)
    record_type = PUBLTYPE_TYPES.get(entry.get("publtype") or "", RECORD_TYPES[kind])
    if GENRES.get(kind):
        fields["genre"] = GENRES[kind]
    eprint = None
    if kind == "article" and plain(fields.get("container-title", "")) == CORR:
        corr = _CORR_VOLUME.match(plain(fields.get("volume", "")))
        arxiv = arxiv or (corr.group("id") if corr else None)
        record_type = "article"
        if arxiv:
            fields.pop("container-title")
            fields.pop("volume", None)
    if arxiv:
        eprint = Eprint("arXiv", arxiv)
    if entry.get("publtype"):
        extra["dblp.publtype"] = entry.get("publtype") or ""
    date = _date(entry)
    return record_or_error(
        diagnostics, source, id=f"dblp:{key}", type=record_type, fields=fields,
        names={role: tuple(people) for role, people in names.items()},
        dates={"issued": date} if date else {}, eprint=eprint, extra=extra)


def _owner(root: _Element) -> tuple[str | None, list[str]]:
    ids: list[str] = []
    pid = root.get("pid")
    if pid:
        ids.append(person_id("dblp", pid))
    for url in [*root.iterfind("person/url"), *root.iterfind("url")]:
        try:
            ids.append(person_id("orcid", (url.text or "").strip()))
        except PersonIdError:
            continue
    name = root.get("name")
    return (HOMONYM_NUMBER.sub("", name.strip()) if name else None), ids


def read_person(root: _Element, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
    """The records of a ``dblpperson`` element."""
    if local(root) != "dblpperson":
        raise ParseError("not a dblp person page: the root element is not dblpperson", source,
                         root.sourceline)
    try:
        owner, ids = _owner(root)
    except PersonIdError as exc:
        raise ParseError(f"dblp person: {exc}", source, root.sourceline) from None
    records = []
    for wrapper in root.iterfind("r"):
        for entry in wrapper:
            if not isinstance(entry.tag, str):
                continue
            if local(entry) == HOMEPAGE:
                continue
            if local(entry) not in RECORD_TYPES:
                diagnostics.warning(f"dblp <{local(entry)}> entry is not a publication; "
                                    "skipped", source, entry.sourceline)
                continue
            record = entry_record(entry, Source(source, entry.sourceline), diagnostics)
            if record is not None:
                records.append(record)
    yield from owned(records, owner, ids)


class DblpReader(catalogue.CatalogueReader):
    name = "dblp"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        yield from read_person(parse_xml(stream.read(), source, "a dblp person page"), source,
                               diagnostics)


READER = DblpReader()
