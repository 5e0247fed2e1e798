"""CSL-M ``cs:group require="…"`` / ``reject="…"``, as citeproc-js decides them: a group
written or left out by what comes before it and what it starts with, so that a style can
choose between "Title, p. 12" and "Title 12" (``comma-safe``), or leave out a group whose
label is empty (``empty-label``).

The state is what citeproc-js keeps: whether the rendering so far ended in a number (outside
such groups), and, within one, the first term, label or prefix it wrote. This module only
holds that state and decides; the rendering elements report to it (see ``nodes``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .rendered import ROMANESQUE_CHARS

#: the tests a group may require or reject
GROUP_TESTS = frozenset({"comma-safe", "comma-safe-numbers-only", "empty-label", "empty-label-no-decor"})
_ALPHA_START_RE = re.compile(f"[{ROMANESQUE_CHARS}]")
_ENDS_IN_DIGIT_RE = re.compile(r"[0-9]$")


def ends_in_digit(text: str) -> bool:
    return bool(_ENDS_IN_DIGIT_RE.search(text))


@dataclass
class GroupCondition:
    """The test of a group with ``require`` (``negated`` False) or ``reject`` (True), and
    what the group wrote so far that the test reads."""

    test: str
    negated: bool
    term: str | None = None  # the first term, label or prefix written (citeproc-js's termtxt)
    value_term: bool = False  # ... written by a cs:text value
    value_seen: bool = False  # a number's value was met (comma-safe-numbers-only)

    def saw_term(self, text: str | None, value_term: bool = False) -> None:
        if not self.term:
            self.term = text
            self.value_term = value_term

    def suppresses(self, just_did_number: bool, comma_on_symbol: str) -> bool:
        """Whether the group is left out; *just_did_number*: the rendering before it ends in
        a number; *comma_on_symbol*: the style's ``require-comma-on-symbol``."""
        passed = False
        term = self.term
        if self.test == "empty-label":
            passed = not term
        elif self.test == "empty-label-no-decor":
            passed = not term or "%s" in term
        elif self.test in ("comma-safe", "comma-safe-numbers-only"):
            numbers_only = self.test == "comma-safe-numbers-only"
            alpha = bool(term) and bool(_ALPHA_START_RE.match(term or ""))
            if just_did_number:
                if self.value_term or alpha:
                    passed = not numbers_only
                elif not term:
                    passed = True
                else:
                    passed = comma_on_symbol in ("always", "after-number")
            elif self.value_term or not term:
                passed = False
            elif alpha:
                passed = not numbers_only
            else:
                passed = comma_on_symbol == "always"
        return passed if self.negated else not passed
