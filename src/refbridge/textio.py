"""Text in and out: decoding input files and writing outputs atomically.

Input: the encoding is taken from a byte-order mark (UTF-8, UTF-16, UTF-32), else UTF-8, else the
legacy 8-bit encoding of old ``.bib`` files (cp1252, a superset of Latin-1 for text) with a
warning, unless the user names one. Binary files are refused. Line endings CR, LF and CRLF all
read as LF.

Output: written to a temporary file beside the target and renamed into place only when the whole
run succeeded, so a failed run leaves an existing file untouched and no half-written file behind;
standard output is spooled for the same reason. This module must never parse any format.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, BinaryIO, TextIO, cast

from refbridge.errors import Diagnostics, OutputError, ParseError

STDIO = "-"
HEAD_BYTES = 1 << 16
LEGACY_ENCODING = "cp1252"

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def display_name(path: str) -> str:
    return "<stdin>" if path == STDIO else path


def _detect_encoding(head: bytes, source: str, diagnostics: Diagnostics) -> str:
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    if b"\x00" in head:
        offset = head.index(b"\x00")
        raise ParseError(f"binary data (NUL byte at offset {offset}): not a text file", source)
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:  # not just a character cut at the end of the sample
            line = head[: exc.start].count(b"\n") + 1
            diagnostics.warning(
                f"not UTF-8 (byte 0x{head[exc.start]:02x}); reading as {LEGACY_ENCODING} "
                "(name another encoding with --encoding)", source, line)
            return LEGACY_ENCODING
    return "utf-8"


class _CheckedText(io.TextIOWrapper):
    """A text stream that turns decoding errors into ``ParseError`` naming file and line."""

    def __init__(self, raw: io.BufferedReader[Any], encoding: str, source: str) -> None:
        super().__init__(raw, encoding=encoding, errors="strict", newline=None)
        self._raw = raw
        self._source = source

    def _decode_error(self, exc: UnicodeDecodeError) -> ParseError:
        line: int | None = None
        raw = self._raw
        if raw.seekable():  # the failing chunk ends where the buffer now stands
            offset = raw.tell() - len(exc.object) + exc.start
            raw.seek(0)
            before: bytes = raw.read(max(offset, 0))
            line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
        return ParseError(f"cannot decode as {self.encoding}: {exc.reason} "
                          f"(byte 0x{exc.object[exc.start]:02x}; name the encoding with "
                          "--encoding)", self._source, line)

    def __next__(self) -> str:  # type: ignore[override]
        try:
            return super().__next__()
        except UnicodeDecodeError as exc:
            raise self._decode_error(exc) from None

    def read(self, size: int | None = -1) -> str:
        try:
            return super().read(size)
        except UnicodeDecodeError as exc:
            raise self._decode_error(exc) from None


@contextmanager
def open_input(path: str, diagnostics: Diagnostics, encoding: str | None = None
               ) -> Iterator[tuple[TextIO, str]]:
    """Open ``path`` (``-`` for standard input) as text; yields the stream and its head."""
    source = display_name(path)
    try:
        binary = sys.stdin.buffer if path == STDIO else io.FileIO(path, "rb")
    except OSError as exc:
        raise ParseError(f"cannot open: {exc.strerror}", source) from None
    with decoded_input(binary, source, diagnostics, encoding, owned=path != STDIO) as opened:
        yield opened


@contextmanager
def decoded_input(binary: BinaryIO | io.RawIOBase, source: str, diagnostics: Diagnostics,
                  encoding: str | None = None, owned: bool = False
                  ) -> Iterator[tuple[TextIO, str]]:
    """A binary stream as text named ``source``, decoded as ``open_input`` decodes files;
    yields the text stream and its head. ``owned``: close ``binary`` afterwards (otherwise
    it is left open for its owner, as standard input is)."""
    raw = io.BufferedReader(cast(io.RawIOBase, binary), HEAD_BYTES)
    stream: _CheckedText | None = None
    try:
        head = raw.peek(HEAD_BYTES)[:HEAD_BYTES]
        if encoding is None:
            encoding = _detect_encoding(head, source, diagnostics)
        else:
            try:
                codecs.lookup(encoding)
            except LookupError:
                raise ParseError(f"unknown encoding {encoding!r}", source) from None
        stream = _CheckedText(raw, encoding, source)
        head_text = head.decode(encoding, errors="ignore").lstrip("\ufeff")
        yield stream, head_text.replace("\r\n", "\n").replace("\r", "\n")
    finally:
        if not owned:
            if stream is not None:
                stream.detach()
            raw.detach()
        elif stream is not None:
            stream.close()
        else:
            raw.close()


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def refuse_overwriting_inputs(path: str, inputs: Sequence[str]) -> None:
    """``OutputError`` when ``path`` is one of ``inputs`` (commands that take long before
    they write, such as enrichment, ask at once)."""
    if path != STDIO:
        for source in inputs:
            if source != STDIO and _same_file(path, source):
                raise OutputError(f"{path}: refusing to write over an input file")


#: How many names a temporary file beside the output tries before giving up.
_TEMPORARY_TRIES = 100


def _temporary_file(directory: str, name: str) -> tuple[int, str]:
    """A new file ``.NAME.RANDOM.tmp`` in ``directory``, open for writing, readable by its
    owner only, as ``tempfile.mkstemp`` makes it (whose module, with ``shutil`` and
    ``random``, costs a command about 12M instructions of its start to import)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_BINARY", 0)
    for _ in range(_TEMPORARY_TRIES):
        temp_name = os.path.join(directory, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(temp_name, flags, 0o600), temp_name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), directory)


@contextmanager
def atomic_output(path: str, inputs: Sequence[str] = ()) -> Iterator[TextIO]:
    """A UTF-8 text stream that becomes ``path`` (``-``: standard output) only on success."""
    refuse_overwriting_inputs(path, inputs)
    if path == STDIO:
        import tempfile  # here: most runs write a file, and start-up time counts

        with tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8",
                                           newline="\n") as spool:
            yield spool  # type: ignore[misc]
            spool.seek(0)
            for chunk in iter(lambda: spool.read(1 << 16), ""):
                sys.stdout.write(chunk)
            sys.stdout.flush()
        return
    # os.path, not pathlib: start-up time counts. ``out.bib/`` is out.bib, as pathlib reads it.
    target = path.rstrip(os.sep) or path
    directory, name = os.path.split(target)
    try:
        fd, temp_name = _temporary_file(directory or ".", name)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with open(fd, "w", encoding="utf-8", newline="\n") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        if os.path.exists(target):
            os.chmod(temp_name, os.stat(target).st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp_name, 0o666 & ~umask)
        os.replace(temp_name, target)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise
