"""The CSL processor: sorting, disambiguation, citation clusters and bibliographies.

A :class:`Processor` holds one compiled style, one merged locale and the registered items.
At creation it computes the bibliography order, citation numbers and the disambiguation
state of every item (added names, expanded given names, the ``disambiguate`` condition,
year suffixes); citations add positions (first/subsequent/ibid/near-note), cite sorting,
grouping and collapsing.  Serializing to an output format is delegated to
:mod:`refbridge.csl.formats`; this module never writes markup itself.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cmp_to_key
from typing import Any

import orjson

from refbridge.errors import entry_named
from refbridge.richtext import RichText

from .abbreviations import AbbreviationLists
from .bibsection import Selection, selects, style_selection
from .collation import collation
from .consolidation import as_legal_item, consolidated, container_id, legislation_id
from .context import (
    DATE_VARIABLES,
    CommaTrack,
    Disambiguation,
    NestedParens,
    RenderContext,
    SortEtAl,
    SubsequentAuthor,
)
from .formats import FORMATS, QuoteMarks, flat_text, serialize
from .localization import Locale, LocaleStore, resolve_language
from .marked import KeptLead
from .multilingual import MULTI_FIELDS, LanguagePrefs, Multilingual, name_forms, text_form
from .nameparts import parse_name
from .names import initialize, name_sort_key
from .nodes import (
    RangeEnds,
    render_children,
    render_layout,
    sort_key_of,
    split_lead,
    without_own_suffix,
)
from .notefield import read_note_fields
from .parallel import ParallelCite, repeat_marks
from .rendered import (
    ROMANESQUE_CHARS,
    Node,
    Rich,
    apply_text_case,
    data_quotes,
    is_empty,
    parse_markup,
    plain,
)
from .style import CslStyle, Section, SortKey
from .values import LOCATOR_LABEL_ABBREVIATIONS, date_sort_key, split_locator_label, stringify

Highlight = Callable[[Mapping[str, Any]], bool]
_NO_RICH_TEXT: dict[str, RichText] = {}
#: as citeproc-js: cites that differ only in their quotation marks are ambiguous ("Gogh,
#: “Tidal mills”" and "Gogh, Tidal mills" are told apart by a disambiguate="true" date)
_NO_QUOTE_MARKS = QuoteMarks("", "", "", "")
_DEFAULT_STORE: LocaleStore | None = None


def _normalized(item: Mapping[str, Any], rich: dict[str, RichText]) -> dict[str, Any]:
    """A copy of a CSL-JSON item in the shapes rendering expects: names as lists of dicts,
    dates as given, other values as strings (a rich text value of the model as its plain
    text, itself into *rich*); values of no renderable shape are left out; variables written
    in the note moved out of it."""
    out: dict[str, Any] = {}
    for name, value in item.items():
        if value is None:
            continue
        if isinstance(value, RichText):
            out[name] = value.plain
            rich[name] = value
        elif name in DATE_VARIABLES:
            if isinstance(value, (dict, str)):
                out[name] = value
        elif name == "multi" and isinstance(value, dict):
            out[name] = value  # (CSL-M: other forms of the values, see multilingual.py)
        elif name == "categories" and isinstance(value, list):
            # (CSL-JSON's tags: never rendered; a bibliography section may choose by them)
            out[name] = [str(v) for v in value if isinstance(v, str)]
        elif name == "seeAlso" and isinstance(value, list):
            # (CSL-M: the other reports of a case, cited beside it as a parallel)
            out[name] = [str(v) for v in value if isinstance(v, (str, int))]
        elif isinstance(value, list):
            names = [entry if all(type(v) is str for v in entry.values()) else
                     {k: v for k, v in entry.items() if isinstance(v, (str, int, float, bool))
                      or (k == "multi" and isinstance(v, dict))}
                     for entry in value if isinstance(entry, dict)]
            if names:
                out[name] = names
        elif isinstance(value, (str, int, float, bool)):
            out[name] = value if name == "id" else stringify(value)
    read_note_fields(out)
    return out


def _default_store() -> LocaleStore:
    global _DEFAULT_STORE
    if _DEFAULT_STORE is None:
        _DEFAULT_STORE = LocaleStore()
    return _DEFAULT_STORE


def _suffix_letters(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(97 + rem) + letters
    return letters


_TERMINAL_PUNCTUATION = ":.;!?"


class Processor:
    def __init__(
        self,
        style: CslStyle,
        items: Iterable[Mapping[str, Any]],
        locale: str | None = None,
        output: str = "text",
        locale_store: LocaleStore | None = None,
        highlight: Highlight | None = None,
        highlight_style: str = "bold",
        links: bool = True,
        first_number: int = 1,
        abbreviations: AbbreviationLists | None = None,
        languages: LanguagePrefs | None = None,
        affiliations: bool = False,
    ) -> None:
        if output not in FORMATS:
            raise ValueError(f"unknown output format {output!r}; choose one of {', '.join(FORMATS)}")
        self.style = style
        self.format = FORMATS[output]
        style.options.links = links and output != "text"
        store = locale_store or _default_store()
        self.locale = store.locale(locale or style.info.default_locale or "en-US", style.locale_layers)
        self._locale_store = store
        self._layout_locales: dict[str, Locale] = {}  # CSL-M: the locales of layouts by tag
        #: CSL-M: the parallels citations made, by first report: its other reports, and the
        #: delimiter a group of it overrides with (its bibliography entry holds them all)
        self._parallels: dict[str, tuple[list[str], str | None]] = {}
        #: how many cites of the citations being rendered cite each item (see cite_clusters)
        self._citation_counts: Counter[str] = Counter()
        #: CSL-M: (section, item) -> the layout and locale the item's language takes
        self._layouts_chosen: dict[tuple[int, str], tuple[Section, Locale]] = {}
        loc = self.locale
        self.marks = QuoteMarks(
            loc.term("open-quote") or "\u201c", loc.term("close-quote") or "\u201d",
            loc.term("open-inner-quote") or "\u2018", loc.term("close-inner-quote") or "\u2019",
        )
        self.abbreviations: AbbreviationLists = abbreviations or {}
        prefs = languages or LanguagePrefs()
        self.languages = Multilingual(prefs, prefs.tags_over(style.info.language_tags),
                                      self.locale.lang[:2].lower(), style.info.class_ == "note", self._locale_of)
        self.affiliations = affiliations
        self.highlight = _StyledHighlight(highlight, highlight_style) if highlight else None
        self.collation = collation(style.info.default_locale_sort or self.locale.lang)
        self.items = _CompactItems()
        self.rich: dict[str, dict[str, RichText]] = {}  # rich text values by item and variable
        self.range_ends = RangeEnds(style.range_end_attrs) if style.range_end_attrs else None
        ranged: list[str] = []  # the items with a date range, if the ends of ranges matter
        for index, item in enumerate(items):
            key = str(item.get("id", f"item-{index + 1}"))
            rich: dict[str, RichText] = {}
            normalized = _normalized(item, rich)
            self.items[key] = as_legal_item(normalized) if style.containers.legal else normalized
            if rich:
                self.rich[key] = rich
            if self.range_ends is not None and any(map(_is_range, item.values())):
                ranged.append(key)
        self.registration = list(self.items)
        self.disamb: dict[str, Disambiguation] = {key: Disambiguation() for key in self.items}
        self._cite_texts: dict[tuple[Any, ...], str] = {}
        self._bib_sort_rows: dict[str, _SortRow] = {}
        self._bib_ids: list[str] | None = None
        self._disamb_position = "first"
        self._disambiguate_tests = 0  # the most disambiguate="true" tests one rendering met
        self.first_number = first_number  # of citation-number: a bibliography split in parts
        self.citation_numbers = {key: i + first_number for i, key in enumerate(self.registration)}
        order = self._order_bibliography()
        if style.citation_uses_position:
            self._register_name_counts()
        self._disambiguate()
        if any(state.year_suffix for state in self.disamb.values()):
            self._order_bibliography(order)  # sort keys may include the year suffixes just assigned
        self._register_ranges(ranged)
        # each bibliography is written as an engine writes its first one (see RangeEnds)
        self._first_range_end = self.range_ends.first if self.range_ends is not None else None
        self._bib_sort_rows.clear()  # what they were kept for is done: memory back
        self._cite_texts.clear()

    def _register_name_counts(self) -> None:
        """As citeproc-js registering the items: each one's citation is rendered once, in the
        subsequent position near its previous note, and how many names each of its name lists
        shows there becomes the fewest its citations show in any position (when a list is
        long enough to be cut at all): with et-al-use-first="1" and
        et-al-subsequent-use-first="2", a first citation reads "Fox/Weisberg/u.a.". Only a
        style whose citation depends on the position can show other counts there."""
        section = self.style.citation
        if section is None:
            return
        for key in self.registration:
            ctx = self._context(key, "citation", {})
            ctx.position = "subsequent"
            ctx.near_note = True
            ctx.registering = True
            self._render(section, key, ctx)

    def _register_ranges(self, ranged: list[str]) -> None:
        """As citeproc-js registering the items: each one's citation is rendered once, in the
        subsequent position, which may render the engine's first date range (see RangeEnds);
        only the items with a range (*ranged*, in registration order) can, so only they are."""
        section, ends = self.style.citation, self.range_ends
        for key in ranged:
            if section is None or ends is None or ends.first is None:
                return
            ctx = self._context(key, "citation", {})
            ctx.position = "subsequent"
            self._render(section, key, ctx)

    def _order_bibliography(self, start: list[int] | None = None) -> list[int]:
        """The bibliography's order, also returned as registration indices; sorting again
        after disambiguation starts from the order found before (*start*), which most items
        keep (ties are still broken by registration order)."""
        section = self.style.bibliography
        order = self._sort_order(self.registration, section, "bibliography", start=start)
        self._bib_order = [self.registration[i] for i in order]
        if section is not None and section.sort and not self._sort_is_by_citation_number(section):
            self.citation_numbers = {key: i + self.first_number
                                     for i, key in enumerate(self._bib_order)}
        return order

    # -- rendering helpers -------------------------------------------------------------

    def _localized(self, section: Section | None, key: str) -> tuple[Section | None, Locale]:
        """CSL-M: the section as the item's language lays it out (the first layout whose
        ``locale`` takes the language, unless it is the engine's own), and the locale its
        terms come from; else the section itself and the engine's locale. Chosen once an
        item and section."""
        if section is None or not section.locale_layouts:
            return section, self.locale
        memo = (id(section), key)
        chosen = self._layouts_chosen.get(memo)
        if chosen is None:
            chosen = self._layouts_chosen[memo] = self._choose_layout(section, key)
        return chosen

    def _choose_layout(self, section: Section, key: str) -> tuple[Section, Locale]:
        language = self.items[key].get("language")
        if not language or resolve_language(language)[1] == self.locale.lang:
            return section, self.locale
        for layout in section.locale_layouts:
            if layout.matches(language):
                return layout.section, self._locale_of(layout.locales[0])
        return section, self.locale

    def _locale_of(self, tag: str) -> Locale:
        """The locale of a language tag (a CSL-M layout's or ``locale`` test's), loaded once."""
        best = resolve_language(tag)[1]
        found = self._layout_locales.get(best)
        if found is None:
            found = self._layout_locales[best] = self._locale_store.locale(best, self.style.locale_layers)
        return found

    def _context(self, key: str, mode: str, cite: Mapping[str, Any] | None = None) -> RenderContext:
        section = self.style.citation if mode == "citation" else self.style.bibliography
        locale = self._localized(section, key)[1]
        ctx = RenderContext(self.items[key], locale, mode, cite, self.disamb[key], self.highlight)
        ctx.home_locale = self.locale
        ctx.rich = self.rich.get(key, _NO_RICH_TEXT)
        ctx.capitalize_leading_term = mode == "bibliography"
        ctx.citation_number = self.citation_numbers.get(key)
        ctx.explicit_year_suffix = self.style.explicit_year_suffix
        ctx.range_ends = self.range_ends
        ctx.abbreviations = self.abbreviations
        ctx.citations = self._citation_counts.get(key, 0)
        if self.style.group_conditions:
            ctx.commas = CommaTrack()
        ctx.languages = self.languages
        ctx.affiliations = self.affiliations
        return ctx

    def _render(self, section: Section, key: str, ctx: RenderContext) -> Node | None:
        localized = self._localized(section, key)[0] or section
        return render_children(localized.layout, ctx, "")

    def _out(self, node: Node | None) -> str:
        return serialize(node, self.format, self.marks, self.locale.punctuation_in_quote)

    def _text(self, node: Node | None) -> str:
        return flat_text(node, self.marks, self.locale.punctuation_in_quote)

    # -- sorting -------------------------------------------------------------------------

    def _sort_is_by_citation_number(self, section: Section) -> bool:
        return bool(section.sort) and section.sort[0].variable == "citation-number"

    def _sort_value(self, key: SortKey, ctx: RenderContext) -> Any:
        """One sort key of an item: a collation key (bytes), the citation number, or None."""
        ctx.sorting = True
        # as citeproc-js, which writes a sort key's terms in the style's locale: a CSL-M
        # layout for the item's language does not change them
        ctx.locale = ctx.home_locale
        ctx.sort_etal = SortEtAl(key.names_min, key.names_use_first, key.names_use_last)
        if key.macro is not None:
            return self._collated(sort_key_of(key.macro, ctx))
        name = key.variable or ""
        if name == "citation-number":
            ctx.read_changing_state = True
            return ctx.citation_number
        if name in DATE_VARIABLES:
            return self._collated(date_sort_key(ctx.date(name)))
        value = ctx.value(name)
        if name in MULTI_FIELDS and "multi" in ctx.item and value:
            sort_form = text_form(ctx.item, name, "sort", self.languages, fallback=True)
            value = sort_form.text if sort_form.variant else value
        if isinstance(value, list):
            value = [name_forms(raw, ctx.item, self.languages, ctx.locale.options, sorting=True,
                                supplements=False)[0][0] if "multi" in raw else raw for raw in value]
            demote = self.style.options.demote_non_dropping_particle
            return self._collated(" ".join(name_sort_key(parse_name(raw), demote) for raw in value))
        if value in (None, ""):
            return None
        return self._collated(plain(parse_markup(stringify(value))))

    def _collated(self, text: str) -> bytes | None:
        """The collation key of a sort key text (None, sorted last, when it is empty). As in
        citeproc-js, every space is a "|" and one ends the text: a symbol, which collation
        does not ignore as it ignores spaces, so "Dale Zippy" sorts before "Dalebout"."""
        return self.collation.key(text.replace(" ", "|") + "|") if text.strip() else None

    def _sort_row(self, key: str, size: int, mode: str) -> _SortRow:
        """An item's sort key values, each computed when a comparison first needs it; the
        bibliography's are kept, those that read what disambiguation changes until the
        item's year suffix changes."""
        if mode != "bibliography":
            return _SortRow("", size)
        suffix = self.disamb[key].year_suffix
        row = self._bib_sort_rows.get(key)
        if row is None:
            row = self._bib_sort_rows[key] = _SortRow(suffix, size)
        elif row.suffix != suffix:
            row.suffix = suffix
            for index in range(size):
                if row.changing >> index & 1:
                    row.values[index] = _UNSET
            row.changing = 0
        return row

    def _sort_order(self, keys: list[str], section: Section | None, mode: str,
                    cites: Sequence[Mapping[str, Any]] | None = None,
                    start: list[int] | None = None) -> list[int]:
        """Indices of *keys* in the section's sort order (stable; empty keys last); *start*, a
        permutation of the indices, is where sorting starts (the result is the same)."""
        if section is None or not section.sort:
            return list(range(len(keys)))
        sort = section.sort
        rows = [self._sort_row(key, len(sort), mode).values for key in keys]
        descending = [key.descending for key in sort]

        def value(i: int, index: int) -> Any:
            found = rows[i][index]
            if found is _UNSET:
                ctx = self._context(keys[i], mode, cites[i] if cites else None)
                found = rows[i][index] = self._sort_value(sort[index], ctx)
                if ctx.read_changing_state and mode == "bibliography":
                    self._bib_sort_rows[keys[i]].changing |= 1 << index
            return found

        def compare(a: int, b: int) -> int:
            row_a, row_b = rows[a], rows[b]
            for index, down in enumerate(descending):
                va, vb = row_a[index], row_b[index]
                if va is _UNSET:
                    va = value(a, index)
                if vb is _UNSET:
                    vb = value(b, index)
                if va == vb:
                    continue
                if va is None:
                    return 1
                if vb is None:
                    return -1
                if type(va) is not type(vb):
                    va, vb = str(va), str(vb)
                result = -1 if va < vb else 1
                return -result if down else result
            return a - b

        return sorted(range(len(keys)) if start is None else start, key=cmp_to_key(compare))

    # -- disambiguation ------------------------------------------------------------------

    def _cite_text(self, key: str, keep: bool = True) -> str:
        """The plain first-position citation of an item under its current disambiguation,
        without quotation marks (kept for the next time unless *keep* is false)."""
        section = self.style.citation
        assert section is not None
        signature = self._cite_signature(key)
        text = self._cite_texts.get(signature)
        if text is None:
            ctx = self._context(key, "citation", {})
            ctx.position = self._disamb_position
            ctx.disambiguating = True
            text = flat_text(self._render(section, key, ctx), _NO_QUOTE_MARKS,
                             self.locale.punctuation_in_quote)
            if keep:
                self._cite_texts[signature] = text
            self._disambiguate_tests = max(self._disambiguate_tests, ctx.disambiguate_tests)
        return text

    def _cite_signature(self, key: str) -> tuple[Any, ...]:
        """What an item's disambiguation citation depends on besides the item."""
        state = self.disamb[key]
        return (key, self._disamb_position, state.et_al_use_first, state.default_givenname_level,
                state.disambiguate, tuple(sorted(state.givenname_levels.items())))

    def _ambiguous_groups(self, keys: list[str]) -> list[list[str]]:
        """The groups of *keys* whose citations read the same (their texts are kept, without
        rendering them again; those of the others, most of a large bibliography, are not)."""
        first: dict[str, str] = {}  # citation text -> the first key that has it
        groups: dict[str, list[str]] = {}
        for key in keys:
            text = self._cite_text(key, keep=False)
            other = first.setdefault(text, key)
            if other != key:
                groups.setdefault(text, [other]).append(key)
        for text, group in groups.items():
            for key in group:
                self._cite_texts[self._cite_signature(key)] = text
        return list(groups.values())

    def _collisions(self, group: list[str]) -> dict[str, int]:
        """For each item of *group*, how many others render the same citation."""
        texts = {key: self._cite_text(key) for key in group}
        counts: dict[str, int] = {}
        for text in texts.values():
            counts[text] = counts.get(text, 0) + 1
        return {key: counts[texts[key]] - 1 for key in group}

    def _disambiguate(self) -> None:
        section = self.style.citation
        if section is None:
            return
        opts = section.options
        add_names = opts.get("disambiguate-add-names") == "true"
        add_given = opts.get("disambiguate-add-givenname") == "true"
        rule = opts.get("givenname-disambiguation-rule", "by-cite")
        add_year = opts.get("disambiguate-add-year-suffix") == "true"
        if add_given and rule != "by-cite":
            self._global_givennames(rule)
        remaining: list[list[str]] = []
        # as citeproc-js: cites are told apart in their subsequent form, where the style
        # varies with position
        for position in ("subsequent",) if self.style.citation_uses_position else ("first",):
            self._disamb_position = position
            for group in self._ambiguous_groups(self.registration):
                if add_names:
                    self._add_names(group, add_given, rule)
                if add_given:
                    self._add_givennames(group, rule)
                # as citeproc-js: year suffixes come before disambiguate="true" tests, which
                # are met only by cites that year suffixes cannot tell apart (none can be)
                if add_year:
                    remaining.extend(self._ambiguous_groups(group))
                else:
                    for subgroup in self._ambiguous_groups(group):
                        self._disambiguate_condition(subgroup)
        self._disamb_position = "first"
        if add_year:
            order = {key: i for i, key in enumerate(self._bib_order)}
            for group in remaining:
                if any(self.disamb[key].year_suffix for key in group):
                    continue
                for index, key in enumerate(sorted(group, key=order.__getitem__)):
                    self.disamb[key].year_suffix = _suffix_letters(index)

    def _disambiguate_condition(self, group: list[str]) -> None:
        """Switch on disambiguate="true" tests one by one until the cites differ."""
        unresolved = list(group)
        level = 0
        while unresolved and level < self._disambiguate_tests:
            level += 1
            for key in unresolved:
                self.disamb[key].disambiguate = level
            collisions = self._collisions(group)
            unresolved = [key for key in unresolved if collisions[key]]

    def _name_lists(self, key: str) -> list[list[Mapping[str, Any]]]:
        item = self.items[key]
        return [v for v in item.values() if isinstance(v, list) and v and isinstance(v[0], dict)
                and any(k in v[0] for k in ("family", "given", "literal"))]

    def _same_names(self, group: list[str]) -> bool:
        """Whether every item of *group* has the same name lists (names cannot separate them)."""
        return len({repr(self._name_lists(key)) for key in group}) == 1

    def _add_names(self, group: list[str], with_givennames: bool, rule: str) -> None:
        """Show more names (et-al-use-first) where that separates cites, keeping the fewest."""
        if self._same_names(group):
            return
        most = max((len(names) for key in group for names in self._name_lists(key)), default=0)
        full_level = 1 if rule.endswith("with-initials") else 2
        if with_givennames:
            for key in group:
                self.disamb[key].default_givenname_level = full_level
        start = self._collisions(group)
        best: dict[str, tuple[int, int | None]] = {key: (start[key], None) for key in group}
        unresolved = [k for k in group if best[k][0]]
        for count in range(1, most + 1):
            for key in unresolved:
                self.disamb[key].et_al_use_first = count
            collisions = self._collisions(group)
            for key in unresolved:
                if collisions[key] < best[key][0]:
                    best[key] = (collisions[key], count)
            unresolved = [k for k in unresolved if best[k][0]]
            if not unresolved:
                break
        for key in group:
            self.disamb[key].et_al_use_first = best[key][1]
            self.disamb[key].default_givenname_level = 0

    def _add_givennames(self, group: list[str], rule: str) -> None:
        """Expand given names, position by position, where that separates cites (compared
        with as many names shown for every cite as the most any of them shows)."""
        if self._same_names(group):
            return
        shown = {key: self.disamb[key].et_al_use_first for key in group}
        widest = max((n for n in shown.values() if n is not None), default=None)
        for key in group:
            self.disamb[key].et_al_use_first = widest
        try:
            self._expand_givennames(group, rule)
        finally:
            for key in group:
                self.disamb[key].et_al_use_first = shown[key]

    def _expand_givennames(self, group: list[str], rule: str) -> None:
        max_level = 1 if rule.endswith("with-initials") else 2
        most = max((len(names) for key in group for names in self._name_lists(key)), default=0)
        if rule.startswith("primary-name"):
            most = min(most, 1)
        total = sum(self._collisions(group).values())
        for position in range(most):
            if not total:
                return
            for level in range(1, max_level + 1):
                saved = {key: dict(self.disamb[key].givenname_levels) for key in group}
                for key in group:
                    for names in self._name_lists(key):
                        if position < len(names):
                            parts = parse_name(names[position])
                            levels = self.disamb[key].givenname_levels
                            name_key = (parts.family, parts.given)
                            levels[name_key] = max(levels.get(name_key, 0), level)
                new_total = sum(self._collisions(group).values())
                if new_total < total:
                    total = new_total
                    if not total:
                        return
                else:
                    for key in group:
                        self.disamb[key].givenname_levels = saved[key]

    def _global_givennames(self, rule: str) -> None:
        """all-names / primary-name rules: expand names that share a family name document-wide."""
        primary_only = rule.startswith("primary-name")
        with_initials = rule.endswith("with-initials")
        givens: dict[str, set[str]] = {}
        holders: dict[str, list[str]] = {}  # family name -> the items that have it
        for key in self.registration:
            for names in self._name_lists(key):
                for raw in names[:1] if primary_only else names:
                    parts = parse_name(raw)
                    family = _family_key(parts)
                    givens.setdefault(family, set()).add(_given_key(parts.given))
                    holders.setdefault(family, []).append(key)
        # only the items with a family name that two given names share have levels to find
        # (each other item is not decoded again)
        shared = {key for family, keys in holders.items() if len(givens[family]) > 1 for key in keys}
        for key in self.registration:
            if key not in shared:
                continue
            levels = self.disamb[key].global_givenname_levels
            for names in self._name_lists(key):
                for raw in names[:1] if primary_only else names:
                    parts = parse_name(raw)
                    others = givens.get(_family_key(parts), set())
                    if len(others) < 2:
                        continue
                    hyphen = self.style.options.initialize_with_hyphen
                    initials = [_initials(g, hyphen) for g in others]
                    if initials.count(_initials(_given_key(parts.given), hyphen)) == 1:
                        levels[(parts.family, parts.given)] = 1
                    elif not with_initials:
                        levels[(parts.family, parts.given)] = 2
            self.disamb[key].givenname_levels.update(levels)

    # -- bibliography --------------------------------------------------------------------

    def item_ids(self) -> list[str]:
        """The registered items' ids, in registration order."""
        return list(self.registration)

    def sorted_item_ids(self) -> list[str]:
        """The registered items' ids in the bibliography's sort order (all of them)."""
        return list(self._bib_order)

    def bibliography_ids(self) -> list[str]:
        """The ids of the bibliography's entries (items that render nothing have none)."""
        if self._bib_ids is None:
            self._bib_ids = [key for key, _ in self._bibliography_entries()]
        return list(self._bib_ids)

    def _bibliography_entries(self, selection: Selection | None = None) -> Iterator[tuple[str, Node]]:
        """The bibliography's entries in order, one at a time (key, rendering); only those
        *selection* (else the style's CSL-M exclusions) chooses (see bibsection)."""
        section = self.style.bibliography
        if section is None:
            return
        opts = section.options
        chosen = selection or style_selection(opts)
        sas = opts.get("subsequent-author-substitute")
        sas_rule = opts.get("subsequent-author-substitute-rule", "complete-all")
        second_field = opts.get("second-field-align") in ("flush", "margin")
        previous: tuple[str, tuple[str, ...]] | None = None
        count = 0
        ends = self.range_ends
        if ends is not None:
            ends.first = self._first_range_end
        keys = [key for key in self._bib_order if chosen is None or selects(chosen, self.items[key])]
        if self._parallels:  # (CSL-M: a parallel's other reports are in its first one's entry)
            present = set(keys)
            merged = {other for key, (others, _) in self._parallels.items() if key in present for other in others}
            keys = [key for key in keys if key not in merged]
        entries = consolidated(keys, self.items, self.style.containers) if self.style.containers.active \
            else [(key, 0, 0) for key in keys]
        for key, *container in entries:
            with entry_named(key):
                ctx = self._context(key, "bibliography")
                ctx.container = (container[0], container[1])
                first_range_end = ends.first if ends is not None else None
                layout = self._localized(section, key)[0] or section
                node, suffix_place = self._entry(layout, ctx, second_field)
                if key in self._parallels:
                    node = self._parallel_entry(key, layout, ctx, node, second_field)
                names = (ctx.first_names_text, tuple(ctx.first_name_texts)) if ctx.first_names_text else None
                if sas is not None and names is not None and previous is not None and _sas_applies(sas_rule, names, previous):
                    if ends is not None:  # the entry is rendered once more, for the one written
                        ends.first = first_range_end
                    ctx = self._context(key, "bibliography")
                    ctx.container = (container[0], container[1])
                    ctx.sas = SubsequentAuthor(sas, sas_rule, previous[0], previous[1])
                    node, suffix_place = self._entry(layout, ctx, second_field)
                if names is not None:  # as citeproc-js: an entry that shows no names is passed over
                    previous = names
                if node is None or is_empty(node):  # (no continue in a with block: mypyc has none)
                    node = None
                    if self.style.numbered_citations:  # as citeproc-js: numbered entries show the gap
                        count += 1
                        yield key, f"{count}. {_NO_PRINTED_FORM}"
                else:
                    decor = layout.layout_decor
                    if not (decor and decor.prefix):
                        split_lead(node)
                    if decor and not second_field:
                        block = _last_display_block(node) if decor.suffix and suffix_place == "block" else None
                        if suffix_place == "lost":
                            node = Rich([decor.prefix, node], decor.fmt)
                        elif block is not None:  # the layout suffix goes inside a closing display block
                            block.kids.append(decor.suffix)
                            node = Rich([decor.prefix, node], decor.fmt)
                        else:
                            node = decor.apply(node, ctx) or node
            if node is not None:
                count += 1
                yield key, node

    def _parallel_entry(self, key: str, layout: Section, ctx: RenderContext, node: Node | None,
                        second_field: bool) -> Node | None:
        """The bibliography entry of a parallel's first report (CSL-M), as citeproc-js: its
        reports rendered as the cites of one citation (their repeats left out), joined by
        the delimiter a group of the citation overrides with (else ", ")."""
        others, delimiter = self._parallels[key]
        members = [key, *others]
        marks, roles = repeat_marks([self.items[member] for member in members], self.style.tracked_variables)
        parts: list[Node] = []
        for index, member in enumerate(members):
            member_ctx = ctx if index == 0 else self._context(member, "bibliography")
            member_ctx.parallel = ParallelCite(index, marks, roles=roles)
            rendered = self._entry(layout, member_ctx, second_field)[0]
            if rendered is not None and not is_empty(rendered):
                if parts:
                    parts.append(delimiter if delimiter is not None else ", ")
                parts.append(rendered)
        return Rich(parts) if parts else node

    def _entry(self, section: Section, ctx: RenderContext, second_field: bool) -> tuple[Node | None, str]:
        """An entry's rendering, and where the layout's suffix goes: at the "end", in the
        display "block" that ends the entry, or "lost". As citeproc-js, when the layout's
        first element has a display attribute: the suffix takes the place of the own suffix
        of the layout's last element that holds its place (see render_layout), inside it
        when it is a display element, and it is lost when that element rendered nothing."""
        if second_field:
            return self._layout_parts(section, ctx), "end"
        layout = section.layout
        if not (layout and layout[0].decor is not None and layout[0].decor.display):
            return render_children(layout, ctx, ""), "end"
        node, last, last_node = render_layout(layout, ctx)
        if last is None:
            return node, "end"
        if last_node is None:
            return node, "lost"
        if last.decor is not None and last.decor.display:
            return node, "block"
        if last.decor is not None and last.decor.suffix:  # (one without: an element within it keeps its own)
            without_own_suffix(last_node)
        return node, "end"

    def _layout_parts(self, section: Section, ctx: RenderContext) -> Node | None:
        """second-field-align: the first rendered element in the margin, the rest beside it."""
        rendered: list[Node] = []
        for child in section.layout:
            node = child.render(ctx)
            if node is not None and not is_empty(node):
                rendered.append(node)
                # as citeproc-js: a term after the margin's number still starts the entry,
                # one after what is beside it does not
                if len(rendered) > 1 and child.leads_terms:
                    ctx.rendered_any = True
        if not rendered:
            return None
        decor = section.layout_decor
        prefix, suffix = (decor.prefix, decor.suffix) if decor else ("", "")
        first = Rich([prefix, rendered[0]], display="left-margin")
        if len(rendered) == 1:
            return first  # as citeproc-js: the layout's suffix goes with the entry's second part
        return Rich([first, Rich(rendered[1:] + [suffix], display="right-inline")])

    def iter_bibliography(self, selection: Selection | None = None) -> Iterator[str]:
        """The bibliography's entries, one at a time (HTML: ``<div class="csl-entry">``);
        only those *selection* chooses, when given (see bibsection)."""
        ids = []
        for key, node in self._bibliography_entries(selection):
            with entry_named(key):
                text = self._out(node)
            ids.append(key)
            yield f'<div class="csl-entry">{text}</div>' if self.format.name == "html" else text
        self._bib_ids = ids

    def bibliography(self, selection: Selection | None = None) -> list[str]:
        return list(self.iter_bibliography(selection))

    def bibliography_document(self, selection: Selection | None = None) -> str:
        """The whole bibliography in the output format (HTML: citeproc-js's csl-bib-body)."""
        entries = [self._out(node) for _, node in self._bibliography_entries(selection)]
        if self.format.name == "html":
            body = "".join(f'  <div class="csl-entry">{e}</div>\n' for e in entries)
            return f'<div class="csl-bib-body">\n{body}</div>'
        return "\n".join(entries)

    # -- citations -----------------------------------------------------------------------

    def cite(self, cites: Sequence[Mapping[str, Any]]) -> str:
        return self.cite_clusters([cites])[0]

    def cite_clusters(self, clusters: Iterable[Any]) -> list[str]:
        history = _CiteHistory(int(self._citation_option("near-note-distance", "5")))
        clusters = list(clusters)
        self._citation_counts = Counter(
            str(cite.get("id")) for cluster in clusters
            for cite in (cluster.get("citationItems", []) if isinstance(cluster, Mapping) else cluster))
        out = []
        for number, cluster in enumerate(clusters, start=1):
            if isinstance(cluster, Mapping):
                cites = list(cluster.get("citationItems", []))
                properties = cluster.get("properties", {})
                note = int(properties.get("noteIndex", number) or 0)
                if properties.get("mode") == "composite":
                    out.append(self._composite(cites, note, history, str(properties.get("infix") or "")))
                    continue
                cites = self._in_mode(cites, properties.get("mode"))
                affixes = (str(properties.get("prefix") or ""), str(properties.get("suffix") or ""))
                # (as citeproc-js: an "unsorted" citation keeps its cites' order)
                out.append(self._cluster(cites, note, history, affixes, sort=not properties.get("unsorted")))
                continue
            cites, note = list(cluster), number
            out.append(self._cluster(cites, note, history))
        return out

    def _composite(self, cites: list[Mapping[str, Any]], note: int, history: _CiteHistory, infix: str) -> str:
        """citeproc-js's "composite" citation ("Smith’s early work (1999; Brown, 2000)"): the
        author-only citation, the infix, the citation with its first author suppressed,
        joined by spaces; an infix that starts with punctuation or an apostrophe follows the
        author directly."""
        author = self._cluster(self._in_mode(cites, "author-only"), note, history)
        joined = self._out(_typed_quotes(parse_markup(infix))) if infix else ""
        rest = self._cluster(self._in_mode(cites, "suppress-author"), note, history)
        if author and joined and joined[0] in _INFIX_ATTACHED:
            author, joined = author + joined, ""
        return " ".join(chunk for chunk in (author, joined, rest) if chunk)

    def _in_mode(self, cites: list[Mapping[str, Any]], mode: Any) -> list[Mapping[str, Any]]:
        """The cites of a citation in citeproc-js's citation mode: "author-only" makes its
        first cite author-only; "suppress-author" (not in note styles) suppresses its author."""
        if not cites or mode not in ("author-only", "suppress-author"):
            return cites
        if mode == "suppress-author" and self.style.info.class_ == "note":
            return cites
        other = "suppress-author" if mode == "author-only" else "author-only"
        first = {key: value for key, value in cites[0].items() if key != other}
        return [{**first, mode: True}, *cites[1:]]

    def _citation_option(self, name: str, default: str) -> str:
        section = self.style.citation
        return section.options.get(name, default) if section else default

    def _sectioned(self, cite: Mapping[str, Any]) -> Mapping[str, Any]:
        """In a CSL-M style (1.1m), a legal item's cite with its section put before its
        locator, each with its label's abbreviation written in, as citeproc-js's
        remapSectionVariable: "sec. 12 vrs. 99" (the label is then read from the locator)."""
        item = self.items[str(cite["id"])]
        if not self.style.containers.legal or item.get("type") not in _LEGAL_TYPES:
            return cite
        locator = str(cite.get("locator") or "").strip()
        if locator and not _LEADING_LABEL_RE.match(locator):
            locator = f"{_LABEL_ABBREVIATIONS.get(str(cite.get('label') or 'page'), 'p.')} {locator}"
        section = str(item.get("section") or "").strip()
        if section:
            leading = _LEADING_LABEL_RE.match(section)
            section_label = leading[0].strip() if leading else "sec."
            if not leading:
                section = f"sec. {section}"
            if not locator:
                locator = section
            else:
                first, _, rest = locator.partition(" ")
                if first == "p." and section_label != "p.":
                    locator = rest.lstrip()
                locator = section + ("" if locator[:1] in "[(.,;:?" else " ") + locator
        return {**cite, "locator": locator, "label": ""}

    def _labelled_locator(self, cite: Mapping[str, Any]) -> Mapping[str, Any]:
        """A cite whose locator starts with a label abbreviation ("vol. 2") with that label
        instead, as citeproc-js (unless another label is given, or for legal types)."""
        locator = cite.get("locator")
        if locator in (None, "") or cite.get("label") not in (None, "", "page"):
            return cite
        if self.items[str(cite["id"])].get("type") in _LEGAL_TYPES:
            return cite
        split = split_locator_label(str(locator))
        if split is None or not self.locale.term(split[0]):
            return cite
        return {**cite, "label": split[0], "locator": split[1].rstrip()}

    def _cluster(self, cites: list[Mapping[str, Any]], note: int, history: _CiteHistory,
                 affixes: tuple[str, str] = ("", ""), sort: bool = True) -> str:
        """One citation; *affixes* are the citation's own prefix and suffix (citeproc-js's
        citation properties), written inside the layout's."""
        section = self.style.citation
        if section is None:
            return ""
        for cite in cites:
            if str(cite.get("id")) not in self.items:
                raise KeyError(f"cited item {cite.get('id')!r} is not among the processor's items")
        cites = [self._labelled_locator(self._sectioned(_split_locator(cite))) for cite in cites]
        keys = [str(c["id"]) for c in cites]
        if section.sort and sort:
            paired = self._sort_order(keys, section, "citation", cites)
            cites = [cites[i] for i in paired]
            keys = [keys[i] for i in paired]
        # as citeproc-js: a citation whose first cite is author-only is that author alone,
        # without the layout's affixes and formatting
        author_only = bool(cites and cites[0].get("author-only"))
        if author_only:
            cites, keys = cites[:1], keys[:1]
        marks, roles = repeat_marks([self.items[key] for key in keys], self.style.tracked_variables) \
            if self.style.parallels else ([], [None] * len(keys))
        firsts, lasts = self._position_ids(keys)
        positions = history.positions(firsts, cites, note, roles, lasts, author_only)
        last_to_first: set[str] = set()  # (shared by the cites of a parallel: see ParallelCite)
        rendered: list[tuple[str, Node | None, RenderContext]] = []
        braces = NestedParens() if self.style.info.class_ == "note" else None
        decor = (self._localized(section, keys[-1])[0] or section).layout_decor if keys else None
        # the citation's affixes, then each cite's, pass the parentheses' nesting on in order
        lead = _braced_affix(braces, (decor.prefix if decor else "") + _spaced_prefix(affixes[0]))
        for n, (key, cite, (position, first_note, near, container_note)) in enumerate(zip(keys, cites, positions)):
            if braces is not None and cite.get("prefix"):
                cites[n] = cite = {**cite, "prefix": braces.update(_spaced_prefix(str(cite["prefix"])))}
            ctx = self._context(key, "citation", cite)
            ctx.braces = braces
            # a note citation that starts with a term starts with a capital (as citeproc-js)
            ctx.capitalize_leading_term = n == 0 and self.style.info.class_ == "note" \
                and not cite.get("prefix")
            ctx.position = _GIVEN_POSITIONS.get(cite.get("position"), position)
            # (a cite may state its first note, as it may its position)
            given_note = str(cite.get("first-reference-note-number") or "")
            ctx.first_note = int(given_note) if given_note.isdigit() else first_note
            ctx.first_container_note = container_note
            ctx.near_note = bool(cite["near-note"]) if "near-note" in cite else near  # (a stated one, as a position)
            ctx.suppress_author = bool(cite.get("suppress-author"))
            ctx.author_only = bool(cite.get("author-only"))
            if self.style.parallels:
                if roles[n] != "other":  # (as citeproc-js: anew at each cite but a parallel's others)
                    last_to_first = set()
                ctx.parallel = ParallelCite(n, marks, roles=roles, last_to_first=last_to_first)
            node = self._render(section, key, ctx)
            if roles[n] == "first" and ctx.parallel is not None:
                others = list(itertools.takewhile(lambda k: roles[k] == "other", range(n + 1, len(keys))))
                self._parallels[key] = ([keys[k] for k in others], ctx.parallel.override)
                self._bib_ids = None  # (the bibliography's entries change)
            if cite.get("author-only"):
                node = self._author_only(key, cite, ctx)
            elif node is None and not ctx.suppress_author:
                node = _NO_PRINTED_FORM  # citeproc-js's marker for a cite that renders nothing
            if braces is not None and cite.get("suffix"):
                cites[n] = {**cite, "suffix": braces.update(_spaced_suffix(str(cite["suffix"])))}
            rendered.append((key, node, ctx))
        node = self._join_cites(section, rendered, cites)
        if node is None:
            return ""
        if author_only:
            return self._out(node)
        # as citeproc-js: a layout suffix that starts with a terminal punctuation mark is
        # that mark alone (". " ends a citation in "."; ", " is written whole)
        suffix = decor.suffix if decor else ""
        if suffix[:1] and suffix[:1] in _TERMINAL_PUNCTUATION:
            suffix = type(suffix)(suffix[:1])
        if affixes[1]:
            suffix = type(suffix)(_spaced_suffix(affixes[1]) + suffix)
        tail = _braced_affix(braces, suffix)
        if lead or tail or decor is not None:  # in citations, layout formatting wraps the layout affixes too
            node = Rich([lead, node, tail], decor.fmt if decor else None)
        return self._out(node)

    def _position_ids(self, keys: list[str]) -> tuple[list[str], list[str]]:
        """What each cite repeats and what it is a part of, for its position: its item, or
        in a style that consolidates them (CSL-M), the statute an item is a section of and
        the book a chapter is in (see consolidation.py)."""
        containers = self.style.containers
        if not containers.active:
            return keys, keys
        firsts, lasts = [], []
        for key in keys:
            item = self.items[key]
            statute = legislation_id(item, containers)
            firsts.append(statute or key)
            lasts.append(statute or container_id(item, containers) or key)
        return firsts, lasts

    def _author_only(self, key: str, cite: Mapping[str, Any], ctx: RenderContext) -> Node:
        """An author-only cite as citeproc-js writes it: the CSL-M cs:intext layout where the
        style has one, else the cite's first names (failing any, a date it writes first);
        without formatting, and citeproc-js's marker where that is nothing."""
        # as citeproc-js: the first names it writes, or failing any, a date written first
        node = ctx.first_names if ctx.first_names is not None else ctx.first_written
        if self.style.intext is not None:
            intext = self._context(key, "citation", cite)
            intext.position, intext.first_note, intext.near_note = ctx.position, ctx.first_note, ctx.near_note
            node = render_children(self.style.intext.layout, intext, "")
        text = plain(node) if node is not None else ""
        return text if text.strip() else _NO_PRINTED_FORM_MARK

    def _with_affixes(self, node: Node | None, cite: Mapping[str, Any]) -> Node | None:
        prefix, suffix = cite.get("prefix"), cite.get("suffix")
        if not prefix and not suffix:
            return node
        parts: list[Node] = []
        if prefix:
            parts.append(_typed_quotes(parse_markup(_spaced_prefix(str(prefix)))))
            if node is not None and _SENTENCE_END_RE.search(str(prefix)):
                node = apply_text_case(node, "capitalize-first")
        if node is not None:
            parts.append(node)
        if suffix:
            suffix = _spaced_suffix(str(suffix))
            if suffix[:1] == " ":
                # as citeproc-js: the space a cite's suffix starts with is kept after one the
                # rendering ends with ("…/36008,  for details")
                parts.append(KeptLead(" "))
                suffix = suffix[1:]
            parts.append(_typed_quotes(parse_markup(suffix)))
        return Rich(parts)

    def _join_cites(self, section: Section, rendered: list[tuple[str, Node | None, RenderContext]],
                    cites: list[Mapping[str, Any]]) -> Node | None:
        opts = section.options
        collapse = opts.get("collapse")
        delimiter = section.delimiter
        after_collapse = opts.get("after-collapse-delimiter", delimiter)
        if collapse == "citation-number":
            return self._collapse_numbers(rendered, cites, delimiter, after_collapse)
        if collapse in ("year", "year-suffix", "year-suffix-ranged") or "cite-group-delimiter" in opts:
            return self._collapse_years(section, rendered, cites, collapse, delimiter, after_collapse)
        parts: list[Node] = []
        for n, ((key, node, ctx), cite) in enumerate(zip(rendered, cites)):
            if node is _NO_PRINTED_FORM and (cite.get("prefix") or cite.get("suffix") or parts):
                # as citeproc-js: a cite with affixes writes them alone, and a cluster writes
                # the marker only where nothing was written before it
                node = None
            node = self._with_affixes(node, cite)
            if node is None or is_empty(node):
                continue
            if parts:
                # (as citeproc-js: an after-collapse-delimiter joins the cites of a citation
                # that collapses nothing too)
                between = after_collapse
                if section.locale_layouts and "after-collapse-delimiter" not in opts:
                    # CSL-M, as citeproc-js: a cite is followed by its own layout's delimiter
                    between = (self._localized(section, rendered[n - 1][0])[0] or section).delimiter
                if ctx.parallel is not None and ctx.parallel.delimiter is not None:
                    between = ctx.parallel.delimiter
                joint = _cite_delimiter(between, cites[n - 1], cite)
                if joint:
                    parts.append(joint)
            parts.append(node)
        return Rich(parts) if parts else None

    def _collapse_numbers(self, rendered: list[tuple[str, Node | None, RenderContext]], cites: list[Mapping[str, Any]],
                          delimiter: str, after_collapse: str) -> Node | None:
        runs: list[list[tuple[Node, int | None]]] = []
        for (key, node, ctx), cite in zip(rendered, cites):
            if node is None:
                continue
            number = self.citation_numbers.get(key)
            plain_cite = not (cite.get("locator") or cite.get("prefix") or cite.get("suffix"))
            entry = (self._with_affixes(node, cite) or "", number if plain_cite else None)
            if runs and entry[1] is not None and runs[-1][-1][1] is not None and entry[1] == runs[-1][-1][1] + 1:
                runs[-1].append(entry)
            else:
                runs.append([entry])
        parts: list[Node] = []
        previous_collapsed = False
        for run in runs:
            if parts:
                parts.append(after_collapse if previous_collapsed else delimiter)
            if len(run) >= 3:
                parts.extend([run[0][0], "\u2013", run[-1][0]])
                previous_collapsed = True
            else:
                for i, (node, _) in enumerate(run):
                    if i:
                        parts.append(delimiter)
                    parts.append(node)
                previous_collapsed = False
        return Rich(parts) if parts else None

    def _collapse_years(self, section: Section, rendered: list[tuple[str, Node | None, RenderContext]],
                        cites: list[Mapping[str, Any]], collapse: str | None, delimiter: str,
                        after_collapse: str) -> Node | None:
        """Cite grouping by author, then collapse="year" / "year-suffix" / "year-suffix-ranged"."""
        opts = section.options
        in_text = self.style.info.class_ == "in-text"
        within = opts.get("cite-group-delimiter", ", " if in_text else delimiter)
        has_after = "after-collapse-delimiter" in opts
        suffix_delimiter = opts.get("cite-group-delimiter", opts.get("year-suffix-delimiter", delimiter))
        groups: list[list[int]] = []
        authors: list[str] = []
        for i, (key, node, ctx) in enumerate(rendered):
            author = self._text(ctx.first_names) if ctx.first_names is not None else ""
            # sorted citations gather each author's cites; unsorted ones only join neighbours
            target = authors.index(author) if section.sort and author in authors else (
                len(groups) - 1 if authors and authors[-1] == author else None)
            if target is None:
                authors.append(author)
                groups.append([i])
            else:
                groups[target].append(i)
        parts: list[Node] = []
        previous: tuple[bool, bool] | None = None  # (group collapsed, last cite had a locator)
        for group in groups:
            if previous is not None:
                collapsed, locator = previous
                use_after = has_after and (locator or collapsed or collapse != "year-suffix")
                parts.append(after_collapse if use_after else delimiter)
            members: list[tuple[Node, list[str]]] = []  # rendered cite, year suffixes collapsed into it
            last_year: Any = None
            last_locator = False
            for n, i in enumerate(group):
                key, node, ctx = rendered[i]
                cite = cites[i]
                year = _issued_year(self.items[key])
                suffix = self.disamb[key].year_suffix
                plain_cite = not (cite.get("locator") or cite.get("prefix") or cite.get("suffix"))
                if (n and collapse in ("year-suffix", "year-suffix-ranged") and suffix and year == last_year
                        and plain_cite and members and members[-1][1]):
                    members[-1][1].append(suffix)
                    continue
                if n and collapse:
                    again = self._context(key, "citation", cite)
                    again.position = ctx.position
                    again.suppress_author = True
                    node = self._render(section, key, again)
                node = self._with_affixes(node, cite)
                if node is None or is_empty(node):
                    continue
                if members:
                    members.append((after_collapse if has_after and last_locator else within, []))
                members.append((node, [suffix] if suffix and plain_cite else []))
                last_year = year
                last_locator = bool(cite.get("locator"))
            out: list[Node] = []
            for node, suffixes in members:
                out.append(node)
                if len(suffixes) > 1:
                    out.append(_suffix_tail(suffixes, suffix_delimiter, collapse == "year-suffix-ranged"))
            parts.append(Rich(out))
            previous = (len(group) > 1, last_locator)
        return Rich(parts) if parts else None


