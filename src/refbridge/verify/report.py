"""Verification verdicts as reports: ``text`` (one line a finding), ``json`` (one object an
entry, with every finding's details and every question asked), ``sarif`` and ``github`` (as
``refbridge check`` prints them, through ``check.report``), the summary line, and which
verdicts fail a CI run (``--fail-on``). This module must never decide a verdict.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from refbridge.check.report import report_lines
from refbridge.errors import ExitStatus, RefbridgeError
from refbridge.verify.classify import KIND_NAMES, KINDS, Verdict
from refbridge.verify.run import VerifyRun

FORMATS: tuple[str, ...] = ("text", "json", "sarif", "github")
#: The findings that fail a run unless ``--fail-on`` says otherwise.
DEFAULT_FAIL_ON: tuple[str, ...] = ("retracted", "not-found", "mismatch", "concern",
                                    "unreachable")


class FailOnError(RefbridgeError):
    """``--fail-on`` names a kind of finding that does not exist."""

    exit_status = ExitStatus.USAGE


def fail_on_kinds(text: str) -> frozenset[str]:
    """The kinds ``--fail-on`` lists (comma-separated; ``none`` for none)."""
    names = {name.strip() for name in text.split(",") if name.strip()} - {"none"}
    unknown = sorted(names - set(KIND_NAMES))
    if unknown:
        raise FailOnError(f"--fail-on: unknown finding(s) {', '.join(unknown)} (known: "
                          f"{', '.join(KIND_NAMES)}, none)")
    return frozenset(names)


def _entry_object(verdict: Verdict) -> dict[str, object]:
    record = verdict.record
    source = record.source
    return {"key": record.citation_key or record.id, "file": source.file if source else None,
            "line": source.line if source else None, "status": verdict.status,
            "findings": [{"kind": f.code, "severity": f.severity, "message": f.message,
                          **f.details} for f in verdict.findings],
            "asked": [{"service": a.service, "how": a.how, "outcome": a.outcome,
                       "detail": a.detail} for a in verdict.evidence.asked]}


def report(verdicts: Sequence[Verdict], form: str) -> Iterator[str]:
    """The lines of the ``form`` report of ``verdicts``."""
    if form == "json":
        yield json.dumps([_entry_object(v) for v in verdicts], indent=1, ensure_ascii=False)
        return
    findings = (finding for verdict in verdicts for finding in verdict.findings)
    yield from report_lines(findings, form, "refbridge verify", KINDS)


def summary(run: VerifyRun) -> str:
    """``N entries: 6 verified, 1 mismatch...; F from cache, R request(s)``."""
    counts = Counter(verdict.status for verdict in run.verdicts)
    parts = ", ".join(f"{counts[kind]} {kind}" for kind in KIND_NAMES if counts[kind])
    return (f"{len(run.verdicts)} entr{'y' if len(run.verdicts) == 1 else 'ies'}"
            f"{': ' + parts if parts else ''}; {run.from_cache} from cache, "
            f"{run.requests} request(s)")


def failing(verdicts: Iterable[Verdict], kinds: frozenset[str]) -> int:
    """How many entries have a finding of one of ``kinds``."""
    return sum(1 for v in verdicts if any(f.code in kinds for f in v.findings))
