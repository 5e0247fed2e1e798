"""EndNote's vocabulary as data: reference types (names and the numbers EndNote XML gives
them), the tags of its tagged export (refer, ``.enw``) and the elements of its XML export,
mapped to the model's CSL vocabulary.

Reference types and their numbers are EndNote's own (``<ref-type name="Journal Article">17``);
tags follow EndNote's "EndNote Import" tag list (``%A`` author, ``%T`` title, ``%J`` journal,
``%D`` year, ``%8`` date ...) and elements the EndNote XML DTD (``xml/records/record``). The
writers use the first name listed for a CSL type; the readers also know the names other
programs and older EndNote versions write. Tables only: this module must never hold logic.
"""

from __future__ import annotations

#: CSL item type -> the EndNote reference type refbridge writes (others: ``Generic``; the
#: exact CSL type travels in the residue note).
TYPE_NAMES: dict[str, str] = {
    "article": "Electronic Article",
    "article-journal": "Journal Article",
    "article-magazine": "Magazine Article",
    "article-newspaper": "Newspaper Article",
    "bill": "Bill",
    "book": "Book",
    "chapter": "Book Section",
    "classic": "Classical Work",
    "dataset": "Dataset",
    "document": "Generic",
    "entry-dictionary": "Dictionary",
    "entry-encyclopedia": "Encyclopedia",
    "figure": "Figure",
    "graphic": "Artwork",
    "hearing": "Hearing",
    "legal_case": "Case",
    "legislation": "Statute",
    "manuscript": "Manuscript",
    "map": "Map",
    "motion_picture": "Film or Broadcast",
    "musical_score": "Music",
    "pamphlet": "Pamphlet",
    "paper-conference": "Conference Paper",
    "patent": "Patent",
    "periodical": "Serial",
    "personal_communication": "Personal Communication",
    "post-weblog": "Blog",
    "regulation": "Legal Rule or Regulation",
    "report": "Report",
    "software": "Computer Program",
    "standard": "Standard",
    "thesis": "Thesis",
    "webpage": "Web Page",
}
FALLBACK_TYPE_NAME = "Generic"

#: Reference types other programs (and EndNote's other types) use, read as these CSL types.
TYPE_NAME_ALIASES: dict[str, str] = {
    "Aggregated Database": "dataset",
    "Ancient Text": "classic",
    "Audio": "song",  # library catalogues' refer (Zotero reads it as a recording)
    "Audiovisual Material": "motion_picture",
    "Catalog": "book",
    "Chart or Table": "figure",
    "Conference": "paper-conference",  # the short names JabRef reads and its tests write
    "Conference Proceedings": "paper-conference",
    "Edited Book": "book",
    "Electronic Book": "book",
    "Electronic Book Section": "chapter",
    "Electronic Source": "webpage",
    "Equation": "figure",
    "Government Document": "report",
    "Grant": "document",
    "Interview": "interview",
    "Journal": "article-journal",
    "Online Database": "dataset",
    "Online Multimedia": "webpage",
    "Podcast": "song",
    "Press Release": "article-newspaper",
    "Unpublished Work": "manuscript",
    "Unused 1": "document",
}

#: Reference types whose name fields hold other people than ``NAME_TAGS``/``NAME_ELEMENTS``
#: say, as EndNote labels them per type: type name -> {role of the field: role read}.
#: EndNote's Book labels Secondary Author (``%E``, ``secondary-authors``) "Series Editor",
#: and a book's editor goes to Tertiary Author (as Zotero reads and writes EndNote XML); an
#: Edited Book's Author field is "Editor", its Secondary Author "Series Editor".
TYPE_ROLES: dict[str, dict[str, str]] = {
    "Book": {"editor": "collection-editor", "collection-editor": "editor"},
    "Edited Book": {"author": "editor", "editor": "collection-editor"},
}

#: The type of a record without ``%0`` (refer, BibIX): the first of these tags it has tells
#: it, as refer's styles tell a journal article, an article in a book and a book apart; a
#: record with none of them is a generic document.
REFER_TYPE_TAGS: tuple[tuple[str, str], ...] = (
    ("J", "article-journal"), ("B", "chapter"), ("I", "book"))

