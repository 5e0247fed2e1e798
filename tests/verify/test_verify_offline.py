"""``verify`` and ``upgrade`` without a network: a service that cannot be reached (refused, or
accepting connections and never answering) is asked once, said once, and the run ends within
about the timeout, with one message per service and one line per entry."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from refbridge.cli import main
from refbridge.services.settings import SERVICE_ENDPOINTS

pytestmark = pytest.mark.usefixtures("no_remote_network")

LIBRARY = """\
@article{lin2022index, title = {Learned Index Structures for Spatial Joins},
  author = {Lin, Mei}, journal = {TODS}, year = {2022}, doi = {10.1145/3514221.3517850}}
@article{baker2021butterflies, title = {Fast Approximate Counting of Butterflies},
  author = {Baker, Hannah}, year = {2021}, doi = {10.1016/j.jcss.2021.04.002}}
@article{rossi2020cqa, title = {Consistent Query Answering over Graph Databases},
  author = {Rossi, Giulia}, year = {2020}}
@misc{qian2023truss, title = {Higher-Order Truss Decomposition in Graphs},
  author = {Qian, Zhengping}, year = {2023}, eprint = {2301.01234}, archivePrefix = {arXiv}}
@article{novak2024quantum, title = {Quantum Speedups for Relational Join Processing},
  author = {Nov{\\'a}k, Petr}, year = {2024}}
@misc{silva2023roads, title = {Road Network Snapshots of Lisbon}, author = {Silva, Ana},
  year = {2023}, doi = {10.5281/zenodo.7654321}}
"""
SERVICES = ("Crossref", "DataCite", "OpenAlex", "dblp", "arXiv")
UPGRADE_SUMMARY = ("refbridge: upgrade: 0 of 6 entries upgraded; 6 entries: 6 unreachable; 0 "
                   "from cache, 1 request(s)")


@pytest.fixture
def refused() -> str:
    """The address of a local port with nothing listening."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{closed.getsockname()[1]}"


@pytest.fixture
def silent() -> Iterator[str]:
    """The address of a local server that accepts connections and never answers."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(64)
        yield f"127.0.0.1:{listening.getsockname()[1]}"


def _run(command: str, host: str, tmp_path: Path) -> tuple[Result, float]:
    library = tmp_path / "refs.bib"
    library.write_text(LIBRARY, encoding="utf-8")
    environment = {f"REFBRIDGE_{service.upper()}_API": f"http://{host}/{service}"
                   for service in SERVICE_ENDPOINTS}
    environment |= {"REFBRIDGE_CACHE_DIR": str(tmp_path / "cache"),
                    "REFBRIDGE_REQUEST_INTERVAL": "0"}
    output = ["-o", str(tmp_path / "upgraded.bib")] if command == "upgrade" else []
    started = time.monotonic()
    result = CliRunner().invoke(main, [command, str(library), *output, "--timeout", "1"],
                                env=environment)
    return result, time.monotonic() - started


def _expected(command: str, host: str, problem: str) -> list[str]:
    return [f"refbridge: {command}: cannot reach {name} at {host} ({problem}); check the "
            "network connection, or use --offline to work from cached answers only"
            for name in SERVICES]


def test_verify_with_nothing_listening_says_each_service_once(refused: str,
                                                              tmp_path: Path) -> None:
    result, seconds = _run("verify", refused, tmp_path)
    assert seconds < 5
    assert result.exit_code == 4
    assert result.stderr.splitlines() == [
        *_expected("verify", refused, "[Errno 111] Connection refused"),
        "refbridge: verify: 6 entries: 6 unreachable; 0 from cache, 1 request(s)"]
    lines = result.stdout.splitlines()
    assert len(lines) == 6
    assert lines[0] == (f"{tmp_path / 'refs.bib'}:1: unreachable: lin2022index: not checked "
                        "at Crossref, DataCite, OpenAlex, dblp, arXiv: unreachable in this run")


def test_verify_against_a_server_that_never_answers_ends_within_the_timeout(
        silent: str, tmp_path: Path) -> None:
    result, seconds = _run("verify", silent, tmp_path)
    assert seconds < 5
    assert result.exit_code == 4
    assert result.stderr.splitlines() == [
        *_expected("verify", silent, "no complete answer within 1 s"),
        "refbridge: verify: 6 entries: 6 unreachable; 0 from cache, 1 request(s)"]
    assert len(result.stdout.splitlines()) == 6


def test_upgrade_with_nothing_listening_says_each_service_once(refused: str,
                                                               tmp_path: Path) -> None:
    result, seconds = _run("upgrade", refused, tmp_path)
    assert seconds < 5
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        *_expected("upgrade", refused, "[Errno 111] Connection refused"),
        UPGRADE_SUMMARY]


def test_upgrade_against_a_server_that_never_answers_ends_within_the_timeout(
        silent: str, tmp_path: Path) -> None:
    result, seconds = _run("upgrade", silent, tmp_path)
    assert seconds < 5
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        *_expected("upgrade", silent, "no complete answer within 1 s"),
        UPGRADE_SUMMARY]
