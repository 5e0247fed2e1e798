"""The language server's index of a library kept on disk between runs, so that a restart on
an unchanged library answers at once instead of indexing it again.

A file per library file and part (its ``index``; the ``problems`` of reading it), named by
a hash of the library's path, in the ``lsp`` folder of refbridge's cache (``REFBRIDGE_CACHE_DIR``, else the user's cache folder): a line of JSON
(the format, refbridge's version, the library's path, size, modification time and content
hash, the number of entries and the length of each column), then the entries by column:
texts as UTF-8 joined by line breaks, numbers as 64-bit integers (read back at C speed, not
value by value). A cache is taken only when its format, version, path, size and content hash
are the library's as it is now (the modification time is recorded, not trusted: a file only
touched keeps its cache, a file changed within the same second does not). A file that cannot
be read, is not JSON or has columns of the wrong shape or length is ignored (and replaced at the next
store). A cache is written to a file of its own and moved into place, so a reader never sees
half of one and two servers storing at once leave one whole cache.
This module must never raise for a cache it cannot read or write: the cache only saves time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refbridge.services.settings import default_cache_dir
from refbridge.version import __version__

#: The layout of a cache file (raised when it changes: older caches are then ignored).
FORMAT = 1
#: The folder of the cache that is the language server's.
FOLDER = "lsp"
#: What a cache must say to be the one of a library as it is now (the order of ``load``).
_CHECKED = ("format", "version", "byteorder", "path", "size", "hash")


def content_hash(data: bytes) -> str:
    """The hash a library's content is known by (not a security measure: a fingerprint)."""
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


def cache_file(path: str, part: str = "index") -> Path:
    """The cache file of ``part`` of what is known of the library file ``path``."""
    name = hashlib.sha1(os.path.abspath(path).encode("utf-8"),
                        usedforsecurity=False).hexdigest()
    return default_cache_dir() / FOLDER / f"{name}.{part}"


@dataclass(frozen=True, slots=True)
class Columns:
    """What is cached of a library: as many values in each column, by the column's name;
    ``texts``' values hold no line break. Loaded: the size and hash of the content it is of."""

    texts: dict[str, list[str]]
    numbers: dict[str, list[int]]
    size: int = 0
    digest: str = ""


def load(path: str, size: int | None, digest: str | None, texts: Sequence[str],
         numbers: Sequence[str], part: str = "index") -> Columns | None:
    """The columns ``texts`` and ``numbers`` of ``part`` cached for the library file
    ``path`` whose content is ``size`` bytes hashed to ``digest`` (None for both: of the
    content it had when cached, whatever it was); None when there is no such cache."""
    try:
        with open(cache_file(path, part), "rb") as stream:
            data = stream.read()
        ends = data.index(b"\n")
        header = json.loads(data[:ends])
        if not isinstance(header, dict) or [header.get(name) for name in _CHECKED] != \
                [FORMAT, __version__, sys.byteorder, os.path.abspath(path),
                 header.get("size") if size is None else size,
                 header.get("hash") if digest is None else digest]:
            return None
        size, digest = header["size"], header["hash"]
        if not isinstance(size, int) or not isinstance(digest, str):
            return None
        count, lengths = header["count"], header["columns"]
        names = [*texts, *numbers]
        if [name for name, _ in lengths] != names or \
                ends + 1 + sum(length for _, length in lengths) != len(data):
            return None
        columns: list[Any] = []
        for name, length in lengths:
            body = data[ends + 1:ends + 1 + length]
            ends += length
            columns.append((body.decode("utf-8").split("\n") if count else [])
                           if name in texts else array("q", body).tolist())
    except (ValueError, KeyError, TypeError, OSError):  # not a cache this one wrote
        return None
    if any(len(column) != count for column in columns):
        return None
    return Columns(dict(zip(texts, columns[:len(texts)], strict=True)),
                   dict(zip(numbers, columns[len(texts):], strict=True)), size, digest)


def store(path: str, stamp: tuple[int, int], digest: str, columns: Columns,
          part: str = "index") -> bool:
    """Keep ``columns`` as ``part`` for the library file ``path`` at ``stamp``
    (modification time, size) whose content hashes to ``digest``; whether it was written."""
    target = cache_file(path, part)
    counts = {len(column) for column in columns.texts.values()}
    counts.update(len(column) for column in columns.numbers.values())
    if len(counts) != 1 or any("\n" in text for column in columns.texts.values()
                               for text in column):
        return False
    bodies = [(name, "\n".join(column).encode("utf-8"))
              for name, column in columns.texts.items()]
    bodies += [(name, array("q", column).tobytes()) for name, column in columns.numbers.items()]
    header: dict[str, Any] = dict(zip(_CHECKED, [
        FORMAT, __version__, sys.byteorder, os.path.abspath(path), stamp[1], digest],
        strict=True))
    header.update({"mtime_ns": stamp[0], "count": counts.pop(),
                   "columns": [[name, len(body)] for name, body in bodies]})
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=target.stem, suffix=".part",
                                             dir=target.parent)
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(json.dumps(header).encode("utf-8") + b"\n")
            for _, body in bodies:
                stream.write(body)
        os.replace(temporary, target)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False
    return True