_NO_PRINTED_FORM = "[CSL STYLE ERROR: reference with no printed form.]"
_NO_PRINTED_FORM_MARK = "[NO_PRINTED_FORM]"  # citeproc-js's, for an author-only cite that is nothing
#: what an infix of a composite citation starts with to follow the author without a space
_INFIX_ATTACHED = frozenset(".!?:,;\u2019'")
_UNSET = object()  # a sort key value not computed yet


class _SortRow:
    """An item's sort key values (``_UNSET`` until computed), the year suffix it had when
    they were, and which of them read state disambiguation changes (a bit per index)."""

    __slots__ = ("changing", "suffix", "values")

    def __init__(self, suffix: str, size: int) -> None:
        self.suffix = suffix
        self.values: list[Any] = [_UNSET] * size
        self.changing = 0
_SENTENCE_END_RE = re.compile("\\S\\s+\\S+[.!?][\"'\u201d\u2019]?\\s*$")  # not after a lone word
# a position a cite states (citeproc-js's numbers), instead of the one found from its history
_GIVEN_POSITIONS: dict[Any, str] = {0: "first", 1: "subsequent", 2: "ibid", 3: "ibid-with-locator", 4: "subsequent"}
_LEGAL_TYPES = frozenset(("bill", "gazette", "legislation", "regulation", "treaty"))
_CITE_AFFIX_PUNCTUATION = frozenset(";.,")
_LOCATOR_DATE_RE = re.compile(r"^([0-9]{4}-[0-9]{2}-[0-9]{2})")
#: a locator label's abbreviation, as citeproc-js writes it into a legal cite's locator
_LABEL_ABBREVIATIONS = {label: f"{abbreviation}." for abbreviation, label in reversed(LOCATOR_LABEL_ABBREVIATIONS.items())}
_LEADING_LABEL_RE = re.compile(r"^\s*[.,;]*\s*(?:" + "|".join(sorted(LOCATOR_LABEL_ABBREVIATIONS, key=len, reverse=True))
                               + r")\. *")


