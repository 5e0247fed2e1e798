"""Keys cited by a LaTeX ``.aux`` file, as bibtex reads them.

pdflatex writes ``\\citation{a,b}`` for every ``\\cite`` and ``\\nocite`` (``*``: every entry),
``\\bibdata{refs,abbrev}`` for ``\\bibliography``, and ``\\@input{chapter.aux}`` for each
``\\include``d file, whose ``.aux`` is read in turn (relative to the main ``.aux``, as LaTeX
writes them). ``\\bibdata``'s ``NAME-blx`` is biblatex's own control file (its bibtex backend),
no library. This module must never read a library or run LaTeX.
"""

from __future__ import annotations

import os
import re

from refbridge.cited.citations import BIBLATEX, BIBTEX, Scan, line_of, read_document, split_keys
from refbridge.errors import Diagnostics

_COMMAND = re.compile(r"\\(citation|bibdata|@input)\{([^{}]*)\}")
#: The library biblatex's bibtex backend writes for itself.
_BIBLATEX_CONTROL = re.compile(r"-blx(?:\.bib)?$")


def scan(path: str, diagnostics: Diagnostics, encoding: str | None = None) -> Scan:
    """What the ``.aux`` at ``path`` and the ``.aux`` files it inputs cite."""
    found = Scan(dialects={BIBTEX})
    _scan_into(found, path, os.path.dirname(path), diagnostics, encoding, {os.path.abspath(path)})
    return found


def _scan_into(found: Scan, path: str, base: str, diagnostics: Diagnostics,
               encoding: str | None, seen: set[str]) -> None:
    text = read_document(path, diagnostics, encoding)
    for match in _COMMAND.finditer(text):
        command, argument = match.groups()
        line = line_of(text, match.start())
        if command == "citation":
            for key in split_keys(argument):
                found.cite(key, path, line)
        elif command == "bibdata":
            for name in split_keys(argument):
                if _BIBLATEX_CONTROL.search(name):
                    found.dialects = {BIBLATEX}
                else:
                    found.name_library(name, path, line, ".bib")
        else:
            included = os.path.join(base, argument)
            if os.path.abspath(included) in seen:
                continue
            seen.add(os.path.abspath(included))
            if os.path.isfile(included):
                _scan_into(found, included, base, diagnostics, encoding, seen)
            else:
                diagnostics.warning(f"\\@input{{{argument}}}: no such file (its \\include was "
                                    "not compiled yet?); its citations are not read", path, line)
