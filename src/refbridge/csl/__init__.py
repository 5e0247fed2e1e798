"""refbridge's CSL 1.0.2 processor: formatted citations and bibliographies from CSL-JSON.

Architecture (compile once, render many):

* :mod:`.style` parses a style's XML once into a tree of node objects
  (:mod:`.nodes`, :mod:`.names`); macros are compiled once per section with that
  section's inherited name options, so rendering never walks XML.
* :mod:`.localization` merges locale files and the style's own locale overrides
  (language base -> xx-XX -> style locales, as citeproc-js) and looks up terms, date formats and ordinals.
* :mod:`.processor` registers items, sorts them, disambiguates (added names, given
  names by every givenname-disambiguation-rule, the ``disambiguate`` condition, year
  suffixes), and renders bibliographies and citation clusters (positions, cite sorting,
  grouping and collapsing).
* Rendering produces a tree of :class:`.richtext.Rich` nodes with plain-text leaves;
  :mod:`.formats` flattens it (flip-flop of nested formatting and quotes, punctuation
  merging, punctuation-in-quote) and writes text, HTML, Markdown, LaTeX or RTF,
  escaping every leaf so record text never becomes markup.
* :mod:`.multilingual` chooses, for CSL-M, which form of a value or name is shown
  (an item's transliterated, translated and sort forms).
* :mod:`.conformance` runs the official CSL processor test-suite fixtures.

Written for refbridge instead of using citeproc-py because that library was measured at
59% of the official suite, lacks year-suffix disambiguation and leaves HTML unescaped.
"""

from .localization import Locale, LocaleStore
from .multilingual import LanguagePrefs
from .processor import Processor, make_processor
from .style import CslStyle, StyleInfo

__all__ = ["CslStyle", "LanguagePrefs", "Locale", "LocaleStore", "Processor", "StyleInfo", "make_processor"]
