"""The persistent answer cache: one SQLite file holding the services' responses by request.

A second run over the same records asks no service: every answer (successful, or a "not
found") is kept under its request URL, with the time it was fetched. ``--offline`` reads only
from here; ``--refresh`` skips reading but still stores. The contact address (``mailto``) is
not part of the key, so changing it does not empty the cache. This module must never make a
request; it stores bytes and knows nothing of any service's format.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from refbridge.services.errors import EnrichError

#: Query parameters that identify the asker, not the question.
NON_KEY_PARAMETERS: frozenset[str] = frozenset({"mailto"})

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    url TEXT PRIMARY KEY,
    status INTEGER NOT NULL,
    body BLOB NOT NULL,
    fetched REAL NOT NULL
)
"""


def cache_key(url: str) -> str:
    """``url`` without the parameters that identify the asker."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if k not in NON_KEY_PARAMETERS]
    return urlunsplit(parts._replace(query=urlencode(query)))


@dataclass(frozen=True, slots=True)
class CachedResponse:
    status: int
    body: bytes
    fetched: float  #: seconds since the epoch

    def age_days(self, now: float) -> float:
        return (now - self.fetched) / 86400


class ResponseCache:
    """Responses by request URL in one SQLite file (created on first use)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path)
            self._db.execute(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise EnrichError(f"cannot open the enrichment cache {path}: {exc} (set "
                              "REFBRIDGE_CACHE_DIR or use --no-cache)") from None

    def get(self, url: str) -> CachedResponse | None:
        row = self._db.execute("SELECT status, body, fetched FROM responses WHERE url = ?",
                               (cache_key(url),)).fetchone()
        return CachedResponse(row[0], bytes(row[1]), row[2]) if row else None

    def put(self, url: str, status: int, body: bytes, fetched: float | None = None) -> None:
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                             (cache_key(url), status, body,
                              time.time() if fetched is None else fetched))

    def close(self) -> None:
        self._db.close()
