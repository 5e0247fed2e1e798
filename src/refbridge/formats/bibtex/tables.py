"""BibTeX and BibLaTeX vocabulary mapped to the citation model, as tables.

Entry types (every standard BibTeX type, every BibLaTeX type, alias and non-standard type),
fields (which CSL variable, name role or date each one fills, per entry type where it differs),
month names, thesis types, and what each dialect's writer may use. The reader and the writers
use these tables and nothing else to map; this module holds data only and must never contain
conversion logic.
"""

from __future__ import annotations

from collections.abc import Mapping

BIBTEX = "bibtex"
BIBLATEX = "biblatex"

#: Hints (``Record.hints``) holding the @preamble and @comment blocks before an entry (as
#: other formats carry them; the .bib reader keeps all the text between entries instead).
HINT_PREAMBLE = "bibtex.preamble"
HINT_COMMENT = "bibtex.comment"
#: Hints holding the source text that is no entry (``%`` lines, free text, ``@comment``,
#: ``@preamble`` and ``@string`` blocks, a JabRef ``% Encoding:`` line), as written, without
#: the blank lines around it: before an entry, and after the last entry of the file.
HINT_BEFORE = "bibtex.before"
HINT_AFTER = "bibtex.after"
#: Hint holding the key of an entry whose key its .bib repeats: the entry gets a unique key
#: elsewhere (CSL-JSON ids must be unique), and a .bib is written with the repeated key again.
HINT_KEY = "bibtex.key"

#: Extras of other formats that a .bib keeps as fields of their own -> the field. A style
#: ignores a field it does not know, so bibtex and biber print the same with them; the reader
#: gives them back. ``profile.owner`` (whose profile page a record came from) is whom a CV
#: highlights.
EXTRA_FIELDS: dict[str, str] = {"profile.owner": "profile-owner",
                                "profile.owner-id": "profile-owner-id"}
#: The same, .bib field -> extra.
FIELD_EXTRAS: dict[str, str] = {bib: extra for extra, bib in EXTRA_FIELDS.items()}

#: Entry type -> CSL item type, for reading. BibTeX's types, BibLaTeX's types, aliases and
#: non-standard types (biblatex manual, section 2.1).
ENTRY_TO_CSL: dict[str, str] = {
    # classic BibTeX
    "article": "article-journal", "book": "book", "booklet": "pamphlet",
    "conference": "paper-conference", "inbook": "chapter", "incollection": "chapter",
    "inproceedings": "paper-conference", "manual": "report", "mastersthesis": "thesis",
    "misc": "document", "phdthesis": "thesis", "proceedings": "book",
    "techreport": "report", "unpublished": "manuscript",
    # BibLaTeX
    "mvbook": "book", "bookinbook": "chapter", "suppbook": "chapter", "collection": "book",
    "mvcollection": "book", "suppcollection": "chapter", "dataset": "dataset",
    "online": "webpage", "electronic": "webpage", "www": "webpage", "patent": "patent",
    "periodical": "periodical", "suppperiodical": "article-journal",
    "mvproceedings": "book", "reference": "book", "mvreference": "book",
    "inreference": "entry-encyclopedia", "report": "report", "set": "document",
    "software": "software", "thesis": "thesis", "xdata": "document",
    "customa": "document", "customb": "document", "customc": "document",
    "customd": "document", "custome": "document", "customf": "document",
    # BibLaTeX non-standard types
    "artwork": "graphic", "audio": "song", "bibnote": "document", "commentary": "book",
    "image": "graphic", "jurisdiction": "legal_case", "legislation": "legislation",
    "legal": "treaty", "letter": "personal_communication", "movie": "motion_picture",
    "music": "song", "performance": "performance", "review": "review",
    "standard": "standard", "video": "motion_picture",
    # in use, though in neither standard (Zotero and arXiv-aware tools)
    "preprint": "article",
}

#: CSL item type of a preprint: what an entry with an arXiv eprint and no journal becomes.
PREPRINT_TYPE = "article"
#: Entry types that, with an arXiv eprint and no journal, are preprints.
PREPRINT_ENTRY_TYPES: frozenset[str] = frozenset(
    {"misc", "online", "electronic", "www", "unpublished", "article", "preprint", "report",
     "techreport"})

