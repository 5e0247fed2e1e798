"""Journal titles abbreviated and written out again: a journal list, a library's own pairs and
the rules of ISO 4.

A title is abbreviated from, in this order: the library's own pairs (a BibLaTeX entry's
``journaltitle`` with its ``shortjournal``, a record's ``container-title`` with its
``container-title-short``), refbridge's journal list (``data/journals.tsv``: full titles and
their ISO 4 abbreviations, compiled for refbridge under its MIT licence), then the rules of ISO
4 over the ISSN's List of Title Word Abbreviations (LTWA) as the ``pyiso4`` package applies them
(MIT; it ships the LTWA of 2021-07-02 as the ISSN International Centre publishes it for ISO 4
use; ``pip install 'refbridge[journals]'``: it is optional because it depends on the GPL
``unidecode``). A title is written out again only from the pairs and the list: the LTWA is no
function one can invert (``Phys.`` is physics, physical and physique).

Never a nonsense abbreviation: a title already abbreviated is left alone (ISO 4 applied to it
turns its periods into commas), as is one that is no journal title (``arXiv preprint
arXiv:2101.00001``), and one the rules leave as it is (a single word, ``Nature``, is never
abbreviated). Every outcome says what was done and why, for the caller to report. This module
must never change a title it has no source for, nor read or write a file but its own list.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from anyascii import anyascii

from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.richtext import plain

#: what an outcome's ``source`` says when a title is left as it is
LEFT = "left"
#: the CSL types whose container is a journal
JOURNAL_TYPES = frozenset({"article-journal", "article-magazine", "article-newspaper"})
#: words that mark a venue that is no journal: ISO 4 has nothing to say of it
_NOT_A_JOURNAL = re.compile(r"\b(arxiv|preprint|biorxiv|medrxiv|ssrn|submitted|in press)\b",
                            re.IGNORECASE)
#: a word of an abbreviated title: letters ending in a period (``Phys.``, ``J.``)
_ABBREVIATED_WORD = re.compile(r"\b\w+\.(?=\s|$|:)")
_NOT_WORD = re.compile(r"[^0-9a-z]+")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a title: ``new`` (the title itself when left), where it came from
    (``source``: the pairs, the list, ISO 4, or ``left``) and, when left, why."""

    old: str
    new: str
    source: str
    reason: str = ""

    @property
    def changed(self) -> bool:
        return self.new != self.old


@lru_cache(maxsize=8192)  # a library names few journals, each many times
def _key(title: str) -> str:
    """A title as it is looked up: ASCII, lower case, ``&`` as ``and``, words only."""
    folded = anyascii(title).casefold().replace("&", " and ")
    return " ".join(_NOT_WORD.sub(" ", folded).split())


class JournalTable:
    """Full titles and their abbreviations, looked up either way ignoring case, accents,
    punctuation and spacing (``Phys Rev Lett`` finds ``Phys. Rev. Lett.``)."""

    def __init__(self, pairs: Iterable[tuple[str, str]] = (), name: str = "journal list"
                 ) -> None:
        self.name = name
        self._short: dict[str, str] = {}
        self._full: dict[str, str] = {}
        for full, short in pairs:
            if full.strip() and short.strip() and _key(full) != _key(short):
                self._short.setdefault(_key(full), short.strip())
                self._full.setdefault(_key(short), full.strip())

    def abbreviation(self, title: str) -> str | None:
        return self._short.get(_key(title))

    def full_title(self, abbreviation: str) -> str | None:
        return self._full.get(_key(abbreviation))

    def knows_abbreviation(self, title: str) -> bool:
        return _key(title) in self._full

    def __len__(self) -> int:
        return len(self._short)


@cache
def journal_list() -> JournalTable:
    """refbridge's journal list (``data/journals.tsv``), read once."""
    text = (resources.files("refbridge") / "data" / "journals.tsv").read_text("utf-8")
    rows = (line.split("\t") for line in text.splitlines()
            if line.strip() and not line.startswith("#"))
    return JournalTable(((row[0], row[1]) for row in rows if len(row) == 2), "journal list")


