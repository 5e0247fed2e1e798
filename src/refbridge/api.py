"""refbridge's Python face: read, write, format and list records from a script.

``import refbridge`` exposes these functions (loaded on first use, so the command line stays
fast)::

    import refbridge
    from pathlib import Path

    found = refbridge.read(Path("refs.bib"))           # one path (a str is one path too)
    found = refbridge.read(["a.bib", "b.ris"])         # several paths
    found = refbridge.read(text=bib_text, format="bibtex")
    print(refbridge.format_bibliography(found, style="apa"))
    refbridge.write(found, "refs.json")                # the writer by the file's ending
    ris_text = refbridge.write(found, format="ris")    # no path: the text is returned

A path is always named as one: a ``str`` or ``os.PathLike`` is one path and a list of them
several; text is passed as ``text=``. This module must never guess from a string's content
whether it is a path or text, never print or exit, and never format or convert a record
itself: it calls the pipeline and the jobs the command line calls.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal, TextIO, overload

from refbridge.errors import BrokenRecords, Diagnostics, RefbridgeError
from refbridge.model import Record
from refbridge.registry import WriteOptions
from refbridge.runs import ReadOptions

if TYPE_CHECKING:
    from refbridge.cv.document import CvOptions

PathName = str | os.PathLike[str]  #: one file, named by a ``str`` or a ``pathlib.Path``
#: what ``read`` takes as ``source``: a path, several paths, or an open file (text or binary)
Source = PathName | Iterable[PathName] | IO[str] | IO[bytes]

#: How text given as ``text=`` is named in messages when no ``name`` is given.
TEXT_NAME = "<text>"
#: How an open file without a ``name`` of its own is named in messages.
STREAM_NAME = "<stream>"


@dataclass(frozen=True, slots=True)
class ReadResult(Sequence[Record]):
    """The records read, in input order, and what the readers had to say about the input.

    It is a sequence of records (``len``, indexing, iteration), so it can be handed on to
    ``write``, ``format_bibliography`` and ``cv`` as it is.
    """

    records: tuple[Record, ...]
    diagnostics: Diagnostics

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | Sequence[Record]:
        return self.records[index]

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)


def read(source: Source | None = None, *, text: str | None = None, format: str | None = None,
         encoding: str | None = None, name: str | None = None,
         strict: bool = False) -> ReadResult:
    """The records of ``source`` (a path, a list of paths, or an open file) or of ``text``.

    ``format``: the reader (``bibtex``, ``ris``, ``csl-json``...; None: detected from the name
    and content, as the command line does). ``encoding``: of files and binary streams (None:
    detected). ``name``: what text or an open file is called in messages (and, by its ending,
    which reader detection asks first). Broken records are skipped and reported in the
    result's ``diagnostics``; with ``strict``, the whole input is read and then one
    ``BrokenRecords`` listing every broken record is raised instead. An input that cannot be
    read at all raises ``ParseError`` (file, line and problem in its message).

    >>> found = read(text="@misc{k, title = {A title}, year = 2024}", format="bibtex")
    >>> [record.citation_key for record in found]
    ['k']
    """
    if (source is None) == (text is None):
        raise TypeError("read() takes a source (a path, paths or an open file) or text=, "
                        "not both")
    diagnostics = Diagnostics()
    options = ReadOptions(format, encoding)
    if text is not None:
        if not isinstance(text, str):
            raise TypeError(f"text= takes a str, not {type(text).__name__}")
        records = _read_text(io.StringIO(text, newline=None), name or TEXT_NAME,
                             diagnostics, options)
    elif hasattr(source, "read"):
        records = _read_open_file(source, name, diagnostics, options)  # type: ignore[arg-type]
    else:
        from refbridge.pipeline import read_records

        records = list(read_records(_paths(source), diagnostics, options))  # type: ignore[arg-type]
    if strict and diagnostics.errors:
        raise BrokenRecords(diagnostics)
    return ReadResult(tuple(records), diagnostics)


def _paths(source: PathName | Iterable[PathName]) -> list[str]:
    """The paths ``source`` names: a ``str`` or ``os.PathLike`` is one path, never iterated."""
    if isinstance(source, (str, os.PathLike)):
        return [os.fspath(source)]
    if isinstance(source, (bytes, bytearray)):
        raise TypeError("read() takes text as text=..., and paths as str or pathlib.Path, "
                        "not bytes")
    paths = []
    for path in source:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"read() takes paths as str or pathlib.Path, not "
                            f"{type(path).__name__} ({path!r})")
        paths.append(os.fspath(path))
    return paths


def _read_open_file(stream: IO[str] | IO[bytes], name: str | None, diagnostics: Diagnostics,
                    options: ReadOptions) -> list[Record]:
    """The records of an open file: text as it is, bytes decoded as files are."""
    from refbridge.textio import decoded_input

    source = name or _stream_name(stream)
    content = stream.read()
    if isinstance(content, str):
        return _read_text(io.StringIO(content, newline=None), source, diagnostics, options)
    with decoded_input(io.BytesIO(content), source, diagnostics, options.encoding,
                       owned=True) as (text, head):
        return _records_of(text, head, source, diagnostics, options)


def _stream_name(stream: IO[str] | IO[bytes]) -> str:
    named = getattr(stream, "name", None)
    return named if isinstance(named, str) else STREAM_NAME


def _read_text(stream: io.StringIO, source: str, diagnostics: Diagnostics,
               options: ReadOptions) -> list[Record]:
    from refbridge.textio import HEAD_BYTES

    return _records_of(stream, stream.getvalue()[:HEAD_BYTES].replace("\r\n", "\n"), source,
                       diagnostics, options)


def _records_of(stream: TextIO, head: str, source: str, diagnostics: Diagnostics,
                options: ReadOptions) -> list[Record]:
    from refbridge.pipeline import read_stream

    return list(read_stream(stream, head, source, diagnostics, options.from_format))


def _records(records: Iterable[Record], function: str) -> Iterable[Record]:
    """``records``, refused when it is a path or text (which would be read as its letters)."""
    if isinstance(records, (str, bytes, os.PathLike)):
        raise TypeError(f"{function}() takes records (what read() returns), not a path or "
                        "text: read them with refbridge.read() first")
    return records


@overload
def write(records: Iterable[Record], path: None = None, *, format: str,
          options: WriteOptions | None = None) -> str: ...


@overload
def write(records: Iterable[Record], path: PathName | TextIO, *, format: str | None = None,
          options: WriteOptions | None = None) -> int: ...


def write(records: Iterable[Record], path: PathName | TextIO | None = None, *,
          format: str | None = None, options: WriteOptions | None = None) -> str | int:
    """Write ``records`` in ``format`` (``bibtex``, ``biblatex``, ``ris``, ``csl-json``...).

    With no ``path``, the text is returned. With a path, the file is written atomically (a
    failed write leaves no file behind and an existing one untouched) and the number of
    records written is returned; ``format`` defaults to the writer of the file's ending.
    An open text file is written to as it is. Citation keys are made unique (and generated
    where missing) as by ``refbridge convert``; ``options`` are the writers' options
    (``WriteOptions(unicode=True)``...).

    >>> found = read(text="@misc{k, title = {A title}, year = 2024}", format="bibtex")
    >>> print(write(found, format="bibtex"), end="")
    @misc{k,
      title = {A title},
      year = {2024},
    }
    """
    from refbridge.pipeline import write_records, write_stream
    from refbridge.registry import get_writer, writer_for_file

    records = _records(records, "write")
    options = options or WriteOptions()
    if path is None or not isinstance(path, (str, os.PathLike)):
        if format is None:
            raise TypeError("write() needs format= when it is given no file path")
        if path is not None:
            return write_stream(records, path, get_writer(format), options)
        buffer = io.StringIO()
        write_stream(records, buffer, get_writer(format), options)
        return buffer.getvalue()
    target = os.fspath(path)
    chosen = format or writer_for_file(target)
    if chosen is None:
        raise RefbridgeError(f"{target}: cannot tell the output format from the file name; "
                             "name it with format=...")
    return write_records(records, target, chosen, options)


def format_bibliography(records: Iterable[Record], style: str = "apa", output: str = "text",
                        locale: str | None = None, *, cite: bool = False,
                        highlight: str | None = None,
                        style_dirs: Sequence[str | Path] = (), links: bool = False,
                        split_by: str | None = None, split_order: Sequence[str] = (),
                        numbering: str = "continuous", abbreviate_journals: bool = False) -> str:
    """The bibliography of ``records`` in ``style`` (a CSL style id such as ``apa``,
    ``chicago-author-date`` or ``ieee``, an alias, a ``.csl`` path, or a style module), as a
    document in ``output`` (``text``: one entry per line; ``html``; ``markdown``; ``latex``;
    ``rtf``), as ``refbridge format`` writes it. ``cite``: each record's in-text citation
    instead; ``highlight``: a name (``Family`` or ``Family, Given``) to set in bold;
    ``links``: link URLs and DOIs. ``split_by`` (``type``, ``keyword``, ``subject`` or a CSL
    text variable such as ``publisher``): one bibliography per part, each under a heading,
    those ``split_order`` names first; ``numbering``: a numeric style numbers the parts on
    (``continuous``) or each from 1 (``per-part``). ``abbreviate_journals``: a journal the
    record gives no short title gets the journal list's, for a style that asks for the short
    form (off: the record's title, as citeproc-js without abbreviation data).

    >>> found = read(text="@book{k, author = {Knuth, Donald E.}, title = {The {TeX}book},"
    ...                   " publisher = {Addison-Wesley}, year = 1984}", format="bibtex")
    >>> print(format_bibliography(found, style="apa"), end="")
    Knuth, D. E. (1984). The TeXbook. Addison-Wesley.
    """
    from refbridge import formatting

    return formatting.format_bibliography(
        formatting.references(_records(records, "format_bibliography")), style, output,
        locale, cite, highlight, style_dirs, links, split_by=split_by,
        split_order=split_order, numbering=numbering, abbreviate_journals=abbreviate_journals)


@overload
def cv(records: Iterable[Record], owner: str | Sequence[str] = (), *,
       to: Literal["docx"], fragment: bool = False, style: str | None = None,
       options: CvOptions | None = None) -> bytes: ...


@overload
def cv(records: Iterable[Record], owner: str | Sequence[str] = (), *,
       to: Literal["markdown", "html", "latex", "text"] = "markdown", fragment: bool = False,
       style: str | None = None, options: CvOptions | None = None) -> str: ...


def cv(records: Iterable[Record], owner: str | Sequence[str] = (), *, to: str = "markdown",
       fragment: bool = False, style: str | None = None,
       options: CvOptions | None = None) -> str | bytes:
    """The publication list of ``owner`` (a name, or several forms of it: ``"Ada Lovelace"``,
    ``["Lovelace, Ada", "Byron, Ada"]``) in ``records``, as ``refbridge cv`` writes it:
    duplicates merged, grouped by year (newest first), the owner's name in bold. ``to``:
    ``markdown``, ``html`` (``fragment``: without the page around it), ``latex``, ``text``
    or ``docx`` (bytes). ``style``: the entries' style (default ``cv``); ``options``: every
    other choice of ``refbridge cv`` (``refbridge.CvOptions``).
    """
    from refbridge.cv import CvOptions, render_cv

    owners = (owner,) if isinstance(owner, str) else tuple(owner)
    chosen = options or CvOptions()
    chosen = replace(chosen, owners=owners or chosen.owners, style=style or chosen.style)
    content, _, _ = render_cv(list(_records(records, "cv")), chosen, to, fragment)
    return content
