"""Fixtures shared by every test: the repository's samples and ../shared when present."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import SAMPLES, SHARED


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repository; the test is skipped when it is not there."""
    if not SHARED.is_dir():
        pytest.skip(f"reference material not found at {SHARED}")
    return SHARED
