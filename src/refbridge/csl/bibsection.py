"""Bibliography sections: which entries a bibliography writes, as citeproc-js's
``makeBibliography(bibsection)`` chooses them, and CSL-M's ``cs:bibliography`` attributes
``exclude-types`` and ``exclude-with-fields``.

A selection holds lists of ``{"field": ..., "value": ...}`` tests: ``include`` (any test
passing keeps an entry), else ``exclude`` (any passing drops it), else ``select`` (all must
pass); ``quash`` then drops an entry all of whose tests pass.  A value of true tests that the
field is there, false or "" that it is not; a string or a list of strings, that the field's
value is one of them.  This module only chooses entries; it never renders them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Selection = Mapping[str, Sequence[Mapping[str, Any]]]


def style_selection(options: Mapping[str, str]) -> Selection | None:
    """The entries a CSL-M ``cs:bibliography`` leaves out by its ``exclude-types`` and
    ``exclude-with-fields`` attributes; None when it has neither."""
    types = options.get("exclude-types", "").split()
    fields = options.get("exclude-with-fields", "").split()
    if not types and not fields:
        return None
    return {"exclude": [{"field": "type", "value": t} for t in types]
            + [{"field": f, "value": True} for f in fields]}


def _passes(test: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    wanted, value = test.get("value"), item.get(str(test.get("field")))
    if isinstance(wanted, bool) or not wanted:
        return bool(value) == bool(wanted)
    if isinstance(value, str):
        return bool(value == wanted)
    return isinstance(value, list) and wanted in value


def selects(selection: Selection, item: Mapping[str, Any]) -> bool:
    """Whether the bibliography section *selection* writes *item*'s entry."""
    if "include" in selection:
        chosen = any(_passes(test, item) for test in selection["include"])
    elif "exclude" in selection:
        chosen = not any(_passes(test, item) for test in selection["exclude"])
    elif "select" in selection:
        chosen = all(_passes(test, item) for test in selection["select"])
    else:
        chosen = True
    quash = selection.get("quash")
    return chosen and not (quash and all(_passes(test, item) for test in quash))
