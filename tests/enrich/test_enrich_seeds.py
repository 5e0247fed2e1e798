"""The bundled profile pages, enriched against the local fixture services, end to end."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from enrich_support import FixtureData, FixtureServer, forbid_remote_connections, serving

from refbridge.cli import main
from refbridge.enrich import EnrichOptions, enrich_records
from refbridge.errors import Diagnostics
from refbridge.model import Eprint, Record
from refbridge.pipeline import read_records

PAGE_NAMES = ("zhengping-qian.profile.txt", "qinwei-yang.profile.txt")


pytestmark = pytest.mark.usefixtures("no_remote_network")


@pytest.fixture(scope="module")
def pages(samples_dir: Path) -> list[str]:
    """The two bundled profile pages: Zhengping Qian's (14 records), Qinwei Yang's (9)."""
    return [str(samples_dir / name) for name in PAGE_NAMES]


@pytest.fixture(scope="module")
def server() -> Iterator[FixtureServer]:
    with serving(FixtureData("seeds.atom", "seeds.json")) as running:
        yield running


@pytest.fixture
def environment(server: FixtureServer, tmp_path: Path) -> dict[str, str]:
    return {**server.environment(), "REFBRIDGE_CACHE_DIR": str(tmp_path / "cache"),
            "REFBRIDGE_REQUEST_INTERVAL": "0"}


@pytest.fixture(scope="module")
def enriched_seeds(server: FixtureServer, pages: list[str],
                   tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    records = list(read_records(pages, Diagnostics()))
    options = EnrichOptions(endpoints=server.endpoints(),
                            cache_dir=tmp_path_factory.mktemp("cache"), backoff=0.0,
                            intervals={"arxiv": 0.0, "crossref": 0.0, "openalex": 0.0})
    with pytest.MonkeyPatch.context() as monkeypatch:
        forbid_remote_connections(monkeypatch)
        enriched, report = enrich_records(records, options)
    assert report.counts() == {"enriched": 23}
    return enriched


def test_every_seed_record_gets_its_arxiv_identity(enriched_seeds: list[Record]) -> None:
    enriched = enriched_seeds
    identifiers = [r.eprint.identifier for r in enriched if r.eprint and r.eprint.identifier]
    assert [i.split("v")[0] for i in identifiers] == [f"2601.{n:05d}" for n in range(1, 24)]
    assert all(r.incomplete_names == frozenset() for r in enriched)
    assert all(len(r.authors) >= 2 for r in enriched)


def test_seed_owner_stays_among_the_full_author_list(enriched_seeds: list[Record]) -> None:
    first = enriched_seeds[0]
    assert first.title == ("SpecDB: LLM-Generated Customized Databases via "
                           "Feature-Oriented Decomposition")
    assert [n.display() for n in first.authors] == ["Jing Wang", "Zhengping Qian", "Ming Zhou"]
    assert first.eprint == Eprint("arXiv", "2601.00001v2", "cs.DB", ("cs.LG",))


def test_seed_with_a_published_version_is_cited_as_the_paper(
        enriched_seeds: list[Record]) -> None:
    [flat] = [r for r in enriched_seeds if (r.title or "").startswith("FLAT:")]
    assert flat.type == "article-journal"
    assert (flat.fields["container-title"], flat.fields["volume"], flat.fields["issue"],
            flat.fields["page"]) == ("Proceedings of the VLDB Endowment", "14", "9", "1489-1502")
    assert flat.eprint == Eprint("arXiv", "2601.00011v3", "cs.DB", ("cs.LG",))


def test_enrich_command_writes_enriched_csl_json(pages: list[str], environment: dict[str, str],
                                                 tmp_path: Path) -> None:
    out = tmp_path / "qian.json"
    result = CliRunner().invoke(main, ["enrich", pages[0], "-o", str(out)], env=environment)
    assert result.exit_code == 0, result.output
    items = json.loads(out.read_text("utf-8"))
    assert len(items) == 14
    assert items[0]["author"][0] == {"family": "Wang", "given": "Jing"}
    assert items[0]["number"] == "arXiv:2601.00001v2"
    assert result.stderr.splitlines()[-1] == (
        "refbridge: enrich: 14 record(s): 14 enriched; 0 from cache, 41 request(s)")


def test_second_enrich_run_is_answered_from_the_cache(pages: list[str], server: FixtureServer,
                                                      environment: dict[str, str],
                                                      tmp_path: Path) -> None:
    runner = CliRunner()
    runner.invoke(main, ["enrich", pages[1], "-o", str(tmp_path / "a.json")], env=environment)
    asked = len(server.log)
    result = runner.invoke(main, ["enrich", pages[1], "-o", str(tmp_path / "b.json")],
                           env=environment)
    assert len(server.log) == asked
    assert result.stderr.splitlines()[-1] == (
        "refbridge: enrich: 9 record(s): 9 enriched; 9 from cache, 0 request(s)")
    assert (tmp_path / "a.json").read_text("utf-8") == (tmp_path / "b.json").read_text("utf-8")


def test_convert_enrich_without_network_fails_clearly(pages: list[str], tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    out = tmp_path / "out.json"
    result = CliRunner().invoke(
        main, ["convert", pages[1], "--to", "csl-json", "-o", str(out), "--enrich",
               "--arxiv-api", closed, "--services", "arxiv", "--retries", "0"],
        env={"REFBRIDGE_CACHE_DIR": str(tmp_path / "cache")})
    assert result.exit_code == 1
    assert "refbridge: error: cannot reach arXiv at 127.0.0.1:" in result.stderr
    assert not out.exists()


def test_enriched_seeds_as_bibtex_have_full_authors_and_eprints(
        pages: list[str], environment: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "qian.bib"
    result = CliRunner().invoke(main, ["convert", pages[0], "--to", "bibtex", "-o", str(out),
                                       "--enrich"], env=environment)
    assert result.exit_code == 0, result.output
    bib = out.read_text("utf-8")
    assert "others" not in bib
    assert bib.count("archivePrefix") == 14
    assert "  eprint = {2601.00001v2},\n  archivePrefix = {arXiv},\n  primaryClass = {cs.DB" in bib
    assert "Wang, Jing and Qian, Zhengping and Zhou, Ming" in bib


def test_enriched_seeds_as_zotero_rdf_carry_archive_ids(
        pages: list[str], environment: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "qian.rdf"
    result = CliRunner().invoke(main, ["convert", pages[0], "--to", "zotero", "-o", str(out),
                                       "--enrich"], env=environment)
    assert result.exit_code == 0, result.output
    rdf = out.read_text("utf-8")
    # Zotero's archiveID of the 13 preprints; FLAT is cited as its journal article
    assert rdf.count("<prism:number>arXiv:2601.000") == 13
    assert "<prism:number>arXiv:2601.00001v2</prism:number>" in rdf
    assert "<foaf:givenName>Jing</foaf:givenName>" in rdf


def test_cv_enrich_lists_the_full_author_lists(pages: list[str], environment: dict[str, str],
                                               tmp_path: Path) -> None:
    out = tmp_path / "qian.md"
    result = CliRunner().invoke(main, ["cv", pages[0], "--to", "markdown", "-o", str(out),
                                       "--enrich"], env=environment)
    assert result.exit_code == 0, result.output
    listing = out.read_text("utf-8")
    assert "Wang, J., **Qian, Z.**, & Zhou, M." in listing or "Jing Wang" in listing


def test_cv_enrichment_options_need_enrich(pages: list[str]) -> None:
    result = CliRunner().invoke(main, ["cv", pages[0], "--offline"])
    assert result.exit_code == 2
    assert "use --enrich with --offline" in result.output
