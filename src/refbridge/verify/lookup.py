"""Asking the services what they know of one entry: the evidence ``classify`` judges.

An entry is looked up by its identifiers first: its DOI at Crossref, or at DataCite (first for
the DOI prefixes only DataCite registers, after Crossref's "no such DOI" otherwise), its arXiv
id at arXiv, its PMID at OpenAlex; an entry that none of those finds is searched by title and
first author at Crossref, OpenAlex, dblp and arXiv in turn, until one finds a clear ``match``
(``refbridge.services.matching``). A preprint's published version is then looked for: the DOI
arXiv, Crossref (``is-preprint-of``), DataCite (``IsPreprintOf``) or OpenAlex (its locations)
state, read at Crossref; else a published match in dblp's, Crossref's or OpenAlex's search.

A service that cannot be reached (connection refused, DNS, timeout) is down for the rest of
the run (the client's circuit breaker, shared by every question): every later question to it
is a failure at once, noted as ``down`` so that the run reports it once, not once an entry. A
service that answers an error, or something that is not its answer (a 404 of a wrong base
address, a redirect elsewhere, too large an answer), fails that question only.
Failures and ``--offline`` questions the cache cannot answer are recorded as such, never as
"not found". The questions go to a ``Source``: the services (``Services``), or a local index
of their dumps (``refbridge.index.source``). This module must never print or decide an
entry's verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol, TypeVar

from refbridge.identifiers import arxiv_base, arxiv_id_from_doi
from refbridge.model import Eprint, Record
from refbridge.services import arxiv, crossref, datacite, dblp, openalex
from refbridge.services.errors import OfflineError, ServiceError
from refbridge.services.found import Found, Version
from refbridge.services.http import SERVICE_NAMES, NotCached, PoliteClient
from refbridge.services.matching import Judgement, judge
from refbridge.verify.settings import VerifyOptions

T = TypeVar("T")

#: Outcomes of one question.
FOUND, NOT_FOUND, FAILED = "found", "not-found", "failed"
#: The detail of a question to a service that cannot be reached in this run.
DOWN = "unreachable in this run"
#: Record types that are versions of record a preprint may be upgraded to.
PUBLISHED_TYPES: frozenset[str] = frozenset({"article-journal", "paper-conference", "chapter"})


@dataclass(frozen=True, slots=True)
class Asked:
    """One question to one service and what came of it."""

    service: str
    how: str  #: "DOI 10.1145/...", "arXiv id 2301.01234", "title search"
    outcome: str  #: FOUND, NOT_FOUND or FAILED
    detail: str = ""  #: the failure, or the best candidate that was not close enough
    down: bool = False  #: failed because the service is unreachable in this run

    def __str__(self) -> str:
        text = f"{SERVICE_NAMES[self.service]} ({self.how}): {self.outcome}"
        return f"{text}: {self.detail}" if self.detail else text


@dataclass(slots=True)
class Evidence:
    """What the services said about one entry."""

    record: Record
    asked: list[Asked] = field(default_factory=list)
    work: Found | None = None  #: the entry's work, as the first service that knew it says
    linked: bool = False  #: ``work`` was reached through one of the entry's identifiers
    confidence: float = 0.0  #: of ``work`` being the entry's (1.0 through an identifier)
    unresolved_doi: str | None = None  #: the entry's DOI, which no registry knows
    published: Found | None = None  #: the published version of a preprint
    published_judgement: Judgement | None = None
    announced: tuple[Version, ...] = ()  #: published versions stated without a record

    @property
    def failed(self) -> list[Asked]:
        return [asked for asked in self.asked if asked.outcome == FAILED]

    @property
    def is_preprint(self) -> bool:
        """Whether the entry's work is a preprint (arXiv's, or a posted work)."""
        work = self.work
        return work is not None and not work.published and (
            work.service == "arxiv" or work.record.type == "article")


def arxiv_identifier(record: Record) -> str | None:
    """The entry's arXiv id: its eprint, or the arXiv DOI (``10.48550/arXiv.2301.01234``)."""
    eprint = record.eprint
    if eprint is not None and eprint.archive.lower() == "arxiv" and eprint.identifier:
        return eprint.identifier
    return arxiv_id_from_doi((record.get("DOI") or "").lower())


