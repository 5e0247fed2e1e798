"""CSL-JSON reader and writer: the model's own vocabulary as JSON.

Output validates against the official CSL-JSON schema, so everything the schema has no variable
for goes into the schema's ``custom`` object: the eprint (with, for a preprint, the fields
derived from it for other consumers: ``publisher: "arXiv"`` and ``number: "arXiv:ID"``, which is
how Zotero recognises a preprint, and the abstract page as ``URL``), incomplete name lists, and the ``extra`` fields of other formats. Reading
what was written gives back the same model. The reader accepts an array or one object, string or
date-parts dates, and keeps unknown keys. This module must never drop a value silently.

Rich text is written and read as CSL markup (``refbridge.formats.csl_markup``: ``<i>``,
``<span class="nocase">`` ...), which other processors understand. What the markup cannot
say travels in ``custom``, under the variable's name: ``custom.rich`` holds the value's inlines
as data (``richtext.to_data``) where the markup shows only a rendering (a formula as its TeX,
raw LaTeX, an address, a link, monospace), and ``custom.latex`` a .bib's own spelling where a
.bib writer would spell the value otherwise (``\\"{u}``, a title without case protection;
for a name variable, a list with each name's spelling or null); a value with a spelling needs
no data, as the spelling reads back to it. The reader takes them back when they still read as
the value beside them: an edited value wins over a stale one.
``custom.hints`` keeps the record's layout hints (``Record.hints``). The abstract is plain text
(Zotero's is; its rich text is kept in ``custom``).

The reader also reads Zotero's Extra where Zotero's CSL JSON export puts it, in ``note``
(``formats.zotero.extra``): ``Citation Key:`` gives the key, ``variable: value`` a variable the
item lacks (citeproc-js's cheater syntax), ``tex.field: value`` a .bib field, ``refbridge:`` the
residue; the rest stays the note. A note of refbridge's own whose lines only look like data is
marked ``custom.note-text`` and read as text.

This module is the one owner of record <-> CSL item, both ways: ``to_csl`` (the item of a file),
``engine_item`` (the item the CSL engine renders: rich text as the model's own values, and what
the reader kept as written under ``extra`` ``csl.KEY`` given back as written) and ``from_csl``.

A residue (``formats.residue``: what another format could not carry) is CSL-JSON keys, so the
residue of a record against what a format carried (``residue``, ``residue_note``) and a record
with residues applied (``apply_residues``, ``with_extra_fields`` for a Zotero Extra) are made
here, for every format that keeps one.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from itertools import repeat
from typing import TYPE_CHECKING, Any, TextIO

from mypy_extensions import mypyc_attr

from refbridge.coverage import Coverage
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.bibtex.tables import (
    ARXIV,
    ARXIV_ABS_URL,
    HINT_AFTER,
    HINT_BEFORE,
    HINT_COMMENT,
    HINT_KEY,
    HINT_PREAMBLE,
)
from refbridge.formats.catalogue import WRITERS, CatalogueReader
from refbridge.formats.csl_markup import from_markup, is_lossless, to_markup
from refbridge.formats.residue import (
    HINTS,
    NESTED,
    RESIDUE_PREFIX,
    apply_to_item,
    dump,
    item_difference,
)
from refbridge.formats.surrogates import repaired, reporter
from refbridge.identifiers import ARXIV_LABELLED, clean_doi_field
from refbridge.latex.encode import needs_encoding
from refbridge.latex.safety import is_harmless
from refbridge.model import (
    NAME_PARTS,
    PREPRINT_TYPE,
    Date,
    DateParts,
    Eprint,
    ModelError,
    Name,
    Record,
    Source,
)
from refbridge.registry import Framing, WriteOptions, write_framed
from refbridge.richtext import (
    RichText,
    RichTextError,
    Text,
    from_data,
    plain,
    to_data,
    with_latex,
)
from refbridge.vocab import (
    DATE_VARIABLE_SET,
    DATE_VARIABLES,
    NAME_VARIABLE_SET,
    NAME_VARIABLES,
    PLAIN_TEXT_VARIABLES,
    TEXT_VARIABLE_SET,
    TEXT_VARIABLES,
    VERBATIM_VARIABLES,
)

if TYPE_CHECKING:
    from refbridge.formats.zotero.extra import ExtraFields

SEASON_NAMES: dict[str, int] = {"spring": 1, "summer": 2, "autumn": 3, "fall": 3, "winter": 4}

#: Keys of the ``custom`` object that carry what CSL has no variable for.
CUSTOM_EPRINT = "eprint"
CUSTOM_INCOMPLETE = "incomplete-names"
CUSTOM_EXTRA = "extra"
CUSTOM_KEYWORDS = "keywords"
CUSTOM_DERIVED = "derived"
CUSTOM_LATEX = "latex"
CUSTOM_RICH = "rich"
CUSTOM_HINTS = "hints"
#: The hints a residue carries (of ``custom.hints``): what a .bib keeps of its library, not of
#: an entry's layout (the text around an entry, and the key of an entry that had none or
#: repeated one), so that a .bib written after a trip through another format has them.
LIBRARY_HINTS = frozenset({HINT_BEFORE, HINT_AFTER, HINT_PREAMBLE, HINT_COMMENT, HINT_KEY})
CUSTOM_NAME_IDS = "name-ids"
#: ``true`` when the note is text only, though some of its lines read as data (below).
CUSTOM_NOTE_TEXT = "note-text"

#: Legacy and alias keys of CSL-JSON (Zotero writes the first two, CSL 1.0.1 named the third),
#: read as the variable they stand for unless the item also has that one.
ALIASES: dict[str, str] = {"journalAbbreviation": "container-title-short",
                           "shortTitle": "title-short", "event": "event-title"}
#: Aliases that citeproc-js does not read as the variable they stand for: styles that name
#: ``event`` show it, those that name ``event-title`` do not. The key as written is kept in
#: ``extra`` too, so that ``refbridge format`` gives the item to the CSL engine as written.
WRITTEN_ALIASES = frozenset({"event"})
#: Prefix of the ``extra`` keys where the reader keeps values as written (an alias of
#: ``WRITTEN_ALIASES``, a date or name list the model cannot hold, a key it does not know).
CSL_EXTRA_PREFIX = "csl."
#: Variables whose value the reader keeps as written (JSON) when the model cannot hold it.
_KEPT_AS_JSON = DATE_VARIABLE_SET | NAME_VARIABLE_SET
#: Keys of a CSL-JSON name that the model holds.
_NAME_KEYS = frozenset(key for key, _ in NAME_PARTS)
#: Keys the reader understands besides the CSL variables.
_HANDLED = frozenset({"id", "type", "citation-key", "keyword", "categories", "custom"})
#: What the reader makes of the value of each CSL variable: rich text (read from CSL markup),
#: verbatim text, a name list or a date.
_RICH, _VERBATIM, _NAMES, _DATE = range(4)
_KINDS: dict[str, int] = {**dict.fromkeys(TEXT_VARIABLE_SET, _RICH),
                          **dict.fromkeys(VERBATIM_VARIABLES | PLAIN_TEXT_VARIABLES, _VERBATIM),
                          **dict.fromkeys(NAME_VARIABLE_SET, _NAMES),
                          **dict.fromkeys(DATE_VARIABLE_SET, _DATE)}
_EDTF_PART = re.compile(r"^(?P<y>-?\d{1,4})(?:-(?P<m>\d{2})(?:-(?P<d>\d{2}))?)?(?P<circa>[~?%])?$")


# -- model -> CSL-JSON ------------------------------------------------------------------
def _date_json(date: Date) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if date.start is not None:
        out["date-parts"] = ([date.start.as_list()] if date.end is None
                             else [date.start.as_list(), date.end.as_list()])
    if date.season is not None:
        out["season"] = date.season
    if date.circa:
        out["circa"] = True
    if date.literal is not None:
        out["literal"] = date.literal
    return out


def _eprint_derived(eprint: Eprint) -> dict[str, str]:
    """Fields other consumers expect of a preprint: Zotero reads ``number: "arXiv:ID"``, and
    styles link to ``URL`` ("Preprint at https://arxiv.org/abs/ID")."""
    derived = {"publisher": eprint.archive}
    if eprint.identifier:
        derived["number"] = f"{eprint.archive}:{eprint.identifier}"
        if eprint.archive == ARXIV:
            derived["URL"] = ARXIV_ABS_URL + eprint.identifier
    return derived


def _markup(value: RichText) -> str:
    """CSL markup of a rich text value (one plain string: the string's markup)."""
    first = value.inlines[0]
    return to_markup(first) if len(value.inlines) == 1 and isinstance(first, str) \
        else to_markup(value)


def to_csl(record: Record, *, rich: bool = False) -> dict[str, Any]:
    """The CSL-JSON item of ``record`` (schema-valid), built of new lists and dicts only: the
    caller may change it (residues, the CV) without touching the shared names of the model.
    Names are copied from ``Name.parts``, built once per person: 10,000 generated entries
    take 37 ms here instead of 59 ms. With ``rich``, rich text values are the model's own
    (``engine_item``), never turned into markup."""
    item: dict[str, Any] = {"id": record.citation_key or record.id, "type": record.type}
    custom: dict[str, Any] = {}
    for role, people in record.names.items():
        item[role] = [person.parts.copy() for person in people]  # dicts the caller may edit
        for person in people:
            if person.latex is not None or person.ids:  # most names have neither
                _name_custom(role, people, custom)
                break
    fields = record.fields
    item.update(fields)  # plain text as it is (most values); the rest is done below
    for variable in [k for k, v in fields.items() if type(v) is not str or "<" in v]:
        value = fields[variable]
        if isinstance(value, str):
            if variable not in VERBATIM_VARIABLES and variable not in PLAIN_TEXT_VARIABLES:
                item[variable] = to_markup(value)
            continue
        first = value.inlines[0]
        structured = len(value.inlines) > 1 or not isinstance(first, str)
        if variable in PLAIN_TEXT_VARIABLES:
            item[variable] = value if rich else value.plain
            if value.latex is not None:
                custom.setdefault(CUSTOM_LATEX, {})[variable] = value.latex
            elif structured:
                custom.setdefault(CUSTOM_RICH, {})[variable] = to_data(value)
            continue
        item[variable] = value if rich else _markup(value)
        if value.latex is not None and (structured or value.latex != value.plain
                                        or needs_encoding(value.latex)):
            custom.setdefault(CUSTOM_LATEX, {})[variable] = value.latex  # see _take_latex
        elif structured and not is_lossless(value):  # a spelling says it all, else the data
            custom.setdefault(CUSTOM_RICH, {})[variable] = to_data(value)
    for variable, date in record.dates.items():
        item[variable] = _date_json(date)
    if record.keywords:
        item["keyword"] = ", ".join(record.keywords)
        words = "".join(record.keywords)
        if "," in words or ";" in words:  # the separators of keyword
            custom[CUSTOM_KEYWORDS] = list(record.keywords)
    if record.eprint is not None:
        eprint = record.eprint
        custom[CUSTOM_EPRINT] = {
            key: value for key, value in (
                ("archive", eprint.archive), ("id", eprint.identifier),
                ("primary-class", eprint.primary_class),
                ("cross-lists", list(eprint.cross_lists) or None)) if value}
        # only a preprint is an arXiv publication: a published paper's arXiv id stays in
        # custom.eprint, its publisher and numbers are the venue's
        derived = {k: v for k, v in _eprint_derived(eprint).items()
                   if k not in item and record.is_preprint}
        if derived:
            item.update(derived)
            custom[CUSTOM_DERIVED] = list(derived)
        if eprint.classes:
            item["categories"] = list(eprint.classes)
    if record.incomplete_names:
        custom[CUSTOM_INCOMPLETE] = sorted(record.incomplete_names)
    if record.extra:
        custom[CUSTOM_EXTRA] = dict(record.extra)
    if record.hints:
        custom[CUSTOM_HINTS] = dict(record.hints)
    note = item.get("note") if "note" in fields else None
    if isinstance(note, RichText):  # (rich) the note as the item of a file writes it
        note = _markup(note)
    if note is not None and ":" in note and _note_has_data(note):
        custom[CUSTOM_NOTE_TEXT] = True
    if custom:
        item["custom"] = custom
    return item


def engine_item(record: Record, *, rich: bool = True, as_written: bool = True
                ) -> dict[str, Any]:
    """The item of ``record`` for the CSL engine: ``to_csl``'s, with (``rich``) the model's
    rich text values (the engine renders formulas, addresses and raw LaTeX, which CSL markup
    cannot say) and (``as_written``) what the reader kept as written given back as written
    (``extra`` ``csl.KEY``: dates and names the model cannot hold, the legacy ``event`` that
    citeproc-js reads under that name only). A CV's items take neither (its entries are
    rendered from the markup, as they always were)."""
    item = to_csl(record, rich=rich)
    if not as_written:
        return item
    for key, value in record.extra.items():
        if not key.startswith(CSL_EXTRA_PREFIX):
            continue
        variable = key.removeprefix(CSL_EXTRA_PREFIX)
        if variable in WRITTEN_ALIASES:
            if plain(record.fields.get(ALIASES[variable], "")) == value:
                item.pop(ALIASES[variable], None)
            item[variable] = value
        elif variable in _KEPT_AS_JSON:
            try:
                item[variable] = json.loads(value)
            except ValueError:
                continue  # not kept by the reader: an edited extra field
    return item


def _note_has_data(note: str) -> bool:
    """Whether a line of a note would read as data (see ``refbridge.formats.zotero.extra``)."""
    from refbridge.formats.zotero.extra import is_plain_note

    return not is_plain_note(note)


def _name_custom(role: str, people: tuple[Name, ...], custom: dict[str, Any]) -> None:
    """The spellings and identifiers of the names of ``role`` that ``custom`` keeps."""
    spellings = [_kept_name_latex(person.latex) for person in people]
    if any(spellings):
        custom.setdefault(CUSTOM_LATEX, {})[role] = spellings
    if any(person.ids for person in people):
        custom.setdefault(CUSTOM_NAME_IDS, {})[role] = [list(person.ids) or None
                                                         for person in people]


@lru_cache(maxsize=8192)
def _kept_name_latex(spelling: str | None) -> str | None:
    """The .bib spelling of a name that ``custom.latex`` keeps: one a .bib writer would
    write otherwise (``Andr\\'e, Jacques``, ``{Van Wyk}``)."""
    from refbridge.latex.encode import encode_latex
    from refbridge.names.bibtex import format_name, parse_name

    if spelling is None:
        return None
    return None if format_name(parse_name(spelling), encode_latex) == spelling else spelling


# -- CSL-JSON -> model ------------------------------------------------------------------
class _ItemError(ValueError):
    pass


def _text(value: Any, what: str) -> str:
    if type(value) is str:  # (most values)
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _ItemError(f"{what} must be text or a number, not {json.dumps(value)[:40]}")
    return str(value)


def _name(value: Any, role: str) -> Name:
    if isinstance(value, str):
        return Name(literal=value)
    if not isinstance(value, Mapping):
        raise _ItemError(f"{role}: a name must be an object, not {json.dumps(value)[:40]}")
    parts: dict[str, Any] = {}
    for key, attribute in NAME_PARTS:
        if key in value:
            part = value[key]
            if type(part) is not str:  # (the message is only built for other values)
                part = _text(part, f"{role} {key}")
            parts[attribute] = part.strip() or None
    try:
        return Name(**parts)
    except ModelError as exc:
        raise _ItemError(f"{role}: {exc}") from None


def _list(value: Any, what: str) -> list[Any]:
    """``value`` when it is a JSON array (absent or null: empty), else an item error."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise _ItemError(f"{what} must be a list, not {json.dumps(value)[:40]}")
    return value


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    """``value`` when it is a JSON object (absent or null: empty), else an item error."""
    if value is None:
        return {}
    if type(value) is not dict and not isinstance(value, Mapping):
        raise _ItemError(f"{what} must be an object, not {json.dumps(value)[:40]}")
    return value


def _int(value: Any, what: str) -> int:
    if type(value) is int:  # (most date parts)
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise _ItemError(f"{what} must be a number, not {value!r}") from None


def _parts(value: Any, variable: str) -> DateParts:
    if not isinstance(value, list) or not 1 <= len(value) <= 3:
        raise _ItemError(f"{variable}: date-parts must hold lists of 1-3 numbers")
    numbers = [v if type(v) is int else _int(v, f"{variable} date part") for v in value]
    if len(numbers) > 1 and numbers[1] > 12:  # CSL writes seasons as months 13-16
        numbers = numbers[:1]
    return DateParts(*numbers)


def _edtf(text: str, variable: str) -> Date:
    ends = text.split("/")
    matches = [_EDTF_PART.match(end.strip()) for end in ends]
    if len(ends) > 2 or not all(matches):
        return Date(literal=text)
    points = [DateParts(int(m["y"]), int(m["m"]) if m["m"] else None,
                        int(m["d"]) if m["d"] else None) for m in matches if m]
    circa = any(m["circa"] for m in matches if m)
    return Date(start=points[0], end=points[1] if len(points) > 1 else None, circa=circa)


def _season(value: Mapping[str, Any], variable: str) -> int | None:
    season = value.get("season")
    if isinstance(season, str):
        return SEASON_NAMES.get(season.strip().lower()) or _int(season, f"{variable} season")
    if season is not None and not isinstance(season, int):
        raise _ItemError(f"{variable}: season must be a number or a name, not "
                         f"{json.dumps(season)[:40]}")
    return season


def _raw_date(text: str, circa: bool) -> Date:
    """A raw date as citeproc-js reads it (``refbridge.rawdates``)."""
    from refbridge.rawdates import parse_raw_date

    found = parse_raw_date(text)
    if found.literal is not None:
        return Date(literal=found.literal, circa=circa)
    if found.season is not None:
        raise ModelError(f"the season {found.season!r} is not spring, summer, autumn or winter")
    points = [DateParts(year, month or None, day or None) if month <= 12 else DateParts(year)
              for year, month, day in (found.start, found.end or found.start)]
    if found.end is None:
        points.pop()
    season = found.start[1] - 12 if found.start[1] > 12 else None
    return Date(start=points[0], end=points[1] if len(points) > 1 else None,
                season=season, circa=circa or found.circa)


def _model_date(value: Any, variable: str) -> Date:
    """The model's date for a CSL-JSON date (``ModelError``: one the model cannot hold)."""
    if isinstance(value, (str, int)):
        return _edtf(str(value), variable)
    if not isinstance(value, Mapping):
        raise _ItemError(f"{variable}: a date must be an object or a string")
    season = _season(value, variable)
    circa = bool(value.get("circa"))
    parts = _list(value.get("date-parts"), f"{variable} date-parts")
    if parts and isinstance(parts[0], list) and parts[0] and parts[0][0] not in ("", None):
        points = [_parts(p, variable) for p in parts]
        if len(parts) > 2:
            raise ModelError("a date range has two ends")
        if len(parts) > 1 and len(parts[1]) > 1 and _int(parts[1][1], variable) > 12 \
                and _int(parts[1][1], variable) != _int(parts[0][1], variable):
            raise ModelError("the two ends of the range are in different seasons")
        if season is None and len(parts[0]) > 1 and _int(parts[0][1], variable) > 12:
            season = (_int(parts[0][1], variable) - 13) % 4 + 1
        return Date(start=points[0], end=points[1] if len(points) > 1 else None,
                    season=season, circa=circa, literal=value.get("literal"))
    if value.get("literal"):
        return Date(literal=str(value["literal"]), season=season, circa=circa)
    if value.get("raw"):
        return _raw_date(str(value["raw"]), circa)
    raise ModelError("a date needs date-parts, raw or literal")


def _season_as_month(value: Any, date: Date) -> bool:
    """Whether a CSL-JSON date gives its season as a month rather than as a season field."""
    return date.season is not None and isinstance(value, Mapping) and value.get("season") in (None, "")


def _date(value: Any, variable: str, extra: dict[str, str],
          warn: Callable[[str], None] | None) -> Date | None:
    """The model's date for a CSL-JSON date. A date the model cannot hold (month -1, year 0,
    an empty part, a range over two seasons ...) is kept as written in ``extra`` (``csl.`` and
    the variable, as JSON), where ``refbridge format`` takes it from, with a warning to *warn*
    (without *warn*, it is an error of the item); the model keeps its year when it has one."""
    try:
        date = _model_date(value, variable)
    except ModelError as exc:
        if warn is None:
            raise _ItemError(f"{variable}: {exc}") from None
        reason = str(exc)
    except _ItemError as exc:
        if warn is None:
            raise
        reason = str(exc).removeprefix(f"{variable}: ")
    else:
        season = value.get("season") if isinstance(value, Mapping) else None
        if (isinstance(season, str) and not season.strip().isdigit()) or _season_as_month(value, date):
            # citeproc-js shows a season named in words as written, where the model's number
            # would show the locale's term, and a season given as a month (13-16, a raw
            # "Spring 1999") not at all in a numeric month: the date is kept as written too,
            # as for the engine
            extra[f"{CSL_EXTRA_PREFIX}{variable}"] = json.dumps(value, ensure_ascii=False)
        return date
    extra[f"{CSL_EXTRA_PREFIX}{variable}"] = json.dumps(value, ensure_ascii=False)
    warn(f"{variable}: {reason}; kept as written")
    parts = value.get("date-parts") if isinstance(value, Mapping) else None
    try:
        year = int(str(parts[0][0]).strip())  # type: ignore[index]
        return Date(start=DateParts(year))
    except (TypeError, ValueError, IndexError, KeyError, ModelError):
        return None


def _eprint_from(item: Mapping[str, Any], custom: Mapping[str, Any],
                 fields: dict[str, Text]) -> Eprint | None:
    data = custom.get(CUSTOM_EPRINT)
    if isinstance(data, Mapping):
        eprint = Eprint(archive=str(data.get("archive") or "arXiv"),
                        identifier=data.get("id"), primary_class=data.get("primary-class"),
                        cross_lists=tuple(_list(data.get("cross-lists"), "eprint cross-lists")))
        for key in _list(custom.get(CUSTOM_DERIVED), "custom derived"):
            fields.pop(str(key), None)
        return eprint
    if "number" not in fields:  # (most items)
        return None
    number = ARXIV_LABELLED.match(plain(fields.get("number", "")))
    from_arxiv = plain(fields.get("publisher", "")).lower() == "arxiv"
    if number is None or not (from_arxiv or item.get("type") == PREPRINT_TYPE):
        return None  # a report numbered by its arXiv id keeps its number (Zotero: preprints)
    classes = [str(c) for c in _list(item.get("categories"), "categories")]
    fields.pop("number")
    if from_arxiv:
        fields.pop("publisher")
    return Eprint("arXiv", number.group("id"), classes[0] if classes else None,
                  tuple(classes[1:]))


def _spelled_name(person: Name, spelling: Any) -> Name:
    """``person`` with its .bib spelling, when ``spelling`` still reads as that name."""
    from refbridge.names.bibtex import parse_name

    if not isinstance(spelling, str) or not spelling.strip():
        return person
    spelled = parse_name(spelling)
    if spelled != person:
        return person
    if spelled.latex == spelling and spelled.ids == person.ids:
        return spelled  # (the same name, read before: no copy to make)
    return dataclasses.replace(person, latex=spelling)


def _take_latex(item: Mapping[str, Any], custom: Mapping[str, Any],
                fields: dict[str, Text], names: dict[str, tuple[Name, ...]]) -> None:
    """Values and names from ``custom.rich`` and ``custom.latex`` where they read as the ones
    beside them."""
    if CUSTOM_RICH not in custom and CUSTOM_LATEX not in custom:  # (most items)
        return
    from refbridge.latex.decode import decode_latex

    for variable, data in _mapping(custom.get(CUSTOM_RICH), "custom rich").items():
        try:
            value = from_data(data)
        except RichTextError:
            continue
        if variable in fields and _written(variable, value) == item.get(variable):
            fields[variable] = value
    for variable, latex in _mapping(custom.get(CUSTOM_LATEX), "custom latex").items():
        if variable in names and isinstance(latex, list) and len(latex) == len(names[variable]):
            names[variable] = tuple(_spelled_name(person, spelling)
                                    for person, spelling in zip(names[variable], latex))
            continue
        if variable not in fields or not isinstance(latex, str) or not latex.strip():
            continue
        decoded = decode_latex(latex)
        if decoded == fields[variable] or _written(variable, decoded) == item.get(variable):
            fields[variable] = with_latex(decoded, latex)


def _written(variable: str, value: Text) -> str:
    """How CSL-JSON writes ``value`` of ``variable``: markup, or plain text for a variable
    that holds no markup."""
    return plain(value) if variable in PLAIN_TEXT_VARIABLES else to_markup(value)


def _take_name_ids(custom: Mapping[str, Any], names: dict[str, tuple[Name, ...]]) -> None:
    """Each name's identifiers from ``custom.name-ids`` (a list per role, one entry per name:
    a list of ``scheme:value`` identifiers, or null)."""
    for role, lists in _mapping(custom.get(CUSTOM_NAME_IDS), "custom name-ids").items():
        people = names.get(role)
        entries = _list(lists, f"custom name-ids {role}")
        if people is None or len(entries) != len(people):
            raise _ItemError(f"custom name-ids: {role} needs one entry per name")
        try:
            names[role] = tuple(
                dataclasses.replace(person, ids=tuple(str(i) for i in _list(ids, role)))
                if ids else person for person, ids in zip(people, entries))
        except ModelError as exc:
            raise _ItemError(f"custom name-ids: {exc}") from None


def _names(value: Any, role: str, extra: dict[str, str],
           warn: Callable[[str], None] | None) -> tuple[Name, ...]:
    """The model's names for a CSL-JSON name list. A list with what the model has no slot for
    (``comma-suffix``, ``static-ordering``, ``parse-names``) or cannot hold (a literal name
    that also has name parts) is also kept as written in ``extra``, for ``refbridge format``."""
    if not isinstance(value, list):
        raise _ItemError(f"{role} must be a list of names")
    names = []
    exact = True
    for entry in value:
        if isinstance(entry, Mapping) and not _NAME_KEYS.issuperset(entry) and any(
                key not in _NAME_KEYS and entry[key] not in (None, "", False) for key in entry):
            exact = False
        try:
            names.append(_name(entry, role))
        except _ItemError as exc:
            if warn is None or not isinstance(entry, Mapping) or not entry.get("literal"):
                raise
            warn(f"{str(exc).removeprefix(f'{role}: ')}; read as the literal name")
            names.append(Name(literal=_text(entry["literal"], f"{role} literal")))
            exact = False
    if not exact:
        extra[f"{CSL_EXTRA_PREFIX}{role}"] = json.dumps(value, ensure_ascii=False)
    return tuple(names)


def from_csl(item: Any, source: Source | None = None,
             warn: Callable[[str], None] | None = None,
             left_out: Callable[[str], None] | None = None) -> Record:
    """The record of one CSL-JSON item; raises ``ValueError`` naming the bad value. With
    ``warn``, a date or name the model cannot hold is no error: it is kept in ``extra`` as
    written and ``warn`` hears of it (the CSL-JSON reader does so; other callers get errors).
    ``left_out`` (else ``warn``) hears of a .bib's text in ``custom.hints`` that is left out."""
    if not isinstance(item, Mapping):
        raise _ItemError(f"an item must be an object, not {json.dumps(item)[:40]}")
    for required in ("id", "type"):
        if required not in item:
            raise _ItemError(f"the item has no {required}")
    record_id = _text(item["id"], "id")
    custom: Mapping[str, Any] = item["custom"] if isinstance(item.get("custom"), Mapping) else {}
    fields: dict[str, Text] = {}
    names: dict[str, tuple[Name, ...]] = {}
    dates: dict[str, Date] = {}
    extra: dict[str, str] = dict(_mapping(custom.get(CUSTOM_EXTRA), "custom extra"))
    kinds = _KINDS
    for key, value in item.items():
        if key in _HANDLED or (not value and value in (None, "", [])):
            continue
        if key in ALIASES and ALIASES[key] not in item:
            if key in WRITTEN_ALIASES:
                extra[f"{CSL_EXTRA_PREFIX}{key}"] = _text(value, key)
            key = ALIASES[key]
        kind = kinds.get(key)
        if kind == _RICH or kind == _VERBATIM:
            if isinstance(value, RichText):
                fields[key] = value  # an item made for the CSL engine holds the model's values
                continue
            text = _text(value, key)
            if text.strip():
                fields[key] = text if kind == _VERBATIM else from_markup(text)
        elif kind == _NAMES:
            names[key] = _names(value, key, extra, warn)
        elif kind == _DATE:
            date = _date(value, key, extra, warn)
            if date is not None:
                dates[key] = date
        else:
            extra[f"{CSL_EXTRA_PREFIX}{key}"] = value if isinstance(value, str) else json.dumps(
                value, ensure_ascii=False)
    if custom:
        _take_latex(item, custom, fields, names)
        _take_name_ids(custom, names)
        rest = {k: v for k, v in custom.items() if k not in (
            CUSTOM_EPRINT, CUSTOM_INCOMPLETE, CUSTOM_EXTRA, CUSTOM_KEYWORDS, CUSTOM_DERIVED,
            CUSTOM_LATEX, CUSTOM_RICH, CUSTOM_HINTS, CUSTOM_NAME_IDS, CUSTOM_NOTE_TEXT)}
        if rest:
            extra["csl.custom"] = json.dumps(rest, ensure_ascii=False, sort_keys=True)
    eprint = _eprint_from(item, custom, fields)
    if eprint is None and item.get("categories"):
        extra["csl.categories"] = json.dumps(item["categories"], ensure_ascii=False)
    keywords: list[str] = list(_list(custom.get(CUSTOM_KEYWORDS), "custom keywords"))
    if not keywords and item.get("keyword"):
        keywords = [k.strip() for k in re.split(r"[,;]", _text(item["keyword"], "keyword"))
                    if k.strip()]
    try:
        clean_doi_field(fields)
        return Record(
            id=record_id,
            type=_text(item.get("type"), "type"),
            fields=fields,
            names=names,
            dates=dates,
            keywords=tuple(keywords),
            eprint=eprint,
            incomplete_names=frozenset(
                _text(role, "custom incomplete-names")
                for role in _list(custom.get(CUSTOM_INCOMPLETE), "custom incomplete-names")),
            citation_key=_text(item.get("citation-key", record_id), "citation-key"),
            extra=extra,
            source=source,
            hints=_hints(_mapping(custom.get(CUSTOM_HINTS), "custom hints"),
                         left_out or warn),
        )
    except ModelError as exc:
        raise _ItemError(str(exc)) from None


def _hints(kept: Mapping[str, Any], warn: Callable[[str], None] | None = None
           ) -> dict[str, str]:
    """The layout hints of ``custom.hints``. A .bib's ``@preamble`` is LaTeX that a .bib
    writer writes as it is; from a CSL-JSON file it is data, so one with LaTeX that
    ``refbridge.latex.safety`` finds harmful is kept as a ``@comment``, which no tool runs, and
    a ``@preamble`` or ``@string`` block that runs such LaTeX in a .bib's text between entries
    is left out of it (``warn`` hears of it); the rest of that text (``%`` lines, free text,
    ``@comment``, other blocks) is kept as it is."""
    if not kept:  # (most items)
        return {}
    hints = {str(k): str(v) for k, v in kept.items()}
    preamble = hints.get(HINT_PREAMBLE)
    if preamble is not None and not is_harmless(preamble, preamble=True):
        del hints[HINT_PREAMBLE]
        hints[HINT_COMMENT] = "\n".join(filter(None, (hints.get(HINT_COMMENT), preamble)))
    for hint in (HINT_BEFORE, HINT_AFTER):  # a .bib's text between entries, preambles and all
        if hint not in hints or _LATEX_BLOCK.search(hints[hint]) is None:  # (most texts)
            continue
        kept_text = _without_harm(hints[hint])
        if kept_text == hints[hint]:
            continue
        if kept_text:
            hints[hint] = kept_text
        else:
            del hints[hint]
        if warn is not None:
            warn(f"custom.hints {hint}: a @preamble or @string runs LaTeX that may be "
                 "harmful; left out")
    return hints


#: Where BibTeX reads LaTeX in the text between entries: an ``@preamble`` or ``@string`` block.
#: BibTeX finds one anywhere (after a ``%``, inside an ``@comment``); the rest it skips.
_LATEX_BLOCK = re.compile(r"@\s*(?:preamble|string)\b", re.IGNORECASE)


#: Where the block after one starts (as the .bib parser finds it: an ``@`` first on a line).
_NEXT_BLOCK = re.compile(r"\n[ \t]*@")


def _harmful_blocks(text: str) -> list[tuple[int, int]]:
    """Where the ``@preamble`` and ``@string`` blocks of ``text`` (a .bib's text between
    entries) that run harmful LaTeX are, each up to its closing delimiter, judged as a
    preamble (definitions allowed)."""
    from refbridge.formats.bibtex.syntax import parse_spans

    found = []
    for block in _LATEX_BLOCK.finditer(text):
        # (up to the next block's ``@``: all the first span can reach, so that each block
        # costs its own length, not the rest of the text's)
        following = _NEXT_BLOCK.search(text, block.start() + 1)
        rest = text[block.start():following.end() if following else len(text)]
        span = next(parse_spans(rest, {}), None)
        end = block.start() + span.end if span else len(text)
        if not is_harmless(text[block.start():end], preamble=True):
            found.append((block.start(), end))
    return found


def _without_harm(text: str) -> str:
    """``text`` without its blocks that run harmful LaTeX (``""`` when nothing else is left,
    or when what is left would run some)."""
    harmful = _harmful_blocks(text)
    if not harmful:
        return text
    pieces, end = [], 0
    for start, block_end in harmful:
        if start >= end:  # (not a block inside one left out already)
            pieces.append(text[end:start])
            end = block_end
    kept = "".join([*pieces, text[end:]]).strip("\n")
    return kept if kept.strip() and not _harmful_blocks(kept) else ""


#: How much of the input the reader holds at once: items are decoded one at a time, so a
#: 100 MB file never becomes 100 MB of text plus all its items as Python objects.
_CHUNK = 1 << 20
_SPACE = " \t\r\n"
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _JsonItems:
    """The items of a JSON array read from a stream one at a time, each with its line (a
    single object is one item). Errors raise ``ParseError`` with the file's line and column."""

    def __init__(self, stream: TextIO, source: str) -> None:
        self.stream = stream
        self.source = source
        self.buffer = ""
        self.pos = 0
        self.line = 1  # the line at buffer[counted]
        self.counted = 0  # how far into the buffer lines are counted
        self.line_start = 0  # where in the buffer that line starts (negative: before it)
        self.decoder = json.JSONDecoder()
        #: whether a surrogate's escape (``\\ud800``) was read: only then can an item hold one
        self.escapes_surrogates = False

    def _more(self) -> bool:
        chunk = self.stream.read(_CHUNK)
        if not chunk:
            return False
        self._where(self.pos)  # what is read goes (a file of one line has no line to cut at)
        self.buffer, cut = self.buffer[self.pos:] + chunk, self.pos
        self.escapes_surrogates = self.escapes_surrogates or \
            _SURROGATE_ESCAPE.search(self.buffer) is not None
        self.pos, self.counted, self.line_start = 0, 0, self.line_start - cut
        return True

    def _where(self, offset: int) -> tuple[int, int]:
        """The line and column of *offset* (offsets asked for never go back)."""
        newlines = self.buffer.count("\n", self.counted, offset)
        if newlines:
            self.line += newlines
            self.line_start = self.buffer.rfind("\n", self.counted, offset) + 1
        self.counted = offset
        return self.line, offset - self.line_start + 1

    def _skip(self) -> str:
        """The next character after spaces, "" at the end of the input."""
        while True:
            while self.pos < len(self.buffer) and self.buffer[self.pos] in _SPACE:
                self.pos += 1
            if self.pos < len(self.buffer):
                return self.buffer[self.pos]
            if not self._more():
                return ""

    def _decode(self) -> Any:
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buffer, self.pos)
            except json.JSONDecodeError as exc:
                if self._more():
                    continue
                line, column = self._where(exc.pos)
                raise ParseError(f"not valid JSON: {exc.msg}", self.source, line, column) from None
            except RecursionError:
                raise ParseError("not CSL-JSON: arrays or objects nested too deeply",
                                 self.source, 1) from None
            except ValueError:  # only a number with more digits than Python converts
                raise ParseError("not CSL-JSON: a number has more than 4300 digits",
                                 self.source) from None
            self.pos = end
            return value

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        first = self._skip()
        if first == "":
            raise ParseError("not valid JSON: Expecting value", self.source, 1, 1)
        line = self._where(self.pos)[0]
        if first != "[":
            value = self._decode()
            if not isinstance(value, dict):
                raise ParseError("CSL-JSON must be an array of items or one item object",
                                 self.source, 1)
            self._end()
            yield line, value
            return
        self.pos += 1
        if self._skip() == "]":
            self.pos += 1
            self._end()
            return
        while True:
            yield self._where(self.pos)[0], self._decode()
            char = self._skip()
            if char == "]":
                self.pos += 1
                self._end()
                return
            if char != ",":
                line, column = self._where(self.pos)
                raise ParseError("not valid JSON: Expecting ',' delimiter", self.source, line,
                                 column)
            self.pos += 1
            self._skip()

    def _end(self) -> None:
        if self._skip() != "":
            line, column = self._where(self.pos)
            raise ParseError("not valid JSON: Extra data", self.source, line, column)


