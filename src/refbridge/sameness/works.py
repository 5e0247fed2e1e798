"""Whether two records are the same work, and why: the one home of these rules.

``same_work`` answers for ``refbridge dedupe`` (a library's duplicates). Two records are one
work when they share an identifier of the same kind (a DOI, an arXiv id, an ISBN of the book
itself, whose titles are related (a set's record lists its volumes' ISBNs); read by
``sameness.ids``; an arXiv DOI counts as the arXiv id it names, not as a DOI of the work's own)
unless nothing else agrees (titles unrelated and no author in common or years far apart: an
identifier pasted into the wrong entry; or titles unlike in one venue: a book's or an issue's
identifier pasted into its chapters or papers), or, without one, when their titles, years and
authors agree as people write the same reference twice: the title compared as plain folded words (the reader has decoded
``{\\"o}`` to ``ö`` already; ``ö`` and ``o`` fold alike), with or without its subtitle and
whatever punctuation sets it off, with or without the name heading it (``PackNet-SfM: 3D
Packing for ...``: a word of two capitals or digits), function words and a misspelt word or
two allowed (``Current Opinion in Cardiology`` is not ``... in Radiology``); the first author the same
person by ``people.same_person`` with initials (``D. E.`` is ``Donald Ervin``); the year the
same, or within ``PREPRINT_YEARS`` when one record is a preprint (its published version comes
later): of a preprint type, with an arXiv id or a preprint server's DOI, or in a preprint
server's venue (``journal = {arXiv}``, ``CoRR``, ``howpublished = {arXiv preprint}``); a
conference or journal paper in a venue is published, whatever preprint it names. A title a
word apart (one added, dropped or another) is one title when all the authors, in order, the
year and the venue (or, with none, the web address) agree. One paper is often dated twice, a
year apart (``ONLINE_YEARS``: online and in its issue, by its conference and its proceedings,
by its arXiv year in the venue that published it): the same title of four words or more, the
same authors and one venue (the words of one's name, or their initials, within the other's,
numbers aside) or one page range a year apart are one work; so are the same title, year, volume
and page range of a first author of one family name, whatever given names one record garbles.
Pages that run backwards (``47--1``, an article number typed into them) say nothing, nor do
pages and issues of two records of one DOI and title (online first and in its issue).

Some records look alike and are not the same work: different editions (of the edition field,
or named at the end of the title: ``..., 2nd Edition``), volumes of a book,
parts (``Part II``), chapters or pages of one book, issues of one volume, and the notes about
a paper (``Erratum:``, ``Reply to``, ``Comment on``, ``Corrigendum``) and its supplement
(``...: Supplementary material``, ``... -- Source Code``, a note ``Supplementary material of``);
two different DOIs (unless one is a preprint server's) or two different arXiv ids; one talk
given at two meetings (their notes name other meetings, and they have no venue); a paper in
a conference's companion, workshop or extended abstracts and one in its proceedings
(``VENUE_KINDS``; not when both give one volume and page range: one volume named two ways);
a conference paper and its journal version years later; two books years apart without an
ISBN in common (a book's DOI copied to another edition's entry); two web pages, programs or
data sets at other addresses. Those ``BARRIERS`` keep records apart
whatever else agrees: only a preprint and its published version are one work.

``merge`` (the inputs of a CV or a conversion) joins records by identifier and by
``titles_alike`` (``difflib``'s ratio at a similarity the caller gives) when they are
``compatible`` (no two different DOIs of their own, an author in common); ``enrich`` and
``verify`` weigh a found work by ``title_similarity`` (TeX markup set aside). This module must
never change a record, read a file or make a request.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from refbridge.citekeys import BBT_SKIP_WORDS
from refbridge.identifiers import arxiv_id_from_doi
from refbridge.model import Name, Record
from refbridge.sameness.ids import identifiers, own_doi
from refbridge.sameness.people import family_key, same_person, share_an_author
from refbridge.sameness.text import NORMALIZED_REMEMBERED, fold, normalize_title

#: Years a preprint may precede (or, re-posted, follow) its published version ...
PREPRINT_YEARS = 3
#: ... and the years two records of one book may give (printed late in the year, dated the next).
BOOK_YEARS = 1
#: ... and the years a conference paper and its journal version are at least apart.
JOURNAL_VERSION_YEARS = 1
#: How many words two titles may spell differently (one letter each) and be one title, and
#: how many words (not function words) they need for that (as many as they have when none
#: is spelt differently).
TYPOS, MIN_WORDS_FOR_TYPOS = 2, 3
#: Words of substance that make a title long, and the ``difflib`` ratio at which two long
#: titles are one (a changed word or two).
LONG_TITLE, LONG_TITLE_SIMILARITY = 8, 0.93
#: Words the shorter of two titles a word apart needs to be one title in one venue (the
#: same authors and year): fewer say too little. Two records of one title, venue and authors
#: a year apart (``ONLINE_YEARS``) need as many.
A_WORD_APART_WORDS = 4
#: Years two records of one paper may give when it is dated twice: online and in its issue,
#: by its conference and its proceedings, or by its arXiv year in the venue that published it.
ONLINE_YEARS = 1
#: The ``difflib`` ratio under which the titles of two records in one venue that share an
#: identifier are two parts of it (``13 Robust Performance`` and ``08 Output Feedback``, two
#: chapters with their book's DOI), not one work whose title is worded a little differently.
PARTS_TITLE_SIMILARITY = 0.8
#: Registrants whose DOIs name preprints: a record with one and a record with a journal's DOI
#: may still be the same work (arXiv's own DOIs are read as arXiv ids).
PREPRINT_DOI_PREFIXES: tuple[str, ...] = (
    "10.1101/",  # bioRxiv, medRxiv
    "10.2139/",  # SSRN
    "10.20944/",  # Preprints.org
    "10.21203/",  # Research Square
    "10.26434/",  # ChemRxiv
    "10.31219/", "10.31234/", "10.31235/", "10.31236/",  # OSF Preprints, PsyArXiv, SocArXiv
    "10.22541/",  # Authorea
    "10.36227/",  # TechRxiv
)
#: CSL types of records that may be the preprint of a published work (a ``@misc``,
#: ``document``, is one only by its identifiers or venue: it is as often a web page, a program
#: or a paper's supplementary material).
PREPRINT_TYPES: frozenset[str] = frozenset({"article", "report", "manuscript"})
#: The first words of a preprint server's name as a venue (folded): ``arXiv``, ``arXiv
#: preprint arXiv:1234.5678``, DBLP's ``CoRR``.
_PREPRINT_VENUE = re.compile(r"^(?:arxiv|corr|biorxiv|medrxiv|chemrxiv|psyarxiv|ssrn|"
                             r"techrxiv|research square|preprints org)\b")
#: CSL types -> the kind of work they record; two kinds that differ are two works (unless
#: one record is of a ``PREPRINT_TYPES`` type).
TYPE_KINDS: dict[str, str] = {
    "article-journal": "paper", "paper-conference": "paper", "article-magazine": "paper",
    "article-newspaper": "paper", "chapter": "paper", "entry-encyclopedia": "paper",
    "entry-dictionary": "paper", "book": "book", "thesis": "thesis",
}
#: Words at the start of a title that make it a note about another work, by the kind of note.
NOTE_WORDS: dict[str, str] = {
    "erratum": "erratum", "errata": "erratum", "corrigendum": "erratum",
    "corrigenda": "erratum", "correction": "erratum", "corrections": "erratum",
    "reply": "reply", "response": "reply", "rejoinder": "reply", "comment": "comment",
    "comments": "comment", "commentary": "comment", "discussion": "comment",
    "retraction": "retraction", "retracted": "retraction", "addendum": "addendum",
}
_NOTE = re.compile(r"^(?:authors?\s+)?(" + "|".join(NOTE_WORDS) + r")\b")
#: What a title (folded) says of a work's supplement, anywhere in it (``...: Supplementary
#: material``, ``Supplementaty Material``, ``... -- Source Code``) ...
_SUPPLEMENT_TITLE = re.compile(r"\b(?:supplement\w*|supporting information|source code|"
                               r"data and code)\b")
#: ... and what its note (folded) says at its start (``Supplementary material of \cite{x}``).
_SUPPLEMENT_NOTE = re.compile(r"^supplement\w* (?:material|data|information) (?:of|for|to)\b")
#: ``Part II``, ``Part 2``, ``Teil 3``, ``Volume 1``, ``Vol. IV``, ``Book 2``.
_PART = re.compile(r"\b(?:part|teil|partie|vol|volume|book|band)\s+([ivxlc]+|\d+|one|two|three"
                   r"|four|five)\b")
#: A Roman or Arabic numeral ending the title: ``Foundations II``, ``Dynamics 2``.
_LAST_NUMBER = re.compile(r"\s([ivx]+|\d{1,2})$")
#: What sets a subtitle off: a colon, a full stop, a dash, a question mark.
_SUBTITLE = re.compile(r"\s*(?::|\.\s|\?\s|!\s|\s[-\u2013\u2014]+\s|--)\s*")
_DIGITS = re.compile(r"\d+")
#: What makes a word a name rather than a word (two or more of them: ``BERT``, ``GPT-3``).
_NAME_MARKS = re.compile(r"[A-Z0-9]")
#: Words of a venue (folded) that make it a lesser venue beside a conference, by its kind: a
#: paper there and one in the conference's own proceedings (or another lesser venue) are two
#: works (``GECCO Companion``, ``CVPR Workshop on ...``, ``CHI Extended Abstracts``, the
#: programme notes of ``Installation Proceedings`` and ``Music Proceedings``).
VENUE_KINDS: dict[str, str] = {
    "companion": "companion", "adjunct": "companion", "workshop": "workshop",
    "workshops": "workshop", "extended abstracts": "extended abstract", "poster": "poster",
    "posters": "poster", "demo": "demonstration", "demos": "demonstration",
    "demonstrations": "demonstration", "doctoral consortium": "doctoral consortium",
    "late breaking": "late-breaking result", "installation": "installation",
    "installations": "installation", "music proceedings": "performance",
}
_VENUE_KIND = re.compile(r"\b(" + "|".join(VENUE_KINDS) + r")\b")
#: Words of a note (folded) that name a meeting a talk or poster was given at.
_MEETING = re.compile(r"\b(?:meeting|workshop|conference|symposium|congress|colloquium)\b")
#: CSL types of a paper in a conference's proceedings and in a journal: two such records of
#: different years are a paper and its journal version, two works (even with one DOI).
PUBLICATION_KINDS: dict[str, str] = {"paper-conference": "conference",
                                     "article-journal": "journal"}
#: CSL types of records whose web address says which work they are: a web page, a program, a
#: data set, a ``@misc``. Two records with different addresses, one of these types, are two
#: pages (a project's home page and its features page; a specification and the page about it).
WEB_TYPES: frozenset[str] = frozenset({"document", "webpage", "post-weblog", "software",
                                       "dataset"})
#: What does not tell two web addresses apart: TeX's braces and escapes (``{\_}``), the
#: scheme, ``www.``, the fragment (a tracking anchor), a final slash.
_ADDRESS_MARKUP = re.compile(r"[{}\\]")
_ADDRESS_NOISE = re.compile(r"^(?:https?://)?(?:www\.)?|#.*$")


@dataclass(frozen=True)
class Profile:
    """What ``same_work`` compares of one record, computed once."""

    record: Record

    @cached_property
    def identifiers(self) -> dict[str, set[str]]:
        found = identifiers(self.record)
        own = {doi for doi in found.get("doi", ()) if not arxiv_id_from_doi(doi)}
        if "doi" in found and not own:  # an arXiv DOI: the arXiv id says it
            del found["doi"]
        elif own:
            found["doi"] = own
        if "isbn" in found and not self.whole_book:  # a chapter carries its book's ISBN
            del found["isbn"]
        dois = found.get("doi", set())
        if any(doi.startswith(PREPRINT_DOI_PREFIXES) for doi in dois):
            found.setdefault("preprint-doi", set()).update(dois)
            del found["doi"]
        return found

    @cached_property
    def whole_book(self) -> bool:
        """A book, not a part of one: no container, or one of its own title (``@book`` with
        a ``booktitle`` that repeats its title)."""
        container = self.record.get("container-title")
        return self.record.type == "book" and (
            not container or fold(container) == fold(self.record.title or ""))

    @cached_property
    def title(self) -> str:
        """The title (folded), without the edition it ends with (``..., 2nd Edition``)."""
        return _TITLE_EDITION.sub("", fold(self.record.title or ""))

    @cached_property
    def main_title(self) -> str:
        """The title before its subtitle."""
        return _TITLE_EDITION.sub("", fold(_SUBTITLE.split(self.record.title or "",
                                                           maxsplit=1)[0]))

    @cached_property
    def after_name(self) -> str | None:
        """The title after the name that heads it (``PackNet-SfM: 3D Packing for ...``,
        ``AANN: Artificial Analog Neural Network``: a word of two capitals or digits or
        more), or None."""
        parts = _SUBTITLE.split(self.record.title or "", maxsplit=1)
        head = parts[0].strip("{} ")
        if len(parts) < 2 or len(head.split()) != 1 or len(_NAME_MARKS.findall(head)) < 2:
            return None
        return _TITLE_EDITION.sub("", fold(parts[1]))

    @cached_property
    def edition(self) -> str | None:
        """The edition (``_edition``) of the edition field, or else of the title's end."""
        named = _TITLE_EDITION.search(fold(self.record.title or ""))
        return _edition(self.record.get("edition") or (named.group(0) if named else None))

    @cached_property
    def note(self) -> str | None:
        """The kind of note about a work the record is (``erratum``, ``reply`` ...,
        ``supplement``), or None."""
        match = _NOTE.match(self.title)
        if match:
            return NOTE_WORDS[match.group(1)]
        if _SUPPLEMENT_TITLE.search(self.title) or _SUPPLEMENT_NOTE.match(
                fold(self.record.get("note") or "")):
            return "supplement"
        return None

    @cached_property
    def parts(self) -> tuple[str, ...]:
        found = _PART.findall(self.title)
        last = _LAST_NUMBER.search(self.main_title)
        return tuple(found) + ((last.group(1),) if last else ())

    @cached_property
    def preprint(self) -> bool:
        if self.record.type in PUBLICATION_KINDS and self.venue_kind is not None:
            return False  # published, whatever preprint it names
        return self.record.type in PREPRINT_TYPES or "arxiv" in self.identifiers or \
            "preprint-doi" in self.identifiers or any(
                _PREPRINT_VENUE.match(fold(self.record.get(venue) or ""))
                for venue in ("container-title", "medium"))  # journal, howpublished

    @cached_property
    def venue_kind(self) -> str | None:
        """The kind of venue (``VENUE_KINDS``, ``main`` for any other), None without one or
        in a preprint server's."""
        venue = fold(self.record.get("container-title") or "")
        if not venue or _PREPRINT_VENUE.match(venue):
            return None
        match = _VENUE_KIND.search(venue)
        return VENUE_KINDS[match.group(1)] if match else "main"

    @cached_property
    def venue_words(self) -> tuple[str, ...]:
        """The venue's words of substance, in order, numbers aside (``5th``, ``2017``,
        ``Volume 1``): none in a preprint server's."""
        if self.venue_kind is None:
            return ()
        words = fold(self.record.get("container-title") or "").split()
        return tuple(w for w in words if w not in BBT_SKIP_WORDS and not _DIGITS.search(w))

    @cached_property
    def meeting(self) -> frozenset[str]:
        """The words (numbers aside) of the meeting a record with no venue was given at, as
        its note names it (``American Geophysical Union Fall Meeting 2019``), or none."""
        note = fold(self.record.get("note") or "")
        if self.record.get("container-title") or not _MEETING.search(note):
            return frozenset()
        return frozenset(w for w in note.split() if w not in BBT_SKIP_WORDS and
                         not _DIGITS.search(w))

    @cached_property
    def address(self) -> str | None:
        """The web address, without what does not tell two apart (``_ADDRESS_NOISE``)."""
        url = self.record.get("URL")
        if not url:
            return None
        return _ADDRESS_NOISE.sub("", _ADDRESS_MARKUP.sub("", url.strip())).rstrip("/").lower()

    @cached_property
    def people(self) -> tuple[Name, ...]:
        record = self.record
        return record.names.get("author") or record.names.get("editor") or ()


