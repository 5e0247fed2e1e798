"""Text in and out: decoding input files and writing outputs atomically.

Input: the encoding is taken from a byte-order mark (UTF-8, UTF-16, UTF-32), else UTF-8, else the
legacy 8-bit encoding of old ``.bib`` files (cp1252, a superset of Latin-1 for text) with a
warning, unless the user names one. Binary files are refused. Line endings CR, LF and CRLF all
read as LF. A gzip file is read as the text it holds, and a tar archive (itself gzipped or not)
as its files one after another, each gunzipped when it is, a line break between two: the
bibliographic dumps (dblp, OpenAlex, Crossref) come so; both are read as streams.

Output: written to a temporary file beside the target and renamed into place only when the whole
run succeeded, so a failed run leaves an existing file untouched and no half-written file behind;
standard output, devices and pipes are spooled for the same reason. The file keeps its identity:
links are written through, a hard-linked file stays the same file, owner, mode and extended
attributes stay (``atomic_output``). Every failure of the system is a one-line ``OutputError``
naming the output. This module must never parse any format.
"""

from __future__ import annotations

import codecs
import errno
import functools
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO, cast

from refbridge.errors import Diagnostics, OutputError, ParseError

if TYPE_CHECKING:
    from refbridge.splits import Split

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
        self.line_shift = 0  #: lines of the file before the stream's first (``Split``)

    def _decode_error(self, exc: UnicodeDecodeError) -> ParseError:
        line: int | None = None
        raw = self._raw
        if raw.seekable():  # the failing chunk ends where the buffer now stands
            offset = raw.tell() - len(exc.object) + exc.start
            raw.seek(0)
            before: bytes = raw.read(max(offset, 0))
            line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1 \
                + self.line_shift
        return ParseError(f"cannot decode as {self.encoding}: {exc.reason} "
                          f"(byte 0x{exc.object[exc.start]:02x}; name the encoding with "
                          "--encoding)", self._source, line)

    def _codec_error(self, exc: UnicodeError) -> ParseError:
        return ParseError(f"cannot decode as {self.encoding}: {exc} (name the encoding with "
                          "--encoding)", self._source)

    def __next__(self) -> str:  # type: ignore[override]
        try:
            return super().__next__()
        except UnicodeDecodeError as exc:
            raise self._decode_error(exc) from None
        except UnicodeError as exc:  # the codec's own check (UTF-16 without a BOM)
            raise self._codec_error(exc) from None

    def read(self, size: int | None = -1) -> str:
        try:
            return super().read(size)
        except UnicodeDecodeError as exc:
            raise self._decode_error(exc) from None
        except UnicodeError as exc:  # the codec's own check (UTF-16 without a BOM)
            raise self._codec_error(exc) from None


GZIP_MAGIC = b"\x1f\x8b"
#: Where a tar header says ``ustar`` (POSIX and GNU tar both write it).
_TAR_MAGIC = slice(257, 262)
_CHUNK = 1 << 20


class _Unpacked(io.RawIOBase):
    """The bytes of ``chunks`` as a stream; a broken archive (one of ``broken``, the errors of
    the module that unpacks it) is a ``ParseError`` naming ``source``. Closing it closes
    ``owner``."""

    def __init__(self, chunks: Iterator[bytes], source: str, owner: io.IOBase,
                 broken: tuple[type[Exception], ...]) -> None:
        super().__init__()
        self._chunks, self._source, self._owner = chunks, source, owner
        self._broken: tuple[type[Exception], ...] = (OSError, EOFError, *broken)
        self._pending = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending:
            try:
                self._pending = memoryview(next(self._chunks))
            except StopIteration:
                return 0
            except self._broken as exc:
                raise ParseError(f"cannot unpack: {exc}", self._source) from None
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size

    def close(self) -> None:
        super().close()
        self._owner.close()


def _gunzipped(stream: BinaryIO) -> Iterator[bytes]:
    import gzip

    with gzip.GzipFile(fileobj=stream) as unzipped:
        while chunk := unzipped.read(_CHUNK):
            yield chunk


def _tar_members(stream: BinaryIO) -> Iterator[bytes]:
    import gzip
    import tarfile

    with tarfile.open(fileobj=stream, mode="r|") as archive:
        for member in archive:
            body = archive.extractfile(member) if member.isfile() else None
            if body is None:
                continue
            text = cast(BinaryIO, gzip.GzipFile(fileobj=body)) \
                if member.name.endswith(".gz") else body
            while chunk := text.read(_CHUNK):
                yield chunk
            yield b"\n"


