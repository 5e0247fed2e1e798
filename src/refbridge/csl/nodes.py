"""Compiled CSL rendering elements (all but names): text, number, label, date, group, choose.

Each element is built once from the style XML (by ``refbridge.csl.style``'s compiler) and
renders an item from a :class:`~refbridge.csl.context.RenderContext` into a
:class:`~refbridge.csl.rendered.Rich` tree (or ``None`` when empty).  Nodes never touch
XML at render time and never produce markup strings.
"""

from __future__ import annotations

import copy
import re
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from refbridge.pageranges import format_page_range, several_pages

from . import reach
from .abbreviations import ShortForm, short_form
from .context import COMPUTED_VARIABLES, DATE_VARIABLES, CommaTrack, NestedParens, RenderContext
from .groupcondition import GroupCondition, ends_in_digit
from .marked import (
    BesideDecorated,
    DateKey,
    Delimiter,
    DelimiterSuffix,
    HeldPrefix,
    InnerSuffix,
    KeptLead,
    KeptSpace,
    LeafSuffix,
    LiteralText,
    NestedPrefix,
    NumberText,
    OwnKeptSpace,
    OwnSuffix,
    Sealed,
    SplitLead,
    Suffix,
)
from .multilingual import (
    MULTI_FIELDS,
    SEGMENT_OF,
    Multilingual,
    language_matches,
    supplements_shown,
    text_forms,
)
from .nameparts import parse_name
from .reach import Reach
from .rendered import (
    ROMANESQUE_CHARS,
    Affixed,
    Decorated,
    KeptPeriods,
    LeafRich,
    LocaleQuotes,
    Node,
    Rich,
    apply_text_case,
    holds_rich,
    is_empty,
    map_leaves,
    parse_markup,
    plain,
    rich_text_node,
)
from .values import (
    LABELLED_NUMBER_TERMS,
    LOCATOR_LABEL_ABBREVIATIONS,
    NUMBER_TOKEN_RE,
    DateValue,
    ampersand_joint,
    date_sort_key,
    is_numeric,
    is_numeric_condition,
    is_plural,
    localize_ampersands,
    parse_date,
    roman,
    several_plain_numbers,
    split_embedded_labels,
    split_labelled_numbers,
    stringify,
    without_noise_words,
    written_as_number,
)

FORMAT_ATTRS = ("font-style", "font-variant", "font-weight", "text-decoration", "vertical-align")
NUMBER_VARIABLES = frozenset(
    ["chapter-number", "citation-number", "collection-number", "edition", "first-reference-note-number", "issue", "locator", "number", "number-of-pages", "number-of-volumes", "page", "page-first", "part-number", "printing-number", "section", "supplement-number", "version", "volume"]
)
_STRIP_PERIODS_RE = re.compile(r"\.(?![a-z])")  # as citeproc-js: not before a lowercase letter
#: the variables a cs:text of which, empty, still makes a term after it no leading term (as
#: citeproc-js: "2. n.d." after an empty volume, "2. N.d." after an empty page)
_EMPTY_BEFORE_TERMS = frozenset({"volume", "edition", "issue", "number"})
# citeproc-js renders these through its number path, where formatting stays on any text
_NUMBER_PATH_VARIABLES = frozenset(
    ["first-reference-note-number", "first-container-reference-note-number", "locator", "locator-extra", "page", "page-first", "chapter-number", "collection-number", "edition", "issue", "number", "number-of-pages", "number-of-volumes", "volume"]
)
# the variables whose numeric ranges citeproc-js writes with an en dash (not version,
# part-number, section ...: it keeps their hyphen as typed)
_RANGE_VARIABLES = frozenset(
    ["chapter-number", "collection-number", "edition", "issue", "number", "number-of-pages", "number-of-volumes", "volume"]
)
_ROMANESQUE_RE = re.compile(f"[-0-9{ROMANESQUE_CHARS}]")


def _written_romanesque(node: Node) -> bool:
    """Whether the field text behind *node* (markup tags included) has a Latin-like letter or digit."""
    if isinstance(node, str):
        return _ROMANESQUE_RE.search(node) is not None
    return bool(node.fmt or node.nocase) or any(_written_romanesque(kid) for kid in node.kids)


def _ampersand(ctx: RenderContext) -> str:
    """The locale's "and" symbol between numbers ("&" when the locale has no symbol form)."""
    symbol = ctx.locale.term("and", "symbol")
    return "&" if not symbol or symbol == ctx.locale.term("and") else symbol


def _own_label(variable: str, ctx: RenderContext) -> str:
    """The term citeproc-js reads as the label of the variable's first number."""
    if variable in ("locator", "locator-extra"):
        return ctx.cite.get("label") or "page"
    if variable in ("page", "page-first"):
        return ctx.item.get("label") or "page"
    return variable


def _labelled_number(variable: str, ctx: RenderContext) -> bool:
    """Whether citeproc-js reads a label before the variable's first number (see values)."""
    return _own_label(variable, ctx) in LABELLED_NUMBER_TERMS


_LANGUAGE_RE = re.compile(r"[a-zA-Z]+")


def _case_language(ctx: RenderContext) -> str:
    """The language whose letter case rules text-case follows: the item's, else the locale's."""
    match = _LANGUAGE_RE.match(str(ctx.item.get("language") or ""))
    return match.group() if match else ctx.locale.lang


def _range_delimiter(ctx: RenderContext) -> str:
    """What joins the ends of a range written with a hyphen in a number variable: the locale's
    page-range-delimiter (a non-breaking hyphen in French, a hyphen where a style says so), as
    in citeproc-js; an en dash by default. As citeproc-js, the engine's locale says, also in
    a CSL-M layout for items in another language."""
    return ctx.home_locale.term("page-range-delimiter") or "\u2013"


def _labelled_parts(parts: list[tuple[str, str, str]], ctx: RenderContext) -> str:
    """The labelled parts of a number variable ("7, p. 3-8" -> ", pp. 3–8"): each label as
    the locale's short term (plural for several numbers), its numbers with en-dash ranges."""
    out = []
    for joiner, abbreviation, numbers in parts:
        term = ctx.locale.term(LOCATOR_LABEL_ABBREVIATIONS[abbreviation], ctx.label_form or "short",
                               several_plain_numbers(numbers))
        ranged = NUMBER_TOKEN_RE.sub(lambda m: _range_delimiter(ctx) if m.group().strip() == "-"
                                     else "\u2013" if m.group().strip() == "\u2013" else m.group(), numbers)
        out.append(f"{joiner}{term or abbreviation + '.'} {ranged}")
    return "".join(out)


def _embedded_labels(parts: list[tuple[str, str]], ctx: RenderContext) -> str:
    """As citeproc-js (CSL-M's fixtures): the labels within a number variable and their numbers
    ("10 para. 1-6" -> " paras. 1–6"), each label as the locale's short term (plural for
    several numbers; a term with "%s" holds each number: "[1]–[6]"), one no term abbreviates
    as written; the numbers are written as given, their ranges with en dashes."""
    out = []
    for abbreviation, numbers in parts:
        name = LOCATOR_LABEL_ABBREVIATIONS.get(abbreviation.lower())
        term = ctx.locale.term(name, ctx.label_form or "short", several_plain_numbers(numbers)) if name else None
        ranged = re.sub(r"\s*-\s*", _range_delimiter(ctx), numbers)
        if term and "%s" in term:
            template = term.replace("\\", "\\\\").replace("%s", "\\g<0>")
            out.append(" " + _PLAIN_NUMBERS_RE.sub(template, ranged))
        else:
            out.append(f" {term or abbreviation + '.'} {ranged}")
    return "".join(out)


_PLAIN_NUMBERS_RE = re.compile(r"\d+[a-zA-Z]*")


def _with_labelled_parts(node: Node | None, parts: str) -> Node | None:
    if not parts:
        return node
    if node is None or node == "":
        return parts.lstrip()
    return node + parts if isinstance(node, str) else Rich([node, parts])


def _english(ctx: RenderContext) -> bool:
    language = ctx.item.get("language")
    if language:
        return str(language).lower().startswith("en")
    return ctx.locale.lang.startswith("en")


class Decor:
    """Affixes, formatting, quotes, text-case, strip-periods and display of an element."""

    __slots__ = ("display", "fmt", "prefix", "quotes", "strip_periods", "suffix", "text_case", "unquotes")

    def __init__(self, attrs: dict[str, str], allow_quotes: bool = True) -> None:
        self.prefix = attrs.get("prefix", "")
        self.suffix: str = OwnSuffix(attrs.get("suffix", ""))
        # citeproc-js nests formatting in one order whatever the attributes' order: italics
        # innermost, then small caps, bold, underline, and superscript outermost
        fmt = {name: attrs[name] for name in FORMAT_ATTRS if name in attrs}
        self.fmt = fmt or None
        self.quotes = allow_quotes and attrs.get("quotes") == "true"
        self.unquotes = allow_quotes and attrs.get("quotes") == "false"  # (see _unquoted)
        self.text_case = attrs.get("text-case")
        self.strip_periods = attrs.get("strip-periods") == "true"
        self.display = attrs.get("display")

    def __copy__(self) -> Decor:
        """A copy to change (a compiled class is not copied by ``copy.copy`` on its own)."""
        other = Decor({})
        other.prefix, other.suffix, other.fmt = self.prefix, self.suffix, self.fmt
        other.quotes, other.unquotes, other.text_case = self.quotes, self.unquotes, self.text_case
        other.strip_periods, other.display = self.strip_periods, self.display
        return other

    @property
    def inert(self) -> bool:
        return not (self.prefix or self.suffix or self.fmt or self.quotes or self.text_case
                    or self.strip_periods or self.display or self.unquotes)

    def apply(self, node: Node | None, ctx: RenderContext, string_leaf: bool = False,
              item_text: bool = False, language: str = "") -> Node | None:
        """Decorate a rendering; elements never return empty renderings, only None.

        *string_leaf* marks the decoration of one written string (a term, a label, a value,
        a date part, a name part, a text variable outside the number path): as citeproc-js,
        such a string with no Latin, Greek, Cyrillic... letter or digit (CJK) is not italicized.
        Groups, macros, names, dates and numbers keep their italics whatever their text.
        *item_text* marks a text variable: only there does title case depend on the item's
        language (citeproc-js checks it where it reads the variable; a term, a label or a
        group is title-cased whatever the item's language). *language*: the language of the
        text, when not the item's (CSL-M: another form of a value, see multilingual.py).
        """
        if node is None or node == "":
            return None
        if self.strip_periods:
            node = map_leaves(node, _strip_periods, lambda text: text.replace(".", ""))
            if is_empty(node):
                return None
        if self.text_case and not ctx.sorting and (self.text_case != "title" or not item_text
                                                   or _english(ctx)):
            node = apply_text_case(node, self.text_case, language or _case_language(ctx))
        if self.unquotes:
            _unquoted(node)
        fmt = self.fmt
        if string_leaf and fmt and "font-style" in fmt and not _written_romanesque(node):
            fmt = {k: v for k, v in fmt.items() if k != "font-style"} or None
        suffix: str = self.suffix
        # (as citeproc-js: quotes="false" makes a decorated element too, "Why?." stays)
        sealed = string_leaf and bool(fmt or self.quotes or self.unquotes) and type(node) is str
        if sealed:
            node, suffix = Sealed(node), str(suffix)  # (its own suffix does not merge into it)
        if (fmt or self.quotes) and suffix.endswith(" "):
            suffix = KeptSpace(suffix) if sealed else OwnKeptSpace(suffix)
            ctx.kept_spaces += 1
        if fmt and self.quotes:  # as citeproc-js: quotes go around the formatting («<i>t</i>»)
            node = Rich([Rich([node], fmt)], None, True)
        elif fmt or self.quotes:
            node = Rich([node], fmt, self.quotes)
        if self.quotes and ctx.locale is not ctx.home_locale:
            node = _in_locales_quotes(node, ctx)
        if self.prefix or self.suffix:
            # as citeproc-js: the prefix of a formatted element keeps its punctuation out of
            # a closing quote before it (“title”, <i>Journal</i>), like a text value
            prefix = HeldPrefix(self.prefix) if self.fmt and self.prefix else self.prefix
            if prefix:
                _hold_nested_prefix(node)
            node = Affixed([prefix, node, suffix])
        if sealed:
            node = LeafRich([node])
        elif self.fmt:
            node = Decorated([node])
        if self.display:
            node = Rich([node], display=self.display)
        return node


