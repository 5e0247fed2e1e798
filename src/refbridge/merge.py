"""Finding duplicate records across inputs and merging each set of duplicates into one record.

Two records are the same work when they share an identifier: a DOI, an arXiv identifier
(versions ignored; an arXiv DOI ``10.48550/arXiv.ID`` and Google Scholar's venue ``arXiv
preprint arXiv:ID`` count as the arXiv id) or a PMID; or else when their normalized titles
match and their years agree, allowing small differences in the title (punctuation, a typo, a
changed word in a long title) measured with ``difflib``'s ratio, unless their DOIs differ
(versions of a data set, a paper and its extended version) or their author lists share no
family name. Records are joined through indexes, never pair by pair: by each identifier, and
titles of a year by their rarest pairs of letters (``title_candidates``: only titles that may
reach the ratio are compared with ``difflib``, and every one that does is), so that tens of
thousands of records merge in seconds.

A merged record takes each value from the record that has it most completely and most
authoritatively: a complete author list before one cut short, the most precise date, the
published version's type, venue and date before a preprint's, and otherwise the source that
knows the work best (``AUTHORITY``: dblp, then ORCID and Crossref, OpenAlex and arXiv,
Semantic Scholar, a file of the user's, Google Scholar, a profile page), where a record's
source is the service its id names (``dblp:...``, ``orcid:...``). Each person of the chosen
name list is then written in the fullest form any list gives them: written-out given names over
the initials they expand (``Alexander N. Stillman`` over Scopus's ``A.N. Stillman``), with a
particle or suffix any form has; a person's identifiers are gathered from every list that names
them. Where each value came from is kept in ``extra`` as ``merge.<field>`` (``merge.author =
dblp:journals/pvldb/WangQZL21``; a list whose names were written out names those sources
too). Every source record is reported. This module must never drop a field that any duplicate
had without keeping one of its values, must never join two people's names, and must never read
or write files.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from refbridge.formats.profile import OWNER_EXTRA
from refbridge.model import Date, Eprint, Name, Record, Source
from refbridge.richtext import Text
from refbridge.sameness.ids import arxiv_id, normalized_doi
from refbridge.sameness.people import given_words, one_person, same_person, surname_of
from refbridge.sameness.text import fold
from refbridge.sameness.works import compatible, titles_alike

#: How many of their rarest bigrams two titles must share to be compared (when they are long
#: enough to be sure to share that many): more compares fewer pairs.
PREFIX_SHARED = 3

#: Smallest ``difflib.SequenceMatcher`` ratio between two normalized titles of the same year
#: that still counts as the same title (0.9 lets a typo or a changed article through, not a
#: different paper with a similar name).
TITLE_SIMILARITY = 0.9

#: Where a record's values came from: the service its id names (``dblp:...``), else a profile
#: page (it has an owner and no service), else a file -> how much its values are trusted.
AUTHORITY: dict[str, int] = {"dblp": 7, "orcid": 6, "crossref": 6, "openalex": 5, "arxiv": 5,
                             "s2": 4, "file": 3, "scholar": 2, "profile": 1}
#: CSL types that are not the published version of a work.
PREPRINT_TYPES: frozenset[str] = frozenset({"article"})
PROVENANCE_PREFIX = "merge."



@dataclass(frozen=True, slots=True)
class Merge:
    """One set of duplicates that became one record."""

    record: Record  #: the merged record
    merged: tuple[Record, ...]  #: the duplicates, in input order
    reason: str  #: why they are the same work: ``same DOI``, ``same arXiv id``, ``same PMID``,
    #: ``same title and year``, or several of these

    @property
    def sources(self) -> tuple[Source | None, ...]:
        return tuple(record.source for record in self.merged)


@dataclass(slots=True)
class MergeResult:
    """The records with duplicates merged (in the order of each set's first record)."""

    records: list[Record] = field(default_factory=list)
    merges: list[Merge] = field(default_factory=list)

    def describe(self) -> list[str]:
        """One line per merge: ``merged 2 records (same DOI): a.txt:3, b.json: Title``."""
        lines = []
        for merge in self.merges:
            where = ", ".join(str(source) if source else record.id
                              for record, source in zip(merge.merged, merge.sources))
            lines.append(f"merged {len(merge.merged)} records ({merge.reason}): {where}: "
                         f"{merge.record.title or merge.record.id}")
        return lines


class _Sets:
    """Union-find over record positions."""

    def __init__(self, size: int) -> None:
        self.parent = list(range(size))
        self.reasons: dict[int, dict[str, None]] = {}

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i: int, j: int, reason: str) -> None:
        root_i, root_j = sorted((self.find(i), self.find(j)))
        if root_i != root_j:
            self.parent[root_j] = root_i
            reasons = self.reasons.setdefault(root_i, {})
            reasons.update(self.reasons.pop(root_j, {}))
            reasons[reason] = None

    def reason(self, root: int) -> str:
        """Every reason that joined the set, in the order they were found."""
        return ", ".join(self.reasons.get(root, ()))


