"""State of one rendering (an item in a citation, bibliography or sort-key pass).

A :class:`RenderContext` is created per rendered cite or entry; compiled nodes read the
item and cite from it and record which variables they called, for group suppression.
This module holds state only: it never renders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from refbridge.richtext import RichText

from .localization import Locale
from .richtext import Node
from .values import DateValue, parse_date

DATE_VARIABLES = frozenset(
    ["accessed", "available-date", "event-date", "issued", "original-date", "submitted", "container"]
)


@dataclass
class Disambiguation:
    """Per-item disambiguation state found by the processor."""

    et_al_use_first: int | None = None
    givenname_levels: dict[tuple[str, str], int] = field(default_factory=dict)  # (family, given) -> level
    default_givenname_level: int = 0
    year_suffix: str = ""
    disambiguate: int = 0  # how many disambiguate="true" tests (in rendering order) are true


@dataclass(frozen=True)
class SubsequentAuthor:
    """subsequent-author-substitute applied to this entry: replacement, rule, previous names."""

    text: str
    rule: str
    previous_text: str
    previous_names: tuple[str, ...]


@dataclass
class SortEtAl:
    min: int | None
    use_first: int | None
    use_last: bool | None


class RenderContext:
    __slots__ = (
        "author_only",
        "capture_names",
        "citation_number",
        "cite",
        "dates",
        "disamb",
        "disambiguate_tests",
        "disambiguating",
        "explicit_year_suffix",
        "first_name_texts",
        "first_names",
        "first_names_text",
        "first_note",
        "highlight",
        "in_substitute",
        "item",
        "locale",
        "mode",
        "names_seen",
        "near_note",
        "position",
        "rich",
        "sas",
        "sort_etal",
        "sorting",
        "suppress_author",
        "suppressed",
        "vars_called",
        "vars_found",
        "year_suffix_done",
    )

    def __init__(
        self,
        item: Mapping[str, Any],
        locale: Locale,
        mode: str,
        cite: Mapping[str, Any] | None = None,
        disamb: Disambiguation | None = None,
        highlight: Callable[[Mapping[str, Any]], bool] | None = None,
    ) -> None:
        self.item = item
        self.locale = locale
        self.mode = mode
        self.cite = cite or {}
        self.position = "first"
        self.disamb = disamb or Disambiguation()
        self.suppressed: set[str] = set()
        self.vars_called = 0
        self.vars_found = 0
        self.year_suffix_done = False
        self.first_names: Node | None = None  # the first cs:names output (author-only, grouping)
        self.suppress_author = False
        self.author_only = False
        self.highlight = highlight
        self.sorting = False
        self.sort_etal: SortEtAl | None = None
        self.names_seen = 0
        self.dates: dict[str, DateValue | None] = {}
        self.explicit_year_suffix = False
        self.citation_number: int | None = None
        self.first_note: int | None = None
        self.near_note = False
        self.in_substitute = False
        self.sas: SubsequentAuthor | None = None
        self.first_names_text: str | None = None
        self.first_name_texts: list[str] = []
        self.capture_names = False
        self.disambiguating = False
        self.disambiguate_tests = 0
        self.rich: Mapping[str, RichText] = {}  # the item's rich text values, by variable

    def date(self, name: str) -> DateValue | None:
        if name not in self.dates:
            self.dates[name] = None if name in self.suppressed else parse_date(self.item.get(name))
        return self.dates[name]

    def value(self, name: str) -> Any:
        """A variable's raw value, honouring substitution and cite-level variables."""
        if self.suppressed and name in self.suppressed:
            return None
        if name in _CITE_VARIABLES:
            if name == "locator":
                return self.cite.get("locator")
            if name == "citation-number":
                return self.citation_number
            if name == "first-reference-note-number":
                return self.first_note
            return self.disamb.year_suffix or None
        value = self.item.get(name)
        if value is None or value == "" or value == []:
            return _alias_value(self.item, name) if name in _DERIVED else None
        return value


_CITE_VARIABLES = frozenset(("locator", "citation-number", "first-reference-note-number", "year-suffix"))
_ALIASES = {
    "title-short": ("shortTitle",),
    "container-title-short": ("journalAbbreviation", "shortContainerTitle"),
}


_DERIVED = frozenset(("title-short", "container-title-short", "page-first", "citation-label"))
# citation-label trigraph: letters taken from each of the first 1-4 names, and the year
_TRIGRAPH = ((4,), (2, 2), (2, 1, 1), (1, 1, 1, 1))


def _citation_label(item: Mapping[str, Any]) -> str | None:
    from .names import parse_name  # names imports this module

    names = item.get("author") or item.get("editor") or []
    families = [parse_name(n).family or parse_name(n).literal for n in names if isinstance(n, dict)]
    families = [f for f in families if f]
    if not families:
        return None
    widths = _TRIGRAPH[min(len(families), 4) - 1]
    label = "".join(family[:width] for family, width in zip(families, widths))
    issued = item.get("issued")
    parts = issued.get("date-parts") if isinstance(issued, dict) else None
    if parts and parts[0] and str(parts[0][0]).strip():
        label += str(parts[0][0]).strip()[-2:]
    return label


def _alias_value(item: Mapping[str, Any], name: str) -> Any:
    for alias in _ALIASES.get(name, ()):
        value = item.get(alias)
        if value not in (None, "", []):
            return value
    if name == "citation-label":
        return _citation_label(item)
    if name == "page-first":
        page = item.get("page")
        if page:
            match = re.match(r"\s*([^\s\-\u2013,&]+)", str(page))
            return match.group(1) if match else None
    return None
