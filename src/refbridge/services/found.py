"""A work a service returned, held as a citation record plus where it came from.

Service modules turn their answers into ``Found`` values; matching compares them with the
record being enriched, and merging copies their values over. A ``Found`` also carries what a
service says about the work's history: the notices that update it (a retraction, an expression
of concern, a correction: ``Notice``) and the published versions a preprint became
(``Version``), which ``refbridge verify`` reports. This module must never make a
request or know any service's format.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbridge.identifiers import arxiv_base
from refbridge.model import Record


@dataclass(frozen=True, slots=True)
class Notice:
    """A notice that updates a work: Crossref's ``updated-by`` (or ``update-to`` when the work
    is the notice itself), or OpenAlex's ``is_retracted``."""

    kind: str  #: Crossref's update type: "retraction", "expression_of_concern", "correction"...
    doi: str  #: the notice's DOI ("" when the service names none)
    date: str  #: ISO date of the update ("" when unknown)
    source: str  #: who says so: "publisher", "retraction-watch", "openalex"
    record_id: str = ""  #: the Retraction Watch record number, when it is Retraction Watch's
    is_notice: bool = False  #: the work is the notice (``update-to``), not the updated work


@dataclass(frozen=True, slots=True)
class Version:
    """A published version a preprint became, as one service states it."""

    doi: str  #: "" when the service names only the venue (an arXiv journal reference)
    venue: str  #: "" when the service names only the DOI
    how: str  #: where it was read: "arxiv doi", "crossref is-preprint-of", "openalex location"


@dataclass(frozen=True, slots=True)
class Found:
    """One candidate: the service, its identifier there, the work as a record."""

    service: str  #: "arxiv", "crossref" or "openalex"
    identifier: str  #: arXiv id with version, DOI, or OpenAlex work id
    record: Record
    published: bool  #: the version of record (journal, proceedings, book), not a preprint
    notices: tuple[Notice, ...] = ()
    versions: tuple[Version, ...] = ()  #: published versions of this preprint
    preprints: tuple[str, ...] = ()  #: DOIs of this work's preprints (``has-preprint``)

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


