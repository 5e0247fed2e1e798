"""Web of Science (ISI) field tags as data: Clarivate's two-letter tags of the "Plain text"
and "Tab-delimited" exports (``PT``, ``AU``, ``AF``, ``TI``, ``SO``, ``PY``, ``VL``, ``BP``,
``DI``, ``UT`` ...) and document types, mapped to the model's CSL vocabulary. Tables only:
this module must never hold logic.
"""

from __future__ import annotations

#: Tag -> CSL text variable (first occurrence wins).
FIELD_TAGS: dict[str, str] = {
    "TI": "title",
    "SO": "container-title",
    "JI": "container-title-short",
    "J9": "container-title-short",
    "SE": "collection-title",
    "CT": "event-title",
    "CL": "event-place",
    "VL": "volume",
    "IS": "issue",
    "AR": "number",
    "DI": "DOI",
    "AB": "abstract",
    "LA": "language",
    "SN": "ISSN",
    "EI": "ISSN",
    "BN": "ISBN",
    "PU": "publisher",
    "PI": "publisher-place",
    "PM": "PMID",
    "WP": "URL",
    "PG": "number-of-pages",
}
#: Tags whose values are lists, one per line (names and addresses).
LIST_TAGS: frozenset[str] = frozenset({"AU", "AF", "BA", "BF", "BE", "CA", "GP", "C1", "CR"})
#: Tag of full names -> (role, tag of the short names read when there are no full names).
NAME_TAGS: dict[str, tuple[str, str]] = {
    "AF": ("author", "AU"),
    "BF": ("author", "BA"),
    "BE": ("editor", "BE"),
}
CORPORATE_TAGS: frozenset[str] = frozenset({"CA", "GP"})
#: Tags of keywords, ``; ``-separated: author keywords, then KeyWords Plus.
KEYWORD_TAGS: tuple[str, ...] = ("DE", "ID")

#: Document types (``DT``, first of ``; ``-separated) -> CSL types.
DOCUMENT_TYPES: dict[str, str] = {
    "article": "article-journal",
    "review": "article-journal",
    "letter": "article-journal",
    "editorial material": "article-journal",
    "note": "article-journal",
    "meeting abstract": "article-journal",
    "correction": "article-journal",
    "data paper": "article-journal",
    "early access": "article-journal",
    "proceedings paper": "paper-conference",
    "book chapter": "chapter",
    "book": "book",
    "book review": "review-book",
    "patent": "patent",
    "software review": "review",
}
#: Publication types (``PT``) -> CSL types, when the document type says nothing. bibutils
#: writes whole words (``Journal``).
PUBLICATION_TYPES: dict[str, str] = {
    "J": "article-journal", "journal": "article-journal",
    "B": "book", "book": "book",
    "S": "chapter", "series": "chapter",
    "P": "patent", "patent": "patent",
    "C": "paper-conference", "conference": "paper-conference",
}