_TAG_RE = re.compile("<[^>]+>")
_PREFIX_TAIL_RE = re.compile("[\"'\u201d\u2019\u00bb\u202f\u00a0 ]+$")
_SPACED_AFTER_RE = re.compile(f"[.;:!?&),\\]0-9{ROMANESQUE_CHARS}]$")
_SPACED_BEFORE_RE = re.compile(f"^[&(\\[{ROMANESQUE_CHARS}]")


def _spaced_prefix(prefix: str) -> str:
    """A cite's (or a citation's) prefix as citeproc-js writes it: a space added after one ending in a letter,
    a digit or punctuation (closing quotes, tags and spaces aside), and each run of spaces one."""
    if not prefix:
        return prefix
    if _SPACED_AFTER_RE.search(_PREFIX_TAIL_RE.sub("", _TAG_RE.sub("", prefix))):
        prefix += " "
    return re.sub(r"\s+", " ", prefix)


def _braced_affix(braces: NestedParens | None, affix: str) -> str:
    """An affix of a note style's citation with its parentheses nested (see NestedParens)."""
    return type(affix)(braces.update(affix)) if braces is not None and affix else affix


def _spaced_suffix(suffix: str) -> str:
    """A cite's (or a citation's) suffix as citeproc-js writes it: a space before one starting with a letter or
    an opening bracket."""
    return " " + suffix if _SPACED_BEFORE_RE.match(suffix) else suffix


