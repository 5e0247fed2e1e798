"""CSL-M multilingual values: which form of a variable or a name a rendering shows.

As citeproc-js's multilingual layer: an item's ``multi._keys`` holds other forms of its
variables by language tag (``{"title": {"ja-Latn-alalc97": "Minpō"}}``), ``multi.main`` the
language of a variable's own value; a name's ``multi._key`` holds other forms of that name.
The style's ``default-locale`` lists the tags of its transliterations, translations and sort
forms (``en-US-x-translit-ja-alalc97-x-translat-en``); the caller chooses, for each kind of
variable, the form shown first and those added after it in brackets (citeproc-js's
``setLangPrefsForCites`` and ``setLangPrefsForCiteAffixes``). Without the caller's choice
every variable shows its own value, as citeproc-js. This module only chooses values; it
never renders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .localization import Locale, resolve_language
from .rendered import ROMANESQUE_CHARS

#: the kinds of variables a caller chooses forms for, in citeproc-js's order
SEGMENTS = ("persons", "institutions", "titles", "journals", "publishers", "places")
_FORM_ORDER = {"orig": 1, "translit": 2, "translat": 3}

#: the kind of each variable that has other forms (citeproc-js's LangPrefsMap)
SEGMENT_OF: Mapping[str, str] = {
    "title": "titles", "title-short": "titles", "event": "titles", "genre": "titles",
    "medium": "titles", "collection-title": "titles",
    "container-title": "journals", "archive": "journals",
    "publisher": "publishers", "authority": "publishers",
    "publisher-place": "places", "event-place": "places", "archive-place": "places",
    "jurisdiction": "places", "number": "places", "edition": "places", "issue": "places",
    "volume": "places",
}

#: the text variables read through the multilingual layer (citeproc-js's MULTI_FIELDS)
MULTI_FIELDS = frozenset((
    "archive", "archive_collection", "archive_location", "archive-place", "authority",
    "collection-title", "container-title", "country", "division", "edition", "event",
    "event-place", "event-title", "genre", "jurisdiction", "medium", "original-publisher",
    "original-publisher-place", "original-title", "part-title", "publisher", "publisher-place",
    "reviewed-genre", "reviewed-title", "section", "source", "title", "title-short", "volume-title",
))

#: the variables whose form="short" reads their "-short" partner first
_WITH_SHORT_FORM = frozenset(("title", "container-title"))
_PRIVATE_USE_RE = re.compile(r"-x-(sort|translit|translat)-")
_FIELD_LANGUAGE_RE = re.compile(r"^([a-zA-Z]{2})")


def _tag_order(tag: str) -> tuple[int, int]:
    """citeproc-js's order of a style's tags: more subtags first, then a longer last one."""
    parts = tag.split("-")
    return -len(parts), -len(parts[-1])


@dataclass(frozen=True)
class LanguageTags:
    """The tags of a style's transliterations, translations and sort forms, lowercase, in
    the order they are tried."""

    translit: tuple[str, ...] = ()
    translat: tuple[str, ...] = ()
    sort: tuple[str, ...] = ()

    def of(self, form: str) -> tuple[str, ...]:
        return getattr(self, form, ()) if form in ("translit", "translat", "sort") else ()


def split_default_locale(value: str) -> tuple[str, LanguageTags]:
    """A style's ``default-locale`` as its locale and its private-use tags, as citeproc-js
    reads it: ``en-US-x-translit-ja-alalc97-x-translat-en`` is en-US, transliterations
    tagged ja-alalc97, translations tagged en."""
    pieces = _PRIVATE_USE_RE.split(value)
    found: dict[str, list[str]] = {"translit": [], "translat": [], "sort": []}
    for kind, tag in zip(pieces[1::2], pieces[2::2]):
        found[kind].append(tag.strip().lower())
    tags = LanguageTags(*(tuple(sorted(found[kind], key=_tag_order)) for kind in ("translit", "translat", "sort")))
    return pieces[0], tags


@dataclass(frozen=True)
class LanguagePrefs:
    """The caller's choice: for each kind of variable, the form shown (orig, translit or
    translat) and up to two shown after it; the affixes of each form."""

    forms: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    affixes: Mapping[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    #: tags of transliterations, translations or sort forms that replace the style's
    tags: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, forms: Mapping[str, Sequence[str]] | None = None,
           affixes: Sequence[str | None] | None = None,
           tags: Mapping[str, Sequence[str]] | None = None) -> LanguagePrefs:
        """From citeproc-js's arguments: *forms* as ``setLangPrefsForCites`` takes them (a
        second and third form are put in the order orig, translit, translat), *affixes* its
        list of 48 for ``setLangPrefsForCiteAffixes`` (per kind: translit, orig, translit as
        supplement, translat; a prefix then a suffix each), *tags* by form (translit,
        translat, sort) as ``setLangTagsForCslTransliteration`` and its kin take them."""
        chosen: dict[str, tuple[str, ...]] = {}
        for segment in SEGMENTS:
            given = [str(form) for form in (forms or {}).get(segment) or ()]
            if not given:
                continue
            if len(given) == 3:  # the two added forms in the order orig, translit, translat
                given[1:] = sorted(given[1:], key=lambda form: _FORM_ORDER.get(form, 0))
            chosen[segment] = tuple(given)
        table: dict[tuple[str, str], tuple[str, str]] = {}
        if affixes is not None and len(affixes) == 48:
            for index, segment in enumerate(SEGMENTS):
                row = affixes[index * 8:index * 8 + 8]
                pairs = [(row[i] or "", (row[i + 1] or "") if row[i] else "") for i in range(0, 8, 2)]
                translit = pairs[0] if any(pairs[0]) else pairs[2]
                table.update({(segment, "translit"): translit, (segment, "orig"): pairs[1],
                              (segment, "translat"): pairs[3]})
        given_tags = {form: tuple(sorted((str(tag).lower() for tag in found), key=_tag_order))
                      for form, found in (tags or {}).items() if form in ("translit", "translat", "sort")}
        return cls(chosen, table, given_tags)

    def tags_over(self, style: LanguageTags) -> LanguageTags:
        """The style's tags, those the caller gives in their place."""
        return replace(style, **self.tags) if self.tags else style

    def slots(self, segment: str) -> tuple[str, ...]:
        return self.forms.get(segment, ("orig",))

    def affix(self, segment: str, form: str) -> tuple[str, str]:
        return self.affixes.get((segment, form), ("", ""))


