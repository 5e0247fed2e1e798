"""Run a reader on arbitrary bytes and check that the outcome is one of the allowed ones.

The only allowed outcomes of reading bad input are: records, messages in the ``Diagnostics``
collector that name the file and line, or a ``RefbridgeError`` whose message names the file.
Anything else (``TypeError``, ``RecursionError``, ``MemoryError`` ...) propagates and fails the
test. Inputs go through ``refbridge.pipeline.read_file``, so decoding (``refbridge.textio``) is
fuzzed together with each reader.

Every read is bounded in time (``SECONDS_PER_INPUT``: an input that takes longer is a hang and
fails the test). How many examples hypothesis tries is the budget ``REFBRIDGE_FUZZ_BUDGET``
names: ``ci`` (the default: a fixed few examples per test, the same every run, so that the fuzz
tests cost the suite well under a minute on two CPUs), ``local`` (2,000 new random examples per
test, for a campaign of a few minutes per reader) or a number of examples.
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

from refbridge.errors import Diagnostics, ParseError, RefbridgeError
from refbridge.model import Record
from refbridge.pipeline import read_file
from refbridge.runs import ReadOptions

#: examples per fuzz test of each named budget (``REFBRIDGE_FUZZ_BUDGET``)
BUDGETS: dict[str, int] = {"ci": 25, "local": 2000}
_BUDGET = os.environ.get("REFBRIDGE_FUZZ_BUDGET", "ci")
EXAMPLES = BUDGETS[_BUDGET] if _BUDGET in BUDGETS else int(_BUDGET)
#: the longest one read of one input may take (a hang, not a slow machine, goes beyond it)
SECONDS_PER_INPUT = 20

#: hypothesis settings of every fuzz test: no hypothesis deadline (the machine is shared; hangs
#: are caught by ``SECONDS_PER_INPUT``), the budget's examples, derandomized for CI.
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=_BUDGET == "ci",
                database=None if _BUDGET == "ci" else DirectoryBasedExampleDatabase(
                    ".hypothesis/examples"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


class Hang(AssertionError):
    """Reading one input took longer than ``SECONDS_PER_INPUT``."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Fail with ``Hang`` when the block runs longer than ``seconds`` (main thread, POSIX)."""
    def expire(signum: int, frame: object) -> None:
        raise Hang(f"reading one input took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)

#: the usual file name ending of each reader, so detection by name is fuzzed too
EXTENSIONS: dict[str, str] = {
    "profile": ".profile.txt", "csl-json": ".json", "bibtex": ".bib", "biblatex": ".bib",
    "ris": ".ris", "zotero": ".rdf", "zotero-json": ".json", "endnote": ".enw",
    "endnote-xml": ".xml", "nbib": ".nbib", "pubmed-xml": ".xml", "wos": ".isi",
    "scopus-csv": ".csv", "mods": ".mods.xml", "word-xml": ".xml", "csv": ".csv",
    "hayagriva": ".yml", "orcid": ".json", "openalex": ".json", "semantic-scholar": ".json",
    "dblp": ".xml", "arxiv-atom": ".atom", "google-scholar-csv": ".csv",
}

_WORKDIR = Path(tempfile.mkdtemp(prefix="refbridge-fuzz-"))


@dataclass(slots=True)
class Outcome:
    """What reading one input gave: records, the run's messages, or the error that stopped it."""

    source: str
    records: list[Record] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    error: RefbridgeError | None = None

    @property
    def summary(self) -> dict[str, object]:
        """A short, exact description for expectations files (no temporary paths in it)."""
        if isinstance(self.error, ParseError):
            return {"error": self.error.message, "line": self.error.line}
        if self.error is not None:
            return {"error": str(self.error).replace(self.source, "INPUT")}
        summary: dict[str, object] = {"records": len(self.records),
                                      "skipped": self.diagnostics.skipped,
                                      "warnings": len(self.diagnostics.warnings)}
        if self.diagnostics.read_in_part:
            summary["read in part"] = self.diagnostics.read_in_part
        return summary


def check_outcome(outcome: Outcome) -> None:
    """Assert that every message names the file (and a line or the item, for messages about
    records: the Zotero readers name an item ``FILE/items/KEY``)."""
    item = f"{outcome.source}/items/"
    for message in outcome.diagnostics.messages:
        names_item = (message.file or "").startswith(item)
        assert message.file == outcome.source or names_item, message
        assert message.line is None or message.line >= 1, message
        assert message.message.strip(), message
        if message.level == "error":
            assert message.line is not None or names_item, (
                f"a skipped record without a line: {message}")
    if outcome.error is not None:
        assert str(outcome.error).startswith(outcome.source), outcome.error
        if isinstance(outcome.error, ParseError):
            assert outcome.error.file == outcome.source or (
                outcome.error.file or "").startswith(item), outcome.error
            assert outcome.error.line is None or outcome.error.line >= 1
    for record in outcome.records:
        assert isinstance(record, Record)
        assert record.source is not None and record.source.file == outcome.source


def read_path(reader: str | None, path: Path, *, strict: bool = False,
              encoding: str | None = None) -> Outcome:
    """Read the file ``path`` with ``reader`` (None: detect) and check the outcome."""
    outcome = Outcome(str(path), diagnostics=Diagnostics(strict=strict))
    try:
        with time_limit(SECONDS_PER_INPUT):
            outcome.records = list(read_file(str(path), outcome.diagnostics,
                                             ReadOptions(reader, encoding)))
    except RefbridgeError as exc:
        outcome.error = exc
    check_outcome(outcome)
    return outcome


def read_bytes(reader: str | None, data: bytes, *, strict: bool = False,
               encoding: str | None = None, name: str | None = None) -> Outcome:
    """Read ``data`` as a file with ``reader`` (None: detect) and check the outcome."""
    path = _WORKDIR / (name or f"input{EXTENSIONS.get(reader or '', '.txt')}")
    path.write_bytes(data)
    return read_path(reader, path, strict=strict, encoding=encoding)


def read_both_ways(reader: str | None, data: bytes | Path) -> Outcome:
    """Read ``data`` (bytes or a file) leniently and strictly; check the two modes agree.

    Strict mode must stop exactly when lenient mode skipped a record, and otherwise give the
    same records.
    """
    if isinstance(data, Path):
        lenient = read_path(reader, data)
        strict = read_path(reader, data, strict=True)
    else:
        lenient = read_bytes(reader, data)
        strict = read_bytes(reader, data, strict=True)
    if lenient.error is not None:
        shown = data if isinstance(data, Path) else data[:80]
        assert strict.error is not None, f"strict read {shown!r} but lenient failed"
    elif lenient.diagnostics.skipped or lenient.diagnostics.read_in_part:
        assert isinstance(strict.error, ParseError), (
            f"lenient skipped {lenient.diagnostics.skipped} record(s) and read "
            f"{lenient.diagnostics.read_in_part} in part, strict did not stop")
        first = lenient.diagnostics.errors[0]
        assert strict.error.line == first.line, (strict.error, first)
    else:
        assert strict.error is None, strict.error
        assert strict.records == lenient.records
    return lenient
