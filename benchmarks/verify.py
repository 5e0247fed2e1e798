"""How fast ``refbridge verify`` checks a 1,000-entry library once the cache is warm.

Serves the verification fixtures on 127.0.0.1 (tests/enrich_support.py), writes a library of
1,000 entries (the test library's eight entries repeated under new keys), verifies it once to
fill a fresh cache (no pacing: a local server), then times a second run answered from the cache
and prints entries/second. Run: ``.venv/bin/python benchmarks/verify.py``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support import records_of
from verify_support import LIBRARY, verify_services

from refbridge.verify.run import verify_records
from refbridge.verify.settings import VerifyOptions

ENTRIES = 1000


def library(directory: Path) -> Path:
    entries = [e for e in LIBRARY.split("\n@")[1:] if not e.startswith("string")]
    text = LIBRARY.split("\n@article")[0] + "".join("\n@" + entries[i % len(entries)].replace("{", f"{{n{i}", 1)
                   for i in range(ENTRIES))
    path = directory / "large.bib"
    path.write_text(text, "utf-8")
    return path


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, verify_services() as server:
        path = library(Path(folder))
        options = VerifyOptions(endpoints=server.endpoints(), cache_dir=Path(folder),
                                intervals=dict.fromkeys(server.endpoints(), 0.0))
        records = records_of(path)
        cold = verify_records(records, options)
        start = time.perf_counter()
        warm = verify_records(records_of(path), options)
        seconds = time.perf_counter() - start
        print(f"{len(warm.verdicts)} entries, warm cache: {seconds:.2f} s "
              f"({len(warm.verdicts) / seconds:.0f} entries/s), {warm.requests} request(s); "
              f"cold run made {cold.requests} request(s)")


if __name__ == "__main__":
    main()