def _join_by_key(sets: _Sets, keys: Iterable[tuple[int, str | None]], reason: str) -> None:
    first: dict[str, int] = {}
    for position, key in keys:
        if key:
            sets.join(first.setdefault(key, position), position, reason)


def _bigrams(title: str) -> frozenset[str]:
    """The title's pairs of adjacent characters, each after its first also with how many
    came before (``ab``, ``ab1``...: the set counts a pair as often as the title has it)."""
    pairs = [title[start:start + 2] for start in range(len(title) - 1)]
    unique = frozenset(pairs)
    if len(unique) == len(pairs):
        return unique
    counts = Counter(pairs)
    return frozenset(pair + str(n) if n else pair
                     for pair, count in counts.items() for n in range(count))


@cache
def _shared_bigrams(length: int, other: int, similarity: float) -> int:
    """How many bigrams two titles of these lengths share at least when ``difflib``'s ratio
    of them reaches ``similarity``. The ratio counts characters matched in order, so at most
    ``(1 - similarity) * (length + other)`` characters are left out of either title or put
    in; each of these breaks at most two bigrams of a title."""
    edits = math.floor((1 - similarity) * (length + other) + 1e-9)
    return max(length, other) - 1 - 2 * edits


@cache
def _least_shared(length: int, similarity: float) -> int:
    """``_shared_bigrams`` for a title of ``length`` and the worst title as alike as
    ``similarity`` can be (its length such that ``real_quick_ratio`` lets the pair through)."""
    if similarity <= 0:
        return 0
    lengths = range(math.ceil(similarity * length / (2 - similarity) - 1e-9),
                    math.floor((2 - similarity) * length / similarity + 1e-9) + 1)
    return min((_shared_bigrams(length, other, similarity) for other in lengths), default=0)


def title_candidates(titles: Sequence[str], similarity: float) -> list[list[int]]:
    """For each title, the later ones (by position, ascending) that may be ``similarity``
    alike: every pair whose ratio reaches it is among them, and few others. The same title
    written again is a candidate; different ones are found by ``_alike_titles``."""
    positions: dict[str, list[int]] = {}
    for position, title in enumerate(titles):
        positions.setdefault(title, []).append(position)
    distinct = list(positions)
    alike: list[set[int]] = [set() for _ in distinct]
    for index, others in enumerate(_alike_titles(distinct, similarity)):
        alike[index].update(others)
        for other in others:
            alike[other].add(index)
    number = {title: index for index, title in enumerate(distinct)}
    candidates = []
    for position, title in enumerate(titles):
        index = number[title]
        candidates.append(sorted(other for each in (index, *alike[index])
                                 for other in positions[distinct[each]] if other > position))
    return candidates


