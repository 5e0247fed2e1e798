"""Marked strings of the CSL processor's renderings: text that says what it is (a suffix, a
delimiter, a kept space, a sealed leaf...), so that punctuation, spacing and capitalization
treat it as citeproc-js treats the blob it stands for.

Kept apart from :mod:`refbridge.csl.rendered` so that the rest of the engine can be compiled
with mypyc, which cannot compile subclasses of ``str``: this module stays Python. It holds
types only, never behaviour beyond being a ``str``.
"""

from __future__ import annotations


class LiteralText(str):
    """The text of a ``cs:text value``: content, not an affix, so the punctuation it starts
    with stays outside a closing quote before it (as citeproc-js, which moves only affixes
    and delimiters into quotes). The delimiter between two names after cs:name's suffix is
    one too: nothing merges with it ("Gilbert, S.D.,, Rambo")."""

    __slots__ = ()


class Suffix(str):
    """An element's suffix, or a delimiter after a group or macro. After the sealed text of an
    element inside it (see Sealed), it still merges with that text's last mark, as
    citeproc-js merges a parent's suffix with the end of its last child."""

    __slots__ = ()


class OwnSuffix(Suffix):
    """An element's own suffix (not a delimiter or a prefix that merges as one)."""

    __slots__ = ()


class LeafSuffix(OwnSuffix):
    """The own suffix of a text, number or label element: as citeproc-js, a delimiter after
    it merges with it only when it is the same mark ("9:. T"); the next element's prefix
    merges as usual ("9: T")."""

    __slots__ = ()


class InnerSuffix(LeafSuffix):
    """A leaf's suffix (see LeafSuffix) that ends a group or macro call without a suffix of
    its own: what follows the group merges with it only when it is the same mark ("9:. x")."""

    __slots__ = ()


class BesideDecorated(str):
    """The prefix of an element right after a formatted one: as citeproc-js merges a prefix
    with the end of the sibling before it only when neither of them is formatted, it is
    written whole (``<b>et al.</b>. 2020``; see HeldPrefix for the prefix of a formatted
    element)."""

    __slots__ = ()


class KeptSpace(str):
    """The suffix of a formatted or quoted element (or group) that ends in a space: as
    citeproc-js, a prefix starting with a space after it is written whole ("<i>NRC</i>  2023");
    a delimiter after it merges its space as usual."""

    __slots__ = ()


class OwnKeptSpace(OwnSuffix, KeptSpace):
    """An element's own suffix (see OwnSuffix) that keeps its space (see KeptSpace)."""

    __slots__ = ()


class KeptLead(str):
    """A prefix starting with a space that leads what a formatted group holds: as citeproc-js,
    it is written whole after text that ends in a space (``<group prefix=" "><group
    font-style="normal"><text prefix=" "/>`` writes two spaces)."""

    __slots__ = ()


class SplitLead(str):
    """A prefix starting with two spaces that leads an unformatted group or macro without a
    prefix of its own: citeproc-js moves its first space up to that group, so the two are
    escaped apart (HTML: two plain spaces, not a no-break space and a space)."""

    __slots__ = ()


class Delimiter(str):
    """A delimiter between the renderings of a group, macro or layout (see KeptSpace)."""

    __slots__ = ()


class DelimiterSuffix(Suffix, Delimiter):
    """A delimiter that merges as a suffix (see Suffix and Delimiter)."""

    __slots__ = ()


class NumberText(str):
    """A number written through citeproc-js's number path (a cs:number, a number variable
    written as numbers): a group's or the layout's suffix after the suffix of an element that
    ends in one is not merged with it, only the same mark twice (citeproc-js: ``802;.``)."""

    __slots__ = ()


class Sealed(str):
    """The text of a formatted or quoted element that writes one string (a variable, a term,
    a value): as citeproc-js, punctuation it ends with is not merged with the element's own
    suffix, a delimiter or a prefix after it (<i>solve?</i>. stays), except the same mark
    twice; the suffix of a group, macro call or layout around it merges as usual. The
    formatting of a group or a macro call leaves its contents unsealed."""

    __slots__ = ()


class HeldPrefix(LiteralText):
    """The prefix of a formatted element: held out of a closing quote before it like a text
    value, unless the element leads an unformatted group or macro (citeproc-js moves such a
    prefix up to the group, whose prefix may then go into the quote). Nothing before it merges
    with its punctuation (``et al.. <b>2020</b>``)."""

    __slots__ = ()


class NestedPrefix(str):
    """The prefix an element's rendering starts with, right after the prefix of the element
    around it: as citeproc-js, no punctuation before it merges with its own (a group's
    prefix "," around a text's prefix ", " writes "A,, B")."""

    __slots__ = ()


class DateKey(str):
    """A date rendered for sorting (see nodes.sort_key_of)."""

    __slots__ = ()
