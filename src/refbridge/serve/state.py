"""What ``refbridge serve`` keeps from one run to the next: the collections made or filled
during a run (``collection.scanAUX``, ``autoexport.add``) and the auto-exports added, in a
small JSON file, as Better BibTeX keeps them in Zotero's database.

The file is one for each set of libraries served (a run serving others must not write their
auto-exports): by default ``serve/LIBRARIES.json`` in the user's state folder
(``$XDG_STATE_HOME/refbridge``, ``~/.local/state/refbridge``; ``LIBRARIES`` a digest of the
libraries' absolute paths, which the file lists), or the file ``--state`` names. It is written
whole beside its place and renamed over it after every change; it is read when the server
starts, and what it holds is made again (every auto-export written at once). A file that
cannot be read as such a state is reported in one line naming it, and is never written over:
that run keeps nothing. This module must never write another file than the state's.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from refbridge.errors import RefbridgeError
from refbridge.serve.autoexport import AutoExportError, AutoExports
from refbridge.serve.collections import Collections
from refbridge.serve.displayoptions import DisplayOptionError, display_options
from refbridge.textio import atomic_output

#: The member that says what the file is, and the version of its layout.
FORMAT = "refbridge-serve-state"
VERSION = 1


class StateError(RefbridgeError):
    """A state file that cannot be read as one."""


def library_paths(libraries: Sequence[str]) -> list[str]:
    """The libraries as the state names them: files by absolute path, addresses as given."""
    return [library if ":" in library and not os.path.exists(library)
            else os.path.abspath(library) for library in libraries]


def default_state_file(libraries: Sequence[str]) -> Path:
    """The state file of a run serving ``libraries``, in the user's state folder."""
    from platformdirs import user_state_dir

    digest = hashlib.sha256("\n".join(sorted(library_paths(libraries))).encode("utf-8"))
    return Path(user_state_dir("refbridge", appauthor=False)) / "serve" / \
        f"{digest.hexdigest()[:16]}.json"


def _names(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(
            isinstance(name, str) and name for name in value):
        raise StateError(f"{what} is not a list of names")
    return tuple(value)


def _read(text: str) -> dict[str, Any]:
    """The state in ``text``, its shape checked (``StateError``: not a state)."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise StateError(f"not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get(FORMAT) != VERSION:
        raise StateError(f'no "{FORMAT}": {VERSION} member')
    for name in ("collections", "autoexports"):
        if not isinstance(data.get(name, []), list) or not all(
                isinstance(one, dict) for one in data.get(name, [])):
            raise StateError(f"{name} is not a list of objects")
    for collection in data.get("collections", []):
        _names(collection.get("path"), "a collection's path")
        keys = collection.get("keys")
        if keys is not None and not (isinstance(keys, list) and all(
                isinstance(key, str) for key in keys)):
            raise StateError("a collection's keys are not a list of citation keys")
    for export in data.get("autoexports", []):
        _names(export.get("collection"), "an auto-export's collection")
        if not isinstance(export.get("path"), str) or not isinstance(
                export.get("translator"), str):
            raise StateError("an auto-export has no path or translator")
    return data


class ServeState:
    """The state file of a run: read once (``restore``), written after every change
    (``save``); never written when it could not be read. Problems go to ``report``."""

    def __init__(self, path: Path, libraries: Sequence[str], collections: Collections,
                 autoexports: AutoExports, report: Callable[[str], object]) -> None:
        self.path = path
        self._libraries = library_paths(libraries)
        self._collections = collections
        self._autoexports = autoexports
        self._report = report
        self._lock = threading.Lock()
        #: false once the file could not be read: it is left as it is
        self.writable = True

    def restore(self) -> None:
        """Make again the collections and auto-exports the file holds (none when it does not
        exist); a file that is no state is reported and left as it is."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError) as exc:
            self._refuse(str(getattr(exc, "strerror", None) or exc))
            return
        try:
            data = _read(text)
        except StateError as exc:
            self._refuse(str(exc))
            return
        for collection in data.get("collections", []):
            keys = collection.get("keys")
            self._collections.restore(tuple(collection["path"]),
                                      None if keys is None else frozenset(keys))
        for export in data.get("autoexports", []):
            self._restore_export(export)

    def _restore_export(self, export: dict[str, Any]) -> None:
        path = tuple(export["collection"])
        if path not in {collection.path for collection in self._collections.all()}:
            self._report(f"refbridge: warning: {self.path}: auto-export to {export['path']} "
                         f"not restored: the collection /{'/'.join(path)} is no longer in the "
                         "library (its file is left as it is)")
            return
        try:
            options = display_options(export.get("displayOptions"))
            collection = self._collections.restore(path, None)
            self._autoexports.add(collection, export["translator"], export["path"], options,
                                  replace=True, keep_failed=True)
        except (AutoExportError, DisplayOptionError) as exc:
            self._report(f"refbridge: error: {self.path}: auto-export to {export['path']} "
                         f"not restored: {exc}")

    def _refuse(self, why: str) -> None:
        self.writable = False
        self._report(f"refbridge: warning: {self.path}: not a serve state refbridge can read "
                     f"({why}): nothing of earlier runs restored, and this run's collections "
                     "and auto-exports are not saved to it (move it away to keep them)")

    def as_json(self) -> dict[str, Any]:
        """The state of the run, as the file holds it."""
        made = self._collections.made()
        return {
            FORMAT: VERSION, "libraries": self._libraries,
            "collections": [{"path": list(path), "keys": None if keys is None else sorted(keys)}
                            for path, keys in made.items()],
            "autoexports": [{"path": export.path, "collection": list(export.collection.path),
                             "translator": export.translator,
                             "displayOptions": export.display_options.as_json()}
                            for export in self._autoexports.listed()]}

    def save(self) -> None:
        """Write the state (whole, renamed over the file); a failure is reported."""
        if not self.writable:
            return
        text = json.dumps(self.as_json(), ensure_ascii=False, indent=1) + "\n"
        with self._lock:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with atomic_output(str(self.path)) as out:
                    out.write(text)
            except (OSError, RefbridgeError) as exc:
                self._report(f"refbridge: error: {self.path}: state not saved: {exc}")