def _in_locales_quotes(node: Node, ctx: RenderContext) -> Node:
    """CSL-M: quotes of an element written in another locale (a layout's, a ``locale``
    test's) take that locale's marks, as citeproc-js."""
    marks = tuple(ctx.locale.term(name) or "" for name in _QUOTE_TERMS)
    if marks == tuple(ctx.home_locale.term(name) or "" for name in _QUOTE_TERMS) or not all(marks):
        return node
    return LocaleQuotes([node], (marks[0], marks[1], marks[2], marks[3]))


_QUOTE_TERMS = ("open-quote", "close-quote", "open-inner-quote", "close-inner-quote")


def _unquoted(node: Node) -> None:
    """Mark the style's quotes in *node* (outside other quotes) "flat": as citeproc-js, where
    the outermost element with a quotes attribute says "false", quotes in a value inside the
    quotes of an element within take the outer marks too (“Say “this” here”)."""
    if isinstance(node, Rich):
        if node.quotes is True and not node.data:
            node.quotes = "flat"
        elif not node.quotes:
            for kid in node.kids:
                _unquoted(kid)


_URL_PATH_RE = re.compile(r"(.*\.[^/]+)/.*")
_URL_SCHEME_RE = re.compile(r"https?://")


def _short_url(url: str) -> str:
    """A URL's short form, as citeproc-js writes it: without its path, and without its scheme
    when the host starts with www. ("www.accessscience.com")."""
    url = _URL_PATH_RE.sub(r"\1", url, count=1)
    return _URL_SCHEME_RE.sub("", url, count=1) if "//www." in url else url


def _strip_periods(text: str) -> str:
    """*text* without its periods (not before a lowercase letter), a delimiter as it is (as
    citeproc-js, which strips the strings elements write, not a group's delimiter)."""
    return text if isinstance(text, Delimiter) else _STRIP_PERIODS_RE.sub("", text)


def _hold_nested_prefix(node: Node) -> None:
    """Mark the plain prefix *node* starts with (see NestedPrefix), if it starts with one."""
    while isinstance(node, Rich) and node.kids:
        first = node.kids[0]
        if type(first) is str:
            if first:
                node.kids[0] = NestedPrefix(first)
            return
        node = first


def decor_of(attrs: dict[str, str], allow_quotes: bool = True) -> Decor | None:
    decor = Decor(attrs, allow_quotes)
    return None if decor.inert else decor


class Element:
    __slots__ = ("decor",)
    string_leaf = False  # renders one written string (see Decor.apply)
    keeps_periods = False  # renders through citeproc-js's number path (see KeptPeriods)
    keeps_place = False  # holds its place in a layout when it renders nothing (see render_layout)
    leads_terms = True  # a term after its rendering is no leading term (see TextTerm.content)
    item_text = False  # renders a text variable of the item (see Decor.apply)
    reach: Reach = reach.WRITER  # what it does for an item without its variables (see reach)

    def __init__(self, decor: Decor | None) -> None:
        self.decor = decor

    def render(self, ctx: RenderContext) -> Node | None:
        node = self.content(ctx)
        if self.keeps_periods and node is not None and "." in plain(node):
            node = KeptPeriods([node])
        if self.decor is None or node is None:
            return node
        return self.decor.apply(node, ctx, self.string_leaf, self.item_text)

    def content(self, ctx: RenderContext) -> Node | None:
        raise NotImplementedError


def _rendered(children: Sequence[Element], ctx: RenderContext, out: list[Node],
              last: list[Any] | None = None) -> None:
    """Render *children* into *out*; a cs:choose contributes its branch's elements one by one,
    so that an enclosing group puts its delimiter between them. *last*, when given, is set to
    the last element that holds its place and its rendering (see render_layout)."""
    for child in children:
        if type(child) is Choose:
            if child.gate is not None and _skipped(child.gate, ctx):
                continue
            branch = child.branch(ctx)
            if branch and child.locales and id(branch) in child.locales:
                _in_locale(child.locales[id(branch)], branch, ctx, out, last)
            elif branch:
                _rendered(branch, ctx, out, last)
            continue
        if ctx.commas is not None and ctx.commas.condition is not None and isinstance(child, Group) \
                and child.decor is not None:
            ctx.commas.condition.saw_term(child.decor.prefix)
        node = child.render(ctx)
        if ctx.commas is not None:
            _track_commas(child, node, ctx.commas, ctx)
        if ctx.author_only and node and ctx.first_written is None and not isinstance(child, (Group, TextMacro)):
            # an author-only cite without names is its date, if that comes first (citeproc-js)
            ctx.first_written = node if type(child) is DateNode else ""
        if node:  # (None and "" are nothing; a Rich node is always true)
            if type(child) in _LEAVES:
                _mark_suffix(node, OwnSuffix, LeafSuffix)
            out.append(node)
            if child.leads_terms:
                ctx.rendered_any = True
            ctx.last_child, ctx.last_child_node = child, node
            if last is not None:
                last[:] = [child, node]
        elif last is not None and (child.keeps_place or (child.decor is not None and child.decor.display)):
            last[:] = [child, None]


def _track_commas(child: Element, node: Node | None, track: CommaTrack, ctx: RenderContext) -> None:
    """What an element just written tells CSL-M's group conditions, as citeproc-js: outside
    them, whether the rendering now ends in a number; within one, the first term, label or
    prefix (see groupcondition.py)."""
    kind = type(child)
    decor = child.decor
    condition = track.condition
    if condition is None:
        if decor is not None and decor.suffix and (node or isinstance(child, (Group, TextMacro))):
            track.just_did_number = False  # (a group's or macro call's even when empty)
        elif not node:
            return
        elif decor is not None and decor.fmt and "vertical-align" in decor.fmt:
            track.just_did_number = False
        elif kind is TextVariable or kind is NumberNode:
            value = _tracked_value(child, ctx)
            if value:
                track.just_did_number = ends_in_digit(value)
            if kind is NumberNode and decor is not None and decor.prefix:
                track.just_did_number = ends_in_digit(decor.prefix)
        elif kind in (TextTerm, TextValue, Label):
            track.just_did_number = ends_in_digit(_bare_text(node, decor))
        elif kind is DateNode:
            track.just_did_number = ends_in_digit(plain(node))
        return
    if kind is TextTerm or kind is Label:
        if node:
            condition.saw_term(_bare_text(node, decor))
    elif kind is TextValue:
        condition.saw_term(plain(child.value) if isinstance(child, TextValue) and child.value else "", True)
    elif kind is NumberNode or kind is TextVariable:
        if kind is NumberNode:
            condition.saw_term(decor.prefix if decor is not None else "")
        value = _tracked_value(child, ctx)
        if condition.test == "comma-safe-numbers-only" and value and not condition.value_seen:
            condition.value_seen = True
            if not value[:1].isdigit():
                track.just_did_number = False


def _tracked_value(element: Element, ctx: RenderContext) -> str:
    variable = element.variable if isinstance(element, (TextVariable, NumberNode)) else ""
    value = ctx.cite.get(variable) if variable in ("locator", "locator-extra") else ctx.item.get(variable)
    return "" if value is None else str(value)


def _bare_text(node: Node, decor: Decor | None) -> str:
    """The text an element wrote, without its affixes."""
    text = plain(node)
    if decor is not None:
        if decor.prefix and text.startswith(decor.prefix):
            text = text[len(decor.prefix):]
        if decor.suffix and text.endswith(decor.suffix):
            text = text[:-len(decor.suffix)]
    return text


def render_children(children: Sequence[Element], ctx: RenderContext, delimiter: str) -> Node | None:
    nodes: list[Node] = []
    _rendered(children, ctx, nodes)
    return _joined_children(nodes, delimiter)


def render_layout(children: Sequence[Element], ctx: RenderContext) -> tuple[Node | None, Element | None, Node | None]:
    """``render_children`` without a delimiter for a bibliography layout whose first element
    has a display attribute, and the element citeproc-js then writes the layout's suffix on:
    the last that rendered or that holds its place though it rendered nothing (a macro call,
    a cs:names, an element with a display attribute), with its rendering (None: nothing)."""
    nodes: list[Node] = []
    last: list[Any] = [None, None]
    _rendered(children, ctx, nodes, last)
    return _joined_children(nodes, ""), last[0], last[1]


