"""Near-valid input of every format: the right syntax with random, hostile or wrongly-shaped
values. Beyond giving only allowed outcomes, every record in the input is either read or
reported as skipped: nothing is lost silently."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fuzz.generators import (
    bibtex_documents,
    csl_json_documents,
    profile_pages,
    ris_documents,
    zotero_documents,
)
from fuzz.harness import FUZZ, read_both_ways
from hypothesis import given
from hypothesis import strategies as st

from refbridge.registry import reader_names

GENERATORS: dict[str, Callable[[], st.SearchStrategy[tuple[bytes, int]]]] = {
    "csl-json": csl_json_documents,
    "bibtex": bibtex_documents,
    "biblatex": bibtex_documents,
    "ris": ris_documents,
    "profile": profile_pages,
    "zotero": zotero_documents,
}
READERS = [name for name in reader_names() if name in GENERATORS]


@pytest.mark.parametrize("reader", READERS)
def test_every_record_of_near_valid_input_is_read_or_reported(reader: str) -> None:
    @FUZZ
    @given(GENERATORS[reader]())
    def run(document: tuple[bytes, int]) -> None:
        data, count = document
        outcome = read_both_ways(reader, data)
        if outcome.error is None:
            assert len(outcome.records) + outcome.diagnostics.skipped == count, (
                outcome.records, outcome.diagnostics.messages)

    run()


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("line_ending", [b"\r\n", b"\r"])
def test_line_endings_do_not_change_what_is_read(reader: str, line_ending: bytes) -> None:
    @FUZZ
    @given(GENERATORS[reader]())
    def run(document: tuple[bytes, int]) -> None:
        data, _ = document
        lf = read_both_ways(reader, data)
        other = read_both_ways(reader, data.replace(b"\n", line_ending))
        assert other.summary == lf.summary
        assert [r.replace(source=None) for r in other.records] == [
            r.replace(source=None) for r in lf.records]

    run()