def _number(record: Record, variable: str) -> str | None:
    """The first number in a field (``2nd`` and ``Second`` are told apart by ``_edition``)."""
    value = record.get(variable)
    if value is None:
        return None
    digits = _DIGITS.search(value)
    return digits.group(0) if digits else fold(value)


#: Editions written in words -> their number.
_EDITION_WORDS: dict[str, str] = {
    "first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
    "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10",
}
#: What an edition field says that does not tell one edition from another.
_EDITION_NOISE: frozenset[str] = frozenset({"edition", "ed", "edn", "st", "nd", "rd", "th"})
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)\b")


#: An edition ending a title (folded): ``Computer Vision, 2nd Edition``, ``... Third Ed``.
_TITLE_EDITION = re.compile(r"\s(?:\d+(?:st|nd|rd|th)|" + "|".join(_EDITION_WORDS) +
                            r")\s(?:edition|edn|ed)$")


def _edition(value: str | None) -> str | None:
    """The edition as words that tell editions apart: ``2nd ed.`` and ``Second`` are ``2``,
    ``Second extended`` is ``2 extended``, ``Version 1.21`` is ``version 1 21``."""
    if value is None:
        return None
    words = _ORDINAL.sub(r"\1", fold(value)).split()
    return " ".join(_EDITION_WORDS.get(w, w) for w in words if w not in _EDITION_NOISE)