def _warner(diagnostics: Diagnostics, item: Any, source: str,
            line: int) -> Callable[[str], None]:
    key = item.get("id") if isinstance(item, Mapping) else None
    return lambda message: diagnostics.warning(f"record {str(key)!r}: {message}", source, line)


def note_data(item: Mapping[str, Any]) -> tuple[Mapping[str, Any], dict[str, Any]]:
    """An item whose ``note`` holds Zotero's Extra (Zotero's CSL JSON export writes Extra as
    the note; see ``refbridge.formats.zotero.extra``) with the data of its lines in their
    places, and the residue of its ``refbridge:`` line. A line gives a variable the item does
    not have (as citeproc-js reads the note; a ``type:`` line gives the type), a ``tex.`` line
    a .bib field, a ``Citation Key:`` line the key; the other lines stay the note. An item
    whose note has such lines came from Zotero, whose CSL export writes its one place field
    as both ``publisher-place`` and ``event-place``: the copy is dropped (a residue gives an
    event place of its own back). A note that refbridge wrote as text (``custom.note-text``)
    is left as it is."""
    note = item.get("note")
    custom = item.get("custom")
    if not isinstance(note, str) or ":" not in note or (
            isinstance(custom, Mapping) and custom.get(CUSTOM_NOTE_TEXT)):
        return item, {}
    from refbridge.formats.zotero.extra import read_extra, tex_extras

    found = read_extra(note)
    if found.text == note.strip("\n"):
        return item, {}
    changed: dict[str, Any] = {k: v for k, v in item.items() if k != "note"}
    if found.text is not None:
        changed["note"] = found.text
    if found.citation_key and "citation-key" not in item:
        changed["citation-key"] = found.citation_key
    for variable, value in found.variables.items():
        if variable == "type" or not changed.get(variable):
            changed[variable] = value
    if (found.citation_key or found.tex or found.residue) and "event-place" in changed \
            and changed.get(
            "event-place") == changed.get("publisher-place"):
        del changed["event-place"]  # Zotero's export writes its one place to both
    if found.tex:
        kept = dict(custom) if isinstance(custom, Mapping) else {}
        extra = dict(_mapping(kept.get(CUSTOM_EXTRA), "custom extra"))
        for name, value in tex_extras(found.tex).items():
            extra.setdefault(name, value)
        changed["custom"] = {**kept, CUSTOM_EXTRA: extra}
    return changed, found.residue


