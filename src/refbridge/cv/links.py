"""The links a CV entry offers: DOI, arXiv abstract page and the record's own URL.

Only ``http``/``https`` addresses are ever produced: a DOI becomes ``https://doi.org/...``, an
arXiv id ``https://arxiv.org/abs/...``, and a URL is kept only when its scheme is http(s) and it
has a host and no spaces or control characters (a ``javascript:`` or ``file:`` URL is reported
and left out). A URL that points at the same DOI or arXiv id is not listed twice. This module
must never write markup: writers escape the labels and addresses they are given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from refbridge.errors import Diagnostics
from refbridge.identifiers import arxiv_id_from_url, bare_doi
from refbridge.model import Record
from refbridge.sameness.ids import arxiv_id

_UNSAFE_CHARACTERS = re.compile(r"[\s\x00-\x1f\x7f<>\"`\\]")


@dataclass(frozen=True, slots=True)
class Link:
    label: str  #: ``DOI``, ``arXiv`` or ``URL``
    url: str  #: always an absolute http(s) address


def safe_http_url(url: str) -> bool:
    """Whether ``url`` is an absolute http(s) address that is safe to put in a link."""
    if _UNSAFE_CHARACTERS.search(url):
        return False
    parts = urlsplit(url)
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def record_links(record: Record, diagnostics: Diagnostics) -> tuple[Link, ...]:
    """The record's links, DOI first, then arXiv, then its URL."""
    links: list[Link] = []
    doi_text = record.get("DOI")
    doi = bare_doi(doi_text) if doi_text else None
    if doi:
        links.append(Link("DOI", "https://doi.org/" + quote(doi, safe="/:;()._-~")))
    arxiv = arxiv_id(record)
    if arxiv:
        links.append(Link("arXiv", "https://arxiv.org/abs/" + quote(arxiv, safe="/.-")))
    url = (record.get("URL") or "").strip()
    if not url:
        return tuple(links)
    if not safe_http_url(url):
        where = record.source
        diagnostics.warning(f"record {record.id!r}: URL {url[:60]!r} is not an http(s) address; "
                            "the CV does not link it",
                            where.file if where else None, where.line if where else None)
    elif not ((doi and bare_doi(url).lower() == doi.lower())
              or (arxiv and arxiv_id_from_url(url) == arxiv)):
        links.append(Link("URL", url))
    return tuple(links)
