"""The classic BibTeX styles, rendered by pybtex: ``plain``, ``unsrt`` and ``alpha``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from refbridge.styles.definitions import (
    BibliographyProcessor,
    FormatRequest,
    FormatterStyleDefinition,
    Item,
)
from refbridge.vocab import OUTPUT_FORMATS

#: The outputs the .bbl bridge writes: every one but RTF (it has no entry template for it).
PYBTEX_OUTPUTS: tuple[str, ...] = tuple(o for o in OUTPUT_FORMATS if o != "rtf")

PYBTEX_STYLES: dict[str, str] = {
    "plain": "BibTeX plain: numbered, sorted by author, year and title (pybtex)",
    "unsrt": "BibTeX unsrt: numbered in input order (pybtex)",
    "alpha": "BibTeX alpha: author-year labels such as [Knu97], sorted like plain (pybtex)",
}


def pybtex_factory(style: str) -> Callable[[Sequence[Item], FormatRequest], BibliographyProcessor]:
    """A formatter factory for pybtex style ``style``; pybtex is imported only when it runs."""

    def factory(items: Sequence[Item], request: FormatRequest) -> BibliographyProcessor:
        from refbridge.styles.pybtex_bridge import PybtexProcessor

        return PybtexProcessor.create(style, items, request)

    return factory


STYLES = [FormatterStyleDefinition(name, title, pybtex_factory(name),
                                   outputs=PYBTEX_OUTPUTS,
                                   labels_entries=True)
          for name, title in PYBTEX_STYLES.items()]
