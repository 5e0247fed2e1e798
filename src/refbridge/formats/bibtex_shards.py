"""Where a .bib file may be cut into shards that read, one by one, to what reading it whole gives.

A shard starts at an entry whose previous block is an entry too (so no ``@preamble`` or
``@comment`` waits for the first entry of the next shard), never between a ``crossref`` child
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
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field

from refbridge.formats.bibtex_reader import PARENTS_REMEMBERED
from refbridge.formats.bibtex_syntax import Block, parse_blocks
from refbridge.registry import Shard, ShardIncomplete

#: Encodings (as ``codecs.lookup`` names them) in which the scan may look at bytes.
ASCII_COMPATIBLE: frozenset[str] = frozenset({"utf-8", "utf-8-sig", "cp1252", "iso8859-1",
                                              "ascii"})
#: How many bytes the scan reads at a time.
SCAN_CHUNK = 8 << 20
_BOM = codecs.BOM_UTF8
#: The head of a block, as ``bibtex_syntax`` reads it, after an ``@`` at the start of a line
#: (only spaces before it); found by looking for ``@`` (a fast literal search) and then for
#: the start of its line, which is ten times faster than a pattern for line starts.
_AT = re.compile(rb"@")
_HEAD = re.compile(rb"[ \t]*([A-Za-z_][\w:-]*)?[ \t]*([{(])?")
_KEY = re.compile(rb"\s*([^,\s{}()=\"#]*)\s*([,})])?")
#: A crossref field, found in the lower-cased text (a literal search is fast, one that
#: ignores case is not) and read in the text itself.
_CROSSREF_WORD = re.compile(rb"crossref\s*=")
_WORD_BYTE = re.compile(rb"[\w-]")
_CROSSREF_VALUE = re.compile(rb"\s*(?:\{\s*([^{}\s,]+)\s*\}|\"\s*([^\"{}\s,]+)\s*\"|(.))")
_NOT_ENTRIES = frozenset({b"string", b"comment", b"preamble"})
_STRING = b"string"


class _Unplaceable(Exception):
    """The file has something the scan cannot place: it is read whole."""


@dataclass(slots=True)
class _Scan:
    """What the scan found: every block head's offset, line and kind, entry keys, crossrefs."""

    offsets: array[int] = field(default_factory=lambda: array("q"))
    lines: array[int] = field(default_factory=lambda: array("q"))
    entry: bytearray = field(default_factory=bytearray)  #: 1 where the block is an entry
    strings: list[int] = field(default_factory=list)  #: heads that are @string blocks
    keys: dict[str, int] = field(default_factory=dict)  #: lower-cased key -> head
    exact_keys: set[str] = field(default_factory=set)
    crossrefs: list[tuple[int, str]] = field(default_factory=list)  #: (offset, parent key)
    size: int = 0  #: bytes scanned: the whole file

    def add_head(self, match: re.Match[bytes], offset: int, line: int, data: bytes,
                 encoding: str) -> None:
        kind = (match.group(1) or b"").lower()
        is_entry = bool(match.group(1)) and match.group(2) is not None and \
            kind not in _NOT_ENTRIES
        index = len(self.offsets)
        self.offsets.append(offset)
        self.lines.append(line)
        self.entry.append(is_entry)
        if kind == _STRING:
            self.strings.append(index)
        if is_entry:
            key_match = _KEY.match(data, match.end())
            key = key_match.group(1).decode(encoding) if key_match else ""
            if key in self.exact_keys:
                raise _Unplaceable(f"citation key {key!r} repeats")
            self.exact_keys.add(key)
            self.keys.setdefault(key.lower(), index)


def _heads(part: bytes) -> Iterator[tuple[int, re.Match[bytes]]]:
    """The block heads of ``part`` (which starts at the start of a line), each with the
    offset of its line."""
    for at in _AT.finditer(part):
        line_start = part.rfind(b"\n", 0, at.start()) + 1
        if not part[line_start:at.start()].strip(b" \t"):
            yield line_start, _HEAD.match(part, at.end())  # type: ignore[misc]


