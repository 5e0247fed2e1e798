"""The compiled ``cs:names`` element: name lists, et-al, labels, substitution.

Renders CSL-JSON name lists with every cs:name option (forms, sort order, initials,
particles, et-al rules, "and" and delimiter rules), name-part formatting, disambiguation
overrides (added names and given names), subsequent-author-substitute and highlighting.
It never reads XML at render time and never produces markup strings.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from . import reach
from .abbreviations import listed_form
from .context import RenderContext
from .institutions import InstitutionSpec, institution_forms, subunits, written
from .marked import Delimiter, KeptLead, LiteralText
from .multilingual import Multilingual, name_forms, supplements_shown
from .nameparts import NameParts, parse_name
from .nodes import FORMAT_ATTRS, Choose, Decor, Element, TextTerm, decor_of
from .reach import Reach
from .rendered import (
    ROMANESQUE_CHARS,
    KeptNormal,
    Node,
    PersonName,
    Rich,
    is_empty,
    parse_markup,
    plain,
)
from .values import stringify

_PARTICLE_END = ("'", "\u2019", "-")
_NBSP_LANGUAGES = frozenset(("fr", "ru", "cs"))
ROLE_TERMS = {"editortranslator": "editortranslator"}
#: The item key naming (separated by spaces) the name variables whose lists are cut short
#: ("and others"): refbridge's ``custom.incomplete-names``, as ``refbridge.styles`` hands it on.
INCOMPLETE_NAMES_KEY = "refbridge-incomplete-names"
#: The parts of a name that subsequent-author-substitute compares, as citeproc-js (joined).
SAS_NAME_PARTS = ("non-dropping-particle", "family", "given", "dropping-particle", "suffix", "literal")


_STARTS_ROMANESQUE_RE = re.compile(f"^[&{ROMANESQUE_CHARS}]")
_ROMANESQUE_RE = re.compile(f"[-0-9{ROMANESQUE_CHARS}]")
#: CSL-M locale options that write names of some languages in their own way
_LANGUAGE_NAME_OPTIONS = frozenset(("name-as-sort-order", "name-never-short"))
_NAME_INITIAL_RE = re.compile(
    "^([A-Z\u0e01-\u0e5b\u00c0-\u017f\u0400-\u042f\u0590-\u05d4\u05d6-\u05ff\u0600-\u06ff\u0370\u0372"
    "\u0376\u0386\u0388-\u03ab\u03e2\u03e4\u03e6\u03e8\u03ea\u03ec\u03ee\u03f4\u03f7\u03fd-\u03ff])"
    "([a-zA-Z\u0e01-\u0e5b\u00c0-\u017f\u0400-\u052f\u0600-\u06ff\u0370-\u03ff\u1f00-\u1fff]*|)(\\.)*"
)


def _tidy(text: str) -> str:
    # as citeproc-js: trailing no-break spaces go, but only ASCII spaces are collapsed (a
    # no-break space of initialize-with stays between initials)
    text = re.sub(r"[\s\ufeff\u00a0]+$", "", text)
    return re.sub(r"[\t\n\v\f\r ]+", " ", re.sub(r"\s*-\s*", "-", text))


_INITIALIZED: dict[tuple[str, str, bool, bool], str] = {}


def initialize(given: str, terminator: str, initialize_names: bool, hyphen: bool) -> str:
    """Initials of a given name as citeproc-js makes them (``John Robert`` -> ``J. R.``).

    With *initialize_names* false, only names that already are initials are normalized.
    """
    key = (given, terminator, initialize_names, hyphen)
    result = _INITIALIZED.get(key)
    if result is None:
        if len(_INITIALIZED) > 50000:
            _INITIALIZED.clear()
        result = _INITIALIZED[key] = _initialize(given, terminator, initialize_names, hyphen)
    return result


# citeproc-js's separators of given-name pieces: spaces and hyphens, and markup tags with
# the spaces and hyphens around them ("<b>John</b> Quiggly" has the pieces "", "John", "Quiggly")
_NAME_SEPARATOR_RE = re.compile(
    r"((?:[-\s]*</*(?:span\s+class=\"no(?:case|decor)\"|i|sc|b|sub|sup)>[-\s]*|[-\s]+))")
_LEADING_TAGS_RE = re.compile(r"^(?:<[^>]+>)*")
_TAG_RUN_RE = re.compile(r"(?:-*<[^>]+>-*)")
_TRAILING_SPACE_RE = re.compile(r"^(.*[^\s])?(\s+)$", re.DOTALL)


def _merge_tags(separator: str, terminator: str) -> str:
    """The terminator with the separator's markup tags placed before its trailing spaces."""
    tags = "".join(_TAG_RUN_RE.findall(separator))
    if not tags:
        return terminator
    match = _TRAILING_SPACE_RE.match(terminator)
    if match:
        return (match.group(1) or "") + tags + match.group(2)
    return terminator + tags


def _tags_only(separator: str) -> str:
    match = re.search(r"(?:<[^>]+>)+", separator)
    return match.group() if match else separator


def _initialize(given: str, terminator: str, initialize_names: bool, hyphen: bool) -> str:
    if not given or given in ("Lord", "Lady") or (not _STARTS_ROMANESQUE_RE.match(_LEADING_TAGS_RE.sub("", given))
                                                  and "%s" not in terminator):
        return given
    name = given if hyphen else given.replace("-", " ")
    name = re.sub(r"\s+", " ", re.sub(r"\s*-\s*", "-", name))
    name = re.sub(r"-([a-z])", "\u2013\\1", name)
    name = re.sub(r"\.(?=[^ ])", ". ", name)
    pieces = _NAME_SEPARATOR_RE.split(name)
    if len(pieces) == 1:
        tail = re.search(r"[^.]+$", pieces[0])
        if tail and len(tail.group()) == 1 and tail.group() != tail.group().lower():
            pieces[0] += "."
    text = _initialize_pieces(pieces, terminator) if initialize_names else _normalize_pieces(pieces, terminator)
    return re.sub("\u2013([a-z])", r"-\1", text)


_FIRST_CHARACTER_RE = re.compile(r"(.)(.*)()", re.DOTALL)


