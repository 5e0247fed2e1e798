"""Citation keys from a pattern, in the spirit of JabRef and Better BibTeX.

A pattern is literal text with fields in brackets, each with optional ``:modifiers``::

    [auth:lower][year][shorttitle:1:lower]      ->  qian2026specdb   (the default, as Google
                                                     Scholar makes them)
    [authors2][year]                            ->  QianYang2026
    [auth][shortyear]_[title:3]                 ->  Qian26_SpecDBLLMGenerated

Fields: ``auth`` (first author's family name; editor when there is no author), ``authors``
(every family name; ``authorsN``: the first N, then ``EtAl``), ``authini`` (first author's
initials), ``year``, ``shortyear``, ``title`` (every significant word, capitalised),
``shorttitle`` (the first three significant words), ``veryshorttitle`` (the first one),
``firstpage``, ``lastpage``, ``type``, ``keywords``/``keywordsN``/``keywordN``, and JabRef's
name and title fields (``authEtAl``, ``auth.etal``, ``auth.auth.ea``, ``authshort``, ``authN``,
``authN_M``, ``authIniN``, ``authForeIni``, ``authFirstFull``, ``authorLast``,
``authorLastForeIni``, ``authorIni``, ``camel``, ``shorttitleINI``) and Better BibTeX's
``shorttitleN_M`` (N words that are not its ``skipWords``, the first M capitalised).
Modifiers: a number N (words of a title field), ``lower``, ``upper``, ``capitalize``,
``titlecase``, ``sentencecase``, ``truncateN``, ``abbr``, ``regex("pattern", "replacement")``
and ``(fallback)`` (a pattern for an empty field). A pattern that starts with ``jabref:`` gives
its fields JabRef's meaning where it differs (``ö`` -> ``oe``; titles keep the case of their
words; an institution is abbreviated; JabRef's unwanted characters ``-:!;?^$`` are taken out;
any case of JabRef's other field names: ``[YEAR]``, ``[journal]``); a Better BibTeX formula
(``auth.lower + shorttitle(3,3) + year``) is read as the bracket pattern it stands for, with
Better BibTeX's meaning of its fields (a name's dash kept, a hyphenated title word one word,
words of one letter skipped, German spelt by the record's language), as is a bracket pattern
that starts with ``bbt:``.

Keys are ASCII (``Łukasz`` -> ``Lukasz``) letters, digits and the pattern's own punctuation.
They are unique: records whose keys collide get ``a``, ``b``, ``c`` ... in an order that depends
on the records only, so the same record gets the same key whatever the order of the input. Keys
read from an input are kept unless regeneration is asked for; a key read twice stays with the
first record and the others get it with a suffix (``knuth84``, ``knuth84a``). A key read from
an input that the output format cannot hold (``KeyBook``'s ``unsafe``: a line break in a
line-based format) has each character it cannot hold replaced by ``-``, and a suffix when that
key is taken: the caller reports each such change. With a key lock (``refbridge.keylock``), a
record that needs a key gets the one the lock gives its work, and a key made for a work is filed
in the lock; a key the lock gives one work is never made for another. ``KeyBook`` decides them
for a stream: it holds the keys in use and a short summary of each record that needs one, never
the records themselves, so a conversion can stream its records through. This module must never
change a record other than its ``citation_key``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from itertools import count, product
from string import ascii_lowercase
from typing import TYPE_CHECKING

from refbridge.model import Name, Record
from refbridge.names.institutions import institution_key, institution_name

if TYPE_CHECKING:
    from refbridge.keylock import KeyLock

DEFAULT_PATTERN = "[auth:lower][year][shorttitle:1:lower]"

#: Words a short title skips, as Google Scholar and Better BibTeX do.
STOP_WORDS: frozenset[str] = frozenset(
    ["a", "an", "the", "of", "on", "in", "at", "to", "for", "and", "or", "but", "nor", "with", "from", "by", "as", "via", "into", "onto", "over", "under", "about", "after", "before", "between", "through", "during", "without", "within", "is", "are", "be"]
)

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_NON_KEY = re.compile(r"[^A-Za-z0-9]")

#: What a key cannot hold where it is the value of one line (a tagged format's tag, a line of
#: Zotero's Extra): a line break, or white space at either end (readers strip it).
_LINE_UNSAFE = r"[\r\n]|^\s+|\s+$"
#: What a key cannot hold in XML 1.0: control characters other than tab, line feed and
#: carriage return (written as character references), and the non-characters U+FFFE, U+FFFF.
_XML_UNSAFE = r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"
#: The characters of a key that a writer's format cannot hold (a writer's ``key_unsafe``).
LINE_KEY_UNSAFE = re.compile(_LINE_UNSAFE)
XML_KEY_UNSAFE = re.compile(_XML_UNSAFE)
LINE_XML_KEY_UNSAFE = re.compile(f"{_LINE_UNSAFE}|{_XML_UNSAFE}")


class PatternError(ValueError):
    """A citation-key pattern that cannot be used."""


#: Texts whose ASCII form is remembered: bounded, since a whole dump's titles are all new.
ASCII_REMEMBERED = 1 << 14


@lru_cache(maxsize=ASCII_REMEMBERED)
def _ascii(text: str) -> str:
    if text.isascii():  # most names and titles: anyascii not even loaded
        return text
    from anyascii import anyascii

    return str(anyascii(text))


def _clean(text: str) -> str:
    return _NON_KEY.sub("", _ascii(text))


def _family(name: Name) -> str:
    return name.literal if name.literal is not None else (name.family or name.given or "")


def _creators(record: Record) -> tuple[Name, ...]:
    return record.names.get("author") or record.names.get("editor") or ()


def _title_words(record: Record) -> list[str]:
    words = [w for w in _WORD.findall(_ascii(record.title or ""))]
    significant = [w for w in words if w.lower() not in STOP_WORDS]
    return [_clean(w) for w in significant or words if _clean(w)]


def _capitalised(words: Iterable[str]) -> str:
    return "".join(w[:1].upper() + w[1:] for w in words)


def _auth(record: Record, n: int | None) -> str:
    people = _creators(record)
    return _clean(_family(people[0])) if people else ""


def _authors(record: Record, n: int | None) -> str:
    people = _creators(record)
    shown = people if n is None else people[:n]
    text = "".join(_clean(_family(p)) for p in shown)
    more = len(people) > len(shown) or "author" in record.incomplete_names
    return text + ("EtAl" if more and text else "")


def _authini(record: Record, n: int | None) -> str:
    people = _creators(record)
    if not people or people[0].literal is not None:
        return _auth(record, n)
    first = people[0]
    initials = "".join(_clean(part)[:1] for part in (first.given or "").split())
    return initials + _clean(first.family or "")


def _year(record: Record, n: int | None) -> str:
    return str(record.year) if record.year is not None else ""


def _shortyear(record: Record, n: int | None) -> str:
    return _year(record, n)[-2:]


def _title(record: Record, n: int | None) -> str:
    words = _title_words(record)
    return _capitalised(words if n is None else words[:n])


def _shorttitle(record: Record, n: int | None) -> str:
    return _capitalised(_title_words(record)[: 3 if n is None else n])


def _veryshorttitle(record: Record, n: int | None) -> str:
    return _capitalised(_title_words(record)[: 1 if n is None else n])


def _firstpage(record: Record, n: int | None) -> str:
    page = record.get("page-first") or record.get("page") or ""
    match = re.match(r"[A-Za-z]*\d+", page)
    return match.group(0) if match else ""


def _type(record: Record, n: int | None) -> str:
    return _clean(record.type)


def _last_name(name: Name) -> str:
    """The family name without its particles (JabRef's ``[auth]``: ``van der Aalst`` ->
    ``Aalst``)."""
    return name.literal if name.literal is not None else (name.family or name.given or "")


def _spelt_last(name: Name, fold: Callable[[str], str]) -> str:
    """The last name as a key spells it; under JabRef's spelling (``fold`` is
    ``_jabref_ascii``) an institution's name is abbreviated as JabRef does (``UniLinkoeping``,
    ``MIT``)."""
    institution = institution_name(name) if fold is _jabref_ascii else None
    if institution is not None:
        return institution_key(institution, name.latex, fold)
    return fold(_last_name(name))


def _lasts(record: Record, fold: Callable[[str], str]) -> list[str]:
    return [_NON_KEY.sub("", _spelt_last(p, fold)) for p in _creators(record)]


def _given_initial(name: Name, fold: Callable[[str], str]) -> str:
    return _NON_KEY.sub("", fold(name.given or ""))[:1]


#: What JabRef writes for the letters it spells out rather than folds (``Köning`` ->
#: ``Koening``).
JABREF_LETTERS: dict[str, str] = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe",
                                  "Ü": "Ue", "ß": "ss"}


def _jabref_ascii(text: str) -> str:
    return _ascii("".join(JABREF_LETTERS.get(c, c) for c in text))


#: JabRef's small words: a short title skips them, a title writes them in lower case
#: (``org.jabref.logic.formatter.casechanger.Word``).
JABREF_SMALL_WORDS: frozenset[str] = frozenset(
    ["a", "an", "the", "above", "about", "across", "against", "along", "among", "around", "at", "before", "behind", "below", "beneath", "beside", "between", "beyond", "by", "down", "during", "except", "for", "from", "in", "inside", "into", "like", "near", "of", "off", "on", "onto", "since", "to", "toward", "through", "under", "until", "up", "upon", "with", "within", "without", "and", "but", "nor", "or", "so", "yet"])
#: Better BibTeX's ``skipWords`` (its default preference): words ``shorttitle`` passes over.
BBT_SKIP_WORDS: frozenset[str] = frozenset(
    ["a", "ab", "aboard", "about", "above", "across", "after", "against", "al", "along", "amid", "among", "an", "and", "anti", "around", "as", "at", "before", "behind", "below", "beneath", "beside", "besides", "between", "beyond", "but", "by", "d", "da", "das", "de", "del", "dell", "dello", "dei", "degli", "della", "delle", "dem", "den", "der", "des", "despite", "die", "do", "down", "du", "during", "ein", "eine", "einem", "einen", "einer", "eines", "el", "en", "et", "except", "for", "from", "gli", "i", "il", "in", "inside", "into", "is", "l", "la", "las", "le", "les", "like", "lo", "los", "near", "nor", "of", "off", "on", "onto", "or", "over", "past", "per", "plus", "round", "save", "since", "so", "some", "sur", "than", "the", "through", "to", "toward", "towards", "un", "una", "unas", "under", "underneath", "une", "unlike", "uno", "unos", "until", "up", "upon", "versus", "via", "von", "while", "with", "within", "without", "yet", "zu", "zum"])
#: Where JabRef splits a title into words: white space and dashes.
_JABREF_SPLIT = re.compile(r"[\s\-\u2010-\u2015]+")


def _jabref_words(record: Record) -> list[str]:
    """The title's words as JabRef splits them, braces and what no key holds dropped."""
    words = _JABREF_SPLIT.split(_jabref_ascii(record.title or ""))
    return [w for w in (re.sub(r"[^A-Za-z0-9:]", "", word) for word in words) if w]


