"""``refbridge verify``: each entry of a library classified against the local services."""

from __future__ import annotations

import hashlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from enrich_support import FixtureData, FixtureServer, serving
from support import records_of
from verify_support import verify_services, write_library

from refbridge.cli import main
from refbridge.verify.classify import Verdict
from refbridge.verify.run import verify_records
from refbridge.verify.settings import VerifyOptions

pytestmark = pytest.mark.usefixtures("no_remote_network")


@pytest.fixture
def services() -> Iterator[FixtureServer]:
    with verify_services() as server:
        yield server


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return write_library(tmp_path)


def _options(server: FixtureServer, tmp_path: Path, **changes: object) -> VerifyOptions:
    settings: dict[str, object] = {
        "endpoints": server.endpoints(), "cache_dir": tmp_path / "cache", "backoff": 0.0,
        "intervals": dict.fromkeys(server.endpoints(), 0.0), "retries": 1, **changes}
    return VerifyOptions(**settings)  # type: ignore[arg-type]


def _verdicts(library: Path, options: VerifyOptions) -> dict[str, Verdict]:
    run = verify_records(records_of(library), options)
    return {v.record.citation_key or "": v for v in run.verdicts}


def _messages(verdict: Verdict) -> list[str]:
    return [f"{f.code}: {f.message}" for f in verdict.findings]


def test_each_entry_gets_its_verdict(library: Path, services: FixtureServer,
                                     tmp_path: Path) -> None:
    verdicts = _verdicts(library, _options(services, tmp_path))
    assert {key: v.status for key, v in verdicts.items()} == {
        "lin2022index": "verified", "baker2021butterflies": "retracted",
        "rossi2020cqa": "concern", "okafor2018sampling": "mismatch",
        "novak2024quantum": "not-found", "qian2023truss": "published",
        "lin2024stream": "published", "silva2023roads": "verified"}


def test_a_retraction_names_the_notice_and_retraction_watch(
        library: Path, services: FixtureServer, tmp_path: Path) -> None:
    verdict = _verdicts(library, _options(services, tmp_path))["baker2021butterflies"]
    assert _messages(verdict) == [
        ("retracted: retraction 10.1016/j.jcss.2023.05.001 of 2023-05-11 (says Retraction Watch "
        "record 44521)"),
        "retracted: retraction 10.1016/j.jcss.2023.05.001 of 2023-05-11 (says publisher)"]


def test_an_expression_of_concern_is_a_concern(library: Path, services: FixtureServer,
                                               tmp_path: Path) -> None:
    verdict = _verdicts(library, _options(services, tmp_path))["rossi2020cqa"]
    assert _messages(verdict) == [
        ("concern: expression of concern 10.1007/s00778-021-00650-z of 2021-01-20 (says "
        "publisher)")]


def test_a_mismatch_names_each_field_with_both_values(library: Path, services: FixtureServer,
                                                      tmp_path: Path) -> None:
    verdict = _verdicts(library, _options(services, tmp_path))["okafor2018sampling"]
    assert _messages(verdict) == [
        "mismatch: year: the entry has '2018', Crossref has '2019'",
        "mismatch: pages: the entry has '1310–1322', Crossref has '1310-1321'"]


def test_an_abbreviated_venue_is_no_mismatch(library: Path, services: FixtureServer,
                                             tmp_path: Path) -> None:
    verdict = _verdicts(library, _options(services, tmp_path))["okafor2018sampling"]
    assert "venue" not in {f.details.get("field") for f in verdict.findings}


def test_not_found_says_which_services_were_asked_and_how(
        library: Path, services: FixtureServer, tmp_path: Path) -> None:
    verdict = _verdicts(library, _options(services, tmp_path))["novak2024quantum"]
    assert _messages(verdict) == [
        ("not-found: no service knows this entry; asked: Crossref (DOI 10.9999/jid.2024.0042): "
        "not-found; DataCite (DOI 10.9999/jid.2024.0042): not-found; Crossref (title search): "
        "not-found; OpenAlex (title search): not-found; dblp (title search): not-found; "
        "arXiv (title search): not-found")]


def test_a_preprint_published_according_to_arxiv_is_certain(
        library: Path, services: FixtureServer, tmp_path: Path) -> None:
    verdict = _verdicts(library, _options(services, tmp_path))["qian2023truss"]
    assert _messages(verdict) == [
        ("published: published as 10.14778/3583140.3583150 in Proceedings of the VLDB Endowment "
        "(2023); Crossref, confidence 1.00, certain")]