def _initialize_pieces(pieces: list[str], terminator: str) -> str:
    count = len(pieces)
    placeholder = "%s" in terminator
    for i in range(0, count, 2):
        piece = pieces[i]
        if not piece:
            continue
        match = _NAME_INITIAL_RE.match(piece)
        if match is None and placeholder and len(piece) > 1 and not _STARTS_ROMANESQUE_RE.match(piece):
            # (as citeproc-js: with a terminator holding "%s", a CJK given name's first character)
            match = _FIRST_CHARACTER_RE.match(piece)
        if match:
            head, rest, period = match.group(1), match.group(2), match.group(3)
            if rest and period:
                head, rest = head + rest, ""
            extra = ""
            if rest:
                upper = ""
                for char in rest:
                    if char != char.upper():
                        break
                    upper += char
                if len(upper) < len(rest):
                    extra = upper.lower()
            pieces[i] = head + extra
            if placeholder:  # CSL-M: the initial written inside the terminator ("【%s】")
                pieces[i] = terminator.replace("%s", pieces[i], 1)
            elif i < count - 1:
                separator = pieces[i + 1]
                if "-" in separator:
                    pieces[i + 1] = _merge_tags(separator.replace("-", "", 1), terminator) + "-"
                else:
                    pieces[i + 1] = _merge_tags(separator, terminator)
            else:
                pieces.append(terminator)
        elif _ROMANESQUE_RE.search(piece):
            pieces[i] = " " + piece
    return _tidy("".join(pieces))


def _normalize_pieces(pieces: list[str], terminator: str) -> str:
    abbreviations = []
    for i, piece in enumerate(pieces):
        bare = _LEADING_TAGS_RE.sub("", piece)
        if len(bare) > 1 and bare.endswith("."):
            pieces[i] = re.sub(r"^(.*)\.(.*)$", r"\1\2", piece)
            abbreviations.append(True)
        else:
            abbreviations.append(len(piece) == 1 and piece.upper() == piece)
    for i in range(0, len(pieces), 2):
        if not abbreviations[i]:
            continue
        if i < len(pieces) - 2:
            separator = _tags_only(pieces[i + 1])
            if not abbreviations[i + 2]:
                separator += " "
            if len(pieces[i + 2]) > 1:
                pieces[i + 1] = terminator.rstrip("\ufeff") + separator
            else:
                pieces[i + 1] = _merge_tags(separator, terminator)
        if i == len(pieces) - 1:
            pieces[i] += terminator
    return _tidy("".join(pieces))


def _unaffixed_decor(attrs: Mapping[str, str]) -> Decor | None:
    return decor_of({k: v for k, v in attrs.items() if k not in ("prefix", "suffix")}, allow_quotes=False)


def _affixes(attrs: Mapping[str, str]) -> tuple[str, str]:
    return attrs.get("prefix", ""), attrs.get("suffix", "")


def name_sort_key(parts: NameParts, demote: str, short: bool = False,
                  given: str | None = None) -> str:
    """The sort key of one name, its parts in citeproc-js's order (spaces between them, which
    collation ignores): family (with its particle unless demoted), given (*given* when the
    name shows another form of it, such as initials), particles, suffix."""
    if parts.literal:
        return parts.literal
    if given is None:
        given = parts.given
    if demote == "never":  # the particle and the name joined by a space, even after d'
        family = " ".join(p for p in (parts.non_dropping, parts.family) if p)
        if short:
            return family
        return " ".join(p for p in (family, parts.dropping, given, parts.suffix) if p)
    if short:
        return parts.family
    return " ".join(p for p in (parts.family, given, parts.dropping, parts.non_dropping,
                                parts.suffix) if p)


