"""The citation model: one immutable representation every reader fills and every writer reads.

The vocabulary is CSL-JSON's (item types, variables, name parts, date parts; see ``vocab``), so
the model is the common ground between BibTeX, RIS, CSL-JSON, Zotero RDF and profile pages.
Text is Unicode here, and a field's value is rich text (``refbridge.richtext``): a ``str``, or
a ``RichText`` that keeps italics, case protection, formulas and the like. Readers decode
their markup into it on the way in, writers encode it on the way out; ``Record.get`` gives the
plain text.

Values are validated when a record is built, with a message that says which record and which
value is wrong. This module must never know about any file format: no BibTeX, RIS or HTML here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NoReturn, TypeVar

from refbridge.richtext import RichText, Text, check_text, plain
from refbridge.vocab import (
    DATE_VARIABLE_SET,
    ITEM_TYPES,
    NAME_VARIABLE_SET,
    TEXT_VARIABLE_SET,
)

#: The CSL item type of a preprint: a work whose eprint (arXiv ...) is its publication.
PREPRINT_TYPE = "article"

K = TypeVar("K")
V = TypeVar("V")

_EXTRA_KEY = re.compile(r"^[a-z][a-z0-9-]*\.[^\s]+$")
#: Keys of ``extra`` and ``hints`` already found well formed (records repeat them by the
#: thousand; the set is emptied when it grows past ``_KEYS_REMEMBERED``).
_GOOD_KEYS: set[str] = set()
_KEYS_REMEMBERED = 4096


def _good_key(key: object) -> bool:
    """Whether ``key`` looks like ``format.name``."""
    if key in _GOOD_KEYS:
        return True
    if not isinstance(key, str) or not _EXTRA_KEY.match(key):
        return False
    if len(_GOOD_KEYS) >= _KEYS_REMEMBERED:
        _GOOD_KEYS.clear()
    _GOOD_KEYS.add(key)
    return True
def extra_key(namespace: str, name: str) -> str:
    """The ``extra`` key of a format's element, column or tag ``name`` that no mapping reads:
    ``namespace.name``, white space in the name as ``_`` (``csv.Author_full_names``)."""
    return f"{namespace}.{'_'.join(name.split())}"


def add_extra_line(extra: dict[str, str], key: str, value: str) -> None:
    """``value`` as another line of the ``key`` extra (a line already there is not
    repeated): how a reader keeps the second and later values of an element."""
    lines = extra[key].split("\n") if key in extra else []
    if value not in lines:
        extra[key] = "\n".join([*lines, value])


#: A person's identifier at a service: ``scheme:value`` (``orcid:0000-0002-1825-0097``).
_PERSON_ID = re.compile(r"^[a-z][a-z0-9-]*:\S+$")


class ModelError(ValueError):
    """A value that the citation model does not accept."""


class FrozenMap(dict[K, V]):
    """A read-only dict: hashable, picklable, JSON-serialisable, and cheap to build."""

    __slots__ = ()

    def _readonly(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("citation model mappings are read-only; use dataclasses.replace()")

    __setitem__ = _readonly
    __delitem__ = _readonly
    clear = _readonly
    pop = _readonly
    popitem = _readonly
    setdefault = _readonly
    update = _readonly
    __ior__ = _readonly

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type, tuple[dict[K, V]]]:
        return (type(self), (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"


def _check_text(value: object, what: str, key: str | None = None) -> str:
    """``value`` if it is text that is neither blank nor holds a NUL, else an error about
    ``what`` (followed by ``key``, quoted, when given: the message is only built when
    needed, as records are built by the thousand)."""
    if isinstance(value, str) and value.strip() and "\x00" not in value:
        return value
    if key is not None:
        what = f"{what} {key!r}"
    if not isinstance(value, str):
        raise ModelError(f"{what} must be text, not {type(value).__name__}")
    if not value.strip():
        raise ModelError(f"{what} is empty")
    if "\x00" in value:
        raise ModelError(f"{what} contains a NUL character")
    return value


@dataclass(frozen=True, slots=True)
class Source:
    """Where a record came from, for messages: a file name (or ``<stdin>``) and a 1-based line."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class Name:
    """A personal name split into CSL name parts, or a literal (corporate) name."""

    family: str | None = None
    given: str | None = None
    dropping_particle: str | None = None
    non_dropping_particle: str | None = None
    suffix: str | None = None
    literal: str | None = None
    #: How a .bib spelled the name, when it was read from one (a hint for .bib writers,
    #: not part of the name).
    latex: str | None = field(default=None, repr=False, compare=False)
    #: Who the person is at the services that tell people apart, as ``scheme:value``
    #: (``orcid:0000-0002-1825-0097``, ``dblp:95/7448-1``, ``openalex:A5025692314``,
    #: ``s2:1723755``): what a source knew of the person, not part of how the name is written.
    ids: tuple[str, ...] = field(default=(), repr=False, compare=False)
    _parts: FrozenMap[str, str] | None = field(default=None, init=False, repr=False,
                                               compare=False)

    def _values(self) -> tuple[str | None, ...]:
        """The value of each name part, in the order of the fields (the literal form last)."""
        return (self.family, self.given, self.dropping_particle, self.non_dropping_particle,
                self.suffix, self.literal)

    def __post_init__(self) -> None:
        values = self._values()
        for part, value in zip(_NAME_PARTS, values):
            if value is not None:
                _check_text(value, "name part", part)
        if self.literal is not None:
            if any(values[:-1]):
                raise ModelError(f"literal name {self.literal!r} cannot also have name parts")
        elif self.family is None and self.given is None:
            raise ModelError("a name needs a family name, a given name or a literal form")
        if self.ids:
            object.__setattr__(self, "ids", tuple(self.ids))
            for identifier in self.ids:
                if not isinstance(identifier, str) or not _PERSON_ID.match(identifier):
                    raise ModelError(f"person identifier {identifier!r} must look like "
                                     "'scheme:value'")

    @property
    def parts(self) -> FrozenMap[str, str]:
        """The parts that are set, under their CSL names (``non-dropping-particle``), in the
        order of the fields: built on first use and kept, as readers share one Name among
        every record of the person (10,000 generated entries: 40,071 names, 400 Names)."""
        parts = self._parts
        if parts is None:
            parts = FrozenMap((key, value) for key, value in zip(_CSL_NAME_PARTS, self._values())
                              if value is not None)
            object.__setattr__(self, "_parts", parts)
        return parts

    @property
    def is_literal(self) -> bool:
        return self.literal is not None

    def display(self) -> str:
        """The name in reading order: ``Ludwig van Beethoven Jr.`` or the literal form."""
        if self.literal is not None:
            return self.literal
        parts = (self.given, self.dropping_particle, self.non_dropping_particle, self.family)
        text = " ".join(p for p in parts if p)
        return f"{text}, {self.suffix}" if self.suffix else text


