"""The verdict on one entry from what the services said (``lookup.Evidence``).

Each entry gets the findings that apply, each of one kind (the ``KINDS`` table, in the order of
their weight; the heaviest is the entry's status):

- ``retracted``, ``concern``, ``corrected``: a notice updates the work (Crossref's
  ``updated-by``, from the publisher or Retraction Watch; OpenAlex's ``is_retracted``), or the
  cited DOI is itself a retraction notice (``update-to``);
- ``not-found``: every service asked answered, and none knows the entry (possibly fabricated);
  said with each question asked;
- ``mismatch``: the work was found, and fields of the entry contradict it (``compare``);
- ``unreachable``: a service failed (never counted as "not found"); the services down for the
  whole run (``Asked.down``) are named together in one finding, since the run says why once;
- ``published``: the entry is a preprint with a published version (its DOI, venue and the
  confidence of the match; ``certain`` when ``upgrade`` may replace it);
- ``verified``: found, nothing contradicted.

This module must never make a request or print.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from refbridge.check.rules import Rule
from refbridge.errors import location
from refbridge.model import Record, Source
from refbridge.sameness.text import normalize_title
from refbridge.services.http import SERVICE_NAMES
from refbridge.verify.compare import Difference, differences, same_authors
from refbridge.verify.lookup import DOWN, PUBLISHED_TYPES, Evidence

#: Every kind of finding, heaviest first, with its severity and what it means.
KINDS: tuple[Rule, ...] = (
    Rule("retracted", "error", "the work is retracted (or withdrawn, or removed)"),
    Rule("not-found", "error", "no service asked knows the entry: possibly fabricated"),
    Rule("mismatch", "error", "fields of the entry contradict the work's record"),
    Rule("concern", "warning", "an expression of concern is attached to the work"),
    Rule("unreachable", "warning", "a service failed: the entry could not be checked fully"),
    Rule("corrected", "note", "a correction or erratum updates the work"),
    Rule("published", "note", "the entry is a preprint that has a published version"),
    Rule("verified", "note", "the work was found and nothing contradicts the entry"),
)
KIND_NAMES: tuple[str, ...] = tuple(rule.id for rule in KINDS)
_SEVERITIES = {rule.id: rule.severity for rule in KINDS}

#: Crossref update type -> finding kind (types not listed, such as new_version, are none).
NOTICE_KINDS: dict[str, str] = {
    "retraction": "retracted", "partial_retraction": "retracted", "withdrawal": "retracted",
    "removal": "retracted", "expression_of_concern": "concern", "correction": "corrected",
    "erratum": "corrected", "corrigendum": "corrected", "addendum": "corrected",
    "clarification": "corrected",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing found about one entry (shown by ``report`` as ``check`` shows its findings)."""

    code: str  #: a kind of ``KINDS``
    message: str
    source: Source | None
    key: str | None
    details: dict[str, Any] = field(default_factory=dict)
    fix: None = None

    @property
    def severity(self) -> str:
        return _SEVERITIES[self.code]

    def __str__(self) -> str:
        file, line = (self.source.file, self.source.line) if self.source else (None, None)
        return f"{location(file, line)}: {self.code}: {self.key or '?'}: {self.message}"


@dataclass(frozen=True, slots=True)
class Certainty:
    """Whether a published version certainly is the preprint's, and why (not)."""

    certain: bool
    reasons: tuple[str, ...]


def certainty(record: Record, published: Record) -> Certainty:
    """Same title once normalized, same authors, a year not earlier, a journal or
    proceedings: the conditions ``upgrade`` needs."""
    failed: list[str] = []
    if normalize_title(record.title or "") != normalize_title(published.title or ""):
        failed.append("the titles differ")
    if record.authors and not same_authors(record, published):
        failed.append("the authors differ")
    if record.year is not None and (published.year is None or published.year < record.year):
        failed.append("the published year is earlier")
    if published.type not in PUBLISHED_TYPES:
        failed.append("not a journal or proceedings")
    return Certainty(not failed, tuple(failed) or (("same title, authors, later year, "
                                                   "journal or proceedings"),))


