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
    "GRNT": "document",  # Zotero's spelling of GRANT
    "INPR": "article-journal",
    "LEGAL": "legislation",
    "MULTI": "webpage",
    "SER": "book",  # RIS: "Serial (Book, Monograph)"; Zotero reads it so too
    "UNBILL": "bill",
    "UNPD": "article",  # Zotero's spelling of UNPB
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

#: Tags other programs write for the same variables (read only). ``T1`` is the primary title
#: of the RIS specification (PubMed, ScienceDirect, EndNote write it), ``CT`` its older
#: "title of unpublished work"; ``JF`` the periodical's full name, ``JO``/``JA``/``J1`` its
#: abbreviations (as Zotero's RIS.js reads them).
FIELD_TAG_ALIASES: dict[str, str] = {
    "T1": "title",
    "CT": "title",
    "JF": "container-title",
    "JO": "container-title-short",
    "JA": "container-title-short",
    "J1": "container-title-short",
    "N2": "abstract",
    "VO": "volume",
}

#: The key of ``TYPED_TAGS`` that stands for every type the entry does not name.
ANY_TYPE = "*"
#: Tags whose variable depends on the record's type (as the RIS specification and Zotero's
#: RIS.js read them): tag -> CSL type (or ``ANY_TYPE``) -> the variables it may fill, the
#: first still free wins; an empty tuple keeps the value as an ``ris.XX`` extra. Tags not
#: listed, and types a tag's entry does not name, read as ``FIELD_TAGS`` says.
TYPED_TAGS: dict[str, dict[str, tuple[str, ...]]] = {
    # BT: the book's own title in a book, the book's title in a chapter
    "BT": {"book": ("title",), "manuscript": ("title",), ANY_TYPE: ("container-title",)},
    # a conference paper's T2 is the conference when C3 names the proceedings
    "T2": {"paper-conference": ("container-title", "event-title")},
    "C3": {"paper-conference": ("container-title",)},
    # M3 is the type of work in these types only; elsewhere it is the database's document
    # type (Scopus: ``Article``) or, from EndNote, the DOI, never a genre to print
    "M3": {"graphic": ("genre",), "interview": ("genre",), "manuscript": ("genre",),
           "map": ("genre",), "personal_communication": ("genre",), "post": ("genre",),
           "post-weblog": ("genre",), "report": ("genre",), "speech": ("genre",),
           "thesis": ("genre",), "webpage": ("genre",), ANY_TYPE: ()},
}
#: Tags read before the others, whatever their place in the record: the type, then C3 (it
#: names the proceedings, so T2 knows whether it is the conference).
FIRST_TAGS: tuple[str, ...] = ("TY", "C3")
#: Abbreviation tags that stand in for the periodical's name when a record has none
#: (ScienceDirect writes the full name in ``JO``; Zotero reads them so too).
TITLE_STAND_INS: frozenset[str] = frozenset({"JO", "JA", "J1"})

#: User tags in which PubMed's RIS export writes identifiers with their kind in brackets
#: (``U1  - 26957754[pmid]``, ``U2  - PMC4756000[pmcid]``): kind -> CSL variable. Other kinds
#: (``[PII]``) stay ``ris.UX`` extras.
USER_TAGS: frozenset[str] = frozenset({"U1", "U2", "U3", "U4", "U5"})
BRACKETED_IDENTIFIERS: dict[str, str] = {"pmid": "PMID", "pmcid": "PMCID"}

#: CSL types whose ``M1`` is the issue when no ``IS`` gives one (EndNote writes a journal
#: article's issue there; Zotero's RIS.js reads it so).
M1_ISSUE_TYPES: frozenset[str] = frozenset({"article-journal"})

#: CSL types whose ``SN`` is an ISSN (the others': an ISBN), when its shape does not say.
ISSN_TYPES: frozenset[str] = frozenset(
    {"article-journal", "article-magazine", "article-newspaper", "periodical"})
#: CSL types whose ``SN``, when it is neither an ISSN nor an ISBN, is the work's number
#: (Zotero: a report's number, a patent's number).
SN_NUMBER_TYPES: frozenset[str] = frozenset({"report", "patent"})

