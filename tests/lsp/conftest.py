"""Every language-server test keeps the server's index cache in its own folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder ``REFBRIDGE_CACHE_DIR`` names for the test (and the server it starts)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(folder))
    return folder
