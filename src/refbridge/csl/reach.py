"""What a compiled CSL element does for an item that has none of its variables, decided
once from the style.

A cs:group or a macro call whose variables are all empty is suppressed (CSL 1.0.2,
"Group"), and a cs:choose whose tests all fail renders nothing. Most of a large style's
groups, macros and choices read or test variables an item does not have (APA's
bibliography layout meets ~90 of them per entry), so rendering spent most of its time
walking branches that end in nothing. A :class:`Reach` says, for an element, which item
keys (``keys``) its rendering depends on, and what it does for an item that has none of
them: whether it calls a variable (which makes an enclosing group vanish when nothing is
found), whether it writes text that counts as no variable (a term, a value, a label), and
whether that is all it does (``known``). A group, macro call or choice that renders
nothing for such an item is skipped (``nodes._skipped``), leaving the same
count behind as rendering it would.

This module decides from the style alone: it must never look at an item, and it must
answer "not known" for anything whose rendering does more than call variables and write
text (a disambiguate="true" test, the year suffix, the citation number, the cite's
locator, a label made of several variables, a term written in place of names).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .context import NOT_ITEM_KEYS, item_keys

#: three answers for "does it ...?" about an item with none of the keys
NO, MAYBE, YES = 0, 1, 2


def _either(answers: Sequence[int]) -> int:
    """The answer for one of several alternatives, not known which."""
    return answers[0] if len(set(answers)) == 1 else MAYBE


class Reach(NamedTuple):
    #: the item keys whose presence can change what the element renders
    keys: frozenset[str]
    #: for an item without any of ``keys``: whether it calls a variable (and finds none)
    calls: int
    #: for such an item: whether it writes text that counts as no variable (a term ...)
    writes: int
    #: for such an item, calling variables and writing such text is all it does
    known: bool
    #: it holds a cs:names (the first cs:names of a rendering is noted even when empty)
    names: bool = False
    #: for such an item: whether it holds a group or macro call that renders nothing and
    #: calls no variable, after which, as in citeproc-js, the enclosing group counts as having
    #: called none so far (``calls`` then says what it calls after the last of them)
    resets: int = NO

    @property
    def renders_nothing(self) -> bool:
        """For an item without ``keys``: renders nothing (whether it calls a variable or not)."""
        return self.known and self.writes == NO

    @property
    def gate(self) -> Reach | None:
        """What a group, macro call or choice is skipped by (see ``nodes._skipped``), if any:
        for an item without ``keys`` it renders nothing, and whether it calls a variable
        is known."""
        return self if self.renders_nothing and MAYBE not in (self.calls, self.resets) else None


#: a term, a value or a label: writes text, calls no variable
WRITER = Reach(frozenset(), NO, MAYBE, True)
#: an element whose rendering may do more (see the module docstring)
UNKNOWN = Reach(frozenset(), MAYBE, MAYBE, False)


def variable(name: str, *more: str) -> Reach:
    """A cs:text, cs:number or cs:date of an item variable (and the variables it falls back to)."""
    if name in NOT_ITEM_KEYS or any(other in NOT_ITEM_KEYS for other in more):
        return UNKNOWN
    keys = {key for each in (name, *more) for key in item_keys(each)}
    return Reach(frozenset(keys), YES, NO, True)


def sequence(reaches: Iterable[Reach]) -> Reach:
    """Elements rendered one after another (a branch's, a group's or a macro's content):
    one that surely calls a variable makes the sequence call one (NO < MAYBE < YES)."""
    keys: set[str] = set()
    calls = writes = resets = NO
    known, names = True, False
    for reach in reaches:
        keys.update(reach.keys)
        if reach.resets != NO:
            calls = min(calls, MAYBE) if reach.resets == MAYBE else NO
        calls = max(calls, reach.calls)
        writes = max(writes, reach.writes)
        resets = max(resets, reach.resets)
        known = known and reach.known
        names = names or reach.names
    return Reach(frozenset(keys), calls, writes, known, names, resets)


#: whether a group or macro call resets its parent's calls (Reach.resets), by its content's calls
_RESETS = {NO: YES, MAYBE: MAYBE, YES: NO}


def group(content: Reach) -> Reach:
    """A group or macro call as an element of its parent: with variables called and none
    found it vanishes; without a variable called it writes its terms, which then count as
    a variable found for the parent (not known here)."""
    if not content.known or (content.writes != NO and content.calls != YES):
        return Reach(content.keys, MAYBE, MAYBE, False, content.names, MAYBE)
    return Reach(content.keys, content.calls, NO, True, content.names, _RESETS[content.calls])


@dataclass(frozen=True, slots=True)
class Test:
    """A cs:if / cs:else-if: the item keys it reads, its answer for an item without them
    (None: it depends on more than the item's variables), and whether it has no effect."""

    keys: frozenset[str]
    answer: bool | None
    pure: bool


_VARIABLE_TESTS = ("variable", "is-numeric", "is-uncertain-date", "is-plural")
_OTHER_TESTS = ("type", "position", "locator", "disambiguate", "context", "container-multiple", "container-subsequent")


def test(attrs: dict[str, str]) -> Test:
    """The :class:`Test` of a condition's attributes (as ``nodes.compile_condition`` reads them)."""
    names = [name for attr in _VARIABLE_TESTS for name in attrs.get(attr, "").split()]
    computed = any(name in NOT_ITEM_KEYS for name in names)
    keys = frozenset(key for name in names if name not in NOT_ITEM_KEYS for key in item_keys(name))
    # (a disambiguate test is counted, a test of the citation number notes it was read)
    pure = "disambiguate" not in attrs and not computed
    answer: bool | None = None
    if names and not computed:  # every variable test fails for an item without the keys
        match = attrs.get("match", "all")
        if match == "all":
            answer = False
        elif match in ("any", "none") and not any(attr in attrs for attr in _OTHER_TESTS):
            answer = match == "none"
    return Test(keys, answer, pure)


def combined(tests: Sequence[Test]) -> Test:
    """The :class:`Test` of CSL-M cs:conditions made of *tests* (its answer not known)."""
    return Test(frozenset().union(*(t.keys for t in tests)), None, all(t.pure for t in tests))


def choice(branches: Sequence[Reach], tests: Sequence[Test | None]) -> Reach:
    """A cs:choose of *branches* (their content) under *tests* (None for cs:else)."""
    keys: set[str] = set()
    taken: list[Reach] = []
    known = True
    decided = False
    for branch, condition in zip(branches, tests):
        if condition is not None:
            keys |= condition.keys
            known = known and condition.pure
            if condition.answer is False:
                continue
        taken.append(branch)
        if condition is None or condition.answer:
            decided = True
            break
    if not decided:
        taken.append(Reach(frozenset(), NO, NO, True))  # no branch: nothing
    for branch in taken:
        keys |= branch.keys
    return Reach(frozenset(keys), _either([b.calls for b in taken]),
                 _either([b.writes for b in taken]),
                 known and all(b.known for b in taken), any(b.names for b in taken),
                 _either([b.resets for b in taken]))


def names(variables: Iterable[str], candidates: Sequence[Reach]) -> Reach:
    """A cs:names of *variables*; *candidates*: the elements its cs:substitute may try, each
    of which must render nothing for the names to be known."""
    keys = frozenset(variables).union(*(c.keys for c in candidates))
    known = all(c.renders_nothing for c in candidates)
    return Reach(keys, YES, NO, known, True)

