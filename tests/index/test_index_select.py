"""``refbridge index select``: the works of authors (ORCID iD), a venue and years out of an
OpenAlex slice, filtered inside DuckDB's scan, one file per author."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import FIXTURES, run_cli

duckdb = pytest.importorskip("duckdb", reason="the selection needs DuckDB (the dumps extra)")

WORKS = FIXTURES / "dumps" / "openalex-works.jsonl"
MULLER = "0000-0002-1825-0097"


@pytest.fixture(scope="module")
def parquet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("slice") / "works.parquet"
    duckdb.execute(f"COPY (SELECT * FROM read_json('{WORKS}')) TO '{path}' (FORMAT parquet)")
    return path


@pytest.mark.parametrize("kind", ["json", "parquet"])
def test_an_authors_works_of_the_years_go_to_their_file(kind: str, parquet: Path,
                                                        tmp_path: Path) -> None:
    source = WORKS if kind == "json" else parquet
    status, _, err = run_cli("index", "select", str(source), "--orcid", MULLER, "--years",
                             "2023-2024", "--to", "csl-json", "-o", str(tmp_path))
    assert (status, err) == (0, f"refbridge: {tmp_path / MULLER}.json: 1 work(s)\n")
    assert '"DOI": "10.1145/3650001"' in (tmp_path / f"{MULLER}.json").read_text()


@pytest.mark.parametrize(("option", "value"), [("--years", "2020-2023"),
                                               ("--venue", "Journal of Nothing")])
def test_a_filter_no_work_passes_gives_an_empty_file(option: str, value: str,
                                                     tmp_path: Path) -> None:
    status, _, err = run_cli("index", "select", str(WORKS), "--orcid",
                             f"https://orcid.org/{MULLER}", option, value, "--to", "csl-json",
                             "-o", str(tmp_path))
    assert (status, err) == (0, f"refbridge: {tmp_path / MULLER}.json: 0 work(s)\n")
