"""Lone surrogates in decoded JSON: decided once, where a reader has parsed a record's data.

JSON's ``\\ud800`` escape decodes to a Python string holding half of a UTF-16 pair, which no
UTF-8 output can hold: left in, it would stop every writer downstream (and every later run
that reads the same item). ``repaired`` gives the value with each lone surrogate replaced by
U+FFFD (a pair of halves becomes its one character) and reports each field it changed, so the
user learns which record and field to correct. This module must never drop a record or a
field.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from refbridge.errors import Diagnostics

_SURROGATE = re.compile("[\ud800-\udfff]")


def text_repaired(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD (paired halves joined)."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def repaired(value: Any, report: Callable[[str], None], path: str = "") -> Any:
    """``value`` (decoded JSON: objects, arrays, texts) with lone surrogates replaced in every
    text and key; ``report(path)`` is called once for each changed text (``title``,
    ``creators[0].lastName``). A value without one is returned as it is (the same object)."""
    if isinstance(value, str):
        fixed = text_repaired(value)
        if fixed is not value:
            report(path or "(value)")
        return fixed
    if isinstance(value, dict):
        pairs = []
        for key, member in value.items():
            name = text_repaired(key) if isinstance(key, str) else key
            where = f"{path}.{name}" if path else str(name)
            if name is not key:
                report(where)
            pairs.append((name, repaired(member, report, where)))
        same = all(n is k and m is v for (n, m), (k, v) in zip(pairs, value.items()))
        return value if same else dict(pairs)
    if isinstance(value, list):
        items = [repaired(member, report, f"{path}[{index}]")
                 for index, member in enumerate(value)]
        return value if all(a is b for a, b in zip(items, value)) else items
    return value


def reporter(diagnostics: Diagnostics, record: object, source: str, line: int | None = None
             ) -> Callable[[str], None]:
    """What ``repaired`` reports to: one warning per field, naming ``record`` (its id or key;
    None: the field's path names it) and the field, counted as a changed value (the run ends
    with exit status 3)."""
    named = "" if record is None else f"record {str(record)!r}: "
    return lambda field: diagnostics.change(
        f"{named}field {field!r} held a lone surrogate (half of a UTF-16 pair, which no file "
        "can hold): replaced by U+FFFD", source, line)
