"""Identifiers of works written the many ways sources write them, in the one form the model keeps.

A DOI is kept bare (``10.1000/XYZ``), without the resolver address or ``doi:`` in front; an
arXiv identifier is read from the addresses of its abstract and PDF pages. This module must
never make a request or guess an identifier the text does not hold.
"""

from __future__ import annotations

import re

_ARXIV_URL = re.compile(r"^https?://(?:www\.)?arxiv\.org/(?:abs|pdf)/(?P<id>[^?#]+?)(?:\.pdf)?$",
                        re.IGNORECASE)
ARXIV_VERSION = re.compile(r"v\d+$")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)


def bare_doi(text: str) -> str:
    """A DOI without ``https://doi.org/`` or ``doi:`` in front: ``10.1000/XYZ``."""
    return _DOI_PREFIX.sub("", text.strip())


def arxiv_id_from_url(url: str) -> str | None:
    """The arXiv id (without version) an ``arxiv.org/abs`` or ``/pdf`` address points at."""
    match = _ARXIV_URL.match(url.strip())
    return ARXIV_VERSION.sub("", match.group("id").lower()) if match else None
