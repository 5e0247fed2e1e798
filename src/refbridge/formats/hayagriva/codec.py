"""Hayagriva YAML reader and writer: Typst's bibliography files (``#bibliography("refs.yml")``).

A file is one YAML mapping of citation keys to entries; an entry has a ``type``, fields, and
``parent`` entries for where it appeared (``tables`` says which parent holds which
CSL variable, as Typst reads them). Values are formattable strings, persons and dates
(``syntax``); identifiers are the keys of ``serial-number``. YAML is read with
PyYAML's safe composer and every scalar is taken as the text it is written as (``volume:
012`` stays ``012``, a date stays text); nothing is ever constructed as a Python object.

What the format has no field for (italics, name particles it cannot spell, date ranges,
keywords, the CSL type where two share an entry type, other formats' extra fields) is kept
under the entry's ``refbridge`` key, a mapping of CSL-JSON keys (``formats.residue``) that
Typst ignores, so reading refbridge's own file gives back the records written. Fields of the
input that refbridge has no slot for are kept as ``hayagriva.FIELD`` extras (the container
parent's as ``hayagriva.container.FIELD`` ...) and written back where they were.

This module must never drop a record or a value silently: problems go to ``Diagnostics``
with the file and line, and bad YAML is an error with its line.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import yaml

from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.csljson import apply_residues, residue
from refbridge.formats.hayagriva import tables as t
from refbridge.formats.hayagriva.syntax import (
    UnmatchedBrace,
    format_date,
    format_formattable,
    format_person,
    parse_date,
    parse_person,
    person_from_fields,
    read_formattable,
)
from refbridge.formats.residue import RESIDUE_LABEL
from refbridge.formats.selection import select
from refbridge.formats.surrogates import repaired, reporter
from refbridge.model import Date, Eprint, ModelError, Name, Record, Source, extra_key
from refbridge.registry import Framing, WriteOptions, write_framed
from refbridge.richtext import Text, without_latex

NAMESPACE = "hayagriva"
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_NULL = "tag:yaml.org,2002:null"
#: How deep a value may nest, and how many values an entry may hold (YAML aliases can
#: repeat a value without limit).
_MAX_DEPTH = 40
_MAX_VALUES = 100_000
_ARXIV = "arXiv"
#: What Typst accepts as a URL (an absolute address) and as a language identifier.
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$")
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$")
_WHOLE_NUMBER = re.compile(r"^[1-9][0-9]{0,8}$")


class _EntryError(ValueError):
    """An entry that cannot be read."""


# -- YAML -> plain data ---------------------------------------------------------------------
@dataclass(slots=True)
class _Budget:
    left: int = _MAX_VALUES


def _data(node: yaml.Node, budget: _Budget, depth: int = 0) -> Any:
    """A node as text, lists and dicts (a plain null as None); raises ``_EntryError`` past
    the limits."""
    budget.left -= 1
    if depth > _MAX_DEPTH or budget.left < 0:
        raise _EntryError("values nested too deeply or repeated too often")
    if isinstance(node, yaml.ScalarNode):
        return None if node.tag == _NULL else str(node.value)
    if isinstance(node, yaml.SequenceNode):
        return [_data(item, budget, depth + 1) for item in node.value]
    mapping: dict[str, Any] = {}
    for key, value in node.value:
        name = _data(key, budget, depth + 1)
        mapping[name if isinstance(name, str) else json.dumps(name)] = _data(
            value, budget, depth + 1)
    return mapping


class _TextDates(yaml.SafeLoader):
    """YAML's safe constructor, with what looks like a date kept as text: the writer leaves
    dates unquoted (``_Dumper``), and the residue holds CSL-JSON, which has no dates."""


_TextDates.add_constructor("tag:yaml.org,2002:timestamp",  # type: ignore[type-var]
                           yaml.SafeLoader.construct_yaml_str)


def _typed(node: yaml.Node) -> Any:
    """A node as YAML's safe constructor builds it (the ``refbridge`` residue's numbers,
    booleans and nulls; a date as its text)."""
    return _TextDates("").construct_document(node)


def _compose(stream: TextIO, source: str) -> yaml.Node | None:
    try:
        return yaml.compose(stream, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(filter(None, (exc.context, exc.problem)))
        raise ParseError(f"not valid YAML: {problem}", source,
                         mark.line + 1 if mark else None,
                         mark.column + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise ParseError(f"not valid YAML: {exc}", source) from None


# -- reading ----------------------------------------------------------------------------------
@dataclass(slots=True)
class _Fields:
    """The fields of one place of an entry; those no table takes stay as its extras."""

    place: str
    data: dict[str, Any]
    built: _Built
    taken: set[str] = field(default_factory=lambda: {"type"})

    def get(self, key: str) -> Any:
        return self.data.get(key)

    def take(self, key: str) -> None:
        self.taken.add(key)

    def rest(self) -> dict[str, Any]:
        return {k: v for k, v in self.data.items()
                if k not in self.taken and v is not None and k != RESIDUE_LABEL}


@dataclass(slots=True)
class _Built:
    """What the places of an entry give, the first value of a variable winning."""

    warn: Callable[[str], None]
    fields: dict[str, Text] = field(default_factory=dict)
    names: dict[str, tuple[Name, ...]] = field(default_factory=dict)
    dates: dict[str, Date] = field(default_factory=dict)
    extra: dict[str, str] = field(default_factory=dict)
    eprint: Eprint | None = None

    def has(self, variable: str) -> bool:
        return variable in self.fields or variable in self.names or variable in self.dates


def _text(value: Any, key: str, built: _Built) -> tuple[Text, Text | None] | None:
    """A formattable string (text, or a mapping of ``value``, ``verbatim`` and ``short``)
    and its short form; None for another shape."""
    short: Text | None = None
    if isinstance(value, dict):
        if isinstance(value.get("short"), (str, dict)):
            found = _text(value["short"], key, built)
            short = found[0] if found else None
        verbatim = str(value.get("verbatim", "")).strip().lower() == "true"
        value = value.get("value")
        if isinstance(value, dict):
            verbatim = str(value.get("verbatim", "")).strip().lower() == "true"
            value = value.get("value")
        if not isinstance(value, str):
            return None
    elif not isinstance(value, str):
        return None
    else:
        verbatim = False
    if not value.strip():
        return None
    try:
        return read_formattable(value, verbatim), short
    except UnmatchedBrace as exc:
        built.warn(f"{key}: {exc} (Typst refuses it); read as written")
        return value, short


def _persons(value: Any, key: str, built: _Built) -> tuple[Name, ...] | None:
    """A person or a list of persons; None when one of them is no person."""
    people: list[Name] = []
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str):
            person = parse_person(item)
        elif isinstance(item, dict) and set(item) <= {"name", "given-name", "prefix", "suffix",
                                                       "alias"}:
            parts = [item.get(k) for k in ("name", "given-name", "prefix", "suffix")]
            if not all(p is None or isinstance(p, str) for p in parts):
                return None
            person = person_from_fields(*parts)
            if item.get("alias"):
                built.warn(f"{key}: the alias {item['alias']!r} of a person is not kept")
        else:
            return None
        if person is None:
            return None
        people.append(person)
    return tuple(people) or None


def _put(built: _Built, variable: str, value: Any) -> bool:
    """Set ``variable`` unless a place read before set it; whether it was set."""
    if built.has(variable):
        return False
    if isinstance(value, tuple):
        built.names[variable] = value
    elif isinstance(value, Date):
        built.dates[variable] = value
    else:
        built.fields[variable] = value
    return True


def _scalar(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _read_place(fields: _Fields, built: _Built) -> None:
    """The variables the tables give for the fields of one place."""
    place = fields.place
    for key, variable in t.TEXT_FIELDS[place].items():
        found = _text(fields.get(key), key, built)
        if found is not None and _put(built, variable, found[0]):
            fields.take(key)
            if found[1] is not None and key == "title" and place in t.SHORT_TITLES:
                _put(built, t.SHORT_TITLES[place], found[1])
    for key, variable in t.NUMBER_FIELDS[place].items():
        text = _scalar(fields.get(key))
        if text is not None and _put(built, variable, text):
            fields.take(key)
    for key, variable in t.NAME_FIELDS[place].items():
        if fields.get(key) is not None:
            people = _persons(fields.get(key), key, built)
            if people is not None and _put(built, variable, people):
                fields.take(key)
    date = _scalar(fields.get("date"))
    if place in t.DATE_FIELDS and date is not None and _put(
            built, t.DATE_FIELDS[place], parse_date(date)):
        fields.take("date")
    if place in t.PUBLISHER_FIELDS:
        _read_publisher(fields, built, *t.PUBLISHER_FIELDS[place])


def _read_publisher(fields: _Fields, built: _Built, name_variable: str,
                    place_variable: str) -> None:
    value = fields.get("publisher")
    parts = value if isinstance(value, dict) and set(value) <= {"name", "location"} else {
        "name": value}
    found = {variable: _text(parts.get(key), "publisher", built)
             for key, variable in (("name", name_variable), ("location", place_variable))}
    if value is None or any(found[v] is None and parts.get(k) is not None for k, v in (
            ("name", name_variable), ("location", place_variable))) or any(
            built.has(v) for v, f in found.items() if f is not None):
        return
    for variable, text in found.items():
        if text is not None:
            _put(built, variable, text[0])
    fields.take("publisher")


def _read_url(fields: _Fields, built: _Built) -> None:
    value = fields.get("url")
    if isinstance(value, dict) and set(value) <= {"value", "date"}:
        address, date = _scalar(value.get("value")), _scalar(value.get("date"))
        if value.get("date") is not None and date is None:
            return
    else:
        address, date = _scalar(value), None
    if address is None:
        return
    built.fields["URL"] = address
    if date is not None:
        built.dates["accessed"] = parse_date(date)
    fields.take("url")


def _read_serials(fields: _Fields, built: _Built) -> None:
    """The identifiers of ``serial-number`` (a text alone: the serial number), and of the
    top-level ``doi``, ``isbn`` and ``issn`` of older files; a container's ISSN and ISBN."""
    value = fields.get("serial-number")
    serials = dict(value) if isinstance(value, dict) else {}
    if isinstance(value, str) and value.strip():
        serials = {"serial": value}
    for key in t.LEGACY_SERIALS:
        if _scalar(fields.get(key)) is not None and key not in serials:
            serials[key] = fields.get(key)
            fields.take(key)
    if not serials:
        return
    unread: dict[str, Any] = {}
    container = fields.place == t.CONTAINER
    for key, number in serials.items():
        text = _scalar(number)
        variable = t.SERIAL_NUMBERS.get(key)
        if text is None or container and key not in t.CONTAINER_SERIALS:
            unread[key] = number
        elif variable is not None and _put(built, variable, text):
            continue
        elif key == t.ARXIV_SERIAL and built.eprint is None:
            built.eprint = Eprint(_ARXIV, text)
        else:
            unread[key] = number
    if isinstance(value, str) and unread:
        return  # the serial number alone, which a place read before holds: kept as it is
    fields.take("serial-number")
    if unread:
        built.extra[_extra_key(fields.place, "serial-number")] = json.dumps(
            unread, ensure_ascii=False)


