"""Reader for arXiv API answers: the Atom feed of ``/api/query`` (an author's listing,
``search_query=au:"..."``, or any other query), as the arXiv API user's manual describes it.

Each entry is one preprint (the mapping is ``refbridge.formats.services.arxiv_feed``'s, shared with enrichment): every
author, the identifier with its version, primary and cross-list categories, the first
version's date, DOI, journal reference and comments. An error feed (arXiv's answer to a bad
query) is an error naming arXiv's message. A feed whose query was one author (``au:"Ada
Lovelace"``) names its owner. This module must never make a request.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.services.answers import local, owned, parse_xml, record_or_error
from refbridge.formats.services.arxiv_feed import ATOM, entry_parts, feed_error
from refbridge.model import Record, Source

#: The feed title arXiv gives an author query: ``arXiv Query: search_query=au:"Ada Lovelace"``.
_AUTHOR_QUERY = re.compile(r'search_query=au:"?(?P<name>[^"&]+?)"?(?:&|$)')


def read_feed(text: str, source: str, diagnostics: Diagnostics,
              owner: str | None = None) -> Iterator[Record]:
    """The records of an arXiv API feed; ``owner``: whose listing it is, when known."""
    feed = parse_xml(text, source, "an arXiv feed")
    if local(feed) != "feed":
        raise ParseError("not an arXiv API feed: the root element is not an Atom feed", source,
                         feed.sourceline)
    error = feed_error(feed)
    if error is not None:
        raise ParseError(f"arXiv reported an error: {error}", source, 1)
    if owner is None:
        query = _AUTHOR_QUERY.search(" ".join((feed.findtext(f"{ATOM}title") or "").split()))
        owner = query.group("name").strip() if query else None
    records = []
    for entry in feed.iterfind(f"{ATOM}entry"):
        parts = entry_parts(entry)
        if parts is None:
            diagnostics.warning("Atom entry without an arXiv abstract address or a title; "
                                "skipped", source, entry.sourceline)
            continue
        record = record_or_error(diagnostics, Source(source, entry.sourceline), **parts)
        if record is not None:
            records.append(record)
    yield from owned(records, owner, ())


class ArxivAtomReader(catalogue.CatalogueReader):
    name = "arxiv-atom"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        yield from read_feed(stream.read(), source, diagnostics)


READER = ArxivAtomReader()