def test_a_preprint_published_according_to_dblp(library: Path, services: FixtureServer,
                                                tmp_path: Path) -> None:
    verdict = _verdicts(library, _options(services, tmp_path))["lin2024stream"]
    assert _messages(verdict) == [
        ("published: published as 10.1145/3654141 in Proc. ACM Manag. Data (2024); dblp, "
        "confidence 1.00, certain")]


def test_a_dataset_doi_is_verified_at_datacite(library: Path, services: FixtureServer,
                                               tmp_path: Path) -> None:
    verdict = _verdicts(library, _options(services, tmp_path))["silva2023roads"]
    assert _messages(verdict) == [("verified: DataCite: datacite:10.5281/zenodo.7654321 "
                                  "(by identifier)")]
    assert services.requests_to("crossref") == [] or all(
        "zenodo" not in path for path, _ in services.requests_to("crossref"))


def test_a_server_error_is_unreachable_never_not_found(
        library: Path, services: FixtureServer, tmp_path: Path) -> None:
    services.fail_next("crossref", 500, 500)
    verdict = _verdicts(library, _options(services, tmp_path))["lin2022index"]
    assert next(f.code for f in verdict.findings) == "unreachable"
    assert "Crossref (DOI 10.1145/3514221.3517850): failed: Crossref kept failing" in \
        verdict.findings[0].message


def test_a_404_at_a_wrong_base_address_is_a_failure_and_not_cached(
        library: Path, services: FixtureServer, tmp_path: Path) -> None:
    wrong = {**services.endpoints(), "crossref": f"{services.url}/nowhere",
             "datacite": f"{services.url}/nowhere"}
    verdict = _verdicts(library, _options(services, tmp_path, endpoints=wrong))[
        "novak2024quantum"]
    assert verdict.status == "unreachable"
    assert "not-found" not in [f.code for f in verdict.findings]
    offline = _verdicts(library, _options(services, tmp_path, endpoints=wrong, offline=True))
    assert "no cached answer" in offline["novak2024quantum"].findings[0].message


def test_a_refused_connection_marks_the_service_down_for_the_run(
        library: Path, services: FixtureServer, tmp_path: Path) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    endpoints = {**services.endpoints(), "crossref": f"http://127.0.0.1:{port}"}
    run = verify_records(records_of(library), _options(services, tmp_path,
                                                       endpoints=endpoints))
    verdicts = {v.record.citation_key: v for v in run.verdicts}
    assert _messages(verdicts["lin2022index"])[0] == (
        "unreachable: not checked at Crossref: unreachable in this run")
    assert verdicts["novak2024quantum"].status == "unreachable"
    assert list(run.unreachable) == ["crossref"]
    assert run.unreachable["crossref"].startswith(f"cannot reach Crossref at 127.0.0.1:{port} (")


def test_a_timeout_is_unreachable(library: Path, services: FixtureServer,
                                  tmp_path: Path) -> None:
    services.stalls["datacite"] = 1.0
    verdict = _verdicts(library, _options(services, tmp_path, timeout=0.2, retries=0))[
        "silva2023roads"]
    assert verdict.status == "unreachable"


def test_a_second_run_asks_nothing(library: Path, services: FixtureServer,
                                   tmp_path: Path) -> None:
    _verdicts(library, _options(services, tmp_path))
    before = len(services.log)
    run = verify_records(records_of(library), _options(services, tmp_path, offline=True))
    assert len(services.log) == before
    assert run.requests == 0
    assert [v.status for v in run.verdicts][:2] == ["verified", "retracted"]


# -- the command ---------------------------------------------------------------------------
@pytest.fixture
def environment(services: FixtureServer, tmp_path: Path) -> dict[str, str]:
    return {**services.environment(), "REFBRIDGE_CACHE_DIR": str(tmp_path / "cache"),
            "REFBRIDGE_REQUEST_INTERVAL": "0"}


def test_verify_leaves_every_byte_of_the_library(library: Path,
                                                 environment: dict[str, str]) -> None:
    before = hashlib.sha256(library.read_bytes()).hexdigest()
    CliRunner().invoke(main, ["verify", str(library)], env=environment)
    assert hashlib.sha256(library.read_bytes()).hexdigest() == before