def without_own_suffix(node: Node) -> None:
    """Drop the suffix an element's rendering *node* ends with (see Affixed)."""
    while isinstance(node, (LeafRich, Decorated)) and len(node.kids) == 1:
        node = node.kids[0]
    if isinstance(node, Affixed) and len(node.kids) == 3:
        node.kids[2] = ""


def _decorated(node: Node) -> bool:
    """Whether *node* renders a formatted element (see Decorated; a sealed one holds only
    its own formatting)."""
    return type(node) is Decorated or (type(node) is LeafRich and holds_rich(node, _is_formatted))


def _is_formatted(node: Rich) -> bool:
    return bool(node.fmt)


def _joined_children(nodes: list[Node], delimiter: str) -> Node | None:
    """The rendered children of a group, macro or layout as one node, *delimiter* between
    them (a prefix after a group or macro, and a delimiter, merge as suffixes: see Suffix)."""
    if not nodes:
        return None
    if len(nodes) == 1:
        return nodes[0]
    for before, node in pairwise(nodes):
        if isinstance(node, Rich) and node.kids and type(node.kids[0]) is str and node.kids[0]:
            if not delimiter and _decorated(before):
                node.kids[0] = BesideDecorated(node.kids[0])
            elif type(before) is not LeafRich:
                # the prefix after a group or macro merges as that group's suffix (see Suffix)
                node.kids[0] = Suffix(node.kids[0])
    if not delimiter:
        return Rich(nodes)
    out: list[Node] = [nodes[0]]
    for node in nodes[1:]:
        out.append(Delimiter(delimiter) if type(out[-1]) is LeafRich else DelimiterSuffix(delimiter))  # (see Suffix)
        out.append(node)
    return Rich(out)


@dataclass
class StyleOptions:
    page_range_format: str | None = None
    require_comma_on_symbol: str = ""  # CSL-M (see groupcondition.py)
    demote_non_dropping_particle: str = "display-and-sort"
    initialize_with_hyphen: bool = True
    links: bool = False
    #: the citation's givenname-disambiguation-rule ends in "-with-initials": a given name
    #: shown for disambiguation is initials, even without initialize-with (as citeproc-js)
    disambiguation_initials: bool = False


_NUMBER_RANGE_RE = re.compile(r"(\d|(?<![A-Za-z])[ivxlcdmIVXLCDM]+)\s*-\s*(\d|[ivxlcdmIVXLCDM]+(?![A-Za-z]))")
# a range whose ends start with different letters ("v2-3"): citeproc-js keeps its hyphen
_UNLIKE_PARTICLES_RE = re.compile(r"^\s*([A-Za-z]*)\d+\s*-\s*(?!\1\d)[A-Za-z]*\d+\s*$")
_DOI_RESOLVER_RE = re.compile(r"https?://(?:dx\.)?doi\.org/$")
_WEB_URL_RE = re.compile(r"https?://", re.IGNORECASE)
_DOI_URL_RE = re.compile(r"^https?://doi\.org/")


class TextVariable(Element):
    __slots__ = ("item_text", "keeps_periods", "leads_terms", "linked_decor", "noise_words", "options", "reach",
                 "resolver", "short", "string_leaf", "variable")

    def __init__(self, decor: Decor | None, variable: str, form: str, options: StyleOptions,
                 in_macro: bool = False, noise_words: str = "") -> None:
        super().__init__(decor)
        self.variable = variable
        #: CSL-M's leading-noise-words of a title: "drop" or "demote" them (see without_noise_words)
        self.noise_words = noise_words if variable == "title" else ""
        self.string_leaf = self.item_text = variable not in _NUMBER_PATH_VARIABLES
        self.keeps_periods = not self.string_leaf
        # (as citeproc-js: a term after the citation number still starts with a capital)
        self.leads_terms = variable != "citation-number"
        self.short = form == "short"
        self.reach = reach.variable(variable, *((variable + "-short",) if self.short else ()))
        self.options = options
        # a DOI printed after a resolver prefix links as a whole: the prefix moves into the link
        match = _DOI_RESOLVER_RE.search(decor.prefix) if decor and variable == "DOI" else None
        self.resolver = match.group() if match else ""
        if variable == "citation-number" and not in_macro and decor is not None \
                and decor.suffix.endswith(" "):
            # as citeproc-js, which writes citation numbers apart: the space their suffix ends
            # with stays before a prefix starting with one ("1.  Title"; see KeptSpace), but
            # not when a macro writes the number ("1. Title")
            decor.suffix = OwnKeptSpace(decor.suffix)
        self.linked_decor: Decor | None = None
        if match and decor is not None:
            self.linked_decor = copy.copy(decor)
            self.linked_decor.prefix = decor.prefix[: match.start()]

    def render(self, ctx: RenderContext) -> Node | None:
        if ctx.languages is not None and self.variable in MULTI_FIELDS and "multi" in ctx.item:
            return self._render_forms(ctx, ctx.languages)
        if not (self.resolver and self.options.links):
            return super().render(ctx)
        node = self.content(ctx)
        if isinstance(node, Rich) and node.link:
            # as citeproc-js: a DOI given as a resolver's URL is written after the prefix's
            # resolver without its own; one given as another URL, without the resolver
            doi = _DOI_URL_RE.sub("", plain(node), count=1)
            if _WEB_URL_RE.match(doi):
                node = Rich([doi], link=doi)
            else:
                doi = urllib.parse.unquote(doi) if doi != plain(node) else doi
                node = Rich([self.resolver, doi], link=self.resolver + doi)
            return self.linked_decor.apply(node, ctx, self.string_leaf, True) if self.linked_decor else node
        return self.decor.apply(node, ctx, self.string_leaf, True) if self.decor else node

    def _render_forms(self, ctx: RenderContext, ml: Multilingual) -> Node | None:
        """CSL-M: the forms of a multilingual variable the caller chose (see multilingual.py),
        as citeproc-js: the first with the element's formatting and affixes, the others
        after it between their own affixes, upright, unquoted and not bold."""
        supplements = supplements_shown(ml, ctx.mode, ctx.position == "first", self.variable)
        forms = text_forms(ctx.item, self.variable, ml, short=self.short, sorting=ctx.sorting,
                           supplements=supplements and self.variable not in ctx.suppressed)
        primary, form = forms[0]
        node = self.content(ctx, primary.text if primary.variant else None)
        if node is None:
            return None
        decor = _form_decor(self.decor, primary.language)
        segment = SEGMENT_OF.get(self.variable, "")
        if form == "translit" and self.variable == "title" and not primary.used_orig \
                and ml.prefs.affix(segment, form)[0] == "<i>":
            decor = copy.copy(decor) if decor is not None else Decor({})
            decor.fmt = {**(decor.fmt or {}), "font-style": "italic"}
        if len(forms) > 1 and decor is not None:
            decor = copy.copy(decor)
            decor.suffix = OwnSuffix(decor.suffix.rstrip(" .,"))
        shown = [decor.apply(node, ctx, self.string_leaf, language=primary.language) if decor is not None else node]
        for other, other_form in forms[1:]:
            prefix, suffix = ml.prefs.affix(segment, other_form)
            added = _form_decor(self.decor, other.language, (prefix or " ", suffix))
            written = added.apply(parse_markup(other.text), ctx, self.string_leaf, language=other.language) \
                if added else None
            if written is not None:
                shown.append(Rich([written], {"font-style": "normal", "font-weight": "normal"}))
        return shown[0] if len(shown) == 1 else Rich([kid for kid in shown if kid is not None])

    def content(self, ctx: RenderContext, form: str | None = None) -> Node | None:
        """The variable's text (*form*: the text of another form of it, see _render_forms)."""
        name = self.variable
        if name == "year-suffix":
            # year-suffix never makes a group vanish (it is empty until disambiguation needs
            # it); as citeproc-js, one rendered keeps its group, as a variable found does
            ctx.year_suffix_done = True
            suffix = ctx.year_suffix()
            if not suffix:
                return None
            ctx.vars_found += 1
            return suffix
        ctx.vars_called += 1
        value: Any = None
        source = name
        listed: ShortForm | None = None
        if self.short and ctx.abbreviations and form is None:
            # as citeproc-js: the lists' short form of the value comes before the item's own
            value = ctx.value(name)
            if value not in (None, "") and not isinstance(value, (list, dict)):
                listed = short_form(ctx.abbreviations, name, stringify(value),
                                    stringify(ctx.item.get("jurisdiction") or ""))
            value = None
        # a variable substituted once is not rendered again in its short form either (the
        # short form is the same variable in citeproc-js's record of rendered variables)
        if form is not None:
            value = None if name in ctx.suppressed else form
        elif self.short and name not in ctx.suppressed and listed is None:
            value = ctx.value(name + "-short")
            source = name + "-short"
        if value in (None, "") and form is None:
            value = ctx.value(name)
            source = name
        if value in (None, "", []) or isinstance(value, (list, dict)):
            if name in _EMPTY_BEFORE_TERMS:
                ctx.rendered_any = True
            return None
        ctx.vars_found += 1
        if ctx.in_substitute:  # a variable substituted once is not rendered again
            ctx.suppressed.add(name)
        text = stringify(value)
        if self.short and ctx.abbreviations and listed is None and form is None:
            listed = short_form(ctx.abbreviations, name, text, stringify(ctx.item.get("jurisdiction") or ""))
        if listed is not None:
            text = listed.text
            ctx.suppressed.update(listed.quashed)
        if self.noise_words:
            text = without_noise_words(text, ctx.locale.options.get("leading-noise-words", ""), self.noise_words)
        if name == "citation-label" and ctx.year_suffix() and not ctx.explicit_year_suffix \
                and not ctx.year_suffix_done:
            ctx.year_suffix_done = True
            return text + ctx.disamb.year_suffix
        labelled = ""
        if name in _NUMBER_PATH_VARIABLES and "." in text:
            text, parts = split_labelled_numbers(text, _own_label(name, ctx))
            labelled = _labelled_parts(parts, ctx)
        if "&" in text and name in _NUMBER_PATH_VARIABLES:
            text = localize_ampersands(text, _ampersand(ctx), _labelled_number(name, ctx))
        if name == "locator":
            # as citeproc-js: a cite's locator is written once; a second cs:text of it (and
            # the label beside it) renders nothing
            ctx.suppressed.add("locator")
            text = text.strip()
            if (ctx.cite.get("label") or "page") != "page":
                text = _NUMBER_RANGE_RE.sub(lambda m: m[1] + _range_delimiter(ctx) + m[2], text)
        elif name in _RANGE_VARIABLES and "-" in text and is_numeric(text) \
                and not _UNLIKE_PARTICLES_RE.match(text):
            text = _NUMBER_RANGE_RE.sub(lambda m: m[1] + _range_delimiter(ctx) + m[2], text)
        if name == "page" or (name == "locator" and (ctx.cite.get("label") or "page") == "page"):
            text = format_page_range(text, self.options.page_range_format, _range_delimiter(ctx))
        shown = _short_url(text) if name == "URL" and self.short else text
        if name in ("URL", "DOI") and self.options.links:
            # (a DOI given as a URL, "https://doi.org/10.1/x", links to itself, as citeproc-js)
            url = text if name == "URL" or _WEB_URL_RE.match(text) else "https://doi.org/" + text
            return Rich([shown], link=url) if _safe_url(url) else shown
        if name in ("URL", "DOI", "ISBN", "ISSN", "PMID", "PMCID"):
            return shown
        if name in _NUMBER_PATH_VARIABLES and written_as_number(text):
            return text + labelled if labelled or not text[-1:].isdigit() else placeholder_label(name, text, ctx)
        rich = ctx.rich.get(source)
        node = rich_text_node(rich, self.options.links) if rich is not None and rich.plain == text \
            else parse_markup(text)
        if labelled:
            return _with_labelled_parts(node, labelled)
        return None if isinstance(node, Rich) and is_empty(node) else node


