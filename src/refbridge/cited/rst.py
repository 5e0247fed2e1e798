"""Keys cited by reStructuredText documents of Sphinx with sphinxcontrib-bibtex.

Citations are the extension's roles: ``:cite:p:`a,b``` and every other ``:cite:X:`` and
``:footcite:X:`` form (and the bare ``:cite:``); a key list may carry pre- and post-notes in
braces (``{see}a``), which are no key. The libraries are the ``bibtex_bibfiles`` of the
project's ``conf.py``, in the document's directory or the nearest one above it, relative to
that file. This module must never read a library or run Sphinx.
"""

from __future__ import annotations

import ast
import os
import re

from refbridge.cited.citations import Scan, line_of, read_document, split_keys
from refbridge.errors import Diagnostics

#: sphinxcontrib-bibtex's citing roles: the key list is group ``keys``.
CITATION = re.compile(r"(?<![\w:]):(?:foot)?cite(?::[a-z]+)?:`(?P<keys>[^`]*)`")
#: A pre- or post-note in braces within a role's key list.
_NOTE = re.compile(r"\{[^{}]*\}")
#: The Sphinx configuration file and the setting that names the libraries.
CONF = "conf.py"
BIBFILES = "bibtex_bibfiles"
#: How many directories above a document its ``conf.py`` is looked for.
_CONF_DEPTH = 8


def role_keys(text: str) -> list[str]:
    """The keys of one role's key list, its notes left out."""
    return split_keys(_NOTE.sub("", text))


def scan_text(text: str, path: str, diagnostics: Diagnostics) -> Scan:
    """What the reStructuredText document ``text`` (from ``path``) cites, and the libraries
    its Sphinx project names."""
    found = Scan()
    for match in CITATION.finditer(text):
        for key in role_keys(match.group("keys")):
            found.cite(key, path, line_of(text, match.start()))
    conf = find_conf(os.path.dirname(os.path.abspath(path)))
    if conf is not None:
        for name in bibfiles(conf, diagnostics):
            found.name_library(name, conf, 1)
    return found


def find_conf(directory: str) -> str | None:
    """The ``conf.py`` of the Sphinx project holding ``directory``, if any."""
    for _ in range(_CONF_DEPTH):
        candidate = os.path.join(directory, CONF)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return None


def bibfiles(conf: str, diagnostics: Diagnostics) -> list[str]:
    """The library names ``conf.py`` sets ``bibtex_bibfiles`` to (a list of strings written
    as such; the file is parsed, never run)."""
    text = read_document(conf, diagnostics)
    try:
        tree = ast.parse(text, conf)
    except SyntaxError as exc:
        diagnostics.warning(f"cannot be parsed ({exc.msg}); its {BIBFILES} is not read", conf,
                            exc.lineno or 1)
        return []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == BIBFILES for target in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                diagnostics.warning(f"{BIBFILES} is no list of file names written out; not "
                                    "read", conf, node.lineno)
                return []
            return [name for name in value if isinstance(name, str)] \
                if isinstance(value, (list, tuple)) else []
    return []


def scan(path: str, diagnostics: Diagnostics, encoding: str | None = None) -> Scan:
    """What the reStructuredText document at ``path`` cites."""
    return scan_text(read_document(path, diagnostics, encoding), path, diagnostics)

