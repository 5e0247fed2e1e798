"""A record's identifiers in the one form each is compared in: a DOI bare and in lower case, an
arXiv identifier without its version (from the eprint, an arXiv DOI ``10.48550/arXiv.ID``, an
arXiv address, Google Scholar's venue ``arXiv preprint arXiv:ID`` or DBLP's ``journal = {CoRR},
volume = {abs/ID}``), an ISBN-10 as its
ISBN-13. The patterns themselves are ``refbridge.identifiers``'. This module must never change
a record or guess an identifier the record does not hold.
"""

from __future__ import annotations

from collections.abc import Callable

from refbridge.identifiers import (
    ARXIV_VERSION,
    DBLP_CORR_VOLUME,
    SCHOLAR_ARXIV_VENUE,
    arxiv_id_from_doi,
    arxiv_id_from_url,
    bare_doi,
    isbns_in,
)
from refbridge.model import Record


def normalized_doi(record: Record) -> str | None:
    """The record's DOI in the form used to compare DOIs (bare, lower case)."""
    doi = record.get("DOI")
    return bare_doi(doi).lower() if doi else None


def arxiv_id(record: Record, *, read_doi: Callable[[Record], str | None] = normalized_doi,
             venue: bool = True) -> str | None:
    """The record's arXiv identifier without version, from its eprint, DOI or URL, and (with
    ``venue``) Google Scholar's venue or DBLP's CoRR volume; ``read_doi`` reads the DOI as the
    caller compares it (the key lock: ``doi_of``, without those venues)."""
    candidates = []
    if record.eprint is not None and record.eprint.archive.lower() == "arxiv":
        candidates.append(record.eprint.identifier)
    candidates.append(arxiv_id_from_doi(read_doi(record) or ""))
    candidates.append(arxiv_id_from_url(record.get("URL") or ""))
    scholar = SCHOLAR_ARXIV_VENUE.match(record.get("container-title") or "") if venue else None
    candidates.append(scholar.group("id") if scholar else None)
    corr = DBLP_CORR_VOLUME.match(record.get("volume") or "") if venue and (
        record.get("container-title") or "").strip().lower() == "corr" else None
    candidates.append(corr.group("id") if corr else None)
    for candidate in candidates:
        if candidate:
            return ARXIV_VERSION.sub("", candidate.strip().lower())
    return None


def own_doi(record: Record) -> str | None:
    """The record's DOI when it is not arXiv's (two of those that differ: two works)."""
    doi = normalized_doi(record)
    return doi if doi and not arxiv_id_from_doi(doi) else None


def isbns(record: Record) -> list[str]:
    """The record's ISBNs, each as its 13 digits."""
    return isbns_in(record.get("ISBN") or "")


def identifiers(record: Record) -> dict[str, set[str]]:
    """The record's identifiers by kind: ``doi``, ``arxiv``, ``isbn``."""
    found: dict[str, set[str]] = {}
    doi, arxiv = normalized_doi(record), arxiv_id(record)
    if doi:
        found["doi"] = {doi}
    if arxiv:
        found["arxiv"] = {arxiv}
    if (numbers := isbns(record)):
        found["isbn"] = set(numbers)
    return found