def unpacked(file: io.FileIO, source: str) -> BinaryIO | io.FileIO:
    """``file``, or the text a gzip file or a tar archive in it holds (see the module
    docstring); closing what it gives closes ``file``."""
    if not file.seekable():  # a pipe: read as it comes
        return file
    start = file.read(512) or b""
    file.seek(0)
    if start[:2] != GZIP_MAGIC and start[_TAR_MAGIC] != b"ustar":
        return file
    import tarfile  # here: most inputs are neither, and start-up time counts
    import zlib

    buffered: io.BufferedReader[Any] = io.BufferedReader(file, HEAD_BYTES)
    if start[:2] == GZIP_MAGIC:
        buffered = io.BufferedReader(cast(io.RawIOBase, _Unpacked(
            _gunzipped(cast(BinaryIO, buffered)), source, buffered, (zlib.error,))),
            HEAD_BYTES)
    if buffered.peek(512)[_TAR_MAGIC] == b"ustar":
        buffered = io.BufferedReader(cast(io.RawIOBase, _Unpacked(
            _tar_members(cast(BinaryIO, buffered)), source, buffered,
            (zlib.error, tarfile.TarError))), HEAD_BYTES)
    return cast(BinaryIO, buffered)


def packed(path: str) -> bool:
    """Whether the file ``path`` is gzipped or a tar archive (read only from its start)."""
    with io.FileIO(path, "rb") as file:
        return unpacked(file, path) is not file


@contextmanager
def open_input(path: str, diagnostics: Diagnostics, encoding: str | None = None
               ) -> Iterator[tuple[TextIO, str]]:
    """Open ``path`` (``-`` for standard input) as text; yields the stream and its head.
    A ``Split`` of a file is read as its bytes, its lines numbered as the file's, its encoding
    and head those of the file (told once: by the piece at the file's start)."""
    source = display_name(path)
    if type(path) is not str:  # (a path that is a str, as nearly all are, never loads splits)
        from refbridge.splits import Split

        if isinstance(path, Split):
            with _split_input(path, source, diagnostics, encoding) as opened:
                yield opened
            return
    try:
        binary = sys.stdin.buffer if path == STDIO else unpacked(io.FileIO(path, "rb"), source)
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
        yield stream, _head_text(head, encoding)
    finally:
        if not owned:
            if stream is not None:
                stream.detach()
            raw.detach()
        elif stream is not None:
            stream.close()
        else:
            raw.close()


