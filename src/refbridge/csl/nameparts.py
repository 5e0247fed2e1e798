"""CSL-JSON names split into their parts (family, given, particles, suffix) as citeproc-js
splits them: what the ``cs:names`` element renders, sorts and disambiguates by, and what
``citation-label`` takes its letters from. This module never renders.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .values import stringify


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
    spaced_particle: bool = False  # "de' Frinkle": a space was typed after the particle
    full_form: bool = False  # CSL-M: the given name always in full (see multilingual.py)
    et_al: bool = False  # "John, et al.": the name stands for several (its list ends in et al.)


def _is_particle(word: str) -> bool:
    if word[:1] in ("'", "\u2019"):  # 't, as in "in 't Veld"
        return word[1:2].islower()
    return word[:1].islower()


_PARSED: dict[tuple[Any, ...], NameParts] = {}
#: a family name that starts with a lowercase particle joined by an apostrophe or hyphen
_LOWER_LEAD_RE = re.compile(r"^[a-z]+['\u2019-]")
_APOSTROPHE_RE = re.compile(r"^([a-z]+['\u2019-])(.+)$")
_ET_AL_RE = re.compile(r"^et.?al[^a-z]$")


def parse_name(raw: Mapping[str, Any]) -> NameParts:
    """Split a CSL-JSON name into parts (cached: parts are never mutated after parsing)."""
    get = raw.get
    key = (get("family"), get("given"), get("literal"), get("name"), get("dropping-particle"),
           get("non-dropping-particle"), get("suffix"), get("comma-suffix"), get("static-ordering"),
           get("parse-names"), get("full-form-always"), get("isInstitution"))
    try:
        parts = _PARSED.get(key)
    except TypeError:  # unhashable field values: parse without caching
        return _parse_name(raw)
    if parts is None:
        if len(_PARSED) > 20000:  # (bounded: 100,000 items' names held 14 MiB more, 20,000 hold 6)
            _PARSED.clear()
        parts = _PARSED[key] = _parse_name(raw)
    return parts


def _parse_name(raw: Mapping[str, Any]) -> NameParts:
    """Split a CSL-JSON name into parts, finding particles and suffixes like citeproc-js."""
    literal = stringify(raw.get("literal") or "")
    family = stringify(raw.get("family") or "")
    given = stringify(raw.get("given") or "")
    if literal or (not family and not given):
        return NameParts(literal=literal or stringify(raw.get("name") or ""))
    if family and not given and raw.get("isInstitution"):  # (citeproc-js's flag of an institution)
        return NameParts(literal=family)
    parts = NameParts(
        family=family,
        given=given,
        dropping=stringify(raw.get("dropping-particle") or ""),
        non_dropping=stringify(raw.get("non-dropping-particle") or ""),
        suffix=stringify(raw.get("suffix") or ""),
        comma_suffix=bool(raw.get("comma-suffix")),
        static=bool(raw.get("static-ordering")),
        full_form=bool(raw.get("full-form-always")),
    )
    if str(raw.get("parse-names", "true")).lower() == "false":
        return parts
    if family.startswith('"') and family.endswith('"') and len(family) > 1:
        parts.family = family[1:-1]
        return parts
    if not parts.non_dropping and " " in family or (not parts.non_dropping and _LOWER_LEAD_RE.match(family)):
        words = family.split(" ")
        particles = []
        while len(words) > 1 and _is_particle(words[0]):
            particles.append(words.pop(0))
        apostrophe = _APOSTROPHE_RE.match(words[0]) if len(words) == 1 and not particles else None
        if apostrophe:
            parts.non_dropping, parts.family = apostrophe.group(1), apostrophe.group(2)
        elif particles:
            parts.non_dropping, parts.family = " ".join(particles), " ".join(words)
            parts.spaced_particle = True
    if not parts.suffix and "," in given:
        head, _, tail = given.partition(",")
        tail = tail.strip()
        if tail.startswith("!"):
            tail = tail[1:].strip()
            parts.comma_suffix = True
        parts.given, parts.suffix = head.strip(), tail
        if _ET_AL_RE.match(tail):  # as citeproc-js: "et al." typed after the given name
            parts.suffix, parts.comma_suffix, parts.et_al = "", False, True
    if not parts.dropping and " " in parts.given:
        words = parts.given.split(" ")
        particles = []
        while len(words) > 1 and _is_particle(words[-1]):
            particles.insert(0, words.pop())
        if particles:
            parts.given, parts.dropping = " ".join(words), " ".join(particles)
    return parts