def _alike_titles(titles: Sequence[str], similarity: float) -> list[list[int]]:
    """For each of the (different) titles, the later ones that may be ``similarity`` alike
    (prefix filtering). Alike titles share at least ``least`` bigrams (``_least_shared``);
    with the bigrams of every title in one order, rarest first, the first ``k`` they share
    are among the first ``count - least + k`` of each, so each title is indexed by those (``k``
    is ``PREFIX_SHARED``, or ``least`` when smaller), and a pair is a candidate when it
    shares the smaller ``k`` of the two there. A candidate also has a length
    ``real_quick_ratio`` lets through and shares as many bigrams in all as the two lengths
    need (``_shared_bigrams``). Sets of titles and of bigrams are bits of integers."""
    grams = [_bigrams(title) for title in titles]
    frequency = Counter(gram for tagged in grams for gram in tagged)
    number = {gram: index for index, gram in enumerate(
        sorted(frequency, key=lambda gram: (frequency[gram], gram)))}  # rarest first
    numbered = [sorted(number[gram] for gram in tagged) for tagged in grams]
    masks = [sum(1 << gram for gram in each) for each in numbered]
    postings: dict[int, int] = {}
    prefixes: list[list[int]] = []
    needed: list[int] = []
    with_needed = [0] * (PREFIX_SHARED + 1)  # titles by their k; 0: too short to tell
    for position, (title, each) in enumerate(zip(titles, numbered)):
        least = _least_shared(len(title), similarity)
        needed.append(max(0, min(PREFIX_SHARED, least)))
        with_needed[needed[-1]] |= 1 << position
        prefixes.append(each[:len(each) - least + needed[-1]] if needed[-1] else [])
        for gram in prefixes[-1]:
            postings[gram] = postings.get(gram, 0) | 1 << position
    at_least = [0] * (PREFIX_SHARED + 2)  # titles whose k is at least the index
    for k in range(PREFIX_SHARED, -1, -1):
        at_least[k] = at_least[k + 1] | with_needed[k]
    lengths: dict[int, int] = {}
    for position, title in enumerate(titles):
        lengths[len(title)] = lengths.get(len(title), 0) | 1 << position
    alike_lengths: dict[int, int] = {}
    candidates: list[list[int]] = []
    for position, (title, prefix) in enumerate(zip(titles, prefixes)):
        shared = [at_least[0]] + [0] * needed[position]  # titles sharing k prefix bigrams
        for gram in prefix:
            posting = postings[gram]
            for k in range(needed[position], 0, -1):
                shared[k] |= shared[k - 1] & posting
        found = with_needed[0] if needed[position] else at_least[0]
        for k in range(1, needed[position]):
            found |= shared[k] & with_needed[k]
        if needed[position]:
            found |= shared[needed[position]] & at_least[needed[position]]
        if len(title) not in alike_lengths:
            alike_lengths[len(title)] = _lengths_alike(len(title), similarity, lengths)
        found = (found & alike_lengths[len(title)]) >> position + 1
        later = []
        while found:
            low = found & -found
            other = position + low.bit_length()
            found ^= low
            if (masks[position] & masks[other]).bit_count() >= _shared_bigrams(
                    len(title), len(titles[other]), similarity):
                later.append(other)
        candidates.append(later)
    return candidates


def _lengths_alike(length: int, similarity: float, by_length: dict[int, int]) -> int:
    """The titles (bits of ``by_length``, by length) whose length ``real_quick_ratio``, as
    difflib computes it, lets through beside a title of ``length``."""
    found = 0
    for other, mask in by_length.items():
        if (2.0 * min(length, other) / (length + other) if length + other else 1.0) \
                >= similarity:
            found |= mask
    return found


def duplicate_sets(records: Sequence[Record], similarity: float = TITLE_SIMILARITY
                   ) -> list[tuple[list[int], str]]:
    """Positions of the records that are one work, set by set (sets of one included), with the
    reason for each set of several."""
    sets = _Sets(len(records))
    _join_by_key(sets, ((i, normalized_doi(r)) for i, r in enumerate(records)), "same DOI")
    _join_by_key(sets, ((i, arxiv_id(r)) for i, r in enumerate(records)), "same arXiv id")
    _join_by_key(sets, ((i, r.get("PMID")) for i, r in enumerate(records)), "same PMID")
    by_year: dict[int | None, list[tuple[int, str]]] = {}
    for position, record in enumerate(records):
        title = fold(record.title or "")
        if title:
            by_year.setdefault(record.year, []).append((position, title))
    for titled in by_year.values():
        titles = [title for _, title in titled]
        for index, later in enumerate(title_candidates(titles, similarity)):
            i = titled[index][0]
            for other in later:
                j = titled[other][0]
                if sets.find(i) != sets.find(j) and titles_alike(titles[index], titles[other],
                                                                similarity) \
                        and compatible(records[i], records[j]):
                    sets.join(i, j, "same title and year")
    groups: dict[int, list[int]] = {}
    for position in range(len(records)):
        groups.setdefault(sets.find(position), []).append(position)
    return [(members, sets.reason(root)) for root, members in groups.items()]


