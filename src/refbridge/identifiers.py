"""Identifiers as the model keeps them: a DOI is its bare name ``10.NNNN/suffix``, an arXiv
identifier is read from the addresses of its abstract and PDF pages.

Exports write DOIs in many spellings: as a resolver link (``https://doi.org/10.1/x``,
``http://dx.doi.org/10.1/x``), with a label (``doi:10.1/x``, ``doi: 10.1/x``,
``DOI 10.1/x``) or with PubMed's kind in brackets (``10.1/x [doi]``). Every reader passes the
DOIs it finds through ``clean_doi``, so the model holds the DOI itself (and a style does not
print ``https://doi.org/http://dx.doi.org/...``); ``refbridge check`` and the merging of
duplicates read DOIs with the same rules. This module must never change a value that is not
a DOI, make a request or guess an identifier the text does not hold: what it cannot read as
one is given back as written.
"""

from __future__ import annotations

import re
from typing import Any

#: A bare DOI: the directory indicator ``10.``, a registrant code, a slash, a suffix.
DOI = re.compile(r"^10\.\d{4,9}/\S+$")
#: What exports write in front of a DOI: a resolver address or a label.
DOI_PREFIX = re.compile(
    r"^(?:(?:https?://)?(?:dx\.|www\.)?doi\.org/|doi\s*:\s*|doi\s+)", re.IGNORECASE)
_ARXIV_URL = re.compile(r"^https?://(?:www\.)?arxiv\.org/(?:abs|pdf)/(?P<id>[^?#]+?)(?:\.pdf)?$",
                        re.IGNORECASE)
#: A version at the end of an arXiv identifier (``v2``).
ARXIV_VERSION = re.compile(r"v\d+$")
#: What PubMed writes after one (``10.1/x [doi]``).
_DOI_KIND = re.compile(r"\s*\[doi\]$", re.IGNORECASE)


def bare_doi(text: str) -> str:
    """``text`` without a resolver address or label in front (``10.1000/XYZ``), nor the brace
    group around it that Web of Science's .bib writes (``{10.1000/XYZ}``); the rest is not
    checked."""
    text = text.strip()
    while text.startswith("{") and text.endswith("}"):
        text = text[1:-1].strip()
    return DOI_PREFIX.sub("", text)


def doi_of(text: str) -> str | None:
    """The DOI ``text`` spells, in any of the spellings exports use, or None."""
    bare = _DOI_KIND.sub("", bare_doi(text))
    return bare if DOI.match(bare) else None


def clean_doi(text: str) -> str:
    """The DOI ``text`` spells, bare; a value that is no DOI is kept as written (stripped)."""
    return doi_of(text) or text.strip()


def arxiv_id_from_url(url: str) -> str | None:
    """The arXiv id (without version) an ``arxiv.org/abs`` or ``/pdf`` address points at."""
    match = _ARXIV_URL.match(url.strip())
    return ARXIV_VERSION.sub("", match.group("id").lower()) if match else None


def clean_doi_field(fields: dict[str, Any]) -> None:
    """The DOI of a reader's ``fields`` made bare in place (``clean_doi``): the one call every
    reader makes before it builds its record."""
    doi = fields.get("DOI")
    if isinstance(doi, str):
        fields["DOI"] = clean_doi(doi)