def _form_decor(decor: Decor | None, language: str, affixes: tuple[str, str] | None = None) -> Decor | None:
    """The element's decoration for one form of a multilingual value: title case only for
    an English form (as citeproc-js, whatever the item's language); *affixes* for a form added
    after the first, which is written without quotes, italics or bold."""
    if decor is None:
        return Decor({"prefix": affixes[0], "suffix": affixes[1]}) if affixes else None
    changed = copy.copy(decor)
    if decor.text_case == "title" and language != "en":
        changed.text_case = None
    if affixes is not None:
        changed.prefix, changed.suffix = affixes[0], OwnSuffix(affixes[1])
        changed.quotes = changed.unquotes = False
        changed.display = None
        fmt = {k: v for k, v in (decor.fmt or {}).items()
               if (k, v) not in (("font-style", "italic"), ("font-style", "oblique"), ("font-weight", "bold"))}
        changed.fmt = fmt or None
    return changed


def _safe_url(url: str) -> bool:
    from .formats import SAFE_LINK_RE

    return bool(SAFE_LINK_RE.match(url))


class TextTerm(Element):
    __slots__ = ("form", "home", "plural", "term")
    string_leaf = True

    def __init__(self, decor: Decor | None, term: str, form: str, plural: bool, home: bool = False) -> None:
        """*home*: CSL-M's default-locale="true", the term in the style's locale whatever
        the item's language."""
        super().__init__(decor)
        self.term = term
        self.form = form
        self.plural = plural
        self.home = home

    def content(self, ctx: RenderContext) -> Node | None:
        text = (ctx.home_locale if self.home else ctx.locale).term(self.term, self.form, self.plural)
        if not text:
            return None
        if self.decor is not None and self.decor.strip_periods:
            text = text.replace(".", "")  # as citeproc-js: every period of a term ("nd")
        node = parse_markup(text)
        if ctx.capitalize_leading_term and not ctx.rendered_any:
            # as citeproc-js: a term that is the first text written in a bibliography entry
            # or a note citation starts with a capital ("N.d.", "Ibid."); affixes do not count
            return apply_text_case(node, "capitalize-first")
        return node


class TextValue(Element):
    __slots__ = ("value",)
    string_leaf = True

    def __init__(self, decor: Decor | None, value: str) -> None:
        super().__init__(decor)
        parsed = parse_markup(value) if value else None
        self.value: Node | None = LiteralText(parsed) if isinstance(parsed, str) else parsed

    def content(self, ctx: RenderContext) -> Node | None:
        return self.value


class Macro:
    """A macro compiled for one section (citation, bibliography or sort). *holds_date*: its
    own elements include a cs:date (not counting the macros it calls); see sort_key_of."""

    __slots__ = ("children", "gate", "holds_date", "name", "reach")

    def __init__(self, name: str, holds_date: bool = False) -> None:
        self.name = name
        self.holds_date = holds_date
        self.children: list[Element] = []
        self.reach = reach.UNKNOWN  # (until compiled: a macro that calls itself is not known)
        self.gate: Reach | None = None

    def compiled(self, children: list[Element]) -> None:
        self.children = children
        self.reach = _content_reach(children)
        self.gate = self.reach.gate


def _content_reach(children: Sequence[Element]) -> Reach:
    """The reach of a group's or a macro's content as an element (see reach.group)."""
    return reach.group(reach.sequence(child.reach for child in children))


def _skipped(gate: Reach, ctx: RenderContext) -> bool:
    """Whether the group, macro call or choice of *gate* (see reach) renders nothing for
    the item, found without rendering it: the item has none of the gate's keys. The first
    cs:names of a rendering is noted even when empty, so one holding a cs:names is rendered
    until then. In a note style's citation every group and date is rendered: their
    parentheses count even when they render nothing (see NestedParens)."""
    if not gate.keys.isdisjoint(ctx.item) or ctx.braces is not None:
        return False
    if gate.names and not (ctx.names_seen or ctx.sorting or ctx.in_substitute):
        return False
    if gate.resets:
        ctx.vars_called = ctx.group_vars_called  # (see Reach.resets)
    if gate.calls:
        ctx.vars_called += 1  # (what rendering it would have left)
    return True


class TextMacro(Element):
    __slots__ = ("macro", "reach")
    keeps_place = True

    def __init__(self, decor: Decor | None, macro: Macro) -> None:
        super().__init__(decor)
        self.macro = macro
        self.reach = macro.reach

    def render(self, ctx: RenderContext) -> Node | None:
        # a macro call is suppressed like a group when all the variables it calls are empty
        macro = self.macro
        if ctx.sorting and macro.holds_date:
            # still a date key for the macro that calls this one (a date with affixes, as
            # "[1900?]", gave a plain text its caller's key dropped: sorted as undated)
            key = _date_keys(_group_rendering(macro.gate, macro.children, "", None, ctx))
            node = DateKey(key) if key else None
            return self.decor.apply(node, ctx) if self.decor and node is not None else node
        return _group_rendering(macro.gate, macro.children, "", self.decor, ctx)


def sort_key_of(macro: Macro, ctx: RenderContext) -> str:
    """What a macro gives a sort key. As citeproc-js: the macro is rendered as a macro call,
    suppressed like a group when all the variables it calls are empty (a term it holds then
    gives no key); in a macro that holds a cs:date, only the dates are written when sorting
    (its names, titles and terms are not)."""
    node = _group_rendering(macro.gate, macro.children, "", None, ctx)
    return _date_keys(node) if macro.holds_date else plain(node)


def _date_keys(node: Node | None) -> str:
    """The dates rendered for sorting in *node* (see DateKey), nothing else."""
    if node is None or type(node) is DateKey:
        return node or ""
    if isinstance(node, str):
        return ""
    return "".join(_date_keys(kid) for kid in node.kids)


def format_number(value: int, form: str, ctx: RenderContext, gender: str) -> str:
    if form == "ordinal":
        return f"{value}{ctx.locale.ordinal_suffix(value, gender)}"
    if form == "long-ordinal":
        return ctx.locale.long_ordinal(value, gender) or f"{value}{ctx.locale.ordinal_suffix(value, gender)}"
    if form == "roman":
        return roman(value)
    return str(value)


#: The text cases that give each long ordinal of a range its capital, as citeproc-js.
_EACH_NUMBER_CAPITALIZED: frozenset[str] = frozenset({"capitalize-first", "capitalize-all", "title"})


class NumberNode(Element):
    __slots__ = ("form", "options", "reach", "substring", "variable")
    keeps_periods = True

    def __init__(self, decor: Decor | None, variable: str, form: str, options: StyleOptions,
                 substring: int | None = None) -> None:
        super().__init__(decor)
        self.variable = variable
        self.reach = reach.variable(variable)
        self.form = form
        self.options = options
        #: CSL-M's substring: the value from that character on (from the end when negative)
        self.substring = substring

    def content(self, ctx: RenderContext) -> Node | None:
        ctx.vars_called += 1
        value = ctx.value(self.variable)
        if value in (None, ""):
            return None
        ctx.vars_found += 1
        if ctx.in_substitute or self.variable == "locator":
            # a variable substituted once is not rendered again; as citeproc-js, nor is a
            # cite's locator (see TextVariable.content)
            ctx.suppressed.add(self.variable)
        text = stringify(value)
        if self.substring is not None:
            return text[self.substring:] or None  # (as citeproc-js: as written, not as a number)
        if "." in text and not ctx.sorting:
            leading, first, embedded = split_embedded_labels(text)
            if leading or embedded:
                return _with_labelled_parts(self._written(first, ctx), _embedded_labels(embedded, ctx))
        if "." in text and not ctx.sorting:
            text, parts = split_labelled_numbers(text, _own_label(self.variable, ctx))
            if parts:
                return _with_labelled_parts(self._written(text, ctx), _labelled_parts(parts, ctx))
        if self.variable == "page" and self.options.page_range_format and self.form == "numeric" \
                and is_numeric(text) and not ctx.sorting:
            # as citeproc-js: a page range in cs:number is written in the page-range-format too
            text = format_page_range(text, self.options.page_range_format, _range_delimiter(ctx))
        written = self._written(text, ctx)
        return placeholder_label(self.variable, written, ctx) if type(written) is str and is_numeric(text) else written

    def _written(self, text: str, ctx: RenderContext) -> Node:
        if not is_numeric(text):
            if "&" in text:
                text = localize_ampersands(text, _ampersand(ctx), _labelled_number(self.variable, ctx))
            return text if written_as_number(text) else parse_markup(text)
        if ctx.sorting:
            return " ".join(f"{int(t):08d}" if t.isdigit() else t for t in re.findall(r"\d+|[^\d\s]+", text))
        gender = ctx.locale.gender(self.variable if self.variable != "locator" else ctx.cite.get("label", "page"))
        out = []
        before = ""  # the number before a joiner
        for token in NUMBER_TOKEN_RE.split(text):
            if not token:
                continue
            if NUMBER_TOKEN_RE.fullmatch(token):
                stripped = token.strip()
                if stripped == "-":  # a hyphen is the locale's range delimiter, as in citeproc-js
                    out.append(_range_delimiter(ctx))
                elif stripped == "\u2013":
                    out.append("\u2013")
                elif stripped == ",":
                    out.append(", ")
                elif stripped == "&":
                    out.append(ampersand_joint(before, len(out) == 1, _labelled_number(self.variable, ctx),
                                               _ampersand(ctx)))
                else:
                    out.append(" " + (ctx.locale.term("and") or "and") + " ")
            elif token.isdigit():
                before = token
                # citeproc-js takes a number written with a leading zero ("08", "0") as text
                number = token if token.startswith("0") else format_number(int(token), self.form, ctx, gender)
                if self.form == "long-ordinal" and self.decor is not None \
                        and self.decor.text_case in _EACH_NUMBER_CAPITALIZED:
                    # as citeproc-js: each number of a range is cased apart ("Third–Fourth")
                    number = number[:1].upper() + number[1:]
                out.append(number)
            else:
                before = token
                out.append(token)
        written = "".join(out)
        # an ordinal term may hold markup ("<sup>e</sup>"), which citeproc-js renders
        return parse_markup(written) if "<" in written and "ordinal" in self.form else written