def _small(word: str) -> bool:
    return word.rstrip(":").lower() in JABREF_SMALL_WORDS


def _upper_first(word: str) -> str:
    return word[:1].upper() + word[1:]


def _jabref_title(record: Record, n: int | None) -> str:
    words = _jabref_words(record)
    return " ".join(_upper_first(w) if i == 0 or not _small(w) or w.endswith(":")
                    else w.lower() for i, w in enumerate(words))


def _jabref_shorttitle(record: Record, n: int | None) -> str:
    words = [w for w in _jabref_words(record) if not _small(w)]
    return " ".join(words[: 3 if n is None else n])


def _jabref_veryshorttitle(record: Record, n: int | None) -> str:
    return _jabref_shorttitle(record, 1 if n is None else n)


def _jabref_shorttitle_initials(record: Record, n: int | None) -> str:
    return "".join(w[:1] for w in _jabref_words(record)[: 3 if n is None else n])


def _camel(record: Record, n: int | None) -> str:
    return "".join(_upper_first(re.sub(r"[^A-Za-z0-9]", "", w)) for w in _jabref_words(record))


#: Better BibTeX's German transliteration, for a record in German (``language`` ``de``,
#: ``de-AT``, ``german`` ...): ``ü`` -> ``ue`` before the letters are folded.
BBT_GERMAN_LETTERS: dict[str, str] = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe",
                                      "Ü": "Ue"}
