"""What a named style is: a CSL style with refbridge options, or a Python formatter.

Every style refbridge can format with, whatever its origin (a ``.csl`` path, the official
catalogue, refbridge's built-in style modules, a third-party package, a user's style folder),
ends up as one of the two definitions here, and both hand out a :class:`BibliographyProcessor`
with the same three methods the CSL engine's processors have. This module must never look
styles up by name (see ``refbridge.styles.registry``) nor write whole documents (see
``refbridge.formatting``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from refbridge.vocab import OUTPUT_FORMATS

Item = Mapping[str, Any]  #: one CSL-JSON item
NamePredicate = Callable[[Mapping[str, Any]], bool]  #: True for a CSL-JSON name to emphasise

#: The outputs a style may write: ``vocab.OUTPUT_FORMATS`` (the name style modules import).
OUTPUTS = OUTPUT_FORMATS


class BibliographyProcessor(Protocol):
    """Formats one set of items; the shape of ``refbridge.csl.make_processor``'s result."""

    def bibliography(self) -> list[str]:
        """The formatted entries, in bibliography order."""
        ...

    def bibliography_ids(self) -> list[str]:
        """The item ids of :meth:`bibliography`'s entries, in the same order."""
        ...

    def cite(self, cites: Sequence[Mapping[str, Any]]) -> str:
        """One in-text citation of the cited items (``[{"id": ...}, ...]``)."""
        ...


@dataclass(frozen=True, slots=True)
class FormatRequest:
    """What the caller asks of a style besides the items; a locale the files do not speak is
    refused here, once, before any item is read (``UnknownLocale``)."""

    output: str = "text"  #: one of ``OUTPUTS``
    locale: str | None = None  #: e.g. ``de-DE``; None: the style's own default
    highlight: NamePredicate | None = None  #: names to set in bold (CV lists)
    highlight_style: str = "bold"  #: how highlighted names are set: ``bold`` or ``underline``
    #: link URLs and DOIs (HTML, Markdown, LaTeX, RTF); ``refbridge format`` leaves them plain
    #: text unless asked (``--links``), as citeproc-js does
    links: bool = True
    #: the first citation number (CSL styles): a part of a bibliography numbered on from the
    #: parts before it
    first_number: int = 1
    #: a journal without ``container-title-short`` given the one refbridge's journal list has
    #: (``refbridge.abbreviations``), for a style that asks for the short form, as Zotero's
    #: "abbreviate journal titles" does; off, the style prints the title the item has, as
    #: citeproc-js does without abbreviation data
    abbreviate_journals: bool = False

    def __post_init__(self) -> None:
        from refbridge.styles.locales import check_locale

        check_locale(self.locale)


@dataclass(frozen=True, slots=True)
class CslStyleDefinition:
    """A CSL style file plus refbridge options.

    ``csl`` names the CSL style like ``--style`` does (a catalogue id, an alias or a path; a
    relative path is taken relative to the defining module's folder, ``base_dir``).
    """

    name: str
    title: str
    csl: str
    default_locale: str | None = None  #: used when the caller gives no locale
    newest_first: bool = False  #: order entries by issued date, newest first (CV lists)
    base_dir: Path | None = field(default=None, compare=False)

    def make_processor(self, items: Iterable[Item], request: FormatRequest) -> BibliographyProcessor:
        """The CSL engine's processor of *items*, which it reads once, one at a time."""
        from refbridge.csl import make_processor
        from refbridge.styles.csl_files import resolve_csl

        items = (_marked(item, request.abbreviate_journals) for item in items)
        path, dependent_locale = resolve_csl(self.csl, self.base_dir)
        ordered = order_newest_first(items) if self.newest_first else items
        processor = make_processor(
            load_csl(path), ordered,
            locale=request.locale or self.default_locale or dependent_locale,
            output=request.output, highlight=request.highlight,
            highlight_style=request.highlight_style, links=request.links,
            first_number=request.first_number)
        return NewestFirst(processor, list(ordered)) if self.newest_first else processor

    @property
    def labels_entries(self) -> bool:
        """Whether the style starts each entry with a label of its own (``[1]``, ``1.``,
        ``[Knu97]``): a numeric or label style, as its ``<category>`` says."""
        from refbridge.styles.csl_files import resolve_csl
        from refbridge.styles.header import read_style_header

        path, _ = resolve_csl(self.csl, self.base_dir)
        return read_style_header(path).citation_format in LABELLING_FORMATS


