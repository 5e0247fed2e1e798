"""Citation keys from a pattern, in the spirit of JabRef and Better BibTeX.

A pattern is literal text with fields in brackets, each with optional ``:modifiers``::

    [auth:lower][year][shorttitle:1:lower]      ->  qian2026specdb   (the default, as Google
                                                     Scholar makes them)
    [authors2][year]                            ->  QianYang2026
    [auth][shortyear]_[title:3]                 ->  Qian26_SpecDBLLMGenerated

Fields: ``auth`` (first author's family name; editor when there is no author), ``authors``
(every family name; ``authorsN``: the first N, then ``EtAl``), ``authini`` (first author's
initials), ``year``, ``shortyear``, ``title`` (every significant word, capitalised),
``shorttitle`` (the first three significant words), ``veryshorttitle`` (the first one),
``firstpage``, ``type``. Modifiers: a number N (words of a title field), ``lower``, ``upper``.

Keys are ASCII (``Łukasz`` -> ``Lukasz``) letters, digits and the pattern's own punctuation.
They are unique: records whose keys collide get ``a``, ``b``, ``c`` ... in an order that depends
on the records only, so the same record gets the same key whatever the order of the input. Keys
read from an input are kept unless regeneration is asked for; a key read twice stays with the
first record and the others get it with a suffix (``knuth84``, ``knuth84a``). A key read from
an input that the output format cannot hold (``KeyBook``'s ``unsafe``: a line break in a
line-based format) has each character it cannot hold replaced by ``-``, and a suffix when that
key is taken: the caller reports each such change. ``KeyBook`` decides them for a stream: it holds the keys in use and a short summary of each record that needs one, never the
records themselves, so a conversion can stream its records through. This module must never
change a record other than its ``citation_key``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from itertools import count, product
from string import ascii_lowercase

from refbridge.model import Name, Record

DEFAULT_PATTERN = "[auth:lower][year][shorttitle:1:lower]"

#: Words a short title skips, as Google Scholar and Better BibTeX do.
STOP_WORDS: frozenset[str] = frozenset(
    ["a", "an", "the", "of", "on", "in", "at", "to", "for", "and", "or", "but", "nor", "with", "from", "by", "as", "via", "into", "onto", "over", "under", "about", "after", "before", "between", "through", "during", "without", "within", "is", "are", "be"]
)

_FIELD = re.compile(r"\[([^\]]*)\]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_NON_KEY = re.compile(r"[^A-Za-z0-9]")

#: What a key cannot hold where it is the value of one line (a tagged format's tag, a line of
#: Zotero's Extra): a line break, or white space at either end (readers strip it).
_LINE_UNSAFE = r"[\r\n]|^\s+|\s+$"
#: What a key cannot hold in XML 1.0: control characters other than tab, line feed and
#: carriage return (written as character references), and the non-characters U+FFFE, U+FFFF.
_XML_UNSAFE = r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"
#: The characters of a key that a writer's format cannot hold (a writer's ``key_unsafe``).
LINE_KEY_UNSAFE = re.compile(_LINE_UNSAFE)
XML_KEY_UNSAFE = re.compile(_XML_UNSAFE)
LINE_XML_KEY_UNSAFE = re.compile(f"{_LINE_UNSAFE}|{_XML_UNSAFE}")


class PatternError(ValueError):
    """A citation-key pattern that cannot be used."""


@cache
def _ascii(text: str) -> str:
    if text.isascii():  # most names and titles: anyascii not even loaded
        return text
    from anyascii import anyascii

    return str(anyascii(text))


def _clean(text: str) -> str:
    return _NON_KEY.sub("", _ascii(text))


def _family(name: Name) -> str:
    return name.literal if name.literal is not None else (name.family or name.given or "")


def _creators(record: Record) -> tuple[Name, ...]:
    return record.names.get("author") or record.names.get("editor") or ()


def _title_words(record: Record) -> list[str]:
    words = [w for w in _WORD.findall(_ascii(record.title or ""))]
    significant = [w for w in words if w.lower() not in STOP_WORDS]
    return [_clean(w) for w in significant or words if _clean(w)]


def _capitalised(words: Iterable[str]) -> str:
    return "".join(w[:1].upper() + w[1:] for w in words)


def _auth(record: Record, n: int | None) -> str:
    people = _creators(record)
    return _clean(_family(people[0])) if people else ""


def _authors(record: Record, n: int | None) -> str:
    people = _creators(record)
    shown = people if n is None else people[:n]
    text = "".join(_clean(_family(p)) for p in shown)
    more = len(people) > len(shown) or "author" in record.incomplete_names
    return text + ("EtAl" if more and text else "")


def _authini(record: Record, n: int | None) -> str:
    people = _creators(record)
    if not people or people[0].literal is not None:
        return _auth(record, n)
    first = people[0]
    initials = "".join(_clean(part)[:1] for part in (first.given or "").split())
    return initials + _clean(first.family or "")


def _year(record: Record, n: int | None) -> str:
    return str(record.year) if record.year is not None else ""


def _shortyear(record: Record, n: int | None) -> str:
    return _year(record, n)[-2:]


def _title(record: Record, n: int | None) -> str:
    words = _title_words(record)
    return _capitalised(words if n is None else words[:n])


def _shorttitle(record: Record, n: int | None) -> str:
    return _capitalised(_title_words(record)[: 3 if n is None else n])


def _veryshorttitle(record: Record, n: int | None) -> str:
    return _capitalised(_title_words(record)[: 1 if n is None else n])


def _firstpage(record: Record, n: int | None) -> str:
    page = record.get("page-first") or record.get("page") or ""
    match = re.match(r"[A-Za-z]*\d+", page)
    return match.group(0) if match else ""


def _type(record: Record, n: int | None) -> str:
    return _clean(record.type)


FIELDS: dict[str, Callable[[Record, int | None], str]] = {
    "auth": _auth,
    "authors": _authors,
    "authini": _authini,
    "year": _year,
    "shortyear": _shortyear,
    "title": _title,
    "shorttitle": _shorttitle,
    "veryshorttitle": _veryshorttitle,
    "firstpage": _firstpage,
    "type": _type,
}

CASE_MODIFIERS: dict[str, Callable[[str], str]] = {
    "lower": str.lower,
    "upper": str.upper,
}

_AUTHORS_N = re.compile(r"^authors(\d+)$")

Part = Callable[[Record], str]


def _compile_field(spec: str, pattern: str) -> Part:
    name, *modifiers = spec.split(":")
    number: int | None = None
    authors_n = _AUTHORS_N.match(name)
    if authors_n:
        name, number = "authors", int(authors_n.group(1))
    function = FIELDS.get(name)
    if function is None:
        raise PatternError(f"unknown field [{name}] in key pattern {pattern!r} "
                           f"(known: {', '.join(sorted(FIELDS))}, authorsN)")
    cases: list[Callable[[str], str]] = []
    for modifier in modifiers:
        if modifier.isdigit():
            number = int(modifier)
        elif modifier in CASE_MODIFIERS:
            cases.append(CASE_MODIFIERS[modifier])
        else:
            raise PatternError(f"unknown modifier {modifier!r} in [{spec}] of key pattern "
                               f"{pattern!r} (known: N, {', '.join(CASE_MODIFIERS)})")

    def part(record: Record) -> str:
        text = function(record, number)
        for case in cases:
            text = case(text)
        return text

    return part


@cache
def compile_pattern(pattern: str) -> Callable[[Record], str]:
    """A function giving the (not yet unique) key of a record under ``pattern``."""
    parts: list[Part] = []
    position = 0
    for match in _FIELD.finditer(pattern):
        literal = pattern[position:match.start()]
        if literal:
            parts.append(_literal(literal, pattern))
        parts.append(_compile_field(match.group(1), pattern))
        position = match.end()
    if pattern[position:]:
        parts.append(_literal(pattern[position:], pattern))
    if not parts:
        raise PatternError("the key pattern is empty")

    def key(record: Record) -> str:
        return "".join(part(record) for part in parts)

    return key


#: What ``KeyBook`` adds to a key that is taken: up to two lower-case letters.
_SUFFIX = re.compile(r"[a-z]{0,2}")


def follows_pattern(key: str, record: Record, pattern: str) -> bool:
    """Whether ``key`` is what ``pattern`` makes of ``record``, with or without the suffix
    that makes it unique (``knuth1984texbook``, ``knuth1984texbooka``)."""
    base = compile_pattern(pattern)(record) or "ref"
    return key.startswith(base) and _SUFFIX.fullmatch(key, len(base)) is not None


_LITERAL_OK = re.compile(r"^[A-Za-z0-9_:.\-/+]*$")


def _literal(text: str, pattern: str) -> Part:
    if not _LITERAL_OK.match(text):
        raise PatternError(f"key pattern {pattern!r} has characters a citation key cannot "
                           f"hold: {text!r}")
    return lambda record: text


def _fingerprint(record: Record) -> tuple[str, ...]:
    people = "; ".join(p.display() for p in record.authors)
    return (record.title or "", str(record.year or ""), people, record.type, record.id)


def _suffixes() -> Iterator[str]:
    """"", then a .. z, then aa, ab, ... for ever."""
    yield ""
    for length in count(1):
        for letters in product(ascii_lowercase, repeat=length):
            yield "".join(letters)


class KeyBook:
    """Unique keys for a stream of records, decided once every record has been noted.

    ``note`` each record in input order: a record that keeps its own key reserves it, one that
    needs a key is remembered by its pattern key and sort fingerprint. ``generated_keys`` then
    gives the keys of the records that needed one, in the order they were noted.
    """

    def __init__(self, pattern: str = DEFAULT_PATTERN, regenerate: bool = False,
                 unsafe: re.Pattern[str] | None = None) -> None:
        self._make_key = compile_pattern(pattern)
        self._regenerate = regenerate
        self._unsafe = unsafe
        self._taken: set[str] = set()
        self._groups: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        self._needing = 0

    def reserve(self, key: str) -> bool:
        """Take ``key`` for a record that keeps it; False when it is taken already."""
        if key in self._taken:
            return False
        self._taken.add(key)
        return True

    def note(self, record: Record) -> bool:
        """Note ``record``; whether it keeps the key it has (so it can be written at once)."""
        kept = record.citation_key if not self._regenerate else None
        if kept and self.safe_form(kept) != kept:
            kept = self.safe_form(kept)  # never reserved as it is: it cannot be written
        elif kept and self.reserve(kept):
            return True
        base = kept or self._make_key(record) or "ref"  # a repeated key gets a suffix
        self._groups.setdefault(base, []).append((_fingerprint(record), self._needing))
        self._needing += 1
        return False

    def safe_form(self, key: str) -> str:
        """``key`` with each character (a run of white space at either end) the output
        cannot hold replaced by ``-``."""
        return key if self._unsafe is None else self._unsafe.sub("-", key)

    def made_safe(self, record: Record) -> bool:
        """Whether the key ``record`` keeps is changed only for the characters the output
        cannot hold (the caller reports the change)."""
        key = record.citation_key
        return bool(key) and not self._regenerate and self.safe_form(key or "") != key

    def generated_keys(self) -> list[str]:
        """The key of each noted record that needed one, in the order they were noted."""
        taken = set(self._taken)
        keys = [""] * self._needing
        for base in sorted(self._groups):
            candidates = (base + suffix for suffix in _suffixes())
            for _, position in sorted(self._groups[base]):
                key = next(c for c in candidates if c not in taken)
                taken.add(key)
                keys[position] = key
        return keys


def assign_keys(records: Sequence[Record], pattern: str = DEFAULT_PATTERN,
                regenerate: bool = False) -> list[Record]:
    """``records`` with a unique citation key each, in the same order.

    Keys the records already have are kept (and reserved) unless ``regenerate``; when two
    records have the same key, the first keeps it and the others get it with a suffix.
    """
    book = KeyBook(pattern, regenerate)
    keeps = [book.note(record) for record in records]
    generated = iter(book.generated_keys())
    return [record if keep else record.replace(citation_key=next(generated))
            for record, keep in zip(records, keeps)]