def _page_range(record: Record) -> tuple[int, int | None] | None:
    """The first page and, of a range of two numbers, the last (``1278--86`` ends at 1286);
    None without a page, or for a range that runs backwards (``47--1``: an article number
    typed into the pages), which says nothing."""
    numbers = _DIGITS.findall(record.get("page") or "")
    if len(numbers) != 2:
        return (int(numbers[0]), None) if numbers else None
    first, last = numbers
    last = first[:max(len(first) - len(last), 0)] + last
    return None if int(last) < int(first) else (int(first), int(last))


def _first_page(record: Record) -> int | None:
    pages = _page_range(record)
    return pages[0] if pages else None


def _page_count(record: Record) -> int | None:
    pages = _page_range(record)
    return pages[1] - pages[0] if pages and pages[1] is not None else None


def _both_differ(a: str | int | None, b: str | int | None) -> bool:
    return a is not None and b is not None and a != b


def _shared(a: Profile, b: Profile) -> list[str]:
    """The kinds of identifier the two records share a value of."""
    return [kind for kind, values in a.identifiers.items()
            if values & b.identifiers.get(kind, set())]


def _different_kinds(a: Profile, b: Profile) -> bool:
    if a.preprint or b.preprint:
        return False
    if "document" in (a.record.type, b.record.type) and _shared(a, b):
        return False  # a @misc says nothing of the kind of work its identifier names
    kind_a = TYPE_KINDS.get(a.record.type, a.record.type)
    kind_b = TYPE_KINDS.get(b.record.type, b.record.type)
    return kind_a != kind_b


