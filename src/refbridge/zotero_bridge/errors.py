"""Errors of the Zotero bridge, each with a message that says what the user can do.

Zotero not running, a missing API key, a refused request: exit status 1. An address or option
that cannot be understood: exit status 2. This module must never print.
"""

from __future__ import annotations

from refbridge.errors import ExitStatus, RefbridgeError


class ZoteroError(RefbridgeError):
    """Zotero could not be asked, or refused what was asked."""


class ZoteroUnavailable(ZoteroError):
    """Zotero is not running, or zotero.org cannot be reached or keeps failing."""


class ZoteroRefused(ZoteroError):
    """Zotero answered, and said no (no key, no permission, a write it will not take)."""


class ZoteroAnswerError(ZoteroError):
    """Zotero answered what cannot be read: not JSON, or JSON of another shape."""


class ZoteroUsageError(ZoteroError):
    """A library address, collection name or option combination that cannot be used."""

    exit_status = ExitStatus.USAGE