@dataclass(frozen=True)
class Multilingual:
    """What a processor knows to choose forms: the caller's choice, the style's tags, the
    style's language (of a value without another), whether the style is a note style; and
    where the locale of a language comes from (a ``locale`` condition's, see nodes.Choose)."""

    prefs: LanguagePrefs
    tags: LanguageTags
    home: str
    note_style: bool
    locale_of: Callable[[str], Locale]


def language_matches(language: str, tags: Sequence[str]) -> bool:
    """As citeproc-js's ``locale`` tests (of a CSL-M layout and of cs:if): the language's best
    locale is one of the listed tags', or its bare language is listed bare (``en`` takes
    ``en-GB``)."""
    best = resolve_language(language)[1]
    bare = language.replace("_", "-").split("-")[0]
    return any(resolve_language(tag)[1] == best or (len(tag) == 2 and tag == bare) for tag in tags)


@dataclass(frozen=True, slots=True)
class TextForm:
    """One form of a value: its text, its language (lowercase), whether it is one of the
    item's other forms (a variant), and whether the original value stood in for one."""

    text: str
    language: str
    variant: bool = False
    used_orig: bool = False


def field_language(item: Mapping[str, Any], name: str, home: str) -> str:
    """The language of a variable's own value, as citeproc-js: ``multi.main`` for it, else
    the item's language (its first two letters), else the style's."""
    main = _multi(item).get("main")
    if isinstance(main, dict) and isinstance(main.get(name), str):
        return str(main[name]).lower()
    language = item.get("language")
    if language:
        match = _FIELD_LANGUAGE_RE.match(str(language))
        return match.group(1).lower() if match else "tlh"  # (citeproc-js's "Klingon" for garbage)
    return home


