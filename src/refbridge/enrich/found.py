"""A work a service returned, held as a citation record plus where it came from.

Service modules turn their answers into ``Found`` values; matching compares them with the
record being enriched, and merging copies their values over. This module must never make a
request or know any service's format.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbridge.formats.services.arxiv_feed import arxiv_base
from refbridge.model import Record

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
        return f"{self.service}:{arxiv_base(self.identifier)}"


