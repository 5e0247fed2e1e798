"""Identifiers as the model keeps them: a DOI is its bare name ``10.NNNN/suffix``, an arXiv
identifier is read from the addresses of its abstract and PDF pages, from arXiv's own DOIs
(``10.48550/arXiv.ID``), from its label (``arXiv:ID``) and from Google Scholar's venue
(``arXiv preprint arXiv:ID``); an ISBN-10 is compared as its ISBN-13. This is the one home of
the patterns of these identifiers: readers, writers and jobs import them from here.

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
#: An arXiv identifier: new style (``2401.12345v2``) and old style (``hep-th/9901001v1``).
ARXIV_ID = re.compile(r"^(?P<base>(?:\d{4}\.\d{4,5})|(?:[a-z-]+(?:\.[A-Z]{2})?/\d{7}))"
                      r"(?:v(?P<version>\d+))?$")
#: The start of arXiv's own DOIs (``10.48550/arXiv.ID``), in lower case.
ARXIV_DOI_PREFIX = "10.48550/arxiv."
#: An arXiv identifier with its label, as Zotero writes a preprint's archive ID and number
#: (``arXiv:2401.12345``); Zotero's RDF compiles the pattern without ``IGNORECASE``.
ARXIV_LABELLED = re.compile(r"^(?P<archive>arXiv):(?P<id>\S+)$", re.IGNORECASE)
#: The label in front of an arXiv identifier in a .bib ``eprint`` (``arXiv: 2401.12345``).
ARXIV_LABEL = re.compile(r"^arxiv:\s*", re.IGNORECASE)
#: The label or abstract page in front of an arXiv identifier in an ORCID external id.
ARXIV_LABEL_OR_PAGE = re.compile(r"^(?:arxiv:|https?://arxiv\.org/abs/)", re.IGNORECASE)
#: The arXiv id of a work published elsewhere, as Zotero's arXiv translator keeps it in a
#: line of Extra (``arXiv: 2401.12345``).
ARXIV_EXTRA_LINE = re.compile(r"^arXiv: (?P<id>\S+)$")
#: Google Scholar's venue of an arXiv preprint (``arXiv preprint arXiv:2401.12345``).
SCHOLAR_ARXIV_VENUE = re.compile(r"^arXiv preprint arXiv:(?P<id>\S+)$", re.IGNORECASE)
#: DBLP's volume of an arXiv preprint in its journal ``CoRR`` (``abs/2401.12345``).
DBLP_CORR_VOLUME = re.compile(r"^abs/(?P<id>\S+)$", re.IGNORECASE)
#: A resolver address in front of a DOI (``https://doi.org/``, ``http://dx.doi.org/``).
DOI_RESOLVER = re.compile(r"^https?://(?:dx\.)?doi\.org/", re.IGNORECASE)
#: An ISBN-13 or ISBN-10 inside a text (with or without hyphens).
ISBN_IN_TEXT = re.compile(r"(?<![\dXx])(?:97[89][\d-]{10,14}|\d[\d-]{8,12}[\dXx])(?![\dXx])")
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


def arxiv_base(identifier: str) -> str:
    """An arXiv identifier without its version (``2401.12345v2`` -> ``2401.12345``)."""
    match = ARXIV_ID.match(identifier)
    return match.group("base") if match else identifier


def arxiv_id_from_doi(doi: str) -> str | None:
    """The arXiv identifier an arXiv DOI names, as written (``10.48550/arXiv.2401.12345`` ->
    ``2401.12345``), or None for another DOI."""
    return doi[len(ARXIV_DOI_PREFIX):] if doi.lower().startswith(ARXIV_DOI_PREFIX) else None


def isbn13(text: str) -> str | None:
    """An ISBN as its 13 digits (an ISBN-10 converted, its check digit computed anew), or None
    when ``text`` (hyphens allowed) has neither length."""
    digits = text.replace("-", "").upper()
    if len(digits) == 13 and digits.isdigit():
        return digits
    if len(digits) != 10 or not digits[:9].isdigit():
        return None
    body = "978" + digits[:9]
    check = (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body)) % 10) % 10
    return body + str(check)


def isbns_in(text: str) -> list[str]:
    """The ISBNs a text holds, each as its 13 digits, once each, in order."""
    found = (isbn13(m.group(0)) for m in ISBN_IN_TEXT.finditer(text))
    return [isbn for isbn in dict.fromkeys(found) if isbn is not None]


def clean_doi_field(fields: dict[str, Any]) -> None:
    """The DOI of a reader's ``fields`` made bare in place (``clean_doi``): the one call every
    reader makes before it builds its record."""
    doi = fields.get("DOI")
    if isinstance(doi, str):
        fields["DOI"] = clean_doi(doi)
