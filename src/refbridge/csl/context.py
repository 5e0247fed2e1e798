"""State of one rendering (an item in a citation, bibliography or sort-key pass).

A :class:`RenderContext` is created per rendered cite or entry; compiled nodes read the
item and cite from it and record which variables they called, for group suppression.
This module holds state only: it never renders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from refbridge.richtext import RichText

from .abbreviations import AbbreviationLists
from .groupcondition import GroupCondition
from .localization import Locale
from .multilingual import Multilingual
from .nameparts import parse_name
from .parallel import ParallelCite
from .rendered import ROMANESQUE_CHARS, STOP_WORDS, Node
from .values import DateValue, parse_date


class RangeEndWrapper(Protocol):
    """What wraps the end of a date range the way citeproc-js's engine does
    (``nodes.RangeEnds``, one per processor)."""

    def wrap(self, end: Node, ctx: RenderContext) -> Node: ...


DATE_VARIABLES = frozenset(
    ["accessed", "available-date", "event-date", "issued", "original-date", "submitted", "container", "locator-date"]
)


@dataclass(slots=True)
class Disambiguation:
    """Per-item disambiguation state found by the processor."""

    et_al_use_first: int | None = None
    givenname_levels: dict[tuple[str, str], int] = field(default_factory=dict)  # (family, given) -> level
    default_givenname_level: int = 0
    #: the levels an all-names or primary-name rule gives document-wide, which the bibliography
    #: shows too (as citeproc-js's name registry)
    global_givenname_levels: dict[tuple[str, str], int] = field(default_factory=dict)
    year_suffix: str = ""
    #: how many names each name list of the item's citation shows in the subsequent position
    #: (in rendering order), the fewest a citation shows of a list long enough to be cut
    registered_names: tuple[int, ...] = ()  # (a tuple: most items never have one)
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


class NestedParens:
    """As citeproc-js in the citations of a note style: parentheses in the affixes of a group,
    a macro call or a date that open inside another pair (of one citation cluster) become
    square brackets ("( [s.d.])"); those of other elements are left as they are."""

    __slots__ = ("depth",)

    def __init__(self) -> None:
        self.depth = 0

    def update(self, affix: str) -> str:
        if "(" not in affix and ")" not in affix:
            return affix
        out = []
        for char in affix:
            if char == "(":
                out.append("[" if self.depth % 2 else char)
                self.depth += 1
            elif char == ")":
                out.append("]" if not self.depth % 2 else char)
                self.depth -= 1
            else:
                out.append(char)
        return "".join(out)


@dataclass
class CommaTrack:
    """What CSL-M group conditions read of a rendering: whether it ends in a number so far,
    and the condition of the require/reject group being rendered, if any."""

    just_did_number: bool = False
    condition: GroupCondition | None = None


class RenderContext:
    __slots__ = (
        "abbreviations",
        "affiliations",
        "author_only",
        "bare_names",
        "braces",
        "capitalize_leading_term",
        "capture_names",
        "citation_number",
        "citations",
        "cite",
        "commas",
        "container",
        "dates",
        "disamb",
        "disambiguate_tests",
        "disambiguating",
        "explicit_year_suffix",
        "first_container_note",
        "first_name_texts",
        "first_names",
        "first_names_text",
        "first_note",
        "first_written",
        "group_vars_called",
        "highlight",
        "home_locale",
        "in_substitute",
        "item",
        "kept_spaces",
        "label_form",
        "languages",
        "last_child",
        "last_child_node",
        "locale",
        "mode",
        "name_lists",
        "names_seen",
        "near_note",
        "parallel",
        "placeholder_labels",
        "position",
        "range_ends",
        "read_changing_state",
        "registering",
        "rendered_any",
        "rich",
        "sas",
        "sort_etal",
        "sorting",
        "substituted_by_term",
        "substituted_in_own",
        "substituting",
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
        #: the engine's own locale where a CSL-M layout renders in another (see Processor._localized)
        self.home_locale = locale
        #: CSL-M: by variable, the label term with a "%s" a cs:label met (see Label.content)
        self.placeholder_labels: dict[str, str] | None = None
        #: CSL-M: the abbreviation lists the caller gave the processor (see abbreviations.py)
        self.abbreviations: AbbreviationLists = {}
        #: CSL-M: the forms of values to show (see multilingual.py); None: values as they are
        self.languages: Multilingual | None = None
        #: persons before an institution are written as its members (see make_processor)
        self.affiliations = False
        self.mode = mode
        self.cite = cite or {}
        self.position = "first"
        self.disamb = disamb or Disambiguation()
        self.suppressed: set[str] = set()
        self.vars_called = 0
        self.group_vars_called = 0  # vars_called when the enclosing group or macro began
        self.vars_found = 0
        self.year_suffix_done = False
        self.first_names: Node | None = None  # the first cs:names output (author-only, grouping)
        self.suppress_author = False
        self.author_only = False  # an author-only cite (see first_written)
        self.first_written: Node | None = None  # the date it wrote first ("": another element came first)
        self.highlight = highlight
        self.sorting = False
        self.sort_etal: SortEtAl | None = None
        self.names_seen = 0
        self.dates: dict[str, DateValue | None] = {}
        self.explicit_year_suffix = False
        self.citation_number: int | None = None
        self.citations = 0  # how many cites of the document's citations cite the item (CSL-M)
        self.first_note: int | None = None
        self.first_container_note: int | None = None  # CSL-M (see consolidation.py)
        self.label_form: str | None = None  # CSL-M: the label-form of the group or macro call it is in
        self.near_note = False
        self.parallel: ParallelCite | None = None  # CSL-M: the cite's place in its parallels
        #: CSL-M: how many bibliography entries its container has, and its place among them
        self.container: tuple[int, int] = (0, 0)
        self.commas: CommaTrack | None = None  # CSL-M: what its group conditions read (see groupcondition.py)
        self.registering = False  # the processor's registration rendering (names counted)
        self.name_lists = 0  # name lists rendered so far (in a citation)
        self.last_child: object = None  # the element rendered last in a group, and its rendering
        self.last_child_node: Node | None = None
        self.in_substitute = False
        self.bare_names = False  # the cs:names about to render substitutes for its parent's
        self.substituted_in_own = False  # the cs:names just rendered gave a substitute in its own formatting
        self.substituted_by_term = False  # ... one that renders no variable (a term)
        self.substituting: list[object] = []  # the cs:names elements substituting now
        self.sas: SubsequentAuthor | None = None
        self.first_names_text: str | None = None
        self.first_name_texts: list[str] = []
        self.capture_names = False
        self.disambiguating = False
        self.disambiguate_tests = 0
        self.rich: Mapping[str, RichText] = {}  # the item's rich text values, by variable
        self.capitalize_leading_term = False  # a term written first starts with a capital
        self.rendered_any = False  # whether anything but affixes was written yet
        self.kept_spaces = 0  # formatted elements' suffixes keeping a space (see nodes.KeptSpace)
        self.braces: NestedParens | None = None  # a note style's citation cluster (see there)
        self.range_ends: RangeEndWrapper | None = None  # the processor's (nodes.RangeEnds)
        # whether the rendering read what the processor changes once items are sorted (the
        # year suffix, the disambiguate="true" level, the citation number): a sort key that
        # did not is computed once
        self.read_changing_state = False

    def year_suffix(self) -> str:
        """The item's year suffix (noted in ``read_changing_state``)."""
        self.read_changing_state = True
        return self.disamb.year_suffix

    def date(self, name: str) -> DateValue | None:
        if name not in self.dates:
            source = self.cite if name == "locator-date" else self.item  # (CSL-M: the cite's)
            self.dates[name] = None if name in self.suppressed else parse_date(source.get(name))
        return self.dates[name]

    def value(self, name: str) -> Any:
        """A variable's raw value, honouring substitution and cite-level variables."""
        if self.suppressed and name in self.suppressed:
            return None
        if name in _CITE_VARIABLES:
            if name in ("locator", "locator-extra"):
                return self.cite.get(name)
            if name == "citation-number":
                self.read_changing_state = True
                return self.citation_number
            if name == "first-reference-note-number":
                return self.first_note
            if name == "first-container-reference-note-number":
                return self.first_container_note
            return self.year_suffix() or None
        value = self.item.get(name)
        if value is None or value == "" or value == []:
            return _alias_value(self.item, name, self.locale) if name in _DERIVED else None
        return value