#: ``citation-format`` categories of CSL styles whose bibliography entries carry a label.
LABELLING_FORMATS = frozenset({"numeric", "label"})


@dataclass(frozen=True, slots=True)
class FormatterStyleDefinition:
    """A style written in Python: ``factory(items, request)`` returns its processor."""

    name: str
    title: str
    factory: Callable[[Sequence[Item], FormatRequest], BibliographyProcessor]
    outputs: tuple[str, ...] = OUTPUTS  #: the outputs the formatter can write
    labels_entries: bool = False  #: each entry starts with a label of the style's (``[1]``)

    def make_processor(self, items: Sequence[Item], request: FormatRequest) -> BibliographyProcessor:
        from refbridge.errors import RefbridgeError

        if request.output not in self.outputs:
            raise RefbridgeError(f"style {self.name!r} cannot write {request.output!r} "
                                 f"(it writes {', '.join(self.outputs)})")
        return self.factory(items, request)


StyleDefinition = CslStyleDefinition | FormatterStyleDefinition


def _marked(item: Item, abbreviate_journals: bool = False) -> Item:
    """``item`` as the CSL engine reads it: the name lists its ``custom.incomplete-names``
    says are cut short named where the engine looks for them (a plain value at the top), and
    (``abbreviate_journals``) a journal without ``container-title-short`` given the one
    refbridge's journal list has (``refbridge.abbreviations``), for a style that asks for the
    short form."""
    from refbridge.csl.names import INCOMPLETE_NAMES_KEY

    roles = incomplete_roles(item)
    marked = {**item, INCOMPLETE_NAMES_KEY: " ".join(roles)} if roles else item
    short = _short_container_title(item) if abbreviate_journals else None
    return {**marked, "container-title-short": short} if short else marked


def _short_container_title(item: Item) -> str | None:
    """The journal list's abbreviation of an item's container title, when it has none."""
    from refbridge.abbreviations import short_title
    from refbridge.richtext import plain

    title = item.get("container-title")
    if not title or item.get("container-title-short") or item.get("journalAbbreviation"):
        return None
    return short_title(title if isinstance(title, str) else plain(title))


def incomplete_roles(item: Item) -> tuple[str, ...]:
    """The name variables whose lists name only some of the people: refbridge's CSL-JSON says
    so in ``custom.incomplete-names`` (a .bib's "and others")."""
    custom = item.get("custom")
    roles = custom.get("incomplete-names") if isinstance(custom, Mapping) else None
    return tuple(str(role) for role in roles) if isinstance(roles, list) else ()


@cache
def load_csl(path: Path) -> Any:
    from refbridge.csl import CslStyle

    return CslStyle.from_path(path)


def _issued_key(item: Item) -> tuple[int, int, int]:
    parts = (item.get("issued") or {}).get("date-parts") or [[]]
    numbers = []
    for part in (list(parts[0]) + [0, 0, 0])[:3]:
        try:
            numbers.append(int(part))
        except (TypeError, ValueError):
            numbers.append(0)
    return numbers[0], numbers[1], numbers[2]


def order_newest_first(items: Iterable[Item]) -> list[Item]:
    """``items`` ordered by issued date, newest first; undated items (in press) come first."""
    return sorted(items, key=_newest_first_key)


def _newest_first_key(item: Item) -> tuple[int, tuple[int, int, int]]:
    year, month, day = _issued_key(item)
    return (0 if item.get("issued") is None else 1, (-year, -month, -day))


@dataclass(slots=True)
class NewestFirst:
    """A processor whose bibliography is reordered newest first, keeping the style's order
    among entries of the same date (numbered styles are already numbered in that order)."""

    processor: BibliographyProcessor
    items: Sequence[Item]

    def _order(self) -> list[int]:
        ids = self.processor.bibliography_ids()
        by_id = {str(item.get("id")): item for item in self.items}
        return sorted(range(len(ids)), key=lambda i: _newest_first_key(by_id.get(ids[i], {})))

    def bibliography(self) -> list[str]:
        entries = self.processor.bibliography()
        return [entries[i] for i in self._order()]

    def bibliography_ids(self) -> list[str]:
        ids = self.processor.bibliography_ids()
        return [ids[i] for i in self._order()]

    def cite(self, cites: Sequence[Mapping[str, Any]]) -> str:
        return self.processor.cite(cites)
