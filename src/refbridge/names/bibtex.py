"""BibTeX name lists: ``von Last, Jr, First and ...`` to model names and back.

Follows BibTeX's own rules (as in Patashnik's "Designing BibTeX styles" and btparse): names are
separated by the word ``and`` outside braces; a name has the forms ``First von Last``,
``von Last, First`` or ``von Last, Jr, First``; the von part is the run of words that start
with a lower-case letter (``{\\"u}ber`` counts as lower case, ``{van}`` as caseless); a name
that is one brace group (``{Barnes and Noble, Inc.}``) is a corporate (literal) name; a final
``others`` marks the list as incomplete. The von part becomes the model's non-dropping
particle. Name parts are decoded from LaTeX here (to plain text: names keep no styles), and
each name remembers how the .bib spelled it (``Name.latex``).

Writing gives a name read from a .bib as it was spelled; any other is written the other way
round, braced wherever BibTeX would otherwise split it differently (a family name with a
lower-case first word is one group, ``{van Vugt}``), so that reading what was written gives
back the same names (a name with a word that starts with a syntax character is written as a
literal: see ``format_name``). This module must never drop a word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from refbridge.latex.decode import decode_plain
from refbridge.latex.safety import is_harmless
from refbridge.model import Name

#: The name that, last in a list, stands for "and others".
OTHERS = "others"

_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_SIMPLE = re.compile(r"^[^{}\\]*$")
_SPACE = re.compile(r"\s+")
_COMMA = re.compile(r"\s*,\s*")
#: A special character at the start of a word: ``{\"u}``, ``{\ss}``, ``{\c{c}}``.
_SPECIAL = re.compile(r"\{\\([A-Za-z]+|.)\s*\{?\s*([A-Za-z])?")
#: Special characters that are letters themselves (their case is the command's).
_LETTER_COMMANDS = frozenset({"i", "j", "oe", "OE", "ae", "AE", "aa", "AA", "o", "O", "l", "L",
                              "ss"})


@cache
def _braces_or(separator: re.Pattern[str]) -> re.Pattern[str]:
    """A pattern that finds each brace and each ``separator`` match, left to right."""
    return re.compile(r"[{}]|" + separator.pattern, separator.flags)


def _split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """``text`` split at ``separator`` matches that are outside braces (a ``}`` without its
    ``{`` is ignored). ``separator`` must match neither a brace nor the empty text, so no
    match hides a brace: the regex finds braces and separators, and only those cost a step
    in Python (the name lists of a generated 10,000-entry file split in half the time a loop
    over every character takes)."""
    if "{" not in text:
        return separator.split(text)
    if separator.search(text) is None:
        return [text]
    parts: list[str] = []
    depth = 0
    start = 0
    for match in _braces_or(separator).finditer(text):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            if depth:
                depth -= 1
        elif not depth:
            parts.append(text[start:match.start()])
            start = match.end()
    parts.append(text[start:])
    return parts


def split_names(value: str) -> list[str]:
    """The names of a name list, each as BibTeX text."""
    text = value.strip()
    if not text:
        return []
    return [part.strip() for part in _split_top(text, _AND) if part.strip()]


def _is_lower(word: str) -> bool | None:
    """BibTeX's case of a word: True (lower), False (upper) or None (caseless)."""
    depth = 0
    position = 0
    while position < len(word):
        char = word[position]
        if char == "{":
            if depth == 0 and word.startswith("{\\", position):
                command = _SPECIAL.match(word, position)
                if command is not None:
                    letter = command.group(2)
                    name = command.group(1)
                    if name in _LETTER_COMMANDS:
                        return name[0].islower()
                    if letter:
                        return letter.islower()
                    if name.isalpha():
                        return name[0].islower()
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth == 0 and char.isalpha():
            return char.islower()
        position += 1
    return None


def _words(part: str) -> list[str]:
    return [w for w in _split_top(part.strip(), _SPACE) if w]


def _von_last(words: list[str]) -> tuple[list[str], list[str]]:
    """Split ``von Last`` words: the von part ends at the last lower-case word before the
    final word."""
    lower = [i for i, w in enumerate(words[:-1]) if _is_lower(w)]
    if not lower:
        return [], words
    return words[:lower[-1] + 1], words[lower[-1] + 1:]


def _decoded(words: Sequence[str]) -> str | None:
    text = " ".join(words)
    return decode_plain(text).strip() or None if text else None


#: How many single names are remembered: the same people recur in different lists.
NAMES_REMEMBERED = 8192


@lru_cache(maxsize=NAMES_REMEMBERED)
def parse_name(text: str) -> Name:
    """One BibTeX name as a model name (names are immutable, so a name read before is given
    again)."""
    stripped = text.strip()
    if _one_group(stripped):
        return Name(literal=decode_plain(stripped[1:-1]).strip() or stripped, latex=stripped)
    parts = _split_top(stripped, _COMMA)
    if len(parts) == 1:
        words = _words(parts[0])
        if len(words) == 1:
            return Name(family=_decoded(words), latex=stripped)
        lower = [i for i, w in enumerate(words[:-1]) if _is_lower(w)]
        if lower:
            first, von, last = words[:lower[0]], words[lower[0]:lower[-1] + 1], \
                words[lower[-1] + 1:]
        else:
            first, von, last = words[:-1], [], words[-1:]
        return _name(first, von, last, [], stripped)
    von, last = _von_last(_words(parts[0]))
    if len(parts) == 2:
        return _name(_words(parts[1]), von, last, [], stripped)
    return _name(_words(", ".join(parts[2:])), von, last, _words(parts[1]), stripped)


