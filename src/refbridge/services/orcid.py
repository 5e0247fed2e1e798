"""ORCID: one person's publication list from the public API, read by ORCID's reader
(``refbridge.formats.services.orcid``).

``/v3.0/{orcid}/works`` (the work groups), then the full works of the groups' preferred
versions, 100 put-codes a request (``/works/{codes}``); when those answer 404 the summaries
alone make the records. ``/person`` names the owner, if it answers. This module must never
print.
"""

from __future__ import annotations

from collections.abc import Sequence

from refbridge.formats.services import orcid
from refbridge.formats.services.answers import load_json
from refbridge.model import Record
from refbridge.services.listing import Session

#: Put-codes ORCID gives full works for in one request.
ORCID_BULK = 100
ORCID_HEADERS: dict[str, str] = {"Accept": "application/json"}


def _chunks(items: Sequence[str], size: int) -> list[Sequence[str]]:
    return [items[start:start + size] for start in range(0, len(items), size)]


def fetch_orcid(session: Session) -> list[Record]:
    base = f"{session.base}/v3.0/{session.target.value}"
    url = f"{base}/works"
    text = session.text(url, headers=ORCID_HEADERS,
                        missing=f"ORCID has no public record {session.target.value}")
    works, _ = orcid.read_document(text or "", url, session.diagnostics)
    documents = [works]
    codes = [code for group in works.groups
             if (summary := orcid.preferred(group)) is not None
             and (code := orcid.put_code(summary)) is not None]
    session.page_done(len(codes))
    for chunk in _chunks(codes, ORCID_BULK):
        bulk_url = f"{base}/works/{','.join(chunk)}"
        bulk = session.text(bulk_url, headers=ORCID_HEADERS)
        if bulk is None:
            session.diagnostics.warning("ORCID has no full works for these put-codes (404); "
                                        "the records are made from the summaries", bulk_url)
            break
        documents.append(orcid.read_document(bulk, bulk_url, session.diagnostics)[0])
    person = session.text(f"{base}/person", headers=ORCID_HEADERS)
    if person is not None:
        works.owner = orcid.person_name(load_json(person, f"{base}/person", "an ORCID person",
                                                   session.diagnostics))
    return list(orcid.records(documents, url, session.diagnostics))
