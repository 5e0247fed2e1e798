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

#: MARC genre terms (``authority="marcgt"``, and unlabelled genres) read as these CSL types,
#: as Zotero reads them; the record's own genre tables above win where both say something.
MARC_GENRES: dict[str, str] = {
    **dict.fromkeys((
        "autobiography", "bibliography", "biography", "comic", "comic or graphic novel",
        "drama", "festschrift", "fiction", "folktale", "graphic novel", "handbook", "history",
        "humor", "humor,satire", "hymnal", "memoir", "novel", "satire", "script",
        "yearbook"), "book"),
    **dict.fromkeys((
        "art reproduction", "chart", "comic strip", "diorama", "kit", "microscope slide",
        "model", "realia", "slide", "transparency"), "graphic"),
    **dict.fromkeys(("law report or digest", "law report", "digest", "law digest",
                     "legal article"), "article-journal"),
    **dict.fromkeys(("legal case", "case notes"), "legal_case"),
    **dict.fromkeys(("online system or service", "online system", "online service",
                     "service"), "webpage"),
    "globe": "map", "filmstrip": "motion_picture", "loose-leaf": "manuscript",
    "theses": "thesis", "standard": "standard",
}
#: Dublin Core type terms (``authority="dct"``, spaces dropped) read as these CSL types.
DCT_GENRES: dict[str, str] = {
    "image": "graphic", "stillimage": "graphic", "movingimage": "motion_picture",
    "interactiveresource": "webpage", "software": "software", "sound": "song",
    "dataset": "dataset", "collection": "collection", "event": "event",
}
#: ``typeOfResource`` terms read as these CSL types when no genre of the record says one
#: (``text`` says nothing).
RESOURCE_TYPES: dict[str, str] = {
    "cartographic": "map",
    "notated music": "musical_score",
    "sound recording": "song",
    "sound recording-musical": "song",
    "sound recording-nonmusical": "song",
    "still image": "graphic",
    "moving image": "motion_picture",
    "software, multimedia": "software",
    "mixed material": "collection",
}
#: ``physicalDescription/internetMediaType``s read as these CSL types when neither genre nor
#: resource type says one (a digitised text published as HTML is a web page).
MEDIA_TYPES: dict[str, str] = {"text/html": "webpage"}
#: A role of one of the record's names that tells its CSL type (a letter has a recipient).
ROLE_TYPES: dict[str, str] = {"recipient": "personal_communication"}
#: Elements of an ``extension`` (GovInfo's congressional metadata) that tell the CSL type;
#: they say more than the genre ``government publication`` GovInfo gives every record.
EXTENSION_TYPES: dict[str, str] = {"billNumber": "bill", "congCommittee": "hearing"}
#: A bill's ``extension/docClass`` -> the abbreviation that precedes its ``billNumber`` in a
#: citation (``H.R. 3304``), as the Indigo Book writes them.
BILL_CLASSES: dict[str, str] = {
    "hr": "H.R.", "s": "S.", "hjres": "H.R.J. Res.", "sjres": "S.J. Res.",
    "hconres": "H.R. Con. R.", "sconres": "S. Con. R.", "hres": "H.R. Res.", "sres": "S. Res.",
}
#: A bill is cited by its short title (``extension/shortTitle``); its MODS title, the long
#: official one, is kept as this extra.
BILL_OFFICIAL_TITLE = "mods.title-official"
#: Name parts of a personal name given whole that are its life dates, not its words: a
#: bracketed run without letters (``Alleman, Tillie Pierce [1848-1914]``) or closing years
#: (``Holberg, Ludvig, 1684-1754``).
LIFE_DATES: str = r"\s*[\[(][^A-Za-z\])]*[\])]|,\s*\d{3,4}\s*-\s*(?:\d{3,4})?\.?\s*$"

#: The ``subject`` child read as a keyword; the others (geographic, temporal, genre,
#: hierarchicalGeographic, cartographics, name, ...) are kept as ``mods.subject-<child>``
#: extras, the parts of a hierarchical one joined by this separator.
KEYWORD_SUBJECT = "topic"
#: Parts of a ``subject/cartographics`` read as these CSL variables (a map's scale); its other
#: parts (projection, coordinates) are kept as ``mods.subject-cartographics-<part>``.
CARTOGRAPHIC_FIELDS: dict[str, str] = {"scale": "scale"}
SUBJECT_PARTS_SEPARATOR = " -- "

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
    "pht": "author", "photographer": "author",
    "pbd": "editorial-director", "edc": "editor", "moderator": "chair",
    "asn": "contributor", "associated name": "contributor",
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
        "copyrightDate", "edition", "issuance", "genre", "typeOfResource", "language",
        "abstract", "note", "subject", "classification", "identifier", "url", "physicalLocation", "shelfLocator",
        "number", "start", "end", "total", "list", "date", "text"), WHOLE),
    "physicalDescription": _NOT_MODELLED,
    "accessCondition": _NOT_MODELLED,
    "tableOfContents": _NOT_MODELLED,
    "targetAudience": _NOT_MODELLED,
    "recordInfo": "the catalogue's bookkeeping, not the work's",
    "extension": ("another schema's data; of GovInfo's only a bill's number, class and short "
                  "title and a hearing's committee are read"),
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
    **dict.fromkeys(("genre", "issuance", "typeOfResource"),
                    "the CSL type (else the genre field)"),
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
