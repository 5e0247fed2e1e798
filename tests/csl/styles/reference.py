"""Reading the citeproc-js parity fixtures made by ``make_fixtures.sh``.

A fixture is the verbatim output of ``../shared/tools/csl-reference.js STYLE ITEMS FORMAT --cite``:
the bibliography (one entry per line for text; an HTML ``csl-bib-body`` for html), then a marker
line, then ``id<TAB>citation`` per item. This module only reads them; it never renders.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
ROOT = HERE.parents[2]
STYLES = ("apa", "ieee", "chicago-author-date", "modern-language-association",
          "harvard-cite-them-right", "vancouver", "nlm-citation-sequence", "nature",
          "association-for-computing-machinery")
FORMATS = {"text": "txt", "html": "html"}
CITATIONS_MARKER = "\n--- in-text citations (each item cited alone) ---\n"
_HTML_ENTRY = re.compile(r'^  (?=<div class="csl-entry">)', re.MULTILINE)
_BIB_BODY = '<div class="csl-bib-body">\n'


@dataclass(frozen=True, slots=True)
class Reference:
    """citeproc-js's rendering of one item set in one style and output format."""

    entries: list[str]  #: bibliography entries, in citeproc-js's order, outer whitespace removed
    citations: dict[str, str]  #: item id -> in-text citation of the item cited alone


def item_sets() -> dict[str, Path]:
    """Fixture set name -> CSL-JSON items file."""
    sets = {"varied": ROOT / "samples" / "varied.json"}
    sets.update({path.stem: path for path in sorted((FIXTURES / "inputs").glob("*.json"))})
    return sets


@cache
def items(set_name: str) -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(item_sets()[set_name].read_text(encoding="utf-8")))


def _entries(bibliography: str, output: str) -> list[str]:
    if output == "text":
        return bibliography.splitlines()
    body = bibliography.removeprefix(_BIB_BODY).rstrip()
    body = body.removesuffix("</div>")
    return [entry.strip() for entry in _HTML_ENTRY.split(body) if entry.strip()]


@cache
def reference(style: str, set_name: str, output: str) -> Reference:
    text = (FIXTURES / style / f"{set_name}.{FORMATS[output]}").read_text(encoding="utf-8")
    bibliography, _, citations = text.partition(CITATIONS_MARKER)
    return Reference(
        _entries(bibliography, output),
        dict(line.split("\t", 1) for line in citations.splitlines() if line))