@dataclass(slots=True)
class Verdict:
    """The findings about one entry, and the evidence they come from."""

    evidence: Evidence
    findings: list[Finding]
    upgrade_certainty: Certainty | None = None

    @property
    def record(self) -> Record:
        return self.evidence.record

    @property
    def status(self) -> str:
        """The heaviest finding's kind."""
        return min((f.code for f in self.findings), key=KIND_NAMES.index)


def _name(service: str) -> str:
    return SERVICE_NAMES[service]


def classify(evidence: Evidence) -> Verdict:
    """The verdict on ``evidence``'s entry (see the module docstring)."""
    record = evidence.record
    findings: list[Finding] = []

    def add(kind: str, message: str, **details: Any) -> None:
        findings.append(Finding(kind, message, record.source, record.citation_key or record.id,
                                details))

    work = evidence.work
    if work is not None:
        for notice in work.notices:
            kind = NOTICE_KINDS.get(notice.kind)
            if kind is None:
                continue
            who = ("Retraction Watch" + (f" record {notice.record_id}" if notice.record_id
                                         else "")) if notice.source == "retraction-watch" \
                else _name(notice.source) if notice.source in SERVICE_NAMES else notice.source
            what = notice.kind.replace("_", " ")
            text = (f"the cited DOI is a {what} notice of {notice.doi}" if notice.is_notice
                    else f"{what}" + (f" {notice.doi}" if notice.doi else "")
                    + (f" of {notice.date}" if notice.date else "") + f" (says {who})")
            add(kind, text, notice=notice.kind, notice_doi=notice.doi, date=notice.date,
                source=notice.source, record_id=notice.record_id)
        found_differences = differences(record, work, _name(work.service))
        if evidence.unresolved_doi:
            found_differences.append(Difference("DOI", evidence.unresolved_doi,
                                                work.record.get("DOI") or "", "no registry"))
        for difference in found_differences:
            add("mismatch", str(difference), field=difference.field, ours=difference.ours,
                theirs=difference.theirs, service=work.service)
    for asked in evidence.failed:
        if not asked.down:
            add("unreachable", str(asked), service=asked.service, question=asked.how)
    down = list(dict.fromkeys(asked.service for asked in evidence.failed if asked.down))
    if down:
        add("unreachable", f"not checked at {', '.join(_name(s) for s in down)}: {DOWN}",
            services=down, down=True)
    if work is None and not evidence.failed:
        add("not-found", "no service knows this entry; asked: "
            + "; ".join(str(asked) for asked in evidence.asked),
            asked=[{"service": a.service, "how": a.how, "outcome": a.outcome,
                    "detail": a.detail} for a in evidence.asked])
    verdict = Verdict(evidence, findings)
    _published(evidence, verdict, add)
    if not findings:
        add("verified", f"{_name(work.service) if work else '?'}: "
            f"{work.provenance if work else ''}"
            f"{' (by identifier)' if evidence.linked else f' ({evidence.confidence:.2f})'}",
            service=work.service if work else None)
    return verdict


def _published(evidence: Evidence, verdict: Verdict, add: Any) -> None:
    published, judgement = evidence.published, evidence.published_judgement
    if published is not None and judgement is not None:
        sure = certainty(evidence.record if evidence.record.title else
                         evidence.work.record if evidence.work else evidence.record,
                         published.record)
        verdict.upgrade_certainty = sure
        venue = published.record.get("container-title") or "?"
        add("published", f"published as {published.record.get('DOI') or published.provenance}"
            f" in {venue} ({published.record.year or '?'}); {_name(published.service)}, "
            f"confidence {judgement.confidence:.2f}, "
            f"{'certain' if sure.certain else 'not certain: ' + ', '.join(sure.reasons)}",
            doi=published.record.get("DOI"), venue=venue, year=published.record.year,
            service=published.service, confidence=judgement.confidence,
            certain=sure.certain)
    for version in evidence.announced:
        add("published", f"published in {version.venue} (stated by the {version.how}; no "
            "record of it found)", venue=version.venue, doi=None, certain=False)