@cache
def iso4_rules() -> Callable[[str], str] | None:
    """ISO 4 over the LTWA (``pyiso4``), or None when it is not installed."""
    try:
        from pyiso4.ltwa import Abbreviate  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    abbreviator = Abbreviate.create()
    return lambda title: str(abbreviator(title, remove_part=True))


def is_abbreviated(title: str) -> bool:
    """Whether ``title`` is written abbreviated: a word of it ends in a period."""
    return _ABBREVIATED_WORD.search(title) is not None


def abbreviate(title: str, tables: Iterable[JournalTable] = (),
               rules: Callable[[str], str] | None = None) -> Outcome:
    """``title``'s abbreviation from the first of ``tables`` that has it (the library's own
    pairs first, then ``journal_list()``), else from ``rules`` (ISO 4, ``iso4_rules()``);
    left as it is when none can say."""
    text = " ".join(title.split())
    for table in (*tables, journal_list()):
        if (found := table.abbreviation(text)) is not None:
            return Outcome(title, found, table.name)
        if table.knows_abbreviation(text):
            return Outcome(title, title, LEFT)  # already the abbreviation
    if is_abbreviated(text):
        return Outcome(title, title, LEFT)
    if _NOT_A_JOURNAL.search(text):
        return Outcome(title, title, LEFT, "not a journal title")
    if len(text.split()) == 1:
        return Outcome(title, title, LEFT)  # ISO 4 never abbreviates a one-word title
    if rules is None:
        return Outcome(title, title, LEFT, "not in the journal list (ISO 4 rules need "
                                           "pyiso4: pip install 'refbridge[journals]')")
    found = " ".join(rules(text).split())
    if not found or found == text or "," in found and "," not in text:
        return Outcome(title, title, LEFT, "the ISO 4 word list abbreviates none of its words")
    return Outcome(title, found, "ISO 4")


def unabbreviate(title: str, tables: Iterable[JournalTable] = ()) -> Outcome:
    """``title`` written out from the first of ``tables`` (the library's own pairs first,
    then ``journal_list()``) that knows it; left as it is when none does (a title not
    abbreviated is left without a word)."""
    for table in (*tables, journal_list()):
        if (found := table.full_title(title)) is not None:
            return Outcome(title, found, table.name)
    if not is_abbreviated(title):
        return Outcome(title, title, LEFT)
    return Outcome(title, title, LEFT, "no full title known for it")


def short_title(title: str) -> str | None:
    """The abbreviation refbridge's journal list gives ``title`` (the CSL engine's
    ``container-title-short`` when a record has none), else None."""
    return journal_list().abbreviation(title)


def record_pairs(records: Iterable[Record]) -> JournalTable:
    """The records' own full and short journal titles (``container-title`` beside
    ``container-title-short``)."""
    return JournalTable(((plain(full), plain(short)) for record in records
                         if (full := record.fields.get("container-title"))
                         and (short := record.fields.get("container-title-short"))),
                        "the records' container-title-short")


def journal_records(records: Sequence[Record], abbreviated: bool,
                    diagnostics: Diagnostics) -> list[Record]:
    """``records`` with their journals (``container-title`` of a journal article)
    abbreviated (``abbreviated``) or written out, the records' own pairs first; each change,
    and each title left for want of a source, is a counted change of ``diagnostics`` (exit
    status 3). A record that holds both forms keeps them when abbreviating."""
    table = record_pairs(records)
    rules = iso4_rules() if abbreviated else None
    result = []
    for record in records:
        title = record.get("container-title")
        keeps = abbreviated and record.fields.get("container-title-short")
        if record.type not in JOURNAL_TYPES or not title or keeps:
            result.append(record)
            continue
        outcome = (abbreviate(title, (table,), rules) if abbreviated
                   else unabbreviate(title, (table,)))
        where = (str(record.source.file) if record.source else None,
                 record.source.line if record.source else None)
        if outcome.changed:
            diagnostics.change(f"record {record.id!r}: journal {title!r} -> {outcome.new!r} "
                               f"({outcome.source})", *where)
            record = dataclasses.replace(
                record, fields={**record.fields, "container-title": outcome.new})
        elif outcome.reason:
            diagnostics.change(f"record {record.id!r}: journal {title!r} left as it is: "
                               f"{outcome.reason}", *where)
        result.append(record)
    return result