_CITE_VARIABLES = frozenset(("locator", "locator-extra", "citation-number", "first-reference-note-number",
                             "first-container-reference-note-number", "year-suffix"))
_ALIASES = {
    "title-short": ("shortTitle",),
    "container-title-short": ("journalAbbreviation", "shortContainerTitle"),
}


_DERIVED = frozenset(("title-short", "container-title-short", "page-first", "citation-label"))
#: Variables whose value another rendering decides (the cite's, the processor's, a label
#: made from several variables): none is one item key (see ``item_keys``).
NOT_ITEM_KEYS = _CITE_VARIABLES | {"citation-label"}
#: Variables whose value is not simply the item's: the cite's, the processor's, or derived.
COMPUTED_VARIABLES = _CITE_VARIABLES | _DERIVED
# citation-label, as citeproc-js makes it: letters of the family names of the first name
# variable an item has (citeproc-js's order of name variables), per number of names, and
# the last two digits of the year ("00" without one); failing names, the title's first
# letters (stop words left out). Only Latin-like letters count (a CJK name gives none).
_TRIGRAPH = ((4,), (2, 2), (2, 1, 1), (1, 1, 1, 1))
_LABEL_NAME_VARIABLES = (
    "author", "chair", "collection-editor", "compiler", "composer", "container-author",
    "contributor", "curator", "director", "editor", "editor-translator", "editorial-director",
    "executive-producer", "guest", "host", "illustrator", "interviewer", "narrator", "organizer",
    "original-author", "performer", "producer", "recipient", "reviewed-author", "script-writer",
    "series-creator", "translator", "commenter")