def read_item(item: Any, source: Source | None = None,
              warn: Callable[[str], None] | None = None) -> Record:
    """The record of one item of a CSL-JSON file: ``from_csl`` of the item with the data of
    its note's lines (``note_data``) and its residue applied."""
    if not isinstance(item, Mapping):
        return from_csl(item, source, warn)
    item, difference = note_data(item)
    record = from_csl(item, source, warn)
    if difference:
        record = apply_residues(record, [difference])
    return record


# -- residues: what another format could not carry, as CSL-JSON keys (formats.residue) -----
def residue(original: Record, native: Record) -> dict[str, Any]:
    """The CSL-JSON keys that turn ``native`` (what the format carried) into ``original``.

    A key whose value is ``None`` is one ``native`` has and ``original`` has not; ``custom``
    and the objects in it are compared key by key, so the residue names only the custom keys
    (and the extra fields) that differ.
    """
    wanted, got = to_csl(original), to_csl(native)
    for item in (wanted, got):  # an entry's layout in another format is no data to carry
        custom = item.get(NESTED)
        if isinstance(custom, dict) and HINTS in custom:
            kept = {k: v for k, v in custom.pop(HINTS).items() if k in LIBRARY_HINTS}
            if kept:
                custom[HINTS] = kept
            elif not custom:
                del item[NESTED]
    return item_difference(wanted, got)


