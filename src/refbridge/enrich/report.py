"""What an enrichment run did to each record, and the summary a user reads at the end.

A record's outcome is one of ``enriched`` (values filled from a match), ``unchanged`` (matched,
nothing to add), ``ambiguous`` / ``weak`` (a candidate not applied, with the reasons),
``not-found``, ``not-cached`` (``--offline`` and nothing cached) or ``complete`` (nothing to
look up). This module must never make a request or change a record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from refbridge.errors import location
from refbridge.model import Record
from refbridge.services.http import SERVICE_NAMES

#: Outcome -> phrase in the summary, in the order the summary lists them.
SUMMARY_PHRASES: dict[str, str] = {
    "enriched": "enriched",
    "unchanged": "matched with nothing to add",
    "ambiguous": "ambiguous",
    "weak": "weak match",
    "not-found": "not found",
    "not-cached": "not in the cache",
    "complete": "already complete",
}

#: Verdicts worth a line of their own on standard error: the uncertain ones always, the
#: empty ones when nothing else was found for the record (a preprint without a published
#: version is normal).
REPORTED_OUTCOMES: frozenset[str] = frozenset({"ambiguous", "weak", "not-found", "not-cached"})
ALWAYS_REPORTED: frozenset[str] = frozenset({"ambiguous", "weak"})


@dataclass(frozen=True, slots=True)
class Step:
    """One service's part in a record's enrichment."""

    service: str
    verdict: str  #: "match", "ambiguous", "weak", "not-found" or "not-cached"
    confidence: float
    explanation: str
    applied: bool
    filled: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()


@dataclass(slots=True)
class RecordOutcome:
    """What happened to one record."""

    record: Record
    steps: list[Step] = field(default_factory=list)
    from_cache: bool = False  #: every answer for this record came from the cache
    outcome: str = "complete"

    def settle(self) -> None:
        """Set ``outcome`` from the steps: the applied step wins, else the most hopeful one."""
        if not self.steps:
            self.outcome = "complete"
        elif any(s.applied and s.filled for s in self.steps):
            self.outcome = "enriched"
        elif any(s.applied for s in self.steps):
            self.outcome = "unchanged"
        else:
            order = ("ambiguous", "weak", "not-cached", "not-found")
            self.outcome = min((s.verdict for s in self.steps), key=order.index)

    @property
    def where(self) -> str:
        source = self.record.source
        return location(source.file if source else self.record.id,
                        source.line if source else None)

    def messages(self) -> Iterator[str]:
        title = (self.record.title or self.record.id)[:70]
        uncached = [s.service for s in self.steps if s.verdict == "not-cached"]
        if uncached and self.outcome == "not-cached":  # one line, not an address per service
            names = ", ".join(SERVICE_NAMES.get(service, service) for service in uncached)
            yield f"{self.where}: not-cached: {title!r}: no cached answer from {names} (offline)"
        for step in self.steps:
            if not step.applied and step.verdict in REPORTED_OUTCOMES - {"not-cached"} and (
                    step.verdict in ALWAYS_REPORTED or self.outcome == step.verdict):
                hint = {"ambiguous": " (--accept ambiguous applies the best)",
                        "weak": " (--accept weak applies it)"}.get(step.verdict, "")
                yield (f"{self.where}: {step.verdict}: {title!r}: {step.service}: "
                       f"{step.explanation}{hint}")
            for conflict in step.conflicts:
                yield f"{self.where}: conflict: {title!r}: {conflict} (--overwrite replaces)"


@dataclass(slots=True)
class EnrichReport:
    """Every record's outcome, and how many requests the run made."""

    outcomes: list[RecordOutcome] = field(default_factory=list)
    requests: int = 0

    def counts(self) -> Counter[str]:
        return Counter(o.outcome for o in self.outcomes)

    @property
    def from_cache(self) -> int:
        return sum(1 for o in self.outcomes if o.from_cache)

    def messages(self) -> Iterator[str]:
        for outcome in self.outcomes:
            yield from outcome.messages()

    def summary(self) -> str:
        """``14 records: 12 enriched, 1 ambiguous, 1 not found; 14 from cache, 0 requests``."""
        counts = self.counts()
        parts = [f"{counts[key]} {phrase}" for key, phrase in SUMMARY_PHRASES.items()
                 if counts[key]]
        return (f"{len(self.outcomes)} record(s): {', '.join(parts) or 'none'}; "
                f"{self.from_cache} from cache, {self.requests} request(s)")
