"""The nasty inputs found by fuzzing, kept as files: each still gives exactly the outcome it
gave when its bug was fixed.

tests/corpus/<reader>/ holds the inputs of one reader; tests/corpus/expected.json says, per
file, how many records, skipped records and warnings it gives, or the error it stops with.
tests/corpus/seeds/ holds the real-world files the mutation fuzzer starts from.
"""

from __future__ import annotations

import json

import pytest
from fuzz.harness import read_both_ways
from support import ROOT

CORPUS = ROOT / "tests" / "corpus"
EXPECTED: dict[str, dict[str, object]] = json.loads((CORPUS / "expected.json").read_text())
CASES = sorted(str(path.relative_to(CORPUS)) for path in CORPUS.glob("*/*")
               if path.parent.name != "seeds")


def test_every_corpus_file_has_an_expectation_and_every_expectation_a_file() -> None:
    assert sorted(EXPECTED) == CASES


@pytest.mark.parametrize("case", CASES)
def test_corpus_file_gives_its_recorded_outcome(case: str) -> None:
    reader = case.split("/")[0]
    outcome = read_both_ways(None if reader == "detect" else reader, CORPUS / case)
    assert outcome.summary == EXPECTED[case]
