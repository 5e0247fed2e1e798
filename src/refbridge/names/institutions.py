"""The short form JabRef's key generator gives an institution that is an author or editor.

A name that is one family name with white space in it and nothing else (a braced
``{Linköping University}`` in a .bib) is an institution. Its key part is the abbreviation the
name gives in braces (``{The Attributed Graph Grammar System ({AGG})}`` -> ``AGG``), or else
one made from the name's comma-separated parts, each read as a university
(``Uni`` + its other words: ``UniLinkoeping``), a school or department (the capitals of its
words but ``Department``, ``School`` and ``Faculty``: ``EE``), or the rest (its words, or their
first letters from three words on: ``MIT``), then put together as JabRef's
``BracketedPattern.generateInstitutionKey`` does: university (else rest), school, department.
Words that are ``the``/``press``, end with a dot, or start with a small letter are left out.
This module must never read anything but the name it is given.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from refbridge.model import Name

#: An abbreviation the name gives in braces: ``... ({AGG})`` (in the .bib spelling).
_INLINE_ABBREVIATION = re.compile(r"(?<=\(\{)[A-Z]+(?=}\))")
_UNIVERSITY = re.compile(r"uni(v|b|$).*", re.IGNORECASE)
_TECHNOLOGY = re.compile(r"tech.*", re.IGNORECASE)
_DEPARTMENT_OR_LAB = re.compile(r"(d[ei]p|lab).*", re.IGNORECASE)
_DEPARTMENT = re.compile(r"d[ei]p.*", re.IGNORECASE)
_NOT_CAPITAL = re.compile(r"[^A-Z]")
_IGNORED_WORDS = frozenset(["press", "the"])
#: Words that name the kind of a school or department rather than which one it is.
_KIND_WORDS = frozenset(["school", "faculty"])


def institution_name(name: Name) -> str | None:
    """The name of the institution ``name`` stands for, or None when it is a person's."""
    if name.literal is not None:
        text = name.literal
    elif name.family and not (name.given or name.dropping_particle
                              or name.non_dropping_particle or name.suffix):
        text = name.family
    else:
        return None
    return text if re.search(r"\s", text) else None


def _words(part: str) -> list[str]:
    """The words of one comma-separated part of the name that count for its key."""
    return [word for word in re.split(r"[ \-_]", part)
            if (word and word.lower() not in _IGNORED_WORDS and not word.endswith(".")
                and word[0].isupper()) or (len(word) >= 3 and word[:3].lower() == "uni")]


def _kinds(words: list[str]) -> set[str]:
    kinds = set()
    for word in words:
        if _UNIVERSITY.fullmatch(word):
            kinds.add("university")
        elif _TECHNOLOGY.fullmatch(word):
            kinds.add("technology")
        elif word.lower() == "school":
            kinds.add("school")
        elif _DEPARTMENT_OR_LAB.fullmatch(word):
            kinds.add("department")
    if "technology" in kinds:
        kinds.discard("university")  # an institute of technology is no university
    return kinds


def _capitals(words: list[str]) -> str:
    """The capitals of the words that say which school or department it is."""
    return "".join(_NOT_CAPITAL.sub("", word) for word in words
                   if not _DEPARTMENT.fullmatch(word) and word.lower() not in _KIND_WORDS
                   and _NOT_CAPITAL.sub("", word))


def institution_key(text: str, spelling: str | None, fold: Callable[[str], str]) -> str:
    """JabRef's key part for the institution named ``text`` (``spelling``: how a .bib wrote
    it, where an abbreviation in braces is found), its letters folded by ``fold``."""
    inline = _INLINE_ABBREVIATION.search(spelling or "")
    if inline:
        return inline.group()
    parts = fold(text).split(",")
    university = department = school = rest = None
    for index, part in enumerate(parts):
        words = _words(part)
        kinds = _kinds(words)
        if "university" in kinds:
            university = "Uni" + "".join(w for w in words if w[:3].lower() != "uni")
            if index > 0 and department is None:
                department = parts[index - 1]  # the part before a university is its department
        elif kinds & {"school", "department"} and len(parts) > 1:
            if "school" in kinds:
                school = _capitals(words)
            if "department" in kinds:
                department = _capitals(words)
        elif rest is None:
            rest = "".join(w[0] for w in words) if len(words) >= 3 else "".join(words)
    return ((university if university is not None else rest or "") + (school or "")
            + ("" if department is None or department == school else department))
