"""Formatted bibliographies and in-text citations: the library entry point of ``refbridge format``.

``format_bibliography`` takes records (``refbridge.model.Record``) or CSL-JSON items, a style name
(anything ``refbridge.styles.resolve_style`` accepts) and an output format, and returns the whole
document: one entry per line for text, an HTML fragment, Markdown or LaTeX paragraphs, or an RTF
document. With ``split_by`` the bibliography is several, one per part (``refbridge.cv.parts``:
by type, keyword, subject or a field), each under a heading, numbered on from the part before
or from 1 (``numbering``) by a numeric style. ``format_files`` reads inputs through the readers
and writes the result atomically.
Rendering itself is the style's business (the CSL engine or a Python formatter); this module
must never format an entry itself.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from refbridge.csl.formats import FORMATS, guard_line_start
from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.model import Record
from refbridge.pipeline import read_records
from refbridge.runs import ReadOptions
from refbridge.styles.definitions import OUTPUTS, FormatRequest, NamePredicate, StyleDefinition

if TYPE_CHECKING:
    from refbridge.cv.parts import Split


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
#: output format -> the heading of one part of a split bibliography (its text escaped first);
#: RTF has none: its document is one, which parts cannot each open and close
PART_HEADINGS: dict[str, str] = {
    "text": "{}\n\n",
    "html": '<h2 class="csl-bib-heading">{}</h2>\n',
    "markdown": "## {}\n\n",
    "latex": "\\section*{{{}}}\n\n",
}
#: how the parts of a split bibliography are numbered by a numeric style
PART_NUMBERINGS = ("continuous", "per-part")


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
    #: several bibliographies, one per part: ``type``, ``keyword``, ``subject`` or a CSL text
    #: variable (``refbridge.cv.parts``); None: one bibliography
    split_by: str | None = None
    split_order: tuple[str, ...] = ()  #: the parts to write first, in this order (their keys)
    numbering: str = "continuous"  #: one of ``PART_NUMBERINGS``
    #: journals the item gives no short title get the journal list's, for a style that asks
    #: for the short form (off: as citeproc-js without abbreviation data)
    abbreviate_journals: bool = False


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
                        style_dirs: Sequence[str | Path] = (), links: bool = False, *,
                        split_by: str | None = None, split_order: Sequence[str] = (),
                        numbering: str = "continuous", abbreviate_journals: bool = False) -> str:
    """The bibliography (or, with ``cite``, each item's in-text citation, one per line, in input
    order) of the records or items in ``style``, as a document in ``output``; ``links`` makes
    URLs and DOIs links (http and https only). ``split_by`` (``type``, ``keyword``,
    ``subject`` or a CSL text variable) makes it one bibliography per part under headings,
    those ``split_order`` names first; ``numbering``: a numeric style numbers the parts on
    (``continuous``) or each from 1 (``per-part``). ``abbreviate_journals``: a journal the
    record gives no short title gets the journal list's, for a style that asks for the short
    form."""
    options = FormatOptions(style, output, locale, cite, highlight, tuple(style_dirs), links,
                            split_by, tuple(split_order), numbering, abbreviate_journals)
    return "".join(_document_parts(records_or_items, _Plan.of(options)))


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the options of one formatting come to, settled once before any record is read:
    the style (resolved once), the request to it (the locale checked once, by
    ``FormatRequest``) and the split of the bibliography into parts (None: one)."""

    definition: StyleDefinition
    request: FormatRequest
    cite: bool
    split: Split | None
    per_part: bool  #: a numeric style numbers each part from 1

    @classmethod
    def of(cls, options: FormatOptions) -> _Plan:
        from refbridge.styles import resolve_style

        if options.output not in OUTPUTS:
            raise RefbridgeError(f"unknown output {options.output!r} (choose from "
                                 f"{', '.join(OUTPUTS)})")
        request = FormatRequest(options.output, options.locale,
                                name_matcher(options.highlight) if options.highlight else None,
                                links=options.links,
                                abbreviate_journals=options.abbreviate_journals)
        return cls(resolve_style(options.style, options.style_dirs), request, options.cite,
                   _split_of(options), options.numbering == "per-part")


def _document_parts(records_or_items: Iterable[Record | Mapping[str, Any]], plan: _Plan
                    ) -> Iterator[str]:
    """The formatted document, piece by piece. Records reach a CSL style one at a time (each
    let go once the engine has its item) and entries leave it one at a time, so a
    100,000-item bibliography never holds its records, items and text all at once (a split
    one holds its records: they are parted before the first is formatted)."""
    from refbridge.styles import CslStyleDefinition

    definition, request, output = plan.definition, plan.request, plan.request.output
    if plan.split is not None:
        yield from _split_document(records_or_items, plan, plan.split)
        return
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


def _split_of(options: FormatOptions) -> Split | None:
    """How ``options`` split the bibliography (None: not at all); a split that cannot be
    written is a usage error."""
    if options.split_by is None:  # (before the imports: most runs never load refbridge.cv)
        return None
    from refbridge.cv.parts import Split
    from refbridge.cv.select import CvOptionError
    from refbridge.cv.types import BIBLIOGRAPHY_KINDS

    if options.numbering not in PART_NUMBERINGS:
        raise CvOptionError(f"unknown --numbering {options.numbering!r} "
                            f"(choose from {', '.join(PART_NUMBERINGS)})")
    if options.cite:
        raise CvOptionError("--split-by splits a bibliography, not in-text citations (--cite)")
    if options.output not in PART_HEADINGS:
        raise CvOptionError(f"--split-by writes {', '.join(PART_HEADINGS)}, not {options.output}")
    return Split(options.split_by, options.split_order, options.locale, BIBLIOGRAPHY_KINDS)


def _as_record(entry: Record | Mapping[str, Any]) -> Record:
    """The record of a record or CSL-JSON item, to split by."""
    from refbridge.formats.csljson import from_csl

    if isinstance(entry, Record):
        return entry
    try:
        return from_csl(entry)
    except ValueError as exc:
        raise RefbridgeError(f"item {entry.get('id', '?')!r}: {exc}") from None


def _split_document(records_or_items: Iterable[Record | Mapping[str, Any]], plan: _Plan,
                    how: Split) -> Iterator[str]:
    """One bibliography per part, each under its heading (escaped for the output), in the
    parts' order; a numeric style's numbers go on from the part before, or start at 1."""
    from refbridge.cv.parts import split

    request = plan.request
    entries = list(records_or_items)
    records = [_as_record(entry) for entry in entries]
    given = dict(zip(map(id, records), entries))
    heading, escape = PART_HEADINGS[request.output], FORMATS[request.output].escape
    first = 1
    for number, part in enumerate(split(records, how)):
        processor = plan.definition.make_processor(
            list(_items(given[id(record)] for record in part.records)),
            replace(request, first_number=first))
        yield ("\n" if number else "") + heading.format(escape(part.heading or ""))
        yield from _document(processor.bibliography(), LAYOUTS[request.output])
        first = 1 if plan.per_part else first + len(part.records)


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

    plan = _Plan.of(options)  # an unknown output, locale, style or split fails before reading
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

