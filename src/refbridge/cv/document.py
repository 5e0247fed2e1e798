"""A CV publication list as data: merged, filtered, grouped, sorted and numbered entries.

``build_cv`` takes records and ``CvOptions`` and returns a ``CvDocument`` whose entries are
already formatted by the chosen style (through the style registry and the CSL engine) in the
output the writer asks for, with the owner's name highlighted. Its parts (groups) come from
``refbridge.cv.parts``; sorting and numbering are tables of small functions, one per option
value. Writers (``refbridge.cv.writers``) turn the
document into Markdown, HTML, LaTeX, text or DOCX. This module must never write markup itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from refbridge.cv.links import Link, record_links
from refbridge.cv.owner import OwnerMatcher, reading_order, with_name_ids
from refbridge.cv.ownership import one_owner, owners_records
from refbridge.cv.parts import UNDATED, Split, split
from refbridge.cv.select import CvOptionError, Filters, select
from refbridge.errors import Diagnostics
from refbridge.formats.profile import OWNER_EXTRA, OWNER_ID_EXTRA
from refbridge.merge import MergeResult, deduplicate
from refbridge.model import Record
from refbridge.names.ids import owner_ids
from refbridge.sameness.text import fold

DEFAULT_STYLE = "cv"
HIGHLIGHTS = ("bold", "underline", "none")
DEFAULT_NUMBERING = "count-down"


@dataclass(frozen=True, slots=True)
class CvOptions:
    """Everything ``refbridge cv`` can be asked besides its inputs and output format."""

    owners: tuple[str, ...] = ()  #: the owner's name(s), highlighted in author lists
    style: str = DEFAULT_STYLE  #: any name ``refbridge.styles.resolve_style`` accepts
    style_dirs: tuple[str | Path, ...] = ()
    locale: str | None = None
    #: how the list is split into parts (``--group-by``/``--split-by``): ``year``, ``type``,
    #: ``subject``, ``keyword``, ``none`` or a CSL text variable (``refbridge.cv.parts``)
    group_by: str = "year"
    sort: str = "newest"  #: a key of ``SORTS``
    #: a key of ``NUMBERINGS``; None: ``count-down``, or ``none`` when the style labels its
    #: entries itself (IEEE's ``[1]``), so that no entry gets two numbers
    numbering: str | None = None
    highlight: str = "bold"  #: one of ``HIGHLIGHTS``
    links: bool = True
    abstracts: bool = False
    summary: bool = True
    merge: bool = True
    title: str = "Publications"
    filters: Filters = field(default_factory=Filters)
    #: the owner's identifiers (``orcid:...``, ``dblp:...``): names carrying one are the
    #: owner's whatever their spelling, names carrying another of the same scheme are not
    owner_ids: tuple[str, ...] = ()
    #: list every record, not only the owner's (see ``refbridge.cv.ownership``)
    all_records: bool = False
    split_order: tuple[str, ...] = ()  #: the parts to list first, in this order (their keys)

    def __post_init__(self) -> None:
        self.split()  # an unknown --group-by fails here
        for option, value, choices in (("sort", self.sort, SORTS),
                                       ("numbering", self.numbering or DEFAULT_NUMBERING,
                                        (*NUMBERINGS, *DISPLAY_ORDER_NUMBERINGS)),
                                       ("highlight", self.highlight, HIGHLIGHTS)):
            if value not in choices:
                raise CvOptionError(f"unknown --{option} {value!r} "
                                     f"(choose from {', '.join(choices)})")

    def split(self) -> Split:
        return Split(self.group_by, self.split_order, self.locale)


@dataclass(frozen=True, slots=True)
class CvEntry:
    record: Record
    text: str  #: the entry formatted by the style, in the document's output format
    number: int | None
    links: tuple[Link, ...] = ()
    abstract: str | None = None


@dataclass(frozen=True, slots=True)
class CvSection:
    heading: str | None  #: None when the list is not grouped
    entries: tuple[CvEntry, ...]


@dataclass(frozen=True, slots=True)
class Summary:
    total: int
    per_year: tuple[tuple[int | None, int], ...]  #: newest year first, undated last

    def text(self) -> str:
        """``14 publications: 2026 (7), 2025 (1), undated (1)``."""
        noun = "publication" if self.total == 1 else "publications"
        years = ", ".join(f"{year if year is not None else UNDATED.lower()} ({count})"
                          for year, count in self.per_year)
        return f"{self.total} {noun}" + (f": {years}" if years else "")


@dataclass(frozen=True, slots=True)
class CvDocument:
    title: str
    owners: tuple[str, ...]
    summary: Summary | None
    sections: tuple[CvSection, ...]
    output: str  #: the style output the entry texts are in (``html``, ``latex``, ...)
    highlight: str = "bold"

    @property
    def owner(self) -> str | None:
        """The (first) owner's name in reading order, for titles."""
        return reading_order(self.owners[0]) if self.owners else None

    @property
    def entries(self) -> list[CvEntry]:
        return [entry for section in self.sections for entry in section.entries]


