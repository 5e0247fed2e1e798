"""Run a reader on arbitrary bytes and check that the outcome is one of the allowed ones.

The only allowed outcomes of reading bad input are: records, messages in the ``Diagnostics``
collector that name the file and line, or a ``RefbridgeError`` whose message names the file.
Anything else (``TypeError``, ``RecursionError``, ``MemoryError`` ...) propagates and fails the
test. Inputs go through ``refbridge.pipeline.read_file``, so decoding (``refbridge.textio``) is
fuzzed together with each reader.

How many examples hypothesis tries is set by ``REFBRIDGE_FUZZ_EXAMPLES`` (default 30, enough for
an everyday run); the campaign runs with tens of thousands.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, settings

from refbridge.errors import Diagnostics, ParseError, RefbridgeError
from refbridge.model import Record
from refbridge.pipeline import read_file
from refbridge.runs import ReadOptions

EXAMPLES = int(os.environ.get("REFBRIDGE_FUZZ_EXAMPLES", "30"))

#: hypothesis settings of every fuzz test: no deadline (the machine is shared), few examples by
#: default, many when ``REFBRIDGE_FUZZ_EXAMPLES`` asks for a campaign.
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 100,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

#: the usual file name ending of each reader, so detection by name is fuzzed too
EXTENSIONS: dict[str, str] = {
    "profile": ".profile.txt", "csl-json": ".json", "bibtex": ".bib", "biblatex": ".bib",
    "ris": ".ris", "zotero": ".rdf",
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
    """Assert that every message names the file (and a line, for messages about records)."""
    for message in outcome.diagnostics.messages:
        assert message.file == outcome.source, message
        assert message.line is None or message.line >= 1, message
        assert message.message.strip(), message
        if message.level == "error":
            assert message.line is not None, f"a skipped record without a line: {message}"
    if outcome.error is not None:
        assert str(outcome.error).startswith(outcome.source), outcome.error
        if isinstance(outcome.error, ParseError):
            assert outcome.error.file == outcome.source
            assert outcome.error.line is None or outcome.error.line >= 1
    for record in outcome.records:
        assert isinstance(record, Record)
        assert record.source is not None and record.source.file == outcome.source


def read_path(reader: str | None, path: Path, *, strict: bool = False,
              encoding: str | None = None) -> Outcome:
    """Read the file ``path`` with ``reader`` (None: detect) and check the outcome."""
    outcome = Outcome(str(path), diagnostics=Diagnostics(strict=strict))
    try:
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
        assert strict.error is not None, f"strict read {data[:80]!r} but lenient failed"
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
