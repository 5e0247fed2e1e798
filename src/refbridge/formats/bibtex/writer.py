"""Writers for .bib files in two dialects: ``bibtex`` (classic, for bibtex and .bst styles) and
``biblatex`` (for biber).

Each record becomes one entry with the fields its dialect's styles read, mapped with the same
tables the reader uses, so reading what was written gives back the same records. Text is
encoded with ``refbridge.latex.encode`` (syntax characters escaped, non-ASCII as LaTeX commands
unless ``WriteOptions.unicode``); titles get case protection; URL, DOI and other identifiers are
written verbatim (with backslashes, and braces when unbalanced, percent-encoded: what a .bib
value or hyperref's ``\\url`` cannot hold). Preprints follow arXiv's export and BibLaTeX's
conventions (see ``_eprint_fields``). ``bibtex.<field>`` extras are written back as they
were read. An entry written for BibLaTeX is written for BibTeX's styles by the ``bibtex``
writer (``tables.CLASSIC_RENAMES`` and the tables after it: classic types and fields, what no
style prints in ``note``). This module must never let record text become LaTeX markup, and
never invent a value the record does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache, partial
from itertools import repeat
from typing import TextIO

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex import tables
from refbridge.formats.bibtex.dates import (
    format_iso_date,
    format_year_month,
    month_text_date,
    parse_year_month,
)
from refbridge.formats.bibtex.reader import (
    EXTRA_ENTRY_TYPE,
    EXTRA_PREFIX,
    HINT_AGAIN,
    HINT_CLASSES,
    HINT_DIALECT,
    HINT_DOI,
    HINT_EMPTY,
    HINT_INHERITED,
    HINT_KEYWORDS,
    HINT_LAYOUT,
    HINT_MONTH,
    HINT_PREFIX,
    HINT_RAW,
    HINT_SPACED,
    HINT_YEAR,
    arxiv_note,
    collapsed_white_space,
    entry_dialect,
    entry_type_for,
    field_mapping,
    is_preprint,
    split_classes,
    split_keywords,
)
from refbridge.formats.bibtex.syntax import MONTH_MACROS, macro_value, parse_spans
from refbridge.formats.bibtex.tables import (
    HINT_AFTER,
    HINT_BEFORE,
    HINT_COMMENT,
    HINT_KEY,
    HINT_PREAMBLE,
)
from refbridge.formats.catalogue import WRITERS
from refbridge.identifiers import clean_doi
from refbridge.latex.decode import decode_latex, decode_plain
from refbridge.latex.encode import address, encode_latex, encode_text, guess_protection
from refbridge.latex.safety import is_harmless
from refbridge.model import Date, Eprint, Record
from refbridge.names.bibtex import format_names
from refbridge.registry import Framing, WriteOptions, write_framed
from refbridge.richtext import Text, latex_source, plain, with_latex, without_latex
from refbridge.textlines import lost_in_one_line

#: A keyword that is written in braces, so that it is read back as one (``{Models, Statistical}``).
_KEYWORD_BRACED = re.compile(r"[,;]")
#: Characters a citation key cannot hold in either dialect: white space and ``,`` end it,
#: braces, ``=``, ``"`` and ``#`` are the .bib's own syntax (biber stops at them, and the
#: reader cannot read them back), and a backslash would start a LaTeX command where the key
#: is written into the .aux and .bbl. Every other character is the key's own and is written
#: as it was read (``O'Hara_1999``, ``smith~20``, ``a:b/c+d.e``, ``Müller2020``); the pipeline
#: gives a key that holds one of these a new one, and reports it (the writer's ``key_unsafe``).
KEY_UNSAFE = re.compile(r"[\s,{}=\"#\\]")
_ORDER = {name: index for index, name in enumerate(tables.FIELD_ORDER)}
#: CSL variables written with case protection (the ones .bst styles lower-case).
_TITLE_VARIABLES = frozenset({"title"})

#: How a field's value is written: encoded text, an encoded and case-protected title, an
#: identifier (verbatim), LaTeX already (names, dates, keys: braced as is), or bare (a number
#: or month macro, unbraced).
TEXT, TITLE, VERBATIM, BRACED, BARE = "text", "title", "verbatim", "braced", "bare"
Field = tuple[str, Text, str]  # (field name, value, how)


#: The keys of the hints a Layout reads, without the ``bibtex.`` prefix (as it holds them).
(_LAYOUT_KEY, _INHERITED_KEY, _EMPTY_KEY, _PREAMBLE_KEY, _COMMENT_KEY, _KEYWORDS_KEY, _MONTH_KEY,
 _DOI_KEY, _YEAR_KEY, _CLASSES_KEY, _BEFORE_KEY, _AFTER_KEY, _DIALECT_KEY) = (
    hint[len(HINT_PREFIX):] for hint in (
        HINT_LAYOUT, HINT_INHERITED, HINT_EMPTY, HINT_PREAMBLE, HINT_COMMENT, HINT_KEYWORDS,
        HINT_MONTH, HINT_DOI, HINT_YEAR, HINT_CLASSES, HINT_BEFORE, HINT_AFTER, HINT_DIALECT))
#: A run of characters that are not braces: dropped before the braces are counted.
_NOT_BRACES = re.compile(r"[^{}]+")


def _balanced(text: str) -> bool:
    """Whether every ``}`` of ``text`` closes a ``{`` before it and every ``{`` is closed.
    Most values hold no brace, or as many of each: only those are walked, brace by brace."""
    opened = text.count("{")
    if opened != text.count("}"):
        return False
    if not opened:
        return True
    depth = 0
    for brace in _NOT_BRACES.sub("", text):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return True  # as many of each, none closing before it opened


def _verbatim(value: str) -> str:
    """A verbatim value (URL, DOI, identifiers) on one line, as ``\\url{}`` and hyperref read
    it (``latex.encode.address``: backslashes and unpaired braces percent-encoded)."""
    return address(" ".join(value.split()))


def _change(value: Text, how: str, written: str) -> str | None:
    """What writing ``value`` as ``written`` (its braced .bib value) changed in it that the
    user must be told of, else None: a verbatim value's percent-encoded characters, a text's
    paragraph breaks, line separators and control characters (``textlines``)."""
    text = plain(value)
    if how == VERBATIM:
        kept = " ".join(text.split())
        return None if written[1:-1] == kept else f"{kept!r} written as {written[1:-1]!r}"
    return lost_in_one_line(text) if how in (TEXT, TITLE) else None


def _report_change(record: Record, name: str, value: Text, how: str, written: str,
                   diagnostics: Diagnostics) -> None:
    """One warning for a field whose value ``written`` changes (counted: exit status 3)."""
    change = _change(value, how, written)
    if change is not None:
        source = record.source
        diagnostics.change(f"record {record.citation_key or record.id!r}: field {name!r}: "
                           f"{change}", source.file if source else None,
                           source.line if source else None)


def _selected(fields: list[Field], options: WriteOptions) -> list[Field]:
    """The fields ``--fields`` and ``--exclude-fields`` leave (their names in any case)."""
    if options.include_fields is None and not options.exclude_fields:
        return fields
    excluded = {name.lower() for name in options.exclude_fields}
    included = None if options.include_fields is None else {
        name.lower() for name in options.include_fields}
    return [f for f in fields if f[0] not in excluded and (included is None or f[0] in included)]


def _in_order(fields: list[Field], chosen: tuple[str, ...], source: dict[str, int]
              ) -> list[Field]:
    """The fields in the order ``--field-order`` chose, then the source's (``source``: its
    fields by position), then ``tables.FIELD_ORDER``; ties as they came. Each field's three
    ranks and its position are one whole number, so that the sort compares numbers."""
    rank = {name: index for index, name in enumerate(chosen)}
    count, sources, known = len(fields), len(source) + 1, len(_ORDER) + 1
    keys = [((rank.get(f[0], len(rank)) * sources + source.get(f[0], sources - 1)) * known
             + _ORDER.get(f[0], known - 1)) * count + position
            for position, f in enumerate(fields)]
    keys.sort()
    return [fields[key % count] for key in keys]


def _keywords_value(keywords: tuple[str, ...], encode: Callable[[str], str]) -> str:
    """The keywords field's LaTeX: the keywords encoded, those holding a comma or semicolon in
    braces, separated by ``, ``."""
    return ", ".join("{" + encode(k) + "}" if _KEYWORD_BRACED.search(k) else encode(k)
                     for k in keywords)


def _type_key(genre: str) -> str | None:
    """The BibLaTeX ``type`` key a genre says (its words, the key, or an alias), or None."""
    if genre in tables.GENRE_OF_TYPE_KEY:
        return genre
    return tables.TYPE_KEY_OF_GENRE.get(genre) or tables.TYPE_KEY_ALIASES.get(genre.lower())


def _sentences(pieces: list[str]) -> str:
    """LaTeX pieces as sentences of one note: each ends with a period before the next."""
    text = ""
    for piece in pieces:
        if text and not text.endswith((".", "!", "?")):
            text += "."
        text += (" " if text else "") + piece
    return text


@cache
def _reverse_mapping(entry_type: str) -> dict[str, str]:
    """CSL variable -> the field the reader maps back to it, for ``entry_type``: the entry
    type's own fields first (a report's ``number`` is ``number``, not ``eid``)."""
    mapping = field_mapping(entry_type)
    reverse: dict[str, str] = {}
    for table in (tables.TYPED_FIELDS.get(entry_type, {}), tables.DEFAULT_TYPED_FIELDS,
                  tables.TEXT_FIELDS):
        for field, variable in table.items():
            if mapping.get(field) == variable:
                reverse.setdefault(variable, field)
    return reverse


def entry_key(record: Record, options: WriteOptions = WriteOptions()) -> str:
    """The key ``record``'s entry is written under: a key its .bib repeated, as it was (both
    tools read the first; also after another format gave it a unique id), or none for an
    entry that had none, else its citation key, character for character (but for
    ``KEY_UNSAFE``, which the pipeline has replaced already when it wrote the record)."""
    if HINT_KEY in record.hints and not options.regenerate_keys and not options.normalize:
        read = record.hints.get(HINT_KEY)
        if read is not None and not KEY_UNSAFE.search(read):
            return read
    return KEY_UNSAFE.sub("-", record.citation_key or record.id)


class BibtexWriter:
    def __init__(self, dialect: str) -> None:
        self.name = dialect
        self.dialect = dialect
        self.description = WRITERS[dialect].description
        self.extension = WRITERS[dialect].extension
        self.framing = Framing(separator="\n")
        self.key_unsafe = KEY_UNSAFE
        self.keeps_repeated_keys = True  # (``entry_key``: the key as read, ``HINT_KEY``)

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        write_framed(map(self.record_text, records, repeat(options)), out, self.framing)

    # -- one entry -----------------------------------------------------------------------
    def record_text(self, record: Record, options: WriteOptions) -> str:
        """The .bib text of one record, with the source text that is no entry kept before it
        (and after it, for the last entry), one blank line between."""
        layout = Layout.of(record, options)
        from_bib = HINT_LAYOUT in record.hints  # its titles say what their case is
        entry_type = self.entry_type(record, layout)
        encode = partial(encode_latex, unicode=options.unicode)
        fields = self.fields(record, entry_type, encode, options, layout)
        lines = [f"@{entry_type}{{{entry_key(record, options)},"]
        indent, spelling = options.indent, tables.FIELD_SPELLING
        for name, value, how in fields:
            written = self.value(value, how, options, from_bib)
            if options.diagnostics is not None:
                _report_change(record, name, value, how, written, options.diagnostics)
            text = layout.raw(name, written)
            lines.append(f"{indent}{spelling.get(name, name)} = {text},")
        lines.append("}\n")
        head = "".join(f"@{kind}{{{text}}}\n\n" for kind, text in (
            ("preamble", layout.preamble), ("comment", layout.comment))
            if text is not None and _balanced(text))
        before, after = writable_text(layout.before), writable_text(layout.after)
        return (before + "\n\n" if before else "") + head + "\n".join(lines) + (
            "\n" + after + "\n" if after else "")

    def entry_type(self, record: Record, layout: Layout | None = None) -> str:
        written = layout.entry_type(record) if layout is not None else None
        kept = record.extra.get(EXTRA_ENTRY_TYPE)
        if layout is not None and self.classic(layout):  # BibLaTeX's meaning, for BibTeX
            written = None if written in tables.CLASSIC_RETYPED else written
            kept = None if kept in tables.CLASSIC_RETYPED else kept
        if written is not None and (written in tables.DIALECT_ENTRY_TYPES[self.dialect]
                                    or written not in tables.ENTRY_TO_CSL
                                    or self.dialect == tables.BIBLATEX
                                    and written in tables.CLASSIC_ALIASES):
            return written  # as the source wrote it (an unknown type, an alias biber knows)
        if kept in tables.DIALECT_ENTRY_TYPES[self.dialect]:
            return kept
        genre = record.get("genre")
        if self.dialect == tables.BIBTEX and record.type == "thesis" and genre:
            key = _type_key(genre)
            return tables.THESIS_ENTRY_OF_GENRE.get(
                tables.GENRE_OF_TYPE_KEY[key] if key else genre, "phdthesis")
        return entry_type_for(record.type, record.eprint, self.dialect)

    def value(self, value: Text, how: str, options: WriteOptions, from_bib: bool = False
              ) -> str:
        """A field's value as written: text encoded (as spelled, unless the output is UTF-8
        or normalised), a title that says nothing of case (not read from a .bib) with its
        acronyms and proper nouns protected, identifiers verbatim."""
        if how in (TITLE, TEXT):
            if how == TITLE and latex_source(value) is None and not from_bib:
                value = guess_protection(value)
            elif options.normalize:
                value = without_latex(value)
            return "{" + encode_text(value, unicode=options.unicode) + "}"
        text = plain(value)
        if how == VERBATIM:
            return "{" + _verbatim(text) + "}"
        if not is_harmless(text):  # shown, never run (see refbridge.latex.safety)
            return "{" + encode_latex(text, unicode=options.unicode) + "}"
        if how == BARE:
            return text
        return "{" + text + "}"

    def fields(self, record: Record, entry_type: str, encode: Callable[[str], str],
               options: WriteOptions, layout: Layout | None = None) -> list[Field]:
        layout = layout or Layout()
        fields: list[Field] = []
        fields += self._names(record, encode, options, layout)
        fields += self._texts(record, entry_type, layout)
        fields += self._dates(record, layout)
        fields += self._eprint_fields(record, entry_type, {f[0] for f in fields}, layout)
        if record.keywords and "keywords" not in layout.inherited:
            fields.append(layout.keywords(record.keywords) or
                          ("keywords", _keywords_value(record.keywords, encode), BRACED))
        written = {name for name, _, _ in fields}
        for key, value in record.extra.items():
            name = key[len(EXTRA_PREFIX):] if key.startswith(EXTRA_PREFIX) \
                else tables.EXTRA_FIELDS.get(key, "@")
            if not name.startswith("@") and name not in written:
                fields.append((name, value, BRACED if _balanced(value) else TEXT))
        fields += layout.again()
        fields += [(name, "", BRACED) for name in layout.empty if name not in written]
        if self.classic(layout):
            fields = self._classic_fields(fields, entry_type, options)
        fields = _selected(fields, options)
        return _in_order(fields, options.field_order, layout.order)

    def classic(self, layout: Layout) -> bool:
        """Whether an entry written for BibLaTeX is to be written for BibTeX's styles (see
        ``tables.CLASSIC_RENAMES``)."""
        return self.dialect == tables.BIBTEX and layout.dialect == tables.BIBLATEX

    def _classic_fields(self, fields: list[Field], entry_type: str, options: WriteOptions
                        ) -> list[Field]:
        """The fields of an entry written for BibLaTeX, as BibTeX's styles read them:
        renamed to the classic fields, those no style prints said in ``note``, a ``@misc``'s
        publisher and address in ``howpublished``."""
        renames = {**tables.CLASSIC_RENAMES["*"], **tables.CLASSIC_RENAMES.get(entry_type, {})}
        names = {name for name, _, _ in fields}
        renamed: list[Field] = []
        for name, value, how in fields:
            target = renames.get(name)
            if target is not None and target not in names:
                names.add(target)
                name = target
                if plain(value).lower() == tables.ARXIV.lower():
                    value = tables.ARXIV  # arXiv's own spelling, as its export writes it
            renamed.append((name, value, how))
        latex = {name: self.value(value, how, options, True)[1:-1]
                 for name, value, how in renamed}
        folded = set(tables.CLASSIC_NOTE_FIELDS).intersection(latex)
        notes = [latex["note"]] if "note" in latex else []
        notes += [words.format(latex[name]) for name, words in
                  tables.CLASSIC_NOTE_FIELDS.items() if name in folded]
        shown = tables.CLASSIC_HOWPUBLISHED.get(entry_type, ())
        if "howpublished" not in latex and any(name in latex for name in shown):
            published = [f"\\url{{{latex[name]}}}" if name in tables.CLASSIC_URL_FIELDS
                         else latex[name] for name in shown if name in latex]
            renamed.append(("howpublished", ", ".join(published), BRACED))
            folded.update(n for n in shown if n in latex and n not in tables.CLASSIC_URL_FIELDS)
        kept = [field for field in renamed if field[0] not in folded and field[0] != "note"]
        if notes:
            kept.append(("note", _sentences(notes), BRACED))
        return kept

    def _names(self, record: Record, encode: Callable[[str], str], options: WriteOptions,
               layout: Layout) -> list[Field]:
        fields: list[Field] = []
        for field, role in tables.NAME_FIELDS.items():
            people = record.names.get(role)
            if people and role not in layout.inherited:
                text = format_names(people, role in record.incomplete_names, encode,
                                    spelled=not options.unicode and not options.normalize)
                fields.append((field, text, BRACED))
        return fields

    def _texts(self, record: Record, entry_type: str, layout: Layout) -> list[Field]:
        fields: list[Field] = []
        classic = self.classic(layout)
        inherited, verbatim = layout.inherited, tables.VERBATIM_FIELDS
        for variable, value in record.fields.items():
            if variable in inherited:
                continue
            if variable == "genre":
                fields.extend(self._classic_genre(value, entry_type) if classic
                              else self._genre(value, entry_type, layout))
                continue
            field = self.text_field(variable, entry_type, layout, record.extra)
            if variable == "DOI":
                value = layout.spelled_doi(value)
            how = TITLE if variable in _TITLE_VARIABLES else (
                VERBATIM if field in verbatim else TEXT)
            fields.extend([(field, value, how)] if classic  # no style prints a subtitle
                          else layout.with_subtitle(field, value, how))
        return fields

    @staticmethod
    def _classic_genre(genre: Text, entry_type: str) -> list[Field]:
        """The ``type`` of an entry written for BibLaTeX, for BibTeX's styles: none when the
        entry type says it (``@phdthesis`` from ``type = {phdthesis}`` or ``{phd}``), else the
        words a BibLaTeX key stands for (``resreport``: "Research report"), else as written."""
        key = _type_key(plain(genre))
        if key is not None and tables.ENTRY_TYPE_KEYS.get(entry_type) == key:
            return []
        return [("type", tables.GENRE_OF_TYPE_KEY.get(key, genre) if key else genre, TEXT)]

    def text_field(self, variable: str, entry_type: str, layout: Layout,
                   extra: Mapping[str, str]) -> str:
        """The field that holds text variable ``variable`` in an entry of ``entry_type``:
        the source's own (``layout``), else the dialect's (``journal``, ``booktitle``,
        ``school``)."""
        field = layout.field_of(variable, entry_type, self.dialect, extra)
        if field is not None:
            return field
        if variable == "container-title" and entry_type in tables.BOOKTITLE_ENTRY_TYPES:
            return "booktitle"
        if variable == "publisher":
            kind = tables.CLASSIC_ALIASES.get(entry_type, entry_type) \
                if self.dialect == tables.BIBLATEX else entry_type
            return tables.PUBLISHER_FIELD[self.dialect].get(kind, "publisher")
        override = tables.WRITE_FIELD[self.dialect].get(variable)
        if override is not None and field_mapping(entry_type).get(override) == variable:
            return override
        return _reverse_mapping(entry_type).get(variable, variable.lower())

    def _genre(self, genre: Text, entry_type: str, layout: Layout) -> list[Field]:
        written_key = layout.hints.get("genre-key")
        if written_key is not None and tables.GENRE_OF_TYPE_KEY.get(written_key) == plain(genre):
            return [("type", written_key, BRACED)]  # the key, as the source wrote it
        if "type" in layout.order:
            return [("type", genre, TEXT)]  # the text, as the source wrote it
        key = tables.TYPE_KEY_OF_GENRE.get(plain(genre))
        if key is not None and tables.ENTRY_TYPE_KEYS.get(entry_type) == key:
            return []
        if key is not None and self.dialect == tables.BIBLATEX:
            return [("type", key, BRACED)]
        return [("type", genre, TEXT)]

    def _dates(self, record: Record, layout: Layout) -> list[Field]:
        fields: list[Field] = []
        for variable, date in record.dates.items():
            if variable in layout.inherited:
                continue
            year_field = tables.YEAR_FIELD_OF.get(variable)
            if variable == "issued":
                fields.extend(self._issued(date, layout, record.extra))
            elif year_field in layout.order and date.start is not None and date.end is None \
                    and date.start.month is None:
                fields.append((year_field, str(date.start.year), BRACED))  # as the source
            elif variable in tables.DATE_FIELD_OF:
                iso = format_iso_date(date)
                fields.append((tables.DATE_FIELD_OF[variable], iso or date.literal or "",
                               BRACED if iso else TEXT))
        return fields

    def _issued(self, date: Date, layout: Layout, extra: Mapping[str, str]) -> list[Field]:
        spelled = layout.spelled_year(date)
        if spelled is not None and (date.start is None or date.start.month is None):
            return [("year", spelled, BRACED)]
        iso = format_iso_date(date)
        if iso is None and layout.date_field:
            return [("date", date.literal or "", BRACED)]  # as the source wrote it
        if iso is None:
            return [("year", date.literal or "", TEXT)]
        both = layout.date_field and "year" in layout.order  # the source gave both
        own = layout.date_field and layout.dialect == self.dialect  # a BibTeX file's date
        if (self.dialect == tables.BIBLATEX or own) and not layout.classic_date and not both:
            return [("date", iso, BRACED)]
        year, month, day = format_year_month(date)
        spoken = None if both else layout.spoken_month(date)
        if spoken is not None and date.start is not None:  # ``month = {JUL 3}`` says the rest
            return [("year", spelled or str(date.start.year), BRACED), ("month", spoken, BRACED)]
        year = spelled or year  # ``{{2018}}`` beside a month, as Web of Science braces it
        if both:  # month and day where the source gave them beside its date (those that
            # disagreed with it are extra fields, written as they were)
            month = month if "month" in layout.order and EXTRA_PREFIX + "month" not in extra \
                else None
            day = day if "day" in layout.order and EXTRA_PREFIX + "day" not in extra else None
        fields: list[Field] = [("year", year, BRACED)]
        if month:
            spelled_month = layout.spelled_month(date)
            fields.append(("month", spelled_month, BRACED) if spelled_month
                          else ("month", month, BARE))
        if day:
            fields.append(("day", day, BRACED))
        if both or date.circa or date.season or (date.end is not None and (
                date.start is not None and date.start.month or date.end.month)):
            fields.append(("date", iso, BRACED))  # what year/month cannot say, or as read
        return fields

    def _eprint_fields(self, record: Record, entry_type: str, written: set[str],
                       layout: Layout) -> list[Field]:
        """arXiv's export in BibTeX (``eprint``, ``archivePrefix``, ``primaryClass``, plus
        ``eprinttype`` for Zotero and the abs URL), BibLaTeX's ``eprint``/``eprinttype``/
        ``eprintclass`` and ``pubstate = {prepublished}``; a preprint without an identifier
        says what is known in ``howpublished``, nothing more. An entry read from a .bib gets
        the eprint fields it had, under their names, and nothing derived."""
        eprint = record.eprint
        if eprint is None:
            return []
        if layout.fields:
            kept = layout.eprint_fields(eprint)
            if "howpublished" in layout.order and "howpublished" not in written:
                kept.append(("howpublished", arxiv_note(eprint), TEXT))  # as the reader found it
            return kept
        classes = layout.spelled_classes(eprint)
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


#: Block kinds the text kept between entries may hold: what bibtex and biber read there.
_KEPT_KINDS = frozenset({"comment", "preamble", "string"})


#: Hints of the library's text around an entry (before it, after the last).
LIBRARY_TEXT_HINTS = (HINT_PREAMBLE, HINT_COMMENT, HINT_BEFORE, HINT_AFTER)


def entry_alone(record: Record) -> Record:
    """``record`` without the library's text around its entry: for the .bib of one record
    (a publication page's, a CV's copy button), or an entry rewritten in place."""
    if not any(hint in record.hints for hint in LIBRARY_TEXT_HINTS):
        return record
    return record.replace(hints={k: v for k, v in record.hints.items()
                                 if k not in LIBRARY_TEXT_HINTS})


def writable_text(text: str | None) -> str | None:
    """``text`` kept between entries (``bibtex.before``/``after``), when it may be written as
    it is: it holds no entry (a .bib's own never does; a hint another format forged may, and is
    not written). Its ``@preamble`` is the .bib's own LaTeX, written as it was (CSL-JSON's
    reader keeps one that runs harmful LaTeX from reaching here)."""
    if not text:
        return None
    if "@" in text and any(span.block.kind not in _KEPT_KINDS
                           for span in parse_spans(text, {})):
        return None
    return text


def _named(hints: Mapping[str, str], prefix: str) -> dict[str, str]:
    """The hints whose key starts with ``prefix``, by the rest of their key."""
    return {key[len(prefix):]: value for key, value in hints.items() if key.startswith(prefix)}


#: The hints of text around an entry, kept when the writer normalises too.
_TEXT_KEYS = frozenset({_PREAMBLE_KEY, _COMMENT_KEY, _BEFORE_KEY, _AFTER_KEY})


class Layout:
    """How the source laid an entry out (its hints), for writing it the same way: field names
    and order, the date as ``year``/``month`` or ``date``, a subtitle apart from its title, a
    year that is not a number, what came from a crossref parent (not written while the
    ``crossref`` field is), and the text that is no entry before and after it. Empty when the record
    has no hints or the writer normalises."""

    def __init__(self, hints: dict[str, str] | None = None, crossref: bool = False,
                 dialect: str | None = None) -> None:
        hints = hints or {}
        self.written_dialect = dialect  #: the source's dialect, when the hints do not say it
        written_type, read_as, names_text = (
            hints.get(_LAYOUT_KEY, "") + "  ").split(" ", 2)
        self.written_type = written_type or None
        self.read_as = read_as or None
        names = [f for f in names_text.strip().split(",") if f]
        self.fields: tuple[str, ...] = tuple(names)
        self.order = {name: index for index, name in enumerate(names)}
        self.hints = hints
        self.inherited = frozenset(
            hints.get(_INHERITED_KEY, "").split(",")) if crossref \
            else frozenset()
        self.classic_date = "year" in self.order and "date" not in self.order
        #: fields the source wrote empty (``key = ""``: bibtex sees them, as no inheritance)
        self.empty = tuple(f for f in hints.get(_EMPTY_KEY, "").split(",")
                           if f)
        self.preamble = hints.get(_PREAMBLE_KEY)
        self.comment = hints.get(_COMMENT_KEY)
        #: the source text that is no entry, before the entry and (the last) after it
        self.before = hints.get(_BEFORE_KEY)
        self.after = hints.get(_AFTER_KEY)
        self.raws = _named(hints, HINT_RAW)  #: field -> its value as written, macros and all
        self.tabbed = _named(hints, HINT_SPACED)  #: field -> its value with its TABs
        #: text variable -> the source's fields that hold it, in their order (for one type)
        self._holders: tuple[str, dict[str, list[str]]] | None = None

    @property
    def dialect(self) -> str | None:
        """The dialect the entry was written in (None: not read from a .bib): its file's
        (``bibtex.dialect``), else BibLaTeX when it uses a type or field only BibLaTeX knows."""
        if self.written_type is None:
            return self.written_dialect
        return self.hints.get(_DIALECT_KEY) or entry_dialect(self.written_type, self.fields)

    def entry_type(self, record: Record) -> str | None:
        """The entry type the source wrote, while the record's type is still the one read."""
        return self.written_type if self.read_as == record.type else None

    @property
    def date_field(self) -> bool:
        return "date" in self.order

    def keywords(self, keywords: tuple[str, ...]) -> Field | None:
        """The keywords field as the source wrote it, when it still lists ``keywords``."""
        written = self.hints.get(_KEYWORDS_KEY)
        if written is None or not _balanced(written) or split_keywords(written) != keywords:
            return None
        return ("keywords", written, BRACED)

    def again(self) -> list[Field]:
        """Fields the source gave a second time (biber reads the second, bibtex the first)."""
        return [(key[len(HINT_AGAIN):], value, BRACED if _balanced(value) else TEXT)
                for key, value in self.hints.items() if key.startswith(HINT_AGAIN)]

    def eprint_fields(self, eprint: Eprint) -> list[Field]:
        """The eprint fields the source had, under the names it gave them."""
        classes = self.spelled_classes(eprint)

        def archive(field: str) -> str:
            spelled = self.hints.get(f"archive.{field}", eprint.archive)
            return spelled if spelled.lower() == eprint.archive.lower() else eprint.archive

        values = {"eprint": eprint.identifier or "", "archiveprefix": archive("archiveprefix"),
                  "eprinttype": archive("eprinttype"), "primaryclass": classes,
                  "eprintclass": classes}
        return [(name, values[name], VERBATIM) for name in self.fields if values.get(name)]

    def spelled_classes(self, eprint: Eprint) -> str:
        """The eprint's classes as the source wrote them (``cond-mat, physics:physics``) while
        they are still the eprint's, else separated by spaces."""
        written = self.hints.get(_CLASSES_KEY)
        if written is not None and split_classes(written) == list(eprint.classes):
            return written
        return " ".join(eprint.classes)

    def spelled_month(self, date: Date) -> str | None:
        """The month as the source wrote it (``03``, ``{mar}``), when it still says ``date``."""
        month = self.hints.get(_MONTH_KEY)
        if month is None or date.start is None or not _balanced(month):
            return None
        number = tables.MONTH_NUMBERS.get(decode_plain(month).strip().rstrip(".").lower())
        return month if number == date.start.month else None

    def spoken_month(self, date: Date) -> str | None:
        """A free-text month as the source wrote it (``JUL 3``, ``NOV-DEC``), when beside the
        year it still says all of ``date``."""
        month = self.hints.get(_MONTH_KEY)
        if month is None or date.start is None or not _balanced(month) \
                or decode_plain(month).strip().rstrip(".").lower() in tables.MONTH_NUMBERS:
            return None
        return month if month_text_date(str(date.start.year), decode_plain(month)) == date \
            else None

    @classmethod
    def of(cls, record: Record, options: WriteOptions) -> Layout:
        if options.normalize:  # nothing of the layout but its blocks and dialect
            hints = {k: v for k, v in record.hints_for("bibtex").items()
                     if k in _TEXT_KEYS}
            return cls(hints, dialect=cls(record.hints_for("bibtex")).dialect)
        return cls(record.hints_for("bibtex"),
                   crossref=EXTRA_PREFIX + tables.CROSSREF_FIELD in record.extra)

    def field_of(self, variable: str, entry_type: str, dialect: str,
                 extra: Mapping[str, str]) -> str | None:
        """The field the source held ``variable`` in, when the dialect knows it, the source is
        in the dialect already (a BibTeX file's ``location``), or the source gave the dialect's
        own field too (``location`` beside ``address``)."""
        for name in self.holders(entry_type).get(variable, ()):
            if dialect != tables.BIBTEX or self.dialect == tables.BIBTEX or \
                    name not in tables.BIBLATEX_ONLY_FIELDS or any(
                    field_mapping(entry_type).get(key[len(EXTRA_PREFIX):]) == variable
                    for key in extra if key.startswith(EXTRA_PREFIX)):
                return name
        return None

    def holders(self, entry_type: str) -> dict[str, list[str]]:
        """The source's fields by the text variable each holds in an entry of ``entry_type``
        (worked out once: an entry asks for each of its variables)."""
        if self._holders is None or self._holders[0] != entry_type:
            mapping = field_mapping(entry_type)
            holders: dict[str, list[str]] = {}
            for name in self.fields:
                variable = mapping.get(name)
                if variable is not None:
                    holders.setdefault(variable, []).append(name)
            self._holders = (entry_type, holders)
        return self._holders[1]

    def with_subtitle(self, field: str, value: Text, how: str) -> list[Field]:
        """``field`` and its value, cut into title and subtitle where the source had both."""
        subtitle_field = tables.SUBTITLE_FIELDS.get(field)
        subtitle = self.hints.get(subtitle_field) if subtitle_field else None
        if subtitle_field is None or subtitle is None:
            return [(field, value, how)]
        ending = tables.SUBTITLE_SEPARATOR + subtitle
        spelling = latex_source(value) or encode_text(value)
        if not spelling.endswith(ending) or len(spelling) == len(ending):
            return [(field, value, how)]
        title = spelling[:-len(ending)]
        return [(field, with_latex(decode_latex(title), title), how),
                (subtitle_field, subtitle, BRACED)]

    def raw(self, field: str, written: str) -> str:
        """``written`` (a field's value as the writer writes it), or the source's own macros
        for the same value (see ``bibtex_reader.HINT_RAW``)."""
        raw = self.raws.get(field)
        if raw is None:
            return self.spaced(field, written)
        value = written[1:-1] if written[:1] == "{" else MONTH_MACROS.get(written, written)
        return raw if macro_value(raw) == value else written

    def spaced(self, field: str, written: str) -> str:
        """``written``, or the source's value with its TABs when it is the same value but for
        them (see ``bibtex_reader.HINT_SPACED``)."""
        spaced = self.tabbed.get(field)
        if spaced is None or written != "{" + collapsed_white_space(spaced) + "}" or \
                not _balanced(spaced):
            return written
        return "{" + spaced + "}"

    def spelled_doi(self, doi: Text) -> Text:
        """The DOI as the source wrote it (a link, ``doi:``), while it still spells ``doi``
        (see ``bibtex_reader.HINT_DOI``)."""
        written = self.hints.get(_DOI_KEY)
        return written if written is not None and clean_doi(written) == doi else doi

    def spelled_year(self, date: Date) -> str | None:
        """The year as the source wrote it, when that was no number and still says ``date``
        (its year, or the same literal text)."""
        year = self.hints.get(_YEAR_KEY)
        if year is None or not _balanced(year):
            return None
        spelled, _ = parse_year_month(decode_plain(year), None, None)
        same = spelled.literal == date.literal if spelled.start is None else (
            date.start is not None and spelled.start.year == date.start.year
            and spelled.end == date.end)
        return year if same else None


BIBTEX_WRITER = BibtexWriter(tables.BIBTEX)
BIBLATEX_WRITER = BibtexWriter(tables.BIBLATEX)
