"""Build hook: pure Python by default; with ``REFBRIDGE_COMPILE=1``, refbridge's hot modules
compiled with mypyc.

``pip install .`` installs pure Python in seconds. ``REFBRIDGE_COMPILE=1 pip install .`` makes
the modules in ``COMPILED`` (the .bib tokenizer, reader and writer, LaTeX decoding, rich text,
names, CSL-JSON and the CSL engine) C extensions beside their ``.py`` files, the same source
either way (mypy's compiler, mypyc, is a build requirement; a C compiler and Python's headers
must be there). The C files are compiled side by side on every CPU. Asked to compile, the build
fails when it cannot (no compiler, a module mypyc refuses) rather than ship pure Python
unnoticed. An editable install (``pip install -e .``) is always pure Python, so that a change to
a module takes effect without a rebuild. Everything else is in ``pyproject.toml``; this file
must never hold metadata, nor make the default (pure Python) build depend on a C compiler.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from setuptools import setup  # type: ignore[import-untyped]
from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

#: The modules mypyc compiles, under ``src/``: what a .bib conversion and a CSL rendering spend
#: their time in. The CSL engine is compiled whole: left as Python, its small modules (context,
#: locales, page ranges...) slowed an APA bibliography by about a tenth. The .bib dates, LaTeX
#: encoding and CSL markup are not: compiled, they made no conversion faster. ``csl/marked.py``
#: stays Python: its marked strings subclass ``str``, which mypyc does not compile.
COMPILED: tuple[str, ...] = (
    "refbridge/formats/bibtex/syntax.py",
    "refbridge/formats/bibtex/reader.py",
    "refbridge/formats/bibtex/writer.py",
    "refbridge/latex/decode.py",
    "refbridge/latex/symbols.py",
    "refbridge/richtext.py",
    "refbridge/inlines.py",
    "refbridge/names/bibtex.py",
    "refbridge/formats/csljson.py",
    "refbridge/csl/context.py",
    "refbridge/csl/nodes.py",
    "refbridge/csl/rendered.py",
    "refbridge/csl/names.py",
    "refbridge/csl/nameparts.py",
    "refbridge/csl/values.py",
    "refbridge/csl/processor.py",
    "refbridge/csl/formats.py",
    "refbridge/pageranges.py",
    "refbridge/csl/localization.py",
    "refbridge/csl/collation.py",
    "refbridge/csl/reach.py",
    "refbridge/rawdates.py",
    "refbridge/csl/notefield.py",
    "refbridge/csl/style.py",
)
#: The compiler, for ``setup_requires``.
MYPY = "mypy>=1.11"
#: The C compiler's optimisation level: -O3 made the compiled modules no faster than -O2.
OPT_LEVEL = "2"
#: Only these commands build the extensions; pip's metadata steps (egg_info, dist_info) run
#: setup.py too, and need not run mypyc for it.
BUILDING = frozenset({"build", "build_ext", "bdist_wheel", "install"})


def _say(message: str) -> None:
    print(f"refbridge build: {message}", file=sys.stderr)


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _side_by_side(compile_sources: Callable[..., list[str]], jobs: int) -> Callable[..., list[str]]:
    """``CCompiler.compile`` compiling its sources ``jobs`` at a time (largest first), each
    source as ``compile_sources`` would, the objects in the sources' order."""

    def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
        largest_first = sorted(sources, key=lambda source: -os.path.getsize(source))
        with ThreadPoolExecutor(jobs) as pool:
            objects = dict(zip(largest_first, pool.map(
                lambda source: compile_sources([source], *args, **kwargs), largest_first)))
        return [obj for source in sources for obj in objects[source]]

    return compile_all


class _ParallelBuildExt(build_ext):  # type: ignore[misc]
    """``build_ext`` compiling an extension's C files on every CPU (mypyc writes one per
    module; setuptools would compile them one after another)."""

    def build_extension(self, ext: Any) -> None:
        self.compiler.compile = _side_by_side(self.compiler.compile, _cpus())
        super().build_extension(ext)


def _compiling() -> bool:
    return os.environ.get("REFBRIDGE_COMPILE", "") not in ("", "0")


def _extensions() -> list[Any]:
    """The mypyc extensions when ``REFBRIDGE_COMPILE=1`` and a build step asks for them."""
    if not _compiling():
        return []
    if not BUILDING.intersection(sys.argv):  # metadata, or pip install -e (editable_wheel)
        return []
    from mypyc.build import mypycify

    _say(f"compiling {len(COMPILED)} modules with mypyc on {_cpus()} CPUs")
    # the build runs without refbridge's dependencies: their types are unknown (Any)
    options = ["--config-file", os.devnull, "--ignore-missing-imports"]
    return list(mypycify([*options, *(os.path.join("src", path) for path in COMPILED)],
                         opt_level=OPT_LEVEL, multi_file=True))


#: mypyc is a build requirement of the compiled build only (pip installs it into the build's
#: environment when setuptools asks for it); the pure build needs setuptools alone.
setup(ext_modules=_extensions(), cmdclass={"build_ext": _ParallelBuildExt},
      setup_requires=[MYPY] if _compiling() else [])
