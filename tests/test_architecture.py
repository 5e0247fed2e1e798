"""The layers of docs/architecture.md, checked on the import graph of the real code.

The graph is read with ``ast`` from every module under ``src/refbridge``: every ``import`` and
``from ... import`` of a refbridge module, at the top, inside functions and inside
``if TYPE_CHECKING:`` blocks. An import made only for type checking counts: a type from another
module is a dependency on it as much as a call is, and a circle through annotations is still a
circle of ideas. ``from package import name`` is an edge to the submodule ``package.name`` when
there is one, else to the package. Importing a submodule also runs its package's
``__init__``; that implicit edge does not count (it would make every package a circle).

The layers and rules come from the document itself: its table of layers (which modules form
each layer) and its table of what each job offers other jobs are parsed here, so the document
is the single source; the rules written as sentences are each one test below, and a test checks
that every rule marked **(checked)** in the document has a test that names it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from support import ROOT

PACKAGE = ROOT / "src" / "refbridge"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


# -- the import graph ------------------------------------------------------------------------
def _module_name(path: Path) -> str:
    """``refbridge.formats.bibtex.reader`` for its file; a package's ``__init__`` is the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
            or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """The refbridge modules ``module`` imports (with the line), wherever the import is."""
    modules = _modules()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                       else source for alias in node.names]
        for target in targets:
            if target.split(".")[0] != "refbridge":
                continue
            while target not in modules:  # ``refbridge.x.name``: the module ``refbridge.x``
                target = target.rpartition(".")[0]
            if target != module:
                yield target, node.lineno


@cache
def import_graph() -> dict[str, dict[str, int]]:
    """Module -> the modules it imports -> the first line that does (TYPE_CHECKING included:
    ``ast.walk`` sees the bodies of ``if TYPE_CHECKING:`` as it sees any other)."""
    graph: dict[str, dict[str, int]] = {}
    for module, path in _modules().items():
        edges: dict[str, int] = {}
        for target, line in _imported(module, path):
            edges.setdefault(target, line)
        graph[module] = edges
    return graph


def test_imports_inside_functions_and_type_checking_blocks_are_edges() -> None:
    graph = import_graph()
    assert "refbridge.formats.bibtex.shards" in graph["refbridge.formats.bibtex.reader"]  # lazy
    assert "refbridge.api" in graph["refbridge"]  # only under ``if TYPE_CHECKING:``


# -- the document's tables -------------------------------------------------------------------
def _section(title: str) -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start: end if end != -1 else len(text)]


def _table_rows(section: str) -> list[list[str]]:
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("|")]
    return [row for row in rows[2:]]  # past the heading and the rule


_CODE = re.compile(r"`([^`]+)`")


@cache
def layers() -> dict[str, tuple[int, str]]:
    """What the document's layer table names (``formats/``, ``formats/catalogue``, ``model``;
    ``__init__``: the package's own) -> (layer number, row name); what its sentence "Outside the
    layers, ..." names -> (``OUTSIDE``, "outside")."""
    section = _section("The layers, from the bottom")
    named: dict[str, tuple[int, str]] = {}
    for row in _table_rows(section):
        number, _, name = row[0].partition(". ")
        for part in _CODE.findall(row[1]):
            assert part not in named, f"{part} is in two rows of the layer table"
            named[part] = (int(number), name)
    outside = re.search(r"^Outside the layers, (.*?)(?:\n\n|\Z)", section,
                        re.MULTILINE | re.DOTALL)
    for part in _CODE.findall(outside.group(1).split(" holds ")[0]) if outside else ():
        named[part] = (OUTSIDE, "outside")
    return named


def layer_of(module: str) -> tuple[int, str]:
    """The layer of a module: the table's most specific entry that covers it (``x/`` covers the
    package ``x`` and all in it; ``x`` the module ``x``, or the package ``x`` and all in it)."""
    relative = module.split(".")[1:]
    if not relative:
        return layers()["__init__"]
    for length in range(len(relative), 0, -1):
        path = "/".join(relative[:length])
        if path + "/" in layers():
            return layers()[path + "/"]
        if path in layers() and (length == len(relative) or (PACKAGE / path).is_dir()):
            return layers()[path]
    raise AssertionError(f"{module} is in no layer of docs/architecture.md")


