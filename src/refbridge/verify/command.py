"""The work of the ``verify`` and ``upgrade`` commands and of ``cv --published``: inputs read,
entries verified, the report or the upgraded .bib written, what the exit status depends on.

Lines go through the ``echo`` callbacks the command line gives (report to standard output,
messages to standard error), so this module never prints itself and never exits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import read_records
from refbridge.runs import ReadOptions
from refbridge.textio import refuse_overwriting_inputs
from refbridge.verify.classify import Verdict
from refbridge.verify.report import failing, report, summary
from refbridge.verify.run import VerifyRun, verify_records
from refbridge.verify.settings import VerifyOptions
from refbridge.verify.upgrade import UpgradeError, upgraded_record, write_upgraded

Echo = Callable[[str], None]
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a run found: the verdicts, and how many entries fail it."""

    run: VerifyRun
    failing: int


def _verified(inputs: Sequence[str], diagnostics: Diagnostics, read_options: ReadOptions,
              options: VerifyOptions, progress: Progress | None) -> VerifyRun:
    records = list(read_records(inputs, diagnostics, read_options))
    done = 0

    def step(verdict: Verdict) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, len(records))

    return verify_records(records, options, on_verdict=step)


def run_verify(inputs: Sequence[str], diagnostics: Diagnostics, read_options: ReadOptions,
               options: VerifyOptions, form: str, fail_on: frozenset[str], out: Echo,
               err: Echo, progress: Progress | None = None) -> Outcome:
    """Verify every entry of ``inputs``; the report to ``out``, the summary to ``err``."""
    run = _verified(inputs, diagnostics, read_options, options, progress)
    for line in report(run.verdicts, form):
        out(line)
    for message in run.unreachable.values():
        err(f"refbridge: verify: {message}")
    err(f"refbridge: verify: {summary(run)}")
    return Outcome(run, failing(run.verdicts, fail_on))


def run_upgrade(inputs: Sequence[str], output: str, diagnostics: Diagnostics,
                read_options: ReadOptions, options: VerifyOptions, dry_run: bool, out: Echo,
                err: Echo, progress: Progress | None = None) -> Outcome:
    """Upgrade the preprints of the .bib ``inputs`` into ``output`` (or print the diffs)."""
    if "-" in inputs:
        raise UpgradeError("upgrade rewrites .bib files in place of their preprints: name "
                           "the file instead of standard input")
    if not dry_run:
        refuse_overwriting_inputs(output, inputs)
    run = _verified(inputs, diagnostics, read_options, options, progress)
    upgrades = write_upgraded(inputs, output, run.verdicts, dry_run)
    for upgrade in upgrades:
        if dry_run:
            out(upgrade.diff().rstrip("\n"))
        err(f"{upgrade.file}:{upgrade.line}: upgraded: {upgrade.key}: {upgrade.published} "
            f"(confidence {upgrade.confidence:.2f})")
    upgraded = {(u.file, u.line) for u in upgrades}
    for verdict in run.verdicts:
        source = verdict.record.source
        for finding in verdict.findings:
            if finding.code in ("published", "unreachable") and not finding.details.get(
                    "down") and (source is None or (source.file, source.line) not in upgraded):
                err(f"{finding} (not upgraded)" if finding.code == "published" else
                    str(finding))
    for message in run.unreachable.values():
        err(f"refbridge: upgrade: {message}")
    err(f"refbridge: upgrade: {len(upgrades)} of {len(run.verdicts)} entries upgraded; "
        f"{summary(run)}")
    return Outcome(run, failing(run.verdicts, frozenset({"unreachable"})))


def published_records(records: list[Record], options: VerifyOptions, err: Echo) -> list[Record]:
    """``records`` with each certain preprint replaced by its published version (CV lists)."""
    run = verify_records(records, options)
    for message in run.unreachable.values():
        err(f"refbridge: published: {message}")
    result = []
    for verdict in run.verdicts:
        upgraded = upgraded_record(verdict)
        result.append(upgraded or verdict.record)
    err(f"refbridge: published: {sum(1 for a, b in zip(result, records) if a is not b)} of "
        f"{len(records)} record(s) shown as published; {summary(run)}")
    return result
