"""Shared fixtures: the repository's samples, ../shared when present, and external tools.

Tests that need ../shared or an external program skip with a reason when it is absent, so a
plain ``pytest`` on a clone passes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHARED = ROOT.parent / "shared"
REFERENCE_NODE_MODULES = Path.home() / ".cache" / "refbridge-reference-js" / "node_modules"


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repository; the test is skipped when it is not there."""
    if not SHARED.is_dir():
        pytest.skip(f"reference material not found at {SHARED}")
    return SHARED


def requires_tool(*names: str) -> pytest.MarkDecorator:
    """Skip the test unless every program in ``names`` is on PATH."""
    missing = [n for n in names if shutil.which(n) is None]
    return pytest.mark.skipif(bool(missing), reason=f"needs {', '.join(missing)} on PATH")


def requires_reference_js() -> pytest.MarkDecorator:
    """Skip unless node and the reference npm packages (../shared/tools/setup-js.sh) exist."""
    ok = shutil.which("node") is not None and REFERENCE_NODE_MODULES.is_dir()
    return pytest.mark.skipif(not ok, reason="needs node and ../shared/tools/setup-js.sh")
