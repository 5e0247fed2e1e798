"""arXiv API Atom feeds: one entry read into the arguments of a ``Record``, and the error a
feed reports.

Shared by the ``arxiv-atom`` reader (a listing a user saved) and enrichment (an answer to a
lookup). Each entry is one preprint: every author, the identifier with its version, primary and
cross-list categories, the first version's date, DOI, and, as extras, the first and latest
version dates, the journal reference and the comments, as the arXiv API user's manual describes
the feed (section 3.3 and appendix 5.2). This module must never make a request.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from refbridge.arxiv_taxonomy import is_category
from refbridge.identifiers import arxiv_base, clean_doi
from refbridge.latex.decode import decode_latex
from refbridge.model import Date, DateParts, Eprint, Name
from refbridge.names.reading import split_name
from refbridge.richtext import plain

if TYPE_CHECKING:
    from lxml.etree import _Element

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
_ABS_URL = re.compile(r"/abs/(?P<id>.+)$")
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")


#: Optional arXiv extension elements kept in ``extra`` (element name -> extra key).
EXTRA_ELEMENTS: dict[str, str] = {
    "journal_ref": "arxiv.journal-ref",
    "comment": "arxiv.comment",
}


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
        fields["DOI"] = clean_doi(dois[0])
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