def apply_residue(native: Record, difference: Mapping[str, Any],
                  source: Source | None, warn: Callable[[str], None] | None = None) -> Record:
    """``native`` with ``difference`` applied; raises ``ValueError`` naming a bad value.
    ``warn`` hears of a .bib's text that is left out (``from_csl``)."""
    item = to_csl(native)
    apply_to_item(item, difference)
    return from_csl(item, source, left_out=warn)


def apply_residues(native: Record, differences: list[dict[str, Any]],
                   warn: Callable[[str], None] | None = None) -> Record:
    """``native`` with each residue applied; its citation key (or its lack of one) is kept
    unless a residue names the record's ``id``."""
    record = native
    for difference in differences:
        record = apply_residue(record, difference, native.source, warn)
    if record is not native and not any("id" in d for d in differences):
        record = record.replace(id=native.id, citation_key=native.citation_key)
    return record


def residue_note(original: Record, native: Record) -> str | None:
    """The note that turns ``native`` into ``original`` (``refbridge: {…}``), or None."""
    difference = residue(original, native)
    return RESIDUE_PREFIX + dump(difference) if difference else None


def with_extra_fields(record: Record, found: ExtraFields) -> Record:
    """``record`` whose note was the Extra ``found`` read: the note is its text, a variable or a
    .bib field of its lines is given where the record has none, its residue is applied."""
    from refbridge.formats.zotero.extra import tex_extras

    item = to_csl(record)
    item.pop("note", None)
    if found.text is not None:
        item["note"] = found.text
    for variable, value in found.variables.items():
        item.setdefault(variable, value)
    extra = item.setdefault("custom", {}).setdefault("extra", {})
    for name, value in tex_extras(found.tex).items():
        extra.setdefault(name, value)
    base = from_csl(item, record.source).replace(hints=record.hints)
    return apply_residues(base, [found.residue]) if found.residue else base


