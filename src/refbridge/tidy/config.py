"""Where ``refbridge fmt`` finds its settings: ``.refbridge.toml`` (table ``[fmt]``) or
``pyproject.toml`` (table ``[tool.refbridge.fmt]``), searched from a .bib's folder upward;
the first file that has the table gives the settings of that .bib.

This module must never decide what a setting means (``options`` does) and never write.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from refbridge.tidy.options import TidyOptionError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

#: The files searched in each folder, first first, and the path of the table in each.
CONFIG_FILES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (".refbridge.toml", ("fmt",)),
    ("pyproject.toml", ("tool", "refbridge", "fmt")),
)


def _table_name(path: tuple[str, ...]) -> str:
    return "[" + ".".join(path) + "]"


@cache
def _settings_in(file: Path, path: tuple[str, ...]) -> Mapping[str, Any] | None:
    """The table at ``path`` in TOML ``file``, None when the file does not have it."""
    try:
        data: Any = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise TidyOptionError(f"{file}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise TidyOptionError(f"{file}: not valid TOML: {exc}") from None
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    if not isinstance(data, dict):
        raise TidyOptionError(f"{file}: {_table_name(path)} is not a table")
    return data


def find_settings(bib: Path) -> tuple[Mapping[str, Any], str] | None:
    """The settings for ``bib`` and where they come from (``file [table]``), or None."""
    start = bib.resolve().parent
    for folder in (start, *start.parents):
        for name, path in CONFIG_FILES:
            candidate = folder / name
            if candidate.is_file():
                settings = _settings_in(candidate, path)
                if settings is not None:
                    return settings, f"{candidate} {_table_name(path)}"
    return None