#: The parts of a name, in the order of ``Name``'s fields, and their CSL names.
_NAME_PARTS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Name)
                                     if f.init and f.compare)
_CSL_NAME_PARTS: tuple[str, ...] = tuple(part.replace("_", "-") for part in _NAME_PARTS)
#: (CSL name, ``Name`` attribute) of each name part.
NAME_PARTS: tuple[tuple[str, str], ...] = tuple(zip(_CSL_NAME_PARTS, _NAME_PARTS))


@dataclass(frozen=True, slots=True, order=True)
class DateParts:
    """One calendar point: a year, optionally a month (1-12) and a day (1-31)."""

    year: int
    month: int | None = None
    day: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.year, bool) or not isinstance(self.year, int):
            raise ModelError(f"year must be a whole number, not {self.year!r}")
        if self.year == 0:
            raise ModelError("year 0 does not exist (1 BC is -1 in date parts)")
        if self.month is not None and not 1 <= self.month <= 12:
            raise ModelError(f"month must be 1-12, not {self.month!r}")
        if self.day is not None:
            if self.month is None:
                raise ModelError("a day needs a month")
            if not 1 <= self.day <= 31:
                raise ModelError(f"day must be 1-31, not {self.day!r}")

    def as_list(self) -> list[int]:
        if self.month is None:
            return [self.year]
        return [self.year, self.month] if self.day is None else [self.year, self.month, self.day]


SEASONS: tuple[str, ...] = ("spring", "summer", "autumn", "winter")


@dataclass(frozen=True, slots=True)
class Date:
    """A date: a point or a range of date parts, with season and circa, or a literal text."""

    start: DateParts | None = None
    end: DateParts | None = None
    season: int | None = None
    circa: bool = False
    literal: str | None = None

    def __post_init__(self) -> None:
        if self.start is None and self.literal is None:
            raise ModelError("a date needs date parts or a literal form")
        if self.end is not None and self.start is None:
            raise ModelError("a date range needs a start")
        if self.season is not None and not 1 <= self.season <= 4:
            raise ModelError(f"season must be 1-4 (spring..winter), not {self.season!r}")
        if self.literal is not None:
            _check_text(self.literal, "literal date")

    @property
    def year(self) -> int | None:
        return self.start.year if self.start is not None else None

    @classmethod
    def of(cls, year: int, month: int | None = None, day: int | None = None) -> Date:
        return cls(start=DateParts(year, month, day))