#: Classic spellings of BibLaTeX entry types (what their type says is in the genre): reading
#: one does not keep it as the record's entry type.
CLASSIC_ALIASES: dict[str, str] = {
    "techreport": "report", "phdthesis": "thesis", "mastersthesis": "thesis",
    "conference": "inproceedings", "electronic": "online", "www": "online"}

#: Entry types a preprint is written as (by arXiv, BibLaTeX and this project's writers): which
#: one a .bib used is not kept.
PREPRINT_SPELLINGS: frozenset[str] = frozenset({"misc", "online"})

#: CSL item type -> entry type, for writing, per dialect.
CSL_TO_ENTRY: dict[str, dict[str, str]] = {
    BIBLATEX: {
        "article": "article", "article-journal": "article", "article-magazine": "article",
        "article-newspaper": "article", "book": "book", "chapter": "incollection",
        "dataset": "dataset", "document": "misc", "entry-dictionary": "inreference",
        "entry-encyclopedia": "inreference", "entry": "inreference",
        "manuscript": "unpublished", "pamphlet": "booklet", "paper-conference":
        "inproceedings", "patent": "patent", "periodical": "periodical", "post": "online",
        "post-weblog": "online", "report": "report", "review": "review",
        "review-book": "review", "software": "software", "standard": "standard",
        "thesis": "thesis", "webpage": "online", "graphic": "artwork", "song": "audio",
        "legal_case": "jurisdiction", "legislation": "legislation", "bill": "legislation",
        "treaty": "legal", "personal_communication": "letter",
        "motion_picture": "movie", "performance": "performance", "collection": "collection",
    },
    BIBTEX: {
        "article": "article", "article-journal": "article", "article-magazine": "article",
        "article-newspaper": "article", "book": "book", "chapter": "incollection",
        "manuscript": "unpublished", "pamphlet": "booklet",
        "paper-conference": "inproceedings", "report": "techreport", "thesis": "phdthesis",
        "collection": "book", "entry-encyclopedia": "incollection",
        "entry-dictionary": "incollection", "entry": "incollection",
    },
}
#: Entry type for CSL types a dialect's table does not list.
FALLBACK_ENTRY = "misc"

#: Entry types each dialect's styles know (a kept original entry type is reused only then).
DIALECT_ENTRY_TYPES: dict[str, frozenset[str]] = {
    BIBTEX: frozenset({"article", "book", "booklet", "inbook", "incollection",
                       "inproceedings", "manual", "mastersthesis", "misc", "phdthesis",
                       "proceedings", "techreport", "unpublished"}),
    BIBLATEX: frozenset(t for t in ENTRY_TO_CSL if t not in (
        "conference", "mastersthesis", "phdthesis", "techreport", "electronic", "www",
        "preprint")),
}

#: BibLaTeX entry types that hold other entries' data, not a work: read and written back, but
#: never shown as a reference of their own.
CONTAINER_ENTRY_TYPES: frozenset[str] = frozenset({"set", "xdata"})

#: Classic thesis/report entry types and the ``type`` key BibLaTeX uses for them.
ENTRY_TYPE_KEYS: dict[str, str] = {"phdthesis": "phdthesis", "mastersthesis": "mathesis",
                                   "techreport": "techreport"}
#: BibLaTeX ``type`` keys -> the genre text the model holds (and back).
GENRE_OF_TYPE_KEY: dict[str, str] = {
    "phdthesis": "PhD thesis", "mathesis": "Master's thesis", "bathesis": "Bachelor's thesis",
    "candthesis": "Candidate thesis", "techreport": "Technical report",
    "resreport": "Research report", "software": "Computer software",
    "datacd": "CD-ROM", "audiocd": "Audio CD",
}
TYPE_KEY_OF_GENRE: dict[str, str] = {v: k for k, v in GENRE_OF_TYPE_KEY.items()}
#: Classic entry type for a thesis genre.
THESIS_ENTRY_OF_GENRE: dict[str, str] = {"PhD thesis": "phdthesis",
                                         "Master's thesis": "mastersthesis"}
#: Genres written as a BibLaTeX ``type`` that are no localisation key but say one (lower-cased):
#: biblatex prints them as written, and a classic entry type says them (``type = {phd}`` in
#: a ``@thesis``: ``@phdthesis``, no ``type``).
TYPE_KEY_ALIASES: dict[str, str] = {
    "phd": "phdthesis", "phd thesis": "phdthesis", "ph.d. thesis": "phdthesis",
    "doctoral thesis": "phdthesis", "dissertation": "phdthesis", "ma": "mathesis",
    "msc": "mathesis", "masters": "mathesis", "master": "mathesis",
    "master's thesis": "mathesis", "masters thesis": "mathesis",
    "technical report": "techreport"}

