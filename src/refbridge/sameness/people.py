"""Whether two names are one person's, as the jobs that compare records need it.

A name is compared by its family part (particles included, or its literal form) folded to
ASCII letters (``van der Berg`` however the particle is split off), and by its given names:
written out or as initials (``D. E.`` and ``Donald Ervin`` agree as far as both go).
``same_person`` answers for ``enrich``, ``verify`` and ``merge``'s identifiers of people (given
names written out must agree; the same words in another order are one name) and, with
``initials_only``, for ``dedupe`` (initials alone decide); ``expands`` says that one name
writes out another (``merge``'s fullest form); ``share_an_author`` that two author lists name
a person in common. This module must never change a name nor join two people by a family name
alone when both give different written-out given names (unless ``initials_only``).
"""

from __future__ import annotations

from functools import lru_cache

from refbridge.model import Name, Record
from refbridge.sameness.text import fold, normalize_title

#: How many names' folded parts are remembered (a merge compares each name many times).
NAMES_REMEMBERED = 8192


@lru_cache(maxsize=NAMES_REMEMBERED)
def family_key(name: Name) -> str:
    """A name's family part (particles included, or its literal form) as one ASCII word:
    ``van der Berg`` however the particle is split off."""
    return fold(" ".join(p for p in (name.non_dropping_particle, name.family or name.literal)
                         if p)).replace(" ", "")


def _name_keys(name: Name) -> set[str]:
    """How a name may appear in another list: its identifiers, its family name, and its
    letters in either order (``Zhengping Qian`` is ``钱正平``: both fold to qianzhengping)."""
    family = family_key(name)
    given = fold(name.given or "").replace(" ", "")
    return {*name.ids, family, family + given, given + family} - {""}


def share_an_author(a: Record, b: Record) -> bool:
    """Whether the author lists share a person (or either has none)."""
    keys = [set().union(*(_name_keys(n) for n in r.authors)) for r in (a, b)]
    return not keys[0] or not keys[1] or bool(keys[0] & keys[1])


def _written_family(name: Name) -> str:
    return normalize_title(" ".join(p for p in (name.non_dropping_particle, name.family)
                                    if p) or (name.literal or ""))


def _initials(words: str) -> str:
    return "".join(word[0] for word in words.split())


def _is_initials(given: str) -> bool:
    return all(len(word) == 1 for word in normalize_title(given).split())


def same_person(a: Name, b: Name, *, initials_only: bool = False) -> bool:
    """Whether ``a`` and ``b`` name one person.

    By default: the same family name and compatible given names (``Z. Qian`` and ``Zhengping
    Qian``; written-out given names must be the same), or the same words in another order
    (``Qian Zhengping`` and ``Zhengping Qian``); TeX commands are set aside. With
    ``initials_only`` (``dedupe``): the same family name as one folded word, and given names
    whose initials agree as far as both go (``D. E.`` is ``Donald Ervin``, and ``John`` is
    ``Jane``)."""
    if initials_only:
        family = family_key(a)
        if family != family_key(b) or not family:
            return False
        initials_a, initials_b = _initials(fold(a.given or "")), _initials(fold(b.given or ""))
        return initials_a.startswith(initials_b) or initials_b.startswith(initials_a)
    family_a, family_b = _written_family(a), _written_family(b)
    words_a = frozenset(normalize_title(a.display()).split())
    if words_a and words_a == frozenset(normalize_title(b.display()).split()):
        return True
    if not family_a or family_a != family_b:
        return False
    given_a, given_b = normalize_title(a.given or ""), normalize_title(b.given or "")
    if not given_a or not given_b or given_a == given_b:
        return True
    if _is_initials(a.given or "") or _is_initials(b.given or ""):
        short, long_ = sorted((_initials(given_a), _initials(given_b)), key=len)
        return long_.startswith(short)
    return False


@lru_cache(maxsize=NAMES_REMEMBERED)
def given_words(name: Name) -> tuple[str, ...]:
    """A name's given names as folded words."""
    return tuple(fold(name.given or "").split())


@lru_cache(maxsize=NAMES_REMEMBERED)
def surname_of(name: Name) -> str:
    """The last word of a name's family part: what two forms of one person share."""
    words = fold(name.family or name.literal or "").split()
    return words[-1] if words else ""


def _same_family(a: Name, b: Name) -> bool:
    """The same family part, or the same family name where one of them leaves out the
    particle (``van der Berg`` and ``Berg``)."""
    return family_key(a) == family_key(b) or (
        not (a.non_dropping_particle and b.non_dropping_particle)
        and fold(a.family or "") == fold(b.family or ""))


def expands(full: Name, short: Name) -> bool:
    """Whether ``full`` writes out the person ``short`` names: the same family name, and each
    of ``short``'s given names the same word or its initial at the same place in ``full``'s
    (``Alexander N. Stillman`` expands ``A.N. Stillman`` and ``A. Stillman``, not
    ``Alex Stillman`` nor ``N. Stillman``)."""
    if full.literal is not None or short.literal is not None or not _same_family(full, short):
        return False
    words, full_words = given_words(short), given_words(full)
    return len(full_words) >= len(words) and all(
        word == full_word or (len(word) == 1 and full_word.startswith(word))
        for word, full_word in zip(words, full_words))


def one_person(a: Name, b: Name) -> bool:
    """Whether one of two names writes out the other (or they are written alike)."""
    return expands(a, b) or expands(b, a)