# -- sorting within a group ---------------------------------------------------------------
def _date_key(record: Record) -> tuple[int, int, int] | None:
    issued = record.issued
    if issued is None or issued.start is None:
        return None
    return issued.start.year, issued.start.month or 0, issued.start.day or 0


def _by_date(newest_first: bool) -> Callable[[Sequence[Record]], list[Record]]:
    def order(records: Sequence[Record]) -> list[Record]:
        keyed = [(key, r) for r in records if (key := _date_key(r)) is not None]
        undated = [r for r in records if _date_key(r) is None]
        dated = sorted(keyed, key=lambda pair: pair[0], reverse=newest_first)
        return [r for _, r in dated] + undated

    return order


def _by_title(records: Sequence[Record]) -> list[Record]:
    return sorted(records, key=lambda r: fold(r.title or ""))


#: --sort value -> how records are ordered within a group (stable: input order breaks ties)
SORTS: dict[str, Callable[[Sequence[Record]], list[Record]]] = {
    "newest": _by_date(newest_first=True),
    "oldest": _by_date(newest_first=False),
    "title": _by_title,
}


#: --numbering value -> the number of the entry at display position i (0-based) of n
NUMBERINGS: dict[str, Callable[[int, int], int | None]] = {
    "count-down": lambda position, total: total - position,
    "count-up": lambda position, total: position + 1,
    "none": lambda position, total: None,
}
#: the --numbering values that count up in display order, where a style's own numbers
#: (``citation-number``) follow them: each part is formatted alone, numbered on from the
#: parts before it (``continuous``) or from 1 (``per-part``)
DISPLAY_ORDER_NUMBERINGS = ("continuous", "per-part")


# -- building ------------------------------------------------------------------------------
def _numbering(options: CvOptions) -> str:
    """The numbering asked for, else the default: none for a style that labels its entries."""
    from refbridge.styles import resolve_style

    if options.numbering is not None:
        return options.numbering
    labels = resolve_style(options.style, options.style_dirs).labels_entries
    return "none" if labels else DEFAULT_NUMBERING


def _formatted_entries(records: Sequence[Record], options: CvOptions, output: str,
                       first_number: int = 1) -> dict[int, str]:
    """The style's entry for each record, by the record's position in ``records`` (the first
    numbered ``first_number`` by a numeric style)."""
    from refbridge.formats.csljson import engine_item
    from refbridge.styles import FormatRequest, resolve_style

    items = [with_name_ids({**engine_item(record, rich=False, as_written=False),
                            "id": f"cv-{position}"}, record)
             for position, record in enumerate(records)]
    highlight = (OwnerMatcher.of(options.owners, options.owner_ids)
                 if (options.owners or options.owner_ids) and options.highlight != "none"
                 else None)
    request = FormatRequest(output, options.locale, highlight,
                            options.highlight if highlight else "bold",
                            first_number=first_number)
    processor = resolve_style(options.style, options.style_dirs).make_processor(items, request)
    texts = processor.bibliography()  # first: the ids are then known without rendering again
    return {int(item_id.removeprefix("cv-")): text.strip()
            for item_id, text in zip(processor.bibliography_ids(), texts)}


def summarize(records: Sequence[Record]) -> Summary:
    counts = Counter(record.year for record in records)
    years = sorted((y for y in counts if y is not None), reverse=True)
    per_year = [(year, counts[year]) for year in years]
    return Summary(len(records), tuple(per_year + ([(None, counts[None])] if None in counts
                                                    else [])))


