"""One large input file cut into byte ranges read side by side (Spark's partitions), each from
a record boundary to the next, as Hadoop's line record reader cuts a text file.

The file's bytes are cut every ``split_bytes``; the piece of the offsets ``[start, end)`` is read
from the first record boundary at or after ``start`` to the first at or after ``end`` (the first
piece from the file's start, the last to its end), so every record is read by exactly one piece
however the offsets fall, and a record longer than a cut leaves an empty piece, which is dropped.
Where a format's records start (``Boundaries``) is the format's to say: a line's start for JSON
Lines, a top-level record's start tag for dblp.xml. A piece that is not the file's start may need
the file's prolog before it to be a document of its own (dblp.xml's declaration, DTD and root
start tag, so that the DTD's entities are resolved in every piece), and a piece that is not its
end the root's end tag after it: a ``Split`` carries both, and how many of its file's lines come
before its first (``line_shift``), counted by the pieces in parallel, so that its readers number
lines as in the whole file.

A ``Split`` is the path of its file (a ``str``), so every function that takes an input's path
takes a piece of it; ``textio.open_input`` reads only its bytes. A gzipped file or a tar
archive cannot be cut (it has no offset to start from but its first byte): its caller reads it
whole. This module must never parse a record.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import Self

#: How much of a file is read at a time while looking for a boundary or counting lines.
BLOCK_BYTES = 1 << 20
#: How far a boundary's pattern may reach back into the previous block (a start tag's length).
OVERLAP_BYTES = 256
#: How much of a file's start is searched for the end of its prolog.
PROLOG_BYTES = 1 << 20

#: Measures the pieces of a file: maps ``measure`` over ``(start, end, last)`` offsets, in order
#: (Spark's map, or the builtin one).
Measurer = Callable[[Callable[[tuple[int, int, bool]], "Measured"],
                     Sequence[tuple[int, int, bool]]], list["Measured"]]


@dataclass(frozen=True, slots=True)
class Boundaries:
    """Where the records of a format start in its bytes."""

    #: Matches where a record starts (its match's start is the boundary).
    pattern: re.Pattern[bytes]
    #: Matches the end of the file's prolog, which every piece but the first needs before it
    #: (dblp.xml: the root's start tag); None: a piece needs nothing before it.
    prolog: re.Pattern[bytes] | None = None
    #: What every piece but the last needs after it (dblp.xml: the root's end tag).
    epilog: bytes = b""


#: JSON Lines: a record a line, so every line's start is a boundary.
LINES = Boundaries(re.compile(rb"(?<=\n)"))


@dataclass(frozen=True, slots=True)
class Measured:
    """One piece of a file: its first byte, the byte after its last, the line breaks in it."""

    first: int
    stop: int
    line_breaks: int


class Split(str):
    """Bytes ``first`` .. ``stop`` of the file at this path, with ``prefix`` before them and
    ``suffix`` after them; ``line_shift`` lines of the file come before its first line, less
    the prefix's line breaks (the line the reader numbers N is the file's N + ``line_shift``)."""

    first: int
    stop: int
    line_shift: int
    prefix: bytes
    suffix: bytes

    def __new__(cls, path: str, first: int, stop: int, line_shift: int = 0,
                prefix: bytes = b"", suffix: bytes = b"") -> Self:
        split = super().__new__(cls, path)
        split.first, split.stop, split.line_shift = first, stop, line_shift
        split.prefix, split.suffix = prefix, suffix
        return split

    def __reduce__(self) -> tuple[Any, ...]:
        return Split, (str(self), self.first, self.stop, self.line_shift, self.prefix,
                       self.suffix)

    def __repr__(self) -> str:
        return f"Split({str(self)!r}, {self.first}, {self.stop})"

    def open(self) -> io.RawIOBase:
        """The piece's bytes: its prefix, its range of the file, its suffix."""
        return _Piece(self)