_GERMAN = re.compile(r"(?i)(de|deu|ger|german|ngerman|austrian|naustrian|swissgerman"
                     r"|nswissgerman)(?![a-z])")


def _bbt_fold(record: Record) -> Callable[[str], str]:
    """How Better BibTeX folds the letters of ``record``'s names and title: by its language."""
    if _GERMAN.match(record.get("language") or ""):
        return lambda text: _ascii("".join(BBT_GERMAN_LETTERS.get(c, c)
                                           for c in unicodedata.normalize("NFC", text)))
    return _ascii


#: What is no part of a word at either end of it (``<\input`` -> ``input``, ``§`` -> nothing).
_BBT_WORD_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
#: Punctuation Better BibTeX's ``nopunct`` takes out of a title's words (dashes too).
_BBT_PUNCTUATION = frozenset(["Pd", "Pe", "Pf", "Pi", "Po", "Ps"])


def _bbt_title_words(record: Record) -> list[str]:
    """The title's words as Better BibTeX's ``shorttitle`` reads them: split at white space,
    ``/`` and ``:`` (a hyphenated word is one: ``Actor-Critic`` -> ``ActorCritic``), without
    the signs at their ends and their punctuation, the ``skipWords`` and the words of one
    letter or sign (a number of one digit is kept), folded by the record's language."""
    title = re.sub(r"(?i)</?(?:i|b|sc|nc|code|span[^>]*)>|\"", "", record.title or "")
    fold = _bbt_fold(record)
    words = ("".join(c for c in word if unicodedata.category(c) not in _BBT_PUNCTUATION)
             for word in (_BBT_WORD_EDGES.sub("", token)
                          for token in re.split(r"[\s/:]+", title)))
    return [fold(word) for word in words
            if word and (len(word) > 1 or word.isdigit()) and word.lower() not in BBT_SKIP_WORDS]


def _bbt_shorttitle(record: Record, words: int, capitalised: int) -> str:
    """Better BibTeX's ``shorttitle(words, capitalised)``: the first ``words`` words of the
    title, the first ``capitalised`` of them with a capital first letter (the others as
    written)."""
    return "".join(w[:1].upper() + w[1:] if i < capitalised else w
                   for i, w in enumerate(_bbt_title_words(record)[:words]))


def _bbt_auth(record: Record, n: int | None) -> str:
    """Better BibTeX's ``auth``: the first author's (else editor's) last name as written,
    folded by the record's language (its ``-`` and ``.`` kept)."""
    people = _creators(record)
    return _bbt_fold(record)(_family(people[0])) if people else ""


#: How Better BibTeX's date parser reads a date Zotero keeps as written, for its ``year``:
#: (form, what ``year`` gives). An EDTF century (``20``) is ``20xx``, a month and a two-digit
#: year (``03/04``) its year as written; any other text is kept as written (``verbatim``).
BBT_LITERAL_YEARS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(\d{2})$"), r"\1xx"),
    (re.compile(r"^\d{1,2}[/.-](\d{2})$"), r"\1"),
)


def _bbt_year(record: Record, n: int | None) -> str:
    """Better BibTeX's ``year``: the year padded to two digits (``4`` -> ``04``); of a date
    kept as written, what its parser makes of the text (``BBT_LITERAL_YEARS``)."""
    issued = record.dates.get("issued")
    if issued is None:
        return ""
    if issued.year is not None:
        return f"{issued.year:02d}" if issued.year >= 0 else str(issued.year)
    literal = (issued.literal or "").strip()
    for form, year in BBT_LITERAL_YEARS:
        if form.match(literal):
            return form.sub(year, literal)
    return literal