def _read_affiliated(fields: _Fields, built: _Built) -> None:
    value = fields.get("affiliated")
    if value is None:
        return
    unread: list[Any] = []
    for group in value if isinstance(value, list) else [value]:
        role = group.get("role") if isinstance(group, dict) else None
        variable = t.ROLES.get(re.sub(r"(?<!^)(?=[A-Z])", "-", role).lower()) if isinstance(
            role, str) else None
        people = _persons(group.get("names"), f"affiliated {role}", built) \
            if variable and isinstance(group, dict) and set(group) <= {"role", "names"} else None
        if variable is None or people is None or not _put(built, variable, people):
            unread.append(group)
    fields.take("affiliated")
    if unread:
        built.extra[_extra_key(t.ENTRY, "affiliated")] = json.dumps(unread, ensure_ascii=False)


def _extra_key(place: str, key: str) -> str:
    return extra_key(NAMESPACE, key if place == t.ENTRY else f"{place}.{key}")


def _entry_type(value: Any, default: str, built: _Built) -> str:
    if value is None:
        return default
    text = _scalar(value)
    kind = text.lower() if text else None
    if kind not in t.ENTRY_TYPES:
        built.warn(f"unknown entry type {value!r}; read as {t.FALLBACK_TYPE}")
        return t.FALLBACK_TYPE
    return kind