def _different_identifiers(a: Profile, b: Profile) -> bool:
    """Two identifiers of the same kind with nothing in common."""
    ids_a, ids_b = a.identifiers, b.identifiers
    return any(kind in ids_b and not values & ids_b[kind] for kind, values in ids_a.items())


def _years_between(a: Profile, b: Profile) -> int:
    year_a, year_b = a.record.year, b.record.year
    return 0 if year_a is None or year_b is None else abs(year_a - year_b)


def _one_doi_and_title(a: Profile, b: Profile) -> bool:
    """One DOI of the work's own and one title: one work, however its pages or issue are
    given (online first and in its issue, an article number and its pages)."""
    return "doi" in _shared(a, b) and _same_title(a, b)


def _different_pages(a: Profile, b: Profile) -> bool:
    """Other first pages (not of a whole book: its length, by printing), unless two papers
    (``PUBLICATION_KINDS``, not chapters) have one title, all their authors and as many pages
    (one paper paginated in two printings: the open-access proceedings and the publisher's),
    or one DOI and title (``_one_doi_and_title``)."""
    if a.whole_book or b.whole_book or not _both_differ(_first_page(a.record),
                                                        _first_page(b.record)) or \
            _one_doi_and_title(a, b):
        return False
    count = _page_count(a.record)
    return not (a.record.type in PUBLICATION_KINDS and b.record.type in PUBLICATION_KINDS
                and count is not None and count == _page_count(b.record)
                and a.title == b.title and _all_people(a, b))


