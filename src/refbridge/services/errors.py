"""Errors of enrichment: a service that cannot be reached, or answers what cannot be read.

Each message names the service and says what the user can do; this module must never print.
"""

from __future__ import annotations

from refbridge.errors import RefbridgeError


class EnrichError(RefbridgeError):
    """Enrichment cannot go on (bad settings, or a service that keeps failing)."""


class OfflineError(EnrichError):
    """A service cannot be reached at all, or ``--offline`` forbids asking it."""


class ServiceError(EnrichError):
    """A service answered with an error, or with something that is not its format."""
