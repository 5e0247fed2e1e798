"""The key lock: which citation key each work was given, so that it is given the same key again
on any machine, in any run (``--key-lock FILE``, else ``refbridge.keys.json`` beside the
library when it is there).

A work is known by every identity it has (``IDENTITY_KINDS``, read by
``sameness.keys.identities``): its DOI (bare, lower case), its
arXiv id (without version; from its eprint, an arXiv DOI or an arXiv address) and its folded
title, year and first author. A key is looked up by any of them and filed under all of them,
so a record that gains a DOI (``enrich``) still finds its key by its title, and from then on by
its DOI too. The first key given to a work stays: a key is never moved to another work.

The file is JSON: one object of identity -> key, sorted, two-space indented, ending with a new
line, written atomically, so that two runs that give the same keys write the same bytes and
a version-control diff shows only keys added. A lock is opened only where it can be written
(``open_lock``), so that a run never writes its output and then fails to file its keys. This
module must never change a record, nor write a lock that is not whole.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable

from refbridge.errors import OutputError, ParseError
from refbridge.sameness.keys import identities
from refbridge.textio import atomic_output

#: The lock's file name beside a library, used when it is there and no ``--key-lock`` is given.
DEFAULT_NAME = "refbridge.keys.json"
#: The kinds of identity of a work, in the order they are tried.
IDENTITY_KINDS: tuple[str, ...] = ("doi", "arxiv", "work")


class KeyLock:
    """The keys given to works, read from and written to one JSON file."""

    def __init__(self, path: str, keys: dict[str, str] | None = None) -> None:
        self.path = path
        self.keys: dict[str, str] = dict(keys or {})
        self._saved = dict(self.keys)

    @classmethod
    def load(cls, path: str) -> KeyLock:
        """The lock at ``path`` (empty when there is no file yet)."""
        try:
            with open(path, encoding="utf-8") as stream:
                data = json.load(stream)
        except FileNotFoundError:
            return cls(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise ParseError(f"cannot read the key lock: {exc}", path) from None
        except json.JSONDecodeError as exc:
            raise ParseError(f"not a key lock: {exc.msg}", path, exc.lineno) from None
        except RecursionError:
            raise ParseError("not a key lock: nested too deeply", path) from None
        if not isinstance(data, dict) or not all(
                isinstance(k, str) and isinstance(v, str) and v for k, v in data.items()):
            raise ParseError("not a key lock: it must be one JSON object of identity -> key",
                             path)
        return cls(path, data)

    identities = staticmethod(identities)

    def recall(self, found: Iterable[str]) -> str | None:
        """The key of the work with the identities ``found`` (the first found), or None."""
        return next((self.keys[i] for i in found if i in self.keys), None)

    def remember(self, found: Iterable[str], key: str) -> None:
        """File ``key`` under each identity that has no key yet."""
        for identity in found:
            self.keys.setdefault(identity, key)

    def rename(self, renames: dict[str, str]) -> None:
        """The works filed under a key of ``renames`` filed under its new key (duplicates
        merged: the work keeps the key its merged entry has)."""
        for identity, key in self.keys.items():
            if key in renames:
                self.keys[identity] = renames[key]

    @property
    def changed(self) -> bool:
        return self.keys != self._saved

    def save(self) -> None:
        """Write the lock (atomically), when it changed."""
        if not self.changed:
            return
        with atomic_output(self.path) as out:
            json.dump(dict(sorted(self.keys.items())), out, ensure_ascii=False, indent=2)
            out.write("\n")
        self._saved = dict(self.keys)


def lock_path(given: str | None, *libraries: str) -> str | None:
    """The lock to use: ``given``, else ``refbridge.keys.json`` beside the first of
    ``libraries`` that has one, else None (no lock)."""
    if given:
        return given
    for library in libraries:
        if library and library != "-":
            beside = os.path.join(os.path.dirname(library), DEFAULT_NAME)
            if os.path.isfile(beside):
                return beside
    return None


class _Trial(Exception):
    """Ends a trial write of the lock before anything is written."""


def check_writable(path: str) -> None:
    """Raise ``OutputError`` naming the lock at ``path`` when it could not be saved there (a
    read-only folder, a path through a file): a new file is made beside it, as ``save`` makes
    one, and removed."""
    try:
        with atomic_output(path):
            raise _Trial
    except _Trial:
        pass
    except OutputError as exc:
        raise OutputError(f"key lock {exc}") from None


def open_lock(given: str | None, *libraries: str) -> KeyLock | None:
    """The lock ``lock_path`` names, loaded, or None; ``OutputError`` when it cannot be
    written (before the run writes anything: its keys may need filing)."""
    path = lock_path(given, *libraries)
    if path is None:
        return None
    lock = KeyLock.load(path)
    check_writable(path)
    return lock