def _parents(data: Mapping[str, Any], entry_type: str, built: _Built
             ) -> list[tuple[str, dict[str, Any]]] | None:
    """The parents of an entry with their types (None: ``parent`` is not entries)."""
    value = data.get("parent")
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(item, dict) for item in items):
        return None
    default = t.DEFAULT_PARENT.get(entry_type, t.FALLBACK_TYPE)
    return [(_entry_type(item.get("type"), default, built), item) for item in items]


def _take_parent(parents: list[tuple[str, dict[str, Any]]], types: Iterable[str]
                 ) -> tuple[str, dict[str, Any]] | None:
    """The first parent of the first of ``types`` there is, taken out of ``parents``."""
    for kind in types:
        for index, (found, _) in enumerate(parents):
            if found == kind:
                return parents.pop(index)
    return None


def _keep_rest(fields: _Fields, rest_parents: list[dict[str, Any]] | None = None) -> None:
    """The fields of a place no table took, and its parents not read (when its parents were
    read), as extras."""
    extra = fields.built.extra
    for key, value in fields.rest().items():
        if key != "type":
            extra[_extra_key(fields.place, key)] = json.dumps(value, ensure_ascii=False)
    if rest_parents:
        extra[_extra_key(fields.place, "parent")] = json.dumps(rest_parents,
                                                               ensure_ascii=False)


