"""``fmt --abbreviate-journals`` / ``--unabbreviate-journals``: the journal of each entry
(``journal``, ``journaltitle``) written abbreviated or in full (``refbridge.abbreviations``),
the file's own ``journaltitle``/``shortjournal`` pairs first. An entry that has both forms
keeps both when abbreviating (its full title would be lost, and BibLaTeX styles can use the
short one); its pair abbreviates the same journal in the other entries.

Each change is a note (``refs.bib:12: note: knuth84: journal 'Physical Review Letters' ->
'Phys. Rev. Lett.' (journal list)``) and each title left for want of a source a warning; both
count, so that the run can tell (exit status 3). A value that is a ``@string`` macro or joined
with ``#`` is left as written, with a warning when it would have changed. This module must
never change a field other than these two, nor a title it has no source for.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from refbridge.abbreviations import JournalTable, Outcome, abbreviate, iso4_rules, unabbreviate
from refbridge.errors import Diagnostic
from refbridge.formats.bibtex.syntax import Field, value_pieces
from refbridge.tidy.characters import to_latex, to_unicode
from refbridge.tidy.document import Unit
from refbridge.tidy.values import delimited

#: the fields that name an entry's journal (BibTeX's, BibLaTeX's)
JOURNAL_FIELDS = ("journal", "journaltitle")
#: BibLaTeX's abbreviated journal title, the file's own pair with its journaltitle
SHORT_FIELD = "shortjournal"
#: ``--abbreviate-journals`` and ``--unabbreviate-journals``
ABBREVIATE, UNABBREVIATE = "abbreviate", "unabbreviate"
_BRACES = re.compile(r"[{}]")


@dataclass(slots=True)
class JournalChanges:
    """The units with their journals rewritten, and what was said of them."""

    units: list[Unit]
    notes: list[Diagnostic] = field(default_factory=list)
    changed: list[Unit] = field(default_factory=list)  #: the units whose journal changed
    told: int = 0  #: journals changed or left for want of a source


def _text(value: str) -> str:
    """A resolved field value as the title it says (accents as UTF-8, braces gone)."""
    return " ".join(_BRACES.sub("", to_unicode(value)).split())


def _fields(unit: Unit) -> dict[str, Field]:
    return {f.name: f for f in unit.block.fields}


def file_pairs(units: Sequence[Unit]) -> JournalTable:
    """The file's own full and short journal titles (``journaltitle`` or ``journal`` beside
    ``shortjournal``)."""
    pairs = []
    for unit in units:
        fields = _fields(unit)
        full = next((fields[name] for name in JOURNAL_FIELDS if name in fields), None)
        if unit.is_entry and full is not None and SHORT_FIELD in fields:
            pairs.append((_text(full.value), _text(fields[SHORT_FIELD].value)))
    return JournalTable(pairs, f"the file's {SHORT_FIELD}")


def _one_literal(raw: str) -> bool:
    """Whether a value is written as one ``{...}`` or ``"..."`` (no macro, no ``#``)."""
    return delimited(raw) and value_pieces(raw) == (raw,)


def _outcome(title: str, mode: str, table: JournalTable) -> Outcome:
    if mode == ABBREVIATE:
        return abbreviate(title, (table,), iso4_rules())
    return unabbreviate(title, (table,))


def _rewritten(journal: Field, new: str) -> Field:
    """``journal`` with the title ``new``, written as its value was (LaTeX accents in an ASCII
    value, braces or quotes)."""
    content = new if not journal.raw.isascii() else to_latex(new)
    return Field(journal.name, new, journal.raw[0] + content + journal.raw[-1],
                 journal.undefined_macros)


def journal_titles(units: list[Unit], mode: str, source: str) -> JournalChanges:
    """``units`` with each entry's journal abbreviated or written out (``mode``)."""
    table = file_pairs(units)
    result = JournalChanges([])
    for unit in units:
        fields = list(unit.block.fields)
        # an entry that holds both forms keeps them when abbreviating
        keeps = mode == ABBREVIATE and any(f.name == SHORT_FIELD for f in fields)
        for index, journal in enumerate(fields):
            if not unit.is_entry or keeps or journal.name not in JOURNAL_FIELDS:
                continue
            title = _text(journal.value)
            outcome = _outcome(title, mode, table)
            where = f"{unit.key}: {journal.name} {title!r}"
            if outcome.changed and not _one_literal(journal.raw):
                result.notes.append(Diagnostic(
                    "warning", f"{where} left as it is: a @string macro or joined value "
                    f"(would be {outcome.new!r})", source, unit.block.line))
                result.told += 1
            elif outcome.changed:
                fields[index] = _rewritten(journal, outcome.new)
                result.notes.append(Diagnostic(
                    "note", f"{where} -> {outcome.new!r} ({outcome.source})", source,
                    unit.block.line))
                result.told += 1
            elif outcome.reason:
                result.notes.append(Diagnostic(
                    "warning", f"{where} left as it is: {outcome.reason}", source,
                    unit.block.line))
                result.told += 1
        if fields != list(unit.block.fields):
            unit = dataclasses.replace(unit, block=dataclasses.replace(
                unit.block, fields=tuple(fields)))
            result.changed.append(unit)
        result.units.append(unit)
    return result
