"""Formatted bibliographies and in-text citations: the library entry point of ``refbridge format``.

``format_bibliography`` takes records (``refbridge.model.Record``) or CSL-JSON items, a style name
(anything ``refbridge.styles.resolve_style`` accepts) and an output format, and returns the whole
document: one entry per line for text, an HTML fragment, Markdown or LaTeX paragraphs, or an RTF
document. ``format_files`` reads inputs through the readers and writes the result atomically.
Rendering itself is the style's business (the CSL engine or a Python formatter); this module
must never format an entry itself.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refbridge.csl.formats import guard_line_start
from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.model import Record
from refbridge.pipeline import read_records
from refbridge.runs import ReadOptions
from refbridge.styles.definitions import OUTPUTS, FormatRequest, NamePredicate, StyleDefinition


@dataclass(frozen=True, slots=True)
class Layout:
    """How the lines of one output format make a document."""

    start: str
    separator: str
    end: str
    line_prefix: str = ""
    #: what each line of an entry is written as (Markdown: a list or heading start escaped)
    each_line: Callable[[str], str] | None = None


#: output format -> layout of the bibliography and of the list of in-text citations
LAYOUTS: dict[str, Layout] = {
    "text": Layout("", "\n", "\n"),
    "html": Layout('<div class="csl-bib-body">\n', "\n", "\n</div>\n", line_prefix="  "),
    "markdown": Layout("", "\n\n", "\n", each_line=guard_line_start),
    "latex": Layout("", "\n\n", "\n"),
    "rtf": Layout("{\\rtf1\\ansi\\deff0\n", "\\par\n", "\\par\n}\n"),
}
CITATION_LAYOUTS: dict[str, Layout] = {**LAYOUTS, "html": Layout("", "\n", "\n"),
                                       "markdown": Layout("", "\n", "\n",
                                                          each_line=guard_line_start)}


@dataclass(frozen=True, slots=True)
class FormatOptions:
    """Everything ``refbridge format`` can be asked besides its inputs."""

    style: str = "apa"
    output: str = "text"  #: one of ``OUTPUTS``
    locale: str | None = None
    cite: bool = False  #: in-text citations (each item cited alone) instead of the bibliography
    highlight: str | None = None  #: "Family" or "Family, Given" of names to set in bold
    style_dirs: tuple[str | Path, ...] = field(default_factory=tuple)
    links: bool = False  #: link URLs and DOIs (off: plain text, as citeproc-js writes them)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


def name_matcher(pattern: str) -> NamePredicate:
    """A predicate for CSL-JSON names matching ``Family`` or ``Family, Given`` (case-insensitive;
    a given name matches by prefix, so ``Qian, Z`` matches Zhengping Qian)."""
    family, _, given = (_fold(part) for part in pattern.partition(","))

    def matches(name: Mapping[str, Any]) -> bool:
        name_family = _fold(" ".join(str(name[part]) for part in ("non-dropping-particle", "family")
                                     if name.get(part)))
        if _fold(str(name.get("literal", ""))) == family and not given:
            return True
        return name_family.endswith(family) and _fold(str(name.get("given", ""))).startswith(given)

    return matches


def as_items(records_or_items: Iterable[Record | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """CSL-JSON items for records and items alike; an item without id gets ``item-N``.

    A record's item is made for the CSL engine (``formats.csljson.engine_item``)."""
    return list(_items(records_or_items))


