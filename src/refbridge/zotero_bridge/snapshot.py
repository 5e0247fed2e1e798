"""A consistent, private copy of a SQLite database that another program (Zotero) is using.

Zotero keeps ``zotero.sqlite`` open while it runs, by default with SQLite's exclusive locking
mode, so a plain read-only connection fails with "database is locked"; and where it does not,
a reader's shared lock makes Zotero's own commits wait for as long as the read lasts. Opening
with ``immutable=1`` takes no lock but ignores a ``-wal`` or ``-journal`` beside the file, and
reads pages Zotero may be rewriting at that moment. So refbridge neither locks nor trusts the
live file: it **copies** the database, with its ``-journal`` or ``-wal`` when present, into a
temporary directory, checks that the file did not change during the copy (else copies again),
and opens the copy. SQLite then rolls a copied hot journal back, or replays a copied WAL, on
the copy: the reader sees the last committed state. Copying reads the file with ordinary reads,
which take no SQLite lock (on Windows, a file of more than 1 GiB locked by Zotero cannot be
copied; the error says so). The copy costs its size in temporary disk space, for as long as
the read lasts.

This module must never write to, lock or open with SQLite the database it is given.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from refbridge.zotero_bridge.errors import ZoteroError

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_HEADER = b"SQLite format 3\x00"
#: Files that belong with a database and must be copied with it.
COMPANIONS: tuple[str, ...] = ("-journal", "-wal")
#: How many times a copy is made again when the file changed while it was copied.
ATTEMPTS = 5


class DatabaseUnreadable(ZoteroError):
    """A database file that cannot be read (missing, not SQLite, encrypted, damaged)."""


def _signature(path: Path) -> tuple[tuple[int, int], ...]:
    stats = []
    for name in (path.name, *(path.name + suffix for suffix in COMPANIONS)):
        try:
            stat = (path.parent / name).stat()
            stats.append((stat.st_size, stat.st_mtime_ns))
        except OSError:
            stats.append((-1, -1))
    return tuple(stats)


def check_header(path: Path, what: str) -> None:
    """An error naming ``path`` unless it is a readable SQLite 3 file."""
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        raise DatabaseUnreadable(f"{path}: no such file ({what})") from None
    except IsADirectoryError:
        raise DatabaseUnreadable(f"{path}: a directory, not {what}") from None
    except OSError as exc:
        raise DatabaseUnreadable(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if header != SQLITE_HEADER:
        raise DatabaseUnreadable(f"{path}: not {what}: not a SQLite database (another kind "
                                 "of file, or an encrypted database)")


def _copy(path: Path, folder: Path) -> Path:
    target = folder / path.name
    for attempt in range(ATTEMPTS):
        before = _signature(path)
        for suffix in ("", *COMPANIONS):
            source = path.parent / (path.name + suffix)
            copied = folder / (path.name + suffix)
            copied.unlink(missing_ok=True)
            if source.exists():
                try:
                    shutil.copyfile(source, copied)
                except FileNotFoundError:
                    pass  # a journal that went away as the commit ended
                except OSError as exc:
                    raise DatabaseUnreadable(f"{source}: cannot be copied to be read "
                                             f"({exc.strerror or exc})") from None
        if _signature(path) == before:
            return target
        time.sleep(0.05 * (attempt + 1))
    return target  # still changing: the copy is opened, and SQLite says if it is damaged


@contextmanager
def snapshot(path: Path, what: str = "a database") -> Iterator[sqlite3.Connection]:
    """A read-only connection to a copy of the database at ``path``, deleted afterwards."""
    check_header(path, what)
    with tempfile.TemporaryDirectory(prefix="refbridge-zotero-") as folder:
        copy = _copy(path, Path(folder))
        try:
            connection = sqlite3.connect(copy, check_same_thread=False)
        except sqlite3.Error as exc:
            raise DatabaseUnreadable(f"{path}: cannot be opened: {exc}") from None
        try:
            connection.execute("PRAGMA schema_version").fetchone()  # settles the journal
            connection.execute("PRAGMA query_only = ON")
            yield connection
        except sqlite3.DatabaseError as exc:
            raise DatabaseUnreadable(f"{path}: cannot be read as {what}: {exc} (a damaged or "
                                     "encrypted file)") from None
        except UnicodeDecodeError:  # SQLite's message quotes the damaged bytes of its schema
            raise DatabaseUnreadable(f"{path}: cannot be read as {what}: its schema holds bytes "
                                     "that are not UTF-8 (a damaged or encrypted file)") from None
        finally:
            connection.close()