#: Schemes of record ids that name the work at its service (``dblp:journals/pvldb/X``).
SERVICE_IDS: frozenset[str] = frozenset({"dblp", "orcid", "crossref", "openalex", "arxiv",
                                         "s2"})


def origin(record: Record) -> str:
    """Where a record came from, for ``merge.<field>``: its id at its service, else the file
    and line it was read from."""
    if record.id.partition(":")[0] in SERVICE_IDS:
        return record.id
    return str(record.source) if record.source is not None else record.id


def authority(record: Record) -> int:
    """How much the source of ``record`` is trusted (``AUTHORITY``)."""
    scheme = record.id.partition(":")[0] if ":" in record.id else ""
    if scheme in AUTHORITY:
        return AUTHORITY[scheme]
    return AUTHORITY["profile" if OWNER_EXTRA in record.extra else "file"]


def _published(record: Record) -> bool:
    return record.type not in PREPRINT_TYPES


def _with_ids(people: tuple[Name, ...], others: Sequence[tuple[Name, ...]]
              ) -> tuple[Name, ...]:
    """``people`` with the identifiers other lists give the same persons."""
    completed = []
    for person in people:
        ids = dict.fromkeys(person.ids)
        for other in others:
            for namesake in other:
                if namesake.ids and same_person(person, namesake):
                    ids.update(dict.fromkeys(namesake.ids))
        completed.append(replace(person, ids=tuple(ids)) if len(ids) > len(person.ids)
                         else person)
    return tuple(completed)


def _fullness(name: Name) -> tuple[int, int, int]:
    """How completely a name is written: written-out given names, then given names."""
    words = given_words(name)
    return sum(len(word) > 1 for word in words), len(words), len(name.given or "")


#: Name parts the fullest form may lack and another form of the person has: taken from it
#: (a particle only when both put it in the same place: the same bare family name).
_KEPT_PARTS = ("dropping_particle", "non_dropping_particle", "suffix")


def _completed(person: Name, forms: dict[int, Name]) -> tuple[Name, set[int]]:
    """The fullest of ``person`` and its other ``forms`` (by the position of their lists),
    with the particles and suffix it lacks and another form has, and ``person``'s
    identifiers; the positions of the forms taken from."""
    chosen = [(None, person), *forms.items()]
    position, fullest = max(chosen, key=lambda item: _fullness(item[1]))  # person on ties
    kept: dict[str, Any] = {}
    taken = set() if position is None else {position}
    for part in _KEPT_PARTS:
        if getattr(fullest, part):
            continue
        for where, form in chosen:
            if getattr(form, part) and (part == "suffix" or form.family == fullest.family):
                kept[part] = getattr(form, part)
                taken |= set() if where is None else {where}
                break
    if not taken:
        return person, taken
    if kept:  # a part added: the spelling a .bib gave the fullest form is not the whole name
        kept["latex"] = None
    return replace(fullest, ids=person.ids, **kept), taken


def _fuller_names(people: tuple[Name, ...], others: Sequence[tuple[Name, ...]]
                  ) -> tuple[tuple[Name, ...], list[int]]:
    """``people`` each in the fullest form the ``others`` lists write them, with every
    particle and suffix a form has (a form counts when it is the only one of its list that is
    the person, and the person the only one of ``people`` it is), and the positions of the
    lists whose forms were taken."""
    by_surname: dict[str, list[Name]] = {}
    for person in people:
        by_surname.setdefault(surname_of(person), []).append(person)
    forms: list[dict[int, Name]] = [{} for _ in people]
    for position, other in enumerate(others):
        if other == people:  # the same names: nothing to write out
            continue
        other_by_surname: dict[str, list[Name]] = {}
        for namesake in other:
            other_by_surname.setdefault(surname_of(namesake), []).append(namesake)
        written = set(other)
        for index, person in enumerate(people):
            if person in written:  # written alike there: that list has nothing to add
                continue
            surname = surname_of(person)
            candidates = [n for n in other_by_surname.get(surname, ()) if one_person(n, person)]
            if len(candidates) == 1 and \
                    sum(one_person(candidates[0], p) for p in by_surname[surname]) == 1:
                forms[index][position] = candidates[0]
    fuller: list[Name] = []
    taken: set[int] = set()
    for person, found in zip(people, forms):
        name, used = _completed(person, found)
        fuller.append(name)
        taken |= used
    return tuple(fuller), sorted(taken)


