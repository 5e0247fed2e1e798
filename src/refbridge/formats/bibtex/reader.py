"""Reader for .bib files, BibTeX and BibLaTeX alike: entries to records, one at a time.

Blocks come from the streaming tokenizer (``bibtex_syntax``); each entry is mapped to the model
with the tables of ``bibtex_tables``: entry type to CSL type, fields to CSL variables, names
(``bibnames``), dates (``bibtex_dates``), arXiv eprints (``eprint`` with ``eprinttype`` or
``archivePrefix``, ``eprintclass`` or ``primaryClass``). Text fields are decoded from LaTeX;
URL, DOI, file and other identifier fields are kept verbatim. Fields the model has no slot for
are kept in ``Record.extra`` as ``bibtex.<field>``, and so is an entry type the CSL type does
not give back (``bibtex.@type``), so the writers can put them back. The source text between
entries (``%`` lines, free text, ``@comment``, ``@preamble`` and ``@string`` blocks) is kept as
written in the hints of the entry after it (``bibtex.before``; after the last entry:
``bibtex.after`` on it), so that a .bib written from the records has it in its place.

A ``crossref`` child inherits its parent's fields (the parent's title as the container title)
once the parent is read; children wait for their parent, and the last ``PARENTS_REMEMBERED``
entries of book-like types, and as many of other types, are remembered for children that
come later. A large file can be
read in shards, one process each (``bibtex_shards`` says where it may be cut; a shard whose
records turn out to depend on text outside it raises ``ShardIncomplete``). A broken entry is
reported with file and line and skipped (fatal with ``--strict``); duplicate keys and fields
are reported. This module must
never drop a field or an entry without a diagnostic.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from typing import TextIO, cast

from mypy_extensions import mypyc_attr

from refbridge.errors import Diagnostic, Diagnostics
from refbridge.formats.bibtex import tables
from refbridge.formats.bibtex.dates import parse_iso_date, parse_year_month
from refbridge.formats.bibtex.syntax import MONTH_MACROS, Block, macro_value, read_blocks
from refbridge.formats.bibtex.tables import HINT_AFTER, HINT_BEFORE, HINT_KEY, PARENTS_REMEMBERED
from refbridge.formats.catalogue import CatalogueReader
from refbridge.identifiers import ARXIV_LABEL, clean_doi_field
from refbridge.latex.decode import decode_latex, decode_plain
from refbridge.model import Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names.bibtex import empty_names, parse_names
from refbridge.registry import Shard, ShardIncomplete
from refbridge.richtext import Text, concat, latex_source, plain, with_latex, without_latex

#: A keyword separator, or a brace (a braced group is one keyword: ``{Models, Statistical}``).
_KEYWORD_SEPARATOR_OR_BRACE = re.compile(r"[,;{}]")
_CLASS_SEPARATOR = re.compile(r"[\s,]+")
_ASCII_SPACE = re.compile(r"[ \t\n\r\f\v]+")
#: Extra keys for what is not a field.
EXTRA_ENTRY_TYPE = "bibtex.@type"
EXTRA_PREFIX = "bibtex."
#: Hints (``Record.hints``): how the entry was laid out.
HINT_PREFIX = "bibtex."
#: The entry as laid out: ``<entry type> <CSL type it was read as> <field,field,...>``
HINT_LAYOUT = "bibtex.layout"
HINT_INHERITED = "bibtex.inherited"  #: what came from the crossref parent (variables, roles)
HINT_YEAR = "bibtex.year"  #: a year field that is not a number as written
HINT_MONTH = "bibtex.month"  #: a month field that is not a month macro, as written
HINT_KEYWORDS = "bibtex.keywords"  #: the keywords field as written
HINT_EMPTY = "bibtex.empty"  #: fields written empty (``key = ""``), their names
#: ``again.<field>``: the last value of a field given more than once (BibTeX reads the
#: first, biber the last: both are written back)
HINT_AGAIN = "again."
#: ``raw.<field>``: a field written with macros no ``@string`` defines (BibTeX and biber read
#: them as empty), with month macros in a concatenation (``oct # " 10"``: biber reads the
#: macro as a month number, bibtex as a name) or as a month macro outside a month field that
#: says the date (``date = dec``, a ``month`` the ``date`` contradicts), as written
HINT_RAW = "raw."
#: ``bibtex.doi``: a DOI the source wrote as a link or with ``doi:`` (the model keeps it bare),
#: as written: written back so, while it still spells the record's DOI
HINT_DOI = HINT_PREFIX + "doi"
#: ``bibtex.classes``: eprint classes written otherwise than separated by one space
#: (``cond-mat, physics:physics``), as written: written back so while they are the record's
HINT_CLASSES = HINT_PREFIX + "classes"
#: ``spaced.<field>``: a value holding a TAB, as written: bibtex reads a TAB as a space, biber
#: keeps it (in a title's end; before ``and`` in a name list, where biber then does not split
#: the names), so the value is written back with its TABs
HINT_SPACED = "spaced."

#: Characters of a key that bibtex reads and biber does not, and what biber does with them
#: (tried with biber 2.17); the key is the user's and is written back as it is, with a warning.
BIBER_UNREADABLE_KEYS: dict[str, str] = {
    "()": "parentheses: bibtex reads it; biber stops with a syntax error and reads no entry "
          "of the file",
    "'": "an apostrophe: bibtex reads it; biber cuts the key short there or stops with a "
         "syntax error",
    "%": "'%': bibtex reads it; biber takes the rest of the line for a comment and stops "
         "with a syntax error",
}

#: Entry types whose records may be crossref parents of entries read after them.
PARENT_ENTRY_TYPES: frozenset[str] = frozenset(
    {"book", "mvbook", "collection", "mvcollection", "proceedings", "mvproceedings",
     "reference", "mvreference", "periodical"})
#: Variables a crossref child never takes from its parent.
NOT_INHERITED_VARIABLES: frozenset[str] = frozenset(
    {"title", "title-short", "abstract", "annote", "note", "DOI", "URL"})


#: Values whose decoding loads the LaTeX decoder's tables and parser (``prepare``).
PREPARING_VALUES: tuple[str, ...] = (
    "M{\\\"u}ller, J{\\\"o}rg and {\\L}ukasz, Ma{\\l}gorzata", "\\emph{In situ} -- \\ss",
    "$\\alpha$-stable $O(n \\log n)$ \\mkbibquote{x} \\unknown{}")


#: ``bibtex.dialect``: the dialect of the entry's file, where the entry alone says the other
#: (a BibTeX file's entry with a ``location``, a BibLaTeX file's entry with BibTeX's fields)
HINT_DIALECT = HINT_PREFIX + "dialect"
#: An entry's head, or a field that shows BibLaTeX (see ``tables.BIBLATEX_EVIDENCE_FIELDS``).
_HEAD_OR_EVIDENCE = re.compile(
    r"(?:^|\n)[ \t]*@[ \t]*([A-Za-z_][\w:-]*)[ \t]*[{(]|[\n,][ \t]*("
    + "|".join(sorted(tables.BIBLATEX_EVIDENCE_FIELDS)) + r")[ \t]*=", re.IGNORECASE)
_NOT_ENTRIES = frozenset({"string", "comment", "preamble"})


def entry_dialect(entry_type: str, fields: Iterable[str]) -> str:
    """The dialect an entry alone says it is written in: BibLaTeX when it uses a type or field
    only BibLaTeX knows."""
    biblatex = entry_type not in tables.DIALECT_ENTRY_TYPES[tables.BIBTEX] or any(
        name in tables.BIBLATEX_ONLY_FIELDS for name in fields)
    return tables.BIBLATEX if biblatex else tables.BIBTEX


@dataclasses.dataclass(slots=True)
class DialectEvidence:
    """What a .bib's text shows of its dialect: entries, those that show BibLaTeX, and how
    many entries show each sign (``@online``, ``date``)."""

    entries: int = 0
    showing: int = 0
    signs: dict[str, int] = dataclasses.field(default_factory=dict)

    def scan(self, text: str) -> None:
        """Take in ``text``, whole lines of the file."""
        seen: set[str] = set()
        for match in _HEAD_OR_EVIDENCE.finditer(text):
            entry_type, field = match.group(1), match.group(2)
            if entry_type is not None:
                entry_type = entry_type.lower()
                if entry_type in _NOT_ENTRIES:
                    continue
                self.entries += 1
                seen = set()
                if entry_type in tables.BIBLATEX_EVIDENCE_TYPES:
                    self._sign("@" + entry_type, seen)
            elif self.entries:
                self._sign(field.lower(), seen)

    def _sign(self, sign: str, seen: set[str]) -> None:
        if not seen:
            self.showing += 1
        if sign not in seen:
            seen.add(sign)
            self.signs[sign] = self.signs.get(sign, 0) + 1

    @property
    def dialect(self) -> str:
        biblatex = self.showing and self.showing >= tables.BIBLATEX_EVIDENCE_SHARE * self.entries
        return tables.BIBLATEX if biblatex else tables.BIBTEX

    def report(self) -> str:
        """The info line of a file read as BibLaTeX: its most frequent signs."""
        signs = sorted(self.signs, key=lambda sign: (-self.signs[sign], sign))[:3]
        entries = "entry" if self.showing == 1 else "entries"
        return f"read as BibLaTeX ({', '.join(signs)} in {self.showing} {entries})"


#: How much of a file (characters) its dialect is judged by: enough for any library's habits,
#: and a bound, so that a stream without end is still read as it comes.
EVIDENCE_CHARS = 4 << 20


def file_head(stream: TextIO, limit: int = EVIDENCE_CHARS) -> str:
    """Up to ``limit`` characters of ``stream`` from where it stands, completed to a line end."""
    head = stream.read(limit)
    return head + stream.readline() if len(head) == limit else head


@mypyc_attr(native_class=False)  # a subclass of a Python class (see setup.py)
class _Prefixed(io.TextIOBase):
    """A text stream: ``head``, then what is left of ``rest`` (a stream that cannot seek, whose
    head was read for its dialect)."""

    def __init__(self, head: str, rest: TextIO) -> None:
        self._head, self._rest = head, rest

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        size = -1 if size is None else size
        if not self._head:
            return self._rest.read(size)
        if size < 0:
            text, self._head = self._head + self._rest.read(), ""
        else:
            text, self._head = self._head[:size], self._head[size:]
        return text


def arxiv_note(eprint: Eprint) -> str:
    """What a .bib writer says of an arXiv preprint in ``howpublished`` (and the reader
    recognises): ``arXiv preprint arXiv:2401.01234, cs.DB (Databases)``."""
    from refbridge.arxiv_taxonomy import category_name

    text = "arXiv preprint" + (f" arXiv:{eprint.identifier}" if eprint.identifier else "")
    if eprint.primary_class:
        name = category_name(eprint.primary_class)
        text += f", {eprint.primary_class}" + (f" ({name})" if name else "")
    return text


def is_preprint(csl_type: str, eprint: Eprint | None) -> bool:
    return csl_type == tables.PREPRINT_TYPE and eprint is not None


def is_container(record: Record) -> bool:
    """Whether ``record`` is a BibLaTeX ``@set`` or ``@xdata`` entry: data for other entries,
    not a work to list in a bibliography."""
    return record.extra.get(EXTRA_ENTRY_TYPE) in tables.CONTAINER_ENTRY_TYPES


def entry_type_for(csl_type: str, eprint: Eprint | None, dialect: str) -> str:
    """The entry type a dialect's writer gives a record of ``csl_type`` by default: a preprint
    is ``@misc`` in BibTeX; in BibLaTeX ``@online`` when it has an identifier to link to,
    else ``@misc`` (which prints ``howpublished``)."""
    if is_preprint(csl_type, eprint):
        return "online" if dialect == tables.BIBLATEX and eprint and eprint.identifier \
            else "misc"
    return tables.CSL_TO_ENTRY[dialect].get(csl_type, tables.FALLBACK_ENTRY)


@cache
def field_mapping(entry_type: str) -> dict[str, str]:
    """Field -> CSL variable for text fields of ``entry_type`` (typed meanings first)."""
    typed = tables.TYPED_FIELDS.get(entry_type, tables.DEFAULT_TYPED_FIELDS)
    return {**tables.TEXT_FIELDS, **tables.DEFAULT_TYPED_FIELDS, **typed}


def _month_concatenated(raw: str) -> bool:
    """Whether a field written with ``#`` may concatenate a month macro (``oct # " 10"``); a
    ``#`` inside a braced value (an address's anchor) makes no piece a month, and
    ``macro_value`` decides the rest."""
    return any(piece.strip().lower() in MONTH_MACROS for piece in raw.split("#"))


def collapsed_white_space(value: str) -> str:
    """*value* with each run of ASCII white space as one space, none at the ends. A value
    whose white space is single spaces already is only stripped: splitting a 20 MB title of
    4 million words would hold all of them at once (230 MB). A printable value holds none of
    the other characters ``str.split`` cuts at (TAB, line breaks, ``\\x1c``-``\\x1f``)."""
    if "  " not in value and value.isprintable():
        return value.strip(" ")
    return " ".join(value.split()) if value.isascii() else _ASCII_SPACE.sub(" ", value).strip(" ")


class _Entry:
    """One entry being mapped: its fields by name and what has been used so far."""

    def __init__(self, block: Block, source: str, diagnostics: Diagnostics) -> None:
        self.block = block
        self.source = source
        self.diagnostics = diagnostics
        self.values: dict[str, str] = {}
        values = self.values
        self.hints: dict[str, str] = {}
        empty: list[str] = []
        self.empty_at: dict[str, int] = {}  #: empty field -> how many fields came before
        for name, value, raw, undefined_macros in block.fields:
            month_macro = name != "month" and len(raw) == 3 and raw.lower() in MONTH_MACROS
            if (undefined_macros or "#" in raw and _month_concatenated(raw) or month_macro) \
                    and macro_value(raw) == value:
                self.hints[HINT_RAW + name] = raw  # written again as it was (see HINT_RAW)
            if undefined_macros:
                self.warn(f"field {name!r} uses undefined macro(s) "
                          f"{', '.join(undefined_macros)}; kept as text")
            if name in values:
                self.warn(f"field {name!r} appears twice; the second value "
                          f"{value[:40]!r} is ignored, as BibTeX does (and kept for biber)")
                self.hints[HINT_AGAIN + name] = value  # biber reads the last
                continue
            # runs of whitespace as one space, as BibTeX reads them: its white space is ASCII
            # (a no-break space is a character it keeps); ``str.split`` is three times faster
            # than the pattern on the ASCII values that most are
            spaced = value
            value = collapsed_white_space(value)
            if value != spaced and "\t" in spaced:
                self.hints[HINT_SPACED + name] = spaced
            if value:
                values[name] = value
            elif name not in empty:
                empty.append(name)
                self.empty_at[name] = len(values)
        if empty:
            self.hints[HINT_EMPTY[len(HINT_PREFIX):]] = ",".join(empty)
        self.used: set[str] = set()

    def warn(self, problem: str) -> None:
        self.diagnostics.warning(f"entry {self.block.key!r}: {problem}", self.source,
                                 self.block.line)

    def take(self, name: str) -> str | None:
        value = self.values.get(name)
        if value is not None:
            self.used.add(name)
        return value

    def text(self, name: str) -> Text | None:
        value = self.take(name)
        return None if value is None else _field_text(name, value) or None

    def layout(self, csl_type: str) -> dict[str, str]:
        """The hints: these, and the entry's type, the CSL type it was read as and the names
        of its fields in their order."""
        hints = {HINT_PREFIX + k: v for k, v in self.hints.items()} if self.hints else {}
        names = list(self.values)
        for name, at in reversed(self.empty_at.items()):
            names.insert(at, name)  # empty fields in their places too
        hints[HINT_LAYOUT] = f"{self.block.entry_type} {csl_type} {','.join(names)}"
        return hints

    def rest(self) -> dict[str, str]:
        """The fields not used, as extra fields (``bibtex.<field>``; a field that keeps another
        format's extra, ``tables.FIELD_EXTRAS``, as that extra)."""
        return {tables.FIELD_EXTRAS.get(name, EXTRA_PREFIX + name): value
                for name, value in self.values.items() if name not in self.used}


def _field_text(field: str, value: str) -> Text:
    """A field's value as text: LaTeX decoded, except in the fields kept verbatim."""
    return value if field in tables.VERBATIM_FIELDS else decode_latex(value)


def _names(entry: _Entry) -> tuple[dict[str, tuple[Name, ...]], set[str]]:
    names: dict[str, tuple[Name, ...]] = {}
    incomplete: set[str] = set()
    values = entry.values
    for field, role in tables.NAME_FIELDS.items():
        value = values.get(field)
        if value is None:
            continue
        people, more = parse_names(value)
        if (empty := empty_names(value)):
            entry.warn(f"{field}: {empty} empty name(s) (only a comma) left out")
        if people:
            entry.used.add(field)
            names[role] = people
            if more:
                incomplete.add(role)
        elif not more:
            entry.used.add(field)
    return names, incomplete


#: The fields a classic date takes besides its year.
_MONTH_DAY = frozenset({"month", "day"})


def _dates(entry: _Entry) -> dict[str, Date]:
    dates: dict[str, Date] = {}
    values = entry.values
    used = entry.used
    for field, variable in tables.DATE_FIELDS.items():
        value = values.get(field)
        if value is not None:
            used.add(field)
            date = dates[variable] = parse_iso_date(value)
            if date.literal is not None:
                entry.warn(f"{field} {value!r} is not an ISO 8601 date refbridge reads into "
                           "parts; kept as text")
    issued = dates.get("issued")
    if issued is not None and issued.start is not None:
        _take_agreeing(entry, issued.start)
        _month_as_written(entry)
    for field, variable in tables.YEAR_FIELDS.items():
        year = values.get(field)
        if year is None or variable in dates:
            continue
        used.add(field)
        if not year.isdigit():
            entry.hints[field] = year
        if variable == "issued":
            dates[variable], unused = _classic_date(year, values.get("month"), values.get("day"))
            used.update(_MONTH_DAY.intersection(values).difference(unused))
            month = values.get("month")
            if month is not None and "month" not in unused and \
                    month not in tables.MONTH_MACRO_VALUES:
                entry.hints["month"] = month  # "03", "october": bibtex prints it as written
        else:
            dates[variable] = _classic_date(year, None, None)[0]
    _month_as_written(entry)
    return dates


def _month_as_written(entry: _Entry) -> None:
    """A month no date took (beside a date or a year range it does not fit) is kept as
    written: a macro (``jan``) stays a macro, as biber wants it."""
    if "month" in entry.values and "month" not in entry.used:
        raw = next(f.raw for f in entry.block.fields if f.name == "month")
        if raw.lower() in MONTH_MACROS:
            entry.hints[HINT_RAW + "month"] = raw


#: How many classic ``year``/``month``/``day`` dates are remembered.
CLASSIC_DATES_REMEMBERED = 1024


@lru_cache(maxsize=CLASSIC_DATES_REMEMBERED)
def _classic_date(year: str, month: str | None, day: str | None
                  ) -> tuple[Date, frozenset[str]]:
    """The date of ``year``/``month``/``day`` fields and the names of those it could not use
    (dates are immutable and recur: 10,000 generated entries have 924 different ones). Each
    is read as plain text: Web of Science's .bib braces every value (``{{MAY 1}}``)."""
    date, unused = parse_year_month(decode_plain(year), month and decode_plain(month),
                                    day and decode_plain(day))
    return date, frozenset(unused)


def _take_agreeing(entry: _Entry, start: DateParts) -> None:
    """Use up ``year``/``month``/``day`` fields that say what the ``date`` field says."""
    values = entry.values
    if values.get("year") == str(start.year):
        entry.take("year")
        month = values.get("month", "").rstrip(".").lower()
        if month and tables.MONTH_NUMBERS.get(month) == start.month:
            entry.take("month")
            if values.get("day") == str(start.day):
                entry.take("day")


def _eprint(entry: _Entry) -> Eprint | None:
    if entry.values.keys().isdisjoint(tables.EPRINT_TYPE_FIELDS):
        return None
    archive_field = next(f for f in tables.EPRINT_TYPE_FIELDS if f in entry.values)
    if entry.values[archive_field].lower() != tables.ARXIV.lower():
        return None
    class_field = next((f for f in tables.EPRINT_CLASS_FIELDS if f in entry.values), None)
    identifier = entry.take(tables.EPRINT_FIELD)
    written = (entry.take(class_field) or "").strip() if class_field else ""
    classes = split_classes(written)
    if written != " ".join(classes):
        entry.hints[HINT_CLASSES[len(HINT_PREFIX):]] = written
    for field in tables.EPRINT_TYPE_FIELDS:  # "arxiv": each written as it was
        if entry.values.get(field, tables.ARXIV) != tables.ARXIV:
            entry.hints[f"archive.{field}"] = entry.values[field]
    entry.take(archive_field)
    for other in (*tables.EPRINT_TYPE_FIELDS, *tables.EPRINT_CLASS_FIELDS):
        if entry.values.get(other, "").lower() in (tables.ARXIV.lower(), " ".join(classes)
                                                   .lower(), written.lower()):
            entry.take(other)
    return Eprint(tables.ARXIV, ARXIV_LABEL.sub("", identifier) if identifier else None,
                  classes[0] if classes else None, tuple(classes[1:]))


def split_classes(written: str) -> list[str]:
    """The eprint classes of a ``primaryClass`` or ``eprintclass`` value (separated by spaces
    or commas)."""
    return [c for c in _CLASS_SEPARATOR.split(written) if c]


def _joined_title(entry: _Entry, field: str) -> Text | None:
    """A title field (one of ``SUBTITLE_FIELDS``) joined with its subtitle field."""
    title = entry.text(field)
    subtitle_field = tables.SUBTITLE_FIELDS[field]
    subtitle = entry.text(subtitle_field)
    if title and subtitle:
        subtitle_spelling = latex_source(subtitle) or plain(subtitle)
        entry.hints[subtitle_field] = subtitle_spelling
        spelling = (latex_source(title) or plain(title)) + tables.SUBTITLE_SEPARATOR + \
            subtitle_spelling
        return with_latex(concat(title, tables.SUBTITLE_SEPARATOR, subtitle), spelling)
    return title or subtitle


def _text_fields(entry: _Entry, entry_type: str) -> dict[str, Text]:
    """The text variables, in one pass over the fields (the first of a variable's fields
    that has text wins)."""
    fields: dict[str, Text] = {}
    mapping = field_mapping(entry_type)
    used, subtitled = entry.used, tables.SUBTITLE_FIELDS
    for field, value in entry.values.items():
        variable = mapping.get(field)
        if variable is None or variable in fields or field in used:
            continue
        if field in subtitled:
            text = _joined_title(entry, field)
        else:
            used.add(field)
            genre = tables.GENRE_OF_TYPE_KEY.get(value) if field == "type" else None
            if genre:
                entry.hints["genre-key"] = value  # written again as the key it was
            text = genre or _field_text(field, value)
        if text:
            fields[variable] = text
        else:
            used.discard(field)  # no text (``{}``): kept as written, with the extra fields
    return fields


def split_keywords(value: str) -> tuple[str, ...]:
    """The keywords of a keywords field's LaTeX ``value``: cut at the commas and semicolons
    outside braces (biber cuts at commas, and biblatex reads a braced group as one keyword:
    MeSH's ``{Models, Statistical}``), each decoded."""
    pieces: list[str] = []
    depth = start = 0
    for match in _KEYWORD_SEPARATOR_OR_BRACE.finditer(value):
        char = match.group()
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            pieces.append(value[start:match.start()])
            start = match.end()
    pieces.append(value[start:])
    words = (plain(decode_latex(piece)).strip() for piece in pieces)
    return tuple(word for word in words if word)


def _keywords(entry: _Entry) -> tuple[str, ...]:
    words: list[str] = []
    for field in tables.KEYWORD_FIELDS:
        value = entry.take(field)
        if value:
            entry.hints[field] = value
            words.extend(split_keywords(value))
    return tuple(words)


def _csl_type(entry_type: str, fields: dict[str, Text], eprint: Eprint | None) -> str:
    if eprint is not None and entry_type in tables.PREPRINT_ENTRY_TYPES and \
            "container-title" not in fields:
        return tables.PREPRINT_TYPE
    return tables.ENTRY_TO_CSL.get(entry_type, tables.ENTRY_TO_CSL["misc"])


def _genre(entry: _Entry, entry_type: str, fields: dict[str, Text]) -> None:
    """A classic ``@phdthesis``, ``@mastersthesis`` or ``@techreport`` says its genre by its
    type, unless its ``type`` field says otherwise: ``type = {}`` or ``"{}"`` is how an
    author keeps ``plain`` from printing "Technical report" (it is written back as it was)."""
    key = tables.ENTRY_TYPE_KEYS.get(entry_type)
    if key and "genre" not in fields and "type" not in entry.values and \
            "type" not in entry.empty_at:
        fields["genre"] = tables.GENRE_OF_TYPE_KEY[key]


def _drop_derived(entry: _Entry, fields: dict[str, Text], eprint: Eprint | None,
                  csl_type: str) -> None:
    """Remove what a writer derives from the eprint (so reading what was written is exact)."""
    if eprint is None:
        return
    if "medium" in fields and plain(fields["medium"]) == arxiv_note(eprint):
        del fields["medium"]
    if is_preprint(csl_type, eprint) and fields.get("status") == tables.PREPRINT_PUBSTATE:
        del fields["status"]


def entry_record(block: Block, source: str, diagnostics: Diagnostics) -> Record:
    """The record of one entry block; raises ``ModelError`` when the entry cannot be one."""
    entry = _Entry(block, source, diagnostics)
    entry_type = block.entry_type
    if entry_type not in tables.ENTRY_TO_CSL:
        diagnostics.warning(f"entry {block.key!r}: unknown entry type @{entry_type}; read as "
                            "a document", source, block.line)
    names, incomplete = _names(entry)
    dates = _dates(entry)
    eprint = _eprint(entry)
    keywords = _keywords(entry)
    fields = _text_fields(entry, entry_type)
    _genre(entry, entry_type, fields)
    csl_type = _csl_type(entry_type, fields, eprint)
    _drop_derived(entry, fields, eprint, csl_type)
    extra = entry.rest()
    spelling = tables.CLASSIC_ALIASES.get(entry_type, entry_type)
    if entry_type_for(csl_type, eprint, tables.BIBLATEX) != spelling and not (
            is_preprint(csl_type, eprint) and entry_type in tables.PREPRINT_SPELLINGS):
        extra[EXTRA_ENTRY_TYPE] = entry_type
    hints = entry.layout(csl_type)
    doi = fields.get("DOI")
    clean_doi_field(fields)
    if isinstance(doi, str) and fields["DOI"] != doi:
        hints[HINT_DOI] = doi  # the model's DOI is bare; the .bib gets it back as written
    record = Record(id=block.key, type=csl_type, fields=fields, names=names, dates=dates,
                    keywords=keywords, eprint=eprint, incomplete_names=frozenset(incomplete),
                    citation_key=block.key, extra=extra, source=Source(source, block.line),
                    hints=hints)
    return _with_zotero_extra(record, next(
        (f.value for f in block.fields if f.name == "note"), None))  # its lines as written


def _with_zotero_extra(record: Record, note: str | None) -> Record:
    """``record`` with the data of a note that is a Zotero Extra refbridge wrote (Zotero's BibTeX
    export writes Extra as the note, one line a line: ``tex.`` fields, variables, the residue),
    read line by line; another note is left as it is."""
    if note is None or "refbridge:" not in note:
        return record
    from refbridge.formats.csljson import with_extra_fields  # seldom needed
    from refbridge.formats.zotero.extra import residue_note

    found = residue_note([_unescaped(line) if line.startswith("refbridge:") else
                          decode_plain(line) for line in note.split("\n")])
    return record if found is None else with_extra_fields(record, found)


#: How Zotero's BibTeX export escapes the characters of JSON text (its ``mapEscape``).
ZOTERO_ESCAPES: dict[str, str] = {
    "{\\textbackslash}": "\\", "\\{": "{", "\\}": "}", "\\&": "&", "\\%": "%", "\\$": "$",
    "\\#": "#", "\\_": "_", "{\\textasciitilde}": "~", "{\\textasciicircum}": "^"}
_ZOTERO_ESCAPE = re.compile("|".join(re.escape(e) for e in ZOTERO_ESCAPES))


def _unescaped(line: str) -> str:
    """A residue line of a note as Zotero's BibTeX export escaped it, as written (the JSON of a
    residue is no LaTeX: ``--`` in it is two hyphens)."""
    return _ZOTERO_ESCAPE.sub(lambda match: ZOTERO_ESCAPES[match[0]], line)


def inherit(child: Record, parent: Record) -> Record:
    """``child`` with what it lacks taken from its crossref ``parent``: from a book-like
    parent, its title as the container title and its author as the container's author (as
    biber maps a book to its parts); from any other, each field as itself (as bibtex, and
    biber for types it has no mapping for). Keywords are inherited whole, as bibtex and biber
    inherit any field the child lacks."""
    fields = dict(child.fields)
    names = dict(child.names)
    dates = dict(child.dates)
    book_like = parent.extra.get(EXTRA_ENTRY_TYPE, _entry_type(parent)) in PARENT_ENTRY_TYPES
    for variable, value in parent.fields.items():
        if not book_like or variable not in NOT_INHERITED_VARIABLES:
            fields.setdefault(variable, value)
    for field, variable in tables.INHERITED_AS.items() if book_like else ():
        if field == "title" and "title" in parent.fields:
            fields.setdefault(variable, without_latex(parent.fields["title"]))
        elif field in parent.names and variable not in names:
            names[variable] = parent.names[field]
    for role, people in parent.names.items():
        if not book_like or role != "author":
            names.setdefault(role, people)
    for variable, date in parent.dates.items():
        dates.setdefault(variable, date)
    keywords = child.keywords or parent.keywords
    incomplete = child.incomplete_names | {r for r in parent.incomplete_names
                                           if r in names and r not in child.names}
    inherited = [key for key in (*fields, *names, *dates)
                 if key not in child.fields and key not in child.names and key not in child.dates]
    if keywords and not child.keywords:
        inherited.append("keywords")
    hints = dict(child.hints)
    if inherited:
        hints[HINT_INHERITED] = ",".join(inherited)
    return child.replace(fields=fields, names=names, dates=dates, keywords=keywords,
                         incomplete_names=incomplete, hints=hints)


@mypyc_attr(native_class=False)  # a plain class (see setup.py)
class BibtexReader(CatalogueReader):
    name = "bibtex"

    def __init__(self, dialect: str | None = None) -> None:
        """``dialect``: the dialect every file is read as (``--from biblatex``), else each
        file's own (``DialectEvidence``)."""
        self.dialect = dialect
        if dialect == tables.BIBLATEX:
            from refbridge.formats.catalogue import READERS

            self.name = "biblatex"
            self.description, self.extensions = (READERS[self.name].description,
                                                 READERS[self.name].extensions)

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        dialect = self.dialect
        if dialect is None:
            seekable = stream.seekable()
            start = stream.tell() if seekable else 0
            head = file_head(stream)
            if seekable:
                stream.seek(start)
            else:
                stream = cast(TextIO, _Prefixed(head, stream))
            dialect = self._file_dialect(head, source, diagnostics)
        return self._resolve_crossrefs(
            self._records(read_blocks(stream, verbatim=True), source, diagnostics,
                          ends_file=True, dialect=dialect), source,
            diagnostics, whole_file=True)

    @staticmethod
    def _file_dialect(head: str, source: str, diagnostics: Diagnostics) -> str:
        """The dialect a file's ``head`` shows, reported when BibLaTeX."""
        evidence = DialectEvidence()
        evidence.scan(head)
        if evidence.dialect == tables.BIBLATEX:
            diagnostics.messages.append(Diagnostic("info", evidence.report(), source))
        return evidence.dialect

    def shards(self, path: str, encoding: str, size: int) -> list[Shard] | None:
        from refbridge.formats.bibtex.shards import plan_shards

        return plan_shards(path, encoding, size)

    def prepare(self) -> None:
        for value in PREPARING_VALUES:
            decode_latex(value)
        parse_names(PREPARING_VALUES[0])

    def read_shard(self, shard: Shard, source: str, diagnostics: Diagnostics
                   ) -> Iterator[Record]:
        from refbridge.formats.bibtex.shards import shard_blocks

        dialect = self.dialect
        if dialect is None:
            dialect = _shard_file_dialect(self, shard, source, diagnostics)
        return self._resolve_crossrefs(
            self._records(shard_blocks(shard), source, diagnostics, ends_file=shard.last,
                          dialect=dialect),
            source, diagnostics, whole_file=False)

    def _records(self, blocks: Iterable[Block], source: str, diagnostics: Diagnostics,
                 ends_file: bool, dialect: str) -> Iterator[Record]:
        """The records of ``blocks`` (read with their ``text`` blocks); the text before an
        entry goes with it, the text after the last entry with the last (it cannot end a
        shard); an entry that alone says another dialect than its file's holds the file's."""
        kept: list[str] = []
        held: Record | None = None
        first_line: dict[str, int] = {}
        for block in blocks:
            kind = block.kind
            if kind == "text":
                kept.append(block.text)
                continue
            if kind == "error" and block.key:  # read up to the break, as BibTeX does
                diagnostics.broken(f"broken entry: {block.message}; the {len(block.fields)} "
                                   "field(s) before it are read, as BibTeX reads them", source,
                                   block.error_line)
            elif kind == "error":
                diagnostics.error(f"broken entry: {block.message}", source,
                                  block.error_line)
            elif block.message:  # a @comment biber cannot read
                diagnostics.warning(block.message, source, block.line)
            if kind == "entry" or kind == "error" and block.key:
                record = self._entry(block, source, diagnostics, first_line)
                if record is None:
                    continue
                if entry_dialect(block.entry_type, (f.name for f in block.fields)) != dialect:
                    record = record.replace(hints={**record.hints, HINT_DIALECT: dialect})
                if kept:
                    record = _with_text(record, HINT_BEFORE, kept)
                    kept = []
                if held is not None:
                    yield held
                held = record
        if kept and not ends_file:
            raise ShardIncomplete("text after the shard's last entry belongs to the next")
        if held is not None:
            yield _with_text(held, HINT_AFTER, kept) if kept else held
        elif any("@" in text for text in kept):
            diagnostics.warning("the file has @preamble/@comment/@string blocks but no entry "
                                "to keep them with; they are not converted", source, 1)

    def _entry(self, block: Block, source: str, diagnostics: Diagnostics,
               first_line: dict[str, int]) -> Record | None:
        key = block.key
        repeated = bool(key) and key in first_line
        if not key:
            diagnostics.warning("the entry has no citation key: it gets one (a .bib is written "
                                "without one again)", source, block.line)
            block = dataclasses.replace(block, key=f"line{block.line}")
        elif repeated:
            diagnostics.warning(f"duplicate key {key!r} (first at line {first_line[key]}); "
                                "both entries are kept (a .bib written from them repeats "
                                "it; another format gives the later one a new key)",
                                source, block.line)
        else:
            first_line[key] = block.line
        for characters, what in BIBER_UNREADABLE_KEYS.items():
            if any(character in key for character in characters):
                diagnostics.warning(f"the key {key!r} holds {what}; written back as it is",
                                    source, block.line)
        try:
            record = entry_record(block, source, diagnostics)
        except ModelError as exc:
            diagnostics.error(f"entry {block.key!r}: {exc}", source, block.line)
            return None
        if not key:  # a key of its own in other formats, none in a .bib
            return record.replace(citation_key=None, hints={**record.hints, HINT_KEY: key})
        return record.replace(hints={**record.hints, HINT_KEY: key}) if repeated else record

    def _resolve_crossrefs(self, records: Iterator[Record], source: str,
                           diagnostics: Diagnostics, whole_file: bool) -> Iterator[Record]:
        """``records`` in their order, each crossref child with what it inherits: a child
        whose parent comes later (BibTeX's own order) waits for it, and the records after
        it wait too, so that the output keeps the file's order (styles number and label
        entries by it)."""
        parents: OrderedDict[str, Record] = OrderedDict()
        others: OrderedDict[str, Record] = OrderedDict()  # parents of any other type
        waiting: dict[str, list[_Slot]] = {}
        pending: deque[_Slot] = deque()

        def arrived(slot: _Slot) -> None:
            """A record with all it inherits: a parent for the children waiting for it."""
            key = (slot.record.citation_key or slot.record.id).lower()
            children = waiting.pop(key, [])
            # as bibtex and biber, any entry may be a parent: book-like ones, the usual
            # parents, are remembered apart, so that other entries never push them out
            book_like = children or slot.record.extra.get(
                EXTRA_ENTRY_TYPE, _entry_type(slot.record)) in PARENT_ENTRY_TYPES
            remembered = parents if book_like else others
            remembered[key] = slot.record
            if len(remembered) > PARENTS_REMEMBERED:
                remembered.popitem(last=False)
            for child in children:
                child.record = inherit(child.record, slot.record)
                child.waiting = False
                arrived(child)

        for record in records:
            slot = _Slot(record)
            pending.append(slot)
            parent_key = record.extra.get(EXTRA_PREFIX + tables.CROSSREF_FIELD)
            if parent_key is not None:
                parent = parents.get(parent_key.lower()) or others.get(parent_key.lower())
                if parent is None:
                    slot.waiting = True
                    waiting.setdefault(parent_key.lower(), []).append(slot)
                    continue
                slot.record = inherit(record, parent)
            arrived(slot)
            while pending and not pending[0].waiting:
                yield pending.popleft().record
        if waiting and not whole_file:
            raise ShardIncomplete("a crossref child whose parent is not in the shard")
        for parent_key, children in waiting.items():
            for child in children:
                diagnostics.warning(f"entry {child.record.citation_key!r}: crossref "
                                    f"{parent_key!r} is not in the file; nothing inherited",
                                    source, child.record.source.line
                                    if child.record.source else None)
        yield from (slot.record for slot in pending)


class _Slot:
    """A record on its way out, and whether it waits for its crossref parent."""

    __slots__ = ("record", "waiting")

    def __init__(self, record: Record) -> None:
        self.record = record
        self.waiting = False


def _entry_type(record: Record) -> str:
    return entry_type_for(record.type, record.eprint, tables.BIBLATEX)


#: Blank lines at the start and at the end of a text.
_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t\f\v]*\r?\n)+")
_TRAILING_BLANK_LINES = re.compile(r"(?:\r?\n[ \t\f\v]*)+\Z")