def _read_parent(place: str, parent: tuple[str, dict[str, Any]] | None, built: _Built,
                 rest_parents: list[dict[str, Any]] | None = None) -> None:
    """The variables of a parent read as ``place``; ``rest_parents``: its own parents that
    were not read, when they were looked at."""
    if parent is None:
        return
    fields = _Fields(place, parent[1], built)
    _read_place(fields, built)
    if place == t.CONTAINER:
        _read_serials(fields, built)
    if rest_parents is not None:
        fields.take("parent")
    _keep_rest(fields, rest_parents)


def csl_type(entry_type: str, container_type: str | None) -> str:
    """The CSL item type of an entry type with its container's type."""
    pair = t.PAIR_TO_CSL.get((entry_type, container_type)) if container_type else None
    return pair or t.ENTRY_TO_CSL[entry_type]


def read_entry(key: str, data: Any, source: Source | None, warn: Callable[[str], None],
               residue_data: Any = None) -> Record:
    """The record of one entry; raises ``ValueError`` naming what is wrong."""
    if not isinstance(data, dict):
        raise _EntryError(f"entry {key!r} must be a mapping of fields")
    built = _Built(warn)
    entry_type = _entry_type(data.get("type"), t.FALLBACK_TYPE, built)
    parents = _parents(data, entry_type, built)
    entry = _Fields(t.ENTRY, data, built)
    if parents is None:
        parents = []
    else:
        entry.take("parent")
    container = _take_parent(parents, t.CONTAINERS.get(entry_type, ()))
    event = _take_parent(parents, sorted(t.EVENT_TYPES))
    original = _take_parent(parents, [t.ORIGINAL_TYPE])
    _read_place(entry, built)
    _read_url(entry, built)
    _read_serials(entry, built)
    _read_affiliated(entry, built)
    if _scalar(data.get("language")) is not None:
        built.fields["language"] = data["language"].strip()
        entry.take("language")
    # the collection is the parent of the container (or of the entry) of its type
    holder_type = container[0] if container else entry_type
    holder_parents = parents if container is None else _parents(container[1], holder_type,
                                                                built)
    collection = None
    if holder_type in t.COLLECTION_HOLDERS and holder_parents:
        collection = _take_parent(holder_parents, [holder_type, "anthology"])
    if container is not None:
        _read_parent(t.CONTAINER, container, built,
                     None if holder_parents is None else [p for _, p in holder_parents])
    _read_parent(t.COLLECTION, collection, built)
    _read_parent(t.EVENT, event, built)
    _read_parent(t.ORIGINAL, original, built)
    _keep_rest(entry, [p for _, p in parents])
    item_type = csl_type(entry_type, container[0] if container else None)
    written = t.CSL_TO_ENTRY.get(item_type, (t.FALLBACK_TYPE, None))
    if entry_type != written[0]:  # the entry type CSL's type does not tell
        built.extra[_extra_key(t.ENTRY, "type")] = entry_type
    if container is not None and container[0] != written[1]:
        built.extra[_extra_key(t.CONTAINER, "type")] = container[0]
    try:
        record = Record(id=key, type=item_type, fields=built.fields, names=built.names,
                        dates=built.dates, eprint=built.eprint, citation_key=key,
                        extra=built.extra, source=source)
    except ModelError as exc:
        raise _EntryError(str(exc)) from None
    if residue_data is None:
        return record
    if not isinstance(residue_data, dict):
        raise _EntryError(f"{RESIDUE_LABEL}: must be a mapping of CSL-JSON keys")
    try:
        return apply_residues(record, [residue_data], warn)
    except (ValueError, TypeError) as exc:
        raise _EntryError(f"{RESIDUE_LABEL}: {exc}") from None


