"""``refbridge upgrade``: certain preprints replaced by their published versions, every other
byte of the .bib kept."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from verify_support import LIBRARY, verify_services, write_library

from refbridge.cli import main

pytestmark = pytest.mark.usefixtures("no_remote_network")


@pytest.fixture
def environment(tmp_path: Path) -> Iterator[dict[str, str]]:
    with verify_services() as server:
        yield {**server.environment(), "REFBRIDGE_CACHE_DIR": str(tmp_path / "cache"),
               "REFBRIDGE_REQUEST_INTERVAL": "0"}


def _upgrade(tmp_path: Path, environment: dict[str, str], *options: str) -> tuple[str, str]:
    library = write_library(tmp_path)
    out = tmp_path / "upgraded.bib"
    result = CliRunner().invoke(main, ["upgrade", str(library), "-o", str(out), *options],
                                env=environment)
    assert result.exit_code == 0, result.output
    return (out.read_text("utf-8") if out.exists() else ""), result.stderr


def _entries(text: str) -> dict[str, str]:
    """Each entry's text by key (from its ``@`` to the next one)."""
    pieces = text.split("\n@")
    return {piece.split("{", 1)[1].split(",", 1)[0]: piece for piece in pieces[1:]}


def test_the_certain_preprints_become_their_published_versions(
        tmp_path: Path, environment: dict[str, str]) -> None:
    upgraded, _ = _upgrade(tmp_path, environment)
    entries = _entries(upgraded)
    assert entries["qian2023truss"].startswith("article{qian2023truss,")
    assert "journal = {Proceedings of the VLDB Endowment}" in entries["qian2023truss"]
    assert "doi = {10.14778/3583140.3583150}" in entries["qian2023truss"]
    assert "eprint = {2301.01234}" in entries["qian2023truss"]
    assert "note = {Extended version}" in entries["qian2023truss"]
    assert "journal = {Proc. ACM Manag. Data}" in entries["lin2024stream"]


def test_every_other_entry_keeps_every_byte(tmp_path: Path,
                                            environment: dict[str, str]) -> None:
    upgraded, _ = _upgrade(tmp_path, environment)
    before, after = _entries(LIBRARY), _entries(upgraded)
    assert list(after) == list(before)  # none dropped, none duplicated, same order
    for key in set(before) - {"qian2023truss", "lin2024stream"}:
        assert after[key] == before[key]
    assert upgraded.startswith(LIBRARY.split("\n@article{lin2022index")[0])


def test_the_report_gives_each_upgrade_its_confidence(tmp_path: Path,
                                                       environment: dict[str, str]) -> None:
    _, stderr = _upgrade(tmp_path, environment)
    lines = stderr.splitlines()
    assert lines[0] == (f"{tmp_path / 'refs.bib'}:47: upgraded: qian2023truss: "
                        "10.14778/3583140.3583150 (confidence 1.00)")
    assert lines[-1].startswith("refbridge: upgrade: 2 of 8 entries upgraded; ")


def test_dry_run_prints_a_diff_and_writes_nothing(tmp_path: Path,
                                                  environment: dict[str, str]) -> None:
    library = write_library(tmp_path)
    out = tmp_path / "upgraded.bib"
    result = CliRunner().invoke(main, ["upgrade", str(library), "-o", str(out), "--dry-run"],
                                env=environment)
    assert result.exit_code == 0, result.output
    assert not out.exists()
    diff = result.stdout
    assert diff.startswith(f"--- a/{library}:47 qian2023truss\n+++ b/{library}:47 "
                           "qian2023truss\n")
    assert "-@misc{qian2023truss,\n" in diff
    assert "+@article{qian2023truss,\n" in diff


def test_a_failed_service_leaves_no_output_half_written(tmp_path: Path,
                                                        environment: dict[str, str]) -> None:
    library = write_library(tmp_path)
    out = tmp_path / "upgraded.bib"
    result = CliRunner().invoke(main, ["upgrade", str(library), "-o", str(out),
                                       "--retries", "0", "--arxiv-api",
                                       "http://127.0.0.1:9/arxiv"], env=environment)
    assert result.exit_code == 1
    assert "unreachable" in result.stderr


@pytest.mark.skipif(shutil.which("bibtex") is None, reason="bibtex is not installed")
def test_bibtex_prints_the_entries_not_upgraded_as_before(
        tmp_path: Path, environment: dict[str, str]) -> None:
    upgraded, _ = _upgrade(tmp_path, environment)

    def bbl(text: str, name: str) -> list[str]:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "refs.bib").write_text(text, "utf-8")
        (folder / "doc.aux").write_text("\\citation{*}\n\\bibstyle{plain}\n\\bibdata{refs}\n")
        subprocess.run(["bibtex", "doc"], cwd=folder, check=True, capture_output=True)
        return (folder / "doc.bbl").read_text("utf-8").split("\n\n")

    before, after = bbl(LIBRARY, "before"), bbl(upgraded, "after")
    kept = [item for item in before if "qian2023truss" not in item and
            "lin2024stream" not in item]
    assert all(item in after for item in kept)
    assert len(after) == len(before)