class _Piece(io.RawIOBase):
    def __init__(self, split: Split) -> None:
        self._file = open(str(split), "rb")  # noqa: SIM115 (closed with the piece)
        self._file.seek(split.first)
        self._left = split.stop - split.first
        self._parts: list[bytes | None] = [split.prefix, None, split.suffix]  # None: the range

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        while self._parts:
            part = self._parts[0]
            if part is None:
                count = self._file.readinto(view[:min(len(view), self._left)]) or 0
                self._left -= count
                if count == 0 or self._left == 0:
                    self._parts.pop(0)
            else:
                count = min(len(part), len(view))
                view[:count] = part[:count]
                self._parts[0] = part[count:]
                if count == len(part):
                    self._parts.pop(0)
            if count:
                return count
        return 0

    def close(self) -> None:
        self._file.close()
        super().close()


def boundary(file: io.BufferedReader, offset: int, pattern: re.Pattern[bytes]) -> int | None:
    """The first boundary at or after ``offset`` in ``file``; None when there is none."""
    look_back = 1 if offset else 0  # a pattern may look at the byte before its match
    file.seek(offset - look_back)
    block = file.read(BLOCK_BYTES)
    base = offset - look_back
    while block:
        found = pattern.search(block, look_back)
        if found is not None:
            return base + found.start()
        keep = min(OVERLAP_BYTES, len(block))
        more = file.read(BLOCK_BYTES)
        if not more:
            return None
        base += len(block) - keep
        look_back = 1  # the kept bytes were searched, a match cut by the block's end aside
        block = block[-keep:] + more
    return None


def measure(path: str, pattern: re.Pattern[bytes], cut: tuple[int, int, bool]) -> Measured:
    """The piece of the offsets ``cut`` (start, end, whether it is the last) of ``path``."""
    start, end, last = cut
    with open(path, "rb") as file:
        size = file.seek(0, io.SEEK_END)
        first = 0 if start == 0 else boundary(file, start, pattern)
        stop = size if last else boundary(file, end, pattern)
        first = size if first is None else first
        stop = size if stop is None else max(stop, first)
        file.seek(first)
        line_breaks, left = 0, stop - first
        while left:
            block = file.read(min(BLOCK_BYTES, left))
            if not block:
                break
            line_breaks += block.count(b"\n")
            left -= len(block)
    return Measured(first, stop, line_breaks)


def _local(work: Callable[[tuple[int, int, bool]], Measured],
           cuts: Sequence[tuple[int, int, bool]]) -> list[Measured]:
    return [work(cut) for cut in cuts]


def plan(path: str, split_bytes: int, boundaries: Boundaries, measurer: Measurer | None = None
         ) -> list[str]:
    """``path``, a plain file (not gzipped: ``textio.packed``), as pieces of about
    ``split_bytes`` (its ``Split``s, in order, measured by ``measurer``, else here), or as
    itself when it is not larger or has no prolog where its format needs one."""
    from functools import partial

    try:
        with open(path, "rb") as file:
            size = file.seek(0, io.SEEK_END)
            file.seek(0)
            head = file.read(PROLOG_BYTES)
    except OSError:
        return [path]  # its reader says why it cannot be read
    if size <= split_bytes:
        return [path]
    prefix = b""
    if boundaries.prolog is not None:
        found = boundaries.prolog.search(head)
        if found is None:
            return [path]
        prefix = head[:found.end()]
    offsets = list(range(0, size, split_bytes))
    cuts = [(start, min(start + split_bytes, size), start + split_bytes >= size)
            for start in offsets]
    pieces: list[str] = []
    before = 0
    for piece in (measurer or _local)(partial(measure, path, boundaries.pattern), cuts):
        if piece.stop > piece.first:
            start = prefix if piece.first else b""
            pieces.append(Split(path, piece.first, piece.stop, before - start.count(b"\n"),
                                start, boundaries.epilog if piece.stop < size else b""))
        before += piece.line_breaks
    return pieces
