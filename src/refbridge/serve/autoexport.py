"""Auto-exports (Better BibTeX's ``autoexport.add``): a collection of the served library kept
written to a file in a writer's format, written again whenever the library or the collection
changes.

An auto-export is written when it is added, then by a watcher thread of the server that reads
the library files again when they change (each second, as Better BibTeX waits a second) and
writes every auto-export whose text changed. Each file is written whole beside its place and
renamed over it (``textio.atomic_output``): an editor never reads a half-written file. A
failed write is reported (one line) and tried again at the next change. The translator is
Better BibTeX's (``Better BibLaTeX``, its id, ``bibtex``...) or the name of any writer of
refbridge (``ris``, ``hayagriva``...). This module must never write over a library the server
reads, nor write anywhere but the paths the auto-exports name.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.serve.cayw import CaywError, writer_of
from refbridge.serve.collections import Collection, Collections
from refbridge.serve.displayoptions import DisplayOptions, applied
from refbridge.serve.library import Library, written
from refbridge.textio import atomic_output

#: How often the watcher looks for a change of the library files, in seconds (Better BibTeX
#: waits a second after a change before it exports).
WATCH_INTERVAL = 1.0


class AutoExportError(RefbridgeError):
    """An auto-export that cannot be added (an unknown translator, a clash, a bad path)."""


def translator_writer(translator: str) -> str:
    """The writer of ``translator``: Better BibTeX's name or id, or a writer's name."""
    from refbridge.registry import writer_names

    try:
        return writer_of(translator)
    except CaywError:
        if translator in writer_names():
            return translator
        raise AutoExportError(f"Unknown translator '{translator}'") from None


@dataclass(slots=True)
class AutoExport:
    """One auto-export: the file, the collection written to it, the translator asked for and
    the writer that writes it, Better BibTeX's display options, and the text last written."""

    path: str
    collection: Collection
    translator: str
    writer: str
    display_options: DisplayOptions
    written: str | None = None
    error: str = ""


class AutoExports:
    """The auto-exports of the run, written by ``update`` when their text changed; the
    library files are watched once the first auto-export is added."""

    def __init__(self, library: Library, collections: Collections,
                 report: Callable[[str], object]) -> None:
        self._library = library
        self._collections = collections
        self._report = report
        self._exports: dict[str, AutoExport] = {}
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._changes = (library.generation, collections.generation)

    def listed(self) -> list[AutoExport]:
        with self._lock:
            return list(self._exports.values())

    def add(self, collection: Collection, translator: str, path: str,
            display_options: DisplayOptions, replace: bool, keep_failed: bool = False
            ) -> AutoExport:
        """Auto-export ``collection`` to ``path`` (absolute) by ``translator``, and write it
        now. An auto-export to ``path`` of the same collection and translator is written
        again; one of others is replaced only with ``replace``. When it cannot be written
        now, it is not added (an error), unless ``keep_failed`` (one restored from an
        earlier run: the failure is reported, and the write tried again at the next
        change)."""
        writer = translator_writer(translator)
        if not os.path.isabs(path):
            raise AutoExportError(f"the path {path!r} is not absolute")
        path = os.path.normpath(path)
        with self._lock:
            there = self._exports.get(path)
            if there is not None and (there.writer, there.collection.path) != (
                    writer, collection.path) and not replace:
                raise AutoExportError("Auto-export exists with incompatible parameters, but no "
                                      "'replace' was requested")
            export = AutoExport(path, collection, translator, writer, display_options)
            self._write(export)
            if export.error and not keep_failed:
                raise AutoExportError(export.error)
            if export.error:
                self._report(f"refbridge: error: auto-export: {export.error}")
            self._exports[path] = export
        self._watch()
        return export

    def _write(self, export: AutoExport) -> bool:
        """Write ``export`` when its text changed; whether it was written."""
        records = [entry.record for entry in self._collections.members(export.collection)]
        try:
            changed, options = applied(records, export.display_options, export.writer)
            text = written(changed, export.writer, options)
            if text == export.written:
                return False
            with atomic_output(export.path, self._library.paths) as out:
                out.write(text)
        except RefbridgeError as exc:
            export.error = str(exc)
            return False
        export.written, export.error = text, ""
        return True

    def update(self) -> list[str]:
        """Write the auto-exports whose text changed, when the library or a collection
        changed since last asked; the paths written. A failure is reported, once until it
        changes."""
        done = []
        with self._lock:
            changes = (self._library.generation, self._collections.generation)
            if changes == self._changes:
                return []
            self._changes = changes
            for export in self._exports.values():
                before = export.error
                if self._write(export):
                    done.append(export.path)
                elif export.error and export.error != before:
                    self._report(f"refbridge: error: auto-export: {export.error}")
        return done

    def _watch(self) -> None:
        with self._lock:
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watching, daemon=True)
                self._watcher.start()

    def _watching(self) -> None:
        while not self._stop.wait(WATCH_INTERVAL):
            self.refresh_and_update()

    def refresh_and_update(self) -> list[str]:
        """Read the library files again when they changed, then ``update``."""
        diagnostics = Diagnostics()
        self._library.refresh(diagnostics)
        for message in diagnostics.messages:
            self._report(str(message))
        return self.update()

    def close(self) -> None:
        """Stop watching."""
        self._stop.set()