@dataclass
class NameSpec:
    and_term: str | None = None
    delimiter: str = ", "
    precedes_et_al: str = "contextual"
    precedes_last: str = "contextual"
    #: delimiter-precedes-last of the section or style, not of cs:name (see _and_joint)
    inherited_precedes_last: str = "contextual"
    #: the delimiter before a last name that is an institution: cs:name's own, not one
    #: inherited from the section or style (as citeproc-js: "Mahase, E., World Health
    #: Organization" under name-delimiter="; ")
    institution_delimiter: str = ", "
    et_al_min: int = 0
    et_al_use_first: int | None = None  # 0 shows no names at all (as citeproc-js)
    et_al_subsequent_min: int = 0
    et_al_subsequent_use_first: int | None = None
    et_al_use_last: bool = False
    form: str = "long"
    initialize: bool = True
    initialize_with: str | None = None
    sort_order: str | None = None
    sort_separator: str = ", "
    decor: Decor | None = None  #: of each name
    institution_decor: Decor | None = None  #: of each literal name: no affixes
    family_decor: Decor | None = None
    given_decor: Decor | None = None
    family_affixes: tuple[str, str] = ("", "")
    given_affixes: tuple[str, str] = ("", "")
    #: an institution's family part: cs:name's own, not one its cs:substitute sets (as citeproc-js)
    institution_family_decor: Decor | None = None
    institution_family_affixes: tuple[str, str] = ("", "")
    #: CSL-M: the cs:institution beside cs:name (None: the style has none)
    institution: InstitutionSpec | None = None
    #: CSL-M: a list of at least suppress-min names, or of at most suppress-max, is not
    #: written (None: no such limit; suppress-min="0" leaves out persons with affiliations)
    suppress_min: int | None = None
    suppress_max: int = 0

    def suppresses(self, count: int) -> bool:
        """Whether a list of *count* names is not written (suppress-min, suppress-max)."""
        return bool(self.suppress_min and count >= self.suppress_min
                    or self.suppress_max and count <= self.suppress_max)

    @property
    def shows_no_names(self) -> bool:
        """Whether an et-al rule may leave no name to show (et-al-use-first="0")."""
        return self.et_al_use_first == 0 or self.et_al_subsequent_use_first == 0

    @classmethod
    def from_attrs(cls, attrs: Mapping[str, str], parts: Mapping[str, dict[str, str]],
                   inherited: Mapping[str, str] | None = None,
                   own_family: dict[str, str] | None = None,
                   institution: InstitutionSpec | None = None) -> NameSpec:
        def number(name: str, default: int | None = None) -> int | None:
            try:
                return int(attrs[name]) if name in attrs else default
            except ValueError:
                return default

        et_al_min, use_first = number("et-al-min") or 0, number("et-al-use-first")
        return cls(
            and_term=attrs.get("and"),
            delimiter=attrs.get("delimiter", attrs.get("name-delimiter", ", ")),
            institution_delimiter=attrs.get("delimiter", ", "),
            precedes_et_al=attrs.get("delimiter-precedes-et-al", "contextual"),
            precedes_last=attrs.get("delimiter-precedes-last", "contextual"),
            inherited_precedes_last=(attrs if inherited is None else inherited).get(
                "delimiter-precedes-last", "contextual"),
            et_al_min=et_al_min,
            et_al_use_first=use_first,
            et_al_subsequent_min=number("et-al-subsequent-min", et_al_min) or 0,
            et_al_subsequent_use_first=number("et-al-subsequent-use-first", use_first),
            et_al_use_last=attrs.get("et-al-use-last") == "true",
            form=attrs.get("form", attrs.get("name-form", "long")),
            initialize=attrs.get("initialize", "true") == "true",
            initialize_with=attrs.get("initialize-with"),
            sort_order=attrs.get("name-as-sort-order"),
            # (as citeproc-js: a sort-separator ending in two spaces writes one of them)
            sort_separator=_one_trailing_space(attrs.get("sort-separator", ", ")),
            decor=decor_of({k: v for k, v in attrs.items() if k not in ("delimiter",)}, allow_quotes=False),
            # (as citeproc-js: an institution takes no affixes and no vertical-align)
            institution_decor=decor_of({k: v for k, v in attrs.items()
                                        if k not in ("delimiter", "prefix", "suffix", "vertical-align")},
                                       allow_quotes=False),
            family_decor=_unaffixed_decor(parts.get("family", {})),
            given_decor=_unaffixed_decor(parts.get("given", {})),
            family_affixes=_affixes(parts.get("family", {})),
            given_affixes=_affixes(parts.get("given", {})),
            institution_family_decor=_unaffixed_decor(parts.get("family", {}) if own_family is None else own_family),
            institution_family_affixes=("", ""),
            institution=institution,
            suppress_min=number("suppress-min"),
            suppress_max=number("suppress-max") or 0,
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
    __slots__ = ("_part_styles", "inherits_name", "options", "reach", "spec", "substitute", "variables")
    keeps_place = True

    def __init__(self, decor: Decor | None, variables: list[str], spec: NamesSpec, substitute: list[Element],
                 options: Any, inherits_name: bool = False) -> None:
        super().__init__(decor)
        self.variables = variables
        self.spec = spec
        #: a cs:names of a cs:substitute without a cs:name of its own: as citeproc-js, it renders
        #: as the cs:names it substitutes for, in that one's formatting and affixes, not its own
        self.inherits_name = inherits_name
        self.substitute = substitute
        self.options = options
        self._part_styles: dict[int, NameSpec] = {}  # by the cs:name of the names substituted for
        # (a count writes "0" for a sort key without the names: see content)
        self.reach = reach.UNKNOWN if spec.name.form == "count" else reach.names(variables, _candidate_reaches(substitute))

    def render(self, ctx: RenderContext) -> Node | None:
        node: Node | None
        first = ctx.names_seen == 0 and not ctx.in_substitute and not ctx.sorting
        if first:
            ctx.names_seen += 1
            ctx.capture_names = True
            if ctx.rendered_any:  # as citeproc-js: names after the entry's start are not replaced
                ctx.sas = None  # by subsequent-author-substitute ("Beta, by Jane Roe")
        # a cs:names in cs:substitute without a cs:name of its own renders in its parent's
        # affixes and formatting, not in its own (as citeproc-js; see inherits_name)
        bare, ctx.bare_names = ctx.bare_names, False
        ctx.substituted_in_own = ctx.substituted_by_term = False
        node = self.content(ctx)
        if first and node is not None and ctx.abbreviations and ctx.item.get("type") == "classic":
            node = self._classic(node, ctx)
        in_own, ctx.substituted_in_own = ctx.substituted_in_own, False
        if first and ctx.capture_names:  # substituted by a non-name element: compare its text
            ctx.capture_names = False
            # (as citeproc-js: not a term's, "Anon." stays "Anon." on every entry)
            if node is not None and not ctx.substituted_by_term:
                ctx.first_names_text = plain(node)
                ctx.first_name_texts = [ctx.first_names_text]
                sas = ctx.sas
                if sas is not None and ctx.first_names_text == sas.previous_text:
                    node = sas.text or None
        # as citeproc-js: the affixes and formatting of cs:names go on names, not on the text
        # of a non-names element substituting for them, nor on a cs:names with a cs:name of
        # its own (which renders in its own; one without renders in these, see inherits_name)
        if self.decor and node is not None and not in_own and not bare:
            node = self.decor.apply(node, ctx)
        if first and node is not None:
            ctx.first_names = node
            if ctx.suppress_author:
                return None
        elif node is not None and ctx.suppress_author and ctx.first_names is None \
                and not ctx.in_substitute and not ctx.sorting:
            # as citeproc-js: suppress-author takes the first names written, after empty ones
            ctx.first_names = node
            return None
        if node is None and not ctx.in_substitute:
            ctx.rendered_any = True  # as citeproc-js: a term after empty names is no leading term
        return node

    def _classic(self, node: Node, ctx: RenderContext) -> Node:
        """CSL-M, as citeproc-js: the names of a classic ("Blackstone") are replaced by the
        lists' "classic" short form of names and title ("Blackstone, Commentaries": "Bl
        Comm"), and the title is then not written."""
        key = ", ".join(part for part in (ctx.first_names_text or plain(node), stringify(ctx.item.get("title") or ""))
                        if part)
        listed = listed_form(ctx.abbreviations, "classic", key)
        if listed is None:
            return node
        ctx.suppressed.add("title")
        return parse_markup(listed.text)

    def content(self, ctx: RenderContext) -> Node | None:
        ctx.vars_called += 1
        lists: list[tuple[str, list[Mapping[str, Any]]]] = []
        held_back = False  # a list suppress-min or suppress-max keeps from being written
        for variable in self.variables:
            value = None if variable in ctx.suppressed else ctx.item.get(variable)
            if isinstance(value, list) and value:
                if self.spec.name.suppresses(len(value)):
                    held_back = True
                else:
                    lists.append((variable, value))
        if len(lists) >= 2:
            roles = [role for role, _ in lists]
            if "editor" in roles and "translator" in roles and ctx.locale.term("editortranslator"):
                editors = dict(lists)["editor"]
                if editors == dict(lists)["translator"]:
                    index = roles.index("editor")
                    lists = [(r, v) for r, v in lists if r not in ("editor", "translator")]
                    lists.insert(min(index, len(lists)), ("editortranslator", editors))
        if not lists:
            if held_back:  # (as citeproc-js: no substitute for them)
                return None
            node = self._substitute(ctx)
            if node is None and ctx.sorting and self.spec.name.form == "count":
                ctx.vars_found += 1  # as citeproc-js: no names count as 0 in a sort key
                return "0"
            return node
        if self.spec.name.shows_no_names:  # et-al-use-first="0": an empty rendering, no substitute
            at = ctx.name_lists if ctx.mode == "citation" and not ctx.sorting else None
            lists = [(role, names) for n, (role, names) in enumerate(lists)
                     if self._shown(names, ctx, None if at is None else at + n)[0]]
            if not lists:
                return None
        ctx.vars_found += 1
        if ctx.in_substitute:  # a variable substituted once is not rendered again
            ctx.suppressed.update(variable for variable in self.variables)
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
        # a cs:names inside a substitute may substitute in turn (styles nest them to suppress
        # what they render, as citeproc-js allows); only the same element cannot recur
        if not self.substitute or self in ctx.substituting:
            return None
        outer = ctx.in_substitute
        ctx.in_substitute = True
        ctx.substituting.append(self)
        try:
            for child in _candidates(self.substitute, ctx):
                before = set(ctx.suppressed)
                found = ctx.vars_found
                inheriting = isinstance(child, NamesNode) and child.inherits_name
                ctx.bare_names = inheriting
                node = child.render(ctx)
                if (node is None or is_empty(node)) and isinstance(child, TextTerm):
                    return None  # a term ends the substitution, even an empty one (as citeproc-js)
                if node is not None and not is_empty(node):
                    ctx.dates.clear()  # variables rendered by the substitute are suppressed now
                    ctx.substituted_in_own = not inheriting
                    # (no variable it rendered is suppressed now: it rendered only terms)
                    ctx.substituted_by_term = ctx.suppressed <= before
                    return node
                ctx.suppressed = before
                ctx.vars_found = found
        finally:
            ctx.in_substitute = outer
            ctx.substituting.pop()
        return None

    def _limits(self, ctx: RenderContext) -> tuple[int, int | None, bool]:
        spec = self.spec.name
        if ctx.sorting and ctx.sort_etal is not None:
            sort = ctx.sort_etal
            return (sort.min if sort.min is not None else spec.et_al_min,
                    sort.use_first if sort.use_first is not None else spec.et_al_use_first,
                    sort.use_last if sort.use_last is not None else spec.et_al_use_last)
        if ctx.mode == "citation" and ctx.position != "first":
            return spec.et_al_subsequent_min, spec.et_al_subsequent_use_first, spec.et_al_use_last
        return spec.et_al_min, spec.et_al_use_first, spec.et_al_use_last

    def _shown(self, names: list[Mapping[str, Any]], ctx: RenderContext,
               index: int | None = None) -> tuple[list[Mapping[str, Any]], bool]:
        """The names of a list shown and whether it is cut (et al.); *index*, the list's place
        among those the citation renders, gives the count registration found (see
        ``Processor._register_name_counts``)."""
        et_al_min, use_first, use_last = self._limits(ctx)
        override = ctx.disamb.et_al_use_first
        if et_al_min and len(names) >= et_al_min and use_first is not None:
            if ctx.mode == "citation":
                if override is not None:
                    use_first = max(use_first, override)
                registered = ctx.disamb.registered_names
                if index is not None and index < len(registered) and not ctx.registering:
                    use_first = max(use_first, registered[index])
            if use_last and 0 < et_al_min - 2 < use_first:
                use_first = et_al_min - 2  # as citeproc-js: room for the ellipsis and the last name
            if use_first < len(names):
                return names[:use_first], True
        return names, False

    def _render_list(self, role: str, names: list[Mapping[str, Any]], ctx: RenderContext) -> Node | None:
        spec = self.spec
        name_spec = spec.name
        index = None
        if ctx.mode == "citation" and not ctx.sorting:
            index = ctx.name_lists
            ctx.name_lists += 1
        shown, truncated = self._shown(names, ctx, index)
        added: list[list[tuple[dict[str, Any], str]]] = []
        if ctx.languages is not None and _multilingual(shown, ctx):
            forms = [name_forms(raw, ctx.item, ctx.languages, ctx.locale.options, sorting=ctx.sorting,
                                supplements=supplements_shown(ctx.languages, ctx.mode, ctx.position == "first", role))
                     for raw in shown]
            shown, added = [found[0][0] for found in forms], [found[1:] for found in forms]
        if ctx.registering:
            ctx.disamb.registered_names += (len(shown),)
        cut_short = not truncated and _cut_short(role, ctx.item)
        truncated = truncated or cut_short
        _, _, use_last = self._limits(ctx)
        if ctx.sorting:
            keys = [self._sort_key(n, ctx) for n in shown]
            if truncated and use_last and len(names) - len(shown) >= 2:
                keys.append(self._sort_key(names[-1], ctx))
            return " ".join(keys)
        if ctx.affiliations and any(parse_name(n).literal for n in names):
            return self._with_label(role, len(names), self._affiliated(names, ctx), ctx)
        parts = [parse_name(n) for n in shown]
        # (as citeproc-js: a name given as "John, et al." ends its list in the et-al term)
        truncated = truncated or any(p.et_al for p in parts)
        rendered = [self._render_name(p, raw, i, ctx) for i, (p, raw) in enumerate(zip(parts, shown))]
        for i, others in enumerate(added):
            if others and ctx.languages is not None:
                rendered[i] = Rich([rendered[i], *(self._added_form(name, form, i, ctx.languages, ctx)
                                                   for name, form in others)])
        rendered = self._subsequent_author(rendered, shown, ctx)
        inverted = [self._inverted(i, p) for i, p in enumerate(parts)]
        if cut_short and not ctx.locale.term(spec.et_al_term):  # no et-al term: an ellipsis
            rendered[-1] = Rich([rendered[-1], " \u2026"])
        out: list[Node] = []
        count = len(rendered)
        and_text = _and_text(name_spec.and_term, ctx)
        # as citeproc-js: the delimiter between two names does not merge its punctuation with
        # cs:name's suffix ("Gilbert, S.D.,, Rambo, R.P.,"), the joint before "and" or et al. does
        joint = LiteralText if name_spec.decor is not None and name_spec.decor.suffix else str
        for i, node in enumerate(rendered):
            if i > 0:
                last = i == count - 1
                if last and and_text and not truncated:
                    out.append(self._and_joint(and_text, count, inverted[i - 1], bool(parts[i].literal)))
                elif last and not truncated and name_spec.delimiter.endswith(" ") \
                        and isinstance(node, Rich) and type(node.kids[0]) is str \
                        and node.kids[0].startswith(" "):
                    # as citeproc-js: the space that ends the delimiter before the last name
                    # and the one its cs:name prefix starts with are both written (not before
                    # the last name shown of a list cut short)
                    # (two pieces, as citeproc-js writes them: HTML shows two plain spaces)
                    node.kids[0] = node.kids[0][1:]  # (a rendering of its own, see _render_name)
                    out.extend((name_spec.delimiter, KeptLead(" ")))
                elif last and not truncated and parts[i].literal:
                    out.append(_institution_delimiter(name_spec))
                elif (last and not truncated) or not name_spec.delimiter.endswith("  "):
                    out.append(joint(name_spec.delimiter))
                else:
                    # as citeproc-js: a delimiter ending in two spaces loses one between the
                    # names before the last join ("Aa - Bb - Cc -  Dd")
                    out.append(joint(_one_trailing_space(name_spec.delimiter)))
            out.append(node)
        with_et_al = False
        if truncated:
            if use_last and len(names) - len(shown) >= 2:
                last_parts = parse_name(names[-1])
                # (as citeproc-js: after a single name, a space, not the delimiter)
                out.append((name_spec.delimiter if len(shown) > 1 else " ") + "\u2026 ")
                out.append(self._render_name(last_parts, names[-1], len(names) - 1, ctx))
            else:
                with_et_al = True  # (an empty term too: citeproc-js nests the formatting all the same)
                out.extend(self._et_al(len(shown), inverted[len(shown) - 1], ctx))
        listed: Node = Rich(out) if len(out) > 1 else out[0]
        if with_et_al and name_spec.decor is not None:
            # citeproc-js also sets cs:name's formatting and affixes around the names and
            # "et al." together ("[[Alamri] et al.]")
            decor = name_spec.decor
            if decor.fmt:
                # (a "normal" of an attribute the et-al term sets is written: see KeptNormal)
                et_al_fmt = spec.et_al_decor.fmt if spec.et_al_decor is not None and spec.et_al_decor.fmt else {}
                kept = {attr: value for attr, value in decor.fmt.items()
                        if value == "normal" and et_al_fmt.get(attr, "normal") != "normal"}
                rest = {attr: value for attr, value in decor.fmt.items() if attr not in kept}
                if kept:
                    listed = KeptNormal([listed], kept)
                if rest:
                    listed = Rich([listed], rest)
            if decor.prefix or decor.suffix:
                listed = Rich([decor.prefix, listed, decor.suffix])
        names_node: Node | None = listed
        if ctx.capture_names:
            # subsequent-author-substitute compares and replaces the names, not their label
            ctx.capture_names = False
            ctx.first_names_text = plain(names_node)
            sas = ctx.sas
            if sas is not None and sas.rule == "complete-all" and tuple(ctx.first_name_texts) == sas.previous_names:
                names_node = sas.text or None
        return self._with_label(role, len(names), names_node, ctx)

    def _with_label(self, role: str, count: int, node: Node | None, ctx: RenderContext) -> Node | None:
        """A list's names with their cs:label, before or after them."""
        if node is None or not self.spec.label:
            return node
        label = self._label(role, count, ctx)
        if label is None:
            return node
        return Rich([label, node]) if self.spec.label.before else Rich([node, label])

    def _et_al(self, shown: int, inverted_last: bool, ctx: RenderContext) -> list[Node]:
        """The et-al term after *shown* names, with what goes before it."""
        spec = self.spec
        term = ctx.locale.term(spec.et_al_term) or ""
        if not term:
            return []
        out: list[Node] = []
        term_node: Node = term
        if _delimiter_applies(spec.name.precedes_et_al, shown + 1, inverted_last):
            out.append(spec.name.delimiter)
            # (as citeproc-js: a term starting with a space keeps it, ",  – al.")
            term_node = KeptLead(term)
        elif _STARTS_ROMANESQUE_RE.match(term):
            out.append(Delimiter(" "))  # (a CJK or Hebrew term joins the last name directly)
        if spec.et_al_decor:
            term_node = spec.et_al_decor.apply(term_node, ctx, string_leaf=True) or ""
        out.append(term_node)
        return out

    def _affiliated(self, names: list[Mapping[str, Any]], ctx: RenderContext) -> Node | None:
        """Names as citeproc-js writes them with affiliations (see make_processor): the
        persons before each institution are joined to it ("Roe, Big Ministry"), the sets so
        made joined as institutions are; persons after the last institution are written
        first, "with" the sets. Each list is cut by the et-al rules on its own."""
        parsed = [parse_name(n) for n in names]
        name_spec = self.spec.name
        inst = name_spec.institution
        if name_spec.suppress_min == 0:  # (as citeproc-js: the persons are left out)
            keep = [i for i, parts in enumerate(parsed) if parts.literal]
            names, parsed = [names[i] for i in keep], [parsed[i] for i in keep]
        elif inst is not None and inst.suppress_min == 0:  # the institutions are left out
            end = len(parsed)
            while end and not parsed[end - 1].literal:
                end -= 1
            keep = [i for i in range(end, len(parsed))] + [i for i in range(end) if not parsed[i].literal]
            names, parsed = [names[i] for i in keep], [parsed[i] for i in keep]
        end = len(parsed)
        while end and not parsed[end - 1].literal:
            end -= 1
        sets: list[tuple[list[int], int]] = []
        members: list[int] = []
        for i in range(end):
            if parsed[i].literal:
                sets.append((members, i))
                members = []
            else:
                members.append(i)
        kept, sets_cut = self._cut(sets, ctx)
        set_nodes: list[Node] = []
        for members, i in kept:
            institution = self._render_name(parsed[i], names[i], i, ctx)
            persons = self._persons(members, parsed, names, ctx)
            set_nodes.append(Rich([persons, name_spec.delimiter, institution]) if persons is not None
                             else institution)
        # (as citeproc-js: a cs:institution without "and" of its own joins in the "and" term;
        # without a cs:institution, in cs:name's)
        and_term = name_spec.and_term if inst is None else inst.and_term or "text"
        institutions = self._joined(set_nodes, [False] * len(set_nodes), sets_cut, ctx, and_term, True)
        freeters = self._persons(list(range(end, len(names))), parsed, names, ctx)
        if freeters is None:
            return institutions
        rule = name_spec.precedes_last
        joint = (self.spec.delimiter if rule in ("always", "after-inverted-name") else " ") + "with "
        return Rich([freeters, joint, institutions]) if institutions is not None else freeters

    def _persons(self, indices: list[int], parsed: list[NameParts], names: list[Mapping[str, Any]],
                 ctx: RenderContext) -> Node | None:
        """Persons of an affiliated list (see _affiliated), cut by the et-al rules."""
        shown, cut = self._cut(indices, ctx)
        return self._joined([self._render_name(parsed[i], names[i], i, ctx) for i in shown],
                            [self._inverted(i, parsed[i]) for i in shown], cut, ctx, self.spec.name.and_term)

    def _cut(self, entries: list[Any], ctx: RenderContext) -> tuple[list[Any], bool]:
        """*entries* as the et-al rules cut them, and whether they did."""
        et_al_min, use_first, _ = self._limits(ctx)
        if et_al_min and use_first is not None and et_al_min >= use_first and len(entries) >= et_al_min \
                and use_first < len(entries):
            return entries[:use_first], True
        return entries, False

    def _joined(self, nodes: list[Node], inverted: list[bool], cut: bool, ctx: RenderContext,
                and_term: str | None, institutions: bool = False) -> Node | None:
        """Names (or sets of an affiliated list, *institutions*) joined, in "and" or, when
        *cut*, et al."""
        if not nodes:
            return None
        delimiter = self.spec.name.delimiter
        and_text = None if cut else _and_text(and_term, ctx)
        out: list[Node] = []
        for i, node in enumerate(nodes):
            if i:
                last = i == len(nodes) - 1
                out.append(self._and_joint(and_text, len(nodes), inverted[i - 1], institutions) if last and and_text
                           else delimiter)
            out.append(node)
        if cut:
            out.extend(self._et_al(len(nodes), inverted[-1], ctx))
        return Rich(out)

    def _added_form(self, name: dict[str, Any], form: str, index: int, ml: Multilingual,
                    ctx: RenderContext) -> Node:
        """CSL-M: another form of a name, after the first between its affixes (a space when
        none), an institution's upright and not bold, as citeproc-js."""
        parts = parse_name(name)
        prefix, suffix = ml.prefs.affix("institutions" if parts.literal else "persons", form)
        node: Node = Rich([prefix or " ", self._render_name(parts, name, index, ctx), suffix])
        return Rich([node], {"font-style": "normal", "font-weight": "normal"}) if parts.literal else node

    def _and_joint(self, and_text: str, count: int, inverted_before: bool, institution: bool) -> str:
        """What goes before the last name: delimiter or space, the "and" term, a space.

        As citeproc-js, a term that does not start with a Latin-like letter (CJK, Hebrew "ו")
        takes no spaces, and no delimiter unless delimiter-precedes-last="always" for two names.
        Before a literal name (an institution) citeproc-js takes delimiter-precedes-last from
        the section or style, not from cs:name, and knows only "always" and "never" there (and
        "after-inverted-name" of cs:name): "Smith, J. and World Health Organization" in a style
        whose cs:name says "always"."""
        name_spec = self.spec.name
        if not _STARTS_ROMANESQUE_RE.match(and_text):
            always = name_spec.precedes_last == "always" and count == 2
            return (name_spec.delimiter if always else "") + and_text
        if institution:
            own = name_spec.institution.precedes_last if name_spec.institution is not None else None
            rule = own or name_spec.inherited_precedes_last
            delimited = rule == "always" or (rule != "never" and count > 2) or (
                name_spec.precedes_last == "after-inverted-name" and inverted_before)
            before = _institution_delimiter(name_spec) if delimited else " "
            return before + and_text + " "
        if _delimiter_applies(name_spec.precedes_last, count, inverted_before):
            return name_spec.delimiter + and_text + " "
        if count > 2 and not name_spec.delimiter:
            # as citeproc-js: before the last of three names or more, the delimiter's place
            # takes a space only where cs:name's delimiter is not empty ("J. GuyJ. Bowerset
            # W.B. Gillock" under delimiter="" and delimiter-precedes-last="never")
            return and_text + " "
        return " " + and_text + " "

    def _label(self, role: str, count: int, ctx: RenderContext) -> Node | None:
        label = self.spec.label
        assert label is not None
        plural = count > 1 if label.plural == "contextual" else label.plural == "always"
        text = ctx.locale.term(role, label.form, plural)
        if not text:
            return None
        node: Node = parse_markup(text)
        return label.decor.apply(node, ctx, string_leaf=True) if label.decor else node

    def _subsequent_author(self, rendered: list[Node], shown: list[Mapping[str, Any]],
                           ctx: RenderContext) -> list[Node]:
        """Per-name subsequent-author-substitute (complete-each, partial-each, partial-first).
        As citeproc-js, names are compared by what they are, not by how they are shown: "Doe,
        J." for John and for John-boy Doe are two authors."""
        if not ctx.capture_names:
            return rendered
        texts = ["".join(str(name.get(part) or "") for part in SAS_NAME_PARTS) for name in shown]
        ctx.first_name_texts = texts
        sas = ctx.sas
        if sas is None or sas.rule == "complete-all":
            return rendered
        previous = sas.previous_names
        if sas.rule == "complete-each":
            return [sas.text] * len(rendered) if tuple(texts) == previous else rendered
        out = list(rendered)
        limit = 1 if sas.rule == "partial-first" else len(out)
        for i in range(min(limit, len(out), len(previous))):
            if texts[i] != previous[i]:
                break
            out[i] = sas.text
        return out

    def _inverted(self, index: int, parts: NameParts) -> bool:
        if parts.literal:
            return False
        order = self.spec.name.sort_order
        return order == "all" or (order == "first" and index == 0)

    def _givenname_level(self, parts: NameParts, ctx: RenderContext) -> int:
        if ctx.mode != "citation":
            if ctx.sorting:  # the bibliography's sort keys are found before disambiguation
                return 0
            # as citeproc-js: a document-wide rule's level shows where it is above the name's
            # own (a long name with initialize-with shows initials anyway)
            level = ctx.disamb.global_givenname_levels.get((parts.family, parts.given), 0)
            return 0 if self.spec.name.form == "long" and level < 2 else level
        return ctx.disamb.givenname_levels.get((parts.family, parts.given), ctx.disamb.default_givenname_level)

    def _sort_key(self, raw: Mapping[str, Any], ctx: RenderContext) -> str:
        """A name in a sort macro: family first, given name as the macro shows it (initials)."""
        parts = parse_name(raw)
        given = self._given_text(parts, ctx)
        return name_sort_key(parts, self.options.demote_non_dropping_particle, given is None, given)

    def _render_name(self, parts: NameParts, raw: Mapping[str, Any], index: int, ctx: RenderContext) -> Node:
        """One name with cs:name's formatting, and its affixes unless it is an institution (a
        literal name), as citeproc-js applies them: to each name, not to the list."""
        node = self._name_node(parts, index, ctx)
        if not parts.literal:
            node = PersonName([node])
        if ctx.highlight is not None and ctx.highlight(raw):
            node = Rich([node], {"font-weight": "bold"} if getattr(ctx.highlight, "style", "bold") == "bold"
                        else {"text-decoration": "underline"})
        spec = self.spec.name
        if parts.literal and spec.institution is not None:
            return node  # (as citeproc-js: cs:institution's formatting, not cs:name's)
        decor = spec.institution_decor if parts.literal else spec.decor
        if parts.literal and decor is not None and decor.fmt:
            family = (self._with_substituted_parts(spec, ctx.substituting[0]) if ctx.substituting
                      else spec).institution_family_decor
            if family is not None and family.fmt:
                # as citeproc-js: an institution is formatted once, with cs:name's formatting
                # and the family part's, which wins for an attribute both set
                merged = {**decor.fmt, **family.fmt}
                decor = copy.copy(decor)
                decor.fmt = {name: merged[name] for name in FORMAT_ATTRS if name in merged}
        # (as citeproc-js: an institution is one written string, not italicized when it has
        # no Latin, Greek, Cyrillic... letter, see Decor.apply)
        return (decor.apply(node, ctx, string_leaf=bool(parts.literal)) or node) if decor is not None else node

    def _institution(self, literal: str, inst: InstitutionSpec, delimiter: str, ctx: RenderContext) -> Node:
        """An institution as its cs:institution writes it (see institutions.py): its long
        subunits, its short ones, or both, joined by a space."""
        forms = institution_forms(inst, literal, ctx.abbreviations, stringify(ctx.item.get("jurisdiction") or ""))
        separator = delimiter if inst.separator is None else inst.separator
        long = _subunits_node(forms.long, inst.long_style(forms), separator, ctx)
        short = _subunits_node(forms.short, inst.short_decor, separator, ctx)
        if inst.parts == "short":
            pieces = [short] if forms.short else [long]
        elif inst.parts == "short-long":
            pieces = [short, long]
        elif inst.parts == "long-short":
            pieces = [long, short]
        else:
            pieces = [long]
        out: list[Node] = []
        for piece in pieces:
            if piece is not None:
                out.extend((" ", piece) if out else (piece,))
        return Rich(out)

    def _with_substituted_parts(self, spec: NameSpec, outer_node: object) -> NameSpec:
        """As citeproc-js: names written for a cs:names they substitute for (directly or in a
        macro) take its cs:name-part formatting for the parts their own cs:name leaves alone."""
        if not isinstance(outer_node, NamesNode) or outer_node is self:
            return spec
        outer = outer_node.spec.name
        found = self._part_styles.get(id(outer))  # both belong to one compiled style
        if found is None:
            changes: dict[str, Any] = {}
            for part in ("family", "given", "institution_family"):
                if getattr(spec, f"{part}_decor") is None and getattr(spec, f"{part}_affixes") == ("", ""):
                    changes[f"{part}_decor"] = getattr(outer, f"{part}_decor")
                    changes[f"{part}_affixes"] = getattr(outer, f"{part}_affixes")
            found = self._part_styles[id(outer)] = replace(spec, **changes) if changes else spec
        return found

    def _given_text(self, parts: NameParts, ctx: RenderContext) -> str | None:
        """The given name as this rendering shows it (None: not shown), honouring disambiguation."""
        spec = self.spec.name
        if parts.full_form:  # CSL-M: a name of a language the locale never shortens
            return parts.given
        level = self._givenname_level(parts, ctx)
        if spec.form == "short" and level == 0:
            return None
        given = parts.given
        terminator = spec.initialize_with
        if terminator is None and level == 1 and self.options.disambiguation_initials:
            terminator = ""  # (as citeproc-js: "Riegert-Johnson, D")
        if terminator is not None and given and level < 2 and not (spec.form == "long" and level >= 1):
            given = initialize(given, terminator, spec.initialize, self.options.initialize_with_hyphen)
        return given

    def _suffix_text(self, suffix: str) -> str:
        """A name suffix; with initialize-with, normalized as initials are ("Jr." with an
        empty terminator is "Jr"), as citeproc-js."""
        terminator = self.spec.name.initialize_with
        if terminator is None:
            return suffix
        return initialize(suffix, terminator, False, self.options.initialize_with_hyphen)

    def _name_node(self, parts: NameParts, index: int, ctx: RenderContext) -> Node:
        spec = self.spec.name
        if ctx.substituting:
            spec = self._with_substituted_parts(spec, ctx.substituting[0])
        if parts.literal:
            if spec.institution is not None:
                return self._institution(parts.literal, spec.institution, spec.delimiter, ctx)
            # (without cs:institution, its subunits in full, joined by cs:name's delimiter)
            node = parse_markup(spec.delimiter.join(subunits(parts.literal)) if "|" in parts.literal
                                else parts.literal)
            part = spec.institution_family_decor
            if part is not None and part.fmt and spec.institution_decor is not None \
                    and spec.institution_decor.fmt:
                part = copy.copy(part)  # its formatting goes with cs:name's (_render_name)
                part.fmt = None
            return _affixed(part.apply(node, ctx, string_leaf=True) if part else node, spec.institution_family_affixes)
        given = self._given_text(parts, ctx)
        if not parts.family:  # a mononym given as the given name ("Banksy")
            return _affixed(_part(parts.given, spec.given_decor, ctx), spec.given_affixes)

        def fam(text: str) -> Node | None:
            return _part(text, spec.family_decor, ctx)

        def giv(text: str) -> Node | None:
            return _part(text, spec.given_decor, ctx)

        # as citeproc-js: particles join the family name with a no-break space when the style's
        # locale is French, Russian or Czech (not the space typed after "de'")
        typed = parts.spaced_particle and parts.non_dropping.endswith(("'", "\u2019"))
        space = "\u00a0" if ctx.locale.lang[:2] in _NBSP_LANGUAGES and not typed else " "
        family = _spaced([fam(parts.non_dropping), fam(parts.family)],
                         "" if parts.spaced_particle else parts.non_dropping, space)
        level = _romanesque_level(parts, ctx)
        demoted = self.options.demote_non_dropping_particle == "display-and-sort" and bool(parts.non_dropping)
        if given is None:
            if demoted and level == 2 and not parts.static and self._inverted(index, parts):
                # as citeproc-js: a name inverted without its given name still demotes its
                # particle ("Boer, de")
                return Rich([_affixed(fam(parts.family) or "", spec.family_affixes), spec.sort_separator,
                             _affixed(fam(parts.non_dropping) or "", spec.given_affixes)])
            return _affixed(family, spec.family_affixes)
        if level == 0:  # (as citeproc-js: the parts of a CJK name take their formatting, no affixes)
            return Rich([fam(parts.family) or "", giv(given) or ""])
        static = parts.static or level == 1
        suffix_sep = ", " if parts.comma_suffix else " "
        if self._inverted(index, parts) or static:
            sep = " " if static else spec.sort_separator
            if demoted:
                family = fam(parts.family)
                trailing = _spaced([giv(parts.dropping), fam(parts.non_dropping)], parts.dropping)
            else:
                trailing = giv(parts.dropping)
            given_block = _spaced([giv(given), trailing], given)
            if family is None:
                return _affixed(given_block, spec.given_affixes)
            pieces: list[Node] = [_affixed(family, spec.family_affixes)]
            if given_block is not None:
                pieces.extend([sep, _affixed(given_block, spec.given_affixes)])
            if parts.suffix:
                pieces.extend([sep if not static else " ", parse_markup(self._suffix_text(parts.suffix))])
            return Rich(pieces)
        # (as citeproc-js: the dropping particle takes the given name's formatting)
        family_block = _spaced([giv(parts.dropping), family], parts.dropping, space)
        if parts.suffix:
            family_block = Rich([family_block or "", suffix_sep, parse_markup(self._suffix_text(parts.suffix))])
        pieces = []
        if given:
            given_suffix = spec.given_affixes[1]
            pieces.extend([_affixed(giv(given) or "", spec.given_affixes),
                           "" if given_suffix[-1:].isspace()
                           else _given_space(self._givenname_level(parts, ctx), spec, space)])
        pieces.append(_affixed(family_block, spec.family_affixes))
        return Rich(pieces)


def _institution_delimiter(spec: NameSpec) -> str:
    """The delimiter before an institution written last: cs:institution's, else cs:name's own."""
    own = spec.institution.delimiter if spec.institution is not None else None
    return spec.institution_delimiter if own is None else own


def _subunits_node(units: list[str], decor: Decor | None, separator: str, ctx: RenderContext) -> Node | None:
    """Subunits of an institution, each in its cs:institution-part's formatting and affixes."""
    out: list[Node] = []
    for unit in units:
        if not written(unit):
            continue
        if out:
            out.append(separator)
        node = parse_markup(unit)
        out.append((decor.apply(node, ctx, string_leaf=True) or node) if decor is not None else node)
    return Rich(out) if out else None


def _and_text(and_term: str | None, ctx: RenderContext) -> str | None:
    """What cs:name's (or cs:institution's) and="text" / "symbol" writes."""
    if and_term == "text":
        return ctx.locale.term("and") or "and"
    return "&" if and_term == "symbol" else None


def _one_trailing_space(separator: str) -> str:
    """*separator* without the last of two spaces it ends with."""
    return separator[:-1] if separator.endswith("  ") else separator


def _given_space(level: int, spec: NameSpec, space: str) -> str:
    """The space between given name and family name. As citeproc-js: where particles take a
    no-break space (French...), a given name the style initializes (long form with an
    initialize-with, initialize="false" too; *level*, disambiguation's, not above initials)
    takes it when initialize-with holds one."""
    terminator = spec.initialize_with
    if spec.form == "long" and level < 2 and terminator and ("\u00a0" in terminator or "\ufeff" in terminator):
        return space
    return " "


def _candidate_reaches(children: list[Element]) -> list[Reach]:
    """The reaches of every element ``_candidates`` may offer (any branch of a choice; a
    choice with an effect: unknown)."""
    out: list[Reach] = []
    for child in children:
        if type(child) is Choose:
            if not child.reach.known:  # (a test with an effect, or a branch)
                out.append(reach.UNKNOWN)
            for _, branch in child.branches:
                out.extend(_candidate_reaches(branch))
        else:
            out.append(child.reach)
    return out


def _candidates(children: list[Element], ctx: RenderContext) -> Iterator[Element]:
    """The elements of cs:substitute to try in turn: a cs:choose offers each element of its
    branch as a candidate of its own (as citeproc-js), not the branch as one rendering."""
    for child in children:
        if type(child) is Choose:
            branch = child.branch(ctx)
            if branch:
                yield from _candidates(branch, ctx)
        else:
            yield child


def _multilingual(names: list[Mapping[str, Any]], ctx: RenderContext) -> bool:
    """Whether names are written through the multilingual layer: one has other forms, or
    the item has a language the locale writes names of in its own way (CSL-M)."""
    return any("multi" in name for name in names) or bool(
        ctx.item.get("language") and _LANGUAGE_NAME_OPTIONS.intersection(ctx.locale.options))


def _romanesque_level(parts: NameParts, ctx: RenderContext) -> int:
    """citeproc-js's script test of a name: 0 no Latin-like family name (CJK: "毛泽东"),
    1 mixed (written family name first, with a space: a Latin-like given name after a CJK
    family name, or any name of a Chinese or Japanese item), 2 Latin-like."""
    if not _ROMANESQUE_RE.search(parts.family.replace('"', "")):
        return 1 if parts.given and _STARTS_ROMANESQUE_RE.match(parts.given) else 0
    return 1 if str(ctx.item.get("language") or "")[:2] in ("ja", "zh") else 2


def _part(text: str, decor: Decor | None, ctx: RenderContext) -> Node | None:
    if not text:
        return None
    node = parse_markup(text)
    return decor.apply(node, ctx, string_leaf=True) if decor else node


def _spaced(nodes: list[Node | None], particle: str, space: str = " ") -> Node | None:
    """Join name pieces with *space* (none after a particle ending in an apostrophe or hyphen)."""
    present = [n for n in nodes if n is not None and n != ""]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    joiner = "" if particle.endswith(_PARTICLE_END) else space
    out: list[Node] = [present[0]]
    for node in present[1:]:
        out.extend([joiner, node])
    return Rich(out)


def _affixed(node: Node | None, affixes: tuple[str, str]) -> Node:
    if node is None:
        return ""
    if affixes == ("", ""):
        return node
    return Rich([affixes[0], node, affixes[1]])


def _delimiter_applies(rule: str, count: int, previous_inverted: bool) -> bool:
    """delimiter-precedes-last / -et-al: *count* names (et al. counting as one)."""
    if rule == "always":
        return True
    if rule == "never":
        return False
    if rule == "after-inverted-name":
        return previous_inverted
    return count > 2


def _cut_short(role: str, item: Mapping[str, Any]) -> bool:
    """Whether the item says its ``role`` list names only some of the people (a .bib's "and
    others", a profile page naming its owner alone; see ``INCOMPLETE_NAMES_KEY``): the names
    shown end in the et-al term (an ellipsis where the style has none), whatever the et-al
    rules, so that no output passes them off as the only authors."""
    return role in str(item.get(INCOMPLETE_NAMES_KEY) or "").split()