def _cite_delimiter(delimiter: str, previous: Mapping[str, Any], cite: Mapping[str, Any]) -> str:
    """The delimiter between two cites, as citeproc-js: after a suffix ending in ; . or , only
    its spacing (from its first space) is kept; before a prefix starting with one (and no
    suffix before it), none."""
    previous_suffix = str(previous.get("suffix") or "")
    prefix = str(cite.get("prefix") or "")
    if not previous_suffix and prefix[:1] in _CITE_AFFIX_PUNCTUATION:
        return ""
    if previous_suffix[-1:] in _CITE_AFFIX_PUNCTUATION:
        space = delimiter.find(" ")
        return delimiter[space:] if space > -1 else ""
    return delimiter


def _last_display_block(node: Node) -> Rich | None:
    """The display block that ends a rendering, if one does."""
    while isinstance(node, Rich):
        if node.display:
            return node
        kids = [kid for kid in node.kids if kid != ""]
        if not kids:
            return None
        node = kids[-1]
    return None


def _typed_quotes(node: Node) -> Node:
    """Quotation marks typed in a cite prefix or suffix keep punctuation where it was typed."""
    if isinstance(node, Rich):
        if node.quotes:
            node.quotes = data_quotes(node.quotes)
        for kid in node.kids:
            _typed_quotes(kid)
    return node


