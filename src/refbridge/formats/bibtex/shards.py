"""Where a .bib file may be cut into shards that read, one by one, to what reading it whole gives.

A shard starts at an entry whose previous block is an entry too, closed right before it (so no
``@preamble``, ``@comment`` or other text between entries waits for the first entry of the next
shard), never between a ``crossref`` child
and its parent, and carries the ``@string`` macros defined before it. The scan reads the file
in chunks of bytes, so memory does not grow with the text, and looks only at block heads,
``@string`` blocks and ``crossref`` fields. It gives no plan (the file is read whole) when the
file is not in an encoding whose line breaks and ``@`` are the ASCII bytes, has a carriage
return that is not part of a CRLF, repeats a citation key, or has a crossref it cannot place
(a macro, a key that is not in the file, a parent more than ``PARENTS_REMEMBERED`` entries away
from its child). What the scan cannot see (an entry that turns out broken, so the notes before
it wait past the cut) the reader finds while reading the shard and raises ``ShardIncomplete``.
This module must never decide what a record holds: its only output is where the file may be cut.
"""

from __future__ import annotations

import bisect
import codecs
import os
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field

from refbridge.formats.bibtex.syntax import Block, parse_blocks
from refbridge.formats.bibtex.tables import PARENTS_REMEMBERED
from refbridge.registry import Shard, ShardIncomplete

#: Encodings (as ``codecs.lookup`` names them) in which the scan may look at bytes.
ASCII_COMPATIBLE: frozenset[str] = frozenset({"utf-8", "utf-8-sig", "cp1252", "iso8859-1",
                                              "ascii"})
#: How many bytes the scan reads at a time.
SCAN_CHUNK = 8 << 20
_BOM = codecs.BOM_UTF8
#: The head of a block, as ``bibtex_syntax`` reads it: an ``@`` at the start of a line (only
#: spaces before it), the block type, its delimiter and, for an entry, the citation key. The
#: scan puts a line break before the file so that every head follows one.
_HEAD = re.compile(rb"\n[ \t]*@[ \t]*([A-Za-z_][\w:-]*)?[ \t]*([{(])?\s*([^,\s{}()=\"#]*)")
#: A crossref field, found in the lower-cased text (a literal search is fast, one that
#: ignores case is not) and read in the text itself.
_CROSSREF_WORD = re.compile(rb"crossref\s*=")
_WORD_BYTE = re.compile(rb"[\w-]")
_CROSSREF_VALUE = re.compile(rb"\s*(?:\{\s*([^{}\s,]+)\s*\}|\"\s*([^\"{}\s,]+)\s*\"|(.))")
_WHITE_SPACE = b" \t\r\n"
_CLOSERS = b"})"
_NOT_ENTRIES = frozenset({b"string", b"comment", b"preamble"})
_STRING = b"string"
#: The last shards of a file get smaller, each at most this fraction of what remains (but
#: at least this fraction of the size asked), so that the workers finish together.
TAPER = 4


class _Unplaceable(Exception):
    """The file has something the scan cannot place: it is read whole."""


@dataclass(slots=True)
class _Scan:
    """What the scan found: every block head's offset and kind, entry keys, crossrefs."""

    offsets: array[int] = field(default_factory=lambda: array("q"))
    entry: bytearray = field(default_factory=bytearray)  #: 1 where the block is an entry
    #: 1 where only white space comes between the block and a ``}`` or ``)`` before it
    closed: bytearray = field(default_factory=bytearray)
    #: whether the text scanned so far ends in a ``}`` or ``)`` (and white space)
    ends_closed: bool = False
    strings: list[int] = field(default_factory=list)  #: heads that are @string blocks
    keys: list[bytes] = field(default_factory=list)  #: each entry's key, as written
    heads_of_keys: list[int] = field(default_factory=list)  #: the head of each key
    crossrefs: list[tuple[int, bytes]] = field(default_factory=list)  #: (offset, parent)
    size: int = 0  #: bytes scanned: the whole file
    #: block type as written -> (an @string, an entry type)
    kinds: dict[bytes | None, tuple[bool, bool]] = field(default_factory=dict)

    def add_heads(self, part: bytes, base: int) -> None:
        """Note the heads in ``part``, which starts ``base`` bytes into the file after a
        line break."""
        offsets, entry, kinds, closed = self.offsets, self.entry, self.kinds, self.closed
        for match in _HEAD.finditer(part):
            kind, delimiter, key = match.groups()
            known = kinds.get(kind)
            if known is None:
                lowered = (kind or b"").lower()
                known = kinds[kind] = (lowered == _STRING,
                                       bool(lowered) and lowered not in _NOT_ENTRIES)
            is_string, is_entry = known[0], known[1] and delimiter is not None
            if is_string:
                self.strings.append(len(offsets))
            elif is_entry:
                self.keys.append(key)
                self.heads_of_keys.append(len(offsets))
            offsets.append(base + match.start() + 1)
            entry.append(is_entry)
            closed.append(_closed_before(part, match.start(), self.ends_closed))
        self.ends_closed = _closed_before(part, len(part), self.ends_closed)


