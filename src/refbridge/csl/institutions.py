"""CSL-M ``cs:institution``: how a literal name, an institution, is written.

An institution's subunits are separated by ``|`` ("Big Ministry|Busy Committee"); the style
chooses which of them are written (use-first, use-last, stop-first, stop-last), in which
order (reverse-order), joined by part-separator, in their long form, their short form (from
the abbreviation lists' ``institution-part``) or both (institution-parts), each subunit with
its ``cs:institution-part``'s formatting and affixes. This module only chooses and orders the
subunits' text, as citeproc-js's ``fixupInstitution`` does; it never renders them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .abbreviations import AbbreviationLists, listed_form
from .nodes import Decor, decor_of

_SUBUNIT_SPLIT_RE = re.compile(r"\s*\|\s*")
#: institution-parts values that write the short form
_WITH_SHORT = frozenset(("short", "short-long", "long-short"))
#: citeproc-js's hint, as a listed short form, that a subunit is not written
_DROPPED = "!here>>>"


@dataclass(frozen=True, slots=True)
class InstitutionSpec:
    """The attributes of a ``cs:institution`` (counts: 0 when not given)."""

    parts: str = "long"  #: institution-parts: long, short, short-long, long-short
    separator: str | None = None  #: part-separator; None: cs:name's delimiter
    use_first: int = 0
    use_last: int = 0
    stop_first: int = 0
    stop_last: int = 0
    reverse: bool = False
    short_form: bool = False  #: form="short": the whole name's listed short form, written long
    #: the delimiter before an institution written last, and when it is written before "and"
    #: (None: as without cs:institution)
    delimiter: str | None = None
    precedes_last: str | None = None
    and_term: str | None = None  #: its and="text" / "symbol" (None: cs:name's)
    suppress_min: int | None = None  #: suppress-min="0" leaves out institutions with affiliations
    #: each subunit's formatting and affixes (cs:institution-part): long, long when a short
    #: form is written too (if-short="true"), short
    long_decor: Decor | None = None
    long_with_short_decor: Decor | None = None
    short_decor: Decor | None = None

    @classmethod
    def from_attrs(cls, attrs: Mapping[str, str], part_attrs: list[Mapping[str, str]]) -> InstitutionSpec:
        """From the attributes of a cs:institution and of its cs:institution-parts."""
        def count(name: str) -> int:
            value = attrs.get(name, "")
            return int(value) if value.isdigit() else 0

        decors: dict[str, Decor | None] = {}
        for part in part_attrs:
            kind = part.get("name", "long") + ("-with-short" if part.get("if-short") == "true" else "")
            decors[kind] = decor_of({k: v for k, v in part.items() if k not in ("name", "if-short")},
                                    allow_quotes=False)
        return cls(parts=attrs.get("institution-parts", "long"), separator=attrs.get("part-separator"),
                   use_first=count("use-first"), use_last=count("use-last"),
                   stop_first=count("stop-first"), stop_last=count("stop-last"),
                   reverse=attrs.get("reverse-order") == "true", short_form=attrs.get("form") == "short",
                   delimiter=attrs.get("delimiter"), precedes_last=attrs.get("delimiter-precedes-last"),
                   and_term=attrs.get("and"),
                   suppress_min=int(attrs["suppress-min"]) if attrs.get("suppress-min", "").isdigit() else None,
                   long_decor=decors.get("long"), long_with_short_decor=decors.get("long-with-short"),
                   short_decor=decors.get("short"))

    def long_style(self, forms: InstitutionForms) -> Decor | None:
        """The long subunits' formatting: if-short's when there is a short form."""
        return self.long_with_short_decor if forms.short and self.long_with_short_decor else self.long_decor


def subunits(text: str) -> list[str]:
    """An institution's subunits, as written in its literal name."""
    return _SUBUNIT_SPLIT_RE.split(text)


@dataclass(frozen=True, slots=True)
class InstitutionForms:
    """The subunits of one institution the style writes: long and short (empty: none)."""

    long: list[str]
    short: list[str]


def institution_forms(spec: InstitutionSpec, literal: str, lists: AbbreviationLists,
                      jurisdiction: str = "") -> InstitutionForms:
    """The long and short subunits of *literal* that *spec* writes, abbreviated from *lists*
    and trimmed and ordered as citeproc-js does (a short form the same as the long one is
    one empty subunit, for short-long and long-short)."""
    long_text = short_text = literal
    if spec.short_form:
        found = listed_form(lists, "institution-entire", literal, jurisdiction) \
            or listed_form(lists, "institution-part", literal, jurisdiction)
        if found is not None:
            long_text = found.text
    short = subunits(short_text)
    if spec.parts in _WITH_SHORT:
        found = listed_form(lists, "institution-part", short_text, jurisdiction)
        if found is not None:
            short_text = found.text
        if spec.parts != "short" and short_text == long_text:
            short_text = ""
        short = []
        for unit in subunits(short_text):
            found = listed_form(lists, "institution-part", unit, jurisdiction)
            short.extend(subunits(found.text) if found is not None else [unit])
    return InstitutionForms(_ordered(spec, subunits(long_text)), _ordered(spec, short))


def written(unit: str) -> bool:
    """Whether a subunit is written (an abbreviation list may drop it)."""
    return bool(unit) and unit != _DROPPED


def _ordered(spec: InstitutionSpec, units: list[str]) -> list[str]:
    """The subunits use-first / use-last keep (with stop-last / stop-first), then reversed
    for reverse-order (citeproc-js's ``_trimInstitution``)."""
    kept = list(units)
    if spec.use_first:
        if spec.stop_last:  # (as citeproc-js: the first stop-last subunits)
            kept = kept[:spec.stop_last]
        kept = kept[:spec.use_first]
    if spec.use_last:
        tail = list(units)
        stop_first = spec.use_first or spec.stop_first
        if not spec.use_first:
            kept = []
        if stop_first:
            tail = tail[stop_first:]
        kept += tail[-spec.use_last:]
    if spec.reverse:
        kept.reverse()
    return kept