def _sas_applies(rule: str, names: tuple[str, tuple[str, ...]], previous: tuple[str, tuple[str, ...]]) -> bool:
    if rule in ("complete-all", "complete-each"):  # the names shown (not "et al."), as citeproc-js
        return bool(names[1]) and names[1] == previous[1]
    return bool(names[1]) and bool(previous[1]) and names[1][0] == previous[1][0]


def _family_key(parts: Any) -> str:
    return f"{parts.non_dropping} {parts.family}".strip()


def _given_key(given: str) -> str:
    """A given name as citeproc-js compares it across a document: periods are spaces
    ("J.J." and "J. J." are one name)."""
    return re.sub(r"\s+", " ", given.replace(".", " ")).rstrip()


def _initials(given: str, hyphen: bool) -> str:
    """The initials that tell two given names apart, as citeproc-js finds them: as names are
    initialized ("John-boy" and "John" are both "J")."""
    return initialize(given, "%s", True, hyphen)


def _is_range(value: Any) -> bool:
    """Whether a value may be a date range with a different end: CSL-JSON date-parts of two
    dates, or a raw date (read when rendered; one that is no range renders no range end)."""
    if not isinstance(value, Mapping):
        return False
    if "raw" in value:
        return True
    parts = value.get("date-parts")
    return isinstance(parts, list) and len(parts) > 1 and parts[1] != parts[0] and bool(parts[1])


