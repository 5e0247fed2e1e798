"""EndNote XML (EndNote: File → Export → XML), read and written.

The structure is the one EndNote's DTD gives: ``xml/records/record`` holding ``ref-type``
(``name="Journal Article"``, text ``17``), ``contributors/authors/author`` ...,
``titles/title``, ``titles/secondary-title``, ``periodical/full-title``, ``pages``,
``volume``, ``number``, ``keywords/keyword``, ``dates/year``, ``dates/pub-dates/date``,
``isbn``, ``electronic-resource-num`` (the DOI), ``urls/related-urls/url``, ``abstract``,
``notes``, ``label`` (the citation key) and more; each value is text or ``<style face=…>``
runs. Style runs are the model's rich text: ``italic``, ``bold``, ``superscript`` and
``subscript`` faces become those inlines and are written back as runs.

The mapping to the model is the EndNote one of ``formats.endnote`` with element paths for
keys; what EndNote has no field for travels in a ``notes`` line ``refbridge: {CSL-JSON}``.
Elements the model has no slot for are kept as ``endnote-xml.<element path>`` extras, written
back; file attachments (``urls/pdf-urls/url``, and ``internal-pdf://`` or ``file://``
addresses wherever they stand) are such an extra, never the URL. ``<isbn>`` holds an ISSN, an
ISBN or a patent's or report's number, by the value's shape, else by the record's type, as
Zotero reads it; a library's bookkeeping (``database``, ``source-app``,
``rec-number``, ``foreign-keys``) is not bibliographic data and is not carried (reported once
per file). Parsing refuses
entity declarations (``formats.xmlinput``). This module must never drop a record or value
silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from refbridge.citekeys import XML_KEY_UNSAFE
from refbridge.coverage import Coverage
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.csljson import residue_note
from refbridge.formats.residue import RESIDUE_LABEL
from refbridge.formats.selection import select
from refbridge.formats.tagged import endnote_tables as t
from refbridge.formats.tagged.endnote import (
    Vocabulary,
    endnote_coverage,
    native_values,
    record_of,
)
from refbridge.formats.xml.safe import local_name, parse_xml, xml_text
from refbridge.model import Record
from refbridge.registry import WriteOptions
from refbridge.richtext import (
    Inline,
    Styled,
    Text,
    inlines,
    plain,
    rich,
    strip,
    styled,
)

VOCABULARY = Vocabulary(
    extra_prefix="endnote-xml",
    fields={**{path: var for var, path in t.FIELD_ELEMENTS.items()},
            **t.FIELD_ELEMENT_ALIASES},
    field_keys=t.FIELD_ELEMENTS,
    names=t.NAME_ELEMENTS,
    type=t.TYPE_ELEMENT, year=t.YEAR_ELEMENT, date=t.DATE_ELEMENT,
    accessed=t.ACCESSED_ELEMENT, key=t.KEY_ELEMENT, keyword=t.KEYWORD_ELEMENT,
    isbn=t.ISBN_ISSN_ELEMENT, number=t.NUMBER_ELEMENT, issue=t.ISSUE_ELEMENT,
    periodical=t.CONTAINER_ELEMENT, container=t.CONTAINER_ELEMENT, note=t.NOTE_ELEMENT,
    notes=frozenset({t.NOTE_ELEMENT}),
    extra_key=re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*(?:/[A-Za-z_][A-Za-z0-9_.-]*)*$"),
)
#: Elements read into another form than their text (the type, names, dates): element -> how.
RECOMPOSED: dict[str, str] = {
    "ref-type": "the CSL type (by name, else number)", "author": "a name (family, given)",
    "date": "the issued date", "year": "the issued date",
}
_NAME_OF_NUMBER = {number: name for name, number in t.TYPE_NUMBERS.items()}
_STYLE_FACES = {style: face for face, style in t.FACES.items()}
_ORDER = {name: i for i, name in enumerate(t.ELEMENT_ORDER)}
_TITLE_ORDER = {name: i for i, name in enumerate(t.TITLE_ORDER)}
STYLE_ATTRIBUTES = {"font": "default", "size": "100%"}


# -- XML -> values ------------------------------------------------------------------------------
def _run(text: str, faces: str) -> tuple[Inline, ...]:
    content: tuple[Inline, ...] = (text,)
    for face in faces.split():
        if face in t.FACES:
            content = styled(t.FACES[face], content)
    return content


def value_of(element: Any) -> Text:
    """The rich text of a value element: its text and its ``style`` runs."""
    runs = len(element) > 0

    def between(text: str | None) -> str:  # white space laid out around runs is no text
        return "" if text is None or runs and not text.strip() else text

    parts: list[Inline] = [between(element.text)]
    for run in element:
        parts.extend(_run("".join(run.itertext()), run.get("face", "")))
        parts.append(between(run.tail))
    return strip(rich(parts))


def _type_name(element: Any) -> str:
    name = (element.get("name") or "").strip()
    if name:
        return name
    number = "".join(element.itertext()).strip()
    return _NAME_OF_NUMBER.get(int(number), number) if number.isdigit() else number


def record_values(record: Any) -> Iterator[tuple[str, Text, int]]:
    """The (element path, value, line) of every value of a ``record`` element."""
    stack: list[tuple[Any, str]] = [(child, "") for child in reversed(record)]
    while stack:
        element, parent = stack.pop()
        name = local_name(element)
        if not name or not parent and name in t.LIBRARY_ELEMENTS:
            continue
        path = f"{parent}/{name}" if parent else name
        if path == t.TYPE_ELEMENT:
            yield path, _type_name(element), element.sourceline or 1
        elif all(local_name(c) == "style" for c in element):
            value = value_of(element)
            yield _attachment_path(path, value), value, element.sourceline or 1
        else:
            stack.extend((c, path) for c in reversed(element))


def _attachment_path(path: str, value: Text) -> str:
    """``path``, or the attachment element for an address of an attached file among the URLs
    (Mendeley writes ``internal-pdf://`` links there): a file is never the record's URL."""
    if path.startswith("urls/") and plain(value).strip().lower().startswith(
            t.ATTACHMENT_SCHEMES):
        return t.ATTACHMENT_ELEMENT
    return path


# -- values -> XML ------------------------------------------------------------------------------
def _runs(value: Text) -> Iterator[tuple[str, str]]:
    """(face, text) runs of a value (styles EndNote has no face for are plain text)."""
    def walk(items: Iterable[Inline], faces: tuple[str, ...]) -> Iterator[tuple[str, str]]:
        for item in items:
            if isinstance(item, Styled):
                face = _STYLE_FACES.get(item.style)
                yield from walk(item.content, faces + ((face,) if face else ()))
            else:
                yield " ".join(faces) or "normal", plain(rich((item,)))

    runs: list[tuple[str, str]] = []
    for face, text in walk(inlines(value), ()):
        if runs and runs[-1][0] == face:
            runs[-1] = (face, runs[-1][1] + text)
        elif text:
            runs.append((face, text))
    return iter(runs)


def _sort_key(pair: tuple[str, Text]) -> tuple[int, int]:
    first, _, rest = pair[0].partition("/")
    second = rest.partition("/")[0]
    return _ORDER.get(first, len(_ORDER)), _TITLE_ORDER.get(second, len(_TITLE_ORDER))


def record_element(values: list[tuple[str, Text]], number: int) -> Any:
    """The ``record`` element of (element path, value) pairs, in the DTD's order."""
    from lxml import etree

    record = etree.Element("record")
    etree.SubElement(record, "rec-number").text = str(number)
    containers: dict[str, Any] = {"": record}
    for path, value in sorted(values, key=_sort_key):
        parent_path, _, name = path.rpartition("/")
        parent = record
        walked = ""
        for part in parent_path.split("/") if parent_path else ():
            walked = f"{walked}/{part}" if walked else part
            if walked not in containers:
                containers[walked] = etree.SubElement(parent, part)
            parent = containers[walked]
        element = etree.SubElement(parent, name)
        if path == t.TYPE_ELEMENT:
            type_name = plain(value)
            element.set("name", type_name)
            element.text = str(t.TYPE_NUMBERS.get(type_name, t.TYPE_NUMBERS["Generic"]))
            continue
        for face, text in _runs(value):
            run = etree.SubElement(element, "style", {"face": face, **STYLE_ATTRIBUTES})
            run.text = xml_text(text)
    return record


def _records_of(root: Any, source: str, diagnostics: Diagnostics, with_residue: bool = True
                ) -> Iterator[Record]:
    records = root if local_name(root) == "records" else next(
        (c for c in root if local_name(c) == "records"), None)
    if local_name(root) not in ("xml", "records") or records is None:
        raise ParseError("not EndNote XML: expected xml/records/record", source,
                         root.sourceline)
    number = 0
    reported: set[str] = set()
    for element in records:
        if local_name(element) != "record":
            continue
        number += 1
        line = element.sourceline or 1
        _report_library_elements(element, source, diagnostics, reported)
        try:
            yield record_of(record_values(element), VOCABULARY, source, line, number,
                            diagnostics, with_residue)
        except ValueError as exc:
            diagnostics.error(f"record skipped: {exc}", source, line)


def _report_library_elements(record: Any, source: str, diagnostics: Diagnostics,
                             reported: set[str]) -> None:
    """Warn, once per element per file, that a library's bookkeeping is not carried."""
    for element in record:
        name = local_name(element)
        if name in t.LIBRARY_ELEMENTS and name not in reported:
            reported.add(name)
            diagnostics.warning(f"EndNote XML: <{name}> not carried (the library's "
                                "bookkeeping, not the record's)", source, element.sourceline)


def record_xml(record: Record, number: int) -> Any:
    """The ``record`` element of ``record``, with a residue note when EndNote's fields lose
    something."""
    from lxml import etree

    values = native_values(record, VOCABULARY)
    written = etree.fromstring(etree.tostring(record_element(values, number)))
    wrapper = etree.Element("xml")
    etree.SubElement(wrapper, "records").append(written)
    (native,) = _records_of(wrapper, "<endnote-xml>", Diagnostics(), with_residue=False)
    note = residue_note(record, native)
    return record_element(values + ([(t.NOTE_ELEMENT, note)] if note else []), number)


class EndNoteXmlReader(catalogue.CatalogueReader):
    name = "endnote-xml"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        root = parse_xml(stream.read(), source, "EndNote XML", diagnostics)
        return _records_of(root, source, diagnostics)


class EndNoteXmlWriter:
    name = "endnote-xml"
    description = catalogue.WRITERS["endnote-xml"].description
    extension = catalogue.WRITERS["endnote-xml"].extension
    key_unsafe = XML_KEY_UNSAFE  #: XML 1.0's forbidden characters

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        from lxml import etree

        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<xml>\n<records>\n')
        for number, record in enumerate(records, start=1):
            element = record_xml(select(record, options, {}), number)
            etree.indent(element, space=options.indent or "  ")
            for value in element.iter():
                if len(value) and all(local_name(c) == "style" for c in value):
                    value.text = None  # runs side by side: layout inside a value is text
                    for run in value:
                        run.tail = None
            out.write(etree.tostring(element, encoding="unicode") + "\n")
        out.write("</records>\n</xml>\n")


def _coverage() -> Coverage:
    v = VOCABULARY
    native = {
        "type": f"{v.type} (name and number)", "citation-key": v.key,
        "keywords": v.keyword, "issued": f"{v.year} + {v.date}", "accessed": v.accessed,
        "container-title": v.periodical, "issue": f"{v.number} / {v.issue}",
        "number": v.number, "ISBN": v.isbn, "ISSN": v.isbn, "note": v.note,
        "extra": "endnote-xml.ELEMENT extras as ELEMENT",
        **t.FIELD_ELEMENTS, **{role: path for role, path in t.NAME_ELEMENTS.items()},
    }
    return endnote_coverage("endnote-xml", native, f"{t.NOTE_ELEMENT} "
                            f"`{RESIDUE_LABEL}: {{CSL-JSON}}`", (
        ("Rich text: italic, bold, superscript and subscript are `<style face=…>` runs; other "
        "inline structure (small caps, case protection, formulas) is written as its text and "
        "travels exactly in the residue note."),
        ("`<number>` is the issue in periodical types and the number in the others "
        "(`<issue>` then holds the issue)."),
    ))


READER = EndNoteXmlReader()
WRITER = EndNoteXmlWriter()
COVERAGE = _coverage()
