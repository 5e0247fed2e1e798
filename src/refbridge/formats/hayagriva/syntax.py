"""The syntax of Hayagriva's values: formattable strings, persons and dates, read and written.

A formattable string is text in which ``{...}`` keeps its case (the model's *nocase*) and
``$...$`` is a Typst formula; a backslash escapes ``\\ { } $``. A person is ``Prefix Family,
Given`` or ``Prefix Family, Suffix, Given`` (the prefix: the lower-case words before the
family name, split off as BibTeX does; Typst shows it as CSL's dropping particle) or a mapping
of ``name``, ``given-name``, ``prefix``, ``suffix`` (a name that starts with particles, ``van
der Berg``, has them as its non-dropping particle). A date is ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``, the year 0 being 1 BC.

These functions follow how Typst's Hayagriva reads the values, so that what refbridge writes
is read by Typst as refbridge meant it. Written text is escaped: record text never becomes a
formula or a case-protected group it did not hold. This module must never know the layout of
an entry (see ``formats.hayagriva.codec``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from refbridge.model import Date, DateParts, Name
from refbridge.names.reading import PARTICLES
from refbridge.richtext import Inline, Math, Style, Styled, Text, inlines, plain, rich

#: The characters a backslash escapes in a formattable string.
_CONTROL = "\\{}$"
_NORMAL, _VERBATIM, _MATH = range(3)


class UnmatchedBrace(ValueError):
    """A ``}`` that closes nothing (Typst refuses the file)."""


def _chunks(text: str) -> Iterator[tuple[int, str]]:
    """The chunks of a formattable string: (kind, text); raises ``UnmatchedBrace``."""
    kind, depth, current = _NORMAL, 0, []
    characters = iter(enumerate(text))
    for position, char in characters:
        if char == "\\" and text[position + 1:position + 2] in tuple(_CONTROL):
            current.append(next(characters)[1])
            continue
        new_kind = kind
        if char == "{" and kind != _MATH:
            depth, new_kind = depth + 1, _VERBATIM
        elif char == "}" and kind != _MATH:
            if depth == 0:
                raise UnmatchedBrace(f"a '}}' at character {position + 1} closes no '{{'")
            depth -= 1
            new_kind = _VERBATIM if depth else _NORMAL
        elif char == "$":
            new_kind = (_VERBATIM if depth else _NORMAL) if kind == _MATH else _MATH
        else:
            current.append(char)
            continue
        if new_kind != kind:
            yield kind, "".join(current)
            kind, current = new_kind, []
    yield kind, "".join(current)


def _inline(kind: int, text: str) -> Inline:
    if kind == _NORMAL or not text.strip():
        return text
    if kind == _VERBATIM:
        return Styled(Style.NOCASE, (text,))
    return Math(text.strip())


def read_formattable(text: str, verbatim: bool = False) -> Text:
    """The rich text of a formattable string (``verbatim``: the whole value keeps its case);
    raises ``UnmatchedBrace``."""
    if verbatim:
        return rich([Styled(Style.NOCASE, (text,))]) if text.strip() else text
    if not any(char in text for char in _CONTROL):
        return text
    return rich(_inline(kind, part) for kind, part in _chunks(text) if part)


def escape(text: str) -> str:
    """``text`` as a formattable string that reads back as this text."""
    for char in _CONTROL:
        text = text.replace(char, "\\" + char)
    return text


def format_formattable(value: Text) -> str:
    """A formattable string of ``value``: case protection as braces, the rest as its text
    (styles and formulas are not part of the syntax: they are shown as their text). A value
    protected whole is braced too: Typst ignores ``verbatim: true`` beside a title's or a
    publisher's ``value``."""
    parts: list[str] = []
    for item in inlines(value):
        if isinstance(item, Styled) and item.style == Style.NOCASE:
            parts.append("{" + escape(plain(rich(item.content))) + "}")
        else:
            parts.append(escape(item if isinstance(item, str) else plain(rich([item]))))
    return "".join(parts)


