"""The check: records stream through the rules, record by record, and each finding names the
file and line of its record. A .bib is read once and seen twice (``tee``): as records for the
rules on the model (duplicates, a style's needs in CSL terms, the key pattern) and as entries
as written for the rules on the file (``bibfile``); other formats are checked on the model.
Only keys, signatures and what waits for a later entry are kept, so a library of any size is
checked in bounded memory. This module must never change a record or write a file.
"""

from __future__ import annotations

import datetime
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from refbridge.check.bibfile import BibFileChecker
from refbridge.check.duplicates import DuplicateFinder
from refbridge.check.requirements import DIALECTS, REQUIREMENTS, missing_fields
from refbridge.check.rules import CheckUsageError, Finding, selected_rules
from refbridge.check.tee import Tee
from refbridge.check.values import model_years, suspicious_values
from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import read_records
from refbridge.runs import ReadOptions


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """What to check: the requirement tables, the .bib dialect whose data model judges a
    .bib's entries, the rules to run, the citation-key pattern keys should follow."""

    requirements: tuple[str, ...] = ("bibtex",)
    dialect: str = "bibtex"
    rules: frozenset[str] = frozenset()
    key_pattern: str | None = None
    this_year: int = 0

    @classmethod
    def of(cls, requirements: Sequence[str] = (), dialect: str | None = None,
           select: Iterable[str] = (), ignore: Iterable[str] = (),
           key_pattern: str | None = None, this_year: int | None = None) -> CheckOptions:
        """Options checked: an unknown table, dialect or rule is a ``CheckUsageError``."""
        dialect = dialect or next((r for r in requirements if r in DIALECTS), "bibtex")
        requirements = tuple(requirements) or (dialect,)
        unknown = [style for style in requirements if style not in REQUIREMENTS]
        if unknown:
            raise CheckUsageError(f"no requirement table {', '.join(map(repr, unknown))} "
                                  f"(known: {', '.join(sorted(REQUIREMENTS))})")
        if dialect not in DIALECTS:
            raise CheckUsageError(f"no dialect {dialect!r} (known: {', '.join(DIALECTS)})")
        return cls(requirements, dialect, selected_rules(select, ignore), key_pattern,
                   this_year or datetime.date.today().year)


def _key_pattern(pattern: str | None) -> Callable[[Record], Iterator[Finding]]:
    if pattern is None:
        return lambda record: iter(())
    from refbridge.citekeys import PatternError, compile_pattern, follows_pattern

    try:
        key_of = compile_pattern(pattern)
    except PatternError as exc:
        raise CheckUsageError(f"--key-pattern: {exc}") from None

    def check(record: Record) -> Iterator[Finding]:
        key = record.citation_key
        if key is not None and not follows_pattern(key, record, pattern):
            yield Finding("key-pattern", f"citation key {key!r} is not the pattern's key "
                          f"{key_of(record)!r}", record.source, key)
    return check


class _Checker:
    """The state of one check: duplicates so far, the key pattern, the .bib files being read."""

    def __init__(self, options: CheckOptions) -> None:
        self.options = options
        self.duplicates = DuplicateFinder()
        self.key_pattern = _key_pattern(options.key_pattern)
        self.files: deque[BibFileChecker] = deque()
        self.styles = tuple(s for s in options.requirements if s in DIALECTS)

    def tap(self, reader: str, source: str, stream: TextIO) -> TextIO:
        """The stream the reader reads; a .bib's other reader goes to a file checker."""
        if reader != "bibtex":
            return stream
        from refbridge.formats.bibtex.syntax import read_blocks

        records, entries = Tee(stream).readers()
        self.files.append(BibFileChecker(source, read_blocks(entries), self.options.dialect,
                                         self.styles))
        return records

    def record(self, record: Record) -> Iterator[Finding]:
        """The findings of ``record`` (and, first, of the .bib files read before its own)."""
        options = self.options
        source, line = (record.source.file, record.source.line or 0) if record.source \
            else (None, 0)
        if not any(bib.source == source for bib in self.files):
            yield from self.finish()  # every .bib read so far is done
        while self.files and self.files[0].source != source:
            yield from self.files.popleft().finish()
        yield from self.duplicates.check(record)
        if not self.files:
            yield from suspicious_values(record, options.this_year)
            for style in options.requirements:
                yield from missing_fields(record, style)
        else:
            syntax = list(self.files[0].upto(line))
            yield from syntax
            # a year field the file's own check found wrong is one problem, not two
            judged = {"issued"} if any(f.code == "year" and f.source == record.source
                                       for f in syntax) else set()
            yield from model_years(record, options.this_year, judged)
            for style in options.requirements:
                if style not in DIALECTS:
                    yield from missing_fields(record, style)
        yield from self.key_pattern(record)

    def finish(self) -> Iterator[Finding]:
        while self.files:
            yield from self.files.popleft().finish()


def run_check(records: Iterable[Record], checker: _Checker) -> Iterator[Finding]:
    """The findings of ``records``, those of the rules chosen."""
    rules = checker.options.rules
    for record in records:
        yield from (finding for finding in checker.record(record) if finding.code in rules)
    yield from (finding for finding in checker.finish() if finding.code in rules)


def check_records(records: Iterable[Record], requirements: Sequence[str] = ("bibtex",),
                  ignore: Iterable[str] = (), this_year: int | None = None,
                  options: CheckOptions | None = None) -> Iterator[Finding]:
    """Every finding about ``records`` on the model, record by record, except the codes in
    ``ignore`` (or as ``options`` say)."""
    options = options or CheckOptions.of(requirements, None, (), ignore, None, this_year)
    return run_check(records, _Checker(options))


def check_files(paths: Sequence[str], diagnostics: Diagnostics,
                requirements: Sequence[str] = ("bibtex",), ignore: Iterable[str] = (),
                read_options: ReadOptions | None = None, options: CheckOptions | None = None
                ) -> Iterator[Finding]:
    """Read ``paths`` (reading problems go to ``diagnostics``) and check their records, a
    .bib's entries as written too."""
    options = options or CheckOptions.of(requirements, None, (), ignore)
    checker = _Checker(options)
    records = read_records(paths, diagnostics, read_options or ReadOptions(), checker.tap)
    return run_check(records, checker)
