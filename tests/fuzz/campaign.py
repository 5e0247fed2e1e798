"""The big fuzzing campaign: every fuzz strategy against every reader, counting the inputs tried.

    python tests/fuzz/campaign.py [EXAMPLES] [READER...]

Runs each strategy of tests/fuzz/test_fuzz_readers.py and tests/fuzz/test_fuzz_near_valid.py with
EXAMPLES examples (default 5000), prints the inputs tried per reader and every failure (shrunk).
The process may use at most ``MEMORY_LIMIT`` bytes: a reader whose memory grows without bound
fails with ``MemoryError``, as a hang fails with ``Hang`` (tests/fuzz/harness.py).
The test suite runs the same strategies with the budget ``REFBRIDGE_FUZZ_BUDGET`` names (see
tests/fuzz/harness.py); the Zotero database is fuzzed by tests/fuzz/test_fuzz_zotero_sqlite.py, and
tests/fuzz/libfuzzer.py runs a coverage-guided campaign with atheris.
"""

from __future__ import annotations

import resource
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.harness import read_both_ways
from fuzz.mutation import TOKENS, mutated
from fuzz.seeds import conformance_seeds, seeds_for
from fuzz.test_fuzz_near_valid import GENERATORS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refbridge.registry import reader_names

#: the address space the campaign may use (readers, lxml and hypothesis together)
MEMORY_LIMIT = 3 << 30


def strategies(reader: str) -> dict[str, st.SearchStrategy[bytes]]:
    found: dict[str, st.SearchStrategy[bytes]] = {
        "random bytes": st.binary(max_size=2000),
        "syntax soup": st.lists(st.sampled_from(TOKENS) | st.text(max_size=8).map(str.encode),
                                max_size=60).map(b"".join),
    }
    if seeds_for(reader):
        found["mutated real files"] = mutated(seeds_for(reader))
    if conformance_seeds(reader):
        found["mutated conformance inputs"] = mutated(conformance_seeds(reader))
    if reader in GENERATORS:
        found["near-valid"] = GENERATORS[reader]().map(lambda document: document[0])
    return found


def run(reader: str, name: str, strategy: st.SearchStrategy[bytes], examples: int,
        tried: Counter[str]) -> str | None:
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def check(data: bytes) -> None:
        tried[reader] += 1
        read_both_ways(reader, data)

    try:
        check()
    except Exception as exc:  # noqa: BLE001  (any failure is reported; the campaign goes on)
        return f"{reader} / {name}: {type(exc).__name__}: {str(exc)[:1500]}"
    return None


def main(argv: list[str]) -> int:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    examples = int(argv[0]) if argv else 5000
    readers = argv[1:] or reader_names()
    tried: Counter[str] = Counter()
    failures: list[str] = []
    for reader in readers:
        start = time.perf_counter()
        for name, strategy in strategies(reader).items():
            failure = run(reader, name, strategy, examples, tried)
            if failure:
                failures.append(failure)
                print("FAILURE", failure, flush=True)
        print(f"{reader}: {tried[reader]} inputs in {time.perf_counter() - start:.0f} s",
              flush=True)
    print(f"total: {sum(tried.values())} inputs, {len(failures)} failing strategies")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
