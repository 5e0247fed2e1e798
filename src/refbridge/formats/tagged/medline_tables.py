"""MEDLINE/PubMed vocabulary as data: the tags of the ``.nbib`` (MEDLINE) format and the
publication types of PubMed, mapped to the model's CSL vocabulary. Tags follow NLM's "MEDLINE/
PubMed Data Element (Field) Descriptions" (``PMID``, ``TI``, ``FAU``, ``AU``, ``DP``, ``JT``,
``TA``, ``VI``, ``IP``, ``PG``, ``LID``/``AID``, ``AB``, ``OT``, ``MH``, ``PT``, ``PMC`` ...).
PubMed XML (``pubmed_xml``) shares the publication types. Tables only: this module must never
hold logic.
"""

from __future__ import annotations

#: CSL text variable -> the tag refbridge writes.
FIELD_TAGS: dict[str, str] = {
    "PMID": "PMID",
    "title": "TI",
    "container-title": "JT",
    "container-title-short": "TA",
    "volume": "VI",
    "issue": "IP",
    "page": "PG",
    "abstract": "AB",
    "language": "LA",
    "PMCID": "PMC",
    "ISSN": "IS",
    "ISBN": "ISBN",
    "publisher": "PB",
    "publisher-place": "PL",
    "collection-title": "CTI",
    "edition": "EN",
    "original-title": "TT",
    "note": "GN",
}
#: Book records keep the book's title here (the record's own title is then its chapter's).
BOOK_TITLE_TAG = "BTI"
#: CSL role -> (full-name tag, short-name tag). A corporate author is ``CN``.
NAME_TAGS: dict[str, tuple[str, str]] = {
    "author": ("FAU", "AU"),
    "editor": ("FED", "ED"),
}
CORPORATE_TAG = "CN"
DATE_TAG = "DP"
TYPE_TAG = "PT"
KEYWORD_TAG = "OT"
MESH_TAG = "MH"
IDENTIFIER_TAGS: tuple[str, ...] = ("LID", "AID")
NOTE_TAG = "GN"
#: The label PubMed gives an abstract section that has none (``UNLABELLED: text``): no label.
UNLABELLED = "UNLABELLED"

#: PubMed publication types (and ERIC's, whose ``.nbib`` has the same tags), in order of
#: precedence, and the CSL type each means. ERIC's reports come last: its journal articles
#: are often reports too (``Journal Articles`` + ``Reports - Research``).
PUBLICATION_TYPES: dict[str, str] = {
    "Preprint": "article",
    "Book Chapter": "chapter",
    "Book": "book",
    "Books": "book",
    "Dissertations/Theses - Doctoral Dissertations": "thesis",
    "Dissertations/Theses - Masters Theses": "thesis",
    "Dissertations/Theses - Undetermined": "thesis",
    "Dataset": "dataset",
    "Newspaper Article": "article-newspaper",
    "Video-Audio Media": "motion_picture",
    "Legal Case": "legal_case",
    "Legislation": "legislation",
    "Congress": "paper-conference",
    "Technical Report": "report",
    "Journal Article": "article-journal",
    "Journal Articles": "article-journal",
    "Case Reports": "article-journal",
    "Review": "article-journal",
    # a work reporting a conference, when no Journal Article says it is a journal's article
    "Clinical Conference": "paper-conference",
    "Consensus Development Conference": "paper-conference",
    "Consensus Development Conference, NIH": "paper-conference",
    "Reports - Research": "report",
    "Reports - Evaluative": "report",
    "Reports - Descriptive": "report",
    "Reports - General": "report",
}
#: ERIC's number (``OID``) of a journal's article starts ``EJ`` (a document's ``ED``): a record
#: ERIC types only as a report (``Reports - Research``) is then a journal article, as Zotero's
#: MEDLINE import reads it.
ERIC_NUMBER_TAG = "OID"
ERIC_JOURNAL_PREFIX = "EJ"

#: ERIC gives a report's, book's or thesis's publisher (ProQuest for a thesis: its archive)
#: in the journal tag ``JT``: CSL type -> the variable it is then.
JOURNAL_TAG_AS: dict[str, str] = {"report": "publisher", "book": "publisher",
                                  "thesis": "archive"}
#: ERIC's ``ISSN``/``ISBN`` tags, read as ``IS``/``ISBN`` once their prefix
#: (``EISSN-2375-5636``, ``ISBN-978-...``) is taken off.
PREFIXED_IDENTIFIER_TAGS: dict[str, str] = {"ISSN": "ISSN", "ISBN": "ISBN"}
#: CSL type -> the publication type refbridge writes (others: ``Journal Article``).
TYPE_PUBLICATION: dict[str, str] = {
    "article": "Preprint",
    "chapter": "Book Chapter",
    "book": "Book",
    "dataset": "Dataset",
    "article-newspaper": "Newspaper Article",
    "paper-conference": "Congress",
    "report": "Technical Report",
    "article-journal": "Journal Article",
}
FALLBACK_PUBLICATION = "Journal Article"

#: The order of tags in written records (as PubMed writes them).
TAG_ORDER: tuple[str, ...] = (
    "PMID", "IS", "VI", "IP", "DP", "TI", "BTI", "CTI", "PG", "LID", "AB", "FAU", "AU", "CN",
    "FED", "ED", "LA", "PT", "TT", "PL", "PB", "EN", "ISBN", "TA", "JT", "OT", "AID", "PMC",
    "GN",
)

#: Every tag of NLM's "MEDLINE/PubMed Data Element (Field) Descriptions" (and ERIC's ``ISSN``):
#: what the reader must map, keep or report.
KNOWN_TAGS: frozenset[str] = frozenset({
    "AB", "AD", "AID", "AU", "AUID", "BTI", "CI", "CIN", "CN", "COI", "COIS", "CON", "CP",
    "CRDT", "CRF", "CRI", "CTDT", "CTI", "DA", "DCOM", "DDIN", "DEP", "DP", "DRDT", "ECF",
    "ECI", "ED", "EDAT", "EFR", "EIN", "EN", "FAU", "FED", "FIR", "FPS", "GN", "GR", "GS",
    "IP", "IR", "IRAD", "IS", "ISBN", "ISSN", "JID", "JT", "LA", "LID", "LR", "MH", "MHDA",
    "OABL", "OCI", "OID", "ORI", "OT", "OTO", "OWN", "PB", "PG", "PHST", "PL", "PMC", "PMCR",
    "PMID", "PS", "PST", "PT", "PUBM", "RF", "RIN", "RN", "ROF", "RPF", "RPI", "RRF", "RRI",
    "SB", "SFM", "SI", "SO", "SPIN", "STAT", "TA", "TI", "TT", "UIN", "UOF", "VI", "VTI"})
