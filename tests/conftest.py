"""Fixtures shared by every test: the repository's samples, ../shared when present, and the
local stand-in for the services enrichment asks."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from enrich_support import FixtureData, FixtureServer, forbid_remote_connections, serving
from hypothesis import HealthCheck, settings
from support import ROOT, SAMPLES, SHARED

# Bytecode is cached while the suite runs, even where the environment says otherwise
# (PYTHONDONTWRITEBYTECODE): without it every command the tests start as a process of its own
# compiles refbridge and its libraries again (0.38 s against 0.16 s for one convert), and
# each worker rewrites every test module's asserts again. Set before the workers start, so
# they and the processes they start inherit it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# Property tests: a fast profile for everyday runs, thousands of examples on request
# (``--hypothesis-profile=thorough`` or ``REFBRIDGE_THOROUGH=1``).
settings.register_profile("fast", max_examples=200, deadline=None)
settings.register_profile("thorough", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("thorough" if os.environ.get("REFBRIDGE_THOROUGH") else "fast")


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repository; the test is skipped when it is not there."""
    if not SHARED.is_dir():
        pytest.skip(f"reference material not found at {SHARED}")
    return SHARED


@pytest.fixture
def no_remote_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any connection beyond 127.0.0.1 fails the test (enrichment tests never leave the host)."""
    forbid_remote_connections(monkeypatch)


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    """The local arXiv, Crossref and OpenAlex stand-in, knowing the scenario works."""
    with serving(FixtureData("scenarios.atom", "works.json", "works.json")) as running:
        yield running


@pytest.fixture(scope="session")
def biber_setup(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """benchmarks/fidelity.py's ``BiberSetup`` (a .bcf biblatex wrote), made once; the test
    is skipped without TeX Live."""
    import shutil
    import sys

    for tool in ("bibtex", "biber", "pdflatex"):
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool} (TeX Live)")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from fidelity import BiberSetup

    return BiberSetup.make(tmp_path_factory.mktemp("biber-setup"))


@pytest.fixture(scope="session")
def spark_session() -> Iterator[Any]:
    """One local Spark session (``local[1]``) for every Spark test of the run, which the
    ``--engine spark`` jobs find and use; skipped without PySpark (the ``spark`` extra) or
    without Java."""
    import importlib.util
    import shutil

    if importlib.util.find_spec("pyspark") is None:
        pytest.skip("needs PySpark: pip install -e '.[spark]'")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs Java (17 or later) on PATH or in JAVA_HOME")
    from refbridge.spark import session

    spark = session("local[1]")
    yield spark
    spark.stop()
