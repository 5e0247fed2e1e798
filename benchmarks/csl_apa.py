"""APA rendering speed: an entry point for the project's benchmark script (not a test).

``apa_rendering()`` formats the sample items (``samples/varied.json`` and the seed profiles'
CSL-JSON from ``tests/csl_styles/fixtures/inputs``), repeated with fresh ids to ``size`` items,
as an APA bibliography and as in-text citations, and returns timings in seconds. Run directly:
``python benchmarks/csl_apa.py``.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ITEM_FILES = [ROOT / "samples" / "varied.json",
              *sorted((ROOT / "tests" / "csl_styles" / "fixtures" / "inputs").glob("*.json"))]


def sample_items(size: int) -> list[dict[str, Any]]:
    """``size`` CSL-JSON items cycled from the samples, each with a unique id."""
    base = [item for path in ITEM_FILES for item in json.loads(path.read_text(encoding="utf-8"))]
    return [{**base[i % len(base)], "id": f"{base[i % len(base)]['id']}-{i}"} for i in range(size)]


def apa_rendering(size: int = 500, rounds: int = 5) -> dict[str, float]:
    """Median seconds to format ``size`` items in APA (bibliography, then citations), plus the
    first (cold: style and locale loading) bibliography and the entries per second."""
    from refbridge.formatting import format_bibliography

    items = sample_items(size)
    start = time.perf_counter()
    format_bibliography(items, style="apa")
    cold = time.perf_counter() - start
    bibliography, citations = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        format_bibliography(items, style="apa")
        bibliography.append(time.perf_counter() - start)
        start = time.perf_counter()
        format_bibliography(items, style="apa", cite=True)
        citations.append(time.perf_counter() - start)
    warm = statistics.median(bibliography)
    return {"items": float(size), "cold_bibliography_s": cold, "bibliography_s": warm,
            "citations_s": statistics.median(citations), "entries_per_s": size / warm}


if __name__ == "__main__":
    for name, value in apa_rendering().items():
        print(f"{name}\t{value:.4f}")
