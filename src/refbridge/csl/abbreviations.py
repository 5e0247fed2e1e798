"""CSL-M abbreviation lists: the short forms a caller gives the engine for variable values,
as citeproc-js's ``sys.getAbbreviation`` does (Juris-M's journal and court abbreviations).

A list maps a jurisdiction (``"default"`` for all) to categories (``"container-title"``,
``"place"``, ...) to values and their short forms.  A ``cs:text`` of ``form="short"`` writes
the short form listed for its value, in the category of its variable.  A short form may
start with citeproc-js's hints: ``#1>>>`` (a cite form) and ``!field,...>>>`` (variables the
item then does not write).  This module only looks values up; it never renders.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

# the category a variable's short form is looked up in (citeproc-js's FIELD_CATEGORY_REMAP)
CATEGORY_OF_VARIABLE: Mapping[str, str] = {
    "title": "title", "title-short": "title", "genre": "title", "event": "title", "medium": "title",
    "container-title": "container-title", "archive": "container-title",
    "collection-title": "collection-title",
    "country": "place", "place": "place", "archive-place": "place", "publisher-place": "place",
    "event-place": "place", "jurisdiction": "place", "language-name": "place",
    "language-name-original": "place",
    "number": "number", "call-number": "number", "chapter-number": "number",
    "collection-number": "number", "edition": "number", "page": "number", "issue": "number",
    "locator": "number", "locator-extra": "number", "number-of-pages": "number",
    "number-of-volumes": "number", "volume": "number", "citation-number": "number",
    "publisher": "institution-part",
}

#: variables holding jurisdiction codes ("us:ne"), looked up apart (see short_form)
_PLACE_CODES = frozenset(("jurisdiction", "country", "language-name", "language-name-original"))

# the hints a short form may start with: "#1" (a cite form), "!field,field" (variables quashed)
_HINTS_RE = re.compile(r"^(?:#[0-9]+)*(?:!([-_a-z]+(?::[^,>]*)?(?:,[-_a-z]+(?::[^,>]*)?)*))?>>>")

AbbreviationLists = Mapping[str, Mapping[str, Mapping[str, str]]]


@dataclass(frozen=True, slots=True)
class ShortForm:
    """A listed short form, without its hints, and the variables it quashes."""

    text: str
    quashed: tuple[str, ...]


def short_form(lists: AbbreviationLists, variable: str, value: str, jurisdiction: str = "") -> ShortForm | None:
    """The short form listed for *value* of *variable*: the item's jurisdiction's list
    first, then the default one; None when neither lists it."""
    category = CATEGORY_OF_VARIABLE.get(variable)
    if category is None:
        return None
    if variable in _PLACE_CODES:
        # as citeproc-js: listed in the default list, a lowercase code under its uppercase key
        jurisdiction = ""
        if value == value.lower():
            value = value.upper()
    return listed_form(lists, category, value, jurisdiction)


def listed_form(lists: AbbreviationLists, category: str, value: str, jurisdiction: str = "") -> ShortForm | None:
    """The short form listed for *value* in *category* (``"institution-part"``...): the
    jurisdiction's list first, then the default one; None when neither lists it."""
    if not value:
        return None
    for place in (jurisdiction, "default") if jurisdiction else ("default",):
        found = lists.get(place, {}).get(category, {}).get(value)
        if found:
            match = _HINTS_RE.match(found)
            if match is None:
                return ShortForm(found, ())
            fields = (match[1] or "").split(",") if match[1] else []
            return ShortForm(found[match.end():], tuple(f for f in fields if ":" not in f))
    return None
