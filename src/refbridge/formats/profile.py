"""Reader for author profile pages: plain-text scrapes that list one person's records.

A page has a header line (``arXiv subjects``), the owner's name, the line ``Publications and
source records attributed to NAME.``, an optional count line (``14 recordsLinked to original
sources``), then records, each: a source-and-year line (``arXiv2026``), the title, the abstract
(one or more paragraphs) and a subject line (``cs.DB↗``), separated by blank lines.

Each record becomes a preprint (CSL ``article``) whose author list holds only the owner and is
marked incomplete; arXiv records carry the subject as the eprint's primary class. Titles and
abstracts are decoded from LaTeX without losing a character. The reader must never invent data
the page does not show (no identifiers, no co-authors).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

from refbridge.arxiv_taxonomy import is_category
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.identifiers import clean_doi_field
from refbridge.latex.decode import decode_latex
from refbridge.model import Date, Eprint, ModelError, Name, Record, Source
from refbridge.names.reading import split_name
from refbridge.richtext import concat

ATTRIBUTION = catalogue.PROFILE_ATTRIBUTION
COUNT = re.compile(r"^(?P<count>\d+)\s*records?", re.IGNORECASE)
SOURCE_YEAR = re.compile(r"^(?P<source>[A-Za-z][A-Za-z .&'-]*?)\s*(?P<year>1[5-9]\d\d|2[01]\d\d)$")
SUBJECT_MARK = "↗"
SUBJECT = re.compile(r"^(?P<code>[A-Za-z][\w.-]*)\s*↗$")

#: The extra field that keeps whose profile a record came from (a CV highlights that person).
OWNER_EXTRA = "profile.owner"
#: The extra field that keeps the owner's identifiers, when the list knew them (an ORCID
#: record, a dblp person page): ``scheme:value`` separated by spaces (see
#: ``refbridge.names.ids``); a CV highlights the names that carry them.
OWNER_ID_EXTRA = "profile.owner-id"

#: Non-empty lines allowed before the attribution line (the header and the owner's name).
MAX_PREAMBLE_LINES = 2

#: What separates the paragraphs of an abstract.
PARAGRAPH_BREAK = "\n\n"
#: Sources whose subject codes are arXiv categories and whose records are arXiv preprints.
ARXIV_SOURCES: frozenset[str] = frozenset({"arxiv"})


@dataclass(slots=True)
class _Draft:
    """A record being collected, line by line."""

    source: str
    year: int
    line: int
    title: str | None = None
    paragraphs: list[list[str]] = field(default_factory=list)
    subjects: list[str] = field(default_factory=list)
    blank_before: bool = False

    def add_text(self, text: str) -> None:
        if self.title is None:
            self.title = text
        elif self.paragraphs and not self.blank_before:
            self.paragraphs[-1].append(text)
        else:
            self.paragraphs.append([text])


def _subjects_of(line: str) -> list[str] | None:
    """The subject codes of a subject line (``cs.DB↗`` or ``cs.DB↗ cs.LG↗``), else None."""
    if not line.endswith(SUBJECT_MARK):
        return None
    codes = [part.strip() for part in line.split(SUBJECT_MARK) if part.strip()]
    if codes and all(SUBJECT.match(code + SUBJECT_MARK) for code in codes):
        return codes
    return None


def _slug(text: str) -> str:
    return re.sub(r"[^\w]+", "-", text.lower()).strip("-") or "profile"


class ProfileReader(catalogue.CatalogueReader):
    name = "profile"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        lines = ((number, raw.strip()) for number, raw in enumerate(stream, start=1))
        owner, owner_line, expected, first = self._read_preamble(lines, source, diagnostics)
        author = split_name(owner)
        found = 0
        body = lines if first is None else _prepend(first, lines)
        for draft in self._drafts(body, source, diagnostics):
            record = self._record(draft, author, owner, found + 1, source, diagnostics)
            if record is not None:
                found += 1
                yield record
        if expected is not None and expected != found:
            diagnostics.warning(f"the page says it lists {expected} records but {found} were "
                                "found", source, owner_line)

    # -- preamble ------------------------------------------------------------------------
    def _read_preamble(self, lines: Iterator[tuple[int, str]], source: str,
                       diagnostics: Diagnostics
                       ) -> tuple[str, int, int | None, tuple[int, str] | None]:
        """The owner, the attribution line's number, the count the page states, and the first
        line of the records when the page has no count line."""
        seen: list[tuple[int, str]] = []
        for number, text in lines:
            if not text:
                continue
            match = ATTRIBUTION.match(text)
            if match:
                break
            seen.append((number, text))
            if len(seen) > MAX_PREAMBLE_LINES:
                raise ParseError(
                    "not a profile page: expected the line 'Publications and source records "
                    f"attributed to NAME.', found {text[:60]!r}", source, number)
        else:
            if not seen:
                raise ParseError("the file is empty: no profile page (nor any record) in it",
                                 source, 1)
            raise ParseError("not a profile page: no line 'Publications and source records "
                             "attributed to NAME.'", source, seen[-1][0])
        owner = match.group("owner").strip()
        if seen and seen[-1][1] != owner:
            diagnostics.warning(f"the name line {seen[-1][1]!r} differs from the attribution "
                                f"to {owner!r}; using {owner!r}", source, seen[-1][0])
        for count_number, text in lines:
            if not text:
                continue
            count = COUNT.match(text)
            if count:
                return owner, number, int(count.group("count")), None
            return owner, number, None, (count_number, text)
        return owner, number, None, None

    # -- records -------------------------------------------------------------------------
    def _drafts(self, lines: Iterator[tuple[int, str]], source: str,
                diagnostics: Diagnostics) -> Iterator[_Draft]:
        draft: _Draft | None = None
        skipping_from: int | None = None
        blank = False
        for number, text in lines:
            if not text:
                blank = True
                continue
            head = SOURCE_YEAR.match(text)
            starts_record = head is not None and (draft is None or draft.title is not None)
            if starts_record and head is not None:
                if draft is not None:
                    yield draft
                draft = _Draft(head.group("source").strip(), int(head.group("year")), number)
                skipping_from = None
            elif draft is None:
                if skipping_from is None:
                    skipping_from = number
                    diagnostics.error("expected a source and year such as 'arXiv2026', found "
                                      f"{text[:60]!r}; skipped up to the next record", source,
                                      number)
            else:
                subjects = _subjects_of(text) if draft.title is not None else None
                if subjects is not None:
                    draft.subjects.extend(subjects)
                else:
                    draft.blank_before = blank
                    draft.add_text(text)
            blank = False
        if draft is not None:
            yield draft

    def _record(self, draft: _Draft, author: Name, owner: str, index: int, source: str,
                diagnostics: Diagnostics) -> Record | None:
        if draft.title is None:
            diagnostics.error(f"record {draft.source}{draft.year} has no title", source,
                              draft.line)
            return None
        fields = {"title": decode_latex(draft.title, prose=True)}
        if draft.paragraphs:
            paragraphs = [decode_latex(" ".join(lines), prose=True) for lines in draft.paragraphs]
            fields["abstract"] = concat(*(piece for index, paragraph in enumerate(paragraphs)
                                          for piece in ((PARAGRAPH_BREAK, paragraph) if index
                                                        else (paragraph,))))
        is_arxiv = draft.source.lower() in ARXIV_SOURCES
        eprint: Eprint | None = None
        keywords: tuple[str, ...] = ()
        extra: dict[str, str] = {OWNER_EXTRA: owner}
        if is_arxiv:
            for code in draft.subjects:
                if not is_category(code):
                    diagnostics.warning(f"{code!r} is not an arXiv category", source,
                                        draft.line)
            primary = draft.subjects[0] if draft.subjects else None
            eprint = Eprint("arXiv", primary_class=primary, cross_lists=tuple(draft.subjects[1:]))
        else:
            keywords = tuple(draft.subjects)
            extra["profile.source"] = draft.source
        try:
            clean_doi_field(fields)
            return Record(
                id=f"{_slug(owner)}-{index}",
                type="article",
                fields=fields,
                names={"author": (author,)},
                dates={"issued": Date.of(draft.year)},
                keywords=keywords,
                eprint=eprint,
                incomplete_names=frozenset({"author"}),
                extra=extra,
                source=Source(source, draft.line),
            )
        except ModelError as exc:
            diagnostics.error(str(exc), source, draft.line)
            return None


def _prepend(first: tuple[int, str], rest: Iterator[tuple[int, str]]
             ) -> Iterator[tuple[int, str]]:
    yield first
    yield from rest


READER = ProfileReader()
