"""CSL-M parallel citations, as citeproc-js: the cites of one case (an item and the items its
``seeAlso`` lists, adjacent in a citation) read as one, the parts they share written once.

:func:`repeat_marks` compares each cite of a citation with the next on the variables the
style tracks (those its ``parallel-first``, ``parallel-last`` and ``no-repeat`` attributes
name); a group with one of these attributes then writes nothing where its variables repeat
(see ``nodes.ParallelGroup``), and ``parallel-delimiter-override`` changes the delimiter
before a cite of a parallel. This module only compares item values: it never renders.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .values import parse_date

#: the group attributes that name tracked variables
TRACKING_ATTRIBUTES = ("parallel-first", "parallel-last", "no-repeat")
#: every attribute that turns citeproc-js's parallel machinery on
PARALLEL_ATTRIBUTES = (*TRACKING_ATTRIBUTES, "parallel-delimiter-override",
                       "parallel-delimiter-override-on-suppress", "parallel-last-to-first")


@dataclass
class RepeatMark:
    """How a cite relates to the next one: the tracked variables both have the same value of
    (``same``); whether a parallel starts at the next cite (``start``), ends at this one
    (``end``); whether this cite belongs to no parallel (``orphan``), or the next one
    continues its parallel (``sibling``)."""

    same: frozenset[str] = frozenset()
    start: bool = False
    end: bool = False
    orphan: bool = False
    sibling: bool = False


@dataclass
class ParallelCite:
    """A cite's place among the repeat marks of its citation, and the delimiter a group set
    to write before it (None: the layout's)."""

    index: int
    marks: list[RepeatMark]
    delimiter: str | None = None
    roles: list[str | None] = field(default_factory=list)  # "first", "other" or None, by cite
    override: str | None = None  # the parallel-delimiter-override of a group the cite met
    #: the variables a parallel-last-to-first group of the parallel named so far: from then
    #: on, in every report of the parallel, parallel-last on them is parallel-first
    last_to_first: set[str] = field(default_factory=set)

    def repeats(self, first: frozenset[str], last: frozenset[str], no_repeat: frozenset[str]) -> bool:
        """Whether a group with these attributes writes nothing for this cite (citeproc-js's
        ``checkRepeats``): every variable of ``parallel-first`` repeats the cite before,
        which starts no parallel; every one of ``parallel-last`` is repeated by the cite
        after, in the same parallel; every one of ``no-repeat`` repeats the cite before."""
        if first:
            mark = self.marks[self.index - 1] if self.index else None
            return mark is not None and not mark.start and first <= mark.same
        if last:
            mark = self.marks[self.index] if self.index < len(self.marks) else None
            return mark is not None and not mark.end and last <= mark.same
        if no_repeat:
            mark = self.marks[self.index - 1] if self.index else None
            return mark is not None and no_repeat <= mark.same
        return False

    @property
    def before(self) -> RepeatMark | None:
        """The mark between the cite before and this one."""
        return self.marks[self.index - 1] if self.index else None


def _same(variable: str, current: Mapping[str, Any], following: Mapping[str, Any]) -> bool:
    a, b = current.get(variable), following.get(variable)
    if not a or not b:
        return False
    if isinstance(b, (str, int, float)):
        if variable == "title" and current.get("title-short") and following.get("title-short"):
            a, b = current["title-short"], following["title-short"]
        return str(a) == str(b)
    if isinstance(a, Mapping):  # a date: its year
        first, second = parse_date(a), parse_date(b)
        return bool(first and second and first.start[0] and first.start[0] == second.start[0])
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def repeat_marks(items: Sequence[Mapping[str, Any]], tracked: frozenset[str]) -> tuple[list[RepeatMark], list[str | None]]:
    """The repeat marks between the cites of a citation (one fewer than its items) and each
    cite's role in a parallel ("first", "other", None), as citeproc-js's ``StartCitation``
    (the end of a parallel found as it finds it, quirks included)."""
    roles: list[str | None] = [None] * len(items)
    marks: list[RepeatMark] = []
    if len(items) < 2:
        return marks, roles
    end: int | None = 0  # (citeproc-js: a first parallel ending at cite 0 is no end)
    matching: list[str] | None = None
    ranges: list[tuple[int, int]] = []
    for i in range(len(items) - 1):
        current, following = items[i], items[i + 1]
        fresh = False
        see_also = current.get("seeAlso")
        if see_also and matching is None:
            fresh = True
            matching = [str(current.get("id")), *(str(key) for key in see_also)]
            left = list(matching)
            roles[i] = "first"
            for j, item in enumerate(items[i:]):
                key = str(item.get("id"))
                found = left.index(key) if key in left else -1
                end = None
                if found == -1:
                    end = i + j - 1
                elif i + j == len(items) - 1:
                    end = i + j
                if end:  # (0 is no end, as in citeproc-js)
                    ranges.append((i, end))
                    break
                # (citeproc-js's slices: a key not found drops the last and repeats the rest)
                left = left[:found] + left[found + 1:] if found > -1 else left[:-1] + left
        if i > 0 and fresh:
            marks[i - 1].start = True
        mark = RepeatMark(same=frozenset(v for v in tracked if _same(v, current, following)))
        if matching is None:
            mark.orphan = True
        if end == i:
            mark.end = True
            matching = None
        marks.append(mark)
    for start, stop in ranges:
        for k in range(start, stop):
            marks[k].sibling = True
            roles[k + 1] = "other"
    return marks, roles