def _head_text(head: bytes, encoding: str) -> str:
    text = head.decode(encoding, errors="ignore").lstrip("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


@contextmanager
def _split_input(split: Split, source: str, diagnostics: Diagnostics, encoding: str | None
                 ) -> Iterator[tuple[TextIO, str]]:
    try:
        with open(split, "rb") as file:
            head = file.read(HEAD_BYTES)
        piece = split.open()
    except OSError as exc:
        raise ParseError(f"cannot open: {exc.strerror}", source) from None
    if encoding is None:
        encoding = _detect_encoding(head, source, diagnostics if split.first == 0
                                    else Diagnostics())
    with decoded_input(piece, source, diagnostics, encoding, owned=True) as (stream, _):
        cast(_CheckedText, stream).line_shift = split.line_shift
        yield stream, _head_text(head, encoding)


def line_shift(stream: TextIO) -> int:
    """How many lines of its file come before the first line of ``stream`` (a ``Split``'s
    text), else 0: a reader's line N is its file's N + ``line_shift``."""
    return stream.line_shift if isinstance(stream, _CheckedText) else 0


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
#: How many symbolic links an output is followed through, as the system's ``MAXSYMLINKS``.
_MAX_LINKS = 40
#: Where the system keeps a process's descriptors (``/dev/fd`` and ``/dev/stdout`` lead there):
#: its entries are streams to write to, never files to replace.
_DESCRIPTORS = re.compile(r"/proc/([^/]+)(?:/task/[^/]+)?/fd")
#: Errors of copying an extended attribute that mean the system or the user cannot keep it.
_XATTR_UNKEPT = frozenset({errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM, errno.EACCES,
                           errno.ENODATA, errno.E2BIG, errno.ERANGE})
_COPY_CHUNK = 1 << 20
_SPOOL_BYTES = 8 << 20


def cannot_write(path: str, exc: OSError) -> OutputError:
    """The one-line error of an output ``path`` that the system refused."""
    return OutputError(f"{path}: cannot write: {exc.strerror or exc}")


def _temporary_file(directory: str, name: str) -> tuple[int, str]:
    """A new file ``.NAME.RANDOM.tmp`` in ``directory``, open for reading and writing,
    readable by its owner only, as ``tempfile.mkstemp`` makes it (whose module, with
    ``shutil`` and ``random``, costs a command about 12M instructions of its start to
    import)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_BINARY", 0)
    for _ in range(_TEMPORARY_TRIES):
        temp_name = os.path.join(directory, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(temp_name, flags, 0o600), temp_name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), directory)


class _Checked(io.RawIOBase):
    """Writes to ``file`` whose failures (a full disk) become ``OutputError`` naming the
    output ``path``, until the run fails (then nothing more is written); ``name`` is the
    file written (a temporary file beside the output)."""

    def __init__(self, file: BinaryIO, path: str, name: str | None) -> None:
        super().__init__()
        self.file = file
        self.path = path
        self.name = name
        self.failed = False

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.failed:
            return len(data)
        try:
            return self.file.write(data)
        except OSError as exc:
            raise cannot_write(self.path, exc) from None


@contextmanager
def _text_stream(file: BinaryIO, path: str, name: str | None = None) -> Iterator[TextIO]:
    """UTF-8 text, LF line ends, written to ``file`` (left open) for the output ``path``."""
    raw = _Checked(file, path, name)
    out = io.TextIOWrapper(io.BufferedWriter(raw, 1 << 16), encoding="utf-8", newline="\n")
    try:
        yield out
        out.flush()
    except BaseException:
        raw.failed = True
        raise
    finally:
        out.close()


def _final_target(path: str) -> tuple[str, bool]:
    """The file ``path`` names once its symbolic links are followed (each relative link read
    from its own folder), and whether it is one of a process's descriptors."""
    for _ in range(_MAX_LINKS):
        if _DESCRIPTORS.fullmatch(os.path.realpath(os.path.dirname(os.path.abspath(path)))):
            return path, True
        try:
            link = os.readlink(path)
        except (OSError, ValueError):  # not a link, or no such file (yet)
            return path, False
        path = os.path.join(os.path.dirname(path), link)
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)


def _chmod(fd: int, name: str, mode: int) -> None:
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:
        os.chmod(name, mode)


def _keep_attributes(fd: int, name: str, old: str, status: os.stat_result) -> None:
    """Give the new file ``fd`` (``name``) the owner, group, mode and extended attributes
    of ``old``; an owner or attribute this user or system cannot set is left as it is."""
    if hasattr(os, "fchown"):
        with suppress(PermissionError):
            os.fchown(fd, status.st_uid, status.st_gid)
    _chmod(fd, name, stat.S_IMODE(status.st_mode))
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(old)
    except OSError as exc:
        if exc.errno in _XATTR_UNKEPT:
            return
        raise
    for attribute in names:
        try:
            os.setxattr(fd, attribute, os.getxattr(old, attribute))
        except OSError as exc:
            if exc.errno not in _XATTR_UNKEPT:
                raise


def _copy(source: BinaryIO, target: int) -> None:
    """Write what is left of ``source`` to the descriptor ``target``."""
    while chunk := source.read(_COPY_CHUNK):
        view = memoryview(chunk)
        while view:
            view = view[os.write(target, view):]


def _copy_into(new: BinaryIO, target: str, status: os.stat_result) -> None:
    """Copy the new file ``new`` into the existing file ``target`` (of several hard links),
    which keeps its identity. The space the longer text needs is reserved first, so a full
    disk fails before a byte of ``target`` changes."""
    size = os.fstat(new.fileno()).st_size
    out = os.open(target, os.O_WRONLY | getattr(os, "O_BINARY", 0))
    try:
        if size > status.st_size and hasattr(os, "posix_fallocate"):
            try:
                os.posix_fallocate(out, 0, size)
            except OSError as exc:
                os.ftruncate(out, status.st_size)
                if exc.errno not in (errno.EOPNOTSUPP, errno.ENOTSUP, errno.EINVAL):
                    raise
        new.seek(0)
        _copy(new, out)
        os.ftruncate(out, size)
        os.fsync(out)
    finally:
        os.close(out)


def _new_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def _spooled(path: str, sink: Callable[[BinaryIO], None]) -> Iterator[TextIO]:
    """A text stream kept in memory (on disk past ``_SPOOL_BYTES``) for ``path``, whose
    bytes go to ``sink`` once the block succeeded."""
    import tempfile  # here: most runs write a file, and start-up time counts

    with tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES, mode="w+b") as spool:
        binary = cast(BinaryIO, spool)
        with _text_stream(binary, path) as out:
            yield out
        binary.seek(0)
        sink(binary)