def _one_printing(a: Profile, b: Profile) -> bool:
    """The same volume and page range, both given: one paper's place in print."""
    pages = _page_range(a.record)
    return pages is not None and pages[1] is not None and pages == _page_range(b.record) \
        and _number(a.record, "volume") is not None and \
        _number(a.record, "volume") == _number(b.record, "volume")


def _lesser_venue(a: Profile, b: Profile) -> bool:
    """A paper in a conference's companion, workshop (``VENUE_KINDS``) ... and one in its
    proceedings or another lesser venue, unless both are at one place in print (one
    proceedings volume named in full and short: ``... International Workshops of ECML PKDD
    2019 ...`` and ``ECML PKDD 2019``)."""
    return _both_differ(a.venue_kind, b.venue_kind) and not _one_printing(a, b)


def _journal_version(a: Profile, b: Profile) -> bool:
    """A conference paper and a journal paper more than ``JOURNAL_VERSION_YEARS`` apart (a
    year apart is as often one paper typed wrongly, dated online and in print)."""
    kinds = {PUBLICATION_KINDS.get(p.record.type) for p in (a, b)}
    return kinds == {"conference", "journal"} and not (a.preprint or b.preprint) and \
        _years_between(a, b) > JOURNAL_VERSION_YEARS


def _other_editions(a: Profile, b: Profile) -> bool:
    """Two books years apart (more than ``BOOK_YEARS``) without an ISBN in common (an ISBN
    names an edition and its reprints; a book's DOI is copied to the entries of others)."""
    return a.whole_book and b.whole_book and _years_between(a, b) > BOOK_YEARS and \
        "isbn" not in _shared(a, b)


