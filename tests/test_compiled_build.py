"""The compiled build (``REFBRIDGE_COMPILE=1 pip install .``): the modules setup.py hands to mypyc
must type-check, or the build fails (it once fell back to pure Python silently, for an
``int | None`` passed on as ``int`` and a ``continue`` inside ``with``); and where the suite runs
against the compiled build (``REFBRIDGE_EXPECT_COMPILED=1``, as ``.ci/run`` does), those modules
are the compiled ones."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT


def _compiled_modules() -> list[str]:
    """The ``COMPILED`` list of setup.py, read without running setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in targets):
                assert node.value is not None
                return [str(ROOT / "src" / path) for path in ast.literal_eval(node.value)]
    raise AssertionError("setup.py has no COMPILED list")


def test_setup_names_modules_that_exist() -> None:
    modules = _compiled_modules()
    assert modules and [m for m in modules if not Path(m).is_file()] == []


def test_the_modules_mypyc_compiles_type_check(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="needs mypy (the test extra installs it)")
    result = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path),
                             *_compiled_modules()], cwd=ROOT, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout


def test_the_compiled_build_runs_the_compiled_modules() -> None:
    if os.environ.get("REFBRIDGE_EXPECT_COMPILED", "") in ("", "0"):
        pytest.skip("REFBRIDGE_EXPECT_COMPILED is not set (the suite runs on pure Python)")
    names = [os.path.relpath(path, ROOT / "src")[:-len(".py")].replace(os.sep, ".")
             for path in _compiled_modules()]
    pure = [name for name in names
            if str(importlib.import_module(name).__file__).endswith(".py")]
    assert pure == []