class Source(Protocol):
    """Where the questions are answered: the services (``Services``) or a local index."""

    def by_doi(self, service: str, doi: str) -> Found | None:
        """The work of ``doi`` at ``service`` (``crossref`` or ``datacite``)."""

    def by_arxiv(self, record: Record) -> list[Found]:
        """arXiv's preprints of ``record`` (its eprint the arXiv id asked)."""

    def by_pmid(self, pmid: str) -> Found | None:
        """OpenAlex's work of ``pmid``."""

    def search(self, service: str, record: Record) -> list[Found]:
        """``service``'s candidates for ``record``'s title and first author."""


class Services:
    """The services themselves, through one polite client."""

    def __init__(self, client: PoliteClient, options: VerifyOptions) -> None:
        self.client = client
        self.options = options

    def _base(self, service: str) -> str:
        return self.options.base_url(service)

    def by_doi(self, service: str, doi: str) -> Found | None:
        if service == "datacite":
            return datacite.by_doi(self.client, self._base("datacite"), doi)
        return crossref.by_doi(self.client, self._base("crossref"), doi, self.options.mailto)

    def by_arxiv(self, record: Record) -> list[Found]:
        return arxiv.look_up(self.client, self._base("arxiv"), record)[0]

    def by_pmid(self, pmid: str) -> Found | None:
        return openalex.by_key(self.client, self._base("openalex"), f"pmid:{pmid}",
                               self.options.mailto)

    def search(self, service: str, record: Record) -> list[Found]:
        mailto, client, base = self.options.mailto, self.client, self._base(service)
        if service == "crossref":
            return crossref.search(client, base, record, mailto)
        if service == "openalex":
            return openalex.search(client, base, record, mailto)
        if service == "dblp":
            return dblp.search(client, base, record)
        return self.by_arxiv(record)


#: The services searched by title and first author, in turn.
SEARCHED: tuple[str, ...] = ("crossref", "openalex", "dblp", "arxiv")


