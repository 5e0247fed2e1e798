"""arXiv's category taxonomy: category codes (``cs.DB``) and their names (``Databases``).

The table is data (``data/arxiv-categories.tsv``), read once on first use. This module must never
guess a name for a code the taxonomy does not have.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def categories() -> dict[str, str]:
    """Every arXiv category code mapped to its name."""
    text = files("refbridge").joinpath("data/arxiv-categories.tsv").read_text(encoding="utf-8")
    table: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            code, name = line.split("\t")
            table[code] = name
    return table


def category_name(code: str) -> str | None:
    """The name of arXiv category ``code``, or None when the taxonomy has no such code."""
    return categories().get(code)


def is_category(code: str) -> bool:
    return code in categories()
