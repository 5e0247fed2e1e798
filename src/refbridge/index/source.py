"""The index as ``verify``'s lookup source (``verify.lookup.Source``): each question the
services would be asked answered from the index's table, by the same keys: a DOI, an arXiv id
(without version), a PMID; a search is the works of that service whose normalized title is the
entry's (the services' searches also find near titles; the index finds the title as written,
case, accents and punctuation aside), weighed by ``enrich.matching`` as a search's answer is.
``prefetch`` asks the index for a batch of entries at once. ``look_up`` answers ``enrich``'s
question to a service (``LOOK_UPS``: the work of the record's identifier, else a search) from
the index. This module must never make a request.
"""

from __future__ import annotations

from collections.abc import Iterable

from refbridge.identifiers import arxiv_base
from refbridge.index.store import TITLE_CANDIDATES, Index
from refbridge.model import Record
from refbridge.sameness.text import normalize_title
from refbridge.services.found import Found
from refbridge.verify.lookup import arxiv_identifier


class IndexSource:
    """Answers from an index file."""

    def __init__(self, path: str) -> None:
        self.index = Index(path)

    def by_doi(self, service: str, doi: str) -> Found | None:
        return next(iter(self.index.by("doi", doi.lower(), service)), None)

    def by_arxiv(self, record: Record) -> list[Found]:
        identifier = arxiv_identifier(record)
        return self.index.by("arxiv", arxiv_base(identifier).lower(), "arxiv") \
            if identifier else []

    def by_pmid(self, pmid: str) -> Found | None:
        return next(iter(self.index.by("pmid", pmid, "openalex")), None)

    def search(self, service: str, record: Record) -> list[Found]:
        title = record.title
        return self.index.by("title_key", normalize_title(title), service,
                             TITLE_CANDIDATES) if title else []

    def look_up(self, service: str, record: Record) -> tuple[list[Found], bool]:
        """``enrich``'s look-up of ``service`` for ``record`` answered from the index: the
        candidates and whether they came through the record's identifier, as the service's
        own ``look_up`` (arXiv: its eprint; Crossref, OpenAlex: its DOI, else a search)."""
        if service == "arxiv":
            eprint = record.eprint
            if eprint is not None and eprint.archive.lower() == "arxiv" and eprint.identifier:
                return self.by_arxiv(record), True
            return self.search("arxiv", record), False
        doi = record.get("DOI")
        found = self.by_doi(service, doi) if doi else None
        if found is not None:
            return [found], True
        return self.search(service, record), False

    def prefetch(self, records: Iterable[Record]) -> None:
        """Look up at once what the entries ``records`` will be asked by."""
        keys: dict[str, set[str]] = {"doi": set(), "arxiv": set(), "pmid": set(),
                                     "title_key": set()}
        for record in records:
            doi, identifier, pmid, title = (record.get("DOI"), arxiv_identifier(record),
                                            record.get("PMID"), record.title)
            for column, value in (("doi", doi.lower() if doi else None),
                                  ("arxiv", arxiv_base(identifier).lower() if identifier
                                   else None),
                                  ("pmid", pmid),
                                  ("title_key", normalize_title(title) if title else None)):
                if value:
                    keys[column].add(value)
        self.index.prefetch(keys)

    def close(self) -> None:
        self.index.close()
