"""Writers for .bib files in two dialects: ``bibtex`` (classic, for bibtex and .bst styles) and
``biblatex`` (for biber).

Each record becomes one entry with the fields its dialect's styles read, mapped with the same
tables the reader uses, so reading what was written gives back the same records. Text is
encoded with ``refbridge.latex.encode`` (syntax characters escaped, non-ASCII as LaTeX commands
unless ``WriteOptions.unicode``); titles get case protection; URL, DOI and other identifiers are
written verbatim (with braces percent-encoded when unbalanced, the one thing a .bib value cannot
hold). Preprints follow arXiv's export and BibLaTeX's conventions (see ``_eprint_fields``).
``bibtex.<field>`` extras are written back as they were read. This module must never let
record text become LaTeX markup, and never invent a value the record does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache, partial
from typing import TextIO

from refbridge.bibnames import format_names
from refbridge.formats import bibtex_tables as tables
from refbridge.formats.bibtex_dates import format_iso_date, format_year_month
from refbridge.formats.bibtex_reader import (
    EXTRA_COMMENT,
    EXTRA_ENTRY_TYPE,
    EXTRA_PREAMBLE,
    EXTRA_PREFIX,
    arxiv_note,
    entry_type_for,
    field_mapping,
    is_preprint,
)
from refbridge.latex.encode import encode_latex, protect_case
from refbridge.model import Date, Record
from refbridge.registry import Framing, WriteOptions, write_framed

#: Characters a citation key cannot hold in either dialect, replaced by ``-``.
_KEY_UNSAFE = re.compile(r"[\s,{}()\"#%'=\\~]")
_ORDER = {name: index for index, name in enumerate(tables.FIELD_ORDER)}
#: CSL variables written with case protection (the ones .bst styles lower-case).
_TITLE_VARIABLES = frozenset({"title"})

#: How a field's value is written: encoded text, an encoded and case-protected title, an
#: identifier (verbatim), LaTeX already (names, dates, keys: braced as is), or bare (a number
#: or month macro, unbraced).
TEXT, TITLE, VERBATIM, BRACED, BARE = "text", "title", "verbatim", "braced", "bare"
Field = tuple[str, str, str]  # (field name, value, how)


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _verbatim(value: str) -> str:
    value = " ".join(value.split())
    return value if _balanced(value) else value.replace("{", "%7B").replace("}", "%7D")


@cache
def _reverse_mapping(entry_type: str) -> dict[str, str]:
    """CSL variable -> the field the reader maps back to it, for ``entry_type``."""
    reverse: dict[str, str] = {}
    for field, variable in field_mapping(entry_type).items():
        reverse.setdefault(variable, field)
    return reverse


class BibtexWriter:
    extension = ".bib"

    def __init__(self, dialect: str, description: str) -> None:
        self.name = dialect
        self.dialect = dialect
        self.description = description

    framing = Framing(separator="\n")

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        write_framed((self.record_text(r, options) for r in records), out, self.framing)

    # -- one entry -----------------------------------------------------------------------
    def record_text(self, record: Record, options: WriteOptions) -> str:
        """The .bib text of one record (with any @preamble/@comment kept before it)."""
        entry_type = self.entry_type(record)
        encode = partial(encode_latex, unicode=options.unicode)
        fields = self.fields(record, entry_type, encode, options)
        key = _KEY_UNSAFE.sub("-", record.citation_key or record.id)
        lines = [f"@{entry_type}{{{key},"]
        for name, value, how in fields:
            name = tables.FIELD_SPELLING.get(name, name)
            lines.append(f"{options.indent}{name} = {self.value(value, how, options)},")
        lines.append("}\n")
        head = "".join(f"@{kind}{{{record.extra[key]}}}\n\n"
                       for kind, key in (("preamble", EXTRA_PREAMBLE),
                                         ("comment", EXTRA_COMMENT))
                       if key in record.extra and _balanced(record.extra[key]))
        return head + "\n".join(lines)

    def entry_type(self, record: Record) -> str:
        kept = record.extra.get(EXTRA_ENTRY_TYPE)
        if kept in tables.DIALECT_ENTRY_TYPES[self.dialect]:
            return kept
        genre = record.get("genre")
        if self.dialect == tables.BIBTEX and record.type == "thesis" and genre:
            return tables.THESIS_ENTRY_OF_GENRE.get(genre, "phdthesis")
        return entry_type_for(record.type, record.eprint, self.dialect)

    def value(self, value: str, how: str, options: WriteOptions) -> str:
        if how == BARE:
            return value
        if how == TITLE:
            return "{" + protect_case(value, unicode=options.unicode) + "}"
        if how == VERBATIM:
            return "{" + _verbatim(value) + "}"
        if how == BRACED:
            return "{" + value + "}"
        return "{" + encode_latex(value, unicode=options.unicode) + "}"

    def fields(self, record: Record, entry_type: str, encode: Callable[[str], str],
               options: WriteOptions) -> list[Field]:
        fields: list[Field] = []
        fields += self._names(record, encode)
        fields += self._texts(record, entry_type)
        fields += self._dates(record)
        fields += self._eprint_fields(record, entry_type, {f[0] for f in fields})
        if record.keywords:
            fields.append(("keywords", ", ".join(record.keywords), TEXT))
        written = {name for name, _, _ in fields}
        for key, value in record.extra.items():
            name = key[len(EXTRA_PREFIX):]
            if key.startswith(EXTRA_PREFIX) and not name.startswith("@") and \
                    name not in written:
                fields.append((name, value, BRACED if _balanced(value) else TEXT))
        fields = [f for f in fields if self._wanted(f[0], options)]
        chosen = {name: index for index, name in enumerate(options.field_order)}
        fields.sort(key=lambda f: (chosen.get(f[0], len(chosen)), _ORDER.get(f[0], len(_ORDER))))
        return fields

    @staticmethod
    def _wanted(name: str, options: WriteOptions) -> bool:
        include = options.include_fields
        lowered = {f.lower() for f in options.exclude_fields}
        if name in lowered:
            return False
        return include is None or name in {f.lower() for f in include}

    def _names(self, record: Record, encode: Callable[[str], str]) -> list[Field]:
        fields: list[Field] = []
        for field, role in tables.NAME_FIELDS.items():
            people = record.names.get(role)
            if people:
                text = format_names(people, role in record.incomplete_names, encode)
                fields.append((field, text, BRACED))
        return fields

    def _texts(self, record: Record, entry_type: str) -> list[Field]:
        reverse = _reverse_mapping(entry_type)
        overrides = tables.WRITE_FIELD[self.dialect]
        fields: list[Field] = []
        for variable, value in record.fields.items():
            if variable == "genre":
                fields.extend(self._genre(value, entry_type))
                continue
            if variable == "container-title" and entry_type in tables.BOOKTITLE_ENTRY_TYPES:
                field = "booktitle"
            elif variable == "publisher":
                field = tables.PUBLISHER_FIELD[self.dialect].get(entry_type, "publisher")
            elif variable in overrides and field_mapping(entry_type).get(
                    overrides[variable]) == variable:
                field = overrides[variable]
            else:
                field = reverse.get(variable, variable.lower())
            how = TITLE if variable in _TITLE_VARIABLES else (
                VERBATIM if field in tables.VERBATIM_FIELDS else TEXT)
            fields.append((field, value, how))
        return fields

    def _genre(self, genre: str, entry_type: str) -> list[Field]:
        key = tables.TYPE_KEY_OF_GENRE.get(genre)
        if key is not None and tables.ENTRY_TYPE_KEYS.get(entry_type) == key:
            return []
        if key is not None and self.dialect == tables.BIBLATEX:
            return [("type", key, BRACED)]
        return [("type", genre, TEXT)]

    def _dates(self, record: Record) -> list[Field]:
        fields: list[Field] = []
        date_field = {v: f for f, v in tables.DATE_FIELDS.items()}
        for variable, date in record.dates.items():
            if variable == "issued":
                fields.extend(self._issued(date))
            elif variable in date_field:
                iso = format_iso_date(date)
                fields.append((date_field[variable], iso or date.literal or "",
                               BRACED if iso else TEXT))
        return fields

    def _issued(self, date: Date) -> list[Field]:
        iso = format_iso_date(date)
        if iso is None:
            return [("year", date.literal or "", TEXT)]
        if self.dialect == tables.BIBLATEX:
            return [("date", iso, BRACED)]
        year, month, day = format_year_month(date)
        fields: list[Field] = [("year", year, BRACED)]
        if month:
            fields.append(("month", month, BARE))
        if day:
            fields.append(("day", day, BRACED))
        if date.circa or date.season or (date.end is not None and (
                date.start is not None and date.start.month or date.end.month)):
            fields.append(("date", iso, BRACED))  # what year/month cannot say
        return fields

    def _eprint_fields(self, record: Record, entry_type: str, written: set[str]
                       ) -> list[Field]:
        """arXiv's export in BibTeX (``eprint``, ``archivePrefix``, ``primaryClass``, plus
        ``eprinttype`` for Zotero and the abs URL), BibLaTeX's ``eprint``/``eprinttype``/
        ``eprintclass`` and ``pubstate = {prepublished}``; a preprint without an identifier
        says what is known in ``howpublished``, nothing more."""
        eprint = record.eprint
        if eprint is None:
            return []
        classes = " ".join(eprint.classes)
        preprint = is_preprint(record.type, eprint)
        fields: list[Field] = []
        if eprint.identifier:
            fields.append(("eprint", eprint.identifier, VERBATIM))
        if self.dialect == tables.BIBTEX:
            fields.append(("archiveprefix", eprint.archive, BRACED))
            if classes:
                fields.append(("primaryclass", classes, VERBATIM))
            fields.append(("eprinttype", eprint.archive.lower(), BRACED))
            if eprint.identifier and "url" not in written and \
                    eprint.archive == tables.ARXIV:
                fields.append(("url", tables.ARXIV_ABS_URL + eprint.identifier, VERBATIM))
        else:
            fields.append(("eprinttype", eprint.archive.lower(), BRACED))
            if classes:
                fields.append(("eprintclass", classes, VERBATIM))
            if preprint and "pubstate" not in written:
                fields.append(("pubstate", tables.PREPRINT_PUBSTATE, BRACED))
        if preprint and entry_type == "misc" and "howpublished" not in written:
            fields.append(("howpublished", arxiv_note(eprint), TEXT))
        return fields


BIBTEX_WRITER = BibtexWriter(tables.BIBTEX, "BibTeX (classic, for bibtex and .bst styles)")
BIBLATEX_WRITER = BibtexWriter(tables.BIBLATEX, "BibLaTeX (for biber)")
