"""CSL locales: loading locale files, layering them with fallback, looking up terms.

A :class:`Locale` is the merge, lowest priority first, of the language's base locale file,
the requested locale file, and the style's own ``cs:locale`` overrides (no ``xml:lang``,
then the language, then the base, then the exact tag), resolved as citeproc-js resolves a
language (``CSL.localeResolve``): a language outside its table of bases rests on en-US.
Terms fall back by form (verb-short -> verb -> long, symbol -> short -> long).  This module never renders output.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import ParseError

NS = "{http://purl.org/net/xbiblio/csl}"
_LANG_TAG_RE = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$")
# citeproc-js's CSL.LANG_BASES: the locale a language rests on, and a bare language
# resolves to; a language not listed rests on en-US and a bare one stays bare ("id" finds
# no file and renders in English, as in Zotero)
LANGUAGE_BASES = {
    "af": "af-ZA", "ar": "ar", "bg": "bg-BG", "ca": "ca-AD", "cs": "cs-CZ", "da": "da-DK",
    "de": "de-DE", "el": "el-GR", "en": "en-US", "es": "es-ES", "et": "et-EE", "eu": "eu",
    "fa": "fa-IR", "fi": "fi-FI", "fr": "fr-FR", "he": "he-IL", "hr": "hr-HR", "hu": "hu-HU",
    "is": "is-IS", "it": "it-IT", "ja": "ja-JP", "km": "km-KH", "ko": "ko-KR", "lt": "lt-LT",
    "lv": "lv-LV", "mn": "mn-MN", "nb": "nb-NO", "nl": "nl-NL", "nn": "nn-NO", "pl": "pl-PL",
    "pt": "pt-PT", "ro": "ro-RO", "ru": "ru-RU", "sk": "sk-SK", "sl": "sl-SI", "sr": "sr-RS",
    "sv": "sv-SE", "th": "th-TH", "tr": "tr-TR", "uk": "uk-UA", "vi": "vi-VN", "zh": "zh-CN",
}  # fmt: skip
_FORM_FALLBACK = {
    "verb-short": ("verb-short", "verb", "long"),
    "verb": ("verb", "long"),
    "symbol": ("symbol", "short", "long"),
    "short": ("short", "long"),
    "long": ("long",),
}


@dataclass(frozen=True)
class Term:
    single: str
    multiple: str
    gender: str | None = None
    match: str | None = None


@dataclass
class LocaleLayer:
    """One ``cs:locale`` element or locale file, parsed."""

    lang: str | None
    terms: dict[tuple[str, str, str], Term] = field(default_factory=dict)  # (name, form, gender-form)
    date_formats: dict[str, tuple[dict[str, str], list[dict[str, str]]]] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)


def _text(element: ET.Element) -> str:
    """A term's text as citeproc-js reads locale XML: line breaks are spaces, and text of only
    spaces and tabs (a term written across lines with no content) is no text."""
    text = (element.text or "").replace("\n", " ")
    return text if text.strip(" \t") else ""


def parse_locale_element(element: ET.Element) -> LocaleLayer:
    layer = LocaleLayer(element.get("{http://www.w3.org/XML/1998/namespace}lang"))
    for child in element:
        tag = child.tag.replace(NS, "")
        if tag == "terms":
            for term in child:
                if term.tag.replace(NS, "") != "term":
                    continue
                single_el = term.find(NS + "single")
                if single_el is not None:
                    multiple_el = term.find(NS + "multiple")
                    single = _text(single_el)
                    multiple = _text(multiple_el) if multiple_el is not None else single
                else:
                    single = multiple = _text(term)
                key = (term.get("name", ""), term.get("form", "long"), term.get("gender-form", ""))
                layer.terms[key] = Term(single, multiple, term.get("gender"), term.get("match"))
        elif tag == "date":
            parts = [dict(part.attrib) for part in child if part.tag.replace(NS, "") == "date-part"]
            layer.date_formats[child.get("form", "text")] = (dict(child.attrib), parts)
        elif tag == "style-options":
            layer.options.update(child.attrib)
    if any(name == "ordinal" for name, _, _ in layer.terms):
        _default_genders(layer.terms)
    return layer


def _ordinal_map(terms: dict[tuple[str, str, str], Term]) -> dict[tuple[str, str, str], str]:
    """Which ordinal-NN term a number takes, as citeproc-js reads a CSL 1.0.1 locale: by
    match (last-digit for ordinal-0N, else last-two-digits, unless the term says), the
    term's number ("01" is "1") and its gender-form (neuter when it has none)."""
    found: dict[tuple[str, str, str], str] = {}
    for (name, _, gender_form), term in terms.items():
        if not name.startswith("ordinal-"):
            continue
        stub = name[8:]
        match = term.match or ("last-digit" if stub.startswith("0") else "last-two-digits")
        found[(match, stub.removeprefix("0"), gender_form or "neuter")] = name
    return found


