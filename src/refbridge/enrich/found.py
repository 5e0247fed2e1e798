"""A work a service returned, held as a citation record plus where it came from.

Service modules turn their answers into ``Found`` values; matching compares them with the
record being enriched, and merging copies their values over. This module must never make a
request or know any service's format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from refbridge.model import Record

#: arXiv identifiers: new style (2401.12345v2) and old style (hep-th/9901001v1).
ARXIV_ID = re.compile(r"^(?P<base>(?:\d{4}\.\d{4,5})|(?:[a-z-]+(?:\.[A-Z]{2})?/\d{7}))"
                      r"(?:v(?P<version>\d+))?$")

#: The DOI prefix arXiv (through DataCite) gives its own preprints.
ARXIV_DOI_PREFIX = "10.48550/arxiv."


@dataclass(frozen=True, slots=True)
class Found:
    """One candidate: the service, its identifier there, the work as a record."""

    service: str  #: "arxiv", "crossref" or "openalex"
    identifier: str  #: arXiv id with version, DOI, or OpenAlex work id
    record: Record
    published: bool  #: the version of record (journal, proceedings, book), not a preprint

    @property
    def provenance(self) -> str:
        """``service:identifier``, the value kept in ``Record.extra["enrich.<field>"]``."""
        return f"{self.service}:{self.identifier}"

    @property
    def work_key(self) -> str:
        """What tells two works apart: the DOI, else the arXiv id without version."""
        doi = self.record.get("DOI")
        if doi:
            return "doi:" + doi.lower()
        match = ARXIV_ID.match(self.identifier)
        return f"{self.service}:{match.group('base') if match else self.identifier}"


def arxiv_base(identifier: str) -> str:
    """An arXiv identifier without its version (``2401.12345v2`` -> ``2401.12345``)."""
    match = ARXIV_ID.match(identifier)
    return match.group("base") if match else identifier


def bare_doi(text: str) -> str:
    """A DOI without resolver prefix (``https://doi.org/10.1/x`` -> ``10.1/x``)."""
    return re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", "", text.strip(), flags=re.IGNORECASE)
