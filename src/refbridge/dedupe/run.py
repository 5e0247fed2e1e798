"""The job of ``refbridge dedupe LIB... -o OUT``: read the libraries, find the entries that
record one work (``matching``), merge each group into one entry (``combine``), and write the
library, the map of the keys that went (``--map``: old key -> kept key, sorted JSON) and the
documents whose citations of those keys are rewritten (``--rewrite``).

Each group is merged where its first entry was; a ``decide`` callback (the command line's
``--interactive``) may keep a group apart. Every merge is reported with the values taken from
the entries that went. Nothing is written on a dry run. Every document is read and its new
text made before anything is written; then the library, the map and the documents are written,
each atomically, so a document that cannot be read leaves every file as it was. This
module must never write a document it did not change, nor an output over one of its inputs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from refbridge.dedupe.combine import Combined, combine, key_of
from refbridge.dedupe.matching import duplicate_groups
from refbridge.dedupe.rewrite import Rewritten, plan_rewrites, write_rewrites
from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import read_records, with_keys, write_records
from refbridge.registry import UnknownFormatName, WriteOptions, get_writer, writer_for_file
from refbridge.runs import ReadOptions
from refbridge.textio import STDIO, atomic_output, refuse_overwriting_inputs

#: The writer of a .bib output: biblatex's, which knows the ``ids`` field.
BIB_FORMAT = "biblatex"


@dataclass(frozen=True, slots=True)
class Group:
    """Entries found to be one work, why, and what merging them gives."""

    records: tuple[Record, ...]
    reason: str
    merged: Combined

    def describe(self) -> list[str]:
        """The report of the merge: the kept key, the keys that go, the values taken."""
        kept = key_of(self.merged.record)
        lines = [(f"merged {', '.join(self.merged.replaced)} into {kept} ({self.reason}): "
                  f"{self.merged.record.title or kept}")]
        lines += [f"  {kept}: {choice}" for choice in self.merged.choices]
        return lines


@dataclass(frozen=True, slots=True)
class DedupeOptions:
    """How ``dedupe`` reads and writes; ``to_format`` None: from the output's name."""

    to_format: str | None = None
    map_file: str | None = None
    documents: tuple[str, ...] = ()
    dry_run: bool = False
    read_options: ReadOptions = ReadOptions()
    write_options: WriteOptions = field(default_factory=WriteOptions)
    strict: bool = False


@dataclass(slots=True)
class DedupeReport:
    """What a run found and did."""

    diagnostics: Diagnostics
    groups: list[Group] = field(default_factory=list)  #: the groups merged
    declined: list[Group] = field(default_factory=list)  #: those kept apart when asked
    renames: dict[str, str] = field(default_factory=dict)
    rewritten: list[Rewritten] = field(default_factory=list)
    records_read: int = 0
    records_written: int = 0

    def lines(self, dry_run: bool = False) -> list[str]:
        text = [line for group in self.groups for line in group.describe()]
        text += [f"kept apart: {', '.join(key_of(r) for r in g.records)}"
                 for g in self.declined]
        verb = "would rewrite" if dry_run else "rewrote"
        text += [f"{verb} {r.replaced} citation(s) in {r.file}" for r in self.rewritten]
        return text

    def summary(self, dry_run: bool) -> str:
        entries = self.records_read - sum(len(g.records) - 1 for g in self.groups)
        verb = "would merge" if dry_run else "merged"
        return (f"{verb} {len(self.groups)} group(s) of duplicates: {self.records_read} "
                f"entr{'y' if self.records_read == 1 else 'ies'} -> {entries}")


def output_format(output: str, named: str | None) -> str:
    """The writer of ``output``: ``named``, else biblatex for a .bib or standard output, else
    the writer of the file ending."""
    if named:
        return named
    if output == STDIO or output.lower().endswith(".bib"):
        return BIB_FORMAT
    found = writer_for_file(output)
    if found is None:
        raise UnknownFormatName(f"cannot tell the output format from the name {output!r}; "
                                "name it with --to")
    return found


def find_groups(records: Sequence[Record]) -> list[Group]:
    """The groups of entries of ``records`` that are one work, each with its merge."""
    found = []
    for members, reason in duplicate_groups(records):
        group = tuple(records[i] for i in members)
        found.append(Group(group, reason, combine(group)))
    return found


def _merged(records: Sequence[Record], groups: Sequence[Group]) -> list[Record]:
    """``records`` with each group's merged entry where its first entry was, the rest gone."""
    placed: dict[int, Record] = {}
    gone: set[int] = set()
    for group in groups:
        positions = [next(i for i, r in enumerate(records) if r is member)
                     for member in group.records]
        placed[min(positions)] = group.merged.record
        gone.update(positions)
    return [placed.get(i, record) for i, record in enumerate(records)
            if i in placed or i not in gone]


def _write_map(path: str, renames: dict[str, str], inputs: Sequence[str]) -> None:
    with atomic_output(path, inputs) as out:
        json.dump(dict(sorted(renames.items())), out, ensure_ascii=False, indent=2)
        out.write("\n")


def dedupe(libraries: Sequence[str], output: str, options: DedupeOptions = DedupeOptions(),
           decide: Callable[[Group], bool] | None = None) -> DedupeReport:
    """Merge the entries of ``libraries`` that record one work and write them to ``output``
    (``-``: standard output); ``decide`` says whether a group is merged (None: every one)."""
    to_format = output_format(output, options.to_format)
    get_writer(to_format)  # an unknown format fails before any library is read
    inputs = [*libraries, *options.documents]
    if not options.dry_run:
        refuse_overwriting_inputs(output, inputs)
        if options.map_file:
            refuse_overwriting_inputs(options.map_file, [*inputs, output])
    report = DedupeReport(Diagnostics(strict=options.strict))
    records = with_keys(read_records(libraries, report.diagnostics, options.read_options),
                        options.write_options)
    report.records_read = len(records)
    for group in find_groups(records):
        (report.groups if decide is None or decide(group) else report.declined).append(group)
    report.renames = {old: key_of(group.merged.record) for group in report.groups
                      for old in group.merged.replaced}
    if options.write_options.key_lock is not None:
        options.write_options.key_lock.rename(report.renames)
    merged = _merged(records, report.groups)
    report.records_written = len(merged)
    planned = plan_rewrites(options.documents, report.renames, report.diagnostics)
    report.rewritten = [rewritten for rewritten, _ in planned]
    if options.dry_run:
        return report
    write_records(merged, output, to_format,
                  replace(options.write_options, diagnostics=report.diagnostics), inputs)
    if options.map_file:
        _write_map(options.map_file, report.renames, inputs)
    write_rewrites(planned)
    return report
