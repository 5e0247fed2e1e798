"""The layers of docs/architecture.md: which modules may import which."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import ROOT

PACKAGE = ROOT / "src" / "refbridge"

#: The first layer: the model and what it is made of.
MODEL_LAYER = ("model", "richtext", "vocab", "errors", "names", "latex", "identifiers", "sameness",
               "arxiv_taxonomy", "citekeys", "keylock", "textio", "textlines", "entrypoints",
               "retrying")
#: What a format module must never import.
ABOVE_FORMATS = ("pipeline", "parallel", "cli", "merge", "check", "formatting", "styles", "cv",
                 "enrich", "fetch", "zotero_bridge", "tidy", "dedupe", "bibmerge", "libdiff",
                 "index", "sharding")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> Iterator[str]:
    """The refbridge modules ``path`` imports, anywhere in it (also inside functions)."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.startswith("refbridge"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("refbridge"):
                for alias in node.names:
                    yield f"{target}.{alias.name}" if target in ("refbridge",
                                                                 "refbridge.formats") \
                        else target


def _part(module: str) -> str:
    """The top-level part of the package a module belongs to (``formats``, ``model`` ...)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _modules(*parts: str) -> list[Path]:
    found = []
    for part in parts:
        folder = PACKAGE / part
        found += sorted(folder.rglob("*.py")) if folder.is_dir() else [PACKAGE / f"{part}.py"]
    return [path for path in found if path.exists()]


def _violations(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [f"{_module_name(path)} imports {target}" for path in paths
            for target in _imports(path) if _part(target) in forbidden]


def _in_cli(path: Path) -> bool:
    return path.relative_to(PACKAGE).parts[0] == "cli"


def test_nothing_imports_the_command_line() -> None:
    users = [path for path in PACKAGE.rglob("*.py")
             if path.name != "__main__.py" and not _in_cli(path)]
    assert _violations(users, ("cli",)) == []


def test_nothing_below_the_faces_imports_the_python_face() -> None:
    faces = {"api.py", "interop.py", "__main__.py"}
    below = [path for path in PACKAGE.rglob("*.py") if not _in_cli(path)
             and path.relative_to(PACKAGE).as_posix() not in faces | {"__init__.py"}]
    assert _violations(below, ("api", "interop")) == []


def test_the_model_layer_imports_nothing_above_it() -> None:
    everything = {_part(_module_name(path)) for path in PACKAGE.rglob("*.py")}
    above = tuple(sorted(everything - set(MODEL_LAYER) - {""}))
    assert _violations(_modules(*MODEL_LAYER), above) == []


def test_a_format_never_imports_the_pipeline_a_job_or_the_command_line() -> None:
    assert _violations(_modules("formats"), ABOVE_FORMATS) == []


def test_the_csl_engine_imports_only_the_model_layer() -> None:
    engine = [target for path in _modules("csl") for target in _imports(path)]
    assert sorted({_part(t) for t in engine} - {"csl"} - set(MODEL_LAYER)) == []


@pytest.mark.parametrize("module", ["parallel", "runs", "registry"])
def test_what_the_pipeline_calls_never_imports_the_pipeline(module: str) -> None:
    assert _violations(_modules(module), ("pipeline",)) == []
