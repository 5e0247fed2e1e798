"""Reader for the whole dblp dump, ``dblp.xml`` (or ``dblp.xml.gz``): root ``dblp``, one
element a publication (``article``, ``inproceedings``, ``incollection``, ``book``,
``proceedings``, ``phdthesis``, ``mastersthesis``, ``data``) or a person's home page
(``www``, skipped: not a publication), as dblp's XML documentation (dblpxml.pdf) describes it.

The dump names its DTD (``<!DOCTYPE dblp SYSTEM "dblp.dtd">``), which declares the character
entities its text uses (``&uuml;``, ``&eacute;`` ...): the DTD beside the dump is loaded when
there is one, else a DTD of the ISO Latin-1 entities (those dblp.dtd declares, named as HTML
names them) built from Python's table of them. Only those internal entities are expanded;
nothing is fetched from the network. Each publication is mapped as the reader of dblp's
person pages maps one (``entry_record``), and cleared from memory once read with the elements
before it, so memory stays flat whatever the dump's size. This module must never make a
request nor keep a publication it has given.

A large dump may be cut into pieces read side by side (``BOUNDARIES``, ``refbridge.splits``):
each piece starts at a top-level element's start tag, and has the dump's prolog (its declaration,
its DTD and the root's start tag) before it and the root's end tag after it, so that each is a
document of its own whose entities the DTD resolves; its lines are numbered as the dump's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from html.entities import codepoint2name
from typing import IO, Any, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.services.answers import local
from refbridge.formats.services.dblp import HOMEPAGE, RECORD_TYPES, entry_record
from refbridge.model import Record, Source
from refbridge.splits import Boundaries
from refbridge.textio import line_shift

#: The first and last code points of ISO Latin-1's named characters (no-break space .. ÿ).
LATIN1_NAMED = range(0xA0, 0x100)
#: The DTD used when none is beside the dump: ``<!ENTITY uuml "&#252;">`` for each.
ENTITY_DTD = "".join(f'<!ENTITY {codepoint2name[point]} "&#{point};">\n'
                     for point in LATIN1_NAMED if point in codepoint2name)

#: Where a top-level element starts (a publication, a home page), what a piece needs before it
#: (up to the root's start tag) and after it (the root's end tag).
BOUNDARIES = Boundaries(
    re.compile(rb"<(?:%s)[\s>/]" % "|".join(sorted({*RECORD_TYPES, HOMEPAGE})).encode()),
    prolog=re.compile(rb"<dblp(?:\s[^>]*)?>"), epilog=b"</dblp>")

#: A line libxml names in its message (``in tag article line 37``): the piece's line.
_LINE_NAMED = re.compile(r"\bline (\d+)")


def _resolver(directory: str | None) -> Any:
    """An lxml resolver that gives the DTD beside the dump, else ``ENTITY_DTD``."""
    from lxml import etree

    class DtdResolver(etree.Resolver):  # type: ignore[misc]
        def resolve(self, url: str | None, public_id: str | None, context: Any) -> Any:
            beside = os.path.join(directory, os.path.basename(url or "")) \
                if directory and url else ""
            if beside.endswith(".dtd") and os.path.isfile(beside):
                return self.resolve_filename(beside, context)
            return self.resolve_string(ENTITY_DTD, context)

    return DtdResolver()


def _binary(stream: TextIO) -> IO[Any]:
    """The bytes under ``stream`` (the XML declaration names their encoding), else its text."""
    return getattr(stream, "buffer", stream)


def publications(stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
    """The records of a dblp dump, one at a time."""
    from lxml import etree

    events = etree.iterparse(_binary(stream), events=("start", "end"), load_dtd=True,
                             no_network=True, remove_comments=True, remove_pis=True)
    events.resolvers.add(_resolver(os.path.dirname(source) if os.path.isfile(source)
                                   else None))
    root = None
    shift = line_shift(stream)
    try:
        for event, element in events:
            if root is None:
                root = element
                if local(root) != "dblp":
                    raise ParseError("not a dblp dump: the root element is not dblp", source,
                                     root.sourceline + shift)
                continue
            if event != "end" or element.getparent() is not root:
                continue
            kind = local(element)
            if kind in RECORD_TYPES:
                record = entry_record(element, Source(source, element.sourceline + shift),
                                      diagnostics)
                if record is not None:
                    yield record
            elif kind != HOMEPAGE and kind:
                diagnostics.warning(f"dblp <{kind}> entry is not a publication; skipped",
                                    source, element.sourceline + shift)
            element.clear(keep_tail=False)
            while element.getprevious() is not None:
                del root[0]
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        message = _LINE_NAMED.sub(lambda named: f"line {int(named[1]) + shift}", exc.msg)
        raise ParseError(f"not well-formed XML: {message}", source,
                         line + shift if line else None, column if line else None) from None


class DblpXmlReader(catalogue.CatalogueReader):
    name = "dblp-xml"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        yield from publications(stream, source, diagnostics)


READER = DblpXmlReader()