def merge_records(duplicates: Sequence[Record]) -> Record:
    """One record from ``duplicates``: each value from the record that has it most completely
    and most authoritatively, its origin kept as ``merge.<field>``."""
    ranked = sorted(duplicates, key=lambda r: (_published(r), authority(r)), reverse=True)
    base = ranked[0]  # sorted is stable: input order breaks ties
    published = _published(base)

    def order(record: Record) -> tuple[bool, int]:
        return (_published(record) == published, authority(record))

    provenance: dict[str, str] = {"type": origin(base)}
    fields: dict[str, Text] = {}
    for variable in dict.fromkeys(v for record in duplicates for v in record.fields):
        holder = max((r for r in duplicates if variable in r.fields), key=order)
        fields[variable] = holder.fields[variable]
        provenance[variable] = origin(holder)
    names: dict[str, tuple[Name, ...]] = {}
    incomplete: set[str] = set()
    for role in dict.fromkeys(role for record in duplicates for role in record.names):
        holders = [r for r in duplicates if role in r.names]
        holder = max(holders, key=lambda r: (role not in r.incomplete_names, authority(r),
                                             len(r.names[role])))
        others = [r for r in holders if r is not holder]
        people = _with_ids(holder.names[role], [r.names[role] for r in others])
        names[role], taken = _fuller_names(people, [r.names[role] for r in others])
        provenance[role] = "; ".join([origin(holder), *(origin(others[i]) for i in taken)])
        if role in holder.incomplete_names:
            incomplete.add(role)
    dates: dict[str, Date] = {}
    for variable in dict.fromkeys(v for record in duplicates for v in record.dates):
        holder = max((r for r in duplicates if variable in r.dates),
                     key=lambda r: (order(r)[0], _precision(r.dates[variable]),
                                    authority(r)))
        dates[variable] = holder.dates[variable]
        provenance[variable] = origin(holder)
    extra: dict[str, str] = {}
    for record in sorted(duplicates, key=authority, reverse=True):
        for key, value in record.extra.items():
            extra.setdefault(key, value)
    extra.update({PROVENANCE_PREFIX + key: value for key, value in provenance.items()})
    keywords = tuple(dict.fromkeys(k for record in duplicates for k in record.keywords))
    citation_key = next((r.citation_key for r in duplicates if r.citation_key), None)
    return base.replace(fields=fields, names=names, dates=dates, keywords=keywords,
                        eprint=_merged_eprint(ranked), incomplete_names=frozenset(incomplete),
                        citation_key=citation_key, extra=extra)


def _merged_eprint(candidates: Sequence[Record]) -> Eprint | None:
    eprints = [r.eprint for r in candidates if r.eprint is not None]
    if not eprints:
        return None
    base = max(eprints, key=lambda e: (e.identifier is not None, e.primary_class is not None))
    cross_lists = tuple(dict.fromkeys(c for e in eprints for c in e.classes
                                      if c != base.primary_class))
    return Eprint(base.archive, base.identifier,
                  base.primary_class or next((e.primary_class for e in eprints
                                              if e.primary_class), None), cross_lists)


def _precision(date: Date) -> int:
    return len(date.start.as_list()) if date.start else 0


def deduplicate(records: Sequence[Record], similarity: float = TITLE_SIMILARITY) -> MergeResult:
    """``records`` with each set of duplicates merged into one, and what was merged."""
    result = MergeResult()
    for members, reason in duplicate_sets(records, similarity):
        duplicates = [records[i] for i in members]
        if len(duplicates) == 1:
            result.records.append(duplicates[0])
            continue
        merged = merge_records(duplicates)
        result.records.append(merged)
        result.merges.append(Merge(merged, tuple(duplicates), reason))
    return result
