"""Where the libraries a document names are: the files ``\\bibdata``, ``\\addbibresource``,
biber's data sources or a Markdown ``bibliography:`` mean.

A name is looked up as bibtex and biber look it up: relative to the naming document's
directory, else in the TeX tree (``kpsewhich``, when TeX is installed: a library kept in
``~/texmf/bibtex/bib``). A name found nowhere is an error naming the document and line. This
module must never read a library.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable

from refbridge.cited.citations import NamedLibrary
from refbridge.errors import ParseError

#: Seconds ``kpsewhich`` may take to find one name.
KPSEWHICH_TIMEOUT = 20


def library_paths(named: Iterable[NamedLibrary]) -> list[str]:
    """The files of the ``named`` libraries, each once, in the order named."""
    paths: dict[str, None] = {}
    for library in named:
        paths.setdefault(_found(library))
    return list(paths)


def _found(library: NamedLibrary) -> str:
    directory = os.path.dirname(library.file)
    beside = os.path.join(directory, os.path.expanduser(library.path))
    if os.path.isfile(beside):
        return beside
    in_tex_tree = _kpsewhich(library.path, directory)
    if in_tex_tree is not None:
        return in_tex_tree
    raise ParseError(f"the library {library.path!r} named here is not in {directory or '.'!r}"
                     + ("" if shutil.which("kpsewhich") is None else " nor in the TeX tree")
                     + "; name the libraries with --library", library.file, library.line)


def _kpsewhich(name: str, directory: str) -> str | None:
    """Where TeX finds the .bib ``name`` (None: nowhere, or TeX is not installed)."""
    program = shutil.which("kpsewhich")
    if program is None or name.startswith("-"):  # an option, not a name
        return None
    try:
        found = subprocess.run([program, "-format=bib", name], cwd=directory or None,
                               capture_output=True, text=True, timeout=KPSEWHICH_TIMEOUT,
                               check=False).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return os.path.join(directory, found) if found and os.path.isfile(
        os.path.join(directory, found)) else None
