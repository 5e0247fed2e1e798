"""``enrich --index FILE``: a library completed from a local index of the services' dumps,
offline, judged, merged and reported as the services' answers are."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from enrich_support import FIXTURES as ENRICH_FIXTURES
from enrich_support import FixtureServer
from support import FIXTURES, run_cli

pytest.importorskip("duckdb", reason="the index needs DuckDB (the dumps extra)")

DUMPS = FIXTURES / "dumps"

LIBRARY = r"""@article{muller,
  author = {M{\"u}ller, J{\"u}rgen and Olivier, Ana{\"i}s},
  title = {Streaming Joins over Compressed Columns},
  year = {2024},
}
@misc{wei,
  author = {Wei, Li and others},
  title = {Learned Cardinalities, Revisited},
  year = {2024},
  eprint = {2401.01234}, archivePrefix = {arXiv},
}
@article{nobody,
  author = {Nobody, Ned},
  title = {A Paper That Does Not Exist},
  year = {2021},
}
@article{sorting,
  author = {{The Invented Consortium}},
  title = {A Retracted Result: On Sorting},
  year = {2022},
  doi = {10.5555/retracted.2022.7},
}
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("index") / "works.duckdb")
    status, _, _ = run_cli("index", "build", str(DUMPS / "crossref-works.jsonl"),
                           str(DUMPS / "arxiv-metadata.jsonl"),
                           str(DUMPS / "openalex-works.jsonl"), "-o", path)
    assert status == 0
    return path


@pytest.fixture
def library(tmp_path: Path) -> Path:
    path = tmp_path / "library.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    return path


def _enriched(library: Path, index: str, *options: str
              ) -> tuple[int, dict[str, dict[str, Any]], str]:
    output = library.parent / "out.json"
    status, _, err = run_cli("enrich", str(library), "--index", index, "-o", str(output),
                             *options)
    items = json.loads(output.read_text(encoding="utf-8")) if output.exists() else []
    return status, {item["id"]: item for item in items}, err


def test_a_bare_entry_gains_its_doi_venue_and_pages_from_the_index(library: Path,
                                                                   index: str) -> None:
    status, items, _ = _enriched(library, index)
    muller = items["muller"]
    assert status == 0
    assert {key: muller[key] for key in ("DOI", "container-title", "volume", "issue", "page",
                                         "issued")} == {
        "DOI": "10.1145/3650001", "container-title": "ACM Transactions on Database Systems",
        "volume": "49", "issue": "2", "page": "1-38", "issued": {"date-parts": [[2024, 4, 2]]}}
    extra = muller["custom"]["extra"]
    assert (extra["enrich.DOI"], extra["enrich.confidence.crossref"]) == (
        "crossref:10.1145/3650001", "1.00")


def test_an_incomplete_author_list_is_completed_from_the_preprint_its_eprint_names(
        library: Path, index: str) -> None:
    _, items, _ = _enriched(library, index)
    wei = items["wei"]
    assert wei["author"] == [{"family": "Wei", "given": "Li"},
                             {"family": "Dubois", "given": "René"}]
    assert wei["custom"]["extra"]["enrich.author"] == "arxiv:2401.01234v2"


def test_the_report_is_the_online_enrichments_and_no_request_is_made(library: Path,
                                                                     index: str) -> None:
    _, items, err = _enriched(library, index)
    missing = f"{library}:12: not-found: 'A Paper That Does Not Exist'"
    assert err.splitlines() == [
        f"{missing}: arxiv: no candidate close enough",
        f"{missing}: crossref: no candidate close enough",
        f"{missing}: openalex: no candidate close enough",
        ("refbridge: enrich: 4 record(s): 2 enriched, 1 not found, 1 already complete; "
         "0 from cache, 0 request(s)")]
    assert "DOI" not in items["nobody"]


def test_only_the_services_asked_are_asked(library: Path, index: str) -> None:
    status, items, err = _enriched(library, index, "--services", "arxiv")
    assert status == 0
    assert "DOI" not in items["muller"]
    assert err.splitlines()[-1] == ("refbridge: enrich: 4 record(s): 1 enriched, 2 not found, "
                                    "1 already complete; 0 from cache, 0 request(s)")


def test_an_index_of_no_service_asked_is_an_error_naming_it(library: Path,
                                                             tmp_path: Path) -> None:
    dblp = str(tmp_path / "dblp.duckdb")
    run_cli("index", "build", str(DUMPS / "dblp.xml"), "-o", dblp)
    status, _, err = run_cli("enrich", str(library), "--index", dblp)
    assert status == 1
    assert err == (f"refbridge: error: {dblp}: the index holds none of the services asked "
                   "(arxiv, crossref, openalex); it holds dblp\n")


def test_the_library_function_takes_the_index_in_its_options(index: str) -> None:
    from refbridge.enrich import EnrichOptions, enrich_records
    from refbridge.model import Name, Record

    record = Record(id="muller", type="article-journal",
                    fields={"title": "Streaming Joins over Compressed Columns"},
                    names={"author": (Name(family="Müller", given="Jürgen"),)})
    [enriched], report = enrich_records([record], EnrichOptions(index=index,
                                                                services=("crossref",)))
    assert (enriched.get("DOI"), report.summary()) == (
        "10.1145/3650001", "1 record(s): 1 enriched; 0 from cache, 0 request(s)")


@pytest.mark.usefixtures("no_remote_network")
def test_the_index_gives_the_services_enrichment_for_the_same_works(
        server: FixtureServer, tmp_path: Path) -> None:
    """The works of the services' stand-in, indexed: the same records and messages."""
    from refbridge.enrich import EnrichOptions, enrich_records
    from refbridge.model import Date, Eprint, Name, Record

    crossref = tmp_path / "crossref.jsonl"
    crossref.write_text(json.dumps({"items": json.loads(
        (ENRICH_FIXTURES / "crossref" / "works.json").read_text("utf-8"))}) + "\n", "utf-8")
    openalex = tmp_path / "openalex.jsonl"
    openalex.write_text("".join(json.dumps(work) + "\n" for work in json.loads(
        (ENRICH_FIXTURES / "openalex" / "works.json").read_text("utf-8"))), "utf-8")
    index = str(tmp_path / "works.duckdb")
    assert run_cli("index", "build", str(crossref), str(openalex), "-o", index)[0] == 0
    records = [Record(id=f"lin{year}", type="article", fields={"title": title},
                      names={"author": (Name(family="Lin", given="Mei"),)},
                      dates={"issued": Date.of(year)}, eprint=Eprint("arXiv"),
                      incomplete_names=frozenset({"author"}))
               for title, year in (("Vectorized Execution for Graph Pattern Queries", 2024),
                                   ("Elastic Checkpointing for Distributed Training", 2024))]
    services = ("crossref", "openalex")
    online, online_report = enrich_records(records, EnrichOptions(
        services=services, endpoints=server.endpoints(), cache_dir=tmp_path / "cache",
        backoff=0.0, intervals={"crossref": 0.0, "openalex": 0.0}))
    offline, offline_report = enrich_records(records, EnrichOptions(services=services,
                                                                    index=index))
    assert offline == online
    assert list(offline_report.messages()) == list(online_report.messages())
    assert [o.outcome for o in offline_report.outcomes] == ["enriched", "enriched"]
