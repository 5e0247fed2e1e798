"""arXiv's category taxonomy: category codes (``cs.DB``) and their names (``Databases``).

The table is data (``data/arxiv-categories.tsv``), read once on first use. This module must never
guess a name for a code the taxonomy does not have.
"""

from __future__ import annotations

import os
from functools import cache

#: Beside this module (refbridge is installed as files; importlib.resources, which reads zipped
#: packages too, costs 4 ms of every command's start).
_TABLE = os.path.join(os.path.dirname(__file__), "data", "arxiv-categories.tsv")


@cache
def categories() -> dict[str, str]:
    """Every arXiv category code mapped to its name."""
    with open(_TABLE, encoding="utf-8") as stream:
        text = stream.read()
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