#: CSL name role -> RIS tag (``Family, Given, Suffix``, one name per tag).
NAME_TAGS: dict[str, str] = {
    "author": "AU",
    "editor": "A2",
    "collection-editor": "A3",
    "translator": "A4",
}
NAME_TAG_ALIASES: dict[str, str] = {"A1": "author", "ED": "editor"}
#: The role a name tag gives in a record of each CSL type, as the RIS specification labels
#: the tags per reference type and Zotero's RIS.js reads them (its creator types in CSL
#: terms): tag -> CSL type (or ``ANY_TYPE``) -> role. None: the tag names no person CSL has
#: a role for in that type (a series' director, a case's counsel, a catalogue's institution),
#: and its value is kept as the ``ris.XX`` extra. Roles of ``NAME_TAGS`` not listed here
#: are written with the first tag that reads back as them, else in the residue note.
TYPED_NAME_TAGS: dict[str, dict[str, str | None]] = {
    "AU": {"song": "composer", "musical_score": "composer", "broadcast": "director",
           ANY_TYPE: "author"},
    "A2": {"article-journal": "editor", "chapter": "editor", "classic": "editor",
           "document": "editor", "entry-dictionary": "editor", "entry-encyclopedia": "editor",
           "musical_score": "editor", "paper-conference": "editor", "periodical": "editor",
           "article": "editor",
           "book": "collection-editor", "report": "collection-editor",
           "bill": "author", "song": "author", "speech": "author",
           "interview": "interviewer", "personal_communication": "recipient",
           "post": "recipient", ANY_TYPE: None},
    "A3": {"book": "editor", "chapter": "collection-editor",
           "entry-dictionary": "collection-editor", "entry-encyclopedia": "collection-editor",
           "map": "collection-editor", "musical_score": "collection-editor",
           "paper-conference": "collection-editor", "thesis": "contributor",
           "broadcast": "producer", "motion_picture": "producer", ANY_TYPE: None},
    "A4": {"paper-conference": "contributor", "dataset": "contributor",
           "motion_picture": "contributor", "legal_case": None, ANY_TYPE: "translator"},
}
TYPED_NAME_TAGS["A1"] = TYPED_NAME_TAGS["AU"]
#: Reference types whose name tags mean another role than their CSL type's: an edited book's
#: AU are its editors (as Zotero's RIS.js reads them).
TY_NAME_ROLES: dict[str, dict[str, str]] = {"EDBOOK": {"AU": "editor", "A1": "editor"}}
#: Name tags that hold a text variable in some types: A2 is a case's reporter (the
#: container title) and a patent's issuing authority.
NAME_TAG_VARIABLES: dict[str, dict[str, str]] = {
    "A2": {"legal_case": "container-title", "patent": "authority"}}

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
DOI_TAG = "DO"

#: The order of tags in written records (TY first, ER last; unlisted tags follow in order).
TAG_ORDER: tuple[str, ...] = (
    "TY", "ID", "TI", "ST", "AU", "A2", "A3", "A4", "ED", "T2", "J2", "T3", "PY", "DA", "Y2",
    "VL", "IS", "SP", "EP", "ET", "NV", "SE", "M1", "M3", "PB", "CY", "SN", "DO", "UR",
    "DB", "DP", "AN", "CN", "LA", "LB", "AB", "KW", "RN", "N1",
)

#: Every tag of the RIS specification (2011 and the older tag list) and those Zotero's RIS.js
#: and Citavi write, beside ``TY``/``ER``: what the reader must map, keep or report.
KNOWN_TAGS: frozenset[str] = frozenset({
    "A1", "A2", "A3", "A4", "AB", "AD", "AN", "AU", "AV", "BT", "C1", "C2", "C3", "C4", "C5",
    "C6", "C7", "C8", "CA", "CN", "CP", "CR", "CT", "CY", "DA", "DB", "DO", "DP", "ED", "EP",
    "ET", "H1", "H2", "ID", "IS", "J1", "J2", "JA", "JF", "JO", "KW", "L1", "L2", "L3", "L4",
    "LA", "LB", "LK", "M1", "M2", "M3", "N1", "N2", "NV", "OP", "PB", "PP", "PY", "RI", "RN",
    "RP", "SE", "SN", "SP", "ST", "SV", "T1", "T2", "T3", "TA", "TI", "TT", "U1", "U2", "U3",
    "U4", "U5", "UR", "VL", "VO", "Y1", "Y2"})