def _default_genders(terms: dict[tuple[str, str, str], Term]) -> None:
    """As citeproc-js for a locale with CSL 1.0.1 ordinals: a term given only in gendered
    forms has its feminine forms (else its masculine ones) as its plain forms too (ordinal
    suffixes keep their own rules)."""
    plain = {name for name, _, gender in terms if not gender}
    for gender in ("feminine", "masculine"):
        for (name, form, gender_form), term in list(terms.items()):
            if gender_form == gender and name not in plain and not name.startswith("ordinal-"):
                terms.setdefault((name, form, ""), term)
        plain = {name for name, _, gender_form in terms if not gender_form}


class Locale:
    """Merged locale: terms, localized date formats and locale options."""

    def __init__(self, lang: str, layers: Iterable[LocaleLayer]) -> None:
        self.lang = lang
        self.terms: dict[tuple[str, str, str], Term] = {}
        self.date_formats: dict[str, tuple[dict[str, str], list[dict[str, str]]]] = {}
        self.options: dict[str, str] = {}
        # as citeproc-js: a layer with the "ordinal" term (CSL 1.0.1) replaces every ordinal
        # term and sets which ordinal-NN terms apply to which numbers; a layer without it
        # (a style's CSL 1.0 ordinal-01..04) changes the texts of terms, not that map
        self._ordinals: dict[tuple[str, str, str], str] | None = None  # (match, key, gender) -> name
        for layer in layers:
            if any(name == "ordinal" for name, _, _ in layer.terms):
                for key in [k for k in self.terms if k[0].startswith("ordinal")]:
                    del self.terms[key]
                self._ordinals = _ordinal_map(layer.terms)
            self.terms.update(layer.terms)
            for form, (attrs, parts) in layer.date_formats.items():
                self.date_formats[form] = (attrs, parts)
            self.options.update(layer.options)
        self.punctuation_in_quote = self.options.get("punctuation-in-quote") == "true"
        self.limit_day_ordinals = self.options.get("limit-day-ordinals-to-day-1") == "true"
        self._cache: dict[tuple[str, str, bool, str], str | None] = {}

    def term_entry(self, name: str, form: str = "long", gender_form: str = "") -> Term | None:
        for candidate in _FORM_FALLBACK.get(form, (form, "long")):
            term = self.terms.get((name, candidate, gender_form))
            if term is None and gender_form:
                term = self.terms.get((name, candidate, ""))
            if term is not None:
                return term
        return None

    def term(self, name: str, form: str = "long", plural: bool = False, gender_form: str = "") -> str | None:
        key = (name, form, plural, gender_form)
        if key in self._cache:
            return self._cache[key]
        entry = self.term_entry(name, form, gender_form)
        value = None if entry is None else (entry.multiple if plural else entry.single)
        self._cache[key] = value
        return value

    def gender(self, name: str) -> str:
        entry = self.term_entry(name)
        return (entry.gender or "") if entry else ""

    def ordinal_suffix(self, number: int, gender: str = "") -> str:
        if self._ordinals is not None:
            return self._ordinal_101(number, gender)
        terms = self.terms
        if ("ordinal", "long", "") not in terms and ("ordinal-04", "long", "") in terms:
            # CSL 1.0 locales: ordinal-01..04 with the English teens rule
            digit = number % 10
            name = "ordinal-04" if number % 100 in (11, 12, 13) or digit not in (1, 2, 3) else f"ordinal-0{digit}"
            return self.term(name, "long", False, gender) or ""
        two = number % 100
        for name, match_default in ((f"ordinal-{two:02d}", "last-two-digits"), (f"ordinal-{number % 10:02d}", "last-digit")):
            entry = self.term_entry(name, "long", gender)
            if entry is None:
                continue
            match = entry.match or match_default
            if match == "whole-number" and number != int(name[-2:]):
                continue
            if match == "last-two-digits" and two != int(name[-2:]):
                continue
            return entry.single
        return self.term("ordinal", "long", False, gender) or ""

    def _ordinal_101(self, number: int, gender: str) -> str:
        """citeproc-js's CSL 1.0.1 ordinals: the "ordinal" term unless an ordinal-NN term
        of the map matches the whole number, its last two digits or its last digit, in the
        number's gender first (neuter only when the "ordinal" term is empty)."""
        assert self._ordinals is not None
        suffix = self.term("ordinal", "long", False, gender) or ""
        text = str(number)
        for tried in ([gender] if gender else []) + ["neuter"]:
            for match, key in (("whole-number", text), ("last-two-digits", text[-2:]), ("last-digit", text[-1:])):
                name = self._ordinals.get((match, key, tried))
                if name is not None:
                    suffix = self.term(name, "long", False, gender) or ""
                    break
            if suffix:
                break
        return suffix

    def long_ordinal(self, number: int, gender: str = "") -> str | None:
        if 1 <= number <= 10:
            return self.term(f"long-ordinal-{number:02d}", "long", False, gender)
        return None


