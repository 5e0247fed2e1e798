"""Web of Science / ISI tagged export (Web of Science: *Export → Plain text file*), read.

A file starts with ``FN``/``VR`` lines; each record starts with ``PT`` and ends with ``ER``;
a tag is two characters at the start of a line and continuation lines are indented by three
spaces (for ``AU``, ``AF``, ``CR``, ``C1`` each line is one more item). ``AF`` has the full
names (``Qian, Zhengping``; ``AU`` the short ones, read only when there are none), ``BE`` the
editors, ``CA`` group authors, ``SO`` the source, ``PY`` the year and ``PD`` the month and day
(``JAN 15``), ``BP``/``EP`` the pages, ``DE`` and ``ID`` keywords (``; ``-separated), ``DT``
the document type and ``UT`` the accession number. Tags the model has no slot for (``C1``
addresses, ``CR`` cited references, citation counts ...) are kept as ``wos.TAG`` extras. This
module must never drop a record or value silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.datetext import date_of, year_of
from refbridge.formats.tagged import endnote
from refbridge.formats.tagged import wos_tables as t
from refbridge.formats.tagged.records import TagField, TaggedSyntax, read_drafts
from refbridge.model import Date, ModelError, Name, Record, Source

SYNTAX = TaggedSyntax(
    "Web of Science", re.compile(r"^(?P<tag>[A-Z][A-Z0-9])(?: (?P<value>.*))?$"),
    continuation=re.compile(r"^ {2,3}(?P<value>.*)$"), starts=frozenset({"PT"}), end="ER",
    ignored=frozenset({"FN", "VR", "EF"}))
_SHORT_TAGS = {short for _, short in t.NAME_TAGS.values()}


def _name(text: str) -> Name:
    try:
        return endnote.parse_name(text)
    except ModelError:
        return Name(literal=text)


def record_of(fields: list[TagField], source: str, line: int, number: int,
              diagnostics: Diagnostics) -> Record:
    """The record of one Web of Science record."""
    values: dict[str, str] = {}
    names: dict[str, list[Name]] = {}
    short: dict[str, list[Name]] = {}
    keywords: list[str] = []
    extra: dict[str, list[str]] = {}
    pages: dict[str, str] = {}
    kinds: dict[str, str] = {}
    for field in fields:
        tag = field.tag
        items = [p.strip() for p in field.lines if p.strip()] if tag in t.LIST_TAGS \
            else [field.text] if field.text else []
        if not items:
            continue
        if tag in t.NAME_TAGS:
            names.setdefault(t.NAME_TAGS[tag][0], []).extend(map(_name, items))
        elif tag in _SHORT_TAGS:
            role = next(r for r, s in t.NAME_TAGS.values() if s == tag)
            short.setdefault(role, []).extend(map(_name, items))
        elif tag in t.CORPORATE_TAGS:
            names.setdefault("author", []).extend(Name(literal=i) for i in items)
        elif tag in t.KEYWORD_TAGS:
            keywords += [k.strip() for k in items[0].split(";") if k.strip()]
        elif tag in ("BP", "EP"):
            pages[tag] = items[0]
        elif tag in ("PT", "DT", "PY", "PD"):
            kinds[tag] = items[0]
        elif tag in t.FIELD_TAGS and t.FIELD_TAGS[tag] not in values:
            values[t.FIELD_TAGS[tag]] = items[0]
        else:
            extra.setdefault(f"wos.{tag}", []).extend(items)
    for role, people in short.items():
        names.setdefault(role, people)
    if pages:
        values["page"] = "-".join(p for p in (pages.get("BP"), pages.get("EP")) if p)
    document = kinds.get("DT", "").split(";")[0].strip().lower()
    record_type = t.DOCUMENT_TYPES.get(document) or t.PUBLICATION_TYPES.get(
        kinds.get("PT", ""), t.PUBLICATION_TYPES.get(kinds.get("PT", "").lower(), "document"))
    if document and document not in t.DOCUMENT_TYPES:
        extra.setdefault("wos.DT", []).append(kinds["DT"])
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


class WosReader:
    name = "wos"
    description = catalogue.READERS["wos"].description
    extensions = catalogue.READERS["wos"].extensions
    sniff = staticmethod(catalogue.READERS["wos"].sniff)

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        for number, draft in enumerate(read_drafts(stream, source, diagnostics, SYNTAX),
                                       start=1):
            try:
                yield record_of(draft.fields, source, draft.line, number, diagnostics)
            except ValueError as exc:
                diagnostics.error(f"record skipped: {exc}", source, draft.line)


READER = WosReader()