class Label(Element):
    __slots__ = ("form", "plural", "reach", "variable")
    string_leaf = True

    def __init__(self, decor: Decor | None, variable: str, form: str, plural: str) -> None:
        super().__init__(decor)
        self.variable = variable
        # (the citation number's label notes that the rendering read the citation number)
        self.reach = reach.UNKNOWN if variable == "citation-number" else reach.WRITER
        self.form = form
        self.plural = plural

    def content(self, ctx: RenderContext) -> Node | None:
        variable = self.variable
        value = ctx.value(variable) if variable in ("locator", "citation-number") else ctx.item.get(variable)
        if variable == "locator":
            term = (ctx.cite.get("label") or "page").replace(" ", "-")
        else:
            # (as citeproc-js: a variable's label is the term of its name, "number-of-pages" too)
            term = variable
        if value in (None, ""):
            if variable == "citation-number" or not variable:
                return None
            # as citeproc-js, not the specification: the label of a missing variable (a cite's
            # missing locator too, as "page" in a bibliography) is written (singular, unless
            # plural="always") like a term, and like a term it keeps no group from vanishing
            text = ctx.locale.term(term, self._form(ctx), self.plural == "always")
            return parse_markup(text) if text else None
        if isinstance(value, str) and "." in value:
            # as citeproc-js (CSL-M's fixtures): a label the number starts with is its label ("p. 10" in
            # number is "page 10"); the numbers before any label within it say its plural
            leading, value, _ = split_embedded_labels(value)
            if not (leading == "issue" and variable == "number" and ctx.locale.term("number")):
                term = leading or term  # (as citeproc-js: "no. 10" in number is a number, not an issue)
        if self.plural == "always":
            plural = True
        elif self.plural == "never":
            plural = False
        elif variable in ("number-of-pages", "number-of-volumes"):
            # as citeproc-js: several numbers, or a first number (digits, then letters: not
            # "76 listova") above one
            number = re.fullmatch(r"(\d+)[a-zA-Z]*", re.split(r"\s*[,;&\u2013-]\s*|\s+and\s+", stringify(value).strip(), 1)[0])
            plural = (number is not None and int(number.group(1)) > 1) \
                or is_plural(value, ctx.locale.term("and") or "and")
        elif variable == "page":
            plural = several_pages(stringify(value))
        else:
            plural = is_plural(value, ctx.locale.term("and") or "and")
        text = ctx.locale.term(term, self._form(ctx), plural)
        if text and "%s" in text:
            # CSL-M, as citeproc-js: a label term with a placeholder ("第%s卷") writes nothing
            # here; the variable's number is written inside it (see placeholder_label)
            if ctx.placeholder_labels is None:
                ctx.placeholder_labels = {}
            ctx.placeholder_labels[variable] = text
            return None
        return parse_markup(text) if text else None

    def _form(self, ctx: RenderContext) -> str:
        """Its form, or (CSL-M) the label-form of the group or macro call it is in, unless
        its own is "static" (as citeproc-js)."""
        return self.form if ctx.label_form is None or self.form == "static" else ctx.label_form


def placeholder_label(name: str, number: str, ctx: RenderContext) -> Node:
    """A number inside its variable's label term where a cs:label met one with a "%s" between
    other text (CSL-M, as citeproc-js: "第%s卷" writes volume 1 "第1卷"); else the number."""
    term = ctx.placeholder_labels.get(name) if ctx.placeholder_labels else None
    if term is None:
        return NumberText(number)
    at = term.index("%s")
    if not 0 < at < len(term) - 2:
        return NumberText(number)
    return Rich([term[:at], NumberText(number), term[at + 2:]])


#: The elements that write text of their own, whose suffix is a LeafSuffix.
_LEAVES: frozenset[type[Element]] = frozenset({TextVariable, TextTerm, TextValue, NumberNode, Label})


class Group(Element):
    __slots__ = ("children", "delimiter", "gate", "reach")

    def __init__(self, decor: Decor | None, children: list[Element], delimiter: str) -> None:
        super().__init__(decor)
        self.children = children
        self.delimiter = delimiter
        self.reach = _content_reach(children)
        self.gate = self.reach.gate

    def render(self, ctx: RenderContext) -> Node | None:
        return _group_rendering(self.gate, self.children, self.delimiter, self.decor, ctx)


class LabelFormGroup(Group):
    """A CSL-M cs:group with ``label-form``: the cs:label elements take that form, as
    citeproc-js sets it: unless one is set already, from there to the end of the group or
    macro call it is in (its siblings after it too; see ``_group_rendering``)."""

    __slots__ = ("label_form",)

    def __init__(self, decor: Decor | None, children: list[Element], delimiter: str, label_form: str) -> None:
        super().__init__(decor, children, delimiter)
        self.label_form = label_form

    def render(self, ctx: RenderContext) -> Node | None:
        ctx.label_form = ctx.label_form or self.label_form
        return super().render(ctx)


class LabelFormMacro(TextMacro):
    """A CSL-M macro call with ``label-form`` (see LabelFormGroup)."""

    __slots__ = ("label_form",)

    def __init__(self, decor: Decor | None, macro: Macro, label_form: str) -> None:
        super().__init__(decor, macro)
        self.label_form = label_form

    def render(self, ctx: RenderContext) -> Node | None:
        ctx.label_form = ctx.label_form or self.label_form
        return super().render(ctx)


class LabelFormNumber(NumberNode):
    """A CSL-M cs:number with ``label-form``: the labels within its number take that form
    (unless a group or macro call around it set one)."""

    __slots__ = ("label_form",)

    def __init__(self, decor: Decor | None, variable: str, form: str, options: StyleOptions,
                 substring: int | None, label_form: str) -> None:
        super().__init__(decor, variable, form, options, substring)
        self.label_form = label_form

    def render(self, ctx: RenderContext) -> Node | None:
        outer = ctx.label_form
        ctx.label_form = outer or self.label_form
        try:
            return super().render(ctx)
        finally:
            ctx.label_form = outer


class ConditionalGroup(Group):
    """A CSL-M cs:group with ``require`` or ``reject`` (see groupcondition.py): left out,
    as a group whose variables are all empty, where its test says so. Within another such
    group it takes that group's test, as in citeproc-js."""

    __slots__ = ("comma_on_symbol", "negated", "test")

    def __init__(self, decor: Decor | None, children: list[Element], delimiter: str,
                 attrs: dict[str, str], comma_on_symbol: str) -> None:
        super().__init__(decor, children, delimiter)
        self.negated = "reject" in attrs
        self.test = attrs["reject"] if self.negated else attrs["require"]
        self.comma_on_symbol = comma_on_symbol

    def render(self, ctx: RenderContext) -> Node | None:
        track = ctx.commas
        if track is None:
            return super().render(ctx)
        outer = track.condition
        condition = outer if outer is not None else GroupCondition(self.test, self.negated)
        track.condition = condition
        called, found, done = ctx.vars_called, ctx.vars_found, set(ctx.suppressed)
        try:
            node = super().render(ctx)
        finally:
            track.condition = outer
        if condition.suppresses(track.just_did_number, self.comma_on_symbol):
            # what it left out was never written: a variable it wrote once (the locator)
            # may be written after it
            ctx.vars_found, ctx.suppressed = found, done
            ctx.vars_called = max(ctx.vars_called, called + 1)
            return None
        return node


class ParallelGroup(Group):
    """A CSL-M cs:group with parallel-citation attributes (see ``parallel.py``): it writes
    nothing for a cite whose tracked variables repeat, and may set the delimiter before the
    cite. *nested*: it is inside another group or a macro, which citeproc-js passes the
    delimiter override on to (and checks again, without the tracked variables)."""

    __slots__ = ("first", "last", "last_to_first", "nested", "no_repeat", "override", "override_on_suppress")

    def __init__(self, decor: Decor | None, children: list[Element], delimiter: str,
                 attrs: dict[str, str], nested: bool) -> None:
        super().__init__(decor, children, delimiter)
        self.first = frozenset(attrs.get("parallel-first", "").split())
        self.last = frozenset(attrs.get("parallel-last", "").split())
        self.no_repeat = frozenset(attrs.get("no-repeat", "").split())
        self.override = attrs.get("parallel-delimiter-override")
        self.override_on_suppress = attrs.get("parallel-delimiter-override-on-suppress")
        self.last_to_first = frozenset(attrs.get("parallel-last-to-first", "").split())
        self.nested = nested

    def render(self, ctx: RenderContext) -> Node | None:
        cite = ctx.parallel
        first, last = self.first, self.last
        if cite is not None and cite.last_to_first and last & cite.last_to_first:
            first, last = first | (last & cite.last_to_first), last - cite.last_to_first
        if cite is not None and self.last_to_first and ctx.mode == "citation":
            cite.last_to_first.update(self.last_to_first)
        node = super().render(ctx)
        if cite is None:
            return node
        if self.override is not None:
            cite.override = self.override
        before = cite.before
        if node is not None:
            tracking = bool(first or last or self.no_repeat)
            repeated = cite.repeats(first, last, self.no_repeat)
            if before is not None and (repeated or not tracking):
                if repeated and self.override_on_suppress is not None and (before.sibling or before.orphan):
                    cite.delimiter = self.override_on_suppress
                elif self.override is not None and before.sibling:
                    cite.delimiter = self.override
            if repeated:
                node = None
        if self.nested and self.override is not None and before is not None and before.sibling:
            cite.delimiter = self.override  # the enclosing group's check
        return node