def _other_addresses(a: Profile, b: Profile) -> bool:
    """Two records published nowhere (no venue), one of a ``WEB_TYPES`` type, whose web
    addresses differ by more than a slip of one letter, and no identifier in common."""
    if not WEB_TYPES & {a.record.type, b.record.type} or a.record.get(
            "container-title") or b.record.get("container-title"):
        return False
    return a.address is not None and b.address is not None and not _one_edit(
        a.address, b.address) and not _shared(a, b)


#: What keeps two records apart however alike they are: name -> test of the two profiles.
BARRIERS: dict[str, Callable[[Profile, Profile], bool]] = {
    "different editions": lambda a, b: _both_differ(a.edition, b.edition),
    "editions years apart": _other_editions,
    "a conference's paper and its companion's or workshop's": _lesser_venue,
    "a conference paper and its journal version": _journal_version,
    "different web pages": _other_addresses,
    "talks at other meetings": lambda a, b: bool(a.meeting and b.meeting) and not (
        a.meeting <= b.meeting or b.meeting <= a.meeting),
    "different volumes": lambda a, b: a.whole_book and b.whole_book and _both_differ(
        _number(a.record, "volume"), _number(b.record, "volume")),
    "different parts": lambda a, b: a.parts != b.parts,
    "different chapters": lambda a, b: _both_differ(_number(a.record, "chapter-number"),
                                                    _number(b.record, "chapter-number")),
    "different pages": _different_pages,
    "different issues": lambda a, b: _number(a.record, "volume") == _number(
        b.record, "volume") and _both_differ(_number(a.record, "issue"), _number(
            b.record, "issue")) and not _one_doi_and_title(a, b),
    "a note about a work and another": lambda a, b: a.note != b.note,
    "different identifiers": _different_identifiers,
    "different kinds of work": _different_kinds,
}


def barrier(a: Profile, b: Profile) -> str | None:
    """Why ``a`` and ``b`` are two works however alike they look, or None."""
    return next((name for name, test in BARRIERS.items() if test(a, b)), None)


