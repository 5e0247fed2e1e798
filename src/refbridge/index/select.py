"""Selecting works from an OpenAlex slice with DuckDB: the works of authors (by ORCID iD),
optionally in one venue and a span of years, out of JSON Lines (gzipped or not) or Parquet
files, with the filter evaluated inside DuckDB's scan (Parquet: pushed into the reader, so
row groups outside the years are never read), one list of records per author.

Each selected work is mapped as the OpenAlex reader maps a work (``work_record``); only the
works selected reach Python. This module must never make a request nor hold more than the
selected works. On the ``spark`` engine each file is a partition of Spark, filtered by DuckDB
and its works mapped there, with the same functions.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.services.answers import as_list, as_map, as_text
from refbridge.formats.services.openalex import work_record
from refbridge.index.store import duckdb_module
from refbridge.model import Record, Source
from refbridge.names.ids import person_id
from refbridge.vocab import ENGINES

ORCID_URL = "https://orcid.org/"

#: Source kind -> how its rows are scanned, and the SQL of each filter on one row ``w``.
SCANS: dict[str, dict[str, str]] = {
    "json": {
        "from": "read_ndjson_objects(?) AS t(w)",
        "work": "w",
        "orcids": "json_extract_string(w, '$.authorships[*].author.orcid')",
        "venue": "json_extract_string(w, '$.primary_location.source.display_name')",
        "year": "TRY_CAST(json_extract(w, '$.publication_year') AS INTEGER)",
    },
    "parquet": {
        "from": "read_parquet(?) AS w",
        "work": "to_json(w)",
        "orcids": "[a.author.orcid FOR a IN w.authorships]",
        "venue": "w.primary_location.source.display_name",
        "year": "w.publication_year",
    },
}


@dataclass(frozen=True, slots=True)
class Selection:
    """Which works: those of any of ``orcids``, in ``venue`` (None: any), in ``years``
    (first and last, inclusive; None: any)."""

    orcids: tuple[str, ...]
    venue: str | None = None
    years: tuple[int, int] | None = None

    def ids(self) -> list[str]:
        """The iDs without their address (``0000-0002-1825-0097``)."""
        return [person_id("orcid", orcid).removeprefix("orcid:") for orcid in self.orcids]

    def urls(self) -> list[str]:
        """The iDs as OpenAlex writes them (``https://orcid.org/0000-...``)."""
        return [ORCID_URL + orcid for orcid in self.ids()]


def _query(kind: str, selection: Selection) -> tuple[str, list[object]]:
    scan = SCANS[kind]
    where = [f"list_has_any({scan['orcids']}, ?::VARCHAR[])"]
    values: list[object] = [selection.urls()]
    if selection.venue is not None:
        where.append(f"{scan['venue']} = ?")
        values.append(selection.venue)
    if selection.years is not None:
        where.append(f"{scan['year']} BETWEEN ? AND ?")
        values.extend(selection.years)
    return (f"SELECT {scan['work']} FROM {scan['from']} WHERE " + " AND ".join(where),
            values)


def _selected(selection: Selection, path: str, diagnostics: Diagnostics
              ) -> Iterator[tuple[Record, tuple[str, ...]]]:
    """The records of the works of ``path`` that ``selection`` selects, each with the iDs of
    its selected authors."""
    duckdb = duckdb_module()
    urls = dict(zip(selection.urls(), selection.ids(), strict=True))
    kind = "parquet" if path.endswith(".parquet") else "json"
    query, values = _query(kind, selection)
    with duckdb.connect() as connection:
        try:
            rows = connection.execute(query, [path, *values]).fetchall()
        except duckdb.Error as exc:
            raise ParseError(f"cannot select from it: {exc}".splitlines()[0], path) from None
    for (text,) in rows:
        work = json.loads(text)
        record = work_record(work, Source(path), diagnostics)
        if record is None:
            continue
        authors = [urls.get(as_text(as_map(as_map(a).get("author")).get("orcid")))
                   for a in as_list(work.get("authorships"))]
        yield record, tuple(dict.fromkeys(a for a in authors if a is not None))


def select_works(paths: Sequence[str], selection: Selection, diagnostics: Diagnostics,
                 engine: str = "duckdb") -> dict[str, list[Record]]:
    """ORCID iD (``0000-0002-1825-0097``) -> the records of the selected works that author
    wrote, in the order of the files; on ``engine`` (``spark``: each file filtered by DuckDB
    and its works mapped in a partition of Spark)."""
    if engine not in ENGINES:
        raise ValueError(f"not an engine: {engine} (one of {', '.join(ENGINES)})")
    chosen: dict[str, list[Record]] = {orcid: [] for orcid in selection.ids()}
    if engine == "spark":
        from refbridge.spark import map_inputs

        selected = map_inputs(paths, partial(_selected, selection), diagnostics)
    else:
        selected = (pair for path in paths for pair in _selected(selection, path, diagnostics))
    for record, orcids in selected:
        for orcid in orcids:
            chosen[orcid].append(record)
    return chosen