class LocaleStore:
    """Where locale files come from: a directory of ``locales-xx-XX.xml`` plus ``locales.json``.

    The default is the copy of the official CSL locales bundled with refbridge.
    """

    def __init__(self, directory: str | Path | None = None) -> None:
        if directory is None:
            self._dir = Path(str(resources.files("refbridge.csl") / "locales"))
        else:
            self._dir = Path(directory)
        self._layers: dict[str, LocaleLayer | None] = {}

    def layer(self, lang: str) -> LocaleLayer | None:
        if lang not in self._layers:
            path = self._dir / f"locales-{lang}.xml"
            if not _LANG_TAG_RE.match(lang) or not path.exists():
                self._layers[lang] = None
            else:
                try:
                    root = ET.parse(path).getroot()
                except ET.ParseError as exc:
                    raise ParseError(f"invalid locale XML: {exc}", str(path), exc.position[0]) from exc
                self._layers[lang] = parse_locale_element(root)
        return self._layers[lang]

    def file_chain(self, lang: str) -> list[LocaleLayer]:
        """Locale files for *lang*, lowest priority first, as citeproc-js layers them: the
        base, then the locale itself; en-US alone when neither has a file. For a language
        citeproc-js has a base for, English is not beneath: a term a locale lacks (a short
        form only en-US has) falls back to the locale's own long form, not to English."""
        base, best = resolve_language(lang)
        chain = [layer for tag in dict.fromkeys([base, best]) if (layer := self.layer(tag))]
        if not chain:
            english = self.layer("en-US")
            chain = [english] if english is not None else []
        return chain

    def locale(self, lang: str, style_layers: Iterable[LocaleLayer] = ()) -> Locale:
        base, best = resolve_language(lang)
        bare = lang.split("-")[0]
        overrides = list(style_layers)
        # as citeproc-js: the style's locales without a language, for the bare language, for
        # the base (en-US for en-GB, and for a language without a base), then for the locale
        tags = ["", bare, base, best] if base != best else ["", bare, best]
        # a tag listed twice counts where it comes last
        last_first = list(dict.fromkeys(reversed(tags)))
        ordered = [layer for tag in reversed(last_first) for layer in overrides if (layer.lang or "") == tag]
        return Locale(lang, self.file_chain(lang) + ordered)


def resolve_language(lang: str) -> tuple[str, str]:
    """(base, best) of *lang*, as ``CSL.localeResolve``: the base from :data:`LANGUAGE_BASES`
    (en-US when the language has none), the best the base for a bare tag of a known
    language, and else the tag's first two parts."""
    parts = lang.replace("_", "-").split("-")
    base = LANGUAGE_BASES.get(parts[0])
    if base is None:
        return "en-US", lang
    if len(parts) == 1 or parts[1] == "x":
        return base, base
    return base, "-".join(parts[:2])
