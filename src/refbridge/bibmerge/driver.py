"""``refbridge merge-driver %O %A %B %P``: git's merge driver for .bib files (and CSL-JSON
``.json`` and ``.csljson`` files item by item: ``csljson``; RIS ``.ris`` and Hayagriva
``.yml`` files record by record and field by field: ``records``).

Git gives the common ancestor (%O), ours (%A), theirs (%B) and the file's path (%P); the
result is written into ours, and the exit status says whether conflicts remain (0: clean,
1: conflicts, marked in the file). Files are read and written as bytes (undecodable bytes
kept as they are), so every block neither side touched comes out byte for byte. A block
that cannot be read (a broken entry) is merged whole as text, with a message on standard
error; a version of which no block can be read (another format) makes the file merged by
git's own line merge (``git merge-file``), with a message. This module must never leave
ours half-written, nor lose a side.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from refbridge.bibmerge.csljson import merge_csl, read_csl
from refbridge.bibmerge.hayagriva import read_hayagriva
from refbridge.bibmerge.records import merge_documents
from refbridge.bibmerge.ris import read_ris
from refbridge.bibmerge.sequence import merge_libraries
from refbridge.bibmerge.units import Library, SpanCache, Unreadable, read_library

#: The file endings merged entry by entry (others: ``RECORD_FORMATS``, or git's line merge).
BIB_SUFFIXES = frozenset({".bib", ".bibtex"})
#: How bytes that are not UTF-8 are carried through unchanged.
_ERRORS = "surrogateescape"


def _text(path: str) -> str:
    return Path(path).read_bytes().decode("utf-8", _ERRORS)


def write_in_place(path: str, text: str) -> None:
    """``text`` into ``path`` whole or not at all (a temporary file renamed over it)."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".refbridge-merge-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8", _ERRORS))
        if target.exists():
            os.chmod(temporary, target.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def line_merge(base: str, ours: str, theirs: str) -> int:
    """Git's own line merge of the three files into ``ours``: its number of conflicts
    (-1: git could not run)."""
    try:
        done = subprocess.run(["git", "merge-file", "-L", "ours", "-L", "base", "-L",
                               "theirs", ours, base, theirs], check=False)
    except OSError as exc:
        print(f"refbridge: merge-driver: cannot run git merge-file: {exc.strerror}",
              file=sys.stderr)
        return -1
    return done.returncode


#: The file endings merged record by record: each format's reader (raising ``Unreadable`` for
#: a text not in that format) and its merge of three versions read.
RECORD_FORMATS: dict[str, tuple[Callable[[str], Any], Callable[..., tuple[str, int]]]] = {
    ".json": (read_csl, merge_csl), ".csljson": (read_csl, merge_csl),
    ".ris": (read_ris, merge_documents),
    ".yml": (read_hayagriva, merge_documents), ".yaml": (read_hayagriva, merge_documents)}


def merge_record_files(base: str, ours: str, theirs: str, path: str) -> int:
    """Merge three versions of a CSL-JSON, RIS or Hayagriva file record by record into
    ``ours`` (git's line merge when a version is not in that format); the exit status git
    expects."""
    reader, merge = RECORD_FORMATS[Path(path).suffix.lower()]
    versions = []
    for side, name in (("base", base), ("ours", ours), ("theirs", theirs)):
        try:
            versions.append(reader(_text(name)))
        except Unreadable as problem:
            print(f"refbridge: merge-driver: {path} ({side}): {problem}; merged by git's line "
                  "merge instead", file=sys.stderr)
            return 0 if line_merge(base, ours, theirs) == 0 else 1
    text, conflicts = merge(*versions)
    write_in_place(ours, text)
    if conflicts:
        print(f"refbridge: merge-driver: {path}: {conflicts} conflict(s) marked",
              file=sys.stderr)
    return 1 if conflicts else 0


def merge_files(base: str, ours: str, theirs: str, path: str) -> int:
    """Merge the three versions of ``path`` into ``ours``; the exit status git expects."""
    suffix = Path(path).suffix.lower()
    if suffix in RECORD_FORMATS:
        return merge_record_files(base, ours, theirs, path)
    if suffix not in BIB_SUFFIXES:
        print(f"refbridge: merge-driver: {path}: not a .bib, CSL-JSON, RIS or Hayagriva file; "
              "merged by git's line merge", file=sys.stderr)
        return 0 if line_merge(base, ours, theirs) == 0 else 1
    versions: list[Library] = []
    cache: SpanCache = {}
    told: set[str] = set()
    for side, name in (("base", base), ("ours", ours), ("theirs", theirs)):
        try:
            version = read_library(_text(name), cache, broken_as_text=True)
        except Unreadable as problem:
            print(f"refbridge: merge-driver: {path} ({side}): {problem}; merged by git's line "
                  "merge instead", file=sys.stderr)
            return 0 if line_merge(base, ours, theirs) == 0 else 1
        for broken in sorted(set(version.problems) - told):
            told.add(broken)
            print(f"refbridge: merge-driver: {path} ({side}): {broken}; that block merged "
                  "as text", file=sys.stderr)
        versions.append(version)
    if not any(unit.kind != "text" for version in versions for unit in version.units):
        print(f"refbridge: merge-driver: {path}: no version holds a .bib block; merged by "
              "git's line merge", file=sys.stderr)
        return 0 if line_merge(base, ours, theirs) == 0 else 1
    try:
        merged = merge_libraries(*versions)
    except Exception as fault:  # noqa: BLE001 (a fault of ours must not cost a side)
        print(f"refbridge: merge-driver: {path}: internal error ({type(fault).__name__}: "
              f"{fault}); merged by git's line merge instead", file=sys.stderr)
        return 0 if line_merge(base, ours, theirs) == 0 else 1
    write_in_place(ours, merged.text)
    for note in merged.notes:
        print(f"refbridge: merge-driver: {path}: {note}", file=sys.stderr)
    if merged.conflicts:
        print(f"refbridge: merge-driver: {path}: {merged.conflicts} conflict(s) marked",
              file=sys.stderr)
    return 1 if merged.conflicts else 0
