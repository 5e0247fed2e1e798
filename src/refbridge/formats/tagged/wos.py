"""Web of Science / ISI tagged export (Web of Science: *Export → Plain text file*), read.

A file starts with ``FN``/``VR`` lines; each record starts with ``PT`` and ends with ``ER``;
a tag is two characters at the start of a line and continuation lines are indented by three
spaces (for ``AU``, ``AF``, ``CR``, ``C1`` each line is one more item); some exports (BIOSIS
in Web of Knowledge) do not indent them, so a line that starts with no known tag continues the
value before it. ``AF`` has the full names (``Qian, Zhengping``; without a comma the family
name comes first, ``Qi Haixia``; an e-mail address after a name is kept as ``wos.EM``; ``AU``
the short ones, read only when there are none), ``BE`` the
editors, ``CA`` group authors, ``SO`` the source, ``PY`` the year and ``PD`` the month and day
(``JAN 15``), ``BP``/``EP`` the pages (else Inspec's ``PS`` range, else the article number
``AR``), ``DE`` and ``ID`` keywords (``; ``-separated), ``DT``
the document type and ``UT`` the accession number. Titles' inline ``<i>``, ``<sub>``,
``<sup>`` are rich text; a DOI link is the DOI. Tags the model has no slot for (``C1``
addresses, ``CR`` cited references, citation counts ...) are kept as ``wos.TAG`` extras. This
module must never drop a record or value silently.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import TextIO

from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.csl_markup import from_markup
from refbridge.formats.datetext import date_of, year_of
from refbridge.formats.tagged import ris
from refbridge.formats.tagged import wos_tables as t
from refbridge.formats.tagged.records import TagField, TaggedSyntax, read_drafts
from refbridge.identifiers import clean_doi
from refbridge.model import Date, ModelError, Name, Record, Source
from refbridge.names.reading import spaced_initials
from refbridge.richtext import Text
from refbridge.vocab import VERBATIM_VARIABLES

SYNTAX = TaggedSyntax(
    "Web of Science", re.compile(r"^(?P<tag>[A-Z][A-Z0-9])(?: (?P<value>.*))?$"),
    starts=frozenset({"PT"}), end="ER", ignored=frozenset({"FN", "VR", "EF"}),
    tags=t.KNOWN_TAGS)
#: Inspec's notation of a sub- or superscript: ``/sub 3/``, ``/sup -1/``.
_INSPEC_SCRIPT = re.compile(r"/(sub|sup) ([^/<>]+?) ?/")
#: One initial, as Web of Science writes a middle initial after a second comma.
_INITIAL = re.compile(r"[A-Z]\.?")
_SHORT_TAGS = {short for _, short in t.NAME_TAGS.values()}
#: An e-mail address written after a name: ``Medvedeff, Cassandra A. (medvedeff22@ufl.edu)``
#: (a match starts only where a run of spaces or an address starts, the spaces taken at once:
#: time linear in the text).
_EMAIL = re.compile(r"(?:(?<!\s)(?=(\s+))\1)?(?:[(<\[]\s*)?(?<![^\s()<>\[\]@])"
                    r"(?P<address>[^\s()<>\[\]@]+@[^\s()<>\[\]@]+)\s*[)>\]]?")


def parse_name(text: str) -> Name:
    """A Web of Science name: ``Family, Given`` (``Qian, Zhengping``, ``Sun, J``), or, without
    a comma, the family name first (``Qi Haixia``, Derwent's ``YANG Y``). An initial after a
    second comma is the given name's last (``Kowalczyk, Marta, J``: Marta J.), as Web of
    Science writes the full name of ``Marta J. Kowalczyk``."""
    if "," in text:
        family, _, given = text.partition(",")
        given, _, last = given.partition(",")
        if _INITIAL.fullmatch(last.strip()):
            text = f"{family}, {given.strip()} {last.strip()}"
        name = ris.parse_name(text)
    else:
        family, _, given = text.strip().partition(" ")
        name = Name(family=family, given=given.strip() or None)
    if name.given:  # ``Fielding, JE``: the initials J E
        return dataclasses.replace(name, given=spaced_initials(name.given))
    return name


def _inspec_markup(text: str) -> str:
    """Inspec's sub- and superscripts (``LiNbO/sub 3/``, ``Sn/sub 2 /P``) as the ``<sub>`` and
    ``<sup>`` markup Web of Science writes."""
    return _INSPEC_SCRIPT.sub(lambda m: f"<{m[1]}>{m[2]}</{m[1]}>", text)


def _names(items: list[str], emails: list[str]) -> list[Name]:
    """The names of a name tag's lines (MEDLINE in Web of Science puts several in one line,
    ``; ``-separated); an e-mail address after a name goes to ``emails``."""
    names: list[Name] = []
    for item in items:
        for text in (part.strip() for part in item.split(";")):
            emails.extend(m["address"] for m in _EMAIL.finditer(text))
            text = _EMAIL.sub("", text).strip()
            if text:
                try:
                    names.append(parse_name(text))
                except ModelError:
                    names.append(Name(literal=text))
    return names


def _pages(found: dict[str, str], values: dict[str, Text], extra: dict[str, list[str]]
           ) -> None:
    """The record's pages (``PAGE_TAGS``): begin and end page, else Inspec's range, else the
    article number. Beside pages an article number is the record's number, and a range that
    says other than begin and end page is kept as ``wos.PS``."""
    if "BP" in found or "EP" in found:
        values["page"] = "-".join(p for p in (found.get("BP"), found.get("EP")) if p)
        if "AR" in found:
            values.setdefault("number", found["AR"])
        if "PS" in found and found["PS"] != values["page"]:
            extra.setdefault("wos.PS", []).append(found["PS"])
    elif "PS" in found:
        values["page"] = found["PS"]
        if "AR" in found:
            values.setdefault("number", found["AR"])
    elif "AR" in found:
        values["page"] = found["AR"]


def record_of(fields: list[TagField], source: str, line: int, number: int,
              diagnostics: Diagnostics) -> Record:
    """The record of one Web of Science record."""
    values: dict[str, Text] = {}
    names: dict[str, list[Name]] = {}
    short: dict[str, list[Name]] = {}
    keywords: list[str] = []
    extra: dict[str, list[str]] = {}
    pages: dict[str, str] = {}
    kinds: dict[str, str] = {}
    emails: list[str] = []
    issns: dict[str, None] = {}
    for field in fields:
        tag = field.tag
        items = [p.strip() for p in field.lines if p.strip()] if tag in t.LIST_TAGS \
            else [field.text] if field.text else []
        if not items:
            continue
        if tag in t.NAME_TAGS:
            names.setdefault(t.NAME_TAGS[tag][0], []).extend(_names(items, emails))
        elif tag in _SHORT_TAGS:
            role = next(r for r, s in t.NAME_TAGS.values() if s == tag)
            short.setdefault(role, []).extend(_names(items, emails))
        elif tag in t.CORPORATE_TAGS:
            names.setdefault("author", []).extend(Name(literal=i) for i in items)
        elif tag in t.KEYWORD_TAGS:
            keywords += [k.strip() for k in items[0].split(";") if k.strip()]
        elif tag in t.ISSN_TAGS:
            issns.setdefault(items[0], None)
        elif tag in t.PAGE_TAGS and tag not in pages:
            pages[tag] = items[0]
        elif tag in ("PT", "DT", "PY", "PD"):
            kinds[tag] = items[0]
        elif tag in t.FIELD_TAGS and t.FIELD_TAGS[tag] not in values:
            variable = t.FIELD_TAGS[tag]
            values[variable] = clean_doi(items[0]) if variable == "DOI" else items[0] \
                if variable in VERBATIM_VARIABLES else from_markup(_inspec_markup(items[0]))
        else:
            extra.setdefault(f"wos.{tag}", []).extend(items)
    for role, people in short.items():
        names.setdefault(role, people)
    if emails:
        known = set("\n".join(extra.get(f"wos.{t.EMAIL_TAG}", [])).replace(";", " ").split())
        extra.setdefault(f"wos.{t.EMAIL_TAG}", []).extend(e for e in emails if e not in known)
    _pages(pages, values, extra)
    if issns:
        values["ISSN"] = ", ".join(issns)
    document = kinds.get("DT", "").split(";")[0].strip().lower()
    record_type = t.DOCUMENT_TYPES.get(document) or t.PUBLICATION_TYPES.get(
        kinds.get("PT", ""), t.PUBLICATION_TYPES.get(kinds.get("PT", "").lower(), "document"))
    if record_type == "article-journal" and kinds.get("PT") in t.BOOK_PUBLICATION_TYPES:
        record_type = "chapter"
    if document and document not in t.DOCUMENT_TYPES:
        extra.setdefault("wos.DT", []).append(kinds["DT"])
    if record_type in t.BOOK_TYPES and f"wos.{t.BOOK_GROUP_TAG}" in extra:
        names.setdefault("author", []).extend(
            Name(literal=group) for group in extra.pop(f"wos.{t.BOOK_GROUP_TAG}"))
    if record_type == "patent" and f"wos.{t.PATENT_NUMBER_TAG}" in extra:
        values.setdefault("number", "\n".join(extra.pop(f"wos.{t.PATENT_NUMBER_TAG}")))
    dates: dict[str, Date] = {}
    if "PY" in kinds or "PD" in kinds:
        month_day = re.sub(r"\b\d{4}\b", "", kinds.get("PD", "")).strip()
        issued = date_of(kinds.get("PY", ""), month_day.title())
        if issued is None and (year := year_of(kinds.get("PY", ""))) is not None:
            issued = Date.of(year)
            extra.setdefault("wos.PD", []).append(kinds["PD"])
        if issued is not None:
            dates["issued"] = issued
        else:
            extra.setdefault("wos.PY", []).append(" ".join(kinds.get(k, "") for k in
                                                           ("PY", "PD")).strip())
    return Record(
        id=f"wos{number}", type=record_type, fields=values,
        names={role: tuple(people) for role, people in names.items()}, dates=dates,
        keywords=tuple(dict.fromkeys(keywords)),
        extra={k: "\n".join(v) for k, v in extra.items()}, source=Source(source, line))


class WosReader(catalogue.CatalogueReader):
    name = "wos"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        for number, draft in enumerate(read_drafts(stream, source, diagnostics, SYNTAX),
                                       start=1):
            try:
                yield record_of(draft.fields, source, draft.line, number, diagnostics)
            except ValueError as exc:
                diagnostics.error(f"record skipped: {exc}", source, draft.line)


READER = WosReader()
