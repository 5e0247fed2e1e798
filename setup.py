"""Build hook: compile refbridge's hot modules with mypyc when it can, else ship pure Python.

The modules in ``COMPILED`` (the .bib reader and writer, LaTeX, rich text, CSL-JSON and the CSL
engine) are the same source either way: with mypy's compiler (mypyc, a build requirement) and a C
compiler they become C extensions beside their ``.py`` files, three to four times faster; on any
failure (no C compiler, no Python headers, mypyc unable to compile a module) the build goes on
without them and the package is pure Python, as black ships itself. ``REFBRIDGE_PURE_PYTHON=1``
forces pure Python; an editable install (``pip install -e .``) is always pure Python, so that a
change to a module takes effect without a rebuild. Everything else is in ``pyproject.toml``.
This file must never hold metadata or make a build fail.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup  # type: ignore[import-untyped]
from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

#: The modules mypyc compiles, under ``src/``: what a .bib conversion and a CSL rendering spend
#: their time in. ``csl/marked.py`` stays Python: its marked strings subclass ``str``, which
#: mypyc does not compile.
COMPILED: tuple[str, ...] = (
    "refbridge/formats/bibtex/syntax.py",
    "refbridge/formats/bibtex/reader.py",
    "refbridge/formats/bibtex/dates.py",
    "refbridge/formats/bibtex/writer.py",
    "refbridge/latex/decode.py",
    "refbridge/latex/symbols.py",
    "refbridge/latex/encode.py",
    "refbridge/richtext.py",
    "refbridge/inlines.py",
    "refbridge/names/bibtex.py",
    "refbridge/formats/csljson.py",
    "refbridge/formats/csl_markup.py",
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


def _say(message: str) -> None:
    print(f"refbridge build: {message}", file=sys.stderr)


class _OptionalBuildExt(build_ext):  # type: ignore[misc]
    """``build_ext`` that builds every compiled module or none: the compiled modules call
    each other directly, so one left as Python among them would be a second, different copy.
    On a failure the ones built are removed and the ``.py`` files are what is installed."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any failure means pure Python
            _say(f"compiled modules not built ({error}); pure Python")
            for extension in self.extensions:
                built = self.get_ext_fullpath(extension.name)
                if os.path.exists(built):
                    os.remove(built)


def _extensions() -> list[Any]:
    """The mypyc extensions, or none (pure Python) when asked to or when mypyc fails."""
    if os.environ.get("REFBRIDGE_PURE_PYTHON", "") not in ("", "0"):
        _say("REFBRIDGE_PURE_PYTHON is set: pure Python")
        return []
    if "editable_wheel" in sys.argv:  # pip install -e: the sources in place, uncompiled
        return []
    try:
        from mypyc.build import mypycify

        # the build runs without refbridge's dependencies: their types are unknown (Any)
        options = ["--config-file", os.devnull, "--ignore-missing-imports"]
        return list(mypycify([*options, *(os.path.join("src", path) for path in COMPILED)],
                             opt_level="3", separate=False))
    except BaseException as error:  # noqa: BLE001 - mypyc exits with SystemExit on errors
        _say(f"mypyc did not compile the modules ({error!r}); pure Python")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": _OptionalBuildExt})
