"""refbridge's version is written in one place, ``refbridge/version.py`` (``refbridge.__version__``
hands it out): the packaging metadata
reads it from there (setuptools' ``attr:``, without importing the package, so the command line's
start pays nothing for it), and ``--version`` and the documentation show it."""

from __future__ import annotations

import importlib.metadata
import sys

from support import ROOT, run_cli

import refbridge

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]


def test_the_packaging_metadata_reads_the_version_from_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "refbridge.version.__version__"}


def test_the_installed_metadata_gives_the_package_version() -> None:
    assert importlib.metadata.version("refbridge") == refbridge.__version__


def test_the_command_line_shows_the_version() -> None:
    assert run_cli("--version") == (0, f"refbridge, version {refbridge.__version__}\n", "")