class Lookup:
    """Asks the services (or another ``source``: a local index) about entries, one at a time
    (the client remembers which are down)."""

    def __init__(self, client: PoliteClient, options: VerifyOptions,
                 source: Source | None = None) -> None:
        self.client = client
        self.options = options
        self.source: Source = source if source is not None else Services(client, options)

    def ask(self, evidence: Evidence, service: str, how: str, question: Callable[[], T]
            ) -> T | None:
        """``question``'s answer, or None when ``service`` failed (then noted as FAILED)."""
        if service not in self.options.services:
            return None
        try:
            return question()
        except NotCached as exc:
            evidence.asked.append(Asked(service, how, FAILED, str(exc)))
        except OfflineError:
            evidence.asked.append(Asked(service, how, FAILED, DOWN, down=True))
        except ServiceError as exc:
            evidence.asked.append(Asked(service, how, FAILED, str(exc)))
        return None

    def note(self, evidence: Evidence, service: str, how: str, found: Found | None,
             detail: str = "") -> None:
        if service in self.options.services:
            evidence.asked.append(Asked(service, how, FOUND if found else NOT_FOUND, detail))

    # -- the entry's work ----------------------------------------------------------------
    def gather(self, record: Record) -> Evidence:
        """What the services know of ``record`` (see the module docstring)."""
        evidence = Evidence(record)
        self._by_identifiers(evidence)
        if evidence.work is None:
            self._by_search(evidence)
        if evidence.is_preprint:
            self._published_version(evidence)
        return evidence

    def _by_doi(self, evidence: Evidence, doi: str) -> Found | None:
        services = ["crossref", "datacite"]
        if doi.lower().startswith(datacite.DATACITE_PREFIXES):
            services.reverse()
        answered = 0
        for service in services:
            failures = len(evidence.failed)
            found = self.ask(evidence, service, f"DOI {doi}",
                             partial(self.source.by_doi, service, doi))
            if len(evidence.failed) > failures:
                continue
            answered += service in self.options.services
            self.note(evidence, service, f"DOI {doi}", found)
            if found is not None:
                return found
        if answered and not evidence.failed:
            evidence.unresolved_doi = doi
        return None

    def _by_identifiers(self, evidence: Evidence) -> None:
        record = evidence.record
        doi = record.get("DOI")
        identifier = arxiv_identifier(record)
        work = self._by_doi(evidence, doi) if doi and not identifier else None
        if work is None and identifier:
            how = f"arXiv id {identifier}"
            asked = record.replace(eprint=Eprint("arXiv", identifier))
            found = self.ask(evidence, "arxiv", how, partial(self.source.by_arxiv, asked))
            if found is not None:
                work = next((f for f in found
                             if arxiv_base(f.identifier) == arxiv_base(identifier)), None)
                self.note(evidence, "arxiv", how, work)
        pmid = record.get("PMID")
        if work is None and pmid:
            work = self.ask(evidence, "openalex", f"PMID {pmid}",
                            partial(self.source.by_pmid, pmid))
            self.note(evidence, "openalex", f"PMID {pmid}", work)
        if work is not None:
            evidence.work, evidence.linked, evidence.confidence = work, True, 1.0

    def _searches(self, record: Record) -> list[tuple[str, Callable[[], list[Found]]]]:
        unlinked = record.replace(eprint=None)
        return [(service, partial(self.source.search, service,
                                  unlinked if service == "arxiv" else record))
                for service in SEARCHED]

    def _by_search(self, evidence: Evidence) -> None:
        for service, question in self._searches(evidence.record):
            candidates = self.ask(evidence, service, "title search", question)
            if candidates is None:
                continue
            judgement = judge(evidence.record, candidates)
            if judgement.verdict == "match" and judgement.best is not None:
                evidence.work, evidence.confidence = judgement.best.found, judgement.confidence
                self.note(evidence, service, "title search", evidence.work)
                return
            self.note(evidence, service, "title search", None,
                      "" if judgement.best is None else f"closest: {judgement.explain()}")

    # -- the published version -----------------------------------------------------------
    def _published_version(self, evidence: Evidence) -> None:
        work = evidence.work
        assert work is not None
        announced: list[Version] = []
        for version in work.versions:
            if not version.doi:
                announced.append(version)
                continue
            found = self.ask(evidence, "crossref", f"DOI {version.doi} ({version.how})",
                             partial(self.source.by_doi, "crossref", version.doi))
            if found is not None and found.published:
                evidence.published = found
                evidence.published_judgement = judge(evidence.record, [found], linked=True)
                return
        preprint = _preprint_record(evidence.record, work)
        doi = (work.record.get("DOI") or "").lower()
        for service, question in self._searches(preprint)[:3]:
            candidates = self.ask(evidence, service, "published version search", question)
            if candidates is None:
                continue
            published = [c for c in candidates
                         if c.published and c.record.type in PUBLISHED_TYPES]
            linked = [c for c in published if doi and doi in (p.lower() for p in c.preprints)]
            judgement = judge(preprint, linked or published, linked=bool(linked))
            if judgement.verdict == "match" and judgement.best is not None:
                evidence.published = judgement.best.found
                evidence.published_judgement = judgement
                return
        evidence.announced = tuple(announced)


def _preprint_record(record: Record, work: Found) -> Record:
    """The entry with the preprint's title and authors where the entry lacks them."""
    fields = dict(record.fields)
    if not record.title and work.record.title:
        fields["title"] = work.record.title
    names = dict(record.names)
    if not record.authors and work.record.authors:
        names["author"] = work.record.authors
    return record.replace(fields=fields, names=names)