def profile_owners(records: Sequence[Record]) -> tuple[str, ...]:
    """The owners of the profile pages the records came from, in order of appearance."""
    owners = (record.extra.get(OWNER_EXTRA) for record in records)
    return tuple(dict.fromkeys(owner for owner in owners if owner))


def profile_owner_ids(records: Sequence[Record]) -> tuple[str, ...]:
    """The identifiers of the owners of the lists the records came from (an ORCID record, a
    dblp person page), in order of appearance."""
    return tuple(dict.fromkeys(identifier for record in records
                               for identifier in owner_ids(record.extra.get(OWNER_ID_EXTRA,
                                                                            ""))))


def build_cv(records: Sequence[Record], options: CvOptions, output: str,
             diagnostics: Diagnostics) -> tuple[CvDocument, MergeResult]:
    """The CV document of ``records`` with entries formatted in style ``output``, and what was
    merged (nothing when ``options.merge`` is off)."""
    if not options.owners:
        owners = profile_owners(records)
        options = replace(options, owners=owners if options.owner_ids else one_owner(owners))
    if not options.owner_ids:
        options = replace(options, owner_ids=profile_owner_ids(records))
    merged = deduplicate(records) if options.merge else MergeResult(list(records))
    chosen = owners_records(select(merged.records, options.filters), options.owners,
                            options.owner_ids, options.all_records, diagnostics)
    cut_short = sum("author" in record.incomplete_names for record in chosen)
    if cut_short:
        diagnostics.warning(f"{cut_short} of {len(chosen)} listed records have incomplete author "
                            "lists (their source names only some authors); add an input with "
                            "the full lists to complete them")
    numbering = _numbering(options)
    parts = [(part.heading, SORTS[options.sort](part.records))
             for part in split(chosen, options.split())]
    sections = (_sections_in_display_order(parts, options, output, numbering, diagnostics)
                if numbering in DISPLAY_ORDER_NUMBERINGS
                else _sections(chosen, parts, options, output, numbering, diagnostics))
    document = CvDocument(options.title, options.owners,
                          summarize(chosen) if options.summary else None, sections,
                          output, options.highlight)
    return document, merged


def _entry(record: Record, text: str, number: int | None, options: CvOptions,
           diagnostics: Diagnostics) -> CvEntry:
    return CvEntry(record, text, number,
                   record_links(record, diagnostics) if options.links else (),
                   record.get("abstract") if options.abstracts else None)


def _sections(chosen: Sequence[Record], parts: list[tuple[str | None, list[Record]]],
              options: CvOptions, output: str, numbering: str, diagnostics: Diagnostics
              ) -> tuple[CvSection, ...]:
    """The sections of ``parts``, their entries formatted together (a numeric style numbers
    them in its own order) and numbered by ``numbering`` over the whole list."""
    position = {id(record): index for index, record in enumerate(chosen)}
    texts = _formatted_entries(chosen, options, output) if chosen else {}
    number = NUMBERINGS[numbering]
    total = sum(len(members) for _, members in parts)
    sections: list[CvSection] = []
    shown = 0
    for heading, members in parts:
        entries = []
        for record in members:
            entries.append(_entry(record, texts[position[id(record)]], number(shown, total),
                                  options, diagnostics))
            shown += 1
        sections.append(CvSection(heading, tuple(entries)))
    return tuple(sections)


def _sections_in_display_order(parts: list[tuple[str | None, list[Record]]],
                               options: CvOptions, output: str, numbering: str,
                               diagnostics: Diagnostics) -> tuple[CvSection, ...]:
    """The sections of ``parts``, each formatted alone in display order, numbered from 1
    (``per-part``) or on from the parts before (``continuous``): by the style when it labels
    its entries (its ``citation-number``), else by refbridge."""
    from refbridge.styles import resolve_style

    labelled = resolve_style(options.style, options.style_dirs).labels_entries
    sections: list[CvSection] = []
    first = 1
    for heading, members in parts:
        texts = _formatted_entries(members, options, output, first)
        sections.append(CvSection(heading, tuple(
            _entry(record, texts[index], None if labelled else first + index, options,
                   diagnostics)
            for index, record in enumerate(members))))
        first = 1 if numbering == "per-part" else first + len(members)
    return tuple(sections)