def _auth_etal(record: Record, n: int | None, fold: Callable[[str], str],
               separator: str, more: str, two_before_more: bool) -> str:
    """JabRef's ``[authEtAl]`` (``separator`` ``""``, ``more`` ``EtAl``), ``[auth.etal]``
    and ``[auth.auth.ea]`` (two names before ``.ea``)."""
    names = _lasts(record, fold)
    if len(names) <= 2:
        return separator.join(names)
    return separator.join(names[:2 if two_before_more else 1]) + more


def _authshort(record: Record, n: int | None, fold: Callable[[str], str]) -> str:
    names = _lasts(record, fold)
    if len(names) == 1:
        return names[0]
    return "".join(name[:1] for name in names[:3]) + ("+" if len(names) > 3 else "")


def _auth_chars(record: Record, chars: int, fold: Callable[[str], str]) -> str:
    names = _lasts(record, fold)
    return names[0][:chars] if names else ""


def _auth_n_m(record: Record, chars: int, which: int, fold: Callable[[str], str]) -> str:
    names = _lasts(record, fold)
    return names[which - 1][:chars] if 0 < which <= len(names) else ""


def _auth_ini_n(record: Record, chars: int, fold: Callable[[str], str]) -> str:
    """JabRef's ``[authIniN]``: ``N`` letters shared among the authors' last names, the
    first ones getting what does not divide evenly."""
    names = _lasts(record, fold)
    if not names or chars <= 0:
        return ""
    if len(names) > chars:
        return "".join(name[:1] for name in names[:chars])
    each, extra = divmod(chars, len(names))
    return "".join(name[:each + (i < extra)] for i, name in enumerate(names))


def _auth_fore_ini(record: Record, n: int | None, fold: Callable[[str], str]) -> str:
    people = _creators(record)
    return _given_initial(people[0], fold) if people else ""


def _auth_first_full(record: Record, n: int | None, fold: Callable[[str], str]) -> str:
    """The first author's particles and last name (``van der Aalst`` -> ``vanderAalst``)."""
    people = _creators(record)
    if not people:
        return ""
    first = people[0]
    return _NON_KEY.sub("", fold(" ".join(p for p in (first.non_dropping_particle,
                                                      _family(first)) if p)))


def _author_last(record: Record, n: int | None, fold: Callable[[str], str]) -> str:
    names = _lasts(record, fold)
    return names[-1] if names else ""


def _author_last_fore_ini(record: Record, n: int | None, fold: Callable[[str], str]) -> str:
    people = _creators(record)
    return _given_initial(people[-1], fold) if people else ""


def _author_ini(record: Record, n: int | None, fold: Callable[[str], str]) -> str:
    names = _lasts(record, fold)
    return names[0][:5] + "".join(name[:1] for name in names[1:]) if names else ""


def _lastpage(record: Record, n: int | None) -> str:
    numbers = re.findall(r"\d+", record.get("page") or "")
    return str(max(int(number) for number in numbers)) if numbers else ""


def _keyword(record: Record, n: int | None) -> str:
    keywords = record.keywords
    return keywords[n - 1] if n is not None and 0 < n <= len(keywords) else ""


def _keywords(record: Record, n: int | None) -> str:
    return " ".join(record.keywords if n is None else record.keywords[:n])


Field = Callable[[Record, int | None], str]


def _name_fields(fold: Callable[[str], str]) -> dict[str, Field]:
    """The fields of names that JabRef and refbridge share, with letters folded by ``fold``."""
    return {
        "authEtAl": partial(_auth_etal, fold=fold, separator="", more="EtAl",
                            two_before_more=False),
        "auth.etal": partial(_auth_etal, fold=fold, separator=".", more=".etal",
                             two_before_more=False),
        "auth.auth.ea": partial(_auth_etal, fold=fold, separator=".", more=".ea",
                                two_before_more=True),
        "authshort": partial(_authshort, fold=fold),
        "authForeIni": partial(_auth_fore_ini, fold=fold),
        "authFirstFull": partial(_auth_first_full, fold=fold),
        "authorLast": partial(_author_last, fold=fold),
        "authorLastForeIni": partial(_author_last_fore_ini, fold=fold),
        "authorIni": partial(_author_ini, fold=fold),
    }