def _items(records_or_items: Iterable[Record | Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """``as_items`` one at a time: a record is let go as soon as its item is made."""
    from refbridge.formats.csljson import engine_item

    for number, entry in enumerate(records_or_items, start=1):
        item = engine_item(entry) if isinstance(entry, Record) else dict(entry)
        item.setdefault("id", f"item-{number}")
        item["id"] = str(item["id"])
        yield item


def _document(lines: Iterable[str], layout: Layout) -> Iterator[str]:
    """The document of *lines*, piece by piece (nothing for no lines)."""
    before = layout.start
    for line in lines:
        text = line.strip()
        if layout.each_line is not None:
            text = "\n".join(map(layout.each_line, text.split("\n")))
        yield before + layout.line_prefix + text
        before = layout.separator
    if before is layout.separator:
        yield layout.end


def format_bibliography(records_or_items: Iterable[Record | Mapping[str, Any]],
                        style: str = "apa", output: str = "text", locale: str | None = None,
                        cite: bool = False, highlight: str | None = None,
                        style_dirs: Sequence[str | Path] = (), links: bool = False) -> str:
    """The bibliography (or, with ``cite``, each item's in-text citation, one per line, in input
    order) of the records or items in ``style``, as a document in ``output``; ``links`` makes
    URLs and DOIs links (http and https only)."""
    options = FormatOptions(style, output, locale, cite, highlight, tuple(style_dirs), links)
    return "".join(_document_parts(records_or_items, _Plan.of(options)))


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the options of one formatting come to, settled once before any record is read:
    the style (resolved once) and the request to it (the locale checked once, by
    ``FormatRequest``)."""

    definition: StyleDefinition
    request: FormatRequest
    cite: bool

    @classmethod
    def of(cls, options: FormatOptions) -> _Plan:
        from refbridge.styles import resolve_style

        if options.output not in OUTPUTS:
            raise RefbridgeError(f"unknown output {options.output!r} (choose from "
                                 f"{', '.join(OUTPUTS)})")
        request = FormatRequest(options.output, options.locale,
                                name_matcher(options.highlight) if options.highlight else None,
                                links=options.links)
        return cls(resolve_style(options.style, options.style_dirs), request, options.cite)


def _document_parts(records_or_items: Iterable[Record | Mapping[str, Any]], plan: _Plan
                    ) -> Iterator[str]:
    """The formatted document, piece by piece. Records reach a CSL style one at a time (each
    let go once the engine has its item) and entries leave it one at a time, so a
    100,000-item bibliography never holds its records, items and text all at once."""
    from refbridge.styles import CslStyleDefinition

    definition, request, output = plan.definition, plan.request, plan.request.output
    if plan.cite or not isinstance(definition, CslStyleDefinition):
        items = list(_items(records_or_items))
        processor = definition.make_processor(items, request)
    else:
        processor = definition.make_processor(_items(records_or_items), request)
    if plan.cite:
        yield from _document((processor.cite([{"id": item["id"]}]) for item in items),
                             CITATION_LAYOUTS[output])
        return
    entries = getattr(processor, "iter_bibliography", processor.bibliography)
    yield from _document(entries(), LAYOUTS[output])


def references(records: Iterable[Record]) -> Iterator[Record]:
    """The records that are works to list: a BibLaTeX ``@set`` (or ``@xdata``) is data for
    its members, not a reference of its own."""
    from refbridge.formats.bibtex.reader import is_container

    return (record for record in records if not is_container(record))


def format_files(inputs: Sequence[str], output_path: str, options: FormatOptions,
                 diagnostics: Diagnostics, read_options: ReadOptions = ReadOptions()) -> int:
    """Read ``inputs`` (see ``refbridge.pipeline``), format them, and write ``output_path``
    (``-``: standard output) atomically; returns the number of records formatted."""
    from refbridge.textio import atomic_output

    plan = _Plan.of(options)  # an unknown output, locale or style fails before reading
    counted = _Counted(references(read_records(inputs, diagnostics, read_options)))
    parts = _document_parts(counted, plan)
    first = next(parts, "")  # the records are all read once the first entry is written
    with atomic_output(output_path, inputs) as out:
        out.write(first)
        for part in parts:
            out.write(part)
    return counted.count


class _Counted:
    """The records of an iterator, counted as they pass."""

    def __init__(self, records: Iterable[Record]) -> None:
        self.records = records
        self.count = 0

    def __iter__(self) -> Iterator[Record]:
        for record in self.records:
            self.count += 1
            yield record