def _one_group(text: str) -> bool:
    """Whether ``text`` is a single brace group (``{Barnes and Noble, Inc.}``)."""
    if not (text.startswith("{") and text.endswith("}")):
        return False
    depth = 0
    for position, char in enumerate(text):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return position == len(text) - 1
    return False


def _name(first: list[str], von: list[str], last: list[str], jr: list[str], latex: str
          ) -> Name:
    family = _decoded(last)
    given = _decoded(first)
    particle = _decoded(von)
    if family is None and particle is not None:
        family, particle = particle, None
    return Name(family=family, given=given, non_dropping_particle=particle,
                suffix=_decoded(jr), latex=latex)


#: How many name lists are remembered: the same people recur throughout a file.
NAME_LISTS_REMEMBERED = 4096


@lru_cache(maxsize=NAME_LISTS_REMEMBERED)
def parse_names(value: str) -> tuple[tuple[Name, ...], bool]:
    """The names of a BibTeX name list and whether it ends in ``and others`` (names are
    immutable, so a list read before is given again). A name of nothing but commas
    (ScienceDirect's ``Schaie, K. Warner and , and Willis, Sherry L.``) holds no name: it is
    left out (``empty_names`` counts them for the reader's warning)."""
    texts = [t for t in split_names(value) if t.strip(" ,")]
    incomplete = bool(texts) and texts[-1].lower() == OTHERS
    if incomplete:
        texts = texts[:-1]
    return tuple(parse_name(t) for t in texts), incomplete


def empty_names(value: str) -> int:
    """How many names of a BibTeX name list are nothing but commas."""
    return sum(not t.strip(" ,") for t in split_names(value))


# -- writing ---------------------------------------------------------------------------
_NEEDS_BRACES = re.compile(r",|\band\b", re.IGNORECASE)
#: A word that starts with a character LaTeX or BibTeX treats as syntax.
_SYNTAX_START = re.compile(r"(?:^|\s)[\\{}#$%&_~^]")


def _part(text: str, encode: Callable[[str], str]) -> str:
    """A given name or suffix: braced when it holds a comma or the word ``and``."""
    encoded = encode(text)
    return "{" + encoded + "}" if _NEEDS_BRACES.search(text) else encoded


def _family(family: str, encode: Callable[[str], str]) -> str:
    """A family name, braced whole when BibTeX would otherwise split it: when a word before
    its last word is lower case to BibTeX (``{van Vugt}``, ``{de la Cruz}``; ``\\textbackslash{}``
    counts too), else it reads that word as a von part, and when it holds a comma or ``and``.
    The family name ``others`` gets its first letter braced (else it means "and others")."""
    if _NEEDS_BRACES.search(family):
        return _caseless(encode(family))
    if family.lower() == OTHERS:
        return "{" + family[0] + "}" + family[1:]
    words = [encode(word) for word in family.split(" ")]
    if any(_is_lower(word) for word in words[:-1]):
        return _caseless(" ".join(words))
    return " ".join(words)


def _caseless(text: str) -> str:
    """``text`` in a group BibTeX sees as one caseless word: ``{van Vugt}``;
    ``{{}\\textbackslash{}x}``, as a group that starts with a command would be a special
    character with a case."""
    return "{{}" + text + "}" if text.startswith("\\") else "{" + text + "}"


def _word_starts_with_syntax(name: Name) -> bool:
    parts = (name.family, name.given, name.dropping_particle, name.non_dropping_particle,
             name.suffix)
    return any(_SYNTAX_START.search(part) for part in parts if part)


def format_name(name: Name, encode: Callable[[str], str]) -> str:
    """One name as BibTeX text (``von Last, Jr, First``), ``encode`` turning text into LaTeX.

    A name with a word that starts with a LaTeX syntax character (``#2``, ``{x}``) is written
    whole as a literal name: biber takes the first character of each word as an initial and
    writes it unescaped into the .bbl, which breaks LaTeX."""
    if name.literal is not None:
        return "{" + encode(name.literal) + "}"
    if _word_starts_with_syntax(name):
        return "{" + encode(name.display()) + "}"
    if name.family is None:
        return _family(name.given or "", encode)
    particle = " ".join(p for p in (name.dropping_particle, name.non_dropping_particle) if p)
    head = _family(name.family, encode)
    if particle:
        head = f"{encode(particle)} {head}"
    given = _part(name.given, encode) if name.given else ""
    if name.suffix:
        return f"{head}, {_part(name.suffix, encode)}, {given}"
    if given or particle or " " in name.family.strip() or _one_group(head):
        return f"{head}, {given}".rstrip()  # ``{\\'E}mile,``: an empty first part
    return head


def format_names(names: Sequence[Name], incomplete: bool, encode: Callable[[str], str],
                 spelled: bool = True) -> str:
    """A name list as BibTeX text, ending in ``and others`` when ``incomplete``; names read
    from a .bib as they were spelled there unless not ``spelled``."""
    texts = [n.latex if spelled and n.latex is not None and is_harmless(n.latex)
             else format_name(n, encode) for n in names]
    if incomplete:
        texts.append(OTHERS)
    return " and ".join(texts)
