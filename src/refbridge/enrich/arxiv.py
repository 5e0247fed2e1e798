"""arXiv: find a record's preprint and read it from the API's Atom feed.

A record with an arXiv identifier is looked up by ``id_list``; otherwise by title phrase and
owner (``ti:"..." AND au:"..."``). Each Atom entry becomes a ``Found`` preprint with the full
author list, the identifier with its version, primary and cross-list categories, the first
version's date (``issued``), the DOI, and, in ``extra``, the first and latest version dates,
the journal reference and the comments. The feed format is the one the arXiv API user's manual
describes (section 3.3 and appendix 5.2); errors arrive as a feed with one error entry. This
module must never decide whether a candidate matches.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from refbridge.arxiv_taxonomy import is_category
from refbridge.enrich.errors import ServiceError
from refbridge.enrich.found import Found, arxiv_base
from refbridge.enrich.http import PoliteClient
from refbridge.enrich.matching import query_words
from refbridge.latex.decode import decode_latex
from refbridge.model import Date, DateParts, Eprint, ModelError, Name, Record
from refbridge.names import split_name
from refbridge.richtext import plain

if TYPE_CHECKING:
    from lxml.etree import _Element

SERVICE = "arxiv"
ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
MAX_RESULTS = "5"
_ABS_URL = re.compile(r"/abs/(?P<id>.+)$")
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")

#: Optional arXiv extension elements kept in ``extra`` (element name -> extra key).
EXTRA_ELEMENTS: dict[str, str] = {
    "journal_ref": "arxiv.journal-ref",
    "comment": "arxiv.comment",
}


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
    answer = client.get(SERVICE, base_url, params)
    if answer.status == 404:
        return [], linked
    return parse_feed(answer.body), linked


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


def _text(element: _Element, name: str, namespace: str = ATOM) -> str:
    return " ".join((element.findtext(namespace + name) or "").split())


def _date(text: str) -> Date | None:
    match = _DATE.match(text)
    if not match:
        return None
    year, month, day = (int(g) for g in match.groups())
    return Date(start=DateParts(year, month, day))


def entry_parts(entry: _Element) -> dict[str, Any] | None:
    """The ``Record`` arguments of one Atom entry (None for an entry that is no paper)."""
    url = _text(entry, "id")
    match = _ABS_URL.search(url)
    title = _text(entry, "title")
    if not match or not title:
        return None
    identifier = match.group("id")
    names: list[Name] = []
    for author in entry.findall(f"{ATOM}author"):
        name = _text(author, "name")
        if name:
            names.append(split_name(plain(decode_latex(name, prose=True))))
    fields = {"title": decode_latex(title, prose=True)}
    summary = _text(entry, "summary")
    if summary:
        fields["abstract"] = decode_latex(summary, prose=True)
    dois = _text(entry, "doi", ARXIV).split()
    if dois:  # authors occasionally list several; the first is the article's
        fields["DOI"] = dois[0]
    extra = {key: _text(entry, element, ARXIV) for element, key in EXTRA_ELEMENTS.items()
             if _text(entry, element, ARXIV)}
    published, updated = _text(entry, "published"), _text(entry, "updated")
    if published:
        extra["arxiv.published"] = published[:10]
    if updated:
        extra["arxiv.updated"] = updated[:10]
    first_version = _date(published)
    primary_element = entry.find(f"{ARXIV}primary_category")
    primary = primary_element.get("term") if primary_element is not None else None
    categories = [c.get("term") or "" for c in entry.findall(f"{ATOM}category")]
    cross_lists = tuple(c for c in categories if is_category(c) and c != primary)
    return {"id": f"arxiv:{arxiv_base(identifier)}", "type": "article", "fields": fields,
            "names": {"author": tuple(names)} if names else {},
            "dates": {"issued": first_version} if first_version else {},
            "eprint": Eprint("arXiv", identifier, primary, cross_lists), "extra": extra}


def feed_error(feed: _Element) -> str | None:
    """The message of the error entry arXiv answers a bad query with, if the feed is one."""
    for entry in feed.findall(f"{ATOM}entry"):
        if "/api/errors" in (entry.findtext(f"{ATOM}id") or ""):
            return _text(entry, "summary")
    return None


def _entry(entry: _Element) -> Found | None:
    parts = entry_parts(entry)
    if parts is None:
        return None
    identifier = parts["eprint"].identifier
    try:
        record = Record(**parts)
    except ModelError as exc:
        raise ServiceError(f"arXiv entry {identifier}: {exc}") from None
    return Found(SERVICE, identifier, record, published=False)
