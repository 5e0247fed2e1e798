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
    "BT": "container-title",  # bibutils' xml2isi: a chapter's book
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
    "BN": "ISBN",
    "PU": "publisher",
    "PI": "publisher-place",
    "PM": "PMID",
    "WP": "URL",
    "UR": "URL",
    "PG": "number-of-pages",
    "CE": "edition",
}
#: A patent's number (in other records ``PN`` is the part number, kept as ``wos.PN``).
PATENT_NUMBER_TAG = "PN"
#: Tags whose values are lists, one per line (names and addresses).
LIST_TAGS: frozenset[str] = frozenset({"AU", "AF", "BA", "BF", "BE", "CA", "GP", "C1", "CR"})
#: Tag of full names -> (role, tag of the short names read when there are no full names).
NAME_TAGS: dict[str, tuple[str, str]] = {
    "AF": ("author", "AU"),
    "BF": ("author", "BA"),
    "BE": ("editor", "BE"),
}
#: Group authors: ``CA`` of the work; ``GP`` of the book (``BOOK_GROUP_TAG``).
CORPORATE_TAGS: frozenset[str] = frozenset({"CA"})
#: The book's group authors: a book's authors; of a paper or chapter in it, the book's (in
#: proceedings mostly the sponsor, ``GP IEEE``), kept as ``wos.GP``, as Zotero leaves them.
BOOK_GROUP_TAG = "GP"
BOOK_TYPES: frozenset[str] = frozenset({"book"})
#: Tags of keywords, ``; ``-separated: author keywords, KeyWords Plus, then the index terms of
#: BIOSIS and Zoological Record (broad terms ``BD``, major concepts ``MC``, methods and
#: equipment ``MQ``, organisms ``OR``), as Zotero reads them.
KEYWORD_TAGS: tuple[str, ...] = ("DE", "ID", "BD", "MC", "MQ", "OR")
#: Tags of the ISSNs (print, electronic): every one is the record's ISSN.
ISSN_TAGS: tuple[str, ...] = ("SN", "EI")

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
    "dissertation/thesis": "thesis",
    "dissertation": "thesis",
    "thesis": "thesis",
    "data set": "dataset",
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

#: Publication types (``PT``) whose records are parts of a book: a contribution the document
#: type calls an article (``DT Review`` in ``PT S``, a volume of a book series) is then a
#: chapter of it, as Zotero reads it.
BOOK_PUBLICATION_TYPES: frozenset[str] = frozenset({"S", "series", "B", "book"})

#: Where a record's pages are, in order of preference: begin and end page, the page range of
#: Inspec and Zoological Record (``PS 467-72``), the article number of electronic journals
#: (``AR e4342``, the pages of such an article, as Zotero reads it; beside begin and end pages
#: it is the number).
PAGE_TAGS: tuple[str, ...] = ("BP", "EP", "PS", "AR")

#: The field tags of Clarivate's exports (Web of Science Core Collection, Derwent, Inspec,
#: MEDLINE, BIOSIS and Zoological Record in Web of Science) and of bibutils' ``xml2isi``
#: (``BT``), beside ``PT``/``ER``. A line that
#: starts like another tag continues the value before it (some exports do not indent
#: continuation lines).
KNOWN_TAGS: frozenset[str] = frozenset({
    "AA", "AB", "AD", "AE", "AF", "AN", "AR", "AU", "AW", "BA", "BD", "BE", "BF", "BN", "BP",
    "BS", "BT", "C1", "C3", "CA", "CC", "CE", "CH", "CL", "CN", "CO", "CP", "CR", "CT", "CY", "D2",
    "DA", "DC", "DE", "DG", "DI", "DL", "DN", "DS", "DT", "EA", "ED", "EF", "EI", "EM", "EP",
    "ER", "FD", "FN", "FP", "FS", "FU", "FX", "GA", "GP", "GT", "HC", "HO", "HP", "ID", "IO",
    "IP", "IS", "J9", "JI", "LA", "MA", "MC", "MN", "MQ", "NO", "NR", "NT", "OA", "OI", "OR",
    "PA", "PC", "PD", "PG", "PI", "PL", "PM", "PN", "PS", "PT", "PU", "PV", "PY", "RG", "RI",
    "RP", "SC", "SE", "SI", "SN", "SO", "SP", "SU", "TC", "TF", "TI", "TR", "U1", "U2", "UR",
    "UT", "VL", "VN", "VR", "WC", "WE", "WP", "Z9"})
#: The tag of the authors' e-mail addresses (an address written after a name goes here).
EMAIL_TAG = "EM"