FIELDS: dict[str, Field] = {
    "auth": _auth,
    "authors": _authors,
    "authini": _authini,
    "year": _year,
    "shortyear": _shortyear,
    "title": _title,
    "shorttitle": _shorttitle,
    "veryshorttitle": _veryshorttitle,
    "firstpage": _firstpage,
    "lastpage": _lastpage,
    "type": _type,
    "camel": _camel,
    "keywords": _keywords,
    "shorttitleINI": _jabref_shorttitle_initials,
    **_name_fields(_ascii),
}
#: JabRef's meaning of the fields whose meaning differs (``jabref:`` patterns): a title keeps
#: its small words in lower case and its other words as written, a short title keeps the case
#: of its words, and ``ä``, ``ö``, ``ü`` are spelt ``ae``, ``oe``, ``ue``.
JABREF_FIELDS: dict[str, Field] = {
    **FIELDS,
    "auth": lambda record, n: _auth_chars(record, 10 ** 6, _jabref_ascii),
    "authors": lambda record, n: _authors_folded(record, n, _jabref_ascii),
    "title": _jabref_title,
    "shorttitle": _jabref_shorttitle,
    "veryshorttitle": _jabref_veryshorttitle,
    **_name_fields(_jabref_ascii),
}
#: Better BibTeX's meaning of the fields whose meaning differs (its formulas, ``bbt:``
#: patterns): ``auth`` keeps the name's dashes, ``shorttitle`` is three words as written,
#: ``veryshorttitle`` one; a record in German spells ``ü`` ``ue``.
BBT_FIELDS: dict[str, Field] = {
    **FIELDS,
    "auth": _bbt_auth,
    "shorttitle": lambda record, n: _bbt_shorttitle(record, 3 if n is None else n, 0),
    "veryshorttitle": lambda record, n: _bbt_shorttitle(record, 1 if n is None else n, 0),
    "year": _bbt_year,
}
#: Fields with numbers in their names (``[authors2]``, ``[auth3]``, ``[auth3_2]``,
#: ``[authIni4]``, ``[keyword2]``, ``[keywords2]``, Better BibTeX's ``[shorttitle3_3]``) ->
#: how they are computed from the record and the numbers.
def _numbered(fields: dict[str, Field], fold: Callable[[str], str]
              ) -> list[tuple[re.Pattern[str], Callable[..., str]]]:
    return [
        (re.compile(r"^authors(\d+)$"), lambda record, n: fields["authors"](record, n)),
        (re.compile(r"^auth(\d+)_(\d+)$"), partial(_auth_n_m, fold=fold)),
        (re.compile(r"^auth(\d+)$"), partial(_auth_chars, fold=fold)),
        (re.compile(r"^authIni(\d+)$"), partial(_auth_ini_n, fold=fold)),
        (re.compile(r"^keyword(\d+)$"), _keyword),
        (re.compile(r"^keywords(\d+)$"), _keywords),
        (re.compile(r"^shorttitle(\d+)_(\d+)$"), _bbt_shorttitle),
    ]


def _authors_folded(record: Record, n: int | None, fold: Callable[[str], str]) -> str:
    people = _creators(record)
    shown = people if n is None else people[:n]
    text = "".join(_NON_KEY.sub("", _spelt_last(p, fold)) for p in shown)
    more = len(people) > len(shown) or "author" in record.incomplete_names
    return text + ("EtAl" if more and text else "")


def _words_cased(text: str, case: Callable[[int, str], str]) -> str:
    return " ".join(case(i, word) for i, word in enumerate(text.split()))


CASE_MODIFIERS: dict[str, Callable[[str], str]] = {
    "lower": str.lower,
    "upper": str.upper,
    "capitalize": lambda text: _words_cased(text, lambda i, w: w[:1].upper() + w[1:].lower()),
    "titlecase": lambda text: _words_cased(
        text, lambda i, w: w.lower() if i and _small(w) else w[:1].upper() + w[1:].lower()),
    "sentencecase": lambda text: _words_cased(
        text, lambda i, w: w[:1].upper() + w[1:].lower() if i == 0 else w.lower()),
}
#: ``truncateN``: the first N characters.
_TRUNCATE = re.compile(r"^truncate(\d+)$")
#: What JabRef takes out of a key: white space and what BibTeX cannot read in one.
_JABREF_NOT_IN_KEY = re.compile(r"[\s{}(),=\\\"#%~'`]")
#: What JabRef takes out of each field's value before its modifiers: what BibTeX cannot read
#: in a key and JabRef's default unwanted characters (``-`ʹ:!;?^$``).
_JABREF_UNWANTED = re.compile(r"[{}(),=\\\"#%~'`\-ʹ:!;?^$]")
#: ... and out of the key it makes: the same and white space.
_JABREF_NOT_IN_JABREF_KEY = re.compile(r"[\s{}(),=\\\"#%~'`\-ʹ:!;?^$]")
#: The prefix of a pattern read with JabRef's meaning of its fields.
JABREF_PREFIX = "jabref:"

Part = Callable[[Record], str]
#: A modifier: the text so far and the field's own value -> the text.
Modifier = Callable[[str, str, Record], str]


def _truncated(text: str, chars: int) -> str:
    return text[:chars]


def _abbreviated(text: str) -> str:
    """JabRef's ``abbr``: the first letter of each word."""
    return "".join(word[0] for word in re.split(r"[() \r\n\"]", re.sub(r"[{}']", "", text))
                   if word)


def _variable(record: Record, n: int | None, name: str) -> str:
    return record.get(name) or ""


def _eprint(record: Record, n: int | None) -> str:
    return (record.eprint.identifier or "") if record.eprint is not None else ""


#: The BibTeX fields a ``jabref:`` pattern may name (in any case: ``[YEAR]``) beside the key
#: fields, as JabRef reads any field by its name: where refbridge holds each.
JABREF_PLAIN_FIELDS: dict[str, Field] = {
    "year": _year,
    "eprint": _eprint,
    **{bibtex: partial(_variable, name=variable) for bibtex, variable in {
        "journal": "container-title", "booktitle": "container-title", "publisher": "publisher",
        "volume": "volume", "pages": "page", "doi": "DOI", "isbn": "ISBN", "issn": "ISSN",
        "url": "URL", "note": "note", "edition": "edition", "series": "collection-title",
        "address": "publisher-place", "language": "language"}.items()},
}