#: Text fields: BibTeX/BibLaTeX field -> CSL variable. Where two fields fill one variable
#: (``journal`` and ``journaltitle``) the first present wins; the other is kept as extra.
TEXT_FIELDS: dict[str, str] = {
    "title": "title", "shorttitle": "title-short", "journaltitle": "container-title",
    "journal": "container-title", "booktitle": "container-title",
    "shortjournal": "container-title-short", "series": "collection-title",
    "publisher": "publisher", "location": "publisher-place", "address": "publisher-place",
    "volume": "volume", "volumes": "number-of-volumes", "pages": "page",
    "pagetotal": "number-of-pages", "edition": "edition", "chapter": "chapter-number",
    "doi": "DOI", "url": "URL", "isbn": "ISBN", "issn": "ISSN", "note": "note",
    "annotation": "annote", "annote": "annote", "abstract": "abstract",
    "language": "language", "version": "version", "eventtitle": "event-title",
    "venue": "event-place", "organization": "authority", "howpublished": "medium",
    "pubstate": "status", "type": "genre", "library": "call-number", "pmid": "PMID",
    "pmcid": "PMCID", "part": "part", "origtitle": "original-title", "eid": "number",
}

#: Fields whose meaning depends on the entry type: entry type -> {field: CSL variable}.
#: Entry types not listed use ``DEFAULT_TYPED_FIELDS``.
DEFAULT_TYPED_FIELDS: dict[str, str] = {"number": "number", "school": "publisher",
                                        "institution": "publisher", "issue": "issue"}
TYPED_FIELDS: dict[str, dict[str, str]] = {
    "article": {"number": "issue", "issue": "volume-title"},
    "periodical": {"number": "issue", "issue": "volume-title"},
    "suppperiodical": {"number": "issue", "issue": "volume-title"},
    **{t: {"number": "collection-number"} for t in (
        "book", "mvbook", "inbook", "bookinbook", "suppbook", "collection", "mvcollection",
        "incollection", "suppcollection", "proceedings", "mvproceedings", "inproceedings",
        "conference", "reference", "mvreference", "inreference")},
}

#: Name fields -> CSL name role.
NAME_FIELDS: dict[str, str] = {
    "author": "author", "editor": "editor", "translator": "translator",
    "bookauthor": "container-author", "holder": "contributor",
}
#: Date fields (BibLaTeX ``*date``) -> CSL date variable.
DATE_FIELDS: dict[str, str] = {
    "date": "issued", "urldate": "accessed", "eventdate": "event-date",
    "origdate": "original-date",
}
#: Year fields of the classic form (with ``month``/``day``) -> CSL date variable.
YEAR_FIELDS: dict[str, str] = {"year": "issued", "origyear": "original-date"}
#: CSL date variable -> its date field, and its year field.
DATE_FIELD_OF: dict[str, str] = {variable: field for field, variable in DATE_FIELDS.items()}
YEAR_FIELD_OF: dict[str, str] = {variable: field for field, variable in YEAR_FIELDS.items()}

#: Title fields and the field holding their subtitle; the reader joins them with ": ".
SUBTITLE_FIELDS: dict[str, str] = {"title": "subtitle", "journaltitle": "journalsubtitle",
                                   "booktitle": "booksubtitle"}
SUBTITLE_SEPARATOR = ": "

#: Fields read as keyword lists.
KEYWORD_FIELDS: frozenset[str] = frozenset({"keywords"})
#: Eprint fields (``archivePrefix``/``primaryClass`` are arXiv's and biber's aliases).
EPRINT_FIELD = "eprint"
EPRINT_TYPE_FIELDS: tuple[str, ...] = ("eprinttype", "archiveprefix")
EPRINT_CLASS_FIELDS: tuple[str, ...] = ("eprintclass", "primaryclass")
ARXIV = "arXiv"
ARXIV_ABS_URL = "https://arxiv.org/abs/"
#: ``pubstate`` of a preprint, written by the BibLaTeX writer and recognised by the reader.
PREPRINT_PUBSTATE = "prepublished"
CROSSREF_FIELD = "crossref"
#: How many book-like entries are remembered for crossref children that come after their
#: parent (BibTeX itself needs children first); the oldest are forgotten, so memory stays
#: bounded on large files.
PARENTS_REMEMBERED = 2000
#: Fields a child entry does not inherit from its crossref parent (biber's defaults).
NOT_INHERITED: frozenset[str] = frozenset(
    {"ids", "crossref", "xref", "entryset", "entrysubtype", "execute", "label", "options",
     "presort", "related", "relatedoptions", "relatedstring", "relatedtype", "shorthand",
     "shorthandintro", "sortkey"})
