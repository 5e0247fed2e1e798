"""CSL 1.0.2 vocabulary: item types and variable names, as data.

The citation model uses CSL-JSON's vocabulary as the common ground between formats; this module
is the single list of what that vocabulary contains. It holds tables only and must never contain
format-specific logic.
"""

from __future__ import annotations

ITEM_TYPES: frozenset[str] = frozenset(
    {
        "article", "article-journal", "article-magazine", "article-newspaper", "bill", "book",
        "broadcast", "chapter", "classic", "collection", "dataset", "document", "entry",
        "entry-dictionary", "entry-encyclopedia", "event", "figure", "graphic", "hearing",
        "interview", "legal_case", "legislation", "manuscript", "map", "motion_picture",
        "musical_score", "pamphlet", "paper-conference", "patent", "performance", "periodical",
        "personal_communication", "post", "post-weblog", "regulation", "report", "review",
        "review-book", "software", "song", "speech", "standard", "thesis", "treaty", "webpage",
    }
)

NAME_VARIABLES: tuple[str, ...] = (
    "author", "chair", "collection-editor", "compiler", "composer", "container-author",
    "contributor", "curator", "director", "editor", "editorial-director", "executive-producer",
    "guest", "host", "interviewer", "illustrator", "narrator", "organizer", "original-author",
    "performer", "producer", "recipient", "reviewed-author", "script-writer", "series-creator",
    "translator",
)

DATE_VARIABLES: tuple[str, ...] = (
    "issued", "accessed", "available-date", "event-date", "original-date", "submitted",
)

#: Standard (text) and number variables that carry a single string value. ``keyword`` is not
#: here: keywords are a list in the model (``Record.keywords``); ``categories`` likewise.
TEXT_VARIABLES: tuple[str, ...] = (
    "title", "title-short", "container-title", "container-title-short", "collection-title",
    "volume-title", "volume-title-short", "part-title", "original-title", "reviewed-title",
    "publisher", "publisher-place", "original-publisher", "original-publisher-place",
    "event-title", "event-place", "archive", "archive_collection", "archive_location",
    "archive-place", "authority", "call-number", "dimensions", "division", "genre", "medium",
    "jurisdiction", "language", "note", "annote", "abstract", "references", "reviewed-genre",
    "scale", "source", "status", "DOI", "ISBN", "ISSN", "PMCID", "PMID", "URL",
    "version", "section", "citation-label",
    # number variables
    "volume", "issue", "page", "page-first", "number", "edition", "chapter-number",
    "collection-number", "number-of-pages", "number-of-volumes", "part", "printing",
    "supplement",
)

TEXT_VARIABLE_SET: frozenset[str] = frozenset(TEXT_VARIABLES)
NAME_VARIABLE_SET: frozenset[str] = frozenset(NAME_VARIABLES)
DATE_VARIABLE_SET: frozenset[str] = frozenset(DATE_VARIABLES)

#: Fields whose values are identifiers or addresses: never LaTeX-decoded on input, never
#: case-protected or transliterated on output.
VERBATIM_VARIABLES: frozenset[str] = frozenset(
    {"DOI", "URL", "ISBN", "ISSN", "PMCID", "PMID", "call-number"}
)
#: Variables that CSL-JSON and Zotero hold as plain text, never markup (Zotero's abstract is
#: plain text: its CSL JSON import would show markup's tags as written); their rich text
#: travels beside them (CSL-JSON's ``custom``, a residue).
PLAIN_TEXT_VARIABLES: frozenset[str] = frozenset({"abstract"})
#: The outputs a formatted bibliography is written in (the CSL engine's writers, ``refbridge
#: format --to``, a style's outputs, the bibliography's layouts): the one list of them.
OUTPUT_FORMATS: tuple[str, ...] = ("text", "html", "markdown", "latex", "rtf")
#: The engines of the dump jobs: refbridge's own process (with DuckDB where a job queries),
#: or Apache Spark (``refbridge.spark``).
ENGINES: tuple[str, ...] = ("duckdb", "spark")