#: EndNote reference type name -> its number in EndNote XML.
TYPE_NUMBERS: dict[str, int] = {
    "Aggregated Database": 55, "Ancient Text": 51, "Artwork": 2, "Audiovisual Material": 3,
    "Bill": 4, "Blog": 56, "Book": 6, "Book Section": 5, "Case": 7, "Catalog": 8,
    "Chart or Table": 38, "Classical Work": 49, "Computer Program": 9,
    "Conference Paper": 47, "Conference Proceedings": 10, "Dataset": 59, "Dictionary": 52,
    "Edited Book": 28, "Electronic Article": 43, "Electronic Book": 44,
    "Electronic Book Section": 60, "Encyclopedia": 53, "Equation": 39, "Figure": 37,
    "Film or Broadcast": 21, "Generic": 13, "Government Document": 46, "Grant": 54,
    "Hearing": 14, "Interview": 64, "Journal Article": 17, "Legal Rule or Regulation": 50,
    "Magazine Article": 19, "Manuscript": 36, "Map": 20, "Music": 61,
    "Newspaper Article": 23, "Online Database": 45, "Online Multimedia": 48, "Pamphlet": 24,
    "Patent": 25, "Personal Communication": 26, "Podcast": 62, "Press Release": 63,
    "Report": 27, "Serial": 57, "Standard": 58, "Statute": 31, "Thesis": 32,
    "Unpublished Work": 34, "Web Page": 12,
}

#: CSL types whose EndNote "Number" field (``%N``, ``<number>``) is the issue.
ISSUE_TYPES: frozenset[str] = frozenset(
    {"article", "article-journal", "article-magazine", "article-newspaper", "periodical"})
#: CSL types whose container is a periodical (``%J``); the others' container is ``%B``.
PERIODICAL_TYPES: frozenset[str] = ISSUE_TYPES

# -- the tagged export (refer, .enw) ----------------------------------------------------------
#: CSL text variable -> the tag refbridge writes (``%T``), one value per tag.
FIELD_TAGS: dict[str, str] = {
    "title": "T",
    "collection-title": "S",
    "title-short": "!",
    "original-title": "Q",
    "publisher": "I",
    "publisher-place": "C",
    "volume": "V",
    "page": "P",
    "edition": "7",
    "number-of-volumes": "6",
    "section": "&",
    "genre": "9",
    "language": "G",
    "call-number": "L",
    "archive_location": "M",
    "archive": "~",
    "source": "W",
    "DOI": "R",
    "URL": "U",
    "abstract": "X",
    "annote": "<",
}
#: Tags other programs write for the same variables (read only).
FIELD_TAG_ALIASES: dict[str, str] = {}

#: CSL name role -> tag (``Family, Given, Suffix``; a corporate name ends with a comma).
NAME_TAGS: dict[str, str] = {
    "author": "A",
    "editor": "E",
    "collection-editor": "Y",
    "translator": "?",
}
TYPE_TAG = "0"
YEAR_TAG = "D"
DATE_TAG = "8"
ACCESSED_TAG = "["
KEY_TAG = "F"  #: EndNote's Label, where bibutils and others put the citation key
KEYWORD_TAG = "K"
ISBN_ISSN_TAG = "@"
NUMBER_TAG = "N"
PERIODICAL_TAG = "J"
CONTAINER_TAG = "B"
NOTE_TAG = "Z"
NOTE_TAG_ALIASES: frozenset[str] = frozenset({"O"})  #: bibutils writes notes as %O

#: The order of tags in written records (``%0`` first; unlisted tags follow in order).
TAG_ORDER: tuple[str, ...] = (
    "0", "T", "!", "Q", "A", "E", "Y", "?", "J", "B", "S", "D", "8", "V", "N", "P", "7", "6",
    "&", "9", "I", "C", "@", "R", "U", "[", "G", "L", "M", "~", "W", "F", "X", "K", "<", "Z",
)