@cache
def job_faces() -> dict[str, frozenset[str]]:
    """Job (as the layer table names it, ``cv/``) -> the modules other jobs may import."""
    faces: dict[str, frozenset[str]] = {}
    for row in _table_rows(_section("What a job offers other jobs")):
        job = _CODE.findall(row[0])[0]
        assert job.endswith("/"), f"{job}: a job of one module offers it whole"
        faces[job] = frozenset(_CODE.findall(row[1]))
    return faces


def _job_of(module: str) -> str | None:
    """The job a module belongs to (``cv/``, ``merge``), or None below or above the jobs."""
    number, _ = layer_of(module)
    if number != JOBS:
        return None
    first = module.split(".")[1]
    return first + "/" if first + "/" in layers() else first


def _dotted(part: str) -> str:
    """``cv/writers/html`` -> ``refbridge.cv.writers.html``; ``cv/`` -> ``refbridge.cv``."""
    return "refbridge." + part.rstrip("/").replace("/", ".")


OUTSIDE, MODEL, REGISTRY, FORMATS, PIPELINE, JOBS, FACES = 0, 1, 2, 3, 4, 5, 6


def _edges() -> Iterator[tuple[str, str, int]]:
    for module, targets in import_graph().items():
        for target, line in targets.items():
            yield module, target, line


def _where(module: str, line: int) -> str:
    return f"{_modules()[module].relative_to(ROOT)}:{line}"


def test_every_module_is_in_one_layer_of_the_document() -> None:
    for module in _modules():
        layer_of(module)  # raises naming the module


def test_every_entry_of_the_layer_table_names_code_that_exists() -> None:
    for entry in layers():
        if entry == "__init__":
            continue
        path = PACKAGE / entry.rstrip("/")
        assert path.is_dir() or not entry.endswith("/") and path.with_suffix(".py").is_file(), \
            entry


# -- the rules -------------------------------------------------------------------------------
def test_a_module_imports_only_from_its_own_layer_or_the_layers_below() -> None:
    """Rule: A module imports only from its own layer or the layers below it; two rows with the
    same number are beside each other, and neither imports the other."""
    wrong = []
    for module, target, line in _edges():
        (mine, my_row), (theirs, their_row) = layer_of(module), layer_of(target)
        if mine == OUTSIDE:
            continue  # a development tool may import any layer (and nothing imports it)
        if theirs == OUTSIDE or theirs > mine or theirs == mine and my_row != their_row:
            wrong.append(f"{_where(module, line)}: {module} ({my_row}) imports {target} "
                         f"({their_row})")
    assert wrong == []


def _in_cli(module: str) -> bool:
    return module == "refbridge.cli" or module.startswith("refbridge.cli.")


def test_nothing_imports_cli() -> None:
    """Rule: Nothing imports `cli` (only `__main__` and `cli`'s own modules)."""
    assert [f"{_where(m, line)}: {m} imports {t}" for m, t, line in _edges()
            if _in_cli(t) and not _in_cli(m) and m != "refbridge.__main__"] == []


def test_nothing_below_layer_6_imports_api_or_interop() -> None:
    """Rule: Nothing below layer 6 imports `api` or `interop`."""
    assert [f"{_where(m, line)}: {m} imports {t}" for m, t, line in _edges()
            if t in ("refbridge.api", "refbridge.interop")
            and OUTSIDE < layer_of(m)[0] < FACES] == []


def test_import_refbridge_imports_no_module_of_the_package() -> None:
    """Rule: `import refbridge` imports no module of the package: the names it exports (and
    `__version__`) are imported on first use. (Its imports of refbridge are for type checkers
    only; ``tests/test_api.py`` checks what a run loads.)"""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    run_time = [node.lineno for node in tree.body
                if isinstance(node, (ast.Import, ast.ImportFrom))
                and "refbridge" in ast.unparse(node)]
    assert run_time == []


def test_the_model_layer_imports_nothing_above_it() -> None:
    """Rule: The model layer imports nothing above it."""
    assert [f"{_where(m, line)}: {m} imports {t}" for m, t, line in _edges()
            if layer_of(m)[0] == MODEL and layer_of(t)[0] > MODEL] == []


def test_a_format_never_imports_the_pipeline_a_job_or_the_command_line() -> None:
    """Rule: A format module never imports the pipeline, a job or the command line."""
    assert [f"{_where(m, line)}: {m} imports {t}" for m, t, line in _edges()
            if layer_of(m) == (FORMATS, "formats") and layer_of(t)[0] >= PIPELINE] == []


