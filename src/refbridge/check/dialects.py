"""The .bib dialects' rules that are not in biblatex's data model table: BibTeX's standard
entry types with their required and optional fields (btxdoc, "Entry Types" and "Fields"),
the aliases biber reads before it validates (its default source map: ``@phdthesis`` is a
``@thesis`` of type ``phdthesis``, ``journal`` is ``journaltitle``), and what a crossref child
takes from its parent under another name. Tables only; this module must never read an entry.
"""

from __future__ import annotations

#: BibTeX (btxdoc): entry type -> required fields; a tuple inside is "one of these".
BIBTEX_REQUIRED: dict[str, tuple[tuple[str, ...], ...]] = {
    "article": (("author",), ("title",), ("journal",), ("year",)),
    "book": (("author", "editor"), ("title",), ("publisher",), ("year",)),
    "booklet": (("title",),),
    "conference": (("author",), ("title",), ("booktitle",), ("year",)),
    "inbook": (("author", "editor"), ("title",), ("chapter", "pages"), ("publisher",),
               ("year",)),
    "incollection": (("author",), ("title",), ("booktitle",), ("publisher",), ("year",)),
    "inproceedings": (("author",), ("title",), ("booktitle",), ("year",)),
    "manual": (("title",),),
    "mastersthesis": (("author",), ("title",), ("school",), ("year",)),
    "misc": (),
    "phdthesis": (("author",), ("title",), ("school",), ("year",)),
    "proceedings": (("title",), ("year",)),
    "techreport": (("author",), ("title",), ("institution",), ("year",)),
    "unpublished": (("author",), ("title",), ("note",)),
}

#: biber's type aliases: alias -> (biblatex entry type, the ``type`` it implies or "").
BIBLATEX_TYPE_ALIASES: dict[str, tuple[str, str]] = {
    "conference": ("inproceedings", ""),
    "electronic": ("online", ""),
    "mastersthesis": ("thesis", "mathesis"),
    "phdthesis": ("thesis", "phdthesis"),
    "techreport": ("report", "techreport"),
    "www": ("online", ""),
}

#: biber's field aliases: BibTeX's name -> biblatex's.
BIBLATEX_FIELD_ALIASES: dict[str, str] = {
    "address": "location",
    "annote": "annotation",
    "archiveprefix": "eprinttype",
    "hyphenation": "langid",
    "journal": "journaltitle",
    "key": "sortkey",
    "pdf": "file",
    "primaryclass": "eprintclass",
    "school": "institution",
}

#: biblatex's default inheritance: a child's field -> the parent field it comes from when it
#: has another name (the parent's ``title`` is an ``@inproceedings``' ``booktitle``).
BIBLATEX_INHERITED_AS: dict[str, str] = {
    "booktitle": "title",
    "booksubtitle": "subtitle",
    "bookauthor": "author",
    "journaltitle": "title",
    "maintitle": "title",
}

#: BibTeX's month macros and biblatex's month numbers.
MONTH_NAMES: dict[str, str] = {
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "may": "may",
    "jun": "june", "jul": "july", "aug": "august", "sep": "september", "oct": "october",
    "nov": "november", "dec": "december",
}

#: Fields that hold names, in both dialects.
NAME_FIELDS: frozenset[str] = frozenset({
    "author", "editor", "translator", "bookauthor", "editora", "editorb", "editorc",
    "annotator", "commentator", "introduction", "foreword", "afterword", "holder", "namea",
    "nameb", "namec", "shortauthor", "shorteditor", "sortname"})

#: Fields whose capitals a style may lower (bibtex's ``change.case$`` on titles; biblatex's
#: ``\MakeSentenceCase``).
TITLE_FIELDS: tuple[str, ...] = ("title", "subtitle")
#: Entry types whose title plain.bst (and the standard styles after it) writes in sentence
#: case (``format.title``; the others, books and proceedings, keep it: ``format.btitle``),
#: with biblatex's names for the same kinds of work.
LOWERED_TITLE_TYPES: frozenset[str] = frozenset({
    "article", "booklet", "incollection", "inproceedings", "conference", "mastersthesis",
    "misc", "techreport", "unpublished", "online", "report", "thesis", "inreference",
    "suppcollection", "software", "dataset", "patent"})

#: Fields that name another entry's key.
REFERENCE_FIELDS: tuple[str, ...] = ("crossref", "xref", "xdata")

#: Fields kept verbatim: never LaTeX, so never checked as text (braces, HTML, case).
VERBATIM_FIELDS: frozenset[str] = frozenset({"url", "doi", "eprint", "file", "pdf", "verba",
                                             "verbb", "verbc"})