#: What an in-work inherits from its parent's title and author under another name.
INHERITED_AS: dict[str, str] = {"title": "container-title", "author": "container-author"}

#: Fields never LaTeX-decoded on reading nor encoded on writing.
VERBATIM_FIELDS: frozenset[str] = frozenset(
    {"url", "doi", "eprint", "file", "pdf", "isbn", "issn", "crossref", "xref", "ids",
     "entryset", "related", "keywords-verbatim", "verba", "verbb", "verbc", "pmid",
     "pmcid", "library", "date", "urldate", "eventdate", "origdate"})

MONTHS: tuple[str, ...] = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
                           "oct", "nov", "dec")
#: What the month macros stand for, as BibTeX's styles define them.
MONTH_MACRO_VALUES: frozenset[str] = frozenset(
    ("January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"))
#: Month texts a ``month`` field may hold -> month number.
MONTH_NUMBERS: dict[str, int] = {
    **{m: i for i, m in enumerate(MONTHS, start=1)},
    **{name: i for i, name in enumerate(
        ("january", "february", "march", "april", "may", "june", "july", "august",
         "september", "october", "november", "december"), start=1)},
    **{str(i): i for i in range(1, 13)}, **{f"{i:02d}": i for i in range(1, 10)},
}
#: BibLaTeX's season months (ISO 8601-2 codes) -> the model's seasons 1-4.
SEASON_MONTHS: dict[int, int] = {21: 1, 22: 2, 23: 3, 24: 4}

#: Written order of fields; fields not listed follow in the order the record holds them.
FIELD_ORDER: tuple[str, ...] = (
    "author", "editor", "bookauthor", "translator", "holder", "title", "shorttitle",
    "journal", "journaltitle", "shortjournal", "booktitle", "eventtitle", "series",
    "volume", "number", "issue", "pages", "chapter", "edition", "type", "school",
    "institution", "organization", "publisher", "address", "location", "howpublished",
    "venue", "year", "month", "day", "date", "eventdate", "origdate", "origyear", "urldate",
    "doi", "isbn", "issn", "pmid", "pmcid", "eprint", "archiveprefix", "primaryclass",
    "eprinttype", "eprintclass", "pubstate", "url", "language", "version", "note",
    "abstract", "keywords", "annote", "annotation",
)

#: Fields only BibLaTeX knows: a ``bibtex`` writer spells their variables the classic way even
#: when the source used these names.
BIBLATEX_ONLY_FIELDS: frozenset[str] = frozenset(
    {"journaltitle", "location", "date", "urldate", "eventdate", "origdate", "eventtitle",
     "venue", "pagetotal", "eprinttype", "eprintclass", "pubstate", "annotation",
     "shortjournal", "origtitle", "origlocation", "origpublisher", "titleaddon"})

#: What shows a .bib is written for BibLaTeX (``reader.file_dialect``): its entry types that
#: BibTeX's styles do not know (but those IEEEtran.bst knows too), and its fields but those a
#: BibTeX file may hold for other tools (``location``: the ACL Anthology's export;
#: ``annotation``), which bibtex ignores.
BIBLATEX_EVIDENCE_TYPES: frozenset[str] = DIALECT_ENTRY_TYPES[BIBLATEX] - DIALECT_ENTRY_TYPES[
    BIBTEX] - {"patent", "periodical", "standard"}
#: Nor are ``eprinttype`` and ``urldate``: BibTeX files carry them for Zotero (refbridge's and
#: Zotero's own BibTeX exports write them).
BIBLATEX_EVIDENCE_FIELDS: frozenset[str] = BIBLATEX_ONLY_FIELDS - {"location", "annotation",
                                                                   "eprinttype", "urldate"}
#: A file is read as BibLaTeX when at least this share of its entries (and one) show it.
BIBLATEX_EVIDENCE_SHARE = 0.05

