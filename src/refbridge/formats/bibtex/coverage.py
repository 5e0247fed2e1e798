"""The coverage of the two .bib dialects, derived from the tables the reader and writer share,
as the catalogue's registrations of the ``bibtex`` and ``biblatex`` writers name it. This module
must never be imported by the reader or the writer (it is for the coverage document and tests)."""

from __future__ import annotations

from refbridge.coverage import Coverage
from refbridge.formats.bibtex import tables


def dialect_coverage(dialect: str) -> Coverage:
    """The coverage of a .bib dialect, derived from the tables its reader and writer share."""
    native: dict[str, str] = {}
    for table in (tables.TEXT_FIELDS, tables.NAME_FIELDS, tables.DATE_FIELDS,
                  tables.YEAR_FIELDS):
        for bib_field, part in table.items():
            native.setdefault(part, tables.WRITE_FIELD[dialect].get(part, bib_field))
    native |= {"type": "@entrytype", "citation-key": "entry key",
               "keywords": "keywords", "eprint": "eprint, archivePrefix, primaryClass",
               "incomplete-names": "and others"}
    entries = tables.CSL_TO_ENTRY[dialect]
    return Coverage(
        format=dialect,
        native=native,
        kept_types=frozenset(t for t, e in entries.items() if tables.ENTRY_TO_CSL.get(e) == t),
        notes=(
            ("Derived from `refbridge.formats.bibtex.tables`: the fields the reader maps to a "
            "model part in every entry type (fields whose meaning depends on the entry type, "
            "such as `number`, are left out). CSL types without an entry type of their own "
            "are written as the nearest entry type and read back as that type."),
            ("Runs of white space in a value become one space; a name's particles are spelled "
            "as BibTeX's `von` part, so dropping and non-dropping particles are not told "
            "apart; a keyword containing a comma or semicolon is written in braces (one "
            "keyword for biber and for the reader); a thesis "
            "or report without a genre gets the one its entry type implies (`@phdthesis`, "
            "`@techreport`), and a preprint without a URL gets its arXiv abstract page."),
            "Extra fields of other formats are lost (`bibtex.*` extras are written back).",
        ),
    )


BIBTEX: Coverage = dialect_coverage("bibtex")
BIBLATEX: Coverage = dialect_coverage("biblatex")
