"""Finding duplicate records across inputs and merging each set of duplicates into one record.

Two records are the same work when they share a DOI or an arXiv identifier (versions ignored;
an arXiv DOI ``10.48550/arXiv.ID`` counts as the arXiv id), or else when their normalized titles
match and their years agree, allowing small differences in the title (punctuation, a typo, a
changed word in a long title) measured with ``difflib``'s ratio. A merged record starts from the
richest record of its set (complete author list, most fields, most precise date) and fills every
gap from the others; every source record is reported. This module must never drop a field that
any duplicate had without keeping one of its values, and must never read or write files.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from anyascii import anyascii

from refbridge.model import Date, Eprint, Name, Record, Source
from refbridge.richtext import Text

#: Smallest ``difflib.SequenceMatcher`` ratio between two normalized titles of the same year
#: that still counts as the same title (0.9 lets a typo or a changed article through, not a
#: different paper with a similar name).
TITLE_SIMILARITY = 0.9

_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(?P<id>.+)$", re.IGNORECASE)
_ARXIV_URL = re.compile(r"^https?://(?:www\.)?arxiv\.org/(?:abs|pdf)/(?P<id>[^?#]+?)(?:\.pdf)?$",
                        re.IGNORECASE)
_ARXIV_VERSION = re.compile(r"v\d+$")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)
_NOT_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Merge:
    """One set of duplicates that became one record."""

    record: Record  #: the merged record
    merged: tuple[Record, ...]  #: the duplicates, in input order
    reason: str  #: why they are the same work: ``same DOI``, ``same arXiv id``, ``same title``

    @property
    def sources(self) -> tuple[Source | None, ...]:
        return tuple(record.source for record in self.merged)


@dataclass(slots=True)
class MergeResult:
    """The records with duplicates merged (in the order of each set's first record)."""

    records: list[Record] = field(default_factory=list)
    merges: list[Merge] = field(default_factory=list)

    def describe(self) -> list[str]:
        """One line per merge: ``merged 2 records (same DOI): a.txt:3, b.json: Title``."""
        lines = []
        for merge in self.merges:
            where = ", ".join(str(source) if source else record.id
                              for record, source in zip(merge.merged, merge.sources))
            lines.append(f"merged {len(merge.merged)} records ({merge.reason}): {where}: "
                         f"{merge.record.title or merge.record.id}")
        return lines


def bare_doi(text: str) -> str:
    """A DOI without ``https://doi.org/`` or ``doi:`` in front: ``10.1000/XYZ``."""
    return _DOI_PREFIX.sub("", text.strip())


def normalized_doi(record: Record) -> str | None:
    """The record's DOI in the form used to compare DOIs (bare, lower case)."""
    doi = record.get("DOI")
    return bare_doi(doi).lower() if doi else None


def arxiv_id_from_url(url: str) -> str | None:
    """The arXiv id (without version) an ``arxiv.org/abs`` or ``/pdf`` address points at."""
    match = _ARXIV_URL.match(url.strip())
    return _ARXIV_VERSION.sub("", match.group("id").lower()) if match else None


def arxiv_id(record: Record) -> str | None:
    """The record's arXiv identifier without version, from its eprint, DOI or URL."""
    candidates = []
    if record.eprint is not None and record.eprint.archive.lower() == "arxiv":
        candidates.append(record.eprint.identifier)
    doi_match = _ARXIV_DOI.match(normalized_doi(record) or "")
    candidates.append(doi_match.group("id") if doi_match else None)
    candidates.append(arxiv_id_from_url(record.get("URL") or ""))
    for candidate in candidates:
        if candidate:
            return _ARXIV_VERSION.sub("", candidate.strip().lower())
    return None


def normalized_title(title: str) -> str:
    """Lower-case ASCII words of ``title``: ``Über-Graphs: A Study`` -> ``uber graphs a study``."""
    return _NOT_WORD.sub(" ", anyascii(title).lower()).strip()


class _Sets:
    """Union-find over record positions."""

    def __init__(self, size: int) -> None:
        self.parent = list(range(size))
        self.reason: dict[int, str] = {}

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i: int, j: int, reason: str) -> None:
        root_i, root_j = sorted((self.find(i), self.find(j)))
        if root_i != root_j:
            self.parent[root_j] = root_i
            self.reason.setdefault(root_i, reason)


def _join_by_key(sets: _Sets, keys: Iterable[tuple[int, str | None]], reason: str) -> None:
    first: dict[str, int] = {}
    for position, key in keys:
        if key:
            sets.join(first.setdefault(key, position), position, reason)


def _same_title(a: str, b: str, similarity: float) -> bool:
    if a == b:
        return True
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return matcher.real_quick_ratio() >= similarity and matcher.ratio() >= similarity


