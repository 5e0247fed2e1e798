"""Better BibTeX's display options of an export (``autoexport.add``'s ``displayOptions``, the
cite-as-you-write ``translate`` format's ``exportNotes``...), applied to the records and to the
writer's options.

The options are a table (``OPTIONS``: Better BibTeX's and Zotero's name -> what its values
mean here). An option refbridge's model gives a meaning is applied: ``exportNotes`` (a Zotero
item's child notes written in its ``note`` field, else left out, as Better BibTeX's
``translators/bibtex/entry.ts``), ``useJournalAbbreviation`` (a journal article's journal as
its abbreviation: the record's own ``container-title-short``, else refbridge's abbreviation
lists, as ``refbridge convert --journals abbreviated``), ``exportCharset`` (Zotero's: ``UTF-8``
or ``us-ascii``, the LaTeX writers' Unicode or LaTeX-command choice). An option that asks for
what refbridge cannot do (``exportFileData``, ``biblatexAPA``...), and a name no translator
has, is refused (``DisplayOptionError``), never ignored. This module must never change the
records of the library: it gives changed copies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.model import Record
from refbridge.registry import WriteOptions

#: The extra that holds a Zotero item's child notes (HTML), as the Zotero readers keep them.
CHILD_NOTES = "zotero.notes"
#: The writers whose charset is a choice (LaTeX commands or UTF-8).
LATEX_WRITERS = frozenset({"bibtex", "biblatex"})
#: ``exportCharset`` values -> whether the text is written as Unicode (Zotero's names).
CHARSETS: dict[str, bool] = {"utf-8": True, "utf8": True, "us-ascii": False, "ascii": False}
#: What separates a record's note from its child notes, and two child notes.
NOTE_SEPARATOR = "\n\n"


class DisplayOptionError(RefbridgeError):
    """A display option refbridge cannot apply, or that no translator has."""


@dataclass(frozen=True, slots=True)
class DisplayOptions:
    """The display options given: child notes written, journals abbreviated, and the text
    written as Unicode (True), as LaTeX commands (False) or as the writer does (None)."""

    export_notes: bool = False
    journal_abbreviation: bool = False
    unicode: bool | None = None

    def as_json(self) -> dict[str, object]:
        """The options as Better BibTeX names them (``exportCharset`` only when given)."""
        named: dict[str, object] = {"exportNotes": self.export_notes,
                                    "useJournalAbbreviation": self.journal_abbreviation}
        if self.unicode is not None:
            named["exportCharset"] = "UTF-8" if self.unicode else "us-ascii"
        return named


#: No display option given: Better BibTeX's defaults.
NO_OPTIONS = DisplayOptions()


def _flag(field: str) -> Callable[[dict[str, object], object], None]:
    def take(chosen: dict[str, object], value: object) -> None:
        chosen[field] = _boolean(value)
    return take


def _only(meaning: bool, why: str) -> Callable[[dict[str, object], object], None]:
    """An option refbridge does one way: ``meaning`` is accepted, the other value refused."""
    def take(chosen: dict[str, object], value: object) -> None:
        if _boolean(value) != meaning:
            raise DisplayOptionError(why)
    return take


def _no_effect(chosen: dict[str, object], value: object) -> None:
    """``worker``: whether Zotero exports in a worker thread; the text is the same."""
    _boolean(value)


def _charset(chosen: dict[str, object], value: object) -> None:
    if not isinstance(value, str) or value.strip().lower() not in CHARSETS:
        raise DisplayOptionError(f"exportCharset {value!r}: refbridge writes UTF-8 or "
                                 "us-ascii (LaTeX commands)")
    chosen["unicode"] = CHARSETS[value.strip().lower()]


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise DisplayOptionError(f"display option value {value!r} must be true or false")
    return value


#: Each display option Better BibTeX's translators (and Zotero's, for ``exportCharset``)
#: declare -> how its value is taken (``DisplayOptions``' field set, or refused).
OPTIONS: dict[str, Callable[[dict[str, object], object], None]] = {
    "exportNotes": _flag("export_notes"),
    "useJournalAbbreviation": _flag("journal_abbreviation"),
    "exportCharset": _charset,
    "exportFileData": _only(False, "exportFileData: refbridge exports no attachment files"),
    "biblatexAPA": _only(False, "biblatexAPA: refbridge writes standard biblatex, not "
                                "biblatex-apa's data model"),
    "biblatexChicago": _only(False, "biblatexChicago: refbridge writes standard biblatex, "
                                    "not biblatex-chicago's data model"),
    "keepUpdated": _only(True, "keepUpdated: an auto-export is always kept updated"),
    "worker": _no_effect,
}


def display_options(given: object) -> DisplayOptions:
    """The display options of an auto-export: ``given``, an object of Better BibTeX's options
    (None: none)."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise DisplayOptionError("displayOptions must be an object")
    chosen: dict[str, object] = {}
    for name, value in given.items():
        take = OPTIONS.get(name)
        if take is None:
            raise DisplayOptionError(f"unknown display option {name!r} (known: "
                                     f"{', '.join(OPTIONS)})")
        take(chosen, value)
    return DisplayOptions(**chosen)  # type: ignore[arg-type]


