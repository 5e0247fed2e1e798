"""Safe XML in and out for the XML formats (Zotero RDF, EndNote XML, PubMed XML, MODS, Word).

Input is parsed by lxml with entity substitution off, no network, no DTD loading and libxml2's
size limits on: a document whose type declaration has an internal subset (where entities are
declared: billion laughs, external entities reading files or URLs) is refused before it is
parsed, so nothing is ever expanded or fetched. A type declaration that only names a DTD, as
PubMed's efetch writes, is allowed and not loaded. Malformed XML is a ``ParseError`` with the
file, line and column.

Output text passes through ``xml_text``: characters XML 1.0 cannot hold become U+FFFD (the
residue keeps them, escaped in JSON). This module must never resolve an entity or open a file
or address named in a document. ``report_unread`` warns about what a reader's table of
elements does not carry, so no element is lost silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from refbridge.errors import Diagnostics, ParseError

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
#: What lxml refuses at the start of text (rather than bytes): ``<?xml`` declaring an encoding
#: (lxml's own test).
_DECLARES_ENCODING = re.compile(r"<\?xml[^>]+\s+encoding\s*=\s*[\"'][^\"']*[\"']")
#: The prolog up to a document type declaration that opens an internal subset.
_INTERNAL_SUBSET = re.compile(r"\A\s*(?:<\?[^>]*\?>\s*|<!--.*?-->\s*)*<!DOCTYPE\s[^\[>]*\[",
                              re.DOTALL)
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_text(text: str) -> str:
    """Text XML 1.0 can hold: characters it forbids become U+FFFD."""
    return _XML_INVALID.sub("\ufffd", text)


def without_declaration(text: str, source: str) -> str:
    """``text`` without its XML declaration (lxml refuses text, rather than bytes, that
    declares an encoding); a malformed declaration, or a second one, that declares an encoding
    is a ``ParseError``."""
    rest = _XML_DECLARATION.sub("", text, count=1)
    if _DECLARES_ENCODING.match(rest):
        line = text[:len(text) - len(rest)].count("\n") + 1
        raise ParseError("not well-formed XML: a malformed XML declaration, or a second one",
                         source, line)
    return rest


def parse_xml(text: str, source: str, what: str, diagnostics: Diagnostics | None = None
              ) -> Any:
    """The root element of ``text``, an XML document of format ``what`` read from ``source``;
    an entity its DTD (never read) would define is kept as its text (``&eacute;``) and
    reported to ``diagnostics``."""
    from lxml import etree

    text = text.lstrip("\ufeff")
    subset = _INTERNAL_SUBSET.match(text)
    if subset is not None:
        raise ParseError(f"{what}: this document type declaration is not allowed: it has an "
                         "internal subset (entities are never expanded or fetched)", source,
                         text[:subset.end()].count("\n") + 1)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(without_declaration(text, source), parser)
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise ParseError(f"not well-formed XML: {exc.msg}", source, max(line, 1),
                         column or None) from None
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise ParseError(f"{what}: entity declarations are not allowed", source, 1)
    _entities_as_text(root, source, what, diagnostics)
    return root


def _entities_as_text(root: Any, source: str, what: str, diagnostics: Diagnostics | None
                      ) -> None:
    """Each entity reference left in the tree (a document that names a DTD may use the
    entities it defines, which are never read) replaced by its text, ``&name;``, and reported:
    the value keeps it as written, and no reader meets a node that is no element or text."""
    from lxml import etree

    for entity in list(root.iter(etree.Entity)):
        if diagnostics is not None:
            diagnostics.change(f"{what}: entity {entity.text} is not defined in the document "
                               f"(its DTD is not read): kept as the text {entity.text}",
                               source, entity.sourceline)
        text = entity.text + (entity.tail or "")
        parent, previous = entity.getparent(), entity.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + text
        else:
            parent.text = (parent.text or "") + text
        parent.remove(entity)


def local_name(element: Any) -> str:
    """The tag of ``element`` without its namespace ('' for comments and the like)."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2]


def children(element: Any, name: str) -> Iterator[Any]:
    """The child elements of ``element`` named ``name`` (any namespace)."""
    return (child for child in element if local_name(child) == name)


def child(element: Any, name: str) -> Any | None:
    """The first child element of ``element`` named ``name`` (any namespace), or None."""
    return next(children(element, name), None)


def text_of(element: Any | None) -> str:
    """All the text inside ``element`` (inline markup dropped), stripped; '' for None."""
    if element is None:
        return ""
    return "".join(element.itertext()).strip()


#: ``report_unread`` kinds: an element read with its children checked in turn, and an element
#: read whole (its text, with inline markup). Any other value says why the element is not
#: carried.
READ, WHOLE = "read", "whole"


def report_unread(items: Iterable[Any], elements: Mapping[str, str], what: str, source: str,
                  diagnostics: Diagnostics, reported: set[str]) -> None:
    """Warn about the ``items`` (an element's children, or a list of elements) and their
    descendants that a reader does not carry, once per element name per file (``reported``
    holds the names already reported): ``elements`` maps each element name the reader knows
    to ``READ``, ``WHOLE`` or the reason it is not carried; an element not in it is
    unknown."""
    for item in items:
        name = local_name(item)
        if not name:
            continue
        kind = elements.get(name)
        if kind == READ:
            report_unread(item, elements, what, source, diagnostics, reported)
        elif kind != WHOLE and name not in reported:
            reported.add(name)
            message = (f"{what}: <{name}> not carried ({kind})" if kind is not None
                       else f"{what}: unknown element <{name}> not read")
            diagnostics.warning(message, source, item.sourceline or None)
