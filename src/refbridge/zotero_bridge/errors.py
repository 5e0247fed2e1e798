"""Errors of the Zotero bridge, each with a message that says what the user can do.

Zotero not running, a missing API key, a refused request: exit status 1 (the service's errors,
``refbridge.services.zotero.errors``, re-exported here so that the bridge raises one family).
An address or option that cannot be understood: exit status 2. This module must never print.
"""

from __future__ import annotations

from refbridge.errors import ExitStatus
from refbridge.services.zotero.errors import (
    ZoteroAnswerError,
    ZoteroError,
    ZoteroRefused,
    ZoteroUnavailable,
)

__all__ = ["ZoteroAnswerError", "ZoteroError", "ZoteroRefused", "ZoteroUnavailable",
           "ZoteroUsageError"]


class ZoteroUsageError(ZoteroError):
    """A library address, collection name or option combination that cannot be used."""

    exit_status = ExitStatus.USAGE
