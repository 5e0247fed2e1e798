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

_CACHE_LIMIT = 100_000


class Collation:
    """Binary sort keys of texts in one locale (cached: sort keys repeat across items)."""

    def __init__(self, locale: str) -> None:
        try:
            collator = icu.Collator.createInstance(icu.Locale.forLanguageTag(locale))
        except icu.ICUError:  # not a language tag: the root collation (English's)
            collator = icu.Collator.createInstance(icu.Locale.getRoot())
        collator.setStrength(icu.Collator.PRIMARY)
        collator.setAttribute(icu.UCollAttribute.ALTERNATE_HANDLING, icu.UCollAttributeValue.SHIFTED)
        collator.setAttribute(icu.UCollAttribute.NUMERIC_COLLATION, icu.UCollAttributeValue.ON)
        self._key = collator.getSortKey
        self._keys: dict[str, bytes] = {}

    def key(self, text: str) -> bytes:
        """The sort key of *text*: compare two keys as bytes to compare the texts."""
        found = self._keys.get(text)
        if found is None:
            if len(self._keys) > _CACHE_LIMIT:
                self._keys.clear()
            found = self._keys[text] = self._key(text)
        return found


@cache
def collation(locale: str) -> Collation:
    """The collation of *locale* (a language tag such as ``en-US``), made once."""
    return Collation(locale)
