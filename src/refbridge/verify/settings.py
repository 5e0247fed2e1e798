"""Settings of a verification run: how services are asked (``ClientOptions``) and which.

This module must never make a request.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbridge.services.settings import ClientOptions, known_services

#: The services ``verify`` and ``upgrade`` ask, in the order searches try them.
VERIFY_SERVICES: tuple[str, ...] = ("crossref", "openalex", "dblp", "arxiv", "datacite")


@dataclass(frozen=True, slots=True)
class VerifyOptions(ClientOptions):
    """How entries are verified: ``services`` are those that may be asked; ``index``: a
    local index file (``refbridge index build``) answers instead of the services."""

    services: tuple[str, ...] = VERIFY_SERVICES
    index: str | None = None

    def __post_init__(self) -> None:
        known_services(self.services, VERIFY_SERVICES)
        ClientOptions.__post_init__(self)