def query_options(options: Mapping[str, str]) -> DisplayOptions:
    """The display options of a cite-as-you-write request, as Better BibTeX's ``translate``
    reads them: ``exportNotes`` and ``useJournalAbbreviation`` true when ``yes``, ``y`` or
    ``true`` (any case), false otherwise."""
    def said(name: str) -> bool:
        return options.get(name, "").lower() in ("yes", "y", "true")

    return DisplayOptions(said("exportNotes"), said("useJournalAbbreviation"))


def note_text(html: str) -> str:
    """A Zotero note's text (its HTML's paragraphs, one blank line between them)."""
    import lxml.html

    root = lxml.html.fragment_fromstring(html, create_parent="div")
    blocks = root.xpath(".//p | .//li | .//h1 | .//h2 | .//h3 | .//h4 | .//h5 | .//h6 "
                        "| .//pre | .//blockquote[not(.//p)]")
    texts = [" ".join(str(block.text_content()).split()) for block in blocks] or [
        " ".join(str(root.text_content()).split())]
    return NOTE_SEPARATOR.join(text for text in texts if text)


def _with_notes(record: Record, export_notes: bool) -> Record:
    html = record.extra.get(CHILD_NOTES)
    if html is None:
        return record
    extra = {name: value for name, value in record.extra.items() if name != CHILD_NOTES}
    if not export_notes:
        return record.replace(extra=extra)
    from refbridge.richtext import concat

    notes = note_text(html)
    note = record.fields.get("note")
    fields = {**record.fields,
              "note": concat(note, NOTE_SEPARATOR, notes) if note else notes}
    return record.replace(fields=fields, extra=extra)


def _abbreviated(records: Sequence[Record]) -> list[Record]:
    """Journal articles with their journal as its abbreviation: their own short title, else
    the one the abbreviation lists give (``abbreviations.journal_records``)."""
    from refbridge.abbreviations import JOURNAL_TYPES, journal_records

    own = []
    for record in records:
        short = record.fields.get("container-title-short")
        if record.type in JOURNAL_TYPES and short and record.fields.get("container-title"):
            fields = {name: value for name, value in record.fields.items()
                      if name != "container-title-short"}
            record = record.replace(fields={**fields, "container-title": short})
        own.append(record)
    return journal_records(own, True, Diagnostics())  # asked for: not changes to report


def _unspelled(record: Record) -> Record:
    """``record`` without the LaTeX spellings a .bib gave its values and names, so that a
    LaTeX writer encodes every character (a ``ø`` the .bib had as it is too)."""
    from refbridge.richtext import without_latex

    return record.replace(
        fields={name: without_latex(value) for name, value in record.fields.items()},
        names={role: tuple(dataclasses.replace(name, latex=None) for name in names)
               for role, names in record.names.items()})


def applied(records: Sequence[Record], options: DisplayOptions, writer: str
            ) -> tuple[list[Record], WriteOptions]:
    """``records`` as ``options`` export them with the writer named ``writer``, and the
    writer's options; an ``exportCharset`` the writer has no choice of is refused."""
    write_options = WriteOptions()
    if options.unicode is not None:
        if writer in LATEX_WRITERS:
            write_options = WriteOptions(unicode=options.unicode)
        elif not options.unicode:
            raise DisplayOptionError(f"exportCharset us-ascii: the {writer} writer writes "
                                     "UTF-8 only")
    changed = [_with_notes(record, options.export_notes) for record in records]
    if options.unicode is False and writer in LATEX_WRITERS:
        changed = [_unspelled(record) for record in changed]
    if options.journal_abbreviation:
        changed = _abbreviated(changed)
    return changed, write_options