def _closed_before(part: bytes, end: int, otherwise: bool) -> bool:
    """Whether ``part[:end]`` ends in a ``}`` or ``)`` and white space (``otherwise``: when
    it is all white space)."""
    while end > 0 and part[end - 1] in _WHITE_SPACE:
        end -= 1
    return part[end - 1] in _CLOSERS if end > 0 else otherwise


def _crossrefs(part: bytes) -> Iterator[tuple[int, bytes | None]]:
    """Each ``crossref`` field of ``part`` (any case) with its value: the key when it is
    one braced or quoted key, else None."""
    for word in _CROSSREF_WORD.finditer(part.lower()):
        if word.start() and _WORD_BYTE.match(part, word.start() - 1):
            continue  # part of a longer name
        value = _CROSSREF_VALUE.match(part, word.end())
        yield word.start(), value.group(1) or value.group(2) if value else None


def _chunks(path: str, encoding: str) -> Iterator[tuple[int, bytes]]:
    """The text of ``path`` in chunks, each with its offset in the file: every chunk but the
    first starts with a line break, and so does the first, with one put before the text at
    offset -1 (a byte-order mark is left out); every chunk but the last ends just before a
    line break."""
    with open(path, "rb") as file:
        base, carry = -1, b"\n"
        if encoding == "utf-8-sig" and file.read(len(_BOM)) != _BOM:
            file.seek(0)
        elif encoding == "utf-8-sig":
            base = len(_BOM) - 1
        while True:
            chunk = file.read(SCAN_CHUNK)
            data = carry + chunk
            cut = len(data) if not chunk else data.rfind(b"\n")
            if cut > 0:
                yield base, data[:cut]
            base += max(cut, 0)
            carry = data[max(cut, 0):]
            if not chunk:
                return


def _scan(path: str, encoding: str) -> _Scan:
    """Read ``path`` once, noting every block head and crossref."""
    scan = _Scan()
    end = 0
    for base, part in _chunks(path, encoding):
        if b"\r" in part and part.count(b"\r") != part.count(b"\r\n") + (
                part.endswith(b"\r") and base + len(part) < os.path.getsize(path)):
            raise _Unplaceable("a carriage return that is not part of a line break")
        scan.add_heads(part, base)
        for offset, parent in _crossrefs(part):
            if parent is None:
                raise _Unplaceable("a crossref that is not one braced or quoted key")
            scan.crossrefs.append((base + offset, parent))
        end = base + len(part)
    scan.size = end
    if len(set(scan.keys)) != len(scan.keys):
        raise _Unplaceable("a citation key repeats")
    return scan


def _blocked(scan: _Scan, encoding: str) -> bytearray:
    """1 for each head the file must not be cut at: inside a crossref child-parent span."""
    heads = {key.decode(encoding).lower(): head
             for key, head in zip(scan.keys, scan.heads_of_keys)}
    spans = bytearray(len(scan.offsets) + 1)
    depth = array("q", [0] * (len(scan.offsets) + 1))
    for offset, parent_key in scan.crossrefs:
        child = bisect.bisect_right(scan.offsets, offset) - 1
        parent = heads.get(parent_key.decode(encoding).lower())
        if parent is None or child < 0:
            raise _Unplaceable(f"crossref {parent_key!r} names no entry of the file")
        if parent < child - PARENTS_REMEMBERED:
            raise _Unplaceable(f"crossref {parent_key!r} is far before its child")
        low, high = min(child, parent), max(child, parent)
        depth[low + 1] += 1
        depth[high + 1] -= 1
    running = 0
    for index in range(len(scan.offsets)):
        running += depth[index]
        spans[index] = running > 0
    return spans