def _multi(item: Mapping[str, Any]) -> Mapping[str, Any]:
    multi = item.get("multi")
    return multi if isinstance(multi, dict) else {}


def _variant(item: Mapping[str, Any], name: str, tags: Sequence[str]) -> tuple[str, str] | None:
    """The first of the item's other forms of *name* a tag matches (a tag, else its first
    subtag), with the tag that matched."""
    keys = _multi(item).get("_keys")
    forms = keys.get(name) if isinstance(keys, dict) else None
    if not isinstance(forms, dict) or not forms:
        return None
    lowered = {str(tag).lower(): value for tag, value in forms.items() if isinstance(value, str) and value}
    for tag in tags:
        bare = re.split(r"[-_]", tag)[0]
        for tried in (tag, bare):
            if tried and tried in lowered:
                return lowered[tried], tried
    return None


def text_form(item: Mapping[str, Any], name: str, form: str, ml: Multilingual, *, fallback: bool,
              stop_orig: bool = False, short: bool = False) -> TextForm:
    """The *form* (orig, translit, translat or sort) of variable *name*, as citeproc-js's
    ``getTextSubField``: a form the item lacks falls back to the original when *fallback*;
    *stop_orig* (the original is shown already) leaves the original out; *short* reads the
    variable's "-short" partner first. A short partner without the form gives the long
    variable's form, else the partner's own value."""
    if not item.get(name):
        return TextForm("", "", used_orig=stop_orig)
    sticky = short and name in _WITH_SHORT_FORM
    if sticky:
        name += "-short"
    tried = [name, name[:-6]] if name.endswith("-short") else [name]
    tags = ml.tags.of(form)
    first: TextForm | None = None
    found = TextForm("", "", used_orig=stop_orig)
    for index, field_name in enumerate(tried):
        own = TextForm(str(item.get(field_name) or ""), field_language(item, field_name, ml.home), used_orig=True)
        if form == "orig":
            found = TextForm("" if stop_orig else own.text, own.language, used_orig=stop_orig)
        elif tags:
            variant = _variant(item, field_name, tags)
            if variant is not None:
                return TextForm(variant[0], variant[1], variant=True, used_orig=stop_orig)
            found = own if fallback else TextForm("", "", used_orig=stop_orig)
            if index and not sticky:  # the short partner's own value stands
                return first or found
        else:  # (no tags for the form: the original, if it may stand in)
            found = own if fallback else TextForm("", "", used_orig=stop_orig)
        if index == 0 and not sticky and (form == "orig" or not tags):
            return found
        first = first or found
    return found if sticky else (first or found)


def supplements_shown(ml: Multilingual, mode: str, position_first: bool, name: str) -> bool:
    """Whether forms are added after the first: in a bibliography, and in the first cite
    of an item in a note style's citation (never for title-short), as citeproc-js."""
    if name == "title-short":
        return False
    return mode == "bibliography" or (mode == "citation" and ml.note_style and position_first)


def text_forms(item: Mapping[str, Any], name: str, ml: Multilingual, *, short: bool, sorting: bool,
               supplements: bool) -> list[tuple[TextForm, str]]:
    """The forms of variable *name* a rendering shows, each with the form it is (orig,
    translit, translat; sort when *sorting*): the first, then those added after it (when
    *supplements*), each once and not the same as the first."""
    if sorting:
        return [(text_form(item, name, "sort", ml, fallback=True, short=short), "sort")]
    segment = SEGMENT_OF.get(name)
    slots = ml.prefs.slots(segment) if segment else ("orig",)
    primary = text_form(item, name, slots[0], ml, fallback=True, short=short)
    shown = [(primary, slots[0])]
    if not supplements or len(slots) == 1:
        return shown
    stop = primary.used_orig
    for slot in slots[1:]:
        found = text_form(item, name, slot, ml, fallback=False, stop_orig=stop)
        stop = found.used_orig
        if found.text and found.text != primary.text:
            shown.append((found, slot))
    return shown


