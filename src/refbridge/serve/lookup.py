"""Records the app looks up: one DOI, arXiv id (or arXiv address) or profile
(``orcid:...``, ``dblp:...``, ``openalex:...``, ``s2:...``, ``arxiv-author:"Name"``) a line,
through ``enrich`` (a bare record completed from arXiv, Crossref and OpenAlex) and ``fetch``
(a profile's publication list), with their polite client, cache and ``offline`` mode.

A work no service answered (offline and not cached, not found) is reported, not added as an
empty record. This module must never ask a service but through ``enrich`` and ``fetch``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.identifiers import ARXIV_ID, ARXIV_LABEL, arxiv_id_from_url, doi_of
from refbridge.model import Eprint, Record

if TYPE_CHECKING:
    from refbridge.enrich import EnrichOptions, RecordOutcome


@dataclass(slots=True)
class Looked:
    """What a look-up found: the records, and a line for each thing not found."""

    records: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def bare_record(line: str) -> Record | None:
    """The bare record a DOI or arXiv id stands for, or None when ``line`` is neither."""
    doi = doi_of(line)
    if doi is not None:
        return Record(id=doi, type="article-journal", fields={"DOI": doi})
    identifier = arxiv_id_from_url(line) or ARXIV_LABEL.sub("", line)
    if ARXIV_ID.match(identifier):
        return Record(id=identifier, type="article", eprint=Eprint("arXiv", identifier))
    return None


def _why(outcome: RecordOutcome) -> str:
    reasons = [step.explanation for step in outcome.steps if step.verdict == "not-cached"]
    return reasons[0] if reasons else "no service knows it"


def look_up(text: str, options: EnrichOptions) -> Looked:
    """The records the lines of ``text`` name, the services asked with ``options``."""
    from refbridge.enrich import enrich_records
    from refbridge.fetch import TargetError, fetch_records, parse_target

    looked = Looked()
    bare: list[Record] = []
    for line in (line.strip() for line in text.splitlines()):
        if not line:
            continue
        record = bare_record(line)
        if record is not None:
            bare.append(record)
            continue
        try:
            target = parse_target(line)
        except TargetError:
            looked.problems.append(f"{line}: not a DOI, an arXiv id or a profile "
                                   "(orcid:..., dblp:..., openalex:..., s2:..., "
                                   'arxiv-author:"Name")')
            continue
        diagnostics = Diagnostics()
        try:
            looked.records += fetch_records(target, options, diagnostics)
        except RefbridgeError as exc:
            looked.problems.append(f"{line}: {exc}")
        looked.problems += [f"{line}: {message.message}" for message in diagnostics.messages]
    if bare:
        # a bare record has only its identifier: the work that identifier names is the one
        # (the services call such a match weak, having no title to compare)
        records, report = enrich_records(
            bare, replace(options, accept=options.accept | {"weak"}))
        for record, outcome in zip(records, report.outcomes):
            if record.fields.get("title"):
                looked.records.append(record)
            else:
                looked.problems.append(f"{record.id}: not found ({_why(outcome)})")
    return looked
