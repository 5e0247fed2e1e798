"""arXiv: find a record's preprint and read it from the API's Atom feed.

A record with an arXiv identifier is looked up by ``id_list``; otherwise by title phrase and
owner (``ti:"..." AND au:"..."``). Each Atom entry (read by ``refbridge.formats.services.arxiv_feed``) becomes a
``Found`` preprint; errors arrive as a feed with one error entry.

A person's publication list is ``/api/query?search_query=au:"Name"`` with ``start``, read by
arXiv's reader (``refbridge.formats.services.arxiv``). This module must never decide whether
a candidate matches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from refbridge.formats.services.arxiv import read_feed
from refbridge.formats.services.arxiv_feed import ATOM, entry_parts, feed_error
from refbridge.identifiers import ARXIV_DOI_PREFIX
from refbridge.model import ModelError, Record
from refbridge.services.errors import ServiceError
from refbridge.services.found import Found, Version
from refbridge.services.http import PoliteClient
from refbridge.services.listing import MAX_PAGES, Session
from refbridge.services.matching import query_words

if TYPE_CHECKING:
    from lxml.etree import _Element

SERVICE = "arxiv"
MAX_RESULTS = "5"


def search_query(record: Record) -> str | None:
    """``ti:"title words" AND au:"family"`` for ``record``, or None without a title."""
    words = query_words(record.title or "")
    if not words:
        return None
    query = f'ti:"{words}"'
    owner = next((n for n in record.authors if n.family), None)
    if owner is not None and owner.family:
        query += f' AND au:"{query_words(owner.family)}"'
    return query


def look_up(client: PoliteClient, base_url: str, record: Record) -> tuple[list[Found], bool]:
    """Candidates for ``record`` and whether they were reached through its arXiv identifier."""
    eprint = record.eprint
    if eprint is not None and eprint.archive.lower() == "arxiv" and eprint.identifier:
        params = {"id_list": eprint.identifier}
        linked = True
    else:
        query = search_query(record)
        if query is None:
            return [], False
        params = {"search_query": query, "start": "0", "max_results": MAX_RESULTS}
        linked = False
    answer = client.get(SERVICE, base_url, params, is_answer=is_answer)
    return parse_feed(answer.body), linked


def is_answer(status: int, body: bytes) -> bool:
    """Whether a response is arXiv's: an Atom feed."""
    return status == 200 and b"<feed" in body[:2000]


def parse_feed(body: bytes) -> list[Found]:
    """The entries of an arXiv API Atom feed as candidates."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        feed = etree.fromstring(body, parser)
    except etree.XMLSyntaxError as exc:
        raise ServiceError(f"arXiv answered something that is not an Atom feed: {exc}") from None
    error = feed_error(feed)
    if error is not None:
        raise ServiceError(f"arXiv reported an error: {error}")
    entries = feed.findall(f"{ATOM}entry")
    return [found for entry in entries if (found := _entry(entry)) is not None]


def _entry(entry: _Element) -> Found | None:
    parts = entry_parts(entry)
    if parts is None:
        return None
    identifier = parts["eprint"].identifier
    try:
        record = Record(**parts)
    except ModelError as exc:
        raise ServiceError(f"arXiv entry {identifier}: {exc}") from None
    return preprint_found(identifier, record)


def preprint_found(identifier: str, record: Record) -> Found:
    """The candidate of an arXiv preprint's record: the published version its DOI and journal
    reference state, if any."""
    doi = record.get("DOI") or ""
    venue = record.extra.get("arxiv.journal-ref", "")
    versions = (Version(doi if not doi.lower().startswith(ARXIV_DOI_PREFIX) else "", venue,
                        "arxiv doi and journal reference"),) if doi or venue else ()
    return Found(SERVICE, identifier, record, published=False, versions=versions)


ARXIV_PER_PAGE = 100


def fetch_arxiv(session: Session) -> list[Record]:
    url = session.base
    query = f'au:"{session.target.value}"'
    records: list[Record] = []
    for _ in range(MAX_PAGES):
        text = session.text(url, {"search_query": query, "start": str(len(records)),
                                  "max_results": str(ARXIV_PER_PAGE),
                                  "sortBy": "submittedDate", "sortOrder": "descending"},
                            missing=f"arXiv answered 404 for its query API at {url}")
        found = list(read_feed(text or "", url, session.diagnostics, session.target.value))
        if not found:
            break
        records.extend(found)
        session.page_done(len(records))
    return records
