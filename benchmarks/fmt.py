"""How fast ``refbridge fmt`` formats a .bib, beside bibtex-tidy: ``python benchmarks/fmt.py``.

Both format the same files (TeX Live's ``biblatex-examples.bib`` replicated with unique keys,
``workloads.write_bib``; a generated .bib without TeX Live), each to a file of its own, in a
fresh process; the script prints entries per second (wall time, and CPU time, which a busy
machine stretches less) for each, and the ratio. bibtex-tidy is an npm package: give its
command with ``--bibtex-tidy`` (for example ``/tmp/bench/node_modules/.bin/bibtex-tidy``
after ``npm install --prefix /tmp/bench bibtex-tidy``) or have it on PATH; without it only
refbridge is measured. This is a measuring tool: it asserts nothing, and the tests never run
it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from measure import Measurement, run_measured
from workloads import load_bib_source, write_bib

ROOT = Path(__file__).resolve().parent.parent
SIZES: tuple[int, ...] = (1000, 10000)


def _refbridge(bib: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "refbridge", "fmt", str(bib), "-o", str(out)]


def _bibtex_tidy(command: str, bib: Path, out: Path) -> list[str]:
    return [command, str(bib), "--output", str(out), "--quiet"]


def _best(argv: list[str], repeat: int, env: dict[str, str]) -> Measurement:
    runs = [run_measured(argv, env=env) for _ in range(repeat)]
    return min(runs, key=lambda run: run.seconds)


def _line(name: str, entries: int, run: Measurement) -> str:
    if run.status != 0:
        return f"  {name:12} failed: {run.error}"
    return (f"  {name:12} {entries / run.seconds:9,.0f} entries/s wall  "
            f"{entries / max(run.cpu_seconds, 1e-9):9,.0f} entries/s CPU  "
            f"({run.seconds:.2f} s)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    parser.add_argument("--bibtex-tidy", default=shutil.which("bibtex-tidy"),
                        help="the bibtex-tidy command (default: found on PATH)")
    args = parser.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    source = load_bib_source()
    with tempfile.TemporaryDirectory(prefix="refbridge-fmt-bench-") as tmp:
        work = Path(tmp)
        for size in (int(s) for s in args.sizes.split(",") if s):
            built = write_bib(work, size, source)
            print(f"{built.entries} entries ({built.origin}):")
            ours = _best(_refbridge(built.path, work / "refbridge.bib"), args.repeat, env)
            print(_line("refbridge", built.entries, ours))
            if args.bibtex_tidy is None:
                print("  bibtex-tidy  not installed (give --bibtex-tidy)")
                continue
            theirs = _best(_bibtex_tidy(args.bibtex_tidy, built.path, work / "tidy.bib"),
                           args.repeat, env)
            print(_line("bibtex-tidy", built.entries, theirs))
            if ours.status == theirs.status == 0:
                print(f"  refbridge is {theirs.seconds / ours.seconds:.2f}x bibtex-tidy's "
                      "speed (wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
