"""The index file: one DuckDB table of works, each a candidate (``enrich.found.Found``) as
the service whose dump it came from would have answered it, keyed by its normalized DOI,
arXiv id (without version), PMID and normalized title, with its year and first author's
family name beside.

Rows are written in batches through a JSON Lines file DuckDB loads (``COPY``), so building
holds one batch in memory whatever the dumps' size (or, built on Spark, from the JSON Lines
files its tasks wrote, one a dump, loaded in their order); the index is written beside its target
and renamed into place when complete, so a failed build leaves no index and an existing one
untouched. The record is kept as CSL-JSON. This module must never read a dump nor make a
request.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from refbridge.errors import OutputError, ParseError, RefbridgeError
from refbridge.formats.csljson import from_csl, to_csl
from refbridge.model import Record
from refbridge.sameness.ids import arxiv_id, normalized_doi
from refbridge.sameness.people import family_key
from refbridge.sameness.text import normalize_title
from refbridge.services.found import Found, Notice, Version

TABLE = "works"
COLUMNS: dict[str, str] = {
    "service": "VARCHAR", "identifier": "VARCHAR", "doi": "VARCHAR", "arxiv": "VARCHAR",
    "pmid": "VARCHAR", "title_key": "VARCHAR", "year": "INTEGER", "first_family": "VARCHAR",
    "found": "VARCHAR",
}
#: The columns a work is looked up by (each gets an index once the table is loaded).
KEYS: tuple[str, ...] = ("doi", "arxiv", "pmid", "title_key")
#: Rows written to DuckDB at a time.
BATCH = 10_000
#: Candidates a title lookup gives at most (``enrich.matching.judge`` weighs them).
TITLE_CANDIDATES = 20


def duckdb_module() -> Any:
    """The ``duckdb`` module (the ``dumps`` extra)."""
    try:
        import duckdb
    except ImportError:
        raise RefbridgeError("the index needs DuckDB: pip install 'refbridge[dumps]'"
                             ) from None
    return duckdb


def found_json(found: Found) -> str:
    """``found`` as the JSON text the ``found`` column holds."""
    return json.dumps({"service": found.service, "identifier": found.identifier,
                       "record": to_csl(found.record), "published": found.published,
                       "notices": [asdict(notice) for notice in found.notices],
                       "versions": [asdict(version) for version in found.versions],
                       "preprints": list(found.preprints)}, ensure_ascii=False)


def found_of(text: str) -> Found:
    """The candidate of a ``found`` column's JSON text."""
    data = json.loads(text)
    return Found(data["service"], data["identifier"], from_csl(data["record"]),
                 data["published"], tuple(Notice(**n) for n in data["notices"]),
                 tuple(Version(**v) for v in data["versions"]), tuple(data["preprints"]))


def row_text(found: Found) -> str:
    """``found`` as the row of the table, a JSON object of ``COLUMNS``."""
    record: Record = found.record
    title = record.title
    authors = record.authors
    return json.dumps({
        "service": found.service, "identifier": found.identifier,
        "doi": normalized_doi(record), "arxiv": arxiv_id(record, venue=False),
        "pmid": record.get("PMID"), "title_key": normalize_title(title) if title else None,
        "year": record.year, "first_family": family_key(authors[0]) if authors else None,
        "found": found_json(found)}, ensure_ascii=False)


def _insert(connection: Any, rows_file: str) -> None:
    """Load a JSON Lines file of rows into the table, in its order."""
    columns = ", ".join(f"{name}: '{kind}'" for name, kind in COLUMNS.items())
    connection.execute(f"INSERT INTO {TABLE} SELECT * FROM read_json(?, format="
                       f"'newline_delimited', columns={{{columns}}})", [rows_file])


def _load(connection: Any, rows: list[str], directory: str) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", dir=directory, delete=False,
                                     encoding="utf-8") as batch:
        batch.write("\n".join(rows))
    try:
        _insert(connection, batch.name)
    finally:
        os.unlink(batch.name)