def _entries(root: yaml.Node, source: str) -> Iterator[tuple[str | None, int, yaml.Node]]:
    """(citation key, line, entry node) of each entry; the key is None when it is no text."""
    if not isinstance(root, yaml.MappingNode):
        raise ParseError("a Hayagriva file must be a mapping of citation keys to entries",
                         source, root.start_mark.line + 1)
    for key, value in root.value:
        text = str(key.value).strip() if isinstance(key, yaml.ScalarNode) else ""
        yield text or None, key.start_mark.line + 1, value


def _residue_node(node: yaml.Node) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == RESIDUE_LABEL:
                return value  # type: ignore[no-any-return]
    return None


class HayagrivaReader(catalogue.CatalogueReader):
    name = "hayagriva"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        root = _compose(stream, source)
        if root is None or isinstance(root, yaml.ScalarNode) and root.tag == _NULL:
            return
        seen: set[str] = set()
        for key, line, node in _entries(root, source):
            if key is None:
                diagnostics.error("a citation key must be text", source, line)
                continue

            def warn(message: str, key: str = key, line: int = line) -> None:
                diagnostics.warning(f"entry {key!r}: {message}", source, line)

            if key in seen:
                warn("the citation key is used before (Typst refuses the file); both are read")
            seen.add(key)
            try:
                found = _residue_node(node)
                data = repaired(_data(node, _Budget()), reporter(diagnostics, key, source, line))
                yield read_entry(key, data, Source(source, line), warn,
                                 _typed(found) if found is not None else None)
            except (ValueError, yaml.YAMLError) as exc:
                diagnostics.error(f"entry {key!r}: {exc}", source, line)


# -- writing ----------------------------------------------------------------------------------
@dataclass(slots=True)
class _Entry:
    """An entry being written: a dict per place."""

    record: Record
    places: dict[str, dict[str, Any]]
    container_type: str | None
    holder_type: str

    def place(self, name: str) -> dict[str, Any]:
        if name not in self.places:
            kinds = {t.CONTAINER: self.container_type, t.COLLECTION: self.holder_type,
                     t.EVENT: t.EVENT_TYPE, t.ORIGINAL: t.ORIGINAL_TYPE}
            self.places[name] = {"type": kinds.get(name) or t.FALLBACK_TYPE}
        return self.places[name]


def _writes(entry: _Entry, place: str, variable: str) -> bool:
    """Whether ``place`` holds ``variable`` in ``entry`` (each variable has one place)."""
    record = entry.record
    has_event = "event-title" in record.fields or "event-date" in record.dates
    if place == t.ENTRY:
        return not (variable in t.CONTAINER_VARIABLES and entry.container_type) and not (
            variable == "event-place" and has_event)
    if place == t.CONTAINER:
        return entry.container_type is not None and variable in t.CONTAINER_VARIABLES
    if place == t.COLLECTION:
        return entry.holder_type in t.COLLECTION_HOLDERS
    if place == t.EVENT:
        return has_event
    return True


