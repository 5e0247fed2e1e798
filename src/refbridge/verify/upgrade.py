"""``refbridge upgrade``: preprints in a .bib replaced by their published versions, in place,
every other byte of the file kept.

An entry is upgraded only when ``verify`` found its published version and the match is certain
(``classify.certainty``: the same title once normalized, the same authors, a year not earlier,
a journal or proceedings). The upgraded record is the entry merged with the published record by
``services.merge`` (the published type, venue, volume, pages, DOI and date; the preprint's date
kept as ``available-date``; every field the user wrote kept, the citation key and the eprint
fields too) and written by the .bib writer of the entry's own dialect, in the entry's own field
layout; it replaces the entry's text, from its ``@`` to its closing brace, and nothing else: an
entry is never dropped or duplicated, and entries not upgraded keep every byte. ``dry_run``
gives a unified diff per upgraded entry instead. This module must never write anything but the
output it is given, atomically.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from refbridge.errors import RefbridgeError
from refbridge.formats.bibtex.syntax import block_end
from refbridge.formats.bibtex.writer import BIBLATEX_WRITER, BIBTEX_WRITER, Layout, entry_alone
from refbridge.model import Record
from refbridge.registry import WriteOptions
from refbridge.services.merge import PROVENANCE_PREFIX, merge
from refbridge.textio import atomic_output
from refbridge.verify.classify import Verdict


class UpgradeError(RefbridgeError):
    """An upgraded entry cannot be found again in its file."""


@dataclass(frozen=True, slots=True)
class Upgrade:
    """One entry replaced: where, its key, the text before and after, the confidence."""

    file: str
    line: int
    key: str
    before: str
    after: str
    confidence: float
    published: str  #: the published version's DOI or provenance

    def diff(self) -> str:
        """The unified diff of the entry."""
        return "".join(difflib.unified_diff(
            self.before.splitlines(keepends=True), self.after.splitlines(keepends=True),
            f"a/{self.file}:{self.line} {self.key}", f"b/{self.file}:{self.line} {self.key}"))


def upgraded_record(verdict: Verdict) -> Record | None:
    """The entry as its certain published version, or None when it has none."""
    published, sure = verdict.evidence.published, verdict.upgrade_certainty
    if published is None or sure is None or not sure.certain:
        return None
    record = verdict.record
    preprint = record if record.type == "article" and record.eprint is not None \
        else record.replace(type="article")
    merged = merge(preprint, published).record
    extra = {k: v for k, v in merged.extra.items() if not k.startswith(PROVENANCE_PREFIX)}
    # the text around the entry stays in place in the file, never written again
    return entry_alone(merged).replace(extra=extra)


def _entry_start(text: str, line_starts: Sequence[int], line: int, key: str) -> int:
    head = re.compile(r"@[ \t]*[A-Za-z_][\w:-]*[ \t]*[{(]\s*" + re.escape(key) + r"\s*,")
    match = head.search(text, line_starts[line - 1] if 0 < line <= len(line_starts) else 0)
    if match is None:
        raise UpgradeError(f"{line}: entry {key!r} is not where it was read")
    return match.start()


def entry_text(record: Record) -> str:
    """The .bib text of ``record`` in the dialect it was written in."""
    dialect = Layout(record.hints_for("bibtex")).dialect
    writer = BIBLATEX_WRITER if dialect == "biblatex" else BIBTEX_WRITER
    return writer.record_text(record, WriteOptions()).rstrip("\n")


def upgrade_text(text: str, file: str, verdicts: Sequence[Verdict]) -> tuple[str, list[Upgrade]]:
    """``text`` (the .bib ``file``) with the upgradable entries of ``verdicts`` replaced."""
    line_starts = [0, *(m.end() for m in re.finditer("\n", text))]
    edits: list[tuple[int, int, Upgrade]] = []
    for verdict in verdicts:
        record, new = verdict.record, upgraded_record(verdict)
        source = record.source
        if new is None or source is None or source.file != file or not record.citation_key:
            continue
        start = _entry_start(text, line_starts, source.line or 0, record.citation_key)
        end = block_end(text, start)
        if end is None:
            raise UpgradeError(f"{file}:{source.line}: entry {record.citation_key!r} cannot "
                               "be read again")
        judgement = verdict.evidence.published_judgement
        published = verdict.evidence.published
        edits.append((start, end, Upgrade(
            file, source.line or 0, record.citation_key, text[start:end], entry_text(new),
            judgement.confidence if judgement else 0.0,
            (published.record.get("DOI") or published.provenance) if published else "")))
    pieces: list[str] = []
    done = 0
    for start, end, upgrade in sorted(edits, key=lambda edit: edit[0]):
        pieces += [text[done:start], upgrade.after]
        done = end
    pieces.append(text[done:])
    return "".join(pieces), [upgrade for _, _, upgrade in sorted(edits, key=lambda e: e[0])]


def write_upgraded(inputs: Sequence[str], output: str, verdicts: Sequence[Verdict],
                   dry_run: bool) -> list[Upgrade]:
    """Each input .bib with its upgradable entries replaced, one after the other, written to
    ``output`` (unless ``dry_run``); the upgrades made."""
    texts: list[str] = []
    upgrades: list[Upgrade] = []
    for path in inputs:
        with open(path, encoding="utf-8", newline="") as stream:
            text, made = upgrade_text(stream.read(), path, verdicts)
        texts.append(text)
        upgrades += made
    if not dry_run:
        with atomic_output(output, inputs) as out:
            out.write("".join(texts))
    return upgrades
