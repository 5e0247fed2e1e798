"""Test helpers importable from every test module (``from support import ...``).

Paths of the repository, its samples and ../shared, and markers that skip a test with a reason
when ../shared or an external tool is missing, so a plain ``pytest`` on a clone passes.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import HTTPServer
from pathlib import Path
from typing import TypeVar

import pytest

import refbridge
from refbridge.errors import Diagnostics
from refbridge.model import Record

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHARED = ROOT.parent / "shared"
FIXTURES = ROOT / "tests" / "fixtures"
#: whether the refbridge under test is this checkout's source (an editable install), not an
#: installed copy (the compiled build's run imports it from site-packages)
FROM_CHECKOUT = Path(refbridge.__file__).resolve().parent == ROOT / "src" / "refbridge"


def compiled(module: object) -> bool:
    """Whether ``module`` is native code built by mypyc (its methods cannot be patched)."""
    return not str(getattr(module, "__file__", "")).endswith(".py")
REFERENCE_NODE_MODULES = Path.home() / ".cache" / "refbridge-reference-js" / "node_modules"



def run_cli(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    """``refbridge ARGS`` run in this process (click's runner): exit status, standard output,
    standard error."""
    from click.testing import CliRunner

    from refbridge.cli import main

    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def requires_tool(*names: str) -> pytest.MarkDecorator:
    """Skip the test unless every program in ``names`` is on PATH."""
    missing = [n for n in names if shutil.which(n) is None]
    return pytest.mark.skipif(bool(missing), reason=f"needs {', '.join(missing)} on PATH")


def requires_reference_js() -> pytest.MarkDecorator:
    """Skip unless node and the reference npm packages (../shared/tools/setup-js.sh) exist."""
    ok = shutil.which("node") is not None and REFERENCE_NODE_MODULES.is_dir()
    return pytest.mark.skipif(not ok, reason="needs node and ../shared/tools/setup-js.sh")


def biblatex_examples() -> Path:
    """TeX Live's biblatex-examples.bib; the test is skipped when TeX Live does not have it."""
    return tex_live_library("biblatex-examples.bib")


def tex_live_library(name: str) -> Path:
    """A .bib TeX Live ships (found with kpsewhich); the test is skipped when it is absent."""
    if shutil.which("kpsewhich") is None:
        pytest.skip(f"needs kpsewhich (TeX Live) to find {name}")
    found = subprocess.run(["kpsewhich", name], capture_output=True,
                           text=True, check=False).stdout.strip()
    if not found:
        pytest.skip(f"{name} is not installed (texlive-bibtex-extra)")
    return Path(found)


ServerT = TypeVar("ServerT", bound=HTTPServer)


@contextmanager
def running(server: ServerT) -> Iterator[ServerT]:
    """``server`` answering on a thread of its own until the block ends (local fakes of web
    services)."""
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def records_of(*paths: Path, diagnostics: Diagnostics | None = None) -> list[Record]:
    """The records of ``paths``, read as ``refbridge`` reads its inputs (format detected)."""
    from refbridge.pipeline import read_records

    return list(read_records([str(path) for path in paths], diagnostics or Diagnostics()))


@contextmanager
def mounted(directory: Path, *options: str) -> Iterator[Path]:
    """A small tmpfs at ``directory`` (skipped where this user cannot mount one)."""
    directory.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs",
                           str(directory)], capture_output=True, check=False)
    if done.returncode:
        pytest.skip("needs to mount a tmpfs (root, a system that allows it)")
    try:
        yield directory
    finally:
        subprocess.run(["umount", str(directory)], check=False)