def _group_rendering(gate: Reach | None, children: Sequence[Element], delimiter: str,
                     decor: Decor | None, ctx: RenderContext) -> Node | None:
    """A cs:group's or a macro call's rendering (see ``_suppressible``)."""
    if gate is not None and _skipped(gate, ctx):
        return None
    label_form = ctx.label_form  # (a label-form set within ends with it: see LabelFormGroup)
    if ctx.braces is not None and decor is not None:
        decor = _braced(decor, ctx.braces)
        node = _suppressible(children, ctx, delimiter)
        decor.suffix = OwnSuffix(ctx.braces.update(decor.suffix))
    else:
        node = _suppressible(children, ctx, delimiter)
    ctx.label_form = label_form
    if node is None:
        return None
    if delimiter and type(ctx.last_child) in (TextVariable, NumberNode):
        _split_number_list(ctx.last_child, ctx.last_child_node, delimiter)
    node = _led_by(node, decor)
    if decor is not None and (decor.fmt or decor.quotes):
        _trailing_space(node, True, ctx)
        if not decor.prefix.endswith(" "):
            _keep_leading_space(node)
    elif ctx.kept_spaces:
        _trailing_space(node, False, ctx)
    if decor is None or not decor.suffix:
        _mark_suffix(node, LeafSuffix, InnerSuffix)
    return node if decor is None else decor.apply(node, ctx)


_NUMBER_LIST_RE = re.compile(r"^\s*[A-Za-z]*\d+[a-z]*\s*-\s*[A-Za-z]*\d+[a-z]*\s*[,;]")
_LIST_HYPHEN_RE = re.compile(r"(?<=\w)\s*-\s*(?=\w)")


def _split_number_list(element: object, node: Node | None, delimiter: str) -> None:
    """As citeproc-js: a list of numbers that starts with a range ("94-98,93"), written with a
    prefix of its own (not a lone mark), no suffix and no formatting by a number variable
    that ends a group, has the group's delimiter, less a leading mark, after each hyphen
    ("S. 94- 98,93" in a group delimited by ", ")."""
    decor = element.decor if isinstance(element, (TextVariable, NumberNode)) else None
    if decor is None or decor.suffix or decor.fmt or decor.quotes or not decor.prefix.strip() \
            or decor.prefix in (",", ";", ":", "."):
        return
    if isinstance(element, TextVariable) and element.variable not in _NUMBER_PATH_VARIABLES:
        return
    if not (isinstance(node, Rich) and len(node.kids) == 3 and isinstance(node.kids[1], str)):
        return
    text = node.kids[1]
    if "&" not in text and _NUMBER_LIST_RE.match(text):  # (the text keeps its mark: NumberText)
        node.kids[1] = type(text)(_LIST_HYPHEN_RE.sub("-" + delimiter.lstrip(",;:."), text))


def _mark_suffix(node: Node, kind: type[str], mark: type[str]) -> None:
    """Mark the suffix of type *kind* that ends *node*, if one does, as a *mark*."""
    while isinstance(node, Rich) and node.kids:
        last = node.kids[-1]
        if isinstance(last, str):
            if type(last) is kind and last:
                node.kids[-1] = mark(last)
            return
        node = last


def _keep_leading_space(node: Node) -> None:
    """A space that starts what a formatted group holds stays there in citeproc-js: it is
    kept (see KeptLead), unless the group's own prefix ends in a space."""
    while isinstance(node, Rich) and node.kids and not (node.fmt or node.quotes):
        first = node.kids[0]
        if isinstance(first, str):
            if (type(first) is str or type(first) is HeldPrefix) and first.startswith(" "):
                node.kids[0] = KeptLead(first)
            return
        node = first


#: the type of a trailing space by (kept, an element's own suffix)
_SPACE_TYPES: dict[tuple[bool, bool], type[str]] = {
    (True, True): OwnKeptSpace, (True, False): KeptSpace, (False, True): OwnSuffix, (False, False): str}


def _trailing_space(node: Node, kept: bool, ctx: RenderContext) -> None:
    """As citeproc-js moves the trailing space of a group's last element up into the group
    when the group is not formatted: a space a formatted element's suffix kept (see
    KeptSpace) merges as any other once it ends an unformatted group, and a space that ends
    what a formatted group holds is kept (*kept*) as that group's own. (``ctx.kept_spaces``
    counts the kept spaces, so that renderings without any skip the search.)"""
    while isinstance(node, Rich) and node.kids and not (node.fmt or node.quotes):
        kids = node.kids
        index = len(kids) - 1
        while index > 0 and kids[index] == "":
            index -= 1
        last = kids[index]
        if type(last) is not Sealed and isinstance(last, str):
            if not last.endswith(" ") or kept == isinstance(last, KeptSpace):
                return
            kids[index] = _SPACE_TYPES[kept, isinstance(last, OwnSuffix)](last)
            ctx.kept_spaces += 1 if kept else -1
            return
        node = last


def _braced(decor: Decor, braces: NestedParens) -> Decor:
    """*decor* for one rendering, its prefix opening parentheses as citeproc-js does (its
    suffix is closed once what it holds is rendered)."""
    decor = copy.copy(decor)
    decor.prefix = braces.update(decor.prefix)
    return decor


def _led_by(node: Node, decor: Decor | None) -> Node:
    """An unformatted group or macro takes the prefix of the formatted element it starts with
    as its own (see HeldPrefix); a group or macro of one formatted element is not that element
    (see LeafRich, Decorated)."""
    if type(node) in (LeafRich, Decorated):
        node = Rich([node])
    if decor is not None and decor.fmt:
        return node
    found = _leading_text(node)
    if found is not None:
        lead, first = found
        if isinstance(first, HeldPrefix):
            lead.kids[0] = str(first)
        elif decor is None or not decor.prefix:
            _split_lead(lead, first)
    return node


def _leading_text(node: Node) -> tuple[Rich, str] | None:
    """The text *node* starts with, outside any formatting, and the node it is the first of."""
    lead = node
    while isinstance(lead, Rich) and lead.kids and not (lead.fmt or lead.quotes or lead.display or lead.link):
        first = lead.kids[0]
        if isinstance(first, str):
            return lead, first
        lead = first
    return None


def _split_lead(lead: Rich, first: str) -> None:
    """Mark *first*, the first kid of *lead*, when it is a prefix starting with two spaces
    (see SplitLead)."""
    if type(lead) is Affixed and type(first) is str and first[:2] == "  ":
        lead.kids[0] = SplitLead(first)


def split_lead(node: Node) -> None:
    """Mark the prefix a layout's rendering starts with when the layout has none of its own
    (see SplitLead)."""
    found = _leading_text(node)
    if found is not None:
        _split_lead(*found)


def _suppressible(children: Sequence[Element], ctx: RenderContext, delimiter: str) -> Node | None:
    """Group semantics (cs:group and macro calls): nothing when every variable called is
    empty; output without variables (terms only) counts as content for enclosing groups."""
    called, found, rendered_any = ctx.vars_called, ctx.vars_found, ctx.rendered_any
    outer, ctx.group_vars_called = ctx.group_vars_called, called
    nodes: list[Node] = []
    _rendered(children, ctx, nodes)
    ctx.group_vars_called = outer
    if ctx.vars_called > called and ctx.vars_found == found:
        ctx.rendered_any = rendered_any  # what a suppressed group wrote was never written
        return None
    if not nodes:
        if ctx.vars_called == called:
            # as citeproc-js: a group or macro that renders nothing and calls no variable
            # leaves its enclosing group as if that had called none so far (its terms show)
            ctx.vars_called = outer
        return None
    if ctx.vars_called == called:
        ctx.vars_called += 1
        ctx.vars_found += 1
    return _joined_children(nodes, delimiter)


Condition = Callable[[RenderContext], bool]


class Choose(Element):
    """cs:choose. Its first *typed* branches test the item's type alone: which of them an
    item takes is found once per type (for the first ``_TYPES_KEPT`` types met)."""

    __slots__ = ("branches", "by_type", "gate", "locales", "reach", "typed")

    def __init__(self, branches: list[tuple[Condition | None, list[Element]]], typed: int = 0,
                 tests: Sequence[reach.Test | None] = (), locales: dict[int, str] | None = None) -> None:
        """*tests*: what each branch's condition reads (None for cs:else; see reach);
        *locales*: CSL-M, by branch index, the locale a branch with a ``locale`` test is
        written in (that test's first tag, as citeproc-js)."""
        super().__init__(None)
        self.branches = branches
        #: (by the identity of a branch's elements)
        self.locales = {id(branches[index][1]): tag for index, tag in (locales or {}).items()}
        self.typed = typed
        self.by_type: dict[str, int] = {}  # type -> index of the typed branch taken (typed: none)
        self.reach = reach.choice([reach.sequence(child.reach for child in children) for _, children in branches],
                                  tests) if tests else reach.UNKNOWN
        self.gate = self.reach.gate

    def branch(self, ctx: RenderContext) -> list[Element] | None:
        branches = self.branches
        start = 0
        if self.typed:
            item_type = ctx.item.get("type")
            taken = self.by_type.get(item_type) if type(item_type) is str else None
            if taken is None:
                taken = self.typed
                for index in range(self.typed):
                    test = branches[index][0]
                    if test is not None and test(ctx):
                        taken = index
                        break
                if type(item_type) is str and len(self.by_type) < _TYPES_KEPT:
                    self.by_type[item_type] = taken
            if taken < self.typed:
                return branches[taken][1]
            start = self.typed
        for test, children in branches[start:] if start else branches:
            if test is None or test(ctx):
                return children
        return None

    def content(self, ctx: RenderContext) -> Node | None:
        children = self.branch(ctx)
        if not children:
            return None
        if self.locales and id(children) in self.locales:
            nodes: list[Node] = []
            _in_locale(self.locales[id(children)], children, ctx, nodes, None)
            return _joined_children(nodes, "")
        return render_children(children, ctx, "")


