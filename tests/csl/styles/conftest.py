"""Markers of the CSL style tests."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "csl_parity: compares the CSL engine with citeproc-js fixtures "
                   "(deselect with -m 'not csl_parity')")