@contextmanager
def _building(path: str) -> Iterator[tuple[Any, str]]:
    """A connection to a new index beside ``path`` and the folder it is in; renamed into
    place when the block ends without an error, else removed."""
    duckdb = duckdb_module()

    directory = os.path.dirname(os.path.abspath(path))
    try:
        descriptor, partial = tempfile.mkstemp(prefix=".index-", suffix=".duckdb",
                                               dir=directory)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror}") from None
    os.close(descriptor)
    os.unlink(partial)  # DuckDB makes the file itself
    try:
        with duckdb.connect(partial) as connection:
            connection.execute(f"CREATE TABLE {TABLE} ("
                               + ", ".join(f"{n} {k}" for n, k in COLUMNS.items()) + ")")
            yield connection, directory
            for key in KEYS:
                connection.execute(f"CREATE INDEX {TABLE}_{key} ON {TABLE} ({key})")
        os.replace(partial, path)
    finally:
        for leftover in (partial, partial + ".wal"):
            if os.path.exists(leftover):
                os.unlink(leftover)


def write_index(found: Iterable[Found], path: str) -> int:
    """Write the candidates ``found`` as the index ``path``; returns how many."""
    return write_rows((row_text(candidate) for candidate in found), path)


def write_rows(rows: Iterable[str], path: str) -> int:
    """Write the rows ``rows`` (``row_text``'s) as the index ``path``; returns how many."""
    count = 0
    with _building(path) as (connection, directory):
        batch: list[str] = []
        for row in rows:
            batch.append(row)
            count += 1
            if len(batch) == BATCH:
                _load(connection, batch, directory)
                batch = []
        if batch:
            _load(connection, batch, directory)
    return count


def write_row_files(rows_files: Sequence[str], path: str) -> int:
    """Write the rows of ``rows_files`` (JSON Lines of ``row_text``'s), in their order, as the
    index ``path``; returns how many."""
    with _building(path) as (connection, _directory):
        for rows_file in rows_files:
            _insert(connection, rows_file)
        count: int = connection.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]
    return count


class Index:
    """An index file opened for lookups (read only)."""

    def __init__(self, path: str) -> None:
        duckdb = duckdb_module()

        try:
            self.connection = duckdb.connect(path, read_only=True)
            self.connection.execute(f"SELECT count(*) FROM {TABLE}")
        except duckdb.Error as exc:
            raise ParseError(f"not a refbridge index: {exc}".splitlines()[0], path) from None
        self.path = path
        #: (column, value) -> service -> ``found`` texts, of the last ``prefetch``
        self._prefetched: dict[tuple[str, str], dict[str, list[str]]] = {}

    def services(self) -> tuple[str, ...]:
        """The services whose dumps the index holds."""
        rows = self.connection.execute(f"SELECT DISTINCT service FROM {TABLE}").fetchall()
        return tuple(sorted(row[0] for row in rows))

    def prefetch(self, keys: dict[str, set[str]]) -> None:
        """Look up every value of ``keys`` (column -> values) at once, so that ``by`` answers
        them from memory: one query a column instead of one a question (DuckDB answers a
        set at once in the time it takes to answer one). What was prefetched before is
        forgotten."""
        self._prefetched = {}
        for column, values in keys.items():
            if column not in KEYS:
                raise ValueError(f"not a key of the index: {column}")
            for value in values:
                self._prefetched[column, value] = {}
            if not values:
                continue
            rows = self.connection.execute(
                f"SELECT {column}, service, found FROM {TABLE} WHERE {column} IN "
                f"(SELECT UNNEST(?)) QUALIFY row_number() OVER (PARTITION BY {column}, "
                f"service) <= {TITLE_CANDIDATES}", [sorted(values)]).fetchall()
            for value, service, found in rows:
                self._prefetched[column, value].setdefault(service, []).append(found)

    def _found(self, column: str, value: str, service: str, limit: int) -> list[str]:
        known = self._prefetched.get((column, value))
        if known is not None:
            return known.get(service, [])[:limit]
        rows = self.connection.execute(
            f"SELECT found FROM {TABLE} WHERE {column} = ? AND service = ? LIMIT {limit}",
            [value, service]).fetchall()
        return [row[0] for row in rows]

    def by(self, column: str, value: str, service: str, limit: int = 1) -> list[Found]:
        """The candidates of ``service`` whose ``column`` (one of ``KEYS``) is ``value``."""
        if column not in KEYS:
            raise ValueError(f"not a key of the index: {column}")
        return [found_of(text) for text in self._found(column, value, service, limit)]

    def close(self) -> None:
        self.connection.close()


def services_of(path: str) -> tuple[str, ...]:
    """The services whose dumps the index ``path`` holds."""
    index = Index(path)
    try:
        return index.services()
    finally:
        index.close()