def test_verify_prints_a_line_per_finding_and_exits_4(library: Path,
                                                      environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["verify", str(library)], env=environment)
    assert result.exit_code == 4
    lines = result.stdout.splitlines()
    assert lines[0] == (f"{library}:4: verified: lin2022index: Crossref: "
                        "crossref:10.1145/3514221.3517850 (by identifier)")
    assert result.stderr.splitlines()[-1].startswith(
        "refbridge: verify: 8 entries: 1 retracted, 1 not-found, 1 mismatch, 1 concern, "
        "2 published, 2 verified; 0 from cache, ")


def test_fail_on_none_exits_0(library: Path, environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["verify", str(library), "--fail-on", "none"],
                                env=environment)
    assert result.exit_code == 0, result.output


def test_an_unknown_fail_on_is_a_usage_error(library: Path,
                                             environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["verify", str(library), "--fail-on", "fabricated"],
                                env=environment)
    assert result.exit_code == 2
    assert "unknown finding(s) fabricated" in result.stderr


def test_json_report_holds_every_entry_with_what_was_asked(
        library: Path, environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["verify", str(library), "--format", "json"],
                                env=environment)
    entries = json.loads(result.stdout)
    assert [e["status"] for e in entries][:3] == ["verified", "retracted", "concern"]
    assert entries[4]["asked"][0] == {"service": "crossref", "how": "DOI 10.9999/jid.2024.0042",
                                      "outcome": "not-found", "detail": ""}


def test_sarif_report_has_the_rules_and_locations(library: Path,
                                                  environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["verify", str(library), "--format", "sarif"],
                                env=environment)
    sarif = json.loads(result.stdout)
    run = sarif["runs"][0]
    assert run["tool"]["driver"]["name"] == "refbridge verify"
    retracted = next(r for r in run["results"] if r["ruleId"] == "retracted")
    assert retracted["level"] == "error"
    assert retracted["locations"][0]["physicalLocation"]["region"] == {"startLine": 14}


def test_github_report_is_workflow_commands(library: Path,
                                            environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["verify", str(library), "--format", "github"],
                                env=environment)
    assert f"::error file={library},line=39,title=not-found::" in result.stdout


def test_a_wrong_base_url_option_fails_the_run(library: Path, services: FixtureServer,
                                               environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["verify", str(library), "--retries", "0",
                                       "--dblp-api", f"{services.url}/nowhere",
                                       "--fail-on", "unreachable"], env=environment)
    assert result.exit_code == 4
    assert "dblp (title search): failed: dblp answered HTTP 404" in result.stdout


def test_cv_published_shows_a_preprint_as_its_published_version(
        library: Path, environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["cv", str(library), "--to", "markdown", "--published",
                                       "--owner", "Zhengping Qian"], env=environment)
    assert result.exit_code == 0, result.stderr
    truss = next(line for line in result.stdout.splitlines() if "Truss Decomposition" in line)
    assert truss == (
        "- \\[1\\] **Zhengping Qian**, Chenhao Wang and Rong-Hua Li. Higher-Order Truss "
        "Decomposition in Graphs. *Proceedings of the VLDB Endowment*, 16(5), 1001–1014, 2023. "
        "[DOI](<https://doi.org/10.14778/3583140.3583150>) "
        "[arXiv](<https://arxiv.org/abs/2301.01234>)")


def test_cv_without_published_keeps_the_preprint(library: Path,
                                                 environment: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["cv", str(library), "--to", "markdown",
                                       "--owner", "Zhengping Qian"], env=environment)
    truss = next(line for line in result.stdout.splitlines() if "Truss Decomposition" in line)
    assert "Proceedings of the VLDB Endowment" not in truss
    assert "2301.01234" in truss


PMID_ONLY = """\
@article{mensah2025storage,
  title = {Seasonal Drift in Household Water Storage and Vector Breeding Sites},
  author = {Mensah, Kofi and Owusu, Ama},
  journal = {Journal of Fixture Tropical Health},
  year = {2025},
  volume = {12},
  pages = {44--58},
  pmid = {39001234},
}
"""


def test_an_entry_with_only_a_pmid_is_verified_at_openalex_by_that_pmid(
        tmp_path: Path) -> None:
    library = tmp_path / "medical.bib"
    library.write_text(PMID_ONLY, encoding="utf-8")
    with serving(FixtureData(openalex="pmid.json")) as server:
        verdicts = _verdicts(library, _options(server, tmp_path))
        asked = server.requests_to("openalex")
    assert _messages(verdicts["mensah2025storage"]) == [
        "verified: OpenAlex: openalex:W9000000211 (by identifier)"]
    assert asked == [("/openalex/works/pmid:39001234", {})]