# -- the XML export -----------------------------------------------------------------------------
#: CSL text variable -> the element (path under ``record``) refbridge writes.
FIELD_ELEMENTS: dict[str, str] = {
    "title": "titles/title",
    "collection-title": "titles/tertiary-title",
    "container-title-short": "titles/alt-title",
    "title-short": "titles/short-title",
    "original-title": "titles/translated-title",
    "publisher": "publisher",
    "publisher-place": "pub-location",
    "volume": "volume",
    "page": "pages",
    "edition": "edition",
    "number-of-volumes": "num-vols",
    "section": "section",
    "genre": "work-type",
    "language": "language",
    "call-number": "call-num",
    "archive_location": "accession-num",
    "archive": "remote-database-name",
    "source": "remote-database-provider",
    "DOI": "electronic-resource-num",
    "URL": "urls/related-urls/url",
    "abstract": "abstract",
    "annote": "research-notes",
}
#: Elements other programs write for the same variables (read only).
FIELD_ELEMENT_ALIASES: dict[str, str] = {
    "periodical/full-title": "container-title",
    "periodical/abbr-1": "container-title-short",
    "alt-periodical/full-title": "container-title",
    "alt-periodical/abbr-1": "container-title-short",
    "urls/web-urls/url": "URL",
    "urls/text-urls/url": "URL",
}
#: Where EndNote XML keeps file attachments (``internal-pdf://…``, ``file://…``): never the
#: record's URL; kept as the ``endnote-xml.urls/pdf-urls/url`` extra and written back.
ATTACHMENT_ELEMENT = "urls/pdf-urls/url"
#: Addresses of attached files, wherever a program put them (Mendeley: among the URLs).
ATTACHMENT_SCHEMES: tuple[str, ...] = ("internal-pdf://", "file://")
#: CSL name role -> the element that holds one name, in its ``contributors`` list.
NAME_ELEMENTS: dict[str, str] = {
    "author": "contributors/authors/author",
    "editor": "contributors/secondary-authors/author",
    "collection-editor": "contributors/tertiary-authors/author",
    "translator": "contributors/subsidiary-authors/author",
}
#: The elements of the values every record may have, in the order refbridge writes them.
TYPE_ELEMENT = "ref-type"
YEAR_ELEMENT = "dates/year"
DATE_ELEMENT = "dates/pub-dates/date"
ACCESSED_ELEMENT = "access-date"
KEY_ELEMENT = "label"  #: EndNote's Label, as ``%F`` in the tagged export
KEYWORD_ELEMENT = "keywords/keyword"
ISBN_ISSN_ELEMENT = "isbn"
#: What EndNote's ISBN/ISSN field (``%@``, ``<isbn>``) holds in a CSL type, when the value's
#: shape does not say (Zotero's EndNote XML reading): an ISSN in periodicals, the patent's or
#: the report's number; an ISBN in the others.
ISBN_ISSN_VARIABLES: dict[str, str] = {
    "article-journal": "ISSN", "article-magazine": "ISSN", "article-newspaper": "ISSN",
    "periodical": "ISSN", "patent": "number", "report": "number",
}
NUMBER_ELEMENT = "number"
ISSUE_ELEMENT = "issue"
CONTAINER_ELEMENT = "titles/secondary-title"
NOTE_ELEMENT = "notes"
#: The order of a record's elements in the DTD (``database`` ... ``misc3``).
ELEMENT_ORDER: tuple[str, ...] = (
    "rec-number", "foreign-keys", "ref-type", "contributors", "titles", "periodical",
    "pages", "volume", "number", "issue", "num-vols", "edition", "section", "keywords",
    "dates", "pub-location", "publisher", "isbn", "accession-num", "call-num", "label",
    "work-type", "abstract", "notes", "research-notes", "urls", "electronic-resource-num",
    "remote-database-name", "remote-database-provider", "language", "access-date",
)
#: Bookkeeping of an EndNote library, not bibliographic data: not read.
LIBRARY_ELEMENTS: frozenset[str] = frozenset(
    {"database", "source-app", "rec-number", "foreign-keys"})
#: EndNote XML's ``face`` words that are model text styles (``underline`` and ``normal``
#: have none).
FACES: dict[str, str] = {"italic": "italic", "bold": "bold", "superscript": "superscript",
                         "subscript": "subscript"}
#: The order of the children of ``titles`` in the DTD.
TITLE_ORDER: tuple[str, ...] = (
    "title", "secondary-title", "tertiary-title", "alt-title", "short-title",
    "translated-title")

#: Every tag of EndNote's tagged import format ("EndNote Import" and refer), beside ``%0``:
#: what the reader must map, keep or report.
KNOWN_TAGS: frozenset[str] = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789!#$&()*+@[]^<>?~")