def duplicate_sets(records: Sequence[Record], similarity: float = TITLE_SIMILARITY
                   ) -> list[tuple[list[int], str]]:
    """Positions of the records that are one work, set by set (sets of one included), with the
    reason for each set of several."""
    sets = _Sets(len(records))
    _join_by_key(sets, ((i, normalized_doi(r)) for i, r in enumerate(records)), "same DOI")
    _join_by_key(sets, ((i, arxiv_id(r)) for i, r in enumerate(records)), "same arXiv id")
    by_year: dict[int | None, list[tuple[int, str]]] = {}
    for position, record in enumerate(records):
        if record.title and normalized_title(record.title):
            by_year.setdefault(record.year, []).append((position, normalized_title(record.title)))
    for titled in by_year.values():
        for index, (i, title_i) in enumerate(titled):
            for j, title_j in titled[index + 1:]:
                if sets.find(i) != sets.find(j) and _same_title(title_i, title_j, similarity):
                    sets.join(i, j, "same title and year")
    groups: dict[int, list[int]] = {}
    for position in range(len(records)):
        groups.setdefault(sets.find(position), []).append(position)
    return [(members, sets.reason.get(root, "")) for root, members in groups.items()]


def _richness(record: Record) -> tuple[int, int, int, int]:
    authors_complete = int(bool(record.authors) and "author" not in record.incomplete_names)
    issued = record.issued
    date_precision = len(issued.start.as_list()) if issued and issued.start else 0
    return (authors_complete, len(record.fields) + len(record.names) + len(record.dates),
            len(record.authors), date_precision)


def _best_names(role: str, candidates: Sequence[Record]) -> tuple[tuple[Name, ...], bool]:
    """The fullest name list of ``role``: complete lists first, then the longest."""
    holders = [r for r in candidates if role in r.names]
    best = max(holders, key=lambda r: (role not in r.incomplete_names, len(r.names[role])))
    return best.names[role], role in best.incomplete_names


def _best_date(variable: str, candidates: Sequence[Record]) -> Date:
    dates = [r.dates[variable] for r in candidates if variable in r.dates]
    return max(dates, key=lambda d: len(d.start.as_list()) if d.start else 0)


def _merged_eprint(candidates: Sequence[Record]) -> Eprint | None:
    eprints = [r.eprint for r in candidates if r.eprint is not None]
    if not eprints:
        return None
    base = max(eprints, key=lambda e: (e.identifier is not None, e.primary_class is not None))
    cross_lists = tuple(dict.fromkeys(c for e in eprints for c in e.classes
                                      if c != base.primary_class))
    return Eprint(base.archive, base.identifier,
                  base.primary_class or next((e.primary_class for e in eprints
                                              if e.primary_class), None), cross_lists)


def merge_records(duplicates: Sequence[Record]) -> Record:
    """One record from ``duplicates``: the richest one, every gap filled from the others."""
    base = max(duplicates, key=_richness)  # max keeps the first of equals: input order wins
    ordered = [base, *(r for r in duplicates if r is not base)]
    fields: dict[str, Text] = {}
    extra: dict[str, str] = {}
    for record in ordered:
        for variable, value in record.fields.items():
            fields.setdefault(variable, value)
        for key, value in record.extra.items():
            extra.setdefault(key, value)
    names: dict[str, tuple[Name, ...]] = {}
    incomplete: set[str] = set()
    for role in dict.fromkeys(role for record in ordered for role in record.names):
        names[role], cut_short = _best_names(role, ordered)
        if cut_short:
            incomplete.add(role)
    dates = {variable: _best_date(variable, ordered)
             for variable in dict.fromkeys(v for record in ordered for v in record.dates)}
    keywords = tuple(dict.fromkeys(k for record in ordered for k in record.keywords))
    citation_key = next((r.citation_key for r in ordered if r.citation_key), None)
    return base.replace(fields=fields, names=names, dates=dates, keywords=keywords,
                        eprint=_merged_eprint(ordered), incomplete_names=frozenset(incomplete),
                        citation_key=citation_key, extra=extra)


def deduplicate(records: Sequence[Record], similarity: float = TITLE_SIMILARITY) -> MergeResult:
    """``records`` with each set of duplicates merged into one, and what was merged."""
    result = MergeResult()
    for members, reason in duplicate_sets(records, similarity):
        duplicates = [records[i] for i in members]
        if len(duplicates) == 1:
            result.records.append(duplicates[0])
            continue
        merged = merge_records(duplicates)
        result.records.append(merged)
        result.merges.append(Merge(merged, tuple(duplicates), reason))
    return result
