"""``--engine spark``: the dump jobs on a local Spark (one session for the run), with the local
engine's output, byte for byte, and its messages."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from support import FIXTURES, run_cli

from refbridge.errors import Diagnostics, ParseError
from refbridge.sharding import convert_sharded

pytest.importorskip("duckdb", reason="the index needs DuckDB (the dumps extra)")
pytestmark = pytest.mark.usefixtures("spark_session")

DUMPS = FIXTURES / "dumps"
#: Three dumps of 4, 2 and 2 records: shards of 3 straddle the files.
INPUTS = [str(DUMPS / name) for name in ("dblp.xml", "openalex-works.jsonl",
                                         "arxiv-metadata.jsonl")]


def _rows(path: str) -> list[tuple[Any, ...]]:
    import duckdb

    with duckdb.connect(path, read_only=True) as connection:
        return connection.execute("SELECT * FROM works ORDER BY rowid").fetchall()


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_the_index_spark_builds_is_the_local_one_row_for_row(tmp_path: Path) -> None:
    broken = tmp_path / "works.jsonl"
    lines = (DUMPS / "openalex-works.jsonl").read_text(encoding="utf-8").splitlines()
    broken.write_text(f"{lines[0]}\n{{\"id\": 3\n{lines[1]}\n", encoding="utf-8")
    dumps = [*INPUTS, str(DUMPS / "crossref-works.jsonl"), str(broken)]
    runs = {}
    for engine in ("duckdb", "spark"):
        output = str(tmp_path / f"{engine}.duckdb")
        status, _, err = run_cli("index", "build", *dumps, "-o", output, "--engine", engine)
        runs[engine] = (status, err.replace(output, "INDEX"), _rows(output))
    assert runs["spark"] == runs["duckdb"]
    status, err, rows = runs["spark"]
    assert (status, len(rows)) == (3, 11)
    assert err.splitlines()[:2] == [
        "refbridge: 11 work(s) indexed in INDEX",
        f"{broken}:2:9: error: not valid JSON: Expecting ',' delimiter; line skipped"]


@pytest.mark.parametrize("to_format", ["bibtex", "csl-json"])
def test_the_shards_spark_writes_are_the_local_ones_byte_for_byte(tmp_path: Path,
                                                                  to_format: str) -> None:
    runs = {}
    for engine in ("duckdb", "spark"):
        folder = tmp_path / engine
        status, _, err = run_cli("convert", *INPUTS, "--to", to_format, "-o", str(folder),
                                 "--shard-size", "3", "--engine", engine)
        runs[engine] = (status, err.replace(str(folder), "FOLDER"), _files(folder))
    assert runs["spark"] == runs["duckdb"]
    assert runs["spark"][:2] == (
        0, "refbridge: 3 shard(s) written, 0 already there, in FOLDER\n")
    extension = ".bib" if to_format == "bibtex" else ".json"
    assert sorted(runs["spark"][2]) == [f"part-00000{n}{extension}" for n in range(3)]


def test_spark_resumes_as_the_local_engine_does(tmp_path: Path) -> None:
    reports = {}
    for engine in ("duckdb", "spark"):
        folder = tmp_path / engine
        convert_sharded(INPUTS, str(folder), "bibtex", 3)
        (folder / "part-000001.bib").unlink()
        report = convert_sharded(INPUTS, str(folder), "bibtex", 3, engine=engine)
        reports[engine] = (report.records_read, report.records_written, report.shards_written,
                           report.shards_present, _files(folder))
    assert reports["spark"] == reports["duckdb"]
    assert reports["spark"][:4] == (7, 3, 1, 2)


def test_a_broken_dump_stops_spark_after_the_complete_shards_before_it(tmp_path: Path
                                                                       ) -> None:
    broken = tmp_path / "dblp.xml"
    text = (DUMPS / "dblp.xml").read_text(encoding="latin-1")
    broken.write_text(text.replace("</dblp>", "<article key='x'>"), encoding="latin-1")
    inputs = [str(DUMPS / "openalex-works.jsonl"), str(broken),
              str(DUMPS / "arxiv-metadata.jsonl")]
    outcomes = {}
    for engine in ("duckdb", "spark"):
        folder = tmp_path / engine
        with pytest.raises(ParseError) as raised:
            convert_sharded(inputs, str(folder), "bibtex", 2, engine=engine)
        outcomes[engine] = (str(raised.value), _files(folder))
    assert outcomes["spark"] == outcomes["duckdb"]
    assert sorted(outcomes["spark"][1]) == ["part-000000.bib", "part-000001.bib"]


def test_the_works_spark_selects_are_the_local_ones(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB reads each slice: none is cut into pieces, however large."""
    import duckdb

    from refbridge.spark import SPLIT_VARIABLE

    monkeypatch.setenv(SPLIT_VARIABLE, "200")

    works = DUMPS / "openalex-works.jsonl"
    parquet = tmp_path / "works.parquet"
    duckdb.execute(f"COPY (SELECT * FROM read_json('{works}')) TO '{parquet}' (FORMAT parquet)")
    runs = {}
    for engine in ("duckdb", "spark"):
        folder = tmp_path / engine
        status, _, err = run_cli("index", "select", str(works), str(parquet), "--orcid",
                                 "0000-0002-1825-0097", "--to", "bibtex", "-o", str(folder),
                                 "--engine", engine)
        runs[engine] = (status, err.replace(str(folder), "FOLDER"), _files(folder))
    assert runs["spark"] == runs["duckdb"]
    assert runs["spark"][1] == "refbridge: FOLDER/0000-0002-1825-0097.bib: 2 work(s)\n"


