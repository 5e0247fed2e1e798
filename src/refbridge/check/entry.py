"""A .bib entry as written, for the rules that judge what the file says rather than what the
model makes of it: its type, key, line and fields (raw text, resolved value, the macros no
``@string`` defines), the first of a field given twice, as BibTeX reads it. This module must
never change an entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbridge.formats.bibtex.syntax import Block, Field
from refbridge.model import Source


@dataclass(frozen=True, slots=True)
class BibEntry:
    """One entry: ``fields`` by lower-cased name, in the order of the file."""

    entry_type: str
    key: str
    fields: dict[str, Field]
    source: Source

    @classmethod
    def of(cls, block: Block, file: str) -> BibEntry:
        fields: dict[str, Field] = {}
        for field in block.fields:
            fields.setdefault(field.name, field)
        return cls(block.entry_type, block.key, fields, Source(file, block.line))

    def value(self, name: str) -> str | None:
        """The resolved value of field ``name`` with its white space collapsed, or None when
        it is absent or empty."""
        field = self.fields.get(name)
        if field is None:
            return None
        return " ".join(field.value.split()) or None