@dataclass(frozen=True)
class _Meaning:
    """How a pattern is read: refbridge's or JabRef's fields, spelling and removals."""

    pattern: str
    fields: dict[str, Field]
    fold: Callable[[str], str]
    #: taken out of a field's value before its modifiers (None: nothing)
    unwanted: re.Pattern[str] | None
    #: taken out of the key
    not_in_key: re.Pattern[str]
    plain: dict[str, Field]


def _field_function(name: str, meaning: _Meaning
                    ) -> tuple[Callable[..., str], tuple[int, ...]]:
    fields = meaning.fields
    if name in fields:
        return fields[name], ()
    for expression, function in _numbered(fields, meaning.fold):
        match = expression.match(name)
        if match:
            return function, tuple(int(group) for group in match.groups())
    if name.lower() in meaning.plain:
        return meaning.plain[name.lower()], ()
    plain = f"{', '.join(sorted(meaning.plain))} (any case), " if meaning.plain else ""
    raise PatternError(f"unknown field [{name}] in key pattern {meaning.pattern!r} "
                       f"(known: {', '.join(sorted(fields))}, {plain}authorsN, authN, authN_M, "
                       "authIniN, keywordN, keywordsN, shorttitleN_M)")


def _split_modifiers(spec: str) -> list[str]:
    r"""A field and its modifiers: split at each ``:`` outside parentheses that is not
    escaped (``\:``), as JabRef reads them (``title:regex("a:b", "")``)."""
    parts, current, depth, escaped = [], "", 0, False
    for char in spec:
        if escaped:
            current += char if char == ":" else "\\" + char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ":" and depth == 0:
            parts.append(current)
            current = ""
        else:
            depth += (char == "(") - (char == ")" and depth > 0)
            current += char
    return [*parts, current + ("\\" if escaped else "")]


#: JabRef's ``regex("pattern", "replacement")`` modifier (``\"`` is a quote in either).
_REGEX_MODIFIER = re.compile(r'regex\(\s*"((?:\\"|[^"])*?)"\s*,\s*"((?:\\"|[^"])*)"\s*\)',
                             re.DOTALL)
#: A named group as Java writes it (``(?<name>``; Python: ``(?P<name>``).
_JAVA_NAMED_GROUP = re.compile(r"(?<!\\)\(\?<(?=[A-Za-z])")
#: What a Java replacement holds: an escaped character, ``$N``, ``${name}``.
_JAVA_REPLACEMENT = re.compile(r"\\(.)|\$(\d)|\$\{(\w+)\}", re.DOTALL)


def _java_replaced(match: re.Match[str], replacement: str) -> str:
    """``replacement`` for ``match`` as Java's ``replaceAll`` reads it (``$1``, ``${name}``)."""
    def piece(found: re.Match[str]) -> str:
        escaped, number, name = found.groups()
        if escaped is not None:
            return escaped
        return match.group(int(number) if number else name) or ""

    return _JAVA_REPLACEMENT.sub(piece, replacement)


def _regex_modifier(modifier: str, spec: str, meaning: _Meaning) -> Modifier:
    arguments = _REGEX_MODIFIER.fullmatch(modifier)
    if arguments is None:
        raise PatternError(f'cannot read {modifier!r} in [{spec}] of key pattern '
                           f'{meaning.pattern!r} (write regex("pattern", "replacement"))')
    try:
        expression = re.compile(_JAVA_NAMED_GROUP.sub("(?P<", arguments.group(1).replace(
            '\\"', '"')))
    except re.error as problem:
        raise PatternError(f"the regular expression of {modifier!r} in [{spec}] of key "
                           f"pattern {meaning.pattern!r} cannot be read: {problem}") from None
    replacement = arguments.group(2).replace('\\"', '"')
    return lambda text, value, record: expression.sub(
        partial(_java_replaced, replacement=replacement), text)


def _fallback_modifier(modifier: str, meaning: _Meaning) -> Modifier:
    """``(text)``: ``text`` (itself a pattern: ``([EPRINT:([YEAR])])``) when the field is
    empty."""
    inner = _compile_parts(modifier[1:-1], meaning) if len(modifier) > 2 else []
    return lambda text, value, record: text if value or not inner else "".join(
        part(record) for part in inner)


def _modifier(modifier: str, spec: str, meaning: _Meaning) -> Modifier:
    truncate = _TRUNCATE.match(modifier)
    if modifier in CASE_MODIFIERS or modifier == "abbr":
        change = CASE_MODIFIERS.get(modifier, _abbreviated)
    elif truncate:
        change = partial(_truncated, chars=int(truncate.group(1)))
    elif modifier.startswith("regex("):
        return _regex_modifier(modifier, spec, meaning)
    elif modifier.startswith("(") and modifier.endswith(")"):
        return _fallback_modifier(modifier, meaning)
    else:
        raise PatternError(f"unknown modifier {modifier!r} in [{spec}] of key pattern "
                           f"{meaning.pattern!r} (known: N, truncateN, "
                           f"{', '.join(CASE_MODIFIERS)}, abbr, regex(\"pattern\", "
                           "\"replacement\"), (text if empty))")
    return lambda text, value, record: change(text)