def _crossrefs(part: bytes) -> Iterator[tuple[int, bytes | None]]:
    """Each ``crossref`` field of ``part`` (any case) with its value: the key when it is
    one braced or quoted key, else None."""
    for word in _CROSSREF_WORD.finditer(part.lower()):
        if word.start() and _WORD_BYTE.match(part, word.start() - 1):
            continue  # part of a longer name
        value = _CROSSREF_VALUE.match(part, word.end())
        yield word.start(), value.group(1) or value.group(2) if value else None


def _scan(path: str, encoding: str) -> _Scan:
    """Read ``path`` once, in chunks that end at a line break, noting every block head."""
    scan = _Scan()
    key_encoding = "utf-8" if encoding == "utf-8-sig" else encoding
    with open(path, "rb") as file:
        base, line, carry = 0, 1, b""
        first = file.read(len(_BOM))
        if encoding == "utf-8-sig" and first == _BOM:
            base = len(_BOM)
        else:
            carry = first
        while True:
            chunk = file.read(SCAN_CHUNK)
            data = carry + chunk
            cut = len(data) if not chunk else data.rfind(b"\n") + 1
            part = data[:cut]
            if part.count(b"\r") != part.count(b"\r\n"):
                raise _Unplaceable("a carriage return that is not part of a line break")
            position = 0
            for start, match in _heads(part):
                line += part.count(b"\n", position, start)
                position = start
                scan.add_head(match, base + start, line, part, key_encoding)
            for offset, parent in _crossrefs(part):
                if parent is None:
                    raise _Unplaceable("a crossref that is not one braced or quoted key")
                scan.crossrefs.append((base + offset, parent.decode(key_encoding).lower()))
            line += part.count(b"\n", position)
            base += cut
            carry = data[cut:]
            if not chunk:
                scan.size = base
                return scan


def _blocked(scan: _Scan) -> bytearray:
    """1 for each head the file must not be cut at: inside a crossref child-parent span."""
    spans = bytearray(len(scan.offsets) + 1)
    depth = array("q", [0] * (len(scan.offsets) + 1))
    for offset, parent_key in scan.crossrefs:
        child = bisect.bisect_right(scan.offsets, offset) - 1
        parent = scan.keys.get(parent_key)
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


def _cuts(scan: _Scan, size: int) -> list[int]:
    """The heads the file is cut at: entries after an entry, outside crossref spans, about
    ``size`` bytes apart."""
    blocked = _blocked(scan) if scan.crossrefs else bytearray(len(scan.offsets))
    cuts: list[int] = []
    shard_start = 0
    for index in range(1, len(scan.offsets)):
        if scan.offsets[index] - shard_start < size:
            continue
        if scan.entry[index] and scan.entry[index - 1] and not blocked[index]:
            cuts.append(index)
            shard_start = scan.offsets[index]
    return cuts


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
    """``path`` cut into shards of about ``size`` bytes, or None when it must be read whole."""
    if codecs.lookup(encoding).name not in ASCII_COMPATIBLE:
        return None
    try:
        scan = _scan(path, encoding)
        cuts = _cuts(scan, size)
        macros = _macros_before(path, encoding, scan, cuts)
    except (_Unplaceable, UnicodeDecodeError):
        return None
    if not cuts:
        return None
    later_encoding = "utf-8" if encoding == "utf-8-sig" else encoding
    starts = [0, *(scan.offsets[c] for c in cuts)]
    lines = [1, *(scan.lines[c] for c in cuts)]
    contexts = [(), *macros]
    ends = [*starts[1:], scan.size]
    return [Shard(path, encoding if number == 0 else later_encoding, start, end, line,
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
    return parse_blocks(text, dict(shard.context), shard.first_line)