_LEADING_PARTICLES_RE = re.compile("^([ '\u2019a-z]+\\s+)")
_LEADING_ARTICLE_RE = re.compile(r"^(a\s+|the\s+|an\s+)")


def _label_case(text: str) -> str:
    return text[:1].upper() + text[1:].lower()


def _citation_label(item: Mapping[str, Any], reference_term: str) -> str:
    not_romanesque = re.compile(f"[^{ROMANESQUE_CHARS}]")
    label = ""
    name = _label_case(reference_term.replace(".", "", 1))
    names: list[Any] = next((item[v] for v in _LABEL_NAME_VARIABLES if isinstance(item.get(v), list)
                  and item[v]), [])
    widths = _TRIGRAPH[min(len(names), 4) - 1] if names else ()
    for raw, width in zip(names, widths):
        parts = parse_name(raw) if isinstance(raw, dict) else None
        if parts is not None and parts.family:
            name = _LEADING_PARTICLES_RE.sub("", parts.family)
        elif parts is not None and parts.literal:
            name = parts.literal
        article = _LEADING_ARTICLE_RE.match(name.lower())
        if article:
            name = name[len(article.group(1)):]
        name = not_romanesque.sub("", name)
        if not name:
            break
        label += _label_case(name[:width])
    if not label and item.get("title"):
        words = [w for w in str(item["title"]).split() if w not in STOP_WORDS]
        label = _label_case("".join(words)[:4])
    date = parse_date(item.get("issued"))
    year = str(date.start[0]) if date is not None and date.start[0] else "0000"
    return label + year[-2:]


def item_keys(name: str) -> tuple[str, ...]:
    """The item keys ``RenderContext.value`` reads for an item variable (not one of
    ``NOT_ITEM_KEYS``): the variable, its aliases, the page a first page is taken from."""
    return (name, *_ALIASES.get(name, ()), *(("page",) if name == "page-first" else ()))


def _alias_value(item: Mapping[str, Any], name: str, locale: Locale) -> Any:
    for alias in _ALIASES.get(name, ()):
        value = item.get(alias)
        if value not in (None, "", []):
            return value
    if name == "citation-label":
        return _citation_label(item, locale.term("reference", "short") or "reference")
    if name == "page-first":
        page = item.get("page")
        if page:
            match = re.match(r"\s*([^\s\-\u2013,&]+)", str(page))
            return match.group(1) if match else None
    return None
