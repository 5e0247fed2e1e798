"""The picks that wait: a cite-as-you-write request waits until the user picks in the picker
page (or cancels, or the wait times out), and is then answered with the pick.

Each pick has an id no other page can guess; the picker page answers it once. This module must
never format a pick nor open a page itself (the server is given the opener).
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field

from refbridge.serve.cayw import Citation

#: How long a cite-as-you-write request waits for the pick (seconds), by default.
PICK_TIMEOUT = 600.0


@dataclass(slots=True)
class Pick:
    """One waiting pick: its id, and once answered, the citations (None: cancelled)."""

    id: str
    done: threading.Event = field(default_factory=threading.Event)
    citations: list[Citation] | None = None


class Picks:
    """The picks waiting for the picker page."""

    def __init__(self) -> None:
        self._waiting: dict[str, Pick] = {}
        self._lock = threading.Lock()

    def open(self) -> Pick:
        pick = Pick(secrets.token_urlsafe(12))
        with self._lock:
            self._waiting[pick.id] = pick
        return pick

    def waiting(self, pick_id: str) -> bool:
        with self._lock:
            return pick_id in self._waiting

    def answer(self, pick_id: str, citations: list[Citation] | None) -> bool:
        """Answer the pick ``pick_id`` (None: cancelled); False when no such pick waits."""
        with self._lock:
            pick = self._waiting.pop(pick_id, None)
        if pick is None:
            return False
        pick.citations = citations
        pick.done.set()
        return True

    def wait(self, pick: Pick, timeout: float) -> list[Citation]:
        """The pick's citations once answered; an empty pick when cancelled or timed out."""
        answered = pick.done.wait(timeout)
        if not answered:
            with self._lock:
                self._waiting.pop(pick.id, None)
        return pick.citations or []
