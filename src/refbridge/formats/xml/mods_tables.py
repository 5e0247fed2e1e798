"""MODS (Library of Congress Metadata Object Description Schema, v3) vocabulary as data:
genres and the CSL types they mean, name roles (MARC relator terms and codes), identifier
types, and where ``part`` details go. Genre terms are MARC's (``authority="marcgt"``) and, as
written by bibutils (the most used MODS converter), ``bibutilsgt``. Tables only: this module
must never hold logic.
"""

from __future__ import annotations

from refbridge.formats.catalogue import MODS_NAMESPACE
from refbridge.formats.xml.safe import READ, WHOLE

NAMESPACE = MODS_NAMESPACE

#: CSL type -> (the record's own genre, its authority, the host's genre or None). The writer
#: uses these; the reader reads them back (and the aliases below).
TYPE_GENRES: dict[str, tuple[str | None, str, str | None]] = {
    "article-journal": ("journal article", "bibutilsgt", "periodical"),
    "article-magazine": ("magazine article", "bibutilsgt", "periodical"),
    "article-newspaper": ("newspaper article", "bibutilsgt", "newspaper"),
    "book": ("book", "marcgt", None),
    "chapter": ("book chapter", "bibutilsgt", "book"),
    "paper-conference": ("conference paper", "bibutilsgt", "conference publication"),
    "thesis": ("thesis", "marcgt", None),
    "report": ("technical report", "marcgt", None),
    "patent": ("patent", "marcgt", None),
    "webpage": ("web page", "bibutilsgt", None),
    "map": ("map", "marcgt", None),
    "motion_picture": ("motion picture", "marcgt", None),
    "legislation": ("legislation", "marcgt", None),
    "legal_case": ("legal case and case notes", "marcgt", None),
    "entry-encyclopedia": ("encyclopedia article", "bibutilsgt", "encyclopedia"),
    "entry-dictionary": ("dictionary entry", "bibutilsgt", "dictionary"),
    "personal_communication": ("letter", "marcgt", None),
    "dataset": ("database", "marcgt", None),
    "review": ("review", "marcgt", None),
    "interview": ("interview", "marcgt", None),
    "speech": ("speech", "marcgt", None),
    "standard": ("standard or specification", "marcgt", None),
    "treaty": ("treaty", "marcgt", None),
    "periodical": ("periodical", "marcgt", None),
    "graphic": ("graphic", "marcgt", None),
    "manuscript": ("unpublished", "bibutilsgt", None),
    "article": ("preprint", "local", None),
    "software": ("software", "local", None),
}

#: Other genre terms of the record itself, read as these CSL types.
GENRE_ALIASES: dict[str, str] = {
    "article": "article-journal",
    "academic journal": "periodical",
    "ph.d. thesis": "thesis",
    "masters thesis": "thesis",
    "diploma thesis": "thesis",
    "doctoral thesis": "thesis",
    "report": "report",
    "conference publication": "book",
    "web site": "webpage",
    "electronic": "webpage",
    "journal": "periodical",
    "newspaper": "periodical",
    "magazine": "periodical",
    "multivolume monograph": "book",
    "government publication": "report",
    "encyclopedia": "book",
    "dictionary": "book",
    "videorecording": "motion_picture",
    "sound": "song",
    "statistics": "dataset",
    "numeric data": "dataset",
    "computer program": "software",
    "technical drawing": "figure",
    "picture": "graphic",
    "art original": "graphic",
}

#: Genre terms of the host (``relatedItem type="host"``), read as the record's CSL type when
#: its own genre says nothing.
HOST_GENRES: dict[str, str] = {
    "periodical": "article-journal",
    "academic journal": "article-journal",
    "journal": "article-journal",
    "magazine": "article-magazine",
    "newspaper": "article-newspaper",
    "book": "chapter",
    "collection": "chapter",
    "conference publication": "paper-conference",
    "encyclopedia": "entry-encyclopedia",
    "dictionary": "entry-dictionary",
    "web site": "webpage",
}

#: CSL role -> the MARC relator term refbridge writes (``roleTerm type="text"``).
ROLE_TERMS: dict[str, str] = {
    "author": "author",
    "editor": "editor",
    "translator": "translator",
    "compiler": "compiler",
    "composer": "composer",
    "contributor": "contributor",
    "curator": "curator",
    "director": "film director",
    "illustrator": "illustrator",
    "interviewer": "interviewer",
    "narrator": "narrator",
    "organizer": "organizer",
    "performer": "performer",
    "producer": "producer",
    "recipient": "addressee",
    "guest": "guest",
    "host": "host",
    "script-writer": "screenwriter",
    "collection-editor": "series editor",
    "editorial-director": "editorial director",
    "executive-producer": "executive producer",
    "original-author": "original author",
    "reviewed-author": "reviewed author",
    "container-author": "container author",
    "chair": "moderator",
    "series-creator": "series creator",
}
#: Other role terms and MARC relator codes, read as these roles.
ROLE_ALIASES: dict[str, str] = {
    "aut": "author", "edt": "editor", "trl": "translator", "com": "compiler",
    "cmp": "composer", "ctb": "contributor", "cur": "curator", "drt": "director",
    "director": "director", "ill": "illustrator", "ivr": "interviewer", "nrt": "narrator",
    "orm": "organizer", "prf": "performer", "pro": "producer", "rcp": "recipient",
    "recipient": "recipient", "aus": "script-writer", "creator": "author", "cre": "author",
    "pbd": "editorial-director", "edc": "editor", "moderator": "chair",
}
#: Role terms naming an organisation that is the record's publisher (a thesis's school).
PUBLISHER_ROLES: frozenset[str] = frozenset({"degree grantor", "dgg", "publisher", "pbl"})