def _compile_field(spec: str, meaning: _Meaning) -> Part:
    name, *modifiers = _split_modifiers(spec)
    function, numbers = _field_function(name, meaning)
    number: int | None = None
    changes: list[Modifier] = []
    for modifier in modifiers:
        if modifier.isdigit():
            number = int(modifier)
        else:
            changes.append(_modifier(modifier, spec, meaning))
    unwanted = meaning.unwanted

    def part(record: Record) -> str:
        value = function(record, *numbers) if numbers else function(record, number)
        if unwanted is not None:
            value = unwanted.sub("", value)
        text = value
        for change in changes:
            text = change(text, value, record)
        return text

    return part


def _pieces(text: str, pattern: str) -> Iterator[tuple[bool, str]]:
    """The literal texts and the fields of ``text``, in order: (whether a field, text). A
    field's brackets may hold brackets and quoted text (``[title:([YEAR])]``)."""
    position = 0
    while position < len(text):
        start = text.find("[", position)
        if start < 0:
            yield False, text[position:]
            return
        if start > position:
            yield False, text[position:start]
        depth, at, quoted = 0, start, False
        for at in range(start, len(text)):
            char = text[at]
            if char == '"':
                quoted = not quoted
            elif not quoted:
                depth += (char == "[") - (char == "]")
                if depth == 0:
                    break
        else:
            raise PatternError(f"key pattern {pattern!r} has a [ that is not closed")
        yield True, text[start + 1:at]
        position = at + 1


def _compile_parts(text: str, meaning: _Meaning) -> list[Part]:
    return [_compile_field(piece, meaning) if field else _literal(piece, meaning.pattern)
            for field, piece in _pieces(text, meaning.pattern)]


#: Better BibTeX's formula syntax (``auth.lower + shorttitle(3,3) + year``): a term, its
#: arguments, its ``.modifiers``.
_BBT_TERM = re.compile(r"^([A-Za-z]+)(?:\(([^()]*)\))?((?:\.[a-z]+)*)$")
#: The arguments Better BibTeX writes out with their default values when it saves a formula
#: (``auth(n=0,m=1,creator="*",initials=false)`` is ``auth``): left out.
_BBT_DEFAULT_ARGUMENTS: dict[str, dict[str, str]] = {
    "auth": {"n": "0", "m": "1", "creator": '"*"', "initials": "false"}}
#: Modifiers that change nothing in refbridge's keys, which are always folded to ASCII.
_BBT_NO_CHANGE = (".fold",)
#: The prefix of a bracket pattern read with Better BibTeX's meaning of its fields (its
#: legacy spelling: ``bbt:[auth:lower][shorttitle3_3][year]``).
BBT_PREFIX = "bbt:"


def _bbt_numbers(name: str, arguments: str, term: str, formula: str) -> str:
    numbers = []
    for argument in (part.strip() for part in arguments.split(",") if part.strip()):
        keyword, _, value = argument.partition("=")
        if argument.isdigit():
            numbers.append(argument)
        elif _BBT_DEFAULT_ARGUMENTS.get(name, {}).get(keyword.strip()) != value.strip():
            raise PatternError(f"cannot read {term!r} of the key formula {formula!r}")
    return "_".join(numbers)


def _from_bbt_formula(formula: str) -> str:
    """A Better BibTeX formula as a bracket pattern: ``auth.lower + shorttitle(3,3) + year``
    -> ``[auth:lower][shorttitle3_3][year]``."""
    parts = []
    for term in formula.split("+"):
        match = _BBT_TERM.match(term.strip())
        if match is None:
            raise PatternError(f"cannot read {term.strip()!r} of the key formula {formula!r}")
        name, arguments, modifiers = match.groups()
        numbers = _bbt_numbers(name, arguments or "", term.strip(), formula)
        for same in _BBT_NO_CHANGE:
            modifiers = modifiers.replace(same, "")
        parts.append(f"[{name}{numbers}{modifiers.replace('.', ':')}]")
    return "".join(parts)


@cache
def compile_pattern(pattern: str) -> Callable[[Record], str]:
    """A function giving the (not yet unique) key of a record under ``pattern``: refbridge's
    bracket pattern, JabRef's (``jabref:[auth][year]``), or Better BibTeX's formula
    (``auth.lower + shorttitle(3,3) + year``, or ``bbt:[auth:lower][shorttitle3_3][year]``)."""
    jabref = pattern.startswith(JABREF_PREFIX)
    bbt = pattern.startswith(BBT_PREFIX)
    text = pattern.removeprefix(JABREF_PREFIX).removeprefix(BBT_PREFIX)
    if "[" not in text and ("+" in text or "(" in text or "." in text):
        text, bbt = _from_bbt_formula(text), True
    if jabref:
        meaning = _Meaning(pattern, JABREF_FIELDS, _jabref_ascii, _JABREF_UNWANTED,
                           _JABREF_NOT_IN_JABREF_KEY, JABREF_PLAIN_FIELDS)
    else:
        meaning = _Meaning(pattern, BBT_FIELDS if bbt else FIELDS, _ascii, None,
                           _JABREF_NOT_IN_KEY, {})
    parts = _compile_parts(text, meaning)
    if not parts:
        raise PatternError("the key pattern is empty")
    not_in_key = meaning.not_in_key

    def key(record: Record) -> str:
        return not_in_key.sub("", "".join(part(record) for part in parts))

    return key