def _one_edit(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter changed, added, dropped or two swapped."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    start = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if len(a) == len(b):
        return a[start + 1:] == b[start + 1:] or (
            a[start:start + 2] == b[start:start + 2][::-1] and a[start + 2:] == b[start + 2:])
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return longer[start + 1:] == shorter[start:]


def _typos_only(a: str, b: str) -> bool:
    """The same words but for function words and typos: the same words of substance (three
    or more), or at most ``TYPOS`` of them spelt differently (five letters or more, one edit
    away: ``Calanus``/``Calunus``, ``problem``/``problems``), or, in a long title
    (``LONG_TITLE`` words of substance), a ``difflib`` ratio of ``LONG_TITLE_SIMILARITY``
    (``repertory``/``repertoire``)."""
    words_a = [w for w in a.split() if w not in BBT_SKIP_WORDS]
    words_b = [w for w in b.split() if w not in BBT_SKIP_WORDS]
    if min(len(words_a), len(words_b)) >= LONG_TITLE and difflib.SequenceMatcher(
            None, a, b, autojunk=False).ratio() >= LONG_TITLE_SIMILARITY:
        return True
    if len(words_a) != len(words_b) or len(words_a) < MIN_WORDS_FOR_TYPOS:
        return False
    differing = [(x, y) for x, y in zip(words_a, words_b) if x != y]
    return len(differing) <= TYPOS and all(
        min(len(x), len(y)) >= 5 and _one_edit(x, y) for x, y in differing)


def _same_title(a: Profile, b: Profile) -> bool:
    if not a.title or not b.title:
        return False
    if a.title == b.title or a.title.replace(" ", "") == b.title.replace(" ", ""):
        return True
    if a.main_title and (a.main_title == b.title or b.main_title == a.title):
        return len(a.main_title.split()) >= 3  # "Introduction" alone says too little
    if a.after_name == b.title or b.after_name == a.title:  # with and without its name
        return len(a.title.split()) >= 3 and len(b.title.split()) >= 3
    return _typos_only(a.title, b.title)


def _related_titles(a: Profile, b: Profile) -> bool:
    """Titles close enough for records that share an ISBN to be one book (a set's record
    lists the ISBNs of its volumes): one title, or one's main title within the other's."""
    if not a.title or not b.title or _same_title(a, b):
        return True
    main_a, main_b = (p.main_title.replace(" ", "") for p in (a, b))
    whole_a, whole_b = (p.title.replace(" ", "") for p in (a, b))
    return bool(main_a and main_b) and (main_a in whole_b or main_b in whole_a)


def _same_people(a: Profile, b: Profile) -> bool:
    people_a, people_b = a.people, b.people
    if not people_a or not people_b:
        return not people_a and not people_b
    if not same_person(people_a[0], people_b[0], initials_only=True):
        return False
    families_a = {family_key(p) for p in people_a}
    families_b = {family_key(p) for p in people_b}
    return len(families_a & families_b) * 2 >= min(len(families_a), len(families_b))


def _same_first_family(a: Profile, b: Profile) -> bool:
    """The first authors' family names agree, whatever their given names (garbled in one:
    ``Tobler, Author W R``)."""
    return bool(a.people and b.people) and family_key(a.people[0]) == family_key(b.people[0])


def _all_people(a: Profile, b: Profile) -> bool:
    """The same people, all of them and in order (initials for given names)."""
    return bool(a.people) and len(a.people) == len(b.people) and all(
        same_person(x, y, initials_only=True) for x, y in zip(a.people, b.people))


def _a_word_apart(a: Profile, b: Profile) -> bool:
    """Titles a word apart (one added, dropped or another: ``3 Expert Tips`` and ``Expert
    Tips``) in one place: the same web address (``IBM Softlayer`` and ``Softlayer``), or the
    same venue (folded) when the shorter title has ``A_WORD_APART_WORDS`` words or more
    (``Robust Optimization`` and ``Stochastic Optimization`` are two chapters of a book)."""
    words_a, words_b = a.title.split(), b.title.split()
    if not words_a or not words_b:
        return False
    venue_a = fold(a.record.get("container-title") or "")
    venue_b = fold(b.record.get("container-title") or "")
    if venue_a or venue_b:
        if venue_a != venue_b or min(len(words_a), len(words_b)) < A_WORD_APART_WORDS:
            return False
    elif a.address is None or a.address != b.address:
        return False
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    changed = [(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
               if tag != "equal"]
    return len(changed) <= 1 and all(max(sizes) <= 1 for sizes in changed)


def _venue_within(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """Whether each word of the venue ``short`` is a word of ``long`` or the initials of some
    of its words in a row (``Proceedings of the 54th Annual Meeting of the ACL`` holds
    ``Meeting of the ACL``; ``Advances in Neural Information Processing Systems`` holds
    ``NIPS``)."""
    words, initials = set(long), "".join(word[0] for word in long)
    return bool(short) and all(w in words or (len(w) >= 3 and w in initials) for w in short)


def _one_place(a: Profile, b: Profile) -> bool:
    """One venue (the words of one's name within the other's) or one page range."""
    if _venue_within(a.venue_words, b.venue_words) or _venue_within(b.venue_words,
                                                                     a.venue_words):
        return True
    pages = _page_range(a.record)
    return pages is not None and pages[1] is not None and pages == _page_range(b.record)


def _a_year_apart(a: Profile, b: Profile) -> bool:
    """One paper dated twice (``ONLINE_YEARS`` apart): the same title (``A_WORD_APART_WORDS``
    words or more) and authors (``_same_people``), one place (``_one_place``), no other
    volume."""
    return _years_between(a, b) == ONLINE_YEARS and len(a.title.split()) >= \
        A_WORD_APART_WORDS and _same_title(a, b) and _same_people(a, b) and _one_place(a, b) \
        and not _both_differ(_number(a.record, "volume"), _number(b.record, "volume"))


def _same_year(a: Profile, b: Profile) -> bool:
    """The same year, or within ``PREPRINT_YEARS`` of a preprint, ``BOOK_YEARS`` for two
    books; a year one record lacks agrees only when the titles are the same word for word."""
    year_a, year_b = a.record.year, b.record.year
    if year_a is None or year_b is None:
        return year_a == year_b or a.title == b.title
    if a.preprint != b.preprint:
        allowed = PREPRINT_YEARS
    else:  # a book's printing and its copyright year; an edition says when it is another
        allowed = BOOK_YEARS if a.whole_book and b.whole_book else 0
    return abs(year_a - year_b) <= allowed


def _parts_of_one_venue(a: Profile, b: Profile) -> bool:
    """Two records in one venue (its words the same) whose titles are not alike
    (``PARTS_TITLE_SIMILARITY``): two chapters of a book, two papers of an issue."""
    return bool(a.venue_words) and set(a.venue_words) == set(b.venue_words) and \
        not titles_alike(a.title, b.title, PARTS_TITLE_SIMILARITY)


def _far_apart(a: Profile, b: Profile) -> bool:
    """No author in common, or years further apart than a preprint's from its version."""
    year_a, year_b = a.record.year, b.record.year
    return not share_an_author(a.record, b.record) or (
        year_a is not None and year_b is not None and abs(year_a - year_b) > PREPRINT_YEARS)


def same_work(a: Profile, b: Profile) -> str | None:
    """Why ``a`` and ``b`` are the same work (``same DOI``, ``same title, year and
    authors``...), or None when they are not (or may not be)."""
    if barrier(a, b) is not None:
        return None
    shared = _shared(a, b)
    if shared and not _related_titles(a, b) and (shared == ["isbn"] or _far_apart(a, b) or
                                                 _parts_of_one_venue(a, b)):
        return None  # a set and its volume; an identifier pasted into the wrong entry, or
        # the identifier of a book or an issue pasted into its chapters or papers
    if shared:
        return "same " + ", ".join(_KIND_NAMES[kind] for kind in shared)
    if _same_title(a, b) and _same_year(a, b) and _same_people(a, b):
        return "same title, year and authors"
    if _a_word_apart(a, b) and a.record.year == b.record.year and _all_people(a, b):
        return "same venue, year and authors, a title a word apart"
    if _a_year_apart(a, b):
        return "same title, authors and venue, a year apart"
    if _same_title(a, b) and a.record.year == b.record.year and _one_printing(a, b) and \
            _same_first_family(a, b):
        return "same title, year, volume and pages"
    return None


_KIND_NAMES: dict[str, str] = {"doi": "DOI", "arxiv": "arXiv id", "isbn": "ISBN",
                               "preprint-doi": "preprint DOI"}


def titles_alike(a: str, b: str, similarity: float) -> bool:
    """Whether two folded titles are one by ``difflib``'s ratio (``merge``)."""
    if a == b:
        return True
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return matcher.real_quick_ratio() >= similarity and matcher.quick_ratio() >= similarity \
        and matcher.ratio() >= similarity


def compatible(a: Record, b: Record) -> bool:
    """Whether two records with alike titles may be one work (``merge``): no two different
    DOIs of their own (arXiv's DOIs aside), and an author in common (or a list missing)."""
    doi_a, doi_b = own_doi(a), own_doi(b)
    return (not doi_a or not doi_b or doi_a == doi_b) and share_an_author(a, b)


def title_similarity(a: str, b: str) -> float:
    """How alike two titles are once normalized (``normalize_title``), from 0.0 to 1.0
    (``enrich``, ``verify``)."""
    left, right = normalize_title(a), normalize_title(b)
    if not left or not right:
        return 0.0
    return _similarity(left, right)


@lru_cache(maxsize=NORMALIZED_REMEMBERED)
def _similarity(left: str, right: str) -> float:
    if left == right:
        return 1.0
    return difflib.SequenceMatcher(None, left, right, autojunk=False).ratio()
