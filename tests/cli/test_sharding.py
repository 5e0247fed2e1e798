"""``convert --shard-size N -o FOLDER``: a large input into complete shards of N records, each
written atomically; a rerun skips the shards already there."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import FIXTURES, run_cli

from refbridge.errors import ParseError
from refbridge.sharding import convert_sharded, shards

DBLP = FIXTURES / "dumps" / "dblp.xml"


def test_records_are_cut_into_runs_of_the_shard_size() -> None:
    assert [list(run) for run in shards(range(7), 3)] == [[0, 1, 2], [3, 4, 5], [6]]


def test_each_shard_holds_its_records_in_order(tmp_path: Path) -> None:
    status, _, err = run_cli("convert", str(DBLP), "--to", "csl-json", "-o",
                             str(tmp_path / "out"), "--shard-size", "2")
    folder = tmp_path / "out"
    assert (status, err) == (0, f"refbridge: 2 shard(s) written, 0 already there, in {folder}\n")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "part-000000.json", "part-000001.json"]
    assert '"id": "sorensen2023index"' in (tmp_path / "out" / "part-000000.json").read_text()
    assert '"id": "wei2024learned"' in (tmp_path / "out" / "part-000001.json").read_text()


def test_an_interrupted_job_leaves_complete_shards_and_a_rerun_resumes(tmp_path: Path) -> None:
    broken = tmp_path / "dblp.xml"
    text = DBLP.read_text(encoding="latin-1")
    broken.write_text(text.replace("</dblp>", "<article key='x'>"), encoding="latin-1")
    folder = tmp_path / "out"
    with pytest.raises(ParseError, match="not well-formed XML"):
        convert_sharded([str(broken)], str(folder), "bibtex", 1)
    assert sorted(p.name for p in folder.iterdir()) == [
        "part-000000.bib", "part-000001.bib", "part-000002.bib"]
    written = (folder / "part-000001.bib").read_text()
    broken.write_text(text, encoding="latin-1")
    (folder / "part-000002.bib").unlink()
    report = convert_sharded([str(broken)], str(folder), "bibtex", 1)
    assert (report.shards_present, report.shards_written, report.records_read) == (2, 1, 3)
    assert (folder / "part-000001.bib").read_text() == written
    assert (folder / "part-000002.bib").read_text().startswith("@misc{wei2024learned,")


def test_shards_need_a_folder(tmp_path: Path) -> None:
    status, _, err = run_cli("convert", str(DBLP), "--to", "bibtex", "--shard-size", "2")
    assert status == 2
    assert "--shard-size writes a folder (-o FOLDER)" in err


def test_the_spark_engine_writes_shards_only(tmp_path: Path) -> None:
    status, _, err = run_cli("convert", str(DBLP), "--to", "bibtex", "-o",
                             str(tmp_path / "out.bib"), "--engine", "spark")
    assert status == 2
    assert "--engine spark writes shards: use --shard-size N" in err


def test_the_spark_engine_reads_files_not_standard_input(tmp_path: Path) -> None:
    status, _, err = run_cli("convert", "-", "--to", "bibtex", "-o", str(tmp_path / "out"),
                             "--shard-size", "2", "--engine", "spark",
                             stdin=DBLP.read_text(encoding="latin-1"))
    assert status == 1
    assert err == "refbridge: error: --engine spark reads files: not standard input (-)\n"