def _number(key: str, value: Text) -> str | int | None:
    text = str(value)
    if key in t.WHOLE_NUMBER_FIELDS:
        return int(text) if _WHOLE_NUMBER.match(text) else None
    return int(text) if _WHOLE_NUMBER.match(text) else text


def _write_place(entry: _Entry, place: str) -> None:
    record = entry.record
    for key, variable in t.TEXT_FIELDS[place].items():
        value = record.fields.get(variable)
        if value is not None and _writes(entry, place, variable):
            short_variable = t.SHORT_TITLES.get(place) if key == "title" else None
            short = record.fields.get(short_variable) if short_variable else None
            text = format_formattable(value)
            entry.place(place)[key] = {"value": text, "short": format_formattable(short)} \
                if short is not None else text
    for key, variable in t.NUMBER_FIELDS[place].items():
        value = record.fields.get(variable)
        if value is not None and _writes(entry, place, variable):
            number = _number(key, value)
            if number is not None:
                entry.place(place)[key] = number
    for key, variable in t.NAME_FIELDS[place].items():
        people = record.names.get(variable)
        if people and _writes(entry, place, variable):
            entry.place(place)[key] = [format_person(person) for person in people]
    date_variable = t.DATE_FIELDS.get(place)
    date = record.dates.get(date_variable) if date_variable and place != t.CONTAINER else None
    if date_variable and date is not None and _writes(entry, place, date_variable):
        written = _date_text(date)
        if written is not None:
            entry.place(place)["date"] = written
    if place in t.PUBLISHER_FIELDS:
        name_variable, place_variable = t.PUBLISHER_FIELDS[place]
        parts = {key: format_formattable(value) for key, value in (
            ("name", record.fields.get(name_variable)),
            ("location", record.fields.get(place_variable))) if value is not None}
        if parts and _writes(entry, place, name_variable):
            entry.place(place)["publisher"] = parts if "location" in parts else parts["name"]


def _date_text(date: Date) -> str | int | None:
    """The date a Typst file holds (a year alone as a number), None for none or a year of
    more than four digits."""
    text = format_date(date)
    if text is None or abs(date.year or 0) >= 10_000:
        return None
    return int(text) if re.fullmatch(r"[1-9][0-9]{3}", text) else text


def _write_entry_fields(entry: _Entry) -> None:
    record = entry.record
    fields = entry.place(t.ENTRY)
    address, accessed = record.fields.get("URL"), record.dates.get("accessed")
    if address is not None and _URL.match(str(address)):
        visited = format_date(accessed) if accessed is not None else None
        fields["url"] = {"value": str(address), "date": visited} if visited else str(address)
    serials: dict[str, dict[str, str]] = {}
    for key, variable in t.SERIAL_NUMBERS.items():
        value = record.fields.get(variable)
        if value is not None:
            place = t.CONTAINER if entry.container_type and key in t.CONTAINER_SERIALS \
                else t.ENTRY
            serials.setdefault(place, {})[key] = str(value)
    if record.eprint is not None and record.eprint.archive == _ARXIV \
            and record.eprint.identifier:
        serials.setdefault(t.ENTRY, {})[t.ARXIV_SERIAL] = record.eprint.identifier
    for place, numbers in serials.items():
        entry.place(place)["serial-number"] = numbers["serial"] if list(numbers) == [
            "serial"] else numbers
    groups = [{"role": role, "names": [format_person(p) for p in record.names[variable]]}
              for variable, role in t.ROLE_OF.items() if variable in record.names]
    if groups:
        fields["affiliated"] = groups
    language = record.fields.get("language")
    if language is not None and _LANGUAGE.match(str(language)):
        fields["language"] = str(language)


