"""How a record read from a .bib names its parts, for messages that speak the input's
language: ``journal``, ``booktitle``, ``school``, ``year`` and ``@proceedings``, not the CSL
variables and item types the model holds (``container-title``, ``publisher``, ``issued``,
``book``).

The names are those the .bib writers use for the entry (the source's own field names where it
has them), so a message names the field a user would add. This module must never change a
record.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbridge.formats.bibtex import tables
from refbridge.formats.bibtex.reader import HINT_LAYOUT
from refbridge.formats.bibtex.writer import BIBLATEX_WRITER, BIBTEX_WRITER, BibtexWriter, Layout
from refbridge.model import Record
from refbridge.registry import WriteOptions

WRITERS: dict[str, BibtexWriter] = {tables.BIBTEX: BIBTEX_WRITER,
                                    tables.BIBLATEX: BIBLATEX_WRITER}
_NAME_FIELD = {role: field for field, role in tables.NAME_FIELDS.items()}
#: Parts of the model held in a field of their own name, by the model's name.
_OTHER_FIELDS = {"eprint": tables.EPRINT_FIELD, "genre": "type"}


@dataclass(frozen=True, slots=True)
class BibTerms:
    """A record's entry type and field names in one .bib dialect."""

    record: Record
    dialect: str
    layout: Layout
    entry_type: str  #: as the dialect's writer writes the record (the source's own type)

    def field(self, variable: str) -> str:
        """The field that holds ``variable`` (a CSL text, name or date variable, or
        ``eprint``)."""
        if variable in _NAME_FIELD:
            return _NAME_FIELD[variable]
        if variable == "issued":
            classic = self.dialect == tables.BIBTEX or self.layout.classic_date or (
                not self.layout.date_field and source_dialect(self.layout) == tables.BIBTEX)
            return "year" if classic else "date"
        if variable in tables.DATE_FIELD_OF:
            return tables.DATE_FIELD_OF[variable]
        if variable in _OTHER_FIELDS:
            return _OTHER_FIELDS[variable]
        return WRITERS[self.dialect].text_field(variable, self.entry_type, self.layout,
                                                self.record.extra)


def source_dialect(layout: Layout) -> str:
    """The dialect an entry was written in: BibLaTeX when it uses a type or field only
    BibLaTeX knows."""
    return layout.dialect or tables.BIBTEX


def bib_terms(record: Record, dialect: str | None = None) -> BibTerms | None:
    """The terms of ``record`` in ``dialect`` (None: the dialect the source used), or None
    when the record was not read from a .bib."""
    if HINT_LAYOUT not in record.hints:
        return None
    layout = Layout.of(record, WriteOptions())
    dialect = dialect or source_dialect(layout)
    return BibTerms(record, dialect, layout, WRITERS[dialect].entry_type(record, layout))