@dataclass(frozen=True, slots=True)
class Eprint:
    """A preprint server identity: archive (``arXiv``), identifier with version, categories."""

    archive: str
    identifier: str | None = None
    primary_class: str | None = None
    cross_lists: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_text(self.archive, "eprint archive")
        if self.identifier is not None:
            _check_text(self.identifier, "eprint identifier")
        if self.primary_class is not None:
            _check_text(self.primary_class, "eprint primary class")
        object.__setattr__(self, "cross_lists", tuple(self.cross_lists))
        for code in self.cross_lists:
            _check_text(code, "eprint cross-list category")

    @property
    def classes(self) -> tuple[str, ...]:
        """Every category: the primary first, then the cross-lists."""
        primary = (self.primary_class,) if self.primary_class else ()
        return primary + tuple(c for c in self.cross_lists if c != self.primary_class)


#: The types of value the fast checks of ``Record`` accept (a subclass takes the slow path).
_PLAIN_TYPES: frozenset[type] = frozenset({str})
_NAME_TYPES: frozenset[type] = frozenset({Name})
_DATE_TYPES: frozenset[type] = frozenset({Date})


def _plain_texts(values: Collection[object]) -> bool:
    """Whether every value is a ``str`` that is neither blank nor holds a NUL."""
    return _PLAIN_TYPES.issuperset(map(type, values)) and not any(map(check_text, values))


def _explain_fields(fields: Mapping[str, object]) -> None:
    """The error about the first field that is no known variable or no text."""
    for key, value in fields.items():
        if key not in TEXT_VARIABLE_SET:
            raise ModelError(f"unknown field {key!r} (keep it in extra)")
        if isinstance(value, RichText):
            problem = check_text(value)
            if problem is not None:
                raise ModelError(f"field {key!r} {problem}")
        else:
            _check_text(value, "field", key)


def _explain_names(names: Mapping[str, tuple[object, ...]]) -> None:
    """The error about the first name role that is unknown, empty or holds no Name."""
    for role, people in names.items():
        if role not in NAME_VARIABLE_SET:
            raise ModelError(f"unknown name role {role!r}")
        if not people:
            raise ModelError(f"name role {role!r} has no names")
        for person in people:
            if not isinstance(person, Name):
                raise ModelError(f"name role {role!r} holds {person!r}, not a Name")


def _explain_dates(dates: Mapping[str, object]) -> None:
    """The error about the first date variable that is unknown or holds no Date."""
    for key, date in dates.items():
        if key not in DATE_VARIABLE_SET:
            raise ModelError(f"unknown date variable {key!r}")
        if not isinstance(date, Date):
            raise ModelError(f"date {key!r} holds {date!r}, not a Date")