def _issued_year(item: Mapping[str, Any]) -> Any:
    issued = item.get("issued")
    if isinstance(issued, dict):
        parts = issued.get("date-parts") or [[None]]
        return str(parts[0][0]).strip() if parts and parts[0] else issued.get("literal")
    return issued


def _suffix_index(suffix: str) -> int:
    value = 0
    for char in suffix:
        value = value * 26 + (ord(char) - 96)
    return value


def _suffix_tail(suffixes: list[str], delimiter: str, ranged: bool) -> str:
    """What follows a cite whose year suffix absorbed the next cites' (``,b`` or ``–e``)."""
    pieces: list[str] = []
    start = 0
    indices = [_suffix_index(s) for s in suffixes]
    for end in range(1, len(suffixes) + 1):
        if end == len(suffixes) or indices[end] != indices[end - 1] + 1:
            if ranged and end - start >= 3:
                pieces.append(suffixes[start] + "\u2013" + suffixes[end - 1])
            else:
                pieces.extend(suffixes[start:end])
            start = end
    tail = pieces[0][len(suffixes[0]):]  # "–e" when the first range starts at the cite's own suffix
    return tail + "".join(delimiter + piece for piece in pieces[1:])


class _CompactItems(dict[str, Any]):
    """The registered items. The first ``_KEPT_DECODED`` are kept as they are; each one beyond
    is kept as its JSON (UTF-8 bytes, through orjson) and decoded when a rendering asks for it:
    a 100,000-item bibliography keeps 100 MB of JSON instead of 400 MB of dicts and strings,
    and one of a few thousand items, which sorting and disambiguation ask for several times
    per item, is never encoded nor decoded (the 77 items of the parity library spent a tenth
    of their APA rendering decoding). An item JSON cannot hold (an integer beyond 64 bits) is
    kept as it is. The last ``_RECENT`` items decoded are kept (sorting asks for the same
    items in turn). Rendering never changes an item."""

    def __init__(self) -> None:
        super().__init__()
        self._recent: dict[str, Mapping[str, Any]] = {}

    def __setitem__(self, key: str, item: Mapping[str, Any]) -> None:
        self._recent.pop(key, None)
        if len(self) < _KEPT_DECODED:
            super().__setitem__(key, item)
            return
        try:  # (orjson's bytes keep the room it wrote them in: a copy holds just the JSON)
            super().__setitem__(key, bytes(memoryview(orjson.dumps(item))))
        except TypeError:  # orjson.JSONEncodeError
            super().__setitem__(key, item)

    def __getitem__(self, key: str) -> Mapping[str, Any]:
        stored = super().__getitem__(key)
        if not isinstance(stored, bytes):
            return stored  # type: ignore[no-any-return]
        recent = self._recent
        item = recent.get(key)
        if item is None:
            item = orjson.loads(stored)
            if len(recent) >= _RECENT:
                del recent[next(iter(recent))]
            recent[key] = item
        return item