@mypyc_attr(native_class=False)  # a plain class (see setup.py)
class CslJsonReader(CatalogueReader):
    name = "csl-json"

    #: Any JSON with ``id`` and ``type`` looks like CSL-JSON: other JSON readers go first.


    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        items = _JsonItems(stream, source)
        for line, item in items:
            if items.escapes_surrogates and isinstance(item, Mapping):
                item = repaired(item, reporter(diagnostics, item.get("id"), source, line))
            try:
                yield read_item(item, Source(source, line), _warner(diagnostics, item, source,
                                                                    line))
            except ValueError as exc:
                diagnostics.error(str(exc), source, line)


# -- indented JSON text -----------------------------------------------------------------
#: orjson indents by two spaces; a line's indentation is a run of those pairs.
_ORJSON_STEP = "  "
_LEVELS = re.compile(r"^(?:  )+", re.MULTILINE)


def indented_json(item: Mapping[str, Any] | list[Any], indent: str) -> str:
    """An item (as ``to_csl`` makes it: text, integers, booleans, lists and objects) as JSON
    text, exactly as ``json.dumps(item, ensure_ascii=False, indent=len(indent))`` writes it,
    with ``indent`` before every line (the items of a top-level array).

    Why orjson: Python's json falls back to its pure-Python encoder when ``indent`` is set;
    that took 0.27 s of the 0.37 s spent writing 10,028 records from biblatex-examples.bib,
    and orjson does the same in 0.02 s. What orjson refuses (an integer beyond 64 bits, a lone
    surrogate, a key that is not text) is left to json.dumps.
    """
    import orjson  # here: only writers of JSON pay for the import

    try:
        text = orjson.dumps(item, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        text = json.dumps(item, ensure_ascii=False, indent=len(indent))
    else:
        if indent != _ORJSON_STEP:  # strings hold no raw line break: every line start is
            text = _LEVELS.sub(lambda m: indent * (len(m.group()) // 2), text)  # indentation
    return indent + text.replace("\n", "\n" + indent)


@mypyc_attr(native_class=False)  # a plain class (see setup.py)
class CslJsonWriter:
    name = "csl-json"
    description = WRITERS["csl-json"].description
    extension = WRITERS["csl-json"].extension

    framing = Framing(head="[\n", separator=",\n", tail="\n]\n", empty="[]\n")

    def record_text(self, record: Record, options: WriteOptions) -> str:
        return indented_json(to_csl(record), options.indent)

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        write_framed(map(self.record_text, records, repeat(options)), out, self.framing)


READER = CslJsonReader()
WRITER = CslJsonWriter()
#: the model's own vocabulary carries every part (``refbridge.coverage``)
COVERAGE = Coverage(
    format="csl-json",
    native={**{p: p for p in TEXT_VARIABLES + NAME_VARIABLES + DATE_VARIABLES},
            "type": "type", "citation-key": "id", "keywords": "keyword",
            "eprint": "custom.eprint", "incomplete-names": "custom.incomplete-names",
            "extra": "custom.extra"},
    notes=("Every model part is a CSL-JSON key or a key of the schema's `custom` object.",),
)

