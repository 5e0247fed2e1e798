"""A list of records split into parts: by year, type, arXiv subject, keyword or any text field.

``split`` is what ``refbridge cv --group-by`` (``--split-by``) and ``refbridge format
--split-by`` share, as biblatex's ``refsection``/keyword filters and citeproc-js's
bibliography ``select`` do: each part has a key (what ``--split-order`` names), a heading and
its records in the order they came. Parts come in a documented order: years newest first; types
in the order of the kinds table asked for (``refbridge.cv.types``), headed in the locale's
language where its CSL locale names the type; subjects with the most records first; keywords
and field values alphabetically; then the records no part took, under ``Other`` (``Undated``,
``Other subjects``), so no record is ever dropped. A record with several keywords is in each of
their parts. ``--split-order`` puts the parts it names first, in its order. This module must
never format an entry nor reorder the records of a part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from anyascii import anyascii

from refbridge.arxiv_taxonomy import category_name
from refbridge.csl import Locale, LocaleStore
from refbridge.cv.select import CvOptionError, record_subjects
from refbridge.cv.types import PUBLICATION_KINDS, PublicationKind, kind_in
from refbridge.model import Record
from refbridge.vocab import TEXT_VARIABLE_SET

UNDATED = "Undated"
NO_SUBJECT = "Other subjects"
#: the heading of the records a keyword or field split puts in no part
NO_VALUE = "Other"
#: the ways to split that are not a field name
SPLIT_KINDS = ("year", "type", "subject", "keyword", "none")


@dataclass(frozen=True, slots=True)
class Part:
    key: str | None  #: what ``--split-order`` names (kind, year, subject, keyword, value)
    heading: str | None  #: None when the list is not split
    records: list[Record]


@dataclass(frozen=True, slots=True)
class Split:
    """How a list is split: ``by`` one of ``SPLIT_KINDS`` or a CSL text variable."""

    by: str = "none"
    order: tuple[str, ...] = ()  #: part keys to put first, in this order
    locale: str | None = None  #: the language of type headings (None: English)
    kinds: tuple[PublicationKind, ...] = field(default=PUBLICATION_KINDS)

    def __post_init__(self) -> None:
        if self.by not in SPLIT_KINDS and self.by not in TEXT_VARIABLE_SET:
            raise CvOptionError(f"unknown --split-by {self.by!r} (choose from "
                                f"{', '.join(SPLIT_KINDS)}, or a CSL text variable such as "
                                "container-title or publisher)")


def _collect(pairs: Iterable[tuple[str | None, Record]]) -> dict[str | None, list[Record]]:
    parts: dict[str | None, list[Record]] = {}
    for key, record in pairs:
        parts.setdefault(key, []).append(record)
    return parts


def _fold(text: str) -> str:
    return anyascii(text).casefold()


def _alphabetical(parts: dict[str | None, list[Record]], rest: str) -> list[Part]:
    named = sorted((key for key in parts if key is not None), key=lambda key: (_fold(key), key))
    return ([Part(key, key, parts[key]) for key in named]
            + ([Part(None, rest, parts[None])] if None in parts else []))


def _by_year(records: Sequence[Record], how: Split) -> list[Part]:
    years = _collect((str(r.year) if r.year is not None else None, r) for r in records)
    order = sorted((year for year in years if year is not None), key=int, reverse=True)
    return ([Part(year, year, years[year]) for year in order]
            + ([Part(None, UNDATED, years[None])] if None in years else []))


@cache
def _locale(tag: str) -> Locale:
    return LocaleStore().locale(tag)


def type_heading(kind: PublicationKind, locale: str | None) -> str:
    """The kind's heading: in English its table's, else the locale's term for its first CSL
    type (plural where the locale has one), capitalised; the table's when the locale has none."""
    if not locale or locale.split("-")[0].casefold() == "en" or not kind.csl_types:
        return kind.heading
    term = _locale(locale).term(kind.csl_types[0], plural=True)
    return term[:1].upper() + term[1:] if term else kind.heading


def _by_type(records: Sequence[Record], how: Split) -> list[Part]:
    kinds = _collect((kind_in(how.kinds, r.type).name, r) for r in records)
    return [Part(kind.name, type_heading(kind, how.locale), kinds[kind.name])
            for kind in how.kinds if kind.name in kinds]


def subject_heading(code: str | None) -> str:
    """``Databases · cs.DB``; the bare code when the taxonomy does not know it."""
    if code is None:
        return NO_SUBJECT
    name = category_name(code)
    return f"{name} \u00b7 {code}" if name else code


def _by_subject(records: Sequence[Record], how: Split) -> list[Part]:
    subjects = _collect((next(iter(record_subjects(r)), None), r) for r in records)
    named = sorted((code for code in subjects if code is not None),
                   key=lambda code: (-len(subjects[code]), subject_heading(code).casefold()))
    return ([Part(code, subject_heading(code), subjects[code]) for code in named]
            + ([Part(None, NO_SUBJECT, subjects[None])] if None in subjects else []))


def _by_keyword(records: Sequence[Record], how: Split) -> list[Part]:
    return _alphabetical(_collect((keyword, r) for r in records
                                  for keyword in (dict.fromkeys(r.keywords) or (None,))),
                         NO_VALUE)


def _by_field(records: Sequence[Record], how: Split) -> list[Part]:
    return _alphabetical(_collect((" ".join((r.get(how.by) or "").split()) or None, r)
                                  for r in records), NO_VALUE)


def _not_split(records: Sequence[Record], how: Split) -> list[Part]:
    return [Part(None, None, list(records))] if records else []


#: --split-by value -> its parts in their default order (any other value: a field)
SPLITTERS: dict[str, Callable[[Sequence[Record], Split], list[Part]]] = {
    "year": _by_year,
    "type": _by_type,
    "subject": _by_subject,
    "keyword": _by_keyword,
    "none": _not_split,
}


def split(records: Sequence[Record], how: Split) -> list[Part]:
    """The parts of ``records`` split as ``how`` says, those ``how.order`` names first (in its
    order, compared ignoring case), the others after them in their default order."""
    parts = SPLITTERS.get(how.by, _by_field)(records, how)
    rank = {_fold(key): place for place, key in enumerate(how.order)}
    last = len(rank)
    return sorted(parts, key=lambda part: rank.get(_fold(part.key or ""), last))

