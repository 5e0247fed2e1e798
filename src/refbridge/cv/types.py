"""The kinds of publication a list is split into, as tables: name, heading, and CSL item types.

``PUBLICATION_KINDS`` is a CV's (preprints first, as on most research CVs and profile pages);
``BIBLIOGRAPHY_KINDS`` a formatted bibliography's (articles, books, chapters, conference
papers, theses, reports, other). The order of a table is the order of a list split by type. A
CSL type that no row names falls in the table's last row, ``other``. This module must never
hold logic beyond looking the tables up.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PublicationKind:
    name: str  #: what ``--type`` accepts
    heading: str
    csl_types: tuple[str, ...]


PUBLICATION_KINDS: tuple[PublicationKind, ...] = (
    PublicationKind("preprint", "Preprints", ("article",)),
    PublicationKind("journal", "Journal articles",
                    ("article-journal", "article-magazine", "article-newspaper", "review",
                     "review-book")),
    PublicationKind("conference", "Conference papers", ("paper-conference",)),
    PublicationKind("book", "Books", ("book", "classic", "collection")),
    PublicationKind("chapter", "Book chapters",
                    ("chapter", "entry", "entry-dictionary", "entry-encyclopedia")),
    PublicationKind("thesis", "Theses", ("thesis",)),
    PublicationKind("report", "Reports", ("report", "standard", "manuscript", "pamphlet")),
    PublicationKind("talk", "Talks and posters", ("speech", "event", "performance")),
    PublicationKind("software", "Software and data", ("software", "dataset")),
    PublicationKind("patent", "Patents", ("patent",)),
    PublicationKind("other", "Other", ()),
)
BIBLIOGRAPHY_KINDS: tuple[PublicationKind, ...] = (
    PublicationKind("article", "Articles",
                    ("article-journal", "article", "article-magazine", "article-newspaper",
                     "review", "review-book")),
    PublicationKind("book", "Books", ("book", "classic", "collection")),
    PublicationKind("chapter", "Book chapters",
                    ("chapter", "entry", "entry-dictionary", "entry-encyclopedia")),
    PublicationKind("conference", "Conference papers", ("paper-conference",)),
    PublicationKind("thesis", "Theses", ("thesis",)),
    PublicationKind("report", "Reports", ("report", "standard")),
    PublicationKind("other", "Other", ()),
)
OTHER = PUBLICATION_KINDS[-1]
_BY_CSL_TYPE: dict[str, PublicationKind] = {csl_type: kind for kind in PUBLICATION_KINDS
                                            for csl_type in kind.csl_types}
KIND_NAMES: tuple[str, ...] = tuple(kind.name for kind in PUBLICATION_KINDS)


def kind_of(csl_type: str) -> PublicationKind:
    """The publication kind of a CSL item type (``other`` for the rest)."""
    return _BY_CSL_TYPE.get(csl_type, OTHER)


def kind_in(kinds: tuple[PublicationKind, ...], csl_type: str) -> PublicationKind:
    """The kind of ``kinds`` (a table above) a CSL item type falls in (its last row for the
    rest)."""
    return next((kind for kind in kinds if csl_type in kind.csl_types), kinds[-1])
