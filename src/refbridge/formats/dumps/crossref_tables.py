"""Crossref's work object (the REST API's ``message``, the public data file's ``items``) ->
CSL: its types, text members and people, as tables. This module must never read a file.
"""

from __future__ import annotations

#: Crossref work type -> CSL item type (a type not listed is a ``document``).
WORK_TYPES: dict[str, str] = {
    "journal-article": "article-journal",
    "proceedings-article": "paper-conference",
    "book-chapter": "chapter",
    "book-part": "chapter",
    "book-section": "chapter",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "reference-book": "book",
    "book-set": "book",
    "proceedings": "book",
    "posted-content": "article",
    "report": "report",
    "report-series": "report",
    "dissertation": "thesis",
    "dataset": "dataset",
    "standard": "standard",
    "reference-entry": "entry-encyclopedia",
    "peer-review": "review",
    "journal": "periodical",
}
#: Member holding one string -> CSL variable.
TEXT_MEMBERS: dict[str, str] = {
    "volume": "volume",
    "issue": "issue",
    "page": "page",
    "article-number": "number",
    "publisher": "publisher",
    "publisher-location": "publisher-place",
    "language": "language",
}
#: Member holding a list of strings (the first is the value) -> CSL variable.
LIST_MEMBERS: dict[str, str] = {
    "container-title": "container-title",
    "short-container-title": "container-title-short",
    "ISSN": "ISSN",
    "ISBN": "ISBN",
}
#: Member holding people -> CSL name role.
NAME_MEMBERS: dict[str, str] = {
    "author": "author",
    "editor": "editor",
    "translator": "translator",
    "chair": "chair",
}
#: Date members, in the order the first present one is the issued date.
ISSUED_MEMBERS: tuple[str, ...] = ("issued", "published-print", "published-online",
                                   "published")
