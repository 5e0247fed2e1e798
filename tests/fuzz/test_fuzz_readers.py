"""Every reader, fed damaged real files and random bytes, gives only allowed outcomes.

Allowed: records, messages naming file and line, or a ``RefbridgeError`` naming the file (see
tests/fuzz/harness.py). Strict and lenient mode must agree: strict stops exactly where lenient
skipped a record. The seeds are the project's own files (tests/fuzz/seeds.py) and, when
../shared is there, the import test inputs of Zotero's translators and JabRef's importers.
``REFBRIDGE_FUZZ_BUDGET=local`` runs a longer campaign (tests/fuzz/harness.py).
"""

from __future__ import annotations

import pytest
from fuzz.harness import FUZZ, read_both_ways, read_bytes
from fuzz.mutation import TOKENS, mutated
from fuzz.seeds import CONFORMANCE, CONFORMANCE_PATTERNS, conformance_seeds, seeds_for
from hypothesis import given
from hypothesis import strategies as st

from refbridge.registry import reader_names

READERS = reader_names()
SEEDED = [name for name in READERS if seeds_for(name)]


@pytest.mark.parametrize("reader", SEEDED)
def test_mutated_real_files_give_only_allowed_outcomes(reader: str) -> None:
    @FUZZ
    @given(mutated(seeds_for(reader)))
    def run(data: bytes) -> None:
        read_both_ways(reader, data)

    run()


@pytest.mark.parametrize("reader", [name for name in READERS if name in CONFORMANCE_PATTERNS])
def test_mutated_conformance_inputs_give_only_allowed_outcomes(reader: str) -> None:
    if not CONFORMANCE.is_dir():
        pytest.skip(f"Zotero's and JabRef's import test inputs not found at {CONFORMANCE}")

    @FUZZ
    @given(mutated(conformance_seeds(reader)))
    def run(data: bytes) -> None:
        read_both_ways(reader, data)

    run()


@pytest.mark.parametrize("reader", READERS)
def test_random_bytes_give_only_allowed_outcomes(reader: str) -> None:
    @FUZZ
    @given(st.binary(max_size=2000))
    def run(data: bytes) -> None:
        read_both_ways(reader, data)

    run()


@pytest.mark.parametrize("reader", READERS)
def test_random_syntax_soup_gives_only_allowed_outcomes(reader: str) -> None:
    soup = st.lists(st.sampled_from(TOKENS) | st.text(max_size=8).map(str.encode),
                    max_size=60).map(b"".join)

    @FUZZ
    @given(soup)
    def run(data: bytes) -> None:
        read_both_ways(reader, data)

    run()


def test_format_detection_of_damaged_files_gives_only_allowed_outcomes() -> None:
    every_seed = [seed for name in SEEDED for seed in seeds_for(name)]

    @FUZZ
    @given(mutated(every_seed))
    def run(data: bytes) -> None:
        read_bytes(None, data)

    run()
