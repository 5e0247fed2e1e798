"""Errors of asking Zotero, each with a message that says what the user can do: Zotero not
running or unreachable, a refused request, an answer that cannot be read (exit status 1).
This module must never print.
"""

from __future__ import annotations

from refbridge.errors import RefbridgeError


class ZoteroError(RefbridgeError):
    """Zotero could not be asked, or refused what was asked."""


class ZoteroUnavailable(ZoteroError):
    """Zotero is not running, or zotero.org cannot be reached or keeps failing."""


class ZoteroRefused(ZoteroError):
    """Zotero answered, and said no (no key, no permission, a write it will not take)."""


class ZoteroAnswerError(ZoteroError):
    """Zotero answered what cannot be read: not JSON, or JSON of another shape."""
