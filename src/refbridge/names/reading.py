"""Personal names written in reading order (``Ludwig van Beethoven Jr.``) split into name parts.

Profile pages and other plain-text sources give a person's name as one string; this splits it
into CSL's given / particle / family / suffix parts using tables of particles and suffixes. It
must never reorder or drop a word: every word of the input lands in exactly one part.
"""

from __future__ import annotations

import re

from refbridge.model import Name

#: Initials run together, as Web of Science's short names write them (``JE`` in ``Fielding,
#: JE``): two or three capitals and nothing else.
_RUN_TOGETHER_INITIALS = re.compile(r"[A-Z]{2,3}")

#: Lower-case words that, between given and family names, are particles kept with the family
#: name when sorting (``van`` in ``Vincent van Gogh``; CSL's non-dropping particle).
PARTICLES: frozenset[str] = frozenset(
    ["van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du", "la", "le", "lo", "ten", "ter", "vom", "zu", "zum", "zur", "y", "bin", "ibn", "al", "el"]
)

#: Generational and similar suffixes, compared without a trailing period.
SUFFIXES: frozenset[str] = frozenset({"jr", "sr", "ii", "iii", "iv", "v", "2nd", "3rd"})


def split_name(text: str) -> Name:
    """Split a name in reading order into given, particle, family and suffix."""
    words = text.replace(",", " , ").split()
    suffix: str | None = None
    if len(words) > 2 and words[-1].rstrip(".").lower() in SUFFIXES:
        suffix = words.pop()
        if words[-1] == ",":
            words.pop()
    words = [w for w in words if w != ","]
    if len(words) == 1:
        return Name(family=words[0], suffix=suffix)
    family_start = len(words) - 1
    while family_start > 1 and words[family_start - 1] in PARTICLES:
        family_start -= 1
    particle_words = [w for w in words[family_start:-1]]
    given = " ".join(words[:family_start])
    return Name(
        family=words[-1],
        given=given or None,
        non_dropping_particle=" ".join(particle_words) or None,
        suffix=suffix,
    )


def name_from_fields(family: str | None, given: str | None, suffix: str | None = None) -> Name:
    """A name from formats with only family and given fields (RIS, Zotero): particle words
    that start the family name (``van Gogh``) or end the given name (``Ludwig van``) are split
    off as CSL's non-dropping and dropping particles."""
    family_words, given_words = (family or "").split(), (given or "").split()
    start = 0
    while start < len(family_words) - 1 and family_words[start] in PARTICLES:
        start += 1
    end = len(given_words)
    while end > 1 and given_words[end - 1] in PARTICLES:
        end -= 1
    return Name(
        family=" ".join(family_words[start:]) or None,
        given=" ".join(given_words[:end]) or None,
        non_dropping_particle=" ".join(family_words[:start]) or None,
        dropping_particle=" ".join(given_words[end:]) or None,
        suffix=suffix or None,
    )


def spaced_initials(given: str) -> str:
    """Initials run together (``JE``) as separate initials (``J E``), as Zotero and JabRef read
    them (a CSL style then initializes each); any other given name as it is."""
    if _RUN_TOGETHER_INITIALS.fullmatch(given):
        return " ".join(given)
    return given
