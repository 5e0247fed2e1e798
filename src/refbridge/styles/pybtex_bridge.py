"""pybtex's BibTeX styles (plain, unsrt, alpha, ...) as refbridge formatters.

CSL-JSON items become pybtex entries through the tables below (CSL item type -> BibTeX entry
type, CSL variable -> BibTeX field), then pybtex sorts, labels and formats them and one of its
backends writes text, HTML, Markdown or LaTeX. pybtex reads field values as LaTeX, so every value
is escaped on the way in (``_escape``) and record text comes out as the same text: never as
markup or LaTeX commands. Literal braces cannot be escaped for pybtex's parser; a value with
braces is refused with an error naming the item. This module must never be imported when
pybtex styles are not used (pybtex is imported here at the top).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pybtex.backends import latex as latex_backend
from pybtex.database import BibliographyData, Entry, Person
from pybtex.plugin import find_plugin
from pybtex.style import FormattedEntry
from pybtex.style.formatting import BaseStyle
from pybtex.style.template import FieldIsMissing

from refbridge.cv.links import safe_http_url
from refbridge.errors import RefbridgeError
from refbridge.styles.definitions import FormatRequest, Item

OUTPUTS = ("text", "html", "markdown", "latex")

#: CSL item type -> BibTeX entry type (anything else: misc)
ENTRY_TYPES: dict[str, str] = {
    "article-journal": "article",
    "article-magazine": "article",
    "article-newspaper": "article",
    "review": "article",
    "book": "book",
    "chapter": "incollection",
    "paper-conference": "inproceedings",
    "thesis": "phdthesis",
    "report": "techreport",
    "manuscript": "unpublished",
}

#: CSL variable -> BibTeX field, for every entry type (first variable present wins a field)
FIELDS: dict[str, str] = {
    "title": "title",
    "collection-title": "series",
    "volume": "volume",
    "issue": "number",
    "number": "number",
    "chapter-number": "chapter",
    "edition": "edition",
    "page": "pages",
    "publisher-place": "address",
    "genre": "type",
    "DOI": "doi",
    "URL": "url",
    "ISBN": "isbn",
    "ISSN": "issn",
    "note": "note",
}

#: BibTeX field that holds CSL ``container-title``, by entry type (default: howpublished)
CONTAINER_FIELDS: dict[str, str] = {"article": "journal", "incollection": "booktitle",
                                    "inproceedings": "booktitle"}
#: BibTeX field that holds CSL ``publisher``, by entry type (default: publisher)
PUBLISHER_FIELDS: dict[str, str] = {"techreport": "institution", "phdthesis": "school"}
#: BibTeX fields that styles recase (plain lowercases titles): words with capitals are kept
#: as written, the way Zotero protects them when it exports BibTeX
CASE_PROTECTED_FIELDS = frozenset({"title"})
_WORD_WITH_CAPITAL = re.compile(r"(?<!\S)(?=\S*[A-Z])\S+")
#: CSL name variable -> BibTeX person role
PERSON_ROLES: dict[str, str] = {"author": "author", "editor": "editor"}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")

#: text -> the LaTeX that pybtex's reader (latexcodec's ulatex decoder) turns back into the text
_LATEX_ESCAPES: dict[str, str] = {
    "\\": r"\textbackslash{}", "%": r"\%", "&": r"\&", "#": r"\#", "_": r"\_",
    "~": r"\textasciitilde{}", "--": "-{}-", "``": "`{}`", "''": "'{}'",
}
_LATEX_SPECIAL = re.compile("|".join(re.escape(k) for k in sorted(_LATEX_ESCAPES, key=len,
                                                                   reverse=True)))

#: characters LaTeX output must escape (pybtex's LaTeX backend leaves \ { } $ ^ as they are)
_LATEX_OUTPUT_ESCAPES: dict[str, str] = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%",
    "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "\u00a0": "~",
}
_LATEX_OUTPUT_SPECIAL = re.compile("|".join(re.escape(k) for k in _LATEX_OUTPUT_ESCAPES))

#: how one entry is written, by output: ``{label}`` and ``{text}`` are already in that output
ENTRY_TEMPLATES: dict[str, str] = {
    "text": "[{label}] {text}",
    "html": '<div class="csl-entry"><div class="csl-left-margin">[{label}]</div>'
            '<div class="csl-right-inline">{text}</div></div>',
    "markdown": "\\[{label}\\] {text}",
    "latex": "[{label}] {text}",
}


class PybtexValueError(RefbridgeError):
    """A value pybtex cannot format faithfully."""


#: fields pybtex styles print as they are (``field(..., raw=True)``), links among them: never
#: LaTeX-escaped on the way in, and linked only when they are a web address
RAW_FIELDS = frozenset({"url", "doi", "eprint"})


def _linkable(url: str) -> bool:
    """An http(s) address that no output's link syntax can be broken out of."""
    return safe_http_url(url) and not set(url) & set("{}()[]")


class _LatexBackend(latex_backend.Backend):  # type: ignore[misc]
    """pybtex's LaTeX backend, escaping every LaTeX special character of record text."""

    def format_str(self, str_: str) -> str:
        return _LATEX_OUTPUT_SPECIAL.sub(lambda m: _LATEX_OUTPUT_ESCAPES[m.group(0)], str_)


