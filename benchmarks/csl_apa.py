"""APA rendering speed: an entry point for the project's benchmark script (not a test).

``apa_rendering()`` formats the sample items (``samples/varied.json`` and the seed profiles'
CSL-JSON from ``tests/csl/styles/fixtures/inputs``), repeated with fresh ids to ``size`` items,
as an APA bibliography and as in-text citations, and returns timings in seconds.
``real_rendering()`` does the same, once over, for real items: those of
``tests/csl/parity/library.json`` (real records read through refbridge's CSL-JSON reader) and,
where TeX Live is installed, TeX Live's ``tugboat.bib`` read through refbridge's .bib reader.
Run directly: ``python benchmarks/csl_apa.py``; reading the inputs is never timed.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ITEM_FILES = [ROOT / "samples" / "varied.json",
              *sorted((ROOT / "tests" / "csl" / "styles" / "fixtures" / "inputs").glob("*.json"))]
LIBRARY = ROOT / "tests" / "csl" / "parity" / "library.json"


def sample_items(size: int) -> list[dict[str, Any]]:
    """``size`` CSL-JSON items cycled from the samples, each with a unique id."""
    base = [item for path in ITEM_FILES for item in json.loads(path.read_text(encoding="utf-8"))]
    return [{**base[i % len(base)], "id": f"{base[i % len(base)]['id']}-{i}"} for i in range(size)]


def _read_items(path: Path) -> list[dict[str, Any]]:
    """The items of ``path`` as ``refbridge format`` reads them (through the readers)."""
    from refbridge.errors import Diagnostics
    from refbridge.formatting import as_items
    from refbridge.pipeline import read_records

    return as_items(read_records(str(path), Diagnostics()))


def real_libraries() -> dict[str, list[dict[str, Any]]]:
    """Real items by library: ``library.json`` and, where TeX Live has it, ``tugboat.bib``."""
    from workloads import TUGBOAT, find_in_tex_live  # (workloads imports this module)

    libraries = {"library.json": _read_items(LIBRARY)}
    tugboat = find_in_tex_live(TUGBOAT)
    if tugboat is not None:
        libraries[TUGBOAT] = _read_items(tugboat)
    return libraries


def _median_seconds(items: list[dict[str, Any]], rounds: int, cite: bool) -> float:
    from refbridge.formatting import format_bibliography

    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        format_bibliography(items, style="apa", cite=cite)
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def apa_rendering(size: int = 500, rounds: int = 5) -> dict[str, float]:
    """Median seconds to format ``size`` items in APA (bibliography, then citations), plus the
    first (cold: style and locale loading) bibliography and the entries per second."""
    from refbridge.formatting import format_bibliography

    items = sample_items(size)
    start = time.perf_counter()
    format_bibliography(items, style="apa")
    cold = time.perf_counter() - start
    warm = _median_seconds(items, rounds, cite=False)
    return {"items": float(size), "cold_bibliography_s": cold, "bibliography_s": warm,
            "citations_s": _median_seconds(items, rounds, cite=True),
            "entries_per_s": size / warm}


def real_rendering(rounds: int = 5) -> dict[str, float]:
    """Per real library: its item count and the APA entries (bibliography) and citations per
    second, medians of ``rounds`` warm runs."""
    from refbridge.formatting import format_bibliography

    format_bibliography(sample_items(10), style="apa")
    figures: dict[str, float] = {}
    for name, items in real_libraries().items():
        figures[f"{name}_items"] = float(len(items))
        figures[f"{name}_entries_per_s"] = len(items) / _median_seconds(items, rounds, False)
        figures[f"{name}_citations_per_s"] = len(items) / _median_seconds(items, rounds, True)
    return figures


if __name__ == "__main__":
    for name, value in {**apa_rendering(), **real_rendering()}.items():
        print(f"{name}\t{value:.4f}")
