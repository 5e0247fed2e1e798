"""The enrich command and the --enrich options, run against the local fixture services."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from enrich_support import FixtureServer

from refbridge.cli import main

pytestmark = pytest.mark.usefixtures("no_remote_network")


@pytest.fixture
def environment(server: FixtureServer, tmp_path: Path) -> dict[str, str]:
    return {**server.environment(), "REFBRIDGE_CACHE_DIR": str(tmp_path / "cache"),
            "REFBRIDGE_REQUEST_INTERVAL": "0"}


@pytest.fixture
def mei_lin(tmp_path: Path) -> Path:
    """Two of Mei Lin's records as CSL-JSON, her name alone in an author list marked
    incomplete: one with a clear match, one with two works of that title."""
    owner_only = {"author": [{"family": "Lin", "given": "Mei"}],
                  "custom": {"incomplete-names": ["author"]}}
    items = [
        {"id": "index", "type": "article", "title": "Learned Index Structures for Spatial Joins",
         "issued": {"date-parts": [[2025]]}, **owner_only},
        {"id": "stream", "type": "article", "title": "Streaming Graph Partitioning",
         "issued": {"date-parts": [[2024]]}, **owner_only},
    ]
    path = tmp_path / "mei-lin.json"
    path.write_text(json.dumps(items), "utf-8")
    return path


def test_enrich_reports_the_uncertain_record_and_the_summary(
        mei_lin: Path, environment: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["enrich", str(mei_lin), "-o", str(out)],
                                env=environment)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{mei_lin}:1: ambiguous: 'Streaming Graph Partitioning': "
                               "arxiv: arxiv:2601.00105v1")
    assert lines[-1] == ("refbridge: enrich: 2 record(s): 1 enriched, 1 ambiguous; "
                         "0 from cache, 6 request(s)")


def test_enrich_picks_the_output_format_from_the_extension(
        mei_lin: Path, environment: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "out.ris"
    result = CliRunner().invoke(main, ["enrich", str(mei_lin), "-o", str(out),
                                       "--services", "arxiv"], env=environment)
    assert result.exit_code == 0, result.output
    ris = out.read_text("utf-8")
    assert ris.startswith("TY  - ")
    assert "AU  - Verma, Rahul" in ris


def test_accept_applies_the_ambiguous_record(mei_lin: Path, environment: dict[str, str],
                                             tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["enrich", str(mei_lin), "-o", str(out),
                                       "--accept", "ambiguous", "--services", "arxiv"],
                                env=environment)
    assert result.stderr.splitlines()[-1] == (
        "refbridge: enrich: 2 record(s): 2 enriched; 0 from cache, 2 request(s)")
    stream = json.loads(out.read_text("utf-8"))[1]
    assert [a["family"] for a in stream["author"]] == ["Lin", "Baker"]


def test_offline_without_cache_writes_the_records_unchanged(
        mei_lin: Path, environment: dict[str, str], server: FixtureServer,
        tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["enrich", str(mei_lin), "-o", str(out), "--offline"],
                                env=environment)
    assert result.exit_code == 0, result.output
    assert server.log == []
    assert result.stderr.splitlines()[-1] == (
        "refbridge: enrich: 2 record(s): 2 not in the cache; 0 from cache, 0 request(s)")


def test_offline_says_once_per_record_what_the_cache_lacks(
        mei_lin: Path, environment: dict[str, str], tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["enrich", str(mei_lin), "-o", str(tmp_path / "out.json"),
                                       "--offline"], env=environment)
    assert result.stderr.splitlines() == [
        (f"{mei_lin}:1: not-cached: 'Learned Index Structures for Spatial Joins': no cached "
        "answer from arXiv, Crossref, OpenAlex (offline)"),
        (f"{mei_lin}:1: not-cached: 'Streaming Graph Partitioning': no cached answer from "
        "arXiv, Crossref, OpenAlex (offline)"),
        "refbridge: enrich: 2 record(s): 2 not in the cache; 0 from cache, 0 request(s)"]


def test_enrich_refuses_to_write_over_its_input_before_asking_anything(
        mei_lin: Path, environment: dict[str, str], server: FixtureServer) -> None:
    before = mei_lin.read_bytes()
    result = CliRunner().invoke(main, ["enrich", str(mei_lin), "-o", str(mei_lin)],
                                env=environment)
    assert (result.exit_code, result.stderr) == (
        1, f"refbridge: error: {mei_lin}: refusing to write over an input file\n")
    assert server.log == []
    assert mei_lin.read_bytes() == before


def test_enrichment_options_need_the_enrich_flag_on_convert(samples_dir: Path) -> None:
    result = CliRunner().invoke(main, ["convert", str(samples_dir / "qinwei-yang.profile.txt"),
                                       "--to", "csl-json", "--offline", "--overwrite"])
    assert result.exit_code == 2
    assert "use --enrich with --offline, --overwrite" in result.stderr


def test_an_unknown_service_is_a_clear_error(mei_lin: Path) -> None:
    result = CliRunner().invoke(main, ["enrich", str(mei_lin), "--services", "arxiv,scholar"])
    assert result.exit_code == 1
    assert result.stderr == ("refbridge: error: unknown service(s) scholar (known: arxiv, "
                             "crossref, openalex)\n")


def test_offline_cannot_refresh(mei_lin: Path) -> None:
    result = CliRunner().invoke(main, ["enrich", str(mei_lin), "--offline", "--refresh"])
    assert result.exit_code == 1
    assert result.stderr == ("refbridge: error: offline mode answers from the cache: "
                             "it cannot be combined with --refresh or --no-cache\n")