def _give_back_extras(entry: _Entry) -> None:
    """The ``hayagriva.*`` extras, in their places (a field written from the model wins)."""
    places = {t.CONTAINER, t.COLLECTION, t.EVENT, t.ORIGINAL}
    for name, text in entry.record.extra_for(NAMESPACE):
        if name in ("type", "container.type"):
            continue  # see _types
        place, _, key = name.partition(".")
        if place not in places or not key:
            place, key = t.ENTRY, name
        try:
            value = json.loads(text)
        except ValueError:
            value = text
        fields = entry.places[t.ENTRY] if place == t.ENTRY else entry.place(place)
        kept = fields.get(key)
        if isinstance(kept, dict) and isinstance(value, dict):
            fields[key] = {**value, **kept}
        elif isinstance(kept, list) and isinstance(value, list):
            fields[key] = kept + value
        elif kept is None:
            fields[key] = value


def _ordered(fields: dict[str, Any]) -> dict[str, Any]:
    order = {key: index for index, key in enumerate(t.FIELD_ORDER)}
    return dict(sorted(fields.items(), key=lambda item: order.get(item[0], len(order))))


def _with_parents(fields: dict[str, Any], parents: list[dict[str, Any]]) -> dict[str, Any]:
    kept = fields.get("parent")
    kept = kept if isinstance(kept, list) else [kept] if kept is not None else []
    every = [*parents, *kept]
    if every:
        fields["parent"] = every[0] if len(every) == 1 else every
    return _ordered(fields)


def _types(record: Record) -> tuple[str, str | None]:
    """The entry type and container type of ``record``: those its ``hayagriva.type`` and
    ``hayagriva.container.type`` extras keep, when they still give its CSL type."""
    entry_type, container_type = t.CSL_TO_ENTRY.get(record.type, (t.FALLBACK_TYPE, None))
    kept = (record.extra.get(_extra_key(t.ENTRY, "type"), entry_type),
            record.extra.get(_extra_key(t.CONTAINER, "type"), container_type))
    if kept[0] in t.ENTRY_TYPES and (kept[1] is None or kept[1] in t.ENTRY_TYPES) \
            and csl_type(*kept) == record.type:
        return kept
    return entry_type, container_type


def native_entry(record: Record) -> dict[str, Any]:
    """The Hayagriva entry of ``record`` as the format's own fields hold it."""
    entry_type, container_type = _types(record)
    entry = _Entry(record, {t.ENTRY: {"type": entry_type}}, container_type,
                   container_type or entry_type)
    if container_type is not None:
        entry.place(t.CONTAINER)
    for place in (t.ENTRY, t.CONTAINER, t.COLLECTION, t.EVENT, t.ORIGINAL):
        _write_place(entry, place)
    _write_entry_fields(entry)
    _give_back_extras(entry)
    places = entry.places
    if t.COLLECTION in places:
        holder = t.CONTAINER if container_type else t.ENTRY
        places[holder] = _with_parents(places[holder], [places.pop(t.COLLECTION)])
    parents = [_with_parents(places.pop(p), []) for p in (t.CONTAINER, t.EVENT, t.ORIGINAL)
               if p in places]
    return _with_parents(places[t.ENTRY], parents)