def test_a_strict_index_build_fails_on_spark_as_it_fails_locally(tmp_path: Path) -> None:
    broken = tmp_path / "works.jsonl"
    lines = (DUMPS / "openalex-works.jsonl").read_text(encoding="utf-8").splitlines()
    broken.write_text(f"{lines[0]}\n{{\"id\": 3\n{lines[1]}\n", encoding="utf-8")
    runs = {}
    for engine in ("duckdb", "spark"):
        output = tmp_path / f"{engine}.duckdb"
        status, _, err = run_cli("index", "build", str(DUMPS / "dblp.xml"), str(broken), "-o",
                                 str(output), "--engine", engine, "--strict")
        runs[engine] = (status, err, output.exists())
    message = f"{broken}:2:9: not valid JSON: Expecting ',' delimiter; line skipped"
    assert runs["spark"] == runs["duckdb"] == (1, f"refbridge: error: {message}\n", False)


def _large_dumps(tmp_path: Path) -> list[str]:
    """The dblp fixture and the arXiv papers three times: each larger than a piece of 200 bytes."""
    arxiv = tmp_path / "arxiv-metadata.jsonl"
    arxiv.write_text((DUMPS / "arxiv-metadata.jsonl").read_text(encoding="utf-8") * 3,
                     encoding="utf-8")
    return [str(DUMPS / "dblp.xml"), str(arxiv)]


def test_spark_reads_a_large_file_in_pieces_as_the_local_engine_reads_it_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from refbridge.spark import SPLIT_VARIABLE, pieces

    monkeypatch.setenv(SPLIT_VARIABLE, "200")
    inputs = _large_dumps(tmp_path)
    assert len(pieces(inputs, Diagnostics())) == 10
    runs = {}
    for engine in ("duckdb", "spark"):
        folder = tmp_path / engine
        status, _, err = run_cli("convert", *inputs, "--to", "csl-json", "-o", str(folder),
                                 "--shard-size", "3", "--engine", engine)
        output = str(tmp_path / f"{engine}.duckdb")
        built = run_cli("index", "build", *inputs, "-o", output, "--engine", engine)
        runs[engine] = (status, err.replace(str(folder), "FOLDER"), _files(folder),
                        built[0], built[2].replace(output, "INDEX"), _rows(output))
    assert runs["spark"] == runs["duckdb"]
    assert runs["spark"][:2] == (0, "refbridge: 3 shard(s) written, 0 already there, in FOLDER\n")


def test_spark_reads_a_large_gzipped_file_whole_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from refbridge.spark import SPLIT_VARIABLE

    monkeypatch.setenv(SPLIT_VARIABLE, "200")
    dump = tmp_path / "arxiv-metadata.jsonl.gz"
    dump.write_bytes(gzip.compress(Path(_large_dumps(tmp_path)[1]).read_bytes()))
    output = str(tmp_path / "works.duckdb")
    status, _, err = run_cli("index", "build", str(dump), "-o", output, "--engine", "spark")
    warning = "a compressed file cannot be cut into pieces: read whole, by one partition"
    assert (status, err) == (
        0, f"refbridge: 6 work(s) indexed in {output}\n{dump}: warning: {warning}\n")