def test_the_csl_engine_imports_only_the_model_layer() -> None:
    """Rule: The CSL engine imports only the model layer."""
    assert [f"{_where(m, line)}: {m} imports {t}" for m, t, line in _edges()
            if layer_of(m)[1] == "CSL engine" and layer_of(t)[1] not in ("model", "CSL engine")
            ] == []


def test_parallel_never_imports_pipeline() -> None:
    """Rule: `parallel` never imports `pipeline`."""
    assert "refbridge.pipeline" not in import_graph()["refbridge.parallel"]


def test_registry_and_the_catalogue_never_import_a_format_module() -> None:
    """Rule: `registry` and `formats/catalogue` never import a format module: a command imports
    exactly the reader and writer it uses. (They load one by name;
    ``tests/formats/test_catalogue.py`` checks what a run loads.)"""
    wrong = [f"{_where(m, line)}: {m} imports {t}" for m, t, line in _edges()
             if m in ("refbridge.registry", "refbridge.formats.catalogue")
             and layer_of(t)[0] == FORMATS]
    assert wrong == []


def test_nothing_below_the_jobs_imports_a_job() -> None:
    """Rule: Nothing below the jobs imports a job."""
    assert [f"{_where(m, line)}: {m} imports {t}" for m, t, line in _edges()
            if OUTSIDE < layer_of(m)[0] < JOBS and layer_of(t)[0] == JOBS] == []


def test_no_job_imports_another_jobs_internals() -> None:
    """Rule: A job imports of another job only what the job offers (the table below)."""
    wrong = []
    for module, target, line in _edges():
        mine, theirs = _job_of(module), _job_of(target)
        if mine is None or theirs is None or mine == theirs:
            continue
        if not theirs.endswith("/"):
            continue  # a job of one module offers that module
        offered = {_dotted(theirs)} | {_dotted(theirs + face) for face in job_faces()[theirs]}
        if target not in offered:
            wrong.append(f"{_where(module, line)}: {module} imports {target}, which "
                         f"{theirs} does not offer")
    assert wrong == []


def test_what_a_job_offers_exists_and_is_a_job() -> None:
    for job, faces in job_faces().items():
        assert layers().get(job, (0, ""))[0] == JOBS, job
        for face in faces:
            assert _dotted(job + face) in _modules(), f"{job}{face}"


def _cycles() -> list[list[str]]:
    """Every strongly connected group of modules larger than one, each as one circle through
    it (module -> ... -> the same module)."""
    graph = {m: sorted(t) for m, t in import_graph().items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)

    for module in graph:
        if module not in index:
            visit(module)
    return [_circle(group, graph) for group in groups]


def _circle(group: set[str], graph: dict[str, list[str]]) -> list[str]:
    """A shortest circle from the group's first module back to it, inside the group."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in graph[node]:
            if target == start:
                return paths[node] + [start]
            if target in group and target not in paths:
                paths[target] = paths[node] + [target]
                queue.append(target)
    raise AssertionError(group)


def test_no_import_circle_between_modules() -> None:
    """Rule: No module imports itself through others (no import circle)."""
    circles = [" -> ".join(circle) for circle in _cycles()]
    assert circles == []


def test_the_circle_finder_reports_a_circle() -> None:
    graph = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}
    assert _circle({"a", "b", "c"}, graph) == ["a", "b", "c", "a"]


def test_every_checked_rule_of_the_document_has_its_test() -> None:
    """Each rule marked **(checked)** names, in its first words, the test that checks it: a
    test's docstring starts with ``Rule:`` and the rule's text up to the first full stop."""
    bullets = [" ".join(bullet.split()) for bullet in _section("Rules").split("\n- ")[1:]]
    checked = [bullet.split(" **(checked)**")[0] for bullet in bullets
               if "**(checked)**" in bullet]
    tested = {" ".join((test.__doc__ or "").split()).removeprefix("Rule: ").split(".")[0]
              for name, test in globals().items() if name.startswith("test_")}
    missing = [rule for rule in checked if rule.split(".")[0] not in tested]
    assert checked and missing == []


@pytest.mark.parametrize("module", sorted(_modules()))
def test_every_module_has_a_docstring(module: str) -> None:
    """Rule: Every module has a docstring."""
    assert ast.get_docstring(ast.parse(_modules()[module].read_text(encoding="utf-8")))
