"""The local index of dumps (``refbridge index build``) and ``verify --index``, which answers
from it as the services would."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import FIXTURES, run_cli

pytest.importorskip("duckdb", reason="the index needs DuckDB (the dumps extra)")

DUMPS = FIXTURES / "dumps"
ALL = [str(DUMPS / name) for name in ("dblp.xml", "openalex-works.jsonl",
                                      "crossref-works.jsonl", "arxiv-metadata.jsonl")]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("index") / "works.duckdb")
    status, _, err = run_cli("index", "build", *ALL, "-o", path)
    assert (status, err) == (0, f"refbridge: 9 work(s) indexed in {path}\n")
    return path


def test_the_index_holds_each_service_of_its_dumps(index: str) -> None:
    from refbridge.index.store import services_of

    assert services_of(index) == ("arxiv", "crossref", "dblp", "openalex")


def test_a_work_is_found_by_its_doi_as_crossref_gives_it(index: str) -> None:
    from refbridge.index.source import IndexSource

    source = IndexSource(index)
    found = source.by_doi("crossref", "10.1145/3650001")
    source.close()
    assert found is not None
    assert (found.service, found.identifier, found.published, found.record.title) == (
        "crossref", "10.1145/3650001", True, "Streaming Joins over Compressed Columns")


def test_verify_answers_from_the_index_with_the_services_verdicts(index: str) -> None:
    status, out, err = run_cli("verify", str(DUMPS / "cited.bib"), "--index", index)
    assert status == 4
    lines = out.splitlines()
    assert [line.split(": ")[1:3] for line in lines] == [
        ["verified", "muller"], ["retracted", "retracted"], ["mismatch", "retracted"],
        ["verified", "learned"], ["not-found", "made"], ["verified", "sorensen"]]
    assert lines[1].endswith("retraction 10.5555/retraction.2023.1 of 2023-02-01 "
                             "(says publisher)")
    assert lines[4].endswith("asked: Crossref (title search): not-found; OpenAlex (title "
                             "search): not-found; dblp (title search): not-found; arXiv "
                             "(title search): not-found")
    assert "0 request(s)" in err


def test_a_file_that_is_no_index_is_an_error_naming_it(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.duckdb"
    bogus.write_text("not a database")
    status, _, err = run_cli("verify", str(DUMPS / "cited.bib"), "--index", str(bogus))
    assert status == 1
    assert err.startswith(f"refbridge: error: {bogus}: not a refbridge index")


def test_a_file_that_is_no_dump_is_refused_and_no_index_is_left(tmp_path: Path) -> None:
    output = tmp_path / "works.duckdb"
    status, _, err = run_cli("index", "build", str(DUMPS / "cited.bib"), "-o", str(output))
    assert status == 1
    assert "not a dump the index reads (bibtex;" in err
    assert list(tmp_path.iterdir()) == []


def test_upgrade_finds_a_preprints_published_version_in_the_index(tmp_path: Path) -> None:
    index = str(tmp_path / "works.duckdb")
    run_cli("index", "build", str(DUMPS / "arxiv-metadata.jsonl"),
            str(DUMPS / "crossref-published.jsonl"), "-o", index)
    status, out, err = run_cli("upgrade", str(DUMPS / "preprint.bib"), "--index", index)
    assert status == 0
    assert out.startswith("@article{roe,\n")
    assert "  journal = {Physics Letters B},\n  volume = {450},\n  pages = {1-9},\n" in out
    assert "  doi = {10.5555/plb.1999.001},\n" in out
    assert "upgraded: roe: 10.5555/plb.1999.001 (confidence 1.00)" in err


def test_a_broken_line_is_reported_and_the_rest_indexed(tmp_path: Path) -> None:
    dump = tmp_path / "works.jsonl"
    lines = (DUMPS / "openalex-works.jsonl").read_text(encoding="utf-8").splitlines()
    dump.write_text(f"{lines[0]}\n{{\"id\": 3\n{lines[1]}\n", encoding="utf-8")
    output = tmp_path / "works.duckdb"
    status, _, err = run_cli("index", "build", str(dump), "-o", str(output),
                             "--from", "openalex-works")
    assert status == 3
    assert err.splitlines()[:2] == [
        f"refbridge: 2 work(s) indexed in {output}",
        f"{dump}:2:9: error: not valid JSON: Expecting ',' delimiter; line skipped"]
