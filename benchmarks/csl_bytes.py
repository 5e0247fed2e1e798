"""The CSL engine's output on real libraries, kept byte for byte, and its speed (not a test).

``python benchmarks/csl_bytes.py save DIR LIB.json...`` writes, for each CSL-JSON library
(e.g. one ``refbridge convert X.bib --to csl-json`` wrote) and each style of ``STYLES``, its
bibliography and its citations (one per item) as text into ``DIR``;
``python benchmarks/csl_bytes.py compare DIR LIB.json...`` renders them again and names every
file that differs from the saved one (exit status 1 if any does): run ``save`` before a change
to the engine and ``compare`` after it. ``python benchmarks/csl_bytes.py speed LIB.json...``
prints the APA entries (bibliography) and citations per CPU second of each library, in this
process (``time.process_time``, since a shared machine stretches wall time), style and locale
loading excluded. Reading the libraries is never timed.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: An author-date style, a numeric one, another author-date one and a note style.
STYLES: tuple[str, ...] = ("apa", "ieee", "chicago-author-date", "chicago-notes-bibliography")


def _load(path: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(Path(path).read_text(encoding="utf-8"))
    return items


def _render(items: list[dict[str, Any]], style: str, cite: bool) -> str:
    from refbridge.formatting import format_bibliography

    return format_bibliography(items, style=style, cite=cite)


def _outputs(libraries: list[str]) -> dict[str, Callable[[], str]]:
    """Every output to keep, by file name, as a function rendering it."""
    outputs: dict[str, Callable[[], str]] = {}
    for library in libraries:
        items = _load(library)
        for style in STYLES:
            for cite in (False, True):
                name = f"{Path(library).stem}.{style}.{'cite' if cite else 'bib'}.txt"
                outputs[name] = (lambda i=items, s=style, c=cite: _render(i, s, c))
    return outputs


def save(directory: Path, libraries: list[str]) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    for name, render in _outputs(libraries).items():
        (directory / name).write_text(render(), encoding="utf-8")
    return 0


def compare(directory: Path, libraries: list[str]) -> int:
    differing = [name for name, render in _outputs(libraries).items()
                 if (directory / name).read_text(encoding="utf-8") != render()]
    for name in differing:
        print(f"differs: {name}")
    print(f"{len(differing)} of {len(_outputs(libraries))} outputs differ")
    return 1 if differing else 0


def _cpu_seconds(items: list[dict[str, Any]], cite: bool, rounds: int) -> float:
    timings = []
    for _ in range(rounds):
        start = time.process_time()
        _render(items, "apa", cite)
        timings.append(time.process_time() - start)
    return min(timings)


def speed(libraries: list[str], rounds: int = 3) -> int:
    _render(_load(libraries[0])[:5], "apa", False)  # style and locale loading
    for library in libraries:
        items = _load(library)
        bibliography = _cpu_seconds(items, False, rounds)
        citations = _cpu_seconds(items, True, rounds)
        print(f"{Path(library).stem}\titems {len(items)}\t"
              f"entries/s {len(items) / bibliography:.0f}\t"
              f"citations/s {len(items) / citations:.0f}")
    return 0


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "speed":
        sys.exit(speed(arguments))
    if command in ("save", "compare"):
        sys.exit((save if command == "save" else compare)(Path(arguments[0]), arguments[1:]))
    sys.exit(f"usage: {sys.argv[0]} save|compare DIR LIB.json... | speed LIB.json...")