def _in_locale(tag: str, children: Sequence[Element], ctx: RenderContext, out: list[Node],
               last: list[Any] | None) -> None:
    """Render a branch of a CSL-M ``locale`` test in the locale it names (its terms)."""
    saved = ctx.locale
    if ctx.languages is not None:
        ctx.locale = ctx.languages.locale_of(tag)
    try:
        _rendered(children, ctx, out, last)
    finally:
        ctx.locale = saved


# --- conditions -------------------------------------------------------------------------


def _has_variable(ctx: RenderContext, name: str) -> bool:
    """variable="..." tests: substitution does not hide a variable from conditions."""
    if name not in DATE_VARIABLES and ctx.item.get(name):  # the common case, at once
        return True
    if name in DATE_VARIABLES:
        if name in ctx.suppressed:
            return parse_date(ctx.item.get(name)) is not None
        return ctx.date(name) is not None
    if name == "citation-label":  # as citeproc-js: the item's own label, not one it makes
        return False
    suppressed, ctx.suppressed = ctx.suppressed, _NOTHING_SUPPRESSED
    try:
        value = ctx.value(name)
    finally:
        ctx.suppressed = suppressed
    return value is not None and value != "" and value != [] and value != {}


def _uncertain(ctx: RenderContext, name: str) -> bool:
    date = ctx.date(name)
    return bool(date and date.circa)


def _numeric(ctx: RenderContext, name: str) -> bool:
    return is_numeric_condition(ctx.value(name), name)


_NOTHING_SUPPRESSED: set[str] = set()


def _disambiguate_test(ctx: RenderContext) -> bool:
    """disambiguate="true" tests are switched on one at a time, in rendering order, as far as
    the item's disambiguation needed (as citeproc-js)."""
    ctx.disambiguate_tests += 1
    ctx.read_changing_state = True
    return ctx.disambiguate_tests <= ctx.disamb.disambiguate


def _ambiguous_and_cited_again(ctx: RenderContext) -> bool:
    """CSL-M disambiguate="check-ambiguity-and-backreference": the item needed its
    disambiguate="true" conditions and more than one citation cites it (as citeproc-js)."""
    ctx.read_changing_state = True
    return ctx.disamb.disambiguate > 0 and ctx.citations > 1


_POSITION_MATCHES = {
    "first": ("first",),
    "subsequent": ("subsequent", "ibid", "ibid-with-locator"),
    "container-subsequent": ("container-subsequent", "subsequent", "ibid", "ibid-with-locator"),  # (CSL-M)
    "ibid": ("ibid", "ibid-with-locator"),
    "ibid-with-locator": ("ibid-with-locator",),
}


def _position(ctx: RenderContext, value: str) -> bool:
    if ctx.mode != "citation":
        return False
    if value == "near-note":
        return ctx.near_note and ctx.position != "first"
    return ctx.position in _POSITION_MATCHES.get(value, ())


def _locator(ctx: RenderContext, value: str) -> bool:
    if ctx.cite.get("locator") in (None, ""):
        return False
    label = (ctx.cite.get("label") or "page").replace(" ", "-")
    return label == value


def _plural_names(ctx: RenderContext, name: str) -> bool:
    """CSL-M's is-plural: whether a name variable holds several names (as citeproc-js); with
    affiliations, a person and their institution are one ("Roe, Big Ministry")."""
    value = ctx.value(name)
    if not isinstance(value, list) or len(value) < 2:
        return False
    if not ctx.affiliations:
        return True
    literal = [bool(parse_name(raw).literal) for raw in value if isinstance(raw, dict)]
    institutions = literal.count(True)
    return len(literal) - institutions > 1 or institutions > 1 or (institutions == 1 and not literal[-1])


_TESTS: dict[str, Callable[[RenderContext, str], bool]] = {
    "type": lambda ctx, value: ctx.item.get("type") == value,
    "variable": _has_variable,
    "is-numeric": _numeric,
    "is-plural": _plural_names,
    "is-uncertain-date": _uncertain,
    "position": _position,
    "locator": _locator,
    "disambiguate": lambda ctx, value: _ambiguous_and_cited_again(ctx) if value == "check-ambiguity-and-backreference"
    else _disambiguate_test(ctx) == (value == "true"),
    # CSL-M: whether the rendering is a citation's or the bibliography's
    "context": lambda ctx, value: ctx.mode == value,
    # CSL-M (see consolidation.py): the entry's container has several entries, it is not the first
    "container-multiple": lambda ctx, value: (ctx.container[0] > 1) == (value == "true"),
    "container-subsequent": lambda ctx, value: (ctx.container[1] > 1) == (value == "true"),
    "locale": lambda ctx, value: False,  # (compiled apart: see _language_among)
}


def _language_among(tags: tuple[str, ...]) -> Condition:
    """CSL-M's locale="...": the item's language (the style's without one) is one of *tags*."""
    return lambda ctx: language_matches(str(ctx.item.get("language") or ctx.home_locale.lang), tags)


def _single_test(test: Callable[[RenderContext, str], bool], value: str) -> Condition:
    if test is _has_variable and value not in DATE_VARIABLES:
        if value in COMPUTED_VARIABLES:
            return lambda ctx: bool(ctx.item.get(value)) or _has_variable(ctx, value)
        return _item_variable_test(value)
    return lambda ctx: test(ctx, value)


def _item_variable_test(name: str) -> Condition:
    """variable="..." for a variable that is the item's own: what ``_has_variable`` finds,
    read at once."""

    def test(ctx: RenderContext) -> bool:
        value = ctx.item.get(name)
        return bool(value) or (value is not None and value != "" and value != [] and value != {})

    return test


def _any_item_variable(names: tuple[str, ...]) -> Condition:
    """Whether the item has one of *names*, each tested as ``_item_variable_test`` does."""

    def test(ctx: RenderContext) -> bool:
        get = ctx.item.get
        for name in names:
            value = get(name)
            if value or (value is not None and value != "" and value != [] and value != {}):
                return True
        return False

    return test


def _type_among(types: frozenset[str]) -> Condition:
    """Whether the item's type is one of ``types`` (one test for ``match="any"``/``"none"``)."""
    return lambda ctx: ctx.item.get("type") in types


_TYPES_KEPT = 100


def tests_type_only(attrs: dict[str, str]) -> bool:
    """Whether a cs:if / cs:else-if tests the item's type and nothing else."""
    return "type" in attrs and all(name in ("type", "match") for name in attrs)


def compile_condition(attrs: dict[str, str]) -> Condition:
    """A predicate for cs:if / cs:else-if (match all, any or none of the tests)."""
    checks: list[Condition] = []
    match = attrs.get("match", "all")
    for attr, test in _TESTS.items():
        if attr not in attrs:
            continue
        values = [attrs[attr]] if attr == "disambiguate" else attrs[attr].split()
        if attr == "locale":  # (CSL-M: the item's language is one of them)
            checks.append(_language_among(tuple(values)))
        elif attr == "type":
            # as citeproc-js: the types of one attribute are alternatives whatever the match
            # ("book report" under match="all" is a book or a report), one test among the others
            checks.append(_type_among(frozenset(values)))
        elif attr == "variable" and match in ("any", "none"):
            # the item's own variables in one test (for any or none, it is true when one is)
            own = tuple(v for v in values if v not in DATE_VARIABLES and v not in COMPUTED_VARIABLES)
            if len(own) > 1:
                checks.append(_any_item_variable(own))
            checks.extend(_single_test(test, value) for value in values if len(own) < 2 or value not in own)
        else:
            checks.extend(_single_test(test, value) for value in values)
    if len(checks) == 1:
        only = checks[0]
        return (lambda ctx: not only(ctx)) if match in ("none", "nand") else only
    return combined_condition(checks, match)


def combined_condition(conditions: list[Condition], match: str) -> Condition:
    """Tests matched all, any, none or (CSL-M) not all ("nand"): a condition's, or the
    cs:condition elements of a CSL-M cs:conditions."""
    tests = tuple(conditions)
    if match == "any":
        return lambda ctx: _any(tests, ctx)
    if match == "none":
        return lambda ctx: not _any(tests, ctx)
    if match == "nand":
        return lambda ctx: not _all(tests, ctx)
    return lambda ctx: _all(tests, ctx)


def _any(tests: tuple[Condition, ...], ctx: RenderContext) -> bool:
    for test in tests:  # (a loop: cheaper than any() over a generator)
        if test(ctx):
            return True
    return False


def _all(tests: tuple[Condition, ...], ctx: RenderContext) -> bool:
    for test in tests:
        if not test(ctx):
            return False
    return True


# --- dates --------------------------------------------------------------------------------


class DatePart:
    __slots__ = ("attrs", "decor", "form", "name", "range_delimiter")

    def __init__(self, attrs: dict[str, str]) -> None:
        self.attrs = attrs
        self.name = attrs.get("name", "")
        self.form = attrs.get("form", "long" if self.name == "month" else "numeric" if self.name == "day" else "long")
        self.decor = decor_of(attrs, allow_quotes=False)
        self.range_delimiter = attrs.get("range-delimiter") or "\u2013"  # (as citeproc-js: "" is the default)

    def text(self, value: tuple[int, int, int], ctx: RenderContext, season: str | None) -> str | None:
        year, month, day = value
        locale = ctx.locale
        if self.name == "year":
            if not year:
                return None
            if year < 0:
                return str(-year)
            return str(year)[-2:] if self.form == "short" else str(year)
        if self.name == "month":
            if month > 12:
                if self.form in ("numeric", "numeric-leading-zeros") and not (season and season.isdigit()):
                    return None  # as citeproc-js: a season given as a month has no number
                return locale.term(f"season-{month - 12:02d}") or None
            if not month:
                # as citeproc-js: a season that is no season number is written as given
                return season or None
            if self.form == "numeric":
                return str(month)
            if self.form == "numeric-leading-zeros":
                return f"{month:02d}"
            return locale.term(f"month-{month:02d}", "short" if self.form == "short" else "long")
        if self.name == "day":
            if not day or not month or month > 12:
                return None
            if self.form == "numeric-leading-zeros":
                return f"{day:02d}"
            if self.form == "ordinal" and (day == 1 or not locale.limit_day_ordinals):
                return f"{day}{locale.ordinal_suffix(day, locale.gender(f'month-{month:02d}'))}"
            return str(day)
        return None


    def era(self, year: int, ctx: RenderContext) -> str:
        """The era a year part's number is followed by (BC, or AD before 500, as citeproc-js),
        written after the part's affixes and formatting."""
        if self.name != "year" or not year or year >= 500:
            return ""
        return (ctx.locale.term("bc") or "BC") if year < 0 else (ctx.locale.term("ad") or "AD")