def _cuts(scan: _Scan, size: int, encoding: str) -> list[int]:
    """The heads the file is cut at: entries right after an entry, outside crossref spans,
    about ``size`` bytes apart, closer towards the end (see ``TAPER``)."""
    blocked = _blocked(scan, encoding) if scan.crossrefs else bytearray(len(scan.offsets))
    cuts: list[int] = []
    offsets, entry, closed = scan.offsets, scan.entry, scan.closed
    shard_start = 0
    target = min(size, max(size // TAPER, scan.size // TAPER))
    for index in range(1, len(offsets)):
        if offsets[index] - shard_start < target:
            continue
        if entry[index] and entry[index - 1] and closed[index] and not blocked[index]:
            cuts.append(index)
            shard_start = offsets[index]
            target = min(size, max(size // TAPER, (scan.size - shard_start) // TAPER))
    return cuts


def _lines_at(path: str, offsets: list[int]) -> list[int]:
    """The line number at each of ``offsets`` (in increasing order)."""
    lines: list[int] = []
    with open(path, "rb") as file:
        line, position = 1, 0
        for offset in offsets:
            while position < offset:
                data = file.read(min(SCAN_CHUNK, offset - position))
                line += data.count(b"\n")
                position += len(data)
            lines.append(line)
    return lines


def _macros_before(path: str, encoding: str, scan: _Scan, cuts: list[int]
                   ) -> list[tuple[tuple[str, str], ...]]:
    """The ``@string`` macros defined before each cut, as the tokenizer resolves them."""
    strings: dict[str, str] = {}
    found: list[tuple[tuple[str, str], ...]] = []
    pending = iter(scan.strings)
    next_string = next(pending, None)
    with open(path, "rb") as file:
        for cut in cuts:
            while next_string is not None and next_string < cut:
                start = scan.offsets[next_string]
                end = scan.offsets[next_string + 1]
                file.seek(start)
                text = _text(file.read(end - start), encoding)
                for _ in parse_blocks(text, strings):
                    pass
                next_string = next(pending, None)
            found.append(tuple(strings.items()))
    return found


def _text(data: bytes, encoding: str) -> str:
    return data.decode(encoding).replace("\r\n", "\n")


def plan_shards(path: str, encoding: str, size: int) -> list[Shard] | None:
    """``path`` cut into shards of at most about ``size`` bytes, or None when it must be read
    whole."""
    if codecs.lookup(encoding).name not in ASCII_COMPATIBLE:
        return None
    key_encoding = "utf-8" if encoding == "utf-8-sig" else encoding
    try:
        scan = _scan(path, encoding)
        cuts = _cuts(scan, size, key_encoding)
        macros = _macros_before(path, encoding, scan, cuts)
    except (_Unplaceable, UnicodeDecodeError):
        return None
    if not cuts:
        return None
    starts = [0, *(scan.offsets[c] for c in cuts)]
    lines = _lines_at(path, starts)
    contexts = [(), *macros]
    ends = [*starts[1:], scan.size]
    return [Shard(path, encoding if number == 0 else key_encoding, start, end, line,
                  end == scan.size, context)
            for number, (start, end, line, context)
            in enumerate(zip(starts, ends, lines, contexts))]


def shard_blocks(shard: Shard) -> Iterator[Block]:
    """The blocks of ``shard``, as the tokenizer reads them from the whole file."""
    with open(shard.path, "rb") as file:
        file.seek(shard.start)
        data = file.read(shard.end - shard.start)
    try:
        text = _text(data, shard.encoding)
    except UnicodeDecodeError:
        raise ShardIncomplete("text that does not decode: read whole for its line") from None
    return parse_blocks(text, dict(shard.context), shard.first_line, verbatim=True)
