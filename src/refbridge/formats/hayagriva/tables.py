"""Tables of the Hayagriva YAML format (Typst's bibliography files): entry types, parents, fields.

Hayagriva describes where a work appeared with *parents* (a journal article's parent is a
``periodical``, a chapter's a ``book``) instead of container fields; which parent holds which
CSL variable follows Typst's own reading of the format (hayagriva's ``csl/taxonomy.rs``: the
container of an ``article`` is its ``proceedings``, ``periodical``, ``newspaper``, ``blog``...
parent; the collection is the container's parent of the same type; the event a ``conference``
or ``exhibition`` parent; the original an ``original`` parent). This module holds data only
and must never contain reading or writing logic.
"""

from __future__ import annotations

#: Every entry type of the format (its ``type`` field, case-insensitive).
ENTRY_TYPES: frozenset[str] = frozenset({
    "article", "chapter", "entry", "anthos", "report", "thesis", "web", "scene", "artwork",
    "patent", "case", "newspaper", "legislation", "manuscript", "original", "post", "misc",
    "performance", "periodical", "proceedings", "book", "blog", "reference", "conference",
    "anthology", "repository", "thread", "video", "audio", "exhibition"})

#: The type of a parent that names none: the entry type's default parent.
DEFAULT_PARENT: dict[str, str] = {
    "article": "periodical", "chapter": "book", "entry": "reference", "anthos": "anthology",
    "web": "web", "scene": "video", "artwork": "exhibition", "legislation": "anthology",
    "post": "post", "video": "video", "audio": "audio"}
#: The type of a parent without one whose child has no default parent, and of an entry
#: without a type.
FALLBACK_TYPE = "misc"

#: CSL item type -> (entry type, type of the container parent or None). The container parent
#: is written even when it holds nothing, so that the pair reads back as the CSL type.
CSL_TO_ENTRY: dict[str, tuple[str, str | None]] = {
    "article": ("article", None),
    "article-journal": ("article", "periodical"),
    "article-magazine": ("article", "periodical"),
    "article-newspaper": ("article", "newspaper"),
    "paper-conference": ("article", "proceedings"),
    "review": ("article", "periodical"),
    "review-book": ("article", "periodical"),
    "post-weblog": ("article", "blog"),
    "chapter": ("chapter", "book"),
    "entry": ("entry", None),
    "entry-dictionary": ("entry", "reference"),
    "entry-encyclopedia": ("entry", "reference"),
    "book": ("book", None),
    "classic": ("book", None),
    "collection": ("anthology", None),
    "periodical": ("periodical", None),
    "report": ("report", None),
    "standard": ("report", None),
    "thesis": ("thesis", None),
    "manuscript": ("manuscript", None),
    "patent": ("patent", None),
    "legal_case": ("case", None),
    "legislation": ("legislation", None),
    "bill": ("legislation", None),
    "regulation": ("legislation", None),
    "treaty": ("legislation", None),
    "webpage": ("web", "web"),
    "post": ("post", "web"),
    "motion_picture": ("video", None),
    "broadcast": ("video", "video"),
    "song": ("audio", None),
    "musical_score": ("audio", None),
    "graphic": ("artwork", None),
    "figure": ("artwork", None),
    "map": ("artwork", None),
    "event": ("conference", None),
    "performance": ("performance", None),
    "software": ("repository", None),
    "dataset": ("repository", None),
    "document": ("misc", None),
    "pamphlet": ("misc", None),
    "speech": ("misc", None),
    "interview": ("misc", None),
    "personal_communication": ("misc", None),
    "hearing": ("misc", None),
}

#: (entry type, container type) -> CSL item type, for the pairs that name one.
PAIR_TO_CSL: dict[tuple[str, str], str] = {
    ("article", "periodical"): "article-journal",
    ("article", "newspaper"): "article-newspaper",
    ("article", "proceedings"): "paper-conference",
    ("article", "conference"): "paper-conference",
    ("article", "blog"): "post-weblog",
    ("article", "book"): "chapter",
    ("article", "reference"): "entry-encyclopedia",
    ("entry", "reference"): "entry-encyclopedia",
    ("video", "video"): "broadcast",
    ("video", "audio"): "broadcast",
}
#: Entry type -> CSL item type, when the pair names none.
ENTRY_TO_CSL: dict[str, str] = {
    "article": "article", "chapter": "chapter", "entry": "entry", "anthos": "chapter",
    "report": "report", "thesis": "thesis", "web": "webpage", "scene": "broadcast",
    "artwork": "graphic", "patent": "patent", "case": "legal_case", "newspaper": "periodical",
    "legislation": "legislation", "manuscript": "manuscript", "original": "book",
    "post": "post", "misc": "document", "performance": "performance",
    "periodical": "periodical", "proceedings": "book", "book": "book", "blog": "webpage",
    "reference": "book", "conference": "event", "anthology": "collection",
    "repository": "software", "thread": "post", "video": "motion_picture", "audio": "song",
    "exhibition": "event",
}

#: Entry type -> the parent types that are its container, first match first (Typst's order).
CONTAINERS: dict[str, tuple[str, ...]] = {
    "article": ("book", "proceedings", "conference", "periodical", "newspaper", "blog",
                "reference", "web"),
    "anthos": ("book", "anthology", "reference", "report"),
    "chapter": ("book", "anthology", "reference", "report"),
    "entry": ("reference", "book", "anthology"),
    "report": ("book", "anthology"),
    "web": ("web",),
    "scene": ("audio", "video", "performance", "artwork"),
    "case": ("book", "anthology", "reference", "report"),
    "post": ("thread", "blog", "web"),
    "thread": ("thread", "web", "blog"),
    "video": ("video", "audio"),
}
#: Types whose parent of the same type (or an ``anthology``) is their collection (series).
COLLECTION_HOLDERS: frozenset[str] = frozenset({
    "anthology", "newspaper", "performance", "periodical", "proceedings", "book",
    "reference", "exhibition"})
