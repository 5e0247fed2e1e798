"""Measure refbridge on inputs at the limits: time and peak memory of ``refbridge convert``.

    python tests/fuzz/limits.py [field-mb] [records]

Writes, in a temporary folder, a .bib with one field of FIELD-MB megabytes (default 50) and a
.bib of RECORDS tiny entries (default 1,000,000), converts each to CSL-JSON in a fresh process
and prints seconds, peak resident memory and the exit status.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REFBRIDGE = [sys.executable, "-m", "refbridge"]


def measure(label: str, source: Path) -> None:
    start = time.perf_counter()
    done = subprocess.run([*REFBRIDGE, "convert", str(source), "--to", "csl-json", "-o",
                           str(source.with_suffix(".json"))], capture_output=True, text=True,
                          check=False)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    size = source.stat().st_size / 1e6
    print(f"{label}: {size:.0f} MB in {seconds:.1f} s, peak memory so far {peak:.0f} MB, "
          f"exit {done.returncode} {done.stderr.strip()[:200]}", flush=True)


def main(argv: list[str]) -> None:
    field_mb = int(argv[0]) if argv else 50
    records = int(argv[1]) if len(argv) > 1 else 1_000_000
    with tempfile.TemporaryDirectory() as folder:
        long_field = Path(folder) / "long-field.bib"
        with long_field.open("w") as out:
            out.write("@article{long, title = {")
            for _ in range(field_mb):
                out.write("word " * 209_715)
            out.write("}}\n")
        measure(f"one {field_mb} MB field", long_field)
        many = Path(folder) / "many.bib"
        with many.open("w") as out:
            for index in range(records):
                out.write(f"@misc{{k{index}, title = {{T{index}}}, year = 2020}}\n")
        measure(f"{records} tiny records", many)


if __name__ == "__main__":
    main(sys.argv[1:])