#: Field names written in arXiv's spelling (BibTeX field names are case-insensitive).
FIELD_SPELLING: dict[str, str] = {"archiveprefix": "archivePrefix",
                                  "primaryclass": "primaryClass"}

#: How each dialect spells a field the model fills (CSL variable -> field), where the
#: reverse of ``TEXT_FIELDS`` is not the right choice.
WRITE_FIELD: dict[str, dict[str, str]] = {
    BIBLATEX: {"container-title": "journaltitle", "publisher-place": "location",
               "annote": "annotation", "medium": "howpublished", "status": "pubstate",
               "genre": "type", "authority": "organization", "call-number": "library"},
    BIBTEX: {"container-title": "journal", "publisher-place": "address", "annote": "annote",
             "medium": "howpublished", "status": "pubstate", "genre": "type",
             "authority": "organization", "call-number": "library"},
}
#: Entry types whose container is a book or proceedings (``booktitle``, not ``journal``).
BOOKTITLE_ENTRY_TYPES: frozenset[str] = frozenset(
    {"inbook", "bookinbook", "suppbook", "incollection", "suppcollection", "inproceedings",
     "conference", "inreference"})
#: Entry types whose publisher is an ``institution`` (BibLaTeX) / ``school`` (thesis).
PUBLISHER_FIELD: dict[str, dict[str, str]] = {
    BIBLATEX: {"thesis": "institution", "report": "institution"},
    BIBTEX: {"phdthesis": "school", "mastersthesis": "school", "techreport": "institution"},
}
#: The classic field spelling of a CSL variable whose field depends on the entry type.
TYPED_WRITE_FIELD: Mapping[str, str] = {"issue": "number", "collection-number": "number",
                                        "volume-title": "issue"}

#: BibLaTeX to BibTeX (the ``bibtex`` writer, for an entry written for BibLaTeX: one of a
#: BibLaTeX-only entry type or with a BibLaTeX-only field; records of other formats are
#: written with classic fields from the start), after the
#: biblatex manual's BibTeX compatibility (its field aliases, section 2.2.5) and biber's
#: ``--tool --output-legacy-dates``. Fields a BibLaTeX entry type holds under another name in
#: the classic entry type it becomes (``*``: every entry type): renamed, unless the entry has
#: the classic field already.
CLASSIC_RENAMES: dict[str, dict[str, str]] = {
    "*": {"eprinttype": "archiveprefix", "eprintclass": "primaryclass",
          "journaltitle": "journal", "location": "address", "annotation": "annote"},
    "phdthesis": {"institution": "school"}, "mastersthesis": {"institution": "school"},
    "techreport": {"school": "institution"}, "inproceedings": {"eventtitle": "booktitle"},
}
#: Entry types both dialects know that mean another thing in BibLaTeX: its ``@inbook`` is a
#: part with a title of its own in a book (``booktitle``), which is classic BibTeX's
#: ``@incollection`` (classic ``@inbook`` is a chapter or pages of a book, its title the
#: book's): an entry written for BibLaTeX gets the classic type of its CSL type.
CLASSIC_RETYPED: frozenset[str] = frozenset({"inbook"})
#: BibLaTeX fields that no BibTeX style prints, said in ``note`` instead (in this order, after
#: the entry's own note, joined by ". "): field -> the note's words (``{}`` the value).
CLASSIC_NOTE_FIELDS: dict[str, str] = {
    "titleaddon": "{}", "booktitleaddon": "{}", "maintitle": "{}", "mainsubtitle": "{}",
    "issuetitle": "{}", "eventtitle": "{}", "venue": "{}", "eventdate": "{}",
    "origlanguage": "Translated from {}", "origdate": "Originally published {}",
    "origlocation": "{}", "origpublisher": "{}", "pagetotal": "{} pages",
    "volumes": "{} volumes", "version": "Version {}", "urldate": "Accessed {}",
}
#: What a classic ``@misc`` prints of its publisher and address, which it has no field for:
#: ``howpublished`` (the fields' values joined by ", ", a URL as ``\url{...}``, the ``url``
#: field kept for the styles that print it), when the entry has no ``howpublished``.
CLASSIC_HOWPUBLISHED: dict[str, tuple[str, ...]] = {
    "misc": ("organization", "institution", "publisher", "url")}
#: Fields that go to ``howpublished`` as an address (``\url{...}``).
CLASSIC_URL_FIELDS: frozenset[str] = frozenset({"url"})