@dataclass(frozen=True, slots=True)
class Record:
    """One bibliographic record.

    ``fields`` maps CSL text and number variables (``title``, ``container-title``, ``DOI``,
    ``page`` ...) to text (rich text: see ``refbridge.richtext``); ``names`` maps CSL name roles to name tuples; ``dates`` maps CSL date
    variables to dates. ``incomplete_names`` holds the roles whose lists are known to be cut
    short ("and others"). ``extra`` keeps what a reader saw that has no slot here, under keys
    ``"<format>.<field>"`` (``"bibtex.mrnumber"``), so no format loses data by passing through.
    ``hints`` keeps how the source laid the record out (``"bibtex.fields"``: its fields in
    their order, ``"bibtex.preamble"`` ...), under the same kind of keys: a writer of that
    format may lay the record out the same way. Hints are not data: records that differ only
    in their hints are equal.
    """

    id: str
    type: str
    fields: Mapping[str, Text] = field(default_factory=FrozenMap)
    names: Mapping[str, tuple[Name, ...]] = field(default_factory=FrozenMap)
    dates: Mapping[str, Date] = field(default_factory=FrozenMap)
    keywords: tuple[str, ...] = ()
    eprint: Eprint | None = None
    incomplete_names: frozenset[str] = frozenset()
    citation_key: str | None = None
    extra: Mapping[str, str] = field(default_factory=FrozenMap)
    source: Source | None = None
    hints: Mapping[str, str] = field(default_factory=FrozenMap, compare=False, repr=False)

    def __post_init__(self) -> None:
        try:
            self._validate()
        except ModelError as exc:
            raise ModelError(f"record {self.id!r}: {exc}") from None

    def _validate(self) -> None:
        """Every value checked, as a whole collection first (C-speed set and ``map`` tests,
        as records are built by the thousand); a collection that fails is walked value by
        value, for the message that names the value."""
        _check_text(self.id, "id")
        if self.type not in ITEM_TYPES:
            raise ModelError(f"unknown item type {self.type!r}")
        setattr_ = object.__setattr__
        fields = FrozenMap(self.fields)
        if not TEXT_VARIABLE_SET.issuperset(fields) or any(map(check_text, fields.values())):
            _explain_fields(fields)
        setattr_(self, "fields", fields)
        names = FrozenMap(zip(self.names, map(tuple, self.names.values())))
        if not NAME_VARIABLE_SET.issuperset(names) or not all(names.values()) or \
                not _NAME_TYPES.issuperset(map(type, chain.from_iterable(names.values()))):
            _explain_names(names)
        setattr_(self, "names", names)
        dates = FrozenMap(self.dates)
        if not DATE_VARIABLE_SET.issuperset(dates) or \
                not _DATE_TYPES.issuperset(map(type, dates.values())):
            _explain_dates(dates)
        setattr_(self, "dates", dates)
        keywords = tuple(self.keywords)
        if not _plain_texts(keywords):
            for keyword in keywords:
                _check_text(keyword, "keyword")
        setattr_(self, "keywords", keywords)
        incomplete = frozenset(self.incomplete_names)
        unknown_roles = incomplete.difference(names)
        if unknown_roles:
            raise ModelError(f"incomplete name roles {sorted(unknown_roles)} have no names")
        setattr_(self, "incomplete_names", incomplete)
        extra = FrozenMap(self.extra)
        if not _GOOD_KEYS.issuperset(extra) or not _plain_texts(extra.values()):
            for key, text in extra.items():
                if not _good_key(key):
                    raise ModelError(f"extra key {key!r} must look like 'format.field'")
                _check_text(text, "extra field", key)
        setattr_(self, "extra", extra)
        hints = FrozenMap(self.hints)
        if not _GOOD_KEYS.issuperset(hints) or not _PLAIN_TYPES.issuperset(
                map(type, hints.values())) or "\x00" in "".join(hints.values()):
            for key, text in hints.items():
                if not _good_key(key):
                    raise ModelError(f"hint key {key!r} must look like 'format.name'")
                if not isinstance(text, str) or "\x00" in text:
                    raise ModelError(f"hint {key!r} must be text without NUL characters")
        setattr_(self, "hints", hints)
        if self.citation_key is not None:
            _check_text(self.citation_key, "citation key")

    # -- reading -------------------------------------------------------------------------
    def get(self, variable: str, default: str | None = None) -> str | None:
        """The plain text of a CSL text or number variable, or ``default``."""
        value = self.fields.get(variable)
        return default if value is None else plain(value)

    def rich(self, variable: str) -> Text | None:
        """The rich text of a CSL text or number variable, or None."""
        return self.fields.get(variable)

    @property
    def title(self) -> str | None:
        """The plain text of the title."""
        return self.get("title")

    @property
    def issued(self) -> Date | None:
        return self.dates.get("issued")

    @property
    def year(self) -> int | None:
        issued = self.dates.get("issued")
        return issued.year if issued is not None else None

    @property
    def authors(self) -> tuple[Name, ...]:
        return self.names.get("author", ())

    @property
    def is_preprint(self) -> bool:
        """Whether the record is a preprint: its eprint is where it is published. A work
        published elsewhere keeps its venue and numbers; its eprint is a related identifier."""
        return self.type == PREPRINT_TYPE and self.eprint is not None

    def hints_for(self, namespace: str) -> dict[str, str]:
        """The layout hints a reader of ``namespace`` kept, by name."""
        prefix = namespace + "."
        return {key[len(prefix):]: value for key, value in self.hints.items()
                if key.startswith(prefix)}

    def extra_for(self, namespace: str) -> Iterator[tuple[str, str]]:
        """The extra fields a reader of ``namespace`` kept, as (field, value) pairs."""
        prefix = namespace + "."
        for key, value in self.extra.items():
            if key.startswith(prefix):
                yield key[len(prefix):], value

    # -- changing ------------------------------------------------------------------------
    def replace(self, **changes: Any) -> Record:
        """A copy with ``changes`` applied (validated like a new record)."""
        return dataclasses.replace(self, **changes)