def kept_text(pieces: list[str]) -> str:
    """The source text of ``pieces`` as it is kept: without the blank lines around it (a
    writer puts one blank line between it and the entries)."""
    text = "".join(pieces)
    return _TRAILING_BLANK_LINES.sub("", _LEADING_BLANK_LINES.sub("", text))


def _with_text(record: Record, hint: str, pieces: list[str]) -> Record:
    return record.replace(hints={**record.hints, hint: kept_text(pieces)})


READER = BibtexReader()
BIBLATEX_READER = BibtexReader(tables.BIBLATEX)


#: The dialect of each file whose shards this process read, and what judging it reported, by
#: (path, encoding, source, size, modification time): a worker reads several shards of a file,
#: and judging means scanning up to ``EVIDENCE_CHARS`` of it (a 4 MB .bib cut in 20 shards
#: was scanned 20 times, three times the CPU of converting it whole).
_SHARD_DIALECTS: dict[tuple[str, str, str, int, int], tuple[str, tuple[Diagnostic, ...]]] = {}
_SHARD_DIALECTS_KEPT = 8


def _shard_file_dialect(reader: BibtexReader, shard: Shard, source: str,
                        diagnostics: Diagnostics) -> str:
    """The dialect of the file ``shard`` is cut from, judged once per file in this process;
    what judging it reports goes with the file's first shard."""
    status = os.stat(shard.path)
    key = (shard.path, shard.encoding, source, status.st_size, status.st_mtime_ns)
    judged = _SHARD_DIALECTS.get(key)
    if judged is None:
        found = Diagnostics()
        with open(shard.path, encoding=shard.encoding, newline=None) as whole:
            dialect = reader._file_dialect(file_head(whole), source, found)
        if len(_SHARD_DIALECTS) >= _SHARD_DIALECTS_KEPT:
            _SHARD_DIALECTS.clear()
        judged = _SHARD_DIALECTS[key] = (dialect, tuple(found.messages))
    if not shard.start:
        diagnostics.messages.extend(judged[1])
    return judged[0]
