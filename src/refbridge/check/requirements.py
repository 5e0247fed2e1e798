"""What a style needs of a record in the model's terms: ``REQUIREMENTS``, one table per style
by CSL item type, checked on records of every format (a .bib entry is checked against its
dialect's own rules as written, ``refbridge.check.datamodel``). This module must never change
a record.
"""

from __future__ import annotations

from collections.abc import Iterator

from refbridge.check.rules import Finding
from refbridge.model import Record

#: style -> CSL item type -> what the style needs; ``a|b`` means either will do. Names are CSL
#: variables (text, name or date variables) plus ``eprint`` (the record's preprint identity).
#: bibtex: the required fields of the standard styles (btxdoc, "Entry Types"), in CSL terms
#: (journal = container-title, school/institution = publisher, year = issued).
#: biblatex: the required fields of the biblatex manual (section 2.1.1).
#: apa: what an APA 7 reference needs to be complete (Publication Manual, chapters 9-10).
REQUIREMENTS: dict[str, dict[str, tuple[str, ...]]] = {
    "bibtex": {
        "article-journal": ("author", "title", "container-title", "issued"),
        "article-magazine": ("author", "title", "container-title", "issued"),
        "article-newspaper": ("author", "title", "container-title", "issued"),
        "book": ("author|editor", "title", "publisher", "issued"),
        "chapter": ("author|editor", "title", "container-title", "publisher", "issued"),
        "paper-conference": ("author", "title", "container-title", "issued"),
        "thesis": ("author", "title", "publisher", "issued"),
        "report": ("author", "title", "publisher", "issued"),
        "manuscript": ("author", "title", "note"),
        "pamphlet": ("title",),
    },
    "biblatex": {
        "article-journal": ("author", "title", "container-title", "issued"),
        "article-magazine": ("author", "title", "container-title", "issued"),
        "article-newspaper": ("author", "title", "container-title", "issued"),
        "book": ("author", "title", "issued"),
        "chapter": ("author", "title", "container-title", "issued"),
        "paper-conference": ("author", "title", "container-title", "issued"),
        "thesis": ("author", "title", "genre", "publisher", "issued"),
        "report": ("author", "title", "genre", "publisher", "issued"),
        "webpage": ("author|editor", "title", "issued", "URL"),
        "article": ("author|editor", "title", "issued"),
        "dataset": ("author|editor", "title", "issued"),
        "software": ("author|editor", "title", "issued"),
        "manuscript": ("author", "title", "issued"),
        "patent": ("author", "title", "number", "issued"),
    },
    "apa": {
        "article-journal": ("author", "issued", "title", "container-title", "volume",
                            "page|number|DOI"),
        "article-magazine": ("author", "issued", "title", "container-title"),
        "article-newspaper": ("author", "issued", "title", "container-title"),
        "article": ("author", "issued", "title", "publisher|eprint|URL|DOI"),
        "book": ("author|editor", "issued", "title", "publisher"),
        "chapter": ("author", "issued", "title", "editor", "container-title", "page",
                    "publisher"),
        "paper-conference": ("author", "issued", "title", "container-title"),
        "thesis": ("author", "issued", "title", "genre", "publisher"),
        "report": ("author", "issued", "title", "publisher"),
        "webpage": ("author", "issued", "title", "URL"),
        "dataset": ("author", "issued", "title", "publisher|DOI|URL"),
        "software": ("author", "issued", "title", "publisher|URL"),
    },
}

#: The requirement tables that are .bib dialects too (checked on a .bib's entries as written).
DIALECTS: tuple[str, ...] = ("bibtex", "biblatex")


def _has(record: Record, variable: str) -> bool:
    if variable == "eprint":
        return record.eprint is not None
    return variable in record.fields or variable in record.names or variable in record.dates


def missing_fields(record: Record, style: str) -> Iterator[Finding]:
    """Findings for what ``style`` needs (``REQUIREMENTS``) and ``record`` lacks, named in the
    input's language: .bib field names for a record read from a .bib, CSL's for the others."""
    from refbridge.formats.bibtex.terms import bib_terms

    terms = bib_terms(record, style if style in DIALECTS else None)
    for requirement in REQUIREMENTS[style].get(record.type, ()):
        alternatives = requirement.split("|")
        if not any(_has(record, variable) for variable in alternatives):
            if terms is None:
                wanted = " or ".join(alternatives)
            else:
                wanted = " or ".join(dict.fromkeys(terms.field(v) for v in alternatives))
            yield Finding("missing-field", f"{style} needs {wanted} for type {record.type}",
                          record.source, record.citation_key)
