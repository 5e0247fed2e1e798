"""Dumps into candidates for the index: each work of a dump as the service it came from
answers it to ``verify`` (``enrich``'s mappings: Crossref's and OpenAlex's work objects; a
dblp publication and an arXiv paper through their format readers).

A dump's format is told as ``convert`` tells it (``--from`` names it otherwise); a work that
cannot be read is reported with its file and line and left out, as the readers do. On the
``spark`` engine each dump is read in a task of Spark by the same functions, side by side, each
writing its rows to a JSON Lines file in a folder beside the index, which is then loaded from
those files in input order: the same table. This module must never hold more than one work of a
dump.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TextIO

from refbridge.errors import Diagnostics, OutputError, ParseError
from refbridge.formats.dumps.arxiv_metadata import READER as ARXIV_READER
from refbridge.formats.dumps.crossref_works import WHAT as CROSSREF_WORK
from refbridge.formats.dumps.crossref_works import works_of
from refbridge.formats.dumps.dblp_xml import publications
from refbridge.formats.dumps.lines import json_objects
from refbridge.formats.dumps.openalex_works import WHAT as OPENALEX_WORK
from refbridge.index.store import row_text, write_row_files, write_rows
from refbridge.registry import detect_reader
from refbridge.services import arxiv, crossref, openalex
from refbridge.services.errors import ServiceError
from refbridge.services.found import Found
from refbridge.textio import display_name, open_input
from refbridge.verify.lookup import PUBLISHED_TYPES
from refbridge.vocab import ENGINES

Candidates = Callable[[TextIO, str, Diagnostics], Iterator[Found]]


def _openalex(stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Found]:
    for line, work in json_objects(stream, source, diagnostics, OPENALEX_WORK):
        try:
            yield openalex.work_found(work)
        except (ServiceError, KeyError, TypeError, ValueError) as exc:
            diagnostics.error(f"work left out of the index: {exc}", source, line)


def _crossref(stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Found]:
    for line, value in json_objects(stream, source, diagnostics, CROSSREF_WORK):
        for work in works_of(value):
            try:
                yield crossref.work_found(work)
            except (ServiceError, KeyError, TypeError, ValueError, AttributeError) as exc:
                diagnostics.error(f"work left out of the index: {exc}", source, line)


def _dblp(stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Found]:
    for record in publications(stream, source, diagnostics):
        yield Found("dblp", record.extra["dblp.key"], record,
                    published=record.type in PUBLISHED_TYPES and record.eprint is None)


def _arxiv(stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Found]:
    for record in ARXIV_READER.read(stream, source, diagnostics):
        if record.eprint is not None and record.eprint.identifier:
            yield arxiv.preprint_found(record.eprint.identifier, record)


#: Dump format -> the candidates of one of its files.
DUMPS: dict[str, Candidates] = {
    "openalex-works": _openalex,
    "crossref-works": _crossref,
    "dblp-xml": _dblp,
    "arxiv-metadata": _arxiv,
}


def candidates(path: str, diagnostics: Diagnostics, from_format: str | None = None
               ) -> Iterator[Found]:
    """The candidates of the dump ``path``, read as ``from_format`` (None: told from it)."""
    source = display_name(path)
    with open_input(path, diagnostics) as (stream, head):
        name = from_format or detect_reader(source, head).name
        if name not in DUMPS:
            raise ParseError(f"not a dump the index reads ({name}; it reads "
                             f"{', '.join(DUMPS)})", source)
        yield from DUMPS[name](stream, source, diagnostics)


def rows(from_format: str | None, path: str, diagnostics: Diagnostics) -> Iterator[str]:
    """The index's rows of the dump ``path`` (``store.row_text``)."""
    return (row_text(found) for found in candidates(path, diagnostics, from_format))


def _rows_file(folder: str, number: int) -> str:
    return os.path.join(folder, f"rows-{number:06d}.jsonl")


def _write_rows(from_format: str | None, folder: str, number: int, path: str,
                diagnostics: Diagnostics) -> int:
    """Write the index's rows of the dump ``path`` (number ``number`` of the inputs) to its
    file in ``folder``; returns how many (run by a task of Spark)."""
    target = _rows_file(folder, number)
    count = 0
    try:
        with open(target, "w", encoding="utf-8") as out:
            for row in rows(from_format, path, diagnostics):
                out.write(row + "\n")
                count += 1
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror}") from None
    return count


def build_index(dumps: Sequence[str], output: str, diagnostics: Diagnostics,
                from_format: str | None = None, engine: str = "duckdb") -> int:
    """Index every work of ``dumps`` into the file ``output`` on ``engine`` (``ENGINES``);
    returns how many."""
    if engine not in ENGINES:
        raise ValueError(f"not an engine: {engine} (one of {', '.join(ENGINES)})")
    if engine == "duckdb":
        return write_rows((row for path in dumps for row in rows(from_format, path,
                                                                 diagnostics)), output)
    from refbridge.spark import each_input

    try:
        rows_folder = tempfile.TemporaryDirectory(prefix=".index-rows-",
                                                  dir=os.path.dirname(os.path.abspath(output)))
    except OSError as exc:
        raise OutputError(f"{output}: cannot write: {exc.strerror}") from None
    with rows_folder as folder:
        counts = each_input(dumps, partial(_write_rows, from_format, folder), diagnostics)
        return write_row_files([_rows_file(folder, number)
                                for number, count in enumerate(counts) if count], output)