# -- persons ---------------------------------------------------------------------------------
def _split_prefix(text: str) -> tuple[str | None, str]:
    """(prefix, name) of the part before the first comma, as Hayagriva splits it: the prefix
    runs to the end of the last word that starts with a lower-case letter, when a word starts
    otherwise; else it is every word but the last."""
    words = list(re.finditer(r"\S+", text))
    lower = [word for word in words if word.group()[0].islower()]
    if not words or not lower:
        return None, text
    if len(lower) < len(words):
        cut = lower[-1].end()
        return text[:cut] or None, text[cut:].lstrip()
    cut = words[-1].start()
    return text[:cut] or None, text[cut:]


def _particle(name: str) -> tuple[str | None, str]:
    """(non-dropping particle, family name) of a family name that starts with particles
    (``van der Berg``), as Typst tells its particle from the name."""
    words = name.split()
    count = 0
    while count < len(words) - 1 and words[count].lower() in PARTICLES:
        count += 1
    if count == 0:
        return None, name
    return " ".join(words[:count]), " ".join(words[count:])


def parse_person(text: str) -> Name | None:
    """The name a person string gives, or None when Hayagriva refuses it (more than three
    comma-separated parts). A string without a comma is a literal (corporate) name."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > 3 or not parts[0]:
        return None
    if len(parts) == 1:
        return Name(literal=parts[0])
    prefix, family = _split_prefix(parts[0])
    return person_from_fields(family, parts[-1], prefix, parts[1] if len(parts) == 3 else None)


def person_from_fields(name: str | None, given: str | None, prefix: str | None,
                       suffix: str | None) -> Name | None:
    """The name of a person's fields (None: it has neither name nor given name). Typst shows
    the prefix as a dropping particle (``Berg, Pieter van der``) and tells a non-dropping
    particle from the start of the name (``van der Berg, Pieter``); a person without given
    name, prefix and suffix is an institution: a literal name."""
    parts = [part.strip() if part else None for part in (name, given, prefix, suffix)]
    name, given, prefix, suffix = (part or None for part in parts)
    if name is None and given is None:
        return None
    if given is None and prefix is None and suffix is None:
        return Name(literal=name)
    particle, family = _particle(name) if name else (None, None)
    return Name(family=family, given=given, dropping_particle=prefix,
                non_dropping_particle=particle, suffix=suffix)


def format_person(person: Name) -> str | dict[str, str]:
    """A person as Hayagriva's string when that string reads back as ``person``, else as a
    mapping (a literal name as its ``name``)."""
    if person.literal is not None:
        if "," not in person.literal and parse_person(person.literal) == person:
            return person.literal
        return {"name": person.literal}
    family = " ".join(filter(None, (person.non_dropping_particle, person.family)))
    given = person.given if family else None
    text = ", ".join(filter(None, (" ".join(filter(None, (person.dropping_particle, family))),
                                   person.suffix, given)))
    if given is not None and parse_person(text) == person:
        return text
    fields = {"name": family or person.given or "", "given-name": given,
              "prefix": person.dropping_particle, "suffix": person.suffix}
    return {key: value for key, value in fields.items() if value}


# -- dates -----------------------------------------------------------------------------------
_DATE = re.compile(r"^(?P<year>[+-]?\d{1,6})(?:-(?P<month>\d{1,2})(?:-(?P<day>\d{1,2}))?)?$")


def parse_date(text: str) -> Date:
    """The date of a Hayagriva date (``0000`` is 1 BC); text that is no such date is kept as
    a literal date."""
    found = _DATE.match(text.strip())
    if found is None:
        return Date(literal=text.strip())
    year = int(found["year"])
    try:
        return Date(start=DateParts(year if year > 0 else year - 1,
                                    int(found["month"]) if found["month"] else None,
                                    int(found["day"]) if found["day"] else None))
    except ValueError:
        return Date(literal=text.strip())


def format_date(date: Date) -> str | None:
    """The Hayagriva date of the start of ``date`` (None: it has no date parts)."""
    start = date.start
    if start is None:
        return None
    year = start.year if start.year > 0 else start.year + 1
    text = f"{year:04d}" if year >= 0 else f"-{-year:04d}"
    if start.month is not None:
        text += f"-{start.month:02d}"
        if start.day is not None:
            text += f"-{start.day:02d}"
    return text