_LATIN_LIKE_RE = re.compile(f"[-0-9{ROMANESQUE_CHARS}]")


def _listed(option: str | None, language: str) -> bool:
    return bool(option) and language.split("-")[0].lower() in str(option).split()


def _name_params(name: dict[str, Any], language: str, script: str, options: Mapping[str, str]) -> None:
    """As citeproc-js's ``getNameParams``: a name of a *language* the locale lists in
    ``name-as-sort-order`` is written family name first, one in ``name-never-short`` with its
    given name in full; a Latin-script name whose *script* language (the name's
    ``multi.main``, else the item's) is Chinese or Japanese family name first too."""
    static = _listed(options.get("name-as-sort-order"), language)
    latin = bool(_LATIN_LIKE_RE.search(str(name.get("family") or "").replace('"', "")))
    if static or (latin and script[:2].lower() in ("ja", "zh")):
        name["static-ordering"] = True
    elif "static-ordering" in name and latin:
        del name["static-ordering"]
    if _listed(options.get("name-never-short"), language):
        name["full-form-always"] = True


def name_form(raw: Mapping[str, Any], item: Mapping[str, Any], form: str, ml: Multilingual,
              options: Mapping[str, str], *, fallback: bool, stop_orig: bool = False) -> tuple[dict[str, Any] | None, bool]:
    """The *form* of a name (orig, translit, translat or sort) and whether the original stood
    in, as citeproc-js's ``getName``: a form is the name's ``multi._key`` entry of a tag of
    the style's (the first that has one); the original stands in when *fallback*. The name is
    written as its language asks (see _name_params): the form's tag, else the name's
    ``multi.main``, else the item's language."""
    if stop_orig and form == "orig":
        return None, True
    multi = _multi(raw)
    chosen: Mapping[str, Any] = raw
    language = ""
    if form != "orig":
        forms = multi.get("_key")
        lowered = {str(tag).lower(): value for tag, value in forms.items()
                   if isinstance(value, dict)} if isinstance(forms, dict) else {}
        language = next((tag for tag in ml.tags.of(form) if tag in lowered), "")
        if language:
            chosen = lowered[language]
        elif not fallback:
            return None, stop_orig
    main = multi.get("main") if chosen is raw else None
    script = str(main if isinstance(main, str) and main else item.get("language") or "")
    language = language or script
    name = {key: value for key, value in chosen.items() if key != "multi"}
    if name.get("isInstitution") and name.get("family") and not name.get("given") and not name.get("literal"):
        name["literal"] = name.pop("family")
    if language:
        _name_params(name, language, script, options)
    return name, stop_orig or (form != "orig" and chosen is raw)


def name_forms(raw: Mapping[str, Any], item: Mapping[str, Any], ml: Multilingual, options: Mapping[str, str], *,
               sorting: bool, supplements: bool) -> list[tuple[dict[str, Any], str]]:
    """The forms of a name a rendering shows, each with the form it is: the first, then
    those added after it (when *supplements*), as citeproc-js (persons' forms for a person,
    institutions' for a literal name)."""
    if sorting:
        return [(name_form(raw, item, "sort", ml, options, fallback=True)[0] or dict(raw), "sort")]
    institution = bool(raw.get("literal") or raw.get("isInstitution"))
    slots = ml.prefs.slots("institutions" if institution else "persons")
    first, stop = name_form(raw, item, slots[0], ml, options, fallback=True)
    shown = [(first or dict(raw), slots[0])]
    if supplements:
        for slot in slots[1:]:
            found, stop = name_form(raw, item, slot, ml, options, fallback=False, stop_orig=stop)
            if found:
                shown.append((found, slot))
    return shown