#: CSL variable -> ``identifier type``.
IDENTIFIERS: dict[str, str] = {
    "DOI": "doi",
    "ISBN": "isbn",
    "ISSN": "issn",
    "PMID": "pmid",
    "PMCID": "pmc",
}
IDENTIFIER_ALIASES: dict[str, str] = {"pubmed": "PMID", "pmcid": "PMCID", "eissn": "ISSN"}
KEY_IDENTIFIER = "citekey"  #: bibutils keeps the citation key as this identifier

#: CSL variable -> ``part/detail type`` (its ``number``).
DETAILS: dict[str, str] = {
    "volume": "volume",
    "issue": "issue",
    "number": "number",
    "chapter-number": "chapter",
    "section": "section",
    "supplement": "supplement",
}
DETAIL_ALIASES: dict[str, str] = {"page": "page"}

#: CSL variable -> element of ``originInfo``.
ORIGIN: dict[str, str] = {"publisher": "publisher", "edition": "edition"}
#: CSL date variable -> date element of ``originInfo``.
DATES: dict[str, str] = {
    "issued": "dateIssued",
    "accessed": "dateCaptured",
}
#: Date elements of ``originInfo`` read as the issued date when there is no other (archives
#: and image collections date a work by its creation; Zotero reads them so).
ISSUED_FALLBACKS: tuple[str, ...] = ("dateCreated", "copyrightDate")
#: Name types whose ``namePart``s are one name joined by ": " (Zotero's reading of
#: ``Library of Congress`` / ``Music Division.``); a personal name's are joined by a space.
JOINED_NAME_TYPES: frozenset[str] = frozenset({"corporate", "conference", "family"})

_NOT_MODELLED = "the model has no slot for it"
#: Every element of a ``mods`` record this reader knows (see ``safe.report_unread``): read,
#: read whole, or why it is not carried. ``relatedItem``s other than the host and the series
#: are not carried either.
ELEMENTS: dict[str, str] = {
    **dict.fromkeys(("titleInfo", "name", "originInfo", "place", "part", "location", "role",
                     "detail", "extent"), READ),
    **dict.fromkeys((
        "title", "subTitle", "nonSort", "partNumber", "partName", "namePart", "displayForm",
        "roleTerm", "publisher", "placeTerm", "dateIssued", "dateCaptured", "dateCreated",
        "copyrightDate", "edition", "issuance", "genre", "language", "abstract", "note",
        "subject", "classification", "identifier", "url", "physicalLocation", "shelfLocator",
        "number", "start", "end", "total", "list", "date", "text"), WHOLE),
    "typeOfResource": "the kind of resource: the genre gives the CSL type",
    "physicalDescription": _NOT_MODELLED,
    "accessCondition": _NOT_MODELLED,
    "tableOfContents": _NOT_MODELLED,
    "targetAudience": _NOT_MODELLED,
    "recordInfo": "the catalogue's bookkeeping, not the work's",
    "extension": "another schema's data",
    "affiliation": _NOT_MODELLED,
    "nameIdentifier": _NOT_MODELLED,
    "description": _NOT_MODELLED,
    "caption": "a label of the number (vol., no.)",
    "dateModified": _NOT_MODELLED,
    "dateValid": _NOT_MODELLED,
    "dateOther": _NOT_MODELLED,
    "frequency": _NOT_MODELLED,
    "agent": _NOT_MODELLED,
    "cartographics": _NOT_MODELLED,
}
#: Elements read into another form than their text (names, roles, the type, dates):
#: element -> how.
RECOMPOSED: dict[str, str] = {
    **dict.fromkeys(("namePart", "displayForm"), "a name (family, given, suffix)"),
    "roleTerm": "the name's role",
    **dict.fromkeys(("genre", "issuance"), "the CSL type (else the genre field)"),
    **dict.fromkeys(("dateIssued", "dateCaptured", "dateCreated", "copyrightDate", "date"),
                    "a date"),
}
#: Elements of a host or series ``relatedItem`` this reader reads (in a series only the
#: title); every other element in it is reported.
HOST_ELEMENTS: frozenset[str] = frozenset(
    {"titleInfo", "name", "originInfo", "identifier", "part", "genre"})
SERIES_ELEMENTS: frozenset[str] = frozenset({"titleInfo"})
#: CSL variable -> element of ``location``.
LOCATION: dict[str, str] = {
    "URL": "url",
    "archive": "physicalLocation",
    "archive_location": "shelfLocator",
}
