"""Settings of an enrichment run: which services it asks and what it may change
(``EnrichOptions``, on top of the services' ``ClientOptions``), or the local index that
answers instead of them. This module must never make a
request or touch the cache.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbridge.services.errors import EnrichError
from refbridge.services.settings import ClientOptions, known_services

#: The services enrichment asks for a record's published version, in their default order.
SERVICES: tuple[str, ...] = ("arxiv", "crossref", "openalex")

#: Match verdicts a user may accept besides a clear match (see ``matching``).
ACCEPTABLE_VERDICTS: frozenset[str] = frozenset({"ambiguous", "weak"})


@dataclass(frozen=True, slots=True)
class EnrichOptions(ClientOptions):
    """How records are enriched: the services asked and what their answers may change."""

    services: tuple[str, ...] = SERVICES  #: which services to ask, in this order
    overwrite: bool = False  #: replace values the input already has
    accept: frozenset[str] = frozenset()  #: also apply "ambiguous" and/or "weak" matches
    index: str | None = None  #: a local index file (``refbridge index build``) answers instead

    def __post_init__(self) -> None:
        known_services(self.services, SERVICES)
        ClientOptions.__post_init__(self)
        unknown_verdicts = set(self.accept) - ACCEPTABLE_VERDICTS
        if unknown_verdicts:
            raise EnrichError(f"cannot accept {', '.join(sorted(unknown_verdicts))} matches "
                             f"(acceptable: {', '.join(sorted(ACCEPTABLE_VERDICTS))})")
