"""CSL style loading and compilation: XML is read once into a tree of node objects.

:class:`CslStyle` parses a style (independent or dependent), resolves the inheritable
name options of ``cs:style``/``cs:citation``/``cs:bibliography``, and compiles each
section's layout, macros (once per section) and sort keys into the elements of
:mod:`refbridge.csl.nodes` and :mod:`refbridge.csl.names`.  Nothing here renders items;
rendering never goes back to the XML.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ParseError
from . import reach
from .consolidation import containers_of
from .groupcondition import GROUP_TESTS
from .institutions import InstitutionSpec
from .localization import NS, LocaleLayer, parse_locale_element
from .multilingual import LanguageTags, language_matches, split_default_locale
from .names import LabelSpec, NamesNode, NameSpec, NamesSpec
from .nodes import (
    FORMAT_ATTRS,
    Choose,
    Condition,
    ConditionalGroup,
    DateNode,
    Decor,
    Element,
    Group,
    Label,
    LabelFormGroup,
    LabelFormMacro,
    LabelFormNumber,
    Macro,
    NumberNode,
    ParallelGroup,
    StyleOptions,
    TextMacro,
    TextTerm,
    TextValue,
    TextVariable,
    combined_condition,
    compile_condition,
    decor_of,
    tests_type_only,
)
from .parallel import PARALLEL_ATTRIBUTES, TRACKING_ATTRIBUTES

#: the attributes of a cs:if that test something (CSL-M's cs:conditions stand for them)
_TEST_ATTRS = frozenset(("type", "variable", "is-numeric", "is-uncertain-date", "position", "locator",
                         "disambiguate", "container-multiple", "container-subsequent", "context"))
INHERITABLE_NAME_ATTRS = (
    "and", "delimiter-precedes-et-al", "delimiter-precedes-last", "et-al-min", "et-al-use-first",
    "et-al-use-last", "et-al-subsequent-min", "et-al-subsequent-use-first", "initialize",
    "initialize-with", "name-as-sort-order", "sort-separator", "name-form", "name-delimiter",
    "names-delimiter",
)


#: Formatting a name part may reset to its plain value.
_RESETS = {"font-style": "normal", "font-variant": "normal", "font-weight": "normal",
           "text-decoration": "none"}


def _without_resets(part: dict[str, str], outer: dict[str, str]) -> dict[str, str]:
    """A cs:name-part's (or cs:name's, or cs:et-al's) attributes without the resets
    (``font-variant="normal"``) of formatting its own cs:names or cs:name sets: citeproc-js
    applies those after the parts and names, so the reset shows nothing (a reset of an
    enclosing group's formatting stays)."""
    return {name: value for name, value in part.items()
            if not (_RESETS.get(name) == value and outer.get(name, value) != value)}


def _tag(element: ET.Element) -> str:
    return element.tag.replace(NS, "")


@dataclass(frozen=True)
class StyleInfo:
    id: str
    title: str
    parent_link: str | None
    is_dependent: bool
    class_: str
    default_locale: str | None
    #: CSL-M: the locale sorting collates in, when not the style's (citeproc-js)
    default_locale_sort: str | None = None
    #: CSL-M: the tags of the forms of values the style shows (``-x-translit-...`` in its
    #: ``default-locale``, which ``default_locale`` is without)
    language_tags: LanguageTags = field(default_factory=LanguageTags)


@dataclass
class SortKey:
    variable: str | None
    macro: Macro | None
    descending: bool
    names_min: int | None
    names_use_first: int | None
    names_use_last: bool | None


@dataclass
class Section:
    """A compiled cs:citation or cs:bibliography."""

    layout: list[Element]
    layout_decor: Decor | None
    delimiter: str
    options: dict[str, str]
    sort: list[SortKey] = field(default_factory=list)
    #: CSL-M: the layouts for items in other languages, tried in order before this one's
    locale_layouts: list[LocaleLayout] = field(default_factory=list)


@dataclass(frozen=True)
class LocaleLayout:
    """A CSL-M ``cs:layout locale="..."``: the layout of the items in those languages, as a
    section of its own (the default layout's prefix and formatting, its own delimiter and
    suffix), rendered in the first language's locale (citeproc-js)."""

    locales: tuple[str, ...]
    section: Section

    def matches(self, language: str) -> bool:
        """As citeproc-js's ``@locale-internal`` test (see multilingual.language_matches)."""
        return language_matches(language, self.locales)


class _Compiler:
    """Compiles one section; macros are compiled lazily, once per section."""

    def __init__(self, macros: dict[str, ET.Element], inherited: dict[str, str], options: StyleOptions,
                 adopted: dict[int, dict[str, dict[str, str]]], source: str | None = None) -> None:
        self.source = source  # the style's file, for messages
        self.macros_xml = macros
        self.inherited = inherited
        self.options = options
        self.macros: dict[str, Macro] = {}
        self.macro_depth = 0  # how many macros the element being compiled is in
        self.group_depth = 0  # how many groups it is in (within the macro)
        self.calling: list[str] = []  # the macros being compiled, outermost first
        #: the cs:name-parts of the cs:names whose substitute is being compiled (see _adopted_parts)
        self.substituting_parts: dict[str, dict[str, str]] | None = None
        #: by cs:names element, the cs:name-parts it took (shared by the style's compilers)
        self.adopted = adopted

    def macro(self, name: str) -> Macro:
        if name in self.calling:  # rendering it would call it again, without end
            cycle = " -> ".join([*self.calling[self.calling.index(name):], name])
            raise ParseError(f"CSL macro {name!r} calls itself ({cycle})", self.source)
        if name not in self.macros:
            if name not in self.macros_xml:
                raise ParseError(f"CSL style calls undefined macro {name!r}", self.source)
            holds_date = any(_tag(node) == "date" for node in self.macros_xml[name].iter()
                             if isinstance(node.tag, str))
            macro = Macro(name, holds_date)
            self.macros[name] = macro
            self.macro_depth += 1
            self.calling.append(name)
            try:
                macro.compiled(self.children(self.macros_xml[name]))
            finally:
                self.macro_depth -= 1
                self.calling.pop()
        return self.macros[name]

    def children(self, element: ET.Element, parent_names: NamesSpec | None = None) -> list[Element]:
        out = []
        for child in element:
            if not isinstance(child.tag, str):
                continue
            compiled = self.element(child, parent_names)
            if compiled is not None:
                out.append(compiled)
        return out

    def element(self, element: ET.Element, parent_names: NamesSpec | None = None) -> Element | None:
        tag = _tag(element)
        attrs = dict(element.attrib)
        if tag == "text":
            decor = decor_of(attrs)
            if "variable" in attrs:
                return TextVariable(decor, attrs["variable"], attrs.get("form", "long"), self.options,
                                    in_macro=self.macro_depth > 0, noise_words=attrs.get("leading-noise-words", ""))
            if "macro" in attrs:
                if "label-form" in attrs:
                    return LabelFormMacro(decor_of(_without_text_case(attrs)), self.macro(attrs["macro"]),
                                          attrs["label-form"])
                return TextMacro(decor_of(_without_text_case(attrs)), self.macro(attrs["macro"]))
            if "term" in attrs:
                return TextTerm(decor, attrs["term"], attrs.get("form", "long"), attrs.get("plural") == "true",
                                attrs.get("default-locale") == "true")
            if "value" in attrs:
                return TextValue(decor, attrs["value"])
            return None
        if tag == "number":
            substring = attrs.get("substring", "")
            start = int(substring) if re.fullmatch(r"-?\d+", substring) else None
            if "label-form" in attrs:
                return LabelFormNumber(decor_of(attrs), attrs.get("variable", ""), attrs.get("form", "numeric"),
                                       self.options, start, attrs["label-form"])
            return NumberNode(decor_of(attrs), attrs.get("variable", ""), attrs.get("form", "numeric"), self.options,
                              start)
        if tag == "label":
            return Label(decor_of(attrs), attrs.get("variable", ""), attrs.get("form", "long"),
                         attrs.get("plural", "contextual"))
        if tag == "group":
            nested = self.macro_depth > 0 or self.group_depth > 0
            self.group_depth += 1
            try:
                children = self.children(element, parent_names)
            finally:
                self.group_depth -= 1
            if attrs.get("require") in GROUP_TESTS or attrs.get("reject") in GROUP_TESTS:
                return ConditionalGroup(decor_of(_without_text_case(attrs)), children, attrs.get("delimiter", ""),
                                        attrs, self.options.require_comma_on_symbol)
            if "label-form" in attrs:
                return LabelFormGroup(decor_of(_without_text_case(attrs)), children, attrs.get("delimiter", ""),
                                      attrs["label-form"])
            if any(name in attrs for name in PARALLEL_ATTRIBUTES):
                return ParallelGroup(decor_of(_without_text_case(attrs)), children, attrs.get("delimiter", ""),
                                     attrs, nested)
            return Group(decor_of(_without_text_case(attrs)), children, attrs.get("delimiter", ""))
        if tag == "choose":
            branches: list[tuple[Condition | None, list[Element]]] = []
            typed = 0  # the leading branches that test the type alone
            tests: list[reach.Test | None] = []
            locales: dict[int, str] = {}
            for branch in element:
                if not isinstance(branch.tag, str):
                    continue
                branch_tag = _tag(branch)
                conditions = branch.find(NS + "conditions") if branch_tag != "else" else None
                test: Condition | None
                if conditions is not None and not _TEST_ATTRS.intersection(branch.attrib):
                    # CSL-M: cs:conditions, each cs:condition a test of its own, matched as one
                    parts = [dict(c.attrib) for c in conditions.findall(NS + "condition")]
                    test = combined_condition([compile_condition(attrs) for attrs in parts],
                                              conditions.get("match", "all"))
                    tests.append(reach.combined([reach.test(attrs) for attrs in parts]))
                else:
                    test = None if branch_tag == "else" else compile_condition(dict(branch.attrib))
                    tests.append(None if branch_tag == "else" else reach.test(dict(branch.attrib)))
                if typed == len(branches) and test is not None and tests_type_only(dict(branch.attrib)):
                    typed += 1
                branches.append((test, self.children(branch, parent_names)))
                if branch.get("locale"):  # CSL-M: the branch is written in that locale
                    locales[len(branches) - 1] = branch.get("locale", "").split()[0]
            return Choose(branches, typed, tests, locales)
        if tag == "date":
            parts = [dict(p.attrib) for p in element if isinstance(p.tag, str) and _tag(p) == "date-part"]
            date_attrs = dict(attrs)
            # as citeproc-js: a localized date (form="text"/"numeric") drops its own formatting
            # attributes (italics, bold ...), keeping its affixes
            ignored = ("delimiter", *FORMAT_ATTRS) if "form" in attrs else ("delimiter",)
            return DateNode(decor_of({k: v for k, v in attrs.items() if k not in ignored}),
                            date_attrs, parts)
        if tag == "names":
            return self.names(element, parent_names)
        return None

    def names(self, element: ET.Element, parent_names: NamesSpec | None) -> NamesNode:
        attrs = dict(element.attrib)
        variables = attrs.get("variable", "").split()
        name_el = element.find(NS + "name")
        has_own = any(_tag(c) in ("name", "et-al", "label") for c in element if isinstance(c.tag, str))
        own: dict[str, dict[str, str]] = {}  # the formatting of its own cs:name-parts
        if parent_names is not None and not has_own:
            spec = parent_names
            own = self.substituting_parts or {}
        else:
            name_attrs = {k: v for k, v in self.inherited.items() if k != "names-delimiter"}
            outer = {**attrs, **(name_el.attrib if name_el is not None else {})}
            if name_el is not None:
                name_attrs.update(_without_resets(dict(name_el.attrib), attrs))
                own = {part.get("name", ""): _without_resets(dict(part.attrib), outer)
                       for part in name_el if isinstance(part.tag, str) and _tag(part) == "name-part"}
            own = {**self._adopted_parts(element, own), **own}
            parts = dict(own)
            for part in _substitute_name_parts(element, self.macros_xml):
                parts[part.get("name", "")] = _without_resets(dict(part.attrib), outer)
            # CSL-M: with a cs:institution, a literal name (an institution) is written as that
            # element says, not with the family name-part's formatting (citeproc-js)
            institution_el = element.find(NS + "institution")
            own_family = {} if institution_el is not None else own.get("family", {})
            institution = None if institution_el is None else InstitutionSpec.from_attrs(
                institution_el.attrib, [part.attrib for part in institution_el.iter(NS + "institution-part")])
            et_al_el = element.find(NS + "et-al")
            label_spec = None
            tags = [_tag(child) for child in element if isinstance(child.tag, str)]
            for child in element:
                if not isinstance(child.tag, str):
                    continue
                if _tag(child) == "label":
                    # before the names only when it precedes a cs:name
                    label_before = "name" in tags and tags.index("label") < tags.index("name")
                    label_attrs = dict(child.attrib)
                    label_spec = LabelSpec(label_attrs.get("form", "long"), label_attrs.get("plural", "contextual"),
                                           decor_of(label_attrs), label_before)
            spec = NamesSpec(
                name=NameSpec.from_attrs(name_attrs, parts,
                                         {k: v for k, v in self.inherited.items() if k != "names-delimiter"},
                                         own_family, institution),
                et_al_term=et_al_el.get("term", "et-al") if et_al_el is not None else "et-al",
                et_al_decor=decor_of(_without_resets(dict(et_al_el.attrib), attrs), allow_quotes=False)
                if et_al_el is not None else None,
                label=label_spec,
                delimiter=attrs.get("delimiter", self.inherited.get("names-delimiter", "")),
            )
        if "delimiter" in attrs and spec.delimiter != attrs["delimiter"]:
            spec = NamesSpec(spec.name, spec.et_al_term, spec.et_al_decor, spec.label, attrs["delimiter"])
        substitute: list[Element] = []
        sub_el = element.find(NS + "substitute")
        if sub_el is not None:
            outer_parts, self.substituting_parts = self.substituting_parts, own
            try:
                substitute = self.children(sub_el, spec)
            finally:
                self.substituting_parts = outer_parts
        return NamesNode(decor_of(attrs), variables, spec, substitute, self.options,
                         inherits_name=parent_names is not None and name_el is None)

    def _adopted_parts(self, element: ET.Element, own: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        """The cs:name-parts a cs:names takes from the cs:names it is built to substitute for:
        as citeproc-js, which writes those of its parts the cs:names leaves alone into it
        when it is first built in a cs:substitute (in a macro too), so that every later use
        of it has them (annales: its editor macro writes small capitals everywhere once the
        author macro's substitute has called it)."""
        if self.substituting_parts is None:
            return self.adopted.get(id(element), {})
        missing = {name: part for name, part in self.substituting_parts.items() if name not in own}
        return self.adopted.setdefault(id(element), missing)


def _substitute_name_parts(names: ET.Element, macros: dict[str, ET.Element]) -> list[ET.Element]:
    """The cs:name-part elements of a cs:names' cs:substitute, the macros it calls written
    out, in document order: as citeproc-js, each sets the formatting of its part of the
    cs:names' own names too (the last one of a part wins: nehet's authors lose their small
    capitals to an unformatted family part in the substitute's container-author macro)."""
    found: list[ET.Element] = []
    seen: set[str] = set()

    def walk(element: ET.Element) -> None:
        for node in element:
            if not isinstance(node.tag, str):
                continue
            if node.tag == NS + "name-part":
                found.append(node)
            name = node.get("macro")
            if node.tag == NS + "text" and name and name not in seen and name in macros:
                seen.add(name)
                walk(macros[name])
            walk(node)

    substitute = names.find(NS + "substitute")
    if substitute is not None:
        walk(substitute)
    return found


def _uses_variable(element: ET.Element, variable: str, macros: dict[str, ET.Element]) -> bool:
    """Whether *element* or a macro it calls (transitively) writes *variable* (cs:text)."""
    seen: set[str] = set()
    pending = [element]
    while pending:
        for node in pending.pop().iter():
            if node.get("variable") == variable and node.tag == NS + "text":
                return True
            name = node.get("macro")
            if name and name not in seen and name in macros:
                seen.add(name)
                pending.append(macros[name])
    return False


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _without_text_case(attrs: dict[str, str]) -> dict[str, str]:
    """The attributes of a group or a macro call without text-case, which citeproc-js 2.4
    applies to written strings only: on an element that holds others it changes nothing."""
    return {name: value for name, value in attrs.items() if name != "text-case"}


_ENTITY_RE = re.compile(r"&(?:(quot|gt|lt)|#([0-9]{1,6})|#[xX]([0-9a-fA-F]{1,6}));")
_ENTITIES = {"quot": '"', "gt": ">", "lt": "<"}


def _entity(match: re.Match[str]) -> str:
    named, decimal, hexadecimal = match.groups()
    if named:
        return _ENTITIES[named]
    code = int(decimal) if decimal else int(hexadecimal, 16)
    return chr(code) if 0 < code <= 0x10FFFF else match.group(0)


def _decode_entities_again(root: ET.Element) -> None:
    """As citeproc-js's XML reader, which replaces ``&amp;`` before the other entities: an
    escaped entity in a style's text or attributes (``&amp;lt;sup&amp;gt;``, a French
    style's ordinal term) is read as the character it names, so the term's ``<sup>`` is markup."""
    for element in root.iter():
        if element.text and "&" in element.text:
            element.text = _ENTITY_RE.sub(_entity, element.text)
        for name, value in element.attrib.items():
            if "&" in value:
                element.set(name, _ENTITY_RE.sub(_entity, value))


#: The elements that nest what they hold, for citeproc-js's display rule (``cs:text`` calling a
#: macro among them: a macro's content is always nested).
_RENDERING_TAGS = frozenset({"text", "group", "names", "date", "number"})


def _drop_nested_display(root: ET.Element, macros: dict[str, ET.Element]) -> None:
    """As citeproc-js: ``display`` counts only on the layout's outermost rendering elements
    (choose branches do not nest them); it is dropped anywhere else, and on labels."""

    def walk(parent: ET.Element, nested: bool) -> None:
        for child in parent:
            if not isinstance(child.tag, str):
                continue
            tag = _tag(child)
            if nested or tag == "label":
                child.attrib.pop("display", None)
            walk(child, nested or tag in _RENDERING_TAGS)

    for macro in macros.values():
        walk(macro, True)
    for layout in root.iter(NS + "layout"):
        walk(layout, False)


def _last_built_date(root: ET.Element, macros: dict[str, ET.Element]) -> dict[str, str] | None:
    """The affixes and formatting of the cs:date citeproc-js builds last (see RangeEnds): it
    builds the citation, then the bibliography, each with its sort keys first and a macro where
    it is first called (sort keys build theirs every time: what one gives is the same each time)."""
    built: set[str] = set()
    in_sort_keys: dict[str, dict[str, str] | None] = {}

    def walk(parent: ET.Element, in_sort: bool, calls: tuple[str, ...]) -> dict[str, str] | None:
        last: dict[str, str] | None = None
        for child in parent:
            if not isinstance(child.tag, str):
                continue
            tag, name = _tag(child), child.get("macro")
            if tag == "date":
                last = {k: v for k, v in child.attrib.items() if k in _RANGE_END_ATTRS}
            if name is not None and tag in ("text", "key") and name in macros and name not in calls:
                found: dict[str, str] | None = None
                if in_sort or tag == "key":
                    if name not in in_sort_keys:
                        in_sort_keys[name] = walk(macros[name], True, (*calls, name))
                    found = in_sort_keys[name]
                elif name not in built:
                    built.add(name)
                    found = walk(macros[name], False, (*calls, name))
                last = last if found is None else found
            inner = walk(child, in_sort, calls)
            last = last if inner is None else inner
        return last

    found = None
    for section in ("citation", "bibliography"):
        element = root.find(NS + section)
        if element is not None:
            last = walk(element, False, ())
            found = found if last is None else last
    return found


#: What of a cs:date's attributes decorates the end of a range (see RangeEnds).
_RANGE_END_ATTRS = frozenset({"prefix", "suffix", *FORMAT_ATTRS})


#: How deep a style's elements may nest: the styles of the CSL repository nest 18 deep at
#: most; a deeper document is no style, and compiling or rendering it would exhaust Python's
#: recursion.
MAX_DEPTH = 100


def _too_deep(root: ET.Element) -> bool:
    """Whether an element of ``root`` is nested more than ``MAX_DEPTH`` deep (walked without
    recursion)."""
    level: list[tuple[ET.Element, int]] = [(root, 1)]
    while level:
        element, depth = level.pop()
        if depth > MAX_DEPTH:
            return True
        level.extend((child, depth + 1) for child in element)
    return False


class CslStyle:
    """A CSL 1.0.x style, compiled once; share it between processors."""

    def __init__(self, root: ET.Element, source: str) -> None:
        if _tag(root) != "style":
            raise ParseError("not a CSL style (root element is not <style>)", source)
        if _too_deep(root):
            raise ParseError(f"not a CSL style: its elements nest more than {MAX_DEPTH} deep",
                             source)
        self.source = source
        _decode_entities_again(root)
        info = root.find(NS + "info")
        parent_link = None
        if info is not None:
            for link in info.findall(NS + "link"):
                if link.get("rel") == "independent-parent":
                    parent_link = link.get("href")
        default_locale, language_tags = split_default_locale(root.get("default-locale") or "")
        self.info = StyleInfo(
            id=(info.findtext(NS + "id") or "").strip() if info is not None else "",
            title=(info.findtext(NS + "title") or "").strip() if info is not None else "",
            parent_link=parent_link,
            is_dependent=parent_link is not None,
            class_=root.get("class", "in-text"),
            default_locale=default_locale or None,
            default_locale_sort=root.get("default-locale-sort"),
            language_tags=language_tags,
        )
        self.locale_layers: list[LocaleLayer] = [parse_locale_element(el) for el in root.findall(NS + "locale")]
        citation_el = root.find(NS + "citation")
        self.options = StyleOptions(
            page_range_format=root.get("page-range-format"),
            require_comma_on_symbol=root.get("require-comma-on-symbol", ""),
            demote_non_dropping_particle=root.get("demote-non-dropping-particle", "display-and-sort"),
            initialize_with_hyphen=root.get("initialize-with-hyphen", "true") == "true",
            disambiguation_initials=citation_el is not None and citation_el.get(
                "givenname-disambiguation-rule", "").endswith("-with-initials"),
        )
        macros = {m.get("name", ""): m for m in root.findall(NS + "macro")}
        _drop_nested_display(root, macros)
        style_names = {k: v for k, v in root.attrib.items() if k in INHERITABLE_NAME_ATTRS}
        self.explicit_year_suffix = any(
            el.get("variable") == "year-suffix" for el in root.iter(NS + "text")
        )
        self._adopted: dict[int, dict[str, dict[str, str]]] = {}  # (see _Compiler._adopted_parts)
        self.citation = self._section(citation_el, macros, style_names)
        # cites vary with position through position conditions or subsequent et-al rules
        self.citation_uses_position = citation_el is not None and any(
            ("position" in el.attrib and el.tag in (NS + "if", NS + "else-if"))
            or "et-al-subsequent-min" in el.attrib or "et-al-subsequent-use-first" in el.attrib
            for el in root.iter())
        self.bibliography = self._section(root.find(NS + "bibliography"), macros, style_names)
        #: CSL-M: the layout of an author-only cite (a narrative citation's "Smith"), or None
        self.intext = self._section(root.find(NS + "intext"), macros, style_names)
        bibliography_el = root.find(NS + "bibliography")
        #: CSL-M: the bibliography's consolidation of chapters and statutes (see consolidation.py)
        self.containers = containers_of(root.attrib, bibliography_el.attrib if bibliography_el is not None else {})
        #: CSL-M: whether a group requires or rejects a test (see groupcondition.py)
        self.group_conditions = any(el.get("require") in GROUP_TESTS or el.get("reject") in GROUP_TESTS
                                    for el in root.iter(NS + "group"))
        #: CSL-M: whether the style writes parallel citations, and the variables it tracks
        #: from cite to cite for them (see parallel.py)
        self.parallels = any(name in el.attrib for el in root.iter(NS + "group") for name in PARALLEL_ATTRIBUTES)
        self.tracked_variables = frozenset(
            variable for el in root.iter(NS + "group") for name in TRACKING_ATTRIBUTES
            for variable in el.get(name, "").split())
        #: whether citations show citation numbers (citeproc-js's numeric mode)
        self.numbered_citations = citation_el is not None and _uses_variable(
            citation_el, "citation-number", macros)
        self._macros_xml = macros
        self._style_names = style_names
        #: what citeproc-js wraps the end of a date range in (see RangeEnds), or None
        self.range_end_attrs = _last_built_date(root, macros)

    def _section(self, element: ET.Element | None, macros: dict[str, ET.Element],
                 style_names: dict[str, str]) -> Section | None:
        if element is None:
            return None
        inherited = dict(style_names)
        inherited.update({k: v for k, v in element.attrib.items() if k in INHERITABLE_NAME_ATTRS})
        compiler = _Compiler(macros, inherited, self.options, self._adopted, self.source)
        layouts = element.findall(NS + "layout")
        if not layouts:
            raise ParseError(f"<{_tag(element)}> has no <layout>", self.source)
        # CSL-M: layouts with a locale come first, the one without is everybody else's
        layout = next((el for el in layouts if el.get("locale") is None), layouts[-1])
        layout_attrs = {k: v for k, v in layout.attrib.items() if k != "locale"}
        section = Section(
            layout=compiler.children(layout),
            layout_decor=decor_of({k: v for k, v in layout_attrs.items() if k != "delimiter"}),
            delimiter=layout_attrs.get("delimiter", ""),
            options=dict(element.attrib),
        )
        sort = element.find(NS + "sort")
        if sort is not None:
            for key in sort.findall(NS + "key"):
                macro_name = key.get("macro")
                use_last = key.get("names-use-last")
                section.sort.append(SortKey(
                    variable=key.get("variable"),
                    macro=compiler.macro(macro_name) if macro_name else None,
                    descending=key.get("sort") == "descending",
                    names_min=_int_or_none(key.get("names-min")),
                    names_use_first=_int_or_none(key.get("names-use-first")),
                    names_use_last=None if use_last is None else use_last == "true",
                ))
        bibliography = _tag(element) == "bibliography"
        for other in layouts:
            tags = other.get("locale", "").split()
            if other is layout or not tags:
                continue
            # as citeproc-js: a bibliography entry ends in its layout's own suffix, a
            # citation in its own only when it has one
            suffix = other.get("suffix") if bibliography else other.get("suffix") or layout_attrs.get("suffix")
            attrs = {k: v for k, v in layout_attrs.items() if k not in ("delimiter", "suffix")}
            if suffix:
                attrs["suffix"] = suffix
            section.locale_layouts.append(LocaleLayout(tuple(tags), Section(
                layout=compiler.children(other), layout_decor=decor_of(attrs),
                delimiter=other.get("delimiter") or section.delimiter,
                options=section.options, sort=section.sort)))
        return section

    @classmethod
    def from_xml(cls, text: str | bytes, source: str = "<string>") -> CslStyle:
        try:
            root = ET.fromstring(text)
        except ET.ParseError as exc:
            raise ParseError(f"invalid CSL XML: {exc}", source, exc.position[0], exc.position[1]) from exc
        return cls(root, source)

    @classmethod
    def from_path(cls, path: str | Path) -> CslStyle:
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ParseError(f"cannot read CSL style: {exc.strerror}", str(path)) from exc
        return cls.from_xml(data, str(path))