def _to_standard_output(spool: BinaryIO) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for chunk in iter(lambda: spool.read(_COPY_CHUNK), b""):
            sys.stdout.write(decoder.decode(chunk))
        sys.stdout.write(decoder.decode(b"", final=True))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (``refbridge ... | head``): not an error
        raise
    except OSError as exc:
        raise cannot_write("<stdout>", exc) from None


def _own_descriptor(stream: str) -> int | None:
    """The number of the descriptor of this process that ``stream`` names, if it names one."""
    folder, name = os.path.split(stream)
    found = _DESCRIPTORS.fullmatch(os.path.realpath(folder))
    return int(name) if name.isdigit() and found and found[1] == str(os.getpid()) else None


def _open_stream(stream: str) -> int:
    """``stream`` open for writing; a socket this process holds (standard output given to a
    service) cannot be opened again, and is written to as it is."""
    try:
        return os.open(stream, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOCTTY", 0)
                       | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        descriptor = _own_descriptor(stream)
        if exc.errno != errno.ENXIO or descriptor is None:
            raise
        return os.dup(descriptor)


def _to_stream(stream: str, path: str, spool: BinaryIO) -> None:
    """Write ``spool`` to ``stream``: a device, a pipe, a socket, a process's descriptor."""
    try:
        out = _open_stream(stream)
        try:
            _copy(spool, out)
        finally:
            os.close(out)
    except OSError as exc:
        raise cannot_write(path, exc) from None


@contextmanager
def atomic_output(path: str, inputs: Sequence[str] = (), *, follow_links: bool = True
                  ) -> Iterator[TextIO]:
    """A UTF-8 text stream that becomes ``path`` (``-``: standard output) only on success.

    A new file is written beside ``path`` and renamed over it, with the old file's owner,
    group, mode and extended attributes (those this user and system can set). A symbolic
    link is written through: its final target is replaced and the link kept (unless
    ``follow_links`` is false: then a link is refused). A file of several hard links keeps
    its identity: the new text is written whole beside it first, then copied into it, its
    length reserved before (so a full disk changes nothing); the trade-off is that a crash or
    kill during that copy (not a failure of the run) can leave it half-written, where a
    rename cannot. What is not a regular file (a device such as ``/dev/stdout``, a pipe, a
    socket, ``/dev/fd/N``) is written to as a stream, never replaced, once the run succeeded,
    as standard output is. Every failure of the system is an ``OutputError`` naming ``path``
    and leaves an existing file as it was. A run killed outright (``kill -9``) leaves its
    temporary file ``.NAME.RANDOM.tmp`` beside ``path``."""
    refuse_overwriting_inputs(path, inputs)
    if path == STDIO:
        with _spooled("<stdout>", _to_standard_output) as out:
            yield out
        return
    # os.path, not pathlib: start-up time counts. ``out.bib/`` is out.bib, as pathlib reads it.
    target = path.rstrip(os.sep) or path
    try:
        if not follow_links and os.path.islink(target):
            raise OSError(errno.ELOOP, "a symbolic link (refbridge does not write through it)")
        final, descriptor = _final_target(target)
        try:
            status: os.stat_result | None = os.stat(final)
        except FileNotFoundError:
            status = None
    except OSError as exc:
        raise cannot_write(path, exc) from None
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{path}: cannot write: is a directory")
    if descriptor or (status is not None and not stat.S_ISREG(status.st_mode)):
        with _spooled(path, functools.partial(_to_stream, final, path)) as out:
            yield out
        return
    directory, name = os.path.split(final)
    try:
        fd, temp_name = _temporary_file(directory or ".", name)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    try:
        with io.FileIO(fd, "r+") as new:
            with _text_stream(cast(BinaryIO, new), path, temp_name) as out:
                yield out
            try:
                os.fsync(fd)
                if status is None:
                    _chmod(fd, temp_name, _new_mode())
                elif status.st_nlink > 1:
                    _copy_into(cast(BinaryIO, new), final, status)
                else:
                    _keep_attributes(fd, temp_name, final, status)
                if status is None or status.st_nlink == 1:
                    os.replace(temp_name, final)
            except OSError as exc:
                raise cannot_write(path, exc) from None
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise
    with suppress(FileNotFoundError):  # copied into a file of several links
        os.unlink(temp_name)