#: The YAML emitter: libyaml's when PyYAML has it (five times as fast), else PyYAML's own,
#: which writes the same text.
_EMITTER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_EMITTER):  # type: ignore[misc]
    """Block YAML with dates unquoted: YAML 1.2, which Typst reads, has no dates, and
    refbridge's reader takes every value as text."""

    yaml_implicit_resolvers = {  # noqa: RUF012 (PyYAML reads it from the class)
        first: [(tag, pattern) for tag, pattern in resolvers
                if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeDumper.yaml_implicit_resolvers.items()}


def dump(entries: Mapping[str, Any]) -> str:
    return yaml.dump(dict(entries), Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                     default_flow_style=False, width=100_000)


def _without_spellings(record: Record) -> Record:
    """``record`` without the .bib spellings of its values and names: hints for LaTeX
    writers, no data (a Typst file is no place for them)."""
    return record.replace(
        fields={key: without_latex(value) for key, value in record.fields.items()},
        names={role: tuple(dataclasses.replace(person, latex=None) for person in people)
               for role, people in record.names.items()})


def format_record(record: Record) -> str:
    """The YAML text of ``record``'s entry, with a residue when the format's fields lose
    something."""
    key = record.citation_key or record.id
    fields = native_entry(record)
    (native,) = HayagrivaReader().read(io.StringIO(dump({key: fields})), "<hayagriva>",
                                       Diagnostics())
    difference = residue(_without_spellings(record), native)
    if difference:
        fields[RESIDUE_LABEL] = difference
    return dump({key: fields})


#: Names ``--fields`` takes besides model parts: the format's own fields.
FIELD_PARTS: dict[str, str] = {
    **{key: variable for table in (*t.TEXT_FIELDS.values(), *t.NUMBER_FIELDS.values())
       for key, variable in table.items() if key not in ("title", "location", "volume")},
    "title": "title", "date": "issued", "url": "URL", **t.SERIAL_NUMBERS}


class HayagrivaWriter:
    name = "hayagriva"
    description = catalogue.WRITERS["hayagriva"].description
    extension = catalogue.WRITERS["hayagriva"].extension
    framing = Framing(separator="\n", empty="{}\n")

    def record_text(self, record: Record, options: WriteOptions) -> str:
        return format_record(select(record, options, FIELD_PARTS))

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        write_framed((self.record_text(r, options) for r in records), out, self.framing)


def _where(variable: str) -> str:
    """The fields that hold ``variable`` (for the coverage table)."""
    places = []
    for place in (t.ENTRY, t.CONTAINER, t.COLLECTION, t.EVENT, t.ORIGINAL):
        for table in (t.TEXT_FIELDS, t.NUMBER_FIELDS, t.NAME_FIELDS):
            places += [key if place == t.ENTRY else f"{place} {key}"
                       for key, found in table[place].items() if found == variable]
        if t.DATE_FIELDS.get(place) == variable:
            places.append("date" if place == t.ENTRY else f"{place} date")
        if variable in t.PUBLISHER_FIELDS.get(place, ()):
            places.append("publisher" if place == t.ENTRY else f"{place} publisher")
    return "; ".join(dict.fromkeys(places))


def _coverage() -> Coverage:
    native = {part: where for part in MODEL_PARTS if (where := _where(part))}
    native |= {"type": "type + container parent type", "citation-key": "entry key",
               "URL": "url", "accessed": "url date", "language": "language",
               "eprint": "serial-number arxiv", "extra": "hayagriva.* extras as their fields",
               "title-short": "title short", "container-title-short": "container title short",
               **{v: f"serial-number {k}" for k, v in t.SERIAL_NUMBERS.items()},
               **{v: f"affiliated {k}" for k, v in t.ROLES.items()}}
    elsewhere = {part: f"the `{RESIDUE_LABEL}` key" for part in MODEL_PARTS
                 if part not in native}
    kept = frozenset(csl for csl, (kind, container) in t.CSL_TO_ENTRY.items()
                     if (t.PAIR_TO_CSL.get((kind, container)) if container else None)
                     or t.ENTRY_TO_CSL[kind] == csl)
    return Coverage(
        format="hayagriva", native=native, elsewhere=elsewhere, kept_types=kept,
        notes=(
            ("Parents hold the container (a journal article's `periodical`, a chapter's "
             "`book`), its collection (the container's parent of its own type), the event "
             "(a `conference` parent) and the original (an `original` parent), as Typst "
             "reads them; the CSL type is the entry type with its container's type."),
            ("Values are formattable strings: case protection is `{...}`; italics, bold, "
             "sub- and superscripts and formulas are written as their text for Typst, their "
             "structure in the `refbridge` key."),
            ("Names Hayagriva cannot spell (dropping particles, a family name alone) and "
             "date ranges, seasons, circa and literal dates travel in the `refbridge` key, a "
             "mapping of CSL-JSON keys that Typst ignores; so do values Typst would refuse "
             "(a URL that is not absolute, a language that is no language identifier)."),
        ),
    )


READER = HayagrivaReader()
WRITER = HayagrivaWriter()
COVERAGE = _coverage()
