"""Sort keys of CSL sorting: the Unicode Collation Algorithm in the style's locale (ICU).

citeproc-js compares sort keys with JavaScript's ``localeCompare`` in the style's locale at
base strength, punctuation and spaces ignored, digits compared as numbers: that is ICU's
collator at primary strength, alternate handling "shifted", numeric collation on. This
module asks ICU (PyICU, from the ``pyicu-wheels`` package) for the same collator and turns
texts into its binary sort keys, so that sorting is a plain comparison of bytes: ``Øster``
sorts with O in English and after Z in Danish, ``Ábel`` with A, ``07-x`` before ``200``
and ``6.1`` before both. It never renders.
"""

from __future__ import annotations

from functools import cache

import icu


class Collation:
    """Binary sort keys of texts in one locale."""

    def __init__(self, locale: str) -> None:
        try:
            collator = icu.Collator.createInstance(icu.Locale.forLanguageTag(locale))
        except icu.ICUError:  # not a language tag: the root collation (English's)
            collator = icu.Collator.createInstance(icu.Locale.getRoot())
        collator.setStrength(icu.Collator.PRIMARY)
        collator.setAttribute(icu.UCollAttribute.ALTERNATE_HANDLING, icu.UCollAttributeValue.SHIFTED)
        collator.setAttribute(icu.UCollAttribute.NUMERIC_COLLATION, icu.UCollAttributeValue.ON)
        self._key = collator.getSortKey

    def key(self, text: str) -> bytes:
        """The sort key of *text*: compare two keys as bytes to compare the texts."""
        return self._key(text)  # type: ignore[no-any-return]


@cache
def collation(locale: str) -> Collation:
    """The collation of *locale* (a language tag such as ``en-US``), made once."""
    return Collation(locale)
