"""The options of ``refbridge fmt``: their defaults, and one validation for the command line
and the configuration files alike (``[tool.refbridge.fmt]``, ``.refbridge.toml``).

This module must never read a file: ``config`` finds and reads them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from refbridge.citekeys import PatternError, compile_pattern
from refbridge.errors import ExitStatus, RefbridgeError

#: What entries are sorted by (``-`` before one: in reverse); ``given``: as in the file.
SORT_KEYS: tuple[str, ...] = ("given", "key", "type", "year")
#: Named field orders; any other value is a comma-separated list of fields to put first.
FIELD_ORDERS: tuple[str, ...] = ("as-given", "canonical")
VALUE_DELIMITERS: tuple[str, ...] = ("braces", "quotes")
MAX_INDENT = 16


class TidyOptionError(RefbridgeError):
    """An option of ``fmt`` that cannot be used, from the command line or a configuration
    file (named in the message)."""

    exit_status = ExitStatus.USAGE


@dataclass(frozen=True, slots=True)
class TidyOptions:
    """How a .bib is laid out. ``unicode``: True writes accents as UTF-8 characters, False as
    LaTeX commands, None keeps them as written. ``wrap``: the longest line a value is
    wrapped to (0: never wrapped)."""

    sort: str = "given"
    field_order: str = "as-given"
    indent: str = "  "
    align: bool = True
    values: str = "braces"
    drop_empty: bool = False
    months: bool = False
    unicode: bool | None = None
    wrap: int = 0
    key_pattern: str | None = None
    #: ``abbreviate`` or ``unabbreviate`` the entries' journals (``tidy.journals``); None:
    #: leave them as written
    journals: str | None = None

    @property
    def sort_field(self) -> str:
        return self.sort.lstrip("-")

    @property
    def sort_reversed(self) -> bool:
        return self.sort.startswith("-")

    @property
    def fields_first(self) -> tuple[str, ...]:
        """The fields a list order puts first (empty for a named order)."""
        if self.field_order in FIELD_ORDERS:
            return ()
        return tuple(f.strip().lower() for f in self.field_order.split(",") if f.strip())


def _sort(value: Any) -> str:
    text = str(value).strip()
    if text.lstrip("-") not in SORT_KEYS or text.startswith("--"):
        raise ValueError(f"{text!r} is not one of {', '.join(SORT_KEYS)} (a leading - "
                         "reverses)")
    return text


def _field_order(value: Any) -> str:
    text = str(value).strip()
    if not text or text not in FIELD_ORDERS and not re.fullmatch(r"[\w:.\-]+(\s*,\s*[\w:.\-]+)*,?",
                                                                 text):
        raise ValueError(f"{text!r} is not {' or '.join(FIELD_ORDERS)} or a comma-separated "
                         "list of fields")
    return text


def _indent(value: Any) -> str:
    if value == "tab":
        return "\t"
    if isinstance(value, bool) or not str(value).isdigit() or int(value) > MAX_INDENT:
        raise ValueError(f"{value!r} is not a number of spaces (0-{MAX_INDENT}) or 'tab'")
    return " " * int(value)


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value


def _choice(choices: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices:
            raise ValueError(f"{value!r} is not one of {', '.join(choices)}")
        return str(value)
    return check


def _wrap(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) and not str(value).isdigit():
        raise ValueError(f"{value!r} is not a line length (0: no wrapping)")
    return int(value)


def _unicode(value: Any) -> bool | None:
    """``unicode`` or ``latex`` in a file (``true``/``false`` too); the flags on the command
    line."""
    named = {"unicode": True, "latex": False, "as-given": None}
    if isinstance(value, bool) or value is None:
        return value
    if value not in named:
        raise ValueError(f"{value!r} is not unicode, latex or as-given")
    return named[value]


def _journals(value: Any) -> str | None:
    """``abbreviate``, ``unabbreviate`` or ``as-given`` in a file; the flags on the command
    line (True: abbreviate)."""
    named = {True: "abbreviate", False: "unabbreviate", "abbreviate": "abbreviate",
             "unabbreviate": "unabbreviate", "as-given": None, None: None}
    if not isinstance(value, (bool, str)) and value is not None or value not in named:
        raise ValueError(f"{value!r} is not abbreviate, unabbreviate or as-given")
    return named[value]


def _key_pattern(value: Any) -> str:
    try:
        compile_pattern(str(value))
    except PatternError as exc:
        raise ValueError(str(exc)) from None
    return str(value)


#: Option name (as in a configuration file, ``-`` or ``_``) -> its check and value.
CHECKS: dict[str, Callable[[Any], Any]] = {
    "sort": _sort, "field_order": _field_order, "indent": _indent, "align": _flag,
    "values": _choice(VALUE_DELIMITERS), "drop_empty": _flag, "months": _flag,
    "unicode": _unicode, "wrap": _wrap, "key_pattern": _key_pattern, "journals": _journals,
}


def options_from(settings: Mapping[str, Any], where: str,
                 base: TidyOptions = TidyOptions()) -> TidyOptions:
    """``base`` with ``settings`` applied; ``where`` names their origin in error messages
    (a configuration file's table, or the command line)."""
    changes: dict[str, Any] = {}
    for name, value in settings.items():
        attribute = name.replace("-", "_")
        check = CHECKS.get(attribute)
        if check is None:
            known = ", ".join(sorted(n.replace("_", "-") for n in CHECKS))
            raise TidyOptionError(f"{where}: unknown option {name!r} (known: {known})")
        try:
            changes[attribute] = check(value)
        except (ValueError, TypeError) as exc:
            raise TidyOptionError(f"{where}: {name.replace('_', '-')}: {exc}") from None
    return dataclasses.replace(base, **changes)
