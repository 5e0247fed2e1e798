"""Markers and fixtures of the CSL style tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from refbridge.styles.catalogue import catalogue_index


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "csl_parity: compares the CSL engine with citeproc-js fixtures "
                   "(deselect with -m 'not csl_parity')")


@pytest.fixture(scope="session")
def catalogue_index_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The catalogue's index file (``refbridge.styles.catalogue``), built once per session:
    scanning the ten thousand styles of the catalogue costs a second of CPU each time."""
    folder = tmp_path_factory.mktemp("catalogue-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REFBRIDGE_CACHE_DIR", str(folder))
        catalogue_index()
    (index,) = folder.glob("csl-catalogue-*.json")
    return index


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  catalogue_index_file: Path) -> Path:
    """A cache folder of the test's own, holding the catalogue's index (no style path from the
    environment)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(catalogue_index_file, cache)
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(cache))
    monkeypatch.delenv("REFBRIDGE_STYLE_PATH", raising=False)
    return cache
