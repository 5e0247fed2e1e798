"""What a push will do with each record, and what it did: the plan and the report.

Each record is added, skipped because the library has it already (or an earlier record of the
same push is the same work), or, with ``--update``, updated in place. The report says so per
record for a dry run, and counts it otherwise; a record Zotero refused is named with its file
and line and the reason Zotero gave. This module must never make a request.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from refbridge.model import Record
from refbridge.sameness.keys import LibraryIndex

ADD, SKIP, UPDATE = "add", "skip", "update"


@dataclass(slots=True)
class Step:
    """One record and what happens to it."""

    record: Record
    action: str
    existing: str | None = None  #: the library item's key, for SKIP and UPDATE
    same_as: Record | None = None  #: an earlier record of this push that is the same work
    error: str | None = None  #: why Zotero refused it

    @property
    def where(self) -> str:
        return str(self.record.source) if self.record.source else self.record.id

    @property
    def title(self) -> str:
        return self.record.title or self.record.id

    def describe(self, dry_run: bool) -> str:
        if self.error is not None:
            return f"{self.where}: error: Zotero refused {self.title!r}: {self.error}"
        if self.same_as is not None:
            return (f"{self.where}: skipped {self.title!r}: the same work as the record at "
                    f"{self.same_as.source or self.same_as.id}")
        verb = {ADD: ("would add", "added"), UPDATE: ("would update", "updated"),
                SKIP: ("already in the library", "already in the library")}[self.action]
        text = f"{self.where}: {verb[0] if dry_run else verb[1]} {self.title!r}"
        if self.existing is not None:
            text += f" (item {self.existing}" + (", skipped)" if self.action == SKIP else ")")
        return text


def make_plan(records: Iterable[Record], index: LibraryIndex | None, update: bool
              ) -> list[Step]:
    """A step per record: already in the library (``index``; None: not checked), the same as
    an earlier record, or new."""
    steps: list[Step] = []
    pushed = LibraryIndex()
    earlier: dict[str, Record] = {}
    for number, record in enumerate(records):
        existing = index.find(record) if index is not None else None
        if existing is not None:
            steps.append(Step(record, UPDATE if update else SKIP, existing))
            continue
        twin = pushed.find(record)
        if twin is not None:
            steps.append(Step(record, SKIP, same_as=earlier[twin]))
            continue
        pushed.add(record, str(number))
        earlier[str(number)] = record
        steps.append(Step(record, ADD))
    return steps


@dataclass(slots=True)
class PushReport:
    """What a push did (or, in a dry run, would do) to which library."""

    target: str
    steps: list[Step]
    dry_run: bool = False
    notes: list[str] = field(default_factory=list)  #: said once, before the summary

    def count(self, action: str) -> int:
        return sum(1 for s in self.steps if s.action == action and s.error is None
                   and s.same_as is None)

    @property
    def failed(self) -> list[Step]:
        return [s for s in self.steps if s.error is not None]

    def messages(self) -> list[str]:
        """A line per record in a dry run; else a line per refused record."""
        shown = self.steps if self.dry_run else self.failed
        return [step.describe(self.dry_run) for step in shown] + self.notes

    def summary(self) -> str:
        twins = sum(1 for s in self.steps if s.same_as is not None)
        parts = [f"{self.count(ADD)} {'to add' if self.dry_run else 'added'}"]
        if self.count(UPDATE):
            parts.append(f"{self.count(UPDATE)} {'to update' if self.dry_run else 'updated'}")
        parts.append(f"{self.count(SKIP)} already in the library")
        if twins:
            parts.append(f"{twins} repeated in the input")
        if self.failed:
            parts.append(f"{len(self.failed)} refused")
        head = "dry run, nothing saved: " if self.dry_run else ""
        return f"{head}{len(self.steps)} record(s) to {self.target}: {', '.join(parts)}"