#: What ``KeyBook`` adds to a key that is taken: up to two lower-case letters.
_SUFFIX = re.compile(r"[a-z]{0,2}")


def follows_pattern(key: str, record: Record, pattern: str) -> bool:
    """Whether ``key`` is what ``pattern`` makes of ``record``, with or without the suffix
    that makes it unique (``knuth1984texbook``, ``knuth1984texbooka``)."""
    base = compile_pattern(pattern)(record) or "ref"
    return key.startswith(base) and _SUFFIX.fullmatch(key, len(base)) is not None


_LITERAL_OK = re.compile(r"^[A-Za-z0-9_:.\-/+]*$")


def _literal(text: str, pattern: str) -> Part:
    if not _LITERAL_OK.match(text):
        raise PatternError(f"key pattern {pattern!r} has characters a citation key cannot "
                           f"hold: {text!r}")
    return lambda record: text


def _fingerprint(record: Record) -> tuple[str, ...]:
    people = "; ".join(p.display() for p in record.authors)
    return (record.title or "", str(record.year or ""), people, record.type, record.id)


def _suffixes() -> Iterator[str]:
    """"", then a .. z, then aa, ab, ... for ever."""
    yield ""
    for length in count(1):
        for letters in product(ascii_lowercase, repeat=length):
            yield "".join(letters)


class KeyBook:
    """Unique keys for a stream of records, decided once every record has been noted.

    ``note`` each record in input order: a record that keeps its own key reserves it, one that
    needs a key is remembered by its pattern key and sort fingerprint. ``generated_keys`` then
    gives the keys of the records that needed one, in the order they were noted.
    """

    def __init__(self, pattern: str = DEFAULT_PATTERN, regenerate: bool = False,
                 lock: KeyLock | None = None,
                 unsafe: re.Pattern[str] | None = None) -> None:
        self._make_key = compile_pattern(pattern)
        self._regenerate = regenerate
        self._unsafe = unsafe
        self._taken: set[str] = set()
        self._groups: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        self._needing = 0
        self._lock = lock
        #: position -> the key the lock gives; position -> the identities to file a key under
        self._locked: dict[int, str] = {}
        self._identities: dict[int, tuple[str, ...]] = {}

    def reserve(self, key: str) -> bool:
        """Take ``key`` for a record that keeps it; False when it is taken already."""
        if key in self._taken:
            return False
        self._taken.add(key)
        return True

    def note(self, record: Record) -> bool:
        """Note ``record``; whether it keeps the key it has (so it can be written at once)."""
        kept = record.citation_key if not self._regenerate else None
        found = self._lock.identities(record) if self._lock is not None else ()
        if kept and self.safe_form(kept) != kept:
            kept = self.safe_form(kept)  # never reserved as it is: it cannot be written
        elif kept and self.reserve(kept):
            if self._lock is not None:
                self._lock.remember(found, kept)
            return True
        position = self._needing
        self._needing += 1
        lock = self._lock
        if lock is not None and (locked := lock.recall(found)) is not None \
                and self.reserve(locked):
            self._locked[position] = locked
            lock.remember(found, locked)
            return False
        if found:
            self._identities[position] = found
        base = kept or self._make_key(record) or "ref"  # a repeated key gets a suffix
        self._groups.setdefault(base, []).append((_fingerprint(record), position))
        return False

    def safe_form(self, key: str) -> str:
        """``key`` with each character (a run of white space at either end) the output
        cannot hold replaced by ``-``."""
        return key if self._unsafe is None else self._unsafe.sub("-", key)

    def renamed(self, record: Record, key: str) -> bool:
        """Whether ``record`` is given ``key`` in place of a key of its own that it could
        keep but for another record having it (a repeated key), not asked to regenerate."""
        own = record.citation_key
        return bool(own) and not self._regenerate and self.safe_form(own or "") == own \
            and key != own

    def made_safe(self, record: Record) -> bool:
        """Whether the key ``record`` keeps is changed only for the characters the output
        cannot hold (the caller reports the change)."""
        key = record.citation_key
        return bool(key) and not self._regenerate and self.safe_form(key or "") != key

    def generated_keys(self) -> list[str]:
        """The key of each noted record that needed one, in the order they were noted."""
        taken = set(self._taken)
        if self._lock is not None:  # a key the lock gives a work is never another's
            taken.update(self._lock.keys.values())
        keys = [""] * self._needing
        for position, locked in self._locked.items():
            keys[position] = locked
        for base in sorted(self._groups):
            candidates = (base + suffix for suffix in _suffixes())
            for _, position in sorted(self._groups[base]):
                key = next(c for c in candidates if c not in taken)
                taken.add(key)
                keys[position] = key
                if self._lock is not None:
                    self._lock.remember(self._identities.get(position, ()), key)
        return keys


def assign_keys(records: Sequence[Record], pattern: str = DEFAULT_PATTERN,
                regenerate: bool = False, lock: KeyLock | None = None) -> list[Record]:
    """``records`` with a unique citation key each, in the same order.

    Keys the records already have are kept (and reserved) unless ``regenerate``; when two
    records have the same key, the first keeps it and the others get it with a suffix.
    """
    book = KeyBook(pattern, regenerate, lock)
    keeps = [book.note(record) for record in records]
    generated = iter(book.generated_keys())
    return [record if keep else record.replace(citation_key=next(generated))
            for record, keep in zip(records, keeps)]
