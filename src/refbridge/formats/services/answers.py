"""What the readers of services' data (ORCID, dblp, OpenAlex, Semantic Scholar, arXiv) share.

XML is parsed without entity expansion, network access or a document type declaration (one is
refused: entities are never expanded), and JSON with a message naming the file, line and
column where it breaks; ``as_map``, ``as_list`` and ``as_text`` read a member of the shape the
service documents and nothing else (a value of another shape counts as absent, never as a
crash). ``JsonLines`` finds the line of each work in a JSON answer, for
messages; ``element_text`` reads an XML element with inline markup (``<i>``, ``<sub>`` ...)
as rich text; ``owned`` marks the records of one person's publication list with that person
(``profile.owner``, ``profile.owner-id``), which is whom a CV highlights. This module must
never know one service's format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.profile import OWNER_EXTRA, OWNER_ID_EXTRA
from refbridge.formats.xml.safe import without_declaration
from refbridge.model import ModelError, Record, Source
from refbridge.names.ids import owner_id_text, owner_ids
from refbridge.richtext import Inline, Text, map_text, rich, strip, styled

if TYPE_CHECKING:
    from lxml.etree import _Element

_SPACES = re.compile(r"\s+")
#: The JSON escape of a surrogate code point: only text holding one may hold a lone one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def parse_xml(text: str, source: str, what: str) -> _Element:
    """The root element of ``text``; ``what`` names the format in messages."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(without_declaration(text, source), parser)
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise ParseError(f"not well-formed XML: {exc.msg}", source, line, column) from None
    if root.getroottree().docinfo.doctype:
        raise ParseError(f"a document type declaration is not allowed in {what} "
                         "(entities are never expanded)", source, 1)
    return root


def load_json(text: str, source: str, what: str, diagnostics: Diagnostics | None = None
              ) -> Any:
    """The JSON value of ``text``; ``what`` names the format in messages. With
    ``diagnostics``, lone surrogates are replaced and reported (``formats.surrogates``)."""
    try:
        value = json.loads(text)
        if diagnostics is not None and _SURROGATE_ESCAPE.search(text):
            from refbridge.formats.surrogates import repaired, reporter

            value = repaired(value, reporter(diagnostics, None, source))
        return value
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid JSON: {exc.msg}", source, exc.lineno, exc.colno) from None
    except (RecursionError, ValueError):
        raise ParseError(f"not {what}: nested too deeply or a number too long", source,
                         1) from None


def as_map(value: Any) -> Mapping[str, Any]:
    """A JSON member that should be an object (anything else reads as an empty one)."""
    return value if isinstance(value, Mapping) else {}


def as_list(value: Any) -> list[Any]:
    """A JSON member that should be an array (anything else reads as an empty one)."""
    return value if isinstance(value, list) else []


def as_text(value: Any) -> str:
    """A JSON member that should be text (a number counts), whitespace runs made one space;
    anything else reads as no text."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return ""
    return " ".join(str(value).split())


class JsonLines:
    """Lines of the works of a JSON text, found in order by a string each work holds."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0

    def line_of(self, needle: str) -> int | None:
        """The line where ``needle`` next occurs in the text, else None."""
        found = self.text.find(needle, self.position)
        if found < 0:
            return None
        self.position = found + 1
        return self.text.count("\n", 0, found) + 1


def local(element: _Element) -> str:
    """An element's name without its namespace."""
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _inlines(element: _Element, styles: Mapping[str, str]) -> Iterator[Inline]:
    if element.text:
        yield element.text
    for child in element:
        if isinstance(child.tag, str):
            content = tuple(_inlines(child, styles))
            style = styles.get(local(child))
            yield from styled(style, content) if style else content
        if child.tail:
            yield child.tail


def element_text(element: _Element, styles: Mapping[str, str]) -> Text:
    """The text of ``element`` with whitespace runs made one space; child elements named in
    ``styles`` become that style, others only give their text."""
    text = map_text(rich(_inlines(element, styles)), lambda part: _SPACES.sub(" ", part))
    return strip(text)


def item_records(items: Iterable[Mapping[str, Any]], key: str,
                 build: Callable[[Mapping[str, Any], Source, Diagnostics], Record | None],
                 source: str, diagnostics: Diagnostics, lines: JsonLines | None
                 ) -> list[Record]:
    """The records ``build`` makes of JSON ``items``, each at the line of its ``key`` member's
    value (an id), the items that do not make one reported by ``build``."""
    records = []
    for item in items:
        identifier = as_text(item.get(key))
        line = lines.line_of(identifier) if lines is not None and identifier else None
        record = build(item, Source(source, line), diagnostics)
        if record is not None:
            records.append(record)
    return records


def record_or_error(diagnostics: Diagnostics, source: Source, **parts: Any) -> Record | None:
    """The record of ``parts``, or None with the model's complaint reported at ``source``."""
    try:
        return Record(source=source, **parts)
    except ModelError as exc:
        diagnostics.error(f"record skipped: {exc}", source.file, source.line)
        return None


def common_author(records: Sequence[Record], scheme: str) -> tuple[str | None, tuple[str, ...]]:
    """The author every record lists with the same ``scheme`` identifier (a list's owner),
    when there is exactly one such author and more than one record: their name and ids."""
    if len(records) < 2:
        return None, ()
    shared: set[str] | None = None
    for record in records:
        ids = {i for name in record.authors for i in name.ids if i.startswith(scheme + ":")}
        shared = ids if shared is None else shared & ids
    if not shared or len(shared) != 1:
        return None, ()
    owner = next(iter(shared))
    name = next(n for n in records[0].authors if owner in n.ids)
    return name.display(), name.ids


def owned(records: Iterable[Record], name: str | None, ids: Iterable[str]
          ) -> Iterator[Record]:
    """``records`` marked as one person's list: their name and identifiers in ``extra``
    (identifiers the record already had for its owner are kept, the new ones added)."""
    ids = list(ids)
    for record in records:
        extra = dict(record.extra)
        if name:
            extra[OWNER_EXTRA] = name
        id_text = owner_id_text([*owner_ids(extra.get(OWNER_ID_EXTRA, "")), *ids])
        if id_text:
            extra[OWNER_ID_EXTRA] = id_text
        yield record.replace(extra=extra) if extra != record.extra else record
