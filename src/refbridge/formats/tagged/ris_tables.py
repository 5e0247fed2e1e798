"""RIS vocabulary as data: reference types (TY) and tags, mapped to the model's CSL vocabulary.

The tables follow the RIS specification and the way Zotero, EndNote and Mendeley use it:
``AU``/``A2``/``A3``/``A4`` for authors, editors, series editors and translators, ``T2`` for the
container title, ``PY`` and ``DA`` for dates, ``SP``/``EP`` for pages, ``DB`` for the archive
(the name of the database). The writer uses the first TY listed for a CSL type; the reader also
knows the aliases other programs write. Tables only: this module must never hold logic.
"""

from __future__ import annotations

#: CSL item type -> the RIS reference type refbridge writes. Types RIS has no reference type
#: for are written as ``GEN`` (the exact CSL type travels in the residue note).
TYPE_TO_TY: dict[str, str] = {
    "article": "UNPB",
    "article-journal": "JOUR",
    "article-magazine": "MGZN",
    "article-newspaper": "NEWS",
    "bill": "BILL",
    "book": "BOOK",
    "broadcast": "VIDEO",
    "chapter": "CHAP",
    "classic": "CLSWK",
    "dataset": "DATA",
    "document": "GEN",
    "entry-dictionary": "DICT",
    "entry-encyclopedia": "ENCYC",
    "figure": "FIGURE",
    "graphic": "ART",
    "hearing": "HEAR",
    "legal_case": "CASE",
    "legislation": "STAT",
    "manuscript": "MANSCPT",
    "map": "MAP",
    "motion_picture": "MPCT",
    "musical_score": "MUSIC",
    "pamphlet": "PAMP",
    "paper-conference": "CPAPER",
    "patent": "PAT",
    "periodical": "JFULL",
    "personal_communication": "PCOMM",
    "post": "ICOMM",
    "post-weblog": "BLOG",
    "regulation": "GOVDOC",
    "report": "RPRT",
    "software": "COMP",
    "song": "SOUND",
    "speech": "SLIDE",
    "standard": "STAND",
    "thesis": "THES",
    "webpage": "ELEC",
}
FALLBACK_TY = "GEN"

#: RIS reference types other programs write, read as these CSL types (besides the reverse of
#: ``TYPE_TO_TY``).
TY_ALIASES: dict[str, str] = {
    "ABST": "article-journal",
    "ADVS": "motion_picture",
    "AGGR": "dataset",
    "ANCIENT": "classic",
    "CHART": "figure",
    "CONF": "paper-conference",
    "CTLG": "book",
    "DBASE": "dataset",
    "EBOOK": "book",
    "ECHAP": "chapter",
    "EDBOOK": "book",
    "EJOUR": "article-journal",
    "EQUA": "figure",
    "GRANT": "document",
    "INPR": "article-journal",
    "LEGAL": "legislation",
    "MULTI": "webpage",
    "SER": "periodical",
    "UNBILL": "bill",
    "WEB": "webpage",
}

TY_TO_TYPE: dict[str, str] = {
    **TY_ALIASES,
    **{ty: csl for csl, ty in reversed(list(TYPE_TO_TY.items()))},
}

#: CSL text variable -> the RIS tag refbridge writes (one value per tag).
FIELD_TAGS: dict[str, str] = {
    "title": "TI",
    "container-title": "T2",
    "collection-title": "T3",
    "title-short": "ST",
    "container-title-short": "J2",
    "abstract": "AB",
    "DOI": "DO",
    "URL": "UR",
    "note": "N1",
    "annote": "RN",
    "publisher": "PB",
    "publisher-place": "CY",
    "volume": "VL",
    "issue": "IS",
    "edition": "ET",
    "number": "M1",
    "genre": "M3",
    "section": "SE",
    "number-of-volumes": "NV",
    "language": "LA",
    "call-number": "CN",
    "archive": "DB",
    "archive_location": "AN",
    "source": "DP",
    "citation-label": "LB",
}

#: Tags other programs write for the same variables (read only).
FIELD_TAG_ALIASES: dict[str, str] = {
    "BT": "container-title",
    "JF": "container-title",
    "JO": "container-title",
    "JA": "container-title-short",
    "N2": "abstract",
    "VO": "volume",
}

#: CSL name role -> RIS tag (``Family, Given, Suffix``, one name per tag).
NAME_TAGS: dict[str, str] = {
    "author": "AU",
    "editor": "A2",
    "collection-editor": "A3",
    "translator": "A4",
}
NAME_TAG_ALIASES: dict[str, str] = {"A1": "author", "ED": "editor"}

#: CSL date variable -> RIS tag holding ``YYYY/MM/DD/other``. The issued year also goes in PY.
DATE_TAGS: dict[str, str] = {"issued": "DA", "accessed": "Y2"}
YEAR_TAG = "PY"
DATE_TAG_ALIASES: dict[str, str] = {"Y1": "issued", "PY": "issued"}

TYPE_TAG = "TY"
END_TAG = "ER"
KEYWORD_TAG = "KW"
KEY_TAG = "ID"  #: the citation key (EndNote's reference ID)
START_PAGE_TAG = "SP"
END_PAGE_TAG = "EP"
ISBN_ISSN_TAG = "SN"
NOTE_TAG = "N1"

#: The order of tags in written records (TY first, ER last; unlisted tags follow in order).
TAG_ORDER: tuple[str, ...] = (
    "TY", "ID", "TI", "ST", "AU", "A2", "A3", "A4", "T2", "J2", "T3", "PY", "DA", "Y2",
    "VL", "IS", "SP", "EP", "ET", "NV", "SE", "M1", "M3", "PB", "CY", "SN", "DO", "UR",
    "DB", "DP", "AN", "CN", "LA", "LB", "AB", "KW", "RN", "N1",
)