_UNIT_ORDER = {"year": 0, "month": 1, "day": 2}


class RangeEnds:
    """As citeproc-js, whose engine keeps one queue for the ends of date ranges: the first
    range an engine renders has its end wrapped in the affixes and formatting of the cs:date
    the engine built last ("2010–accessed: 2011"), every later one in that formatting only.
    One per processor (an engine); renderings for sorting and disambiguating do not count,
    as citeproc-js renders no range end for them."""

    __slots__ = ("first", "later")

    def __init__(self, attrs: dict[str, str]) -> None:
        self.first: Decor | None = decor_of(attrs)
        self.later: Decor | None = decor_of({k: v for k, v in attrs.items() if k in FORMAT_ATTRS})

    def wrap(self, end: Node, ctx: RenderContext) -> Node:
        decor = self.first or self.later
        self.first = None
        return (decor.apply(end, ctx) or end) if decor is not None else end


class DateNode(Element):
    __slots__ = ("_localized", "delimiter", "form", "home", "overrides", "parts", "reach", "shown", "variable")

    def __init__(self, decor: Decor | None, attrs: dict[str, str], parts: list[dict[str, str]]) -> None:
        super().__init__(decor)
        self.variable = attrs.get("variable", "")
        #: CSL-M's default-locale="true": written in the style's locale whatever the item's language
        self.home = attrs.get("default-locale") == "true"
        self.reach = reach.variable(self.variable)
        self.form = attrs.get("form")
        self.shown = set(attrs.get("date-parts", "year-month-day").split("-"))
        self.delimiter = attrs.get("delimiter", "")
        self.overrides = {p.get("name", ""): p for p in parts}
        self.parts = [DatePart(p) for p in parts] if not self.form else []
        self._localized: dict[int, tuple[list[DatePart], str, Decor | None]] = {}

    def _format(self, ctx: RenderContext) -> tuple[list[DatePart], str, Decor | None]:
        if not self.form:
            return self.parts, self.delimiter, None
        key = id(ctx.locale)
        if key not in self._localized:
            attrs, parts = ctx.locale.date_formats.get(self.form, ({}, []))
            compiled = []
            for part in parts:
                name = part.get("name", "")
                if name not in self.shown:
                    continue
                merged = dict(part)
                for attr, value in self.overrides.get(name, {}).items():
                    if attr not in ("prefix", "suffix"):
                        merged[attr] = value
                compiled.append(DatePart(merged))
            outer = {k: v for k, v in attrs.items() if k in ("prefix", "suffix") or k in FORMAT_ATTRS or k == "text-case"}
            self._localized[key] = (compiled, attrs.get("delimiter", ""), decor_of(outer))
        return self._localized[key]

    def content(self, ctx: RenderContext) -> Node | None:
        ctx.vars_called += 1
        if ctx.disambiguating and self.variable == "accessed":
            return None  # access dates never tell cites apart (as citeproc-js)
        value = ctx.date(self.variable)
        if value is None:
            return None
        if ctx.sorting:
            ctx.vars_found += 1
            return DateKey(date_sort_key(value, self._shown_parts(ctx)))
        if value.literal:
            if "year" not in self._shown_parts(ctx):
                return None  # as citeproc-js: a literal date stands where the year would
            ctx.vars_found += 1
            return self._literal(value.literal, ctx)
        parts, delimiter, outer = self._format(ctx)
        node = self._render_value(value, parts, delimiter, ctx)
        if node is None:
            return None
        if not self._season_word_only(value, parts):
            ctx.vars_found += 1
        if ctx.in_substitute:  # a variable substituted once is not rendered again
            ctx.suppressed.add(self.variable)
        return outer.apply(node, ctx) if outer else node

    def _literal(self, literal: str, ctx: RenderContext) -> Node | None:
        """A literal date: citeproc-js writes it in place of the year, with the year part's
        affixes and formatting."""
        node: Node | None = parse_markup(literal)
        parts, _, outer = self._format(ctx)
        year = next((part for part in parts if part.name == "year"), None)
        if year is not None and year.decor is not None:
            node = year.decor.apply(node, ctx, string_leaf=True)
        return outer.apply(node, ctx) if outer else node

    @staticmethod
    def _season_word_only(value: DateValue, parts: list[DatePart]) -> bool:
        """Whether the date shows nothing but a season written in words: citeproc-js renders
        it, yet does not count the date as a variable rendered (a group of it alone is empty),
        as it does a season given as a number."""
        if not value.season or value.season.isdigit() or value.start[1]:
            return False
        return not (value.start[0] and any(part.name == "year" for part in parts))

    def render(self, ctx: RenderContext) -> Node | None:
        if self.home and ctx.locale is not ctx.home_locale:
            saved, ctx.locale = ctx.locale, ctx.home_locale
            try:
                return self._render(ctx)
            finally:
                ctx.locale = saved
        return self._render(ctx)

    def _render(self, ctx: RenderContext) -> Node | None:
        if ctx.braces is None or self.decor is None:
            return super().render(ctx)
        node = self.content(ctx)
        if node is None:
            return None
        decor = _braced(self.decor, ctx.braces)
        decor.suffix = OwnSuffix(ctx.braces.update(decor.suffix))
        return decor.apply(node, ctx, self.string_leaf, self.item_text)

    def _shown_parts(self, ctx: RenderContext) -> frozenset[str]:
        if self.form:
            return frozenset(self.shown)
        return frozenset(part.name for part in self.parts)

    def _part(self, part: DatePart, date: tuple[int, int, int], ctx: RenderContext, season: str | None,
              strip: str = "", era: bool = True) -> Node | None:
        text = part.text(date, ctx, season)
        if text is None:
            return None
        node: Node = text
        if "<" in text and part.form == "ordinal":  # markup in the ordinal term, as above
            node = parse_markup(text)
        decor = part.decor
        era_text = part.era(date[0], ctx) if era else ""
        if part.name == "year" and ctx.year_suffix() and not ctx.explicit_year_suffix and not ctx.year_suffix_done:
            ctx.year_suffix_done = True
            if decor is not None and not strip:
                # as citeproc-js: the year suffix follows the year (and its era) with the year
                # part's own affixes and formatting ("(2011)(a)")
                return Rich([decor.apply(node, ctx, string_leaf=True) or "", era_text,
                             decor.apply(ctx.disamb.year_suffix, ctx, string_leaf=True) or ""])
            node, era_text = Rich([text, era_text, ctx.disamb.year_suffix]), ""
        return Rich([self._decorated(node, decor, ctx, strip) or "", era_text]) if era_text else \
            self._decorated(node, decor, ctx, strip)

    @staticmethod
    def _decorated(node: Node, decor: Decor | None, ctx: RenderContext, strip: str) -> Node | None:
        if decor is None:
            return node
        if strip:
            saved = decor.prefix, decor.suffix
            if strip == "suffix":
                decor.suffix = Suffix()
            else:
                decor.prefix = ""
            try:
                return decor.apply(node, ctx, string_leaf=True)
            finally:
                decor.prefix, decor.suffix = saved
        return decor.apply(node, ctx, string_leaf=True)

    def _render_value(self, value: DateValue, parts: list[DatePart], delimiter: str, ctx: RenderContext) -> Node | None:
        start, end, season = value.start, value.end, value.season
        if end == (0, 0, 0):
            out = [n for n in (self._part(p, start, ctx, season) for p in parts) if n is not None]
            single = _join(out, delimiter)
            year_part = next((p for p in parts if p.name == "year"), None)
            return Rich([single, year_part.range_delimiter if year_part else "\u2013"]) if single else None
        if end is None or not end[0]:
            out = [n for n in (self._part(p, start, ctx, season) for p in parts) if n is not None]
            return _join(out, delimiter)
        differing = next((i for i in range(3) if start[i] != end[i]), None)
        if differing is None:
            out = [n for n in (self._part(p, start, ctx, season) for p in parts) if n is not None]
            return _join(out, delimiter)
        ranged = [p for p in parts if _UNIT_ORDER.get(p.name, 0) >= differing]
        if not ranged:
            out = [n for n in (self._part(p, start, ctx, season) for p in parts) if n is not None]
            return _join(out, delimiter)
        range_delimiter = next((p.range_delimiter for p in parts if _UNIT_ORDER.get(p.name) == differing), "\u2013")
        first_idx = parts.index(ranged[0])
        last_idx = parts.index(ranged[-1])
        joined: list[Node] = []
        for i, part in enumerate(parts):
            if i < first_idx or i > last_idx:
                node = self._part(part, start, ctx, season)
                if node is not None:
                    joined.append(node)
            elif i == first_idx:
                shown1 = [p for p in ranged if p.text(start, ctx, season) is not None]
                shown2 = [p for p in ranged if p.text(end, ctx, season) is not None]
                # an era both ends share is written once, at the end
                same_era = all(p.era(start[0], ctx) == p.era(end[0], ctx) for p in ranged)
                # as citeproc-js: a year suffix follows the range's end ("1999–2001a")
                suffix_done, ctx.year_suffix_done = ctx.year_suffix_done, \
                    ctx.year_suffix_done or any(p.name == "year" for p in shown2)
                block1 = [self._part(p, start, ctx, season, "suffix" if j == len(shown1) - 1 else "",
                                     era=not same_era) for j, p in enumerate(shown1)]
                ctx.year_suffix_done = suffix_done
                block2 = [self._part(p, end, ctx, season, "prefix" if j == 0 else "") for j, p in enumerate(shown2)]
                left = _join([n for n in block1 if n is not None], delimiter)
                right = _join([n for n in block2 if n is not None], delimiter)
                if right is not None and ctx.range_ends is not None and not ctx.disambiguating:
                    right = ctx.range_ends.wrap(right, ctx)
                if left is not None or right is not None:  # (years apart, shown without years: nothing)
                    joined.append(Rich([left or "", range_delimiter, right or ""]))
        return _join(joined, delimiter)


def _join(nodes: list[Node], delimiter: str) -> Node | None:
    """Rendered siblings as one node, *delimiter* between them."""
    if not nodes:
        return None
    if len(nodes) == 1:
        return nodes[0]
    if not delimiter:
        return Rich(nodes)
    out: list[Node] = [nodes[0]]
    for node in nodes[1:]:
        out.append(delimiter)
        out.append(node)
    return Rich(out)