#: The type of an event parent refbridge writes, and the types it reads as one.
EVENT_TYPE = "conference"
EVENT_TYPES: frozenset[str] = frozenset({"conference", "exhibition"})
#: The type of the parent that holds the work a record re-publishes.
ORIGINAL_TYPE = "original"

# -- the parts of an entry -----------------------------------------------------------------
#: The places of an entry's data: the entry, and the parents refbridge reads. A field that is
#: not read is kept as the extra ``hayagriva.FIELD`` (the entry's) or ``hayagriva.PLACE.FIELD``.
ENTRY, CONTAINER, COLLECTION, EVENT, ORIGINAL = (
    "entry", "container", "collection", "event", "original")

#: Formattable-string fields -> CSL variable, per place.
TEXT_FIELDS: dict[str, dict[str, str]] = {
    ENTRY: {"title": "title", "abstract": "abstract", "genre": "genre", "note": "note",
            "archive": "archive", "archive-location": "archive_location",
            "call-number": "call-number", "organization": "authority",
            "location": "event-place"},
    CONTAINER: {"title": "container-title"},
    COLLECTION: {"title": "collection-title"},
    EVENT: {"title": "event-title", "location": "event-place"},
    ORIGINAL: {"title": "original-title"},
}
#: The CSL variable of a title's ``short`` form, per place.
SHORT_TITLES: dict[str, str] = {ENTRY: "title-short", CONTAINER: "container-title-short"}
#: Number fields (numeric or text) -> CSL variable, per place.
NUMBER_FIELDS: dict[str, dict[str, str]] = {
    ENTRY: {"volume": "volume", "issue": "issue", "edition": "edition",
            "page-range": "page", "page-total": "number-of-pages",
            "volume-total": "number-of-volumes", "chapter": "chapter-number"},
    CONTAINER: {"volume": "volume", "issue": "issue", "edition": "edition",
                "volume-total": "number-of-volumes"},
    COLLECTION: {"volume": "collection-number"},
    EVENT: {},
    ORIGINAL: {},
}
#: Fields Typst reads as a number only (any other text is an error there): written only when
#: their value is a whole number.
WHOLE_NUMBER_FIELDS: frozenset[str] = frozenset({"page-total", "volume-total"})
#: Person-list fields -> CSL name variable, per place.
NAME_FIELDS: dict[str, dict[str, str]] = {
    ENTRY: {"author": "author", "editor": "editor"},
    CONTAINER: {"author": "container-author", "editor": "editor"},
    COLLECTION: {"editor": "collection-editor"},
    EVENT: {},
    ORIGINAL: {"author": "original-author"},
}
#: The date field -> CSL date variable, per place.
DATE_FIELDS: dict[str, str] = {ENTRY: "issued", CONTAINER: "issued", EVENT: "event-date",
                               ORIGINAL: "original-date"}
#: The publisher's name and location -> CSL variables, per place.
PUBLISHER_FIELDS: dict[str, tuple[str, str]] = {
    ENTRY: ("publisher", "publisher-place"), CONTAINER: ("publisher", "publisher-place"),
    ORIGINAL: ("original-publisher", "original-publisher-place")}

#: The CSL variables a record's container parent holds when its type has one (else the entry).
CONTAINER_VARIABLES: frozenset[str] = frozenset({
    "container-title", "container-title-short", "container-author", "editor", "volume",
    "issue", "edition", "publisher", "publisher-place", "number-of-volumes", "ISSN", "ISBN"})

#: ``serial-number`` keys -> CSL variable (``arxiv``: the eprint's identifier).
SERIAL_NUMBERS: dict[str, str] = {
    "doi": "DOI", "isbn": "ISBN", "issn": "ISSN", "pmid": "PMID", "pmcid": "PMCID",
    "serial": "number", "version": "version", "printing": "printing"}
ARXIV_SERIAL = "arxiv"
#: The ``serial-number`` keys a container's entry holds when the record's type has one (the
#: journal's ISSN, the book's ISBN); the others are the entry's own.
CONTAINER_SERIALS: frozenset[str] = frozenset({"issn", "isbn"})
#: Identifier fields of older Hayagriva files, read as their ``serial-number`` keys.
LEGACY_SERIALS: tuple[str, ...] = ("doi", "isbn", "issn")

#: ``affiliated`` roles -> CSL name variable (the other roles are kept as they are).
ROLES: dict[str, str] = {
    "translator": "translator", "compiler": "compiler", "composer": "composer",
    "collaborator": "contributor", "organizer": "organizer", "cast-member": "performer",
    "producer": "producer", "executive-producer": "executive-producer",
    "writer": "script-writer", "illustrator": "illustrator", "narrator": "narrator",
    "director": "director"}
#: CSL name variable -> ``affiliated`` role.
ROLE_OF: dict[str, str] = {variable: role for role, variable in ROLES.items()}

#: The order of an entry's fields in refbridge's output.
FIELD_ORDER: tuple[str, ...] = (
    "type", "title", "author", "editor", "affiliated", "date", "genre", "edition",
    "volume", "issue", "chapter", "page-range", "page-total", "volume-total", "publisher",
    "organization", "location", "archive", "archive-location", "call-number", "url",
    "serial-number", "language", "abstract", "note", "parent")
