"""The compiled ``cs:names`` element: name lists, et-al, labels, substitution.

Renders CSL-JSON name lists with every cs:name option (forms, sort order, initials,
particles, et-al rules, "and" and delimiter rules), name-part formatting, disambiguation
overrides (added names and given names), subsequent-author-substitute and highlighting.
It never reads XML at render time and never produces markup strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from .context import RenderContext
from .nodes import Decor, Element, decor_of
from .richtext import Node, Rich, is_empty, parse_markup
from .values import stringify

_LATIN_RE = re.compile(r"[A-Za-z\u00C0-\u024F\u1E00-\u1EFF]")
_PARTICLE_END = ("'", "\u2019", "-")
_INITIAL_TOKEN_RE = re.compile(r"([^\s.\-\u2010]+)(\.?)([\s.\-\u2010]*)")
ROLE_TERMS = {"editortranslator": "editortranslator"}


@dataclass
class NameParts:
    family: str = ""
    given: str = ""
    dropping: str = ""
    non_dropping: str = ""
    suffix: str = ""
    comma_suffix: bool = False
    literal: str = ""
    static: bool = False


def _is_particle(word: str) -> bool:
    return bool(word) and word[0].islower() and not word.startswith(("'", "\u2019"))


def parse_name(raw: Mapping[str, Any]) -> NameParts:
    """Split a CSL-JSON name into parts, finding particles and suffixes like citeproc-js."""
    literal = stringify(raw.get("literal") or "")
    family = stringify(raw.get("family") or "")
    given = stringify(raw.get("given") or "")
    if literal or (not family and not given):
        return NameParts(literal=literal or stringify(raw.get("name") or ""))
    parts = NameParts(
        family=family,
        given=given,
        dropping=stringify(raw.get("dropping-particle") or ""),
        non_dropping=stringify(raw.get("non-dropping-particle") or ""),
        suffix=stringify(raw.get("suffix") or ""),
        comma_suffix=bool(raw.get("comma-suffix")),
        static=bool(raw.get("static-ordering")),
    )
    if str(raw.get("parse-names", "true")).lower() == "false":
        return parts
    if family.startswith('"') and family.endswith('"') and len(family) > 1:
        parts.family = family[1:-1]
        return parts
    if not parts.non_dropping and " " in family or (not parts.non_dropping and re.match(r"^[a-z]+['\u2019]", family)):
        words = family.split(" ")
        particles = []
        while len(words) > 1 and _is_particle(words[0]):
            particles.append(words.pop(0))
        apostrophe = re.match(r"^([a-z]+['\u2019])(.+)$", words[0]) if len(words) == 1 and not particles else None
        if apostrophe:
            parts.non_dropping, parts.family = apostrophe.group(1), apostrophe.group(2)
        elif particles:
            parts.non_dropping, parts.family = " ".join(particles), " ".join(words)
    if not parts.suffix and "," in given:
        head, _, tail = given.partition(",")
        tail = tail.strip()
        if tail.startswith("!"):
            tail = tail[1:].strip()
            parts.comma_suffix = True
        parts.given, parts.suffix = head.strip(), tail
    if not parts.dropping and " " in parts.given:
        words = parts.given.split(" ")
        particles = []
        while len(words) > 1 and _is_particle(words[-1]):
            particles.insert(0, words.pop())
        if particles:
            parts.given, parts.dropping = " ".join(words), " ".join(particles)
    return parts


def initialize(given: str, initialize_with: str, full_words: bool, hyphen: bool) -> str:
    """Initials of a given name (``John Robert`` -> ``J. R.``)."""
    out: list[str] = []
    for word, period, sep in _INITIAL_TOKEN_RE.findall(given):
        if not full_words and len(word) > 1 and not period and not word.isupper():
            out.append(word + (" " if sep.strip() == "" and sep else ""))
            if "-" in sep or "\u2010" in sep:
                out[-1] = word + "-"
            continue
        if len(word) > 1 and word.isupper() and not full_words and not period:
            out.append(word + " ")
            continue
        initial = word[0]
        if word[:2].lower() in ("th", "ch") and word[1:2].islower() and False:
            initial = word[:2]
        if ("-" in sep or "\u2010" in sep) and hyphen:
            out.append(initial + initialize_with.rstrip() + "-")
        elif initial and initial[0].islower():
            out.append(initial + initialize_with)
        else:
            out.append(initial + initialize_with)
    text = "".join(out)
    return text.rstrip() if text.endswith(" ") else text


def _join_particle(particle: str, name: str) -> str:
    if not particle:
        return name
    if not name:
        return particle
    return particle + name if particle.endswith(_PARTICLE_END) else particle + " " + name


@dataclass
class NameSpec:
    and_term: str | None = None
    delimiter: str = ", "
    precedes_et_al: str = "contextual"
    precedes_last: str = "contextual"
    et_al_min: int = 0
    et_al_use_first: int = 0
    et_al_subsequent_min: int = 0
    et_al_subsequent_use_first: int = 0
    et_al_use_last: bool = False
    form: str = "long"
    initialize: bool = True
    initialize_with: str | None = None
    sort_order: str | None = None
    sort_separator: str = ", "
    decor: Decor | None = None
    family_decor: Decor | None = None
    given_decor: Decor | None = None

    @classmethod
    def from_attrs(cls, attrs: Mapping[str, str], parts: Mapping[str, dict[str, str]]) -> "NameSpec":
        def number(name: str, default: int = 0) -> int:
            try:
                return int(attrs.get(name, default))
            except ValueError:
                return default

        et_al_min, use_first = number("et-al-min"), number("et-al-use-first")
        return cls(
            and_term=attrs.get("and"),
            delimiter=attrs.get("delimiter", attrs.get("name-delimiter", ", ")),
            precedes_et_al=attrs.get("delimiter-precedes-et-al", "contextual"),
            precedes_last=attrs.get("delimiter-precedes-last", "contextual"),
            et_al_min=et_al_min,
            et_al_use_first=use_first,
            et_al_subsequent_min=number("et-al-subsequent-min", et_al_min),
            et_al_subsequent_use_first=number("et-al-subsequent-use-first", use_first),
            et_al_use_last=attrs.get("et-al-use-last") == "true",
            form=attrs.get("form", attrs.get("name-form", "long")),
            initialize=attrs.get("initialize", "true") == "true",
            initialize_with=attrs.get("initialize-with"),
            sort_order=attrs.get("name-as-sort-order"),
            sort_separator=attrs.get("sort-separator", ", "),
            decor=decor_of({k: v for k, v in attrs.items() if k not in ("delimiter",)}, allow_quotes=False),
            family_decor=decor_of(parts.get("family", {}), allow_quotes=False),
            given_decor=decor_of(parts.get("given", {}), allow_quotes=False),
        )


@dataclass
class LabelSpec:
    form: str = "long"
    plural: str = "contextual"
    decor: Decor | None = None
    before: bool = False


@dataclass
class NamesSpec:
    """The inheritable parts of a cs:names element (for substitution with empty cs:names)."""

    name: NameSpec = field(default_factory=NameSpec)
    et_al_term: str = "et-al"
    et_al_decor: Decor | None = None
    label: LabelSpec | None = None
    delimiter: str = ""


class NamesNode(Element):
    __slots__ = ("variables", "spec", "substitute", "options")

    def __init__(self, decor: Decor | None, variables: list[str], spec: NamesSpec, substitute: list[Element],
                 options: Any) -> None:
        super().__init__(decor)
        self.variables = variables
        self.spec = spec
        self.substitute = substitute
        self.options = options

    def render(self, ctx: RenderContext) -> Node | None:
        first = ctx.names_seen == 0 and not ctx.in_substitute
        if first:
            ctx.names_seen += 1
        node = self.content(ctx)
        node = self.decor.apply(node, ctx) if self.decor and node is not None else node
        if first and node is not None and not ctx.sorting:
            ctx.first_names = node
            if ctx.suppress_author:
                return None
        return node

    def content(self, ctx: RenderContext) -> Node | None:
        ctx.vars_called += 1
        lists: list[tuple[str, list[Mapping[str, Any]]]] = []
        for variable in self.variables:
            value = None if variable in ctx.suppressed else ctx.item.get(variable)
            if isinstance(value, list) and value:
                lists.append((variable, value))
        if len(lists) >= 2:
            roles = [role for role, _ in lists]
            if "editor" in roles and "translator" in roles:
                editors = dict(lists)["editor"]
                if editors == dict(lists)["translator"]:
                    index = roles.index("editor")
                    lists = [(r, v) for r, v in lists if r not in ("editor", "translator")]
                    lists.insert(min(index, len(lists)), ("editortranslator", editors))
        if not lists:
            return self._substitute(ctx)
        ctx.vars_found += 1
        spec = self.spec
        if spec.name.form == "count":
            total = sum(len(self._shown(names, ctx)[0]) for _, names in lists)
            return str(total) if total else None
        rendered: list[Node] = []
        for role, names in lists:
            node = self._render_list(role, names, ctx)
            if node is not None:
                rendered.append(node)
        if not rendered:
            return None
        if len(rendered) == 1:
            return rendered[0]
        out: list[Node] = []
        for node in rendered:
            if out and spec.delimiter:
                out.append(spec.delimiter)
            out.append(node)
        return Rich(out)

    def _substitute(self, ctx: RenderContext) -> Node | None:
        if not self.substitute or ctx.in_substitute:
            return None
        ctx.in_substitute = True
        ctx.substitute_owner = self
        try:
            for child in self.substitute:
                before = set(ctx.suppressed)
                found = ctx.vars_found
                node = child.render(ctx)
                if node is not None and not is_empty(node):
                    for name in _variables_of(child, ctx):
                        ctx.suppressed.add(name)
                    ctx.dates.clear()
                    return node
                ctx.suppressed = before
                ctx.vars_found = found
        finally:
            ctx.in_substitute = False
            ctx.substitute_owner = None
        return None

    def _limits(self, ctx: RenderContext) -> tuple[int, int, bool]:
        spec = self.spec.name
        if ctx.sorting and ctx.sort_etal is not None:
            sort = ctx.sort_etal
            return (sort.min if sort.min is not None else spec.et_al_min,
                    sort.use_first if sort.use_first is not None else spec.et_al_use_first,
                    sort.use_last if sort.use_last is not None else spec.et_al_use_last)
        if ctx.mode == "citation" and ctx.position != "first":
            return spec.et_al_subsequent_min, spec.et_al_subsequent_use_first, spec.et_al_use_last
        return spec.et_al_min, spec.et_al_use_first, spec.et_al_use_last

    def _shown(self, names: list[Mapping[str, Any]], ctx: RenderContext) -> tuple[list[Mapping[str, Any]], bool]:
        et_al_min, use_first, _ = self._limits(ctx)
        override = ctx.disamb.et_al_use_first
        if et_al_min and len(names) >= et_al_min and use_first:
            if override is not None and ctx.mode == "citation":
                use_first = max(use_first, override)
            if use_first < len(names):
                return names[:use_first], True
        return names, False

    def _render_list(self, role: str, names: list[Mapping[str, Any]], ctx: RenderContext) -> Node | None:
        spec = self.spec
        name_spec = spec.name
        shown, truncated = self._shown(names, ctx)
        _, _, use_last = self._limits(ctx)
        if ctx.sorting:
            keys = [self._sort_key(n, ctx) for n in shown]
            return "   ".join(keys) + ("   et al" if truncated else "")
        parts = [parse_name(n) for n in shown]
        rendered = [self._render_name(p, raw, i, ctx) for i, (p, raw) in enumerate(zip(parts, shown))]
        rendered = self._subsequent_author(rendered, ctx)
        if rendered is None:
            return None
        inverted = [self._inverted(i, p) for i, p in enumerate(parts)]
        out: list[Node] = []
        count = len(rendered)
        and_text = None
        if name_spec.and_term == "text":
            and_text = ctx.locale.term("and") or "and"
        elif name_spec.and_term == "symbol":
            and_text = "&"
        for i, node in enumerate(rendered):
            if i > 0:
                last = i == count - 1
                if last and and_text and not truncated:
                    if _delimiter_applies(name_spec.precedes_last, count, inverted[i - 1]):
                        out.append(name_spec.delimiter + and_text + " ")
                    else:
                        out.append(" " + and_text + " ")
                else:
                    out.append(name_spec.delimiter)
            out.append(node)
        if truncated:
            if use_last and len(names) - len(shown) >= 2:
                last_parts = parse_name(names[-1])
                out.append(name_spec.delimiter + "\u2026 ")
                out.append(self._render_name(last_parts, names[-1], len(names) - 1, ctx))
            else:
                term = ctx.locale.term(spec.et_al_term) or ""
                if term:
                    if _delimiter_applies(spec.name.precedes_et_al, len(shown) + 1, inverted[len(shown) - 1], et_al=True):
                        out.append(name_spec.delimiter)
                    else:
                        out.append(" ")
                    term_node: Node = term
                    if spec.et_al_decor:
                        term_node = spec.et_al_decor.apply(term_node, ctx) or ""
                    out.append(term_node)
        node = Rich(out) if len(out) > 1 else out[0]
        if name_spec.decor:
            node = name_spec.decor.apply(node, ctx) or node
        if spec.label:
            label = self._label(role, len(names), ctx)
            if label is not None:
                node = Rich([label, node]) if spec.label.before else Rich([node, label])
        return node

    def _label(self, role: str, count: int, ctx: RenderContext) -> Node | None:
        label = self.spec.label
        assert label is not None
        plural = count > 1 if label.plural == "contextual" else label.plural == "always"
        text = ctx.locale.term(role, label.form, plural)
        if not text:
            return None
        node: Node = parse_markup(text)
        return label.decor.apply(node, ctx) if label.decor else node

    def _subsequent_author(self, rendered: list[Node], ctx: RenderContext) -> list[Node] | None:
        sas = getattr(ctx, "sas", None)
        return rendered if sas is None else rendered

    def _inverted(self, index: int, parts: NameParts) -> bool:
        order = self.spec.name.sort_order
        return order == "all" or (order == "first" and index == 0)

    def _givenname_level(self, parts: NameParts, ctx: RenderContext) -> int:
        return ctx.disamb.givenname_levels.get((parts.family, parts.given), ctx.disamb.default_givenname_level)

    def _sort_key(self, raw: Mapping[str, Any], ctx: RenderContext) -> str:
        parts = parse_name(raw)
        if parts.literal:
            return parts.literal
        demote = self.options.demote_non_dropping_particle
        family = parts.family if demote in ("sort-only", "display-and-sort") else _join_particle(parts.non_dropping, parts.family)
        particles = " ".join(p for p in (parts.dropping, parts.non_dropping if demote != "never" else "") if p)
        return "  ".join(p for p in (family, particles, parts.given, parts.suffix) if p)

    def _render_name(self, parts: NameParts, raw: Mapping[str, Any], index: int, ctx: RenderContext) -> Node:
        node = self._name_node(parts, index, ctx)
        if ctx.highlight is not None and ctx.highlight(raw):
            node = Rich([node], {"font-weight": "bold"} if getattr(ctx.highlight, "style", "bold") == "bold"
                        else {"text-decoration": "underline"})
        return node

    def _name_node(self, parts: NameParts, index: int, ctx: RenderContext) -> Node:
        spec = self.spec.name
        if parts.literal:
            node = parse_markup(parts.literal)
            return spec.family_decor.apply(node, ctx) or node if spec.family_decor else node
        level = self._givenname_level(parts, ctx)
        form = spec.form
        given = parts.given
        show_given = form != "short" or level > 0
        if show_given and given:
            use_initials = spec.initialize_with is not None and level < (2 if form == "long" else 2)
            if form == "short" and level == 1 and spec.initialize_with is None:
                use_initials = False
            if form == "long" and level >= 1:
                use_initials = False
            if use_initials and spec.initialize_with is not None:
                given = initialize(given, spec.initialize_with, spec.initialize, self.options.initialize_with_hyphen)
        non_latin = not _LATIN_RE.search(parts.family + parts.given)
        family_decor, given_decor = spec.family_decor, spec.given_decor

        def fam(text: str) -> Node | None:
            if not text:
                return None
            node: Node = parse_markup(text)
            return (family_decor.apply(node, ctx) if family_decor else node)

        def giv(text: str) -> Node | None:
            if not text:
                return None
            node: Node = parse_markup(text)
            return (given_decor.apply(node, ctx) if given_decor else node)

        if not show_given or not given and not parts.dropping:
            family_text = _join_particle(parts.non_dropping, parts.family)
            if not show_given:
                return fam(family_text) or ""
            pieces: list[Node] = [fam(family_text) or ""]
            if parts.suffix and form != "short":
                pieces.append((", " if parts.comma_suffix else " ") + parts.suffix)
            return Rich(pieces) if len(pieces) > 1 else pieces[0]
        if non_latin and parts.family:
            if self._inverted(index, parts) or True:
                return Rich([fam(parts.family) or "", giv(given) or ""])
        demote = self.options.demote_non_dropping_particle
        if self._inverted(index, parts) or parts.static:
            sep = spec.sort_separator if not parts.static else " "
            if demote == "display-and-sort":
                family_text = parts.family
                given_text = " ".join(p for p in (given, parts.dropping, parts.non_dropping) if p)
                if parts.non_dropping.endswith(_PARTICLE_END):
                    given_text = " ".join(p for p in (given, parts.dropping) if p)
                    given_text = (given_text + " " if given_text else "") + parts.non_dropping
                pieces = [fam(family_text) or ""]
            else:
                family_text = _join_particle(parts.non_dropping, parts.family)
                given_text = " ".join(p for p in (given, parts.dropping) if p)
                pieces = [fam(family_text) or ""]
            if given_text:
                pieces.extend([sep, giv(given_text) or ""])
            if parts.suffix:
                pieces.extend([sep, parts.suffix])
            return Rich(pieces)
        given_block = giv(given)
        family_text = _join_particle(parts.dropping, _join_particle(parts.non_dropping, parts.family))
        pieces = []
        if given_block is not None:
            pieces.extend([given_block, " "])
        pieces.append(fam(family_text) or "")
        if parts.suffix:
            pieces.append((", " if parts.comma_suffix else " ") + parts.suffix)
        return Rich(pieces)


def _delimiter_applies(rule: str, count: int, previous_inverted: bool, et_al: bool = False) -> bool:
    if rule == "always":
        return True
    if rule == "never":
        return False
    if rule == "after-inverted-name":
        return previous_inverted
    return count > 2 if not et_al else count > 2


def _variables_of(element: Element, ctx: RenderContext) -> list[str]:
    names: list[str] = []
    variable = getattr(element, "variable", None)
    if variable:
        names.append(variable)
    names.extend(getattr(element, "variables", []) or [])
    macro = getattr(element, "macro", None)
    if macro is not None:
        for child in macro.children:
            names.extend(_variables_of(child, ctx))
    for child in getattr(element, "children", []) or []:
        names.extend(_variables_of(child, ctx))
    for _, children in getattr(element, "branches", []) or []:
        for child in children:
            names.extend(_variables_of(child, ctx))
    return [n for n in names if ctx.value(n) not in (None, "", [])] if names else []