def _backend(output: str, links: bool = True) -> Any:
    """pybtex's backend for ``output``, whose links are made only of safe web addresses (and
    whose link text is the address as text otherwise, and always without ``links``)."""
    base = _LatexBackend if output == "latex" else find_plugin("pybtex.backends", output)

    class SafeLinks(base):  # type: ignore[misc, valid-type]
        def format_href(self, url: str, text: str, external: bool = False) -> str:
            if not links or not _linkable(url):
                return text
            return str(super().format_href(html.escape(url) if output == "html" else url,
                                           text, external))

    return SafeLinks()


def _escape(value: str, item_id: str, variable: str) -> str:
    if "{" in value or "}" in value:
        raise PybtexValueError(f"item {item_id!r}: {variable} contains braces, which pybtex "
                               f"styles cannot print; use a CSL style: {value!r}")
    return _LATEX_SPECIAL.sub(lambda m: _LATEX_ESCAPES[m.group(0)], value)


def _protect_capitals(latex: str) -> str:
    """Brace every word after the first that has a capital letter (``the {ATLAS} detector``)."""
    first, _, rest = latex.partition(" ")
    return first + (" " + _WORD_WITH_CAPITAL.sub(lambda m: "{" + m.group(0) + "}", rest)
                    if rest else "")


def _person(name: Mapping[str, Any], item_id: str, role: str) -> Person:
    if "literal" in name:
        return Person(last="{" + _escape(str(name["literal"]), item_id, role) + "}")
    particles = " ".join(str(name[part]) for part in ("dropping-particle", "non-dropping-particle")
                         if name.get(part))
    return Person(first=_escape(str(name.get("given", "")), item_id, role),
                  prelast=_escape(particles, item_id, role),
                  last=_escape(str(name.get("family", "")), item_id, role),
                  lineage=_escape(str(name.get("suffix", "")), item_id, role))


def to_pybtex_entry(item: Item) -> Entry:
    """The pybtex entry for one CSL-JSON item (see the tables above)."""
    item_id = str(item["id"])
    entry_type = ENTRY_TYPES.get(str(item.get("type", "")), "misc")
    variables = {**FIELDS, "container-title": CONTAINER_FIELDS.get(entry_type, "howpublished"),
                 "publisher": PUBLISHER_FIELDS.get(entry_type, "publisher")}
    fields: dict[str, str] = {}
    for variable, bibtex_field in variables.items():
        value = item.get(variable)
        if value not in (None, "") and bibtex_field not in fields:
            fields[bibtex_field] = (str(value) if bibtex_field in RAW_FIELDS
                                    else _escape(str(value), item_id, variable))
    for bibtex_field in CASE_PROTECTED_FIELDS & fields.keys():
        fields[bibtex_field] = _protect_capitals(fields[bibtex_field])
    date_parts = ((item.get("issued") or {}).get("date-parts") or [[]])[0]
    if date_parts:
        fields["year"] = str(date_parts[0])
    if len(date_parts) > 1 and str(date_parts[1]).isdigit() and 1 <= int(date_parts[1]) <= 12:
        fields["month"] = MONTHS[int(date_parts[1]) - 1]
    persons = {role: [_person(name, item_id, variable) for name in item[variable]]
               for variable, role in PERSON_ROLES.items() if item.get(variable)}
    return Entry(entry_type, fields=fields, persons=persons)


def _format_entry(formatter: BaseStyle, label: str, entry: Entry) -> FormattedEntry:
    """One formatted entry; an entry that lacks a field its BibTeX type requires is formatted
    as ``misc``, where every field is optional (BibTeX itself warns and goes on)."""
    try:
        return formatter.format_entry(label, entry)
    except FieldIsMissing:
        fallback = Entry("misc", fields=entry.fields, persons=entry.persons)
        fallback.key = entry.key
        return formatter.format_entry(label, fallback)


@dataclass(slots=True)
class PybtexProcessor:
    """The formatted bibliography of ``items`` in pybtex style ``style`` (e.g. ``plain``)."""

    entries: list[tuple[str, str, str]]  #: (item id, label, formatted entry) in style order

    @classmethod
    def create(cls, style: str, items: Sequence[Item], request: FormatRequest) -> PybtexProcessor:
        data = BibliographyData({str(item["id"]): to_pybtex_entry(item) for item in items})
        formatter: BaseStyle = find_plugin("pybtex.style.formatting", style)()
        entries = formatter.sort(list(data.entries.values()))
        formatted = [_format_entry(formatter, label, entry)
                     for label, entry in zip(formatter.format_labels(entries), entries)]
        backend = _backend(request.output, request.links)
        template = ENTRY_TEMPLATES[request.output]
        return cls([(entry.key, entry.label,
                     template.format(label=backend.format_str(entry.label),
                                     text=entry.text.render(backend)))
                    for entry in formatted])

    def bibliography(self) -> list[str]:
        return [text for _, _, text in self.entries]

    def bibliography_ids(self) -> list[str]:
        return [item_id for item_id, _, _ in self.entries]

    def cite(self, cites: Sequence[Mapping[str, Any]]) -> str:
        labels = {item_id: label for item_id, label, _ in self.entries}
        return "[" + ", ".join(labels[str(cite["id"])] for cite in cites) + "]"