_KEPT_DECODED = 1000
_RECENT = 8


class _CiteHistory:
    """Positions of cites in document order (first, subsequent, ibid, near-note), as citeproc-js:
    in-text citations (note 0) and footnote citations are two separate sequences."""

    def __init__(self, near_note_distance: int) -> None:
        self.in_text = _PositionTrack(near_note_distance)
        self.in_notes = _PositionTrack(near_note_distance)

    def positions(self, keys: list[str], cites: list[Mapping[str, Any]], note: int, roles: list[str | None],
                  lasts: list[str], author_only: bool = False) -> list[_Position]:
        track = self.in_notes if note else self.in_text
        if author_only:
            # as citeproc-js: an author-only citation is always first, and no citation after
            # it is an ibid of it or subsequent to it
            return track.author_only(keys)
        return track.positions(keys, cites, note, roles, lasts)


#: a cite's position, first-reference-note-number, near-note and (CSL-M)
#: first-container-reference-note-number
_Position = tuple[str, int | None, bool, int | None]


class _PositionTrack:
    """Positions along one sequence of citations.

    Ibid looks back at the previous cite in the same citation; for a citation's first cite,
    at the previous citation: in the same note (or in-text), its last cite must be the same
    item; in an earlier note, that note (the one just before) must hold one cite only, of the
    same item.  The locators then decide between ibid, ibid-with-locator and subsequent.
    """

    def __init__(self, near_note_distance: int) -> None:
        self.near_note_distance = near_note_distance
        self.first_note: dict[str, int] = {}
        self.last_note: dict[str, int] = {}
        self.container_note: dict[str, int] = {}  # (CSL-M: the first note of a statute or book)
        self.cites_in_note: dict[int, int] = {}
        self.previous: list[tuple[str, Any, Any]] = []  # the previous citation's cites (key, locator, extra)
        self.previous_note: int | None = None

    def _ibid_source(self, index: int, keys: list[str], cites: list[Mapping[str, Any]],
                     note: int, roles: list[str | None]) -> tuple[str, Any] | None:
        """The cite an ibid would repeat (its key and locator), or None: a subsequent cite.
        Within a citation with CSL-M parallels, as citeproc-js, the cite before stands for
        the first of the citation's parallels before it, if any (its locator its own). The
        cite's locator-extra (CSL-M) must be the one it repeats."""
        key, extra = keys[index], cites[index].get("locator-extra")
        if index > 0:
            before = next((i for i in range(index - 1) if roles[i] == "first"), index - 1)
            if keys[before] != key or cites[before].get("locator-extra") != extra:
                return None
            return keys[before], _locator_of(cites[index - 1])
        previous, previous_note = self.previous, self.previous_note
        if not previous or previous_note is None:
            return None
        if previous_note != note:
            single = self.cites_in_note.get(previous_note) == 1
            source = previous[0] if previous[0][0] == key and previous_note >= note - 1 and single else None
        else:
            source = previous[-1] if previous[-1][0] == key else None
        return source[:2] if source is not None and source[2] == extra else None

    def positions(self, keys: list[str], cites: list[Mapping[str, Any]], note: int,
                  roles: list[str | None], lasts: list[str]) -> list[_Position]:
        """*keys*: what a cite repeats (its item, or for CSL-M the statute it is a section
        of); *lasts*: what it is a part of (that statute, or the book of a chapter), whose
        first cite is the first position, and whose other parts first cited are in the
        container-subsequent one (as citeproc-js)."""
        # (a parallel counts once: its other cites are not counted)
        self.cites_in_note[note] = self.cites_in_note.get(note, 0) + sum(
            1 for role in roles if role != "other")
        out: list[_Position] = []
        for index, (key, cite, last) in enumerate(zip(keys, cites, lasts)):
            locator = _locator_of(cite)
            if last not in self.last_note:
                position = "first"
                self.container_note[last] = note
            else:
                source = self._ibid_source(index, keys, cites, note, roles)
                previous_locator = source[1] if source is not None else None
                if source is None or (previous_locator is not None and locator is None):
                    position = "subsequent"
                elif locator is None or locator == previous_locator:
                    position = "ibid"
                else:
                    position = "ibid-with-locator"
                if position == "subsequent" and key not in self.first_note:
                    position = "container-subsequent"
            near = last in self.last_note and note - self.last_note[last] <= self.near_note_distance
            # (as citeproc-js: none when the first reference is in this very note)
            first_note = self.first_note.get(key) if position != "first" else None
            container_note = self.container_note.get(last) if position != "first" else None
            out.append((position, None if first_note == note else first_note, near,
                        None if container_note == note else container_note))
            self.first_note.setdefault(key, note)
            self.last_note[last] = note
        self.previous = [(k, _locator_of(c), c.get("locator-extra")) for k, c in zip(keys, cites)]
        self.previous_note = note
        return out

    def author_only(self, keys: list[str]) -> list[_Position]:
        return [("first", None, False, None) for _ in keys]


