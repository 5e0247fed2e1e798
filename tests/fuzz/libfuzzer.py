"""A coverage-guided campaign on one reader with atheris (libFuzzer for Python), when installed.

    python tests/fuzz/libfuzzer.py READER [-max_total_time=120] [-runs=N] [libFuzzer options]

The corpus, kept between runs in ``$TMPDIR/refbridge-libfuzzer/READER``, starts from the
reader's seeds (tests/fuzz/seeds.py: the project's files and, when ../shared is there, Zotero's
and JabRef's import test inputs); libFuzzer adds the inputs that reach new code.
Each input is read as tests/fuzz/harness.py reads it (leniently and strictly, time-bounded);
a disallowed outcome is an uncaught exception, which libFuzzer reports, writing the input to
``crash-*`` in the current folder. libFuzzer's own per-input timer is off (the harness's
``SECONDS_PER_INPUT`` uses the same alarm signal); its memory limit (``-rss_limit_mb``, 2048 by
default) bounds memory. atheris is optional (``pip install atheris``): the hypothesis campaign
(tests/fuzz/campaign.py) needs nothing more than the test requirements.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import atheris  # type: ignore

with atheris.instrument_imports(include=["refbridge"]):  # coverage of refbridge's code alone
    from fuzz.harness import read_both_ways
    from fuzz.seeds import conformance_seeds, seeds_for


def main(argv: list[str]) -> None:
    reader, options = argv[0], argv[1:]
    seeds = seeds_for(reader) + conformance_seeds(reader)
    with atheris.instrument_imports(include=["refbridge"]):
        for seed in seeds[:3]:  # the reader and what it imports when it reads, instrumented
            read_both_ways(reader, seed)

    def one_input(data: bytes) -> None:
        read_both_ways(reader, data)

    corpus = Path(tempfile.gettempdir()) / "refbridge-libfuzzer" / reader
    corpus.mkdir(parents=True, exist_ok=True)
    for number, seed in enumerate(seeds):
        (corpus / f"seed-{number}").write_bytes(seed)
    atheris.Setup([sys.argv[0], *options, "-timeout=0", str(corpus)], one_input)
    atheris.Fuzz()  # libFuzzer ends the process


if __name__ == "__main__":
    main(sys.argv[1:])
