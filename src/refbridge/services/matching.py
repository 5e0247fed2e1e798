"""Deciding whether a found work is the record's work, and saying why.

Three checks, as a careful person would make them: the titles are the same once case, accents,
punctuation and TeX markup are set aside (similarity 0..1, ``difflib``'s ratio on normalized
text); the years are within one of each other (a preprint and its versions straddle New Year);
and the record's known authors (a profile's owner) are among the found authors. The confidence
starts at the title similarity and loses ``YEAR_PENALTY`` or ``AUTHOR_PENALTY`` for a failed
check. A candidate is

- ``match``: confidence at least ``MATCH_CONFIDENCE``, every check passed, no rival;
- ``ambiguous``: another candidate (a different work) is within ``AMBIGUITY_MARGIN``;
- ``weak``: a failed check, or a confidence between ``CANDIDATE_FLOOR`` and the match level;
- ``not-found``: nothing reaches ``CANDIDATE_FLOOR``.

A work reached through an identifier the record already has (a DOI, an arXiv id) is a
``match`` when its title is at least ``LINKED_TITLE_FLOOR`` similar, else ``weak``. This
module must never make a request or change a record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from refbridge.model import Record
from refbridge.sameness.people import same_person
from refbridge.sameness.text import normalize_title
from refbridge.sameness.works import title_similarity
from refbridge.services.found import Found

MATCH_CONFIDENCE = 0.90
CANDIDATE_FLOOR = 0.60
AMBIGUITY_MARGIN = 0.05
LINKED_TITLE_FLOOR = 0.60
YEAR_PENALTY = 0.25
AUTHOR_PENALTY = 0.35
#: Share of a complete author list that must reappear (a published version may differ).
COMPLETE_LIST_SHARE = 0.5

_DATE_IN_TEXT = re.compile(r"^(\d{4})")


def record_years(record: Record) -> set[int]:
    """Every year the record states: its dates, and arXiv version dates kept in ``extra``."""
    years = {date.year for date in record.dates.values() if date.year is not None}
    for key in ("arxiv.published", "arxiv.updated"):
        match = _DATE_IN_TEXT.match(record.extra.get(key, ""))
        if match:
            years.add(int(match.group(1)))
    return years


@dataclass(frozen=True, slots=True)
class Assessment:
    """How one candidate compares with the record."""

    found: Found
    title_similarity: float
    year_ok: bool
    authors_ok: bool
    confidence: float
    reasons: tuple[str, ...]

    @property
    def checks_passed(self) -> bool:
        return self.year_ok and self.authors_ok


def assess(record: Record, found: Found) -> Assessment:
    """Compare ``found`` with ``record`` on title, year and authors."""
    similarity = title_similarity(record.title or "", found.record.title or "")
    reasons = [f"title {similarity:.2f}"]
    mine, theirs = record_years(record), record_years(found.record)
    year_ok = not mine or not theirs or any(abs(a - b) <= 1 for a in mine for b in theirs)
    if mine and theirs:
        reasons.append(f"year {min(theirs)} {'within one' if year_ok else 'too far'} of "
                       f"{', '.join(str(y) for y in sorted(mine))}")
    known = record.authors
    found_authors = found.record.authors
    present = [n for n in known if any(same_person(n, other) for other in found_authors)]
    if not known:
        authors_ok = True
    elif "author" in record.incomplete_names:
        authors_ok = len(present) == len(known)
    else:
        authors_ok = len(present) >= max(1, COMPLETE_LIST_SHARE * len(known))
    if known:
        missing = [n.display() for n in known if n not in present]
        reasons.append(
            f"{', '.join(n.display() for n in present)} among {len(found_authors)} authors"
            if authors_ok and not missing else
            f"{', '.join(missing)} not among the {len(found_authors)} authors")
    confidence = similarity - (0 if year_ok else YEAR_PENALTY) - (
        0 if authors_ok else AUTHOR_PENALTY)
    return Assessment(found, similarity, year_ok, authors_ok, max(0.0, round(confidence, 4)),
                      tuple(reasons))


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on a record's candidates from one look-up."""

    verdict: str  #: "match", "ambiguous", "weak" or "not-found"
    best: Assessment | None
    rivals: tuple[Assessment, ...] = ()
    linked: bool = False  #: reached through an identifier the record has

    @property
    def confidence(self) -> float:
        return self.best.confidence if self.best else 0.0

    def explain(self) -> str:
        if self.best is None:
            return "no candidate close enough"
        text = (f"{self.best.found.provenance} ({'; '.join(self.best.reasons)}; "
                f"confidence {self.best.confidence:.2f}"
                + ("; linked by identifier" if self.linked else "") + ")")
        if self.rivals:
            text += " and " + ", ".join(
                f"{r.found.provenance} ({r.confidence:.2f})" for r in self.rivals)
        return text


def judge(record: Record, candidates: Sequence[Found], linked: bool = False) -> Judgement:
    """The verdict on ``candidates`` for ``record`` (see the module docstring)."""
    assessed = sorted((assess(record, found) for found in candidates),
                      key=lambda a: a.confidence, reverse=True)
    if linked and assessed:
        best = assessed[0]
        ok = best.title_similarity >= LINKED_TITLE_FLOOR
        return Judgement("match" if ok else "weak", best, linked=True)
    considered = [a for a in assessed if a.confidence >= CANDIDATE_FLOOR]
    if not considered:
        return Judgement("not-found", assessed[0] if assessed else None)
    best = considered[0]
    rivals = tuple(_rivals(best, considered[1:]))
    if rivals:
        return Judgement("ambiguous", best, rivals)
    if best.checks_passed and best.confidence >= MATCH_CONFIDENCE:
        return Judgement("match", best)
    return Judgement("weak", best)


def _rivals(best: Assessment, others: Iterable[Assessment]) -> Iterable[Assessment]:
    for other in others:
        if (other.found.work_key != best.found.work_key
                and best.confidence - other.confidence <= AMBIGUITY_MARGIN):
            yield other


def query_words(title: str, limit: int = 12) -> str:
    """A title as plain search words (no punctuation or markup), at most ``limit`` of them."""
    return " ".join(normalize_title(title).split()[:limit])