def _split_locator(cite: Mapping[str, Any]) -> Mapping[str, Any]:
    """A cite whose locator holds a "|" as citeproc-js reads it (CSL-M): the locator before
    it; after it, a date (YYYY-MM-DD) the cite's locator-date, and the rest its
    locator-extra."""
    locator = cite.get("locator")
    if locator is None or "|" not in str(locator):
        return cite
    locator, rest = str(locator).split("|", 1)
    split = {**cite, "locator": locator}
    date = _LOCATOR_DATE_RE.match(rest)
    if date:
        split["locator-date"] = {"date-parts": [[int(part) for part in date[1].split("-")]]}
        rest = rest[date.end(1):]
    split["locator-extra"] = rest.strip()
    return split


def _locator_of(cite: Mapping[str, Any]) -> tuple[str, str] | None:
    locator = cite.get("locator")
    if locator in (None, ""):
        return None
    return (str(locator).strip(), cite.get("label") or "")


class _StyledHighlight:
    """A highlight predicate with the emphasis it asks for (bold or underline)."""

    def __init__(self, predicate: Highlight, style: str) -> None:
        if style not in ("bold", "underline"):
            raise ValueError("highlight_style must be 'bold' or 'underline'")
        self.predicate = predicate
        self.style = style

    def __call__(self, name: Mapping[str, Any]) -> bool:
        return bool(self.predicate(name))


def make_processor(
    style: CslStyle,
    items: Iterable[Mapping[str, Any]],
    locale: str | None = None,
    output: str = "text",
    locale_store: LocaleStore | None = None,
    highlight: Highlight | None = None,
    highlight_style: str = "bold",
    links: bool = True,
    first_number: int = 1,
    abbreviations: AbbreviationLists | None = None,
    languages: LanguagePrefs | None = None,
    affiliations: bool = False,
) -> Processor:
    """A processor for *items* (CSL-JSON dicts) in *style*, writing *output* (text, html,
    markdown, latex or rtf).  *highlight* marks names (bold or underline); *first_number* is
    the first citation number (a part of a bibliography numbered on from the parts before);
    *abbreviations* are CSL-M abbreviation lists (see :mod:`.abbreviations`); *languages* the
    forms of multilingual values to show (see :mod:`.multilingual`); *affiliations*
    writes persons with the institution named after them as its members (citeproc-js's
    spoof_institutional_affiliations: "Doe, Big Ministry")."""
    return Processor(style, items, locale, output, locale_store, highlight, highlight_style, links,
                     first_number, abbreviations, languages, affiliations)
