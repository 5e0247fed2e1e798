"""Keys cited by pandoc Markdown, R Markdown and Quarto documents.

Citations are pandoc's: ``@key``, ``[@a; @b, p. 3]``, ``[-@key]``, ``@{key-with:odd}`` in
braces. The text is parsed by markdown-it, so what pandoc does not read as text is left out:
code spans (R Markdown's inline ``r`` code too), fenced and indented code (R chunks), raw
HTML and its comments; an ``@`` right after a letter or digit is an e-mail address
(``x@y.org``), and a backslash-escaped ``\\@`` no citation. The YAML front matter names the
libraries (``bibliography``) and the CSL style (``csl``), and cites keys without a mention
(``nocite: "@a, @b"``, ``@*``).
A key shaped as a Quarto or pandoc-crossref label (``@fig-plot``, ``@sec:intro``) is a
citation only when a library holds it. This module must never read a library or run pandoc.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from refbridge.cited.citations import NamedLibrary, Scan, line_of, read_document
from refbridge.errors import Diagnostics

#: A pandoc citation: ``@`` not after a word character, then a key in braces or a key that
#: starts with a letter, digit or ``_`` and has punctuation only inside it.
CITATION = re.compile(r"(?<!\w)@(?:\{(?P<braced>[^{}]+)\}"
                      r"|(?P<key>\w(?:\w|[:.#$%&\-+?<>~/](?=\w))*))")
#: ``nocite: "@*"``: every entry of the libraries.
EVERYTHING = re.compile(r"(?<!\w)@\*")
#: Labels of Quarto's (``@fig-x``) and pandoc-crossref's (``@fig:x``) cross-references.
CROSS_REFERENCE = re.compile(
    r"^(?:fig|tbl|sec|eq|lst|thm|lem|cor|prp|cnj|def|exm|exr|sol|rem|alg)[-:]\w")
#: The YAML front matter: ``---`` on the first line, up to ``---`` or ``...``.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
#: Token types whose text pandoc typesets (and where a citation can be).
_TEXT = "text"
_LINE_BREAKS = frozenset({"softbreak", "hardbreak"})


@cache
def _parser() -> Any:
    from markdown_it import MarkdownIt

    # tables as pandoc reads them; escapes kept apart from the text (``\@`` cites nothing)
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).disable("text_join")


def scan(path: str, diagnostics: Diagnostics, encoding: str | None = None) -> Scan:
    """What the Markdown document at ``path`` cites and the libraries its metadata names."""
    return scan_text(read_document(path, diagnostics, encoding), path, diagnostics)


def scan_text(text: str, path: str, diagnostics: Diagnostics) -> Scan:
    """What the Markdown document ``text`` (from ``path``) cites and the libraries its
    metadata names."""
    found = Scan()
    front = _FRONT_MATTER.match(text)
    body = text
    if front is not None:
        _read_metadata(front.group(1) or "", path, found, diagnostics)
        body = "\n" * front.group().count("\n") + text[front.end():]  # lines kept
    for token in _parser().parse(body):
        if token.type == "inline" and token.map is not None:
            _scan_inline(token, path, found)
    return found


def _scan_inline(token: Any, path: str, found: Scan) -> None:
    line = token.map[0] + 1
    for child in token.children or ():
        if child.type in _LINE_BREAKS:
            line += 1
        elif child.type == _TEXT:
            for match in CITATION.finditer(child.content):
                _cite(match, found, path, line + child.content.count("\n", 0, match.start()))


def _cite(match: re.Match[str], found: Scan, path: str, line: int) -> None:
    key = match.group("braced") or match.group("key")
    found.cite(key.strip(), path, line, cross_reference=bool(CROSS_REFERENCE.match(key)))


def _read_metadata(yaml_text: str, path: str, found: Scan, diagnostics: Diagnostics) -> None:
    """Note the ``bibliography`` and ``nocite`` of the front matter (which starts on line 2)."""
    import yaml

    try:
        metadata = yaml.safe_load(yaml_text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        diagnostics.warning(f"the YAML front matter cannot be read ({exc.__class__.__name__}); "
                            "its bibliography and nocite are not read", path,
                            mark.line + 2 if mark is not None else 1)
        return
    if not isinstance(metadata, dict):
        return
    libraries = metadata.get("bibliography")
    for library in [libraries] if isinstance(libraries, str) else libraries or ():
        if isinstance(library, str):
            found.name_library(library, path, _metadata_line(yaml_text, "bibliography"))
    style = metadata.get("csl")
    if isinstance(style, str) and style.strip():
        found.style = NamedLibrary(style.strip(), path, _metadata_line(yaml_text, "csl"))
    nocite = metadata.get("nocite")
    if isinstance(nocite, str):
        line = _metadata_line(yaml_text, "nocite")
        for match in CITATION.finditer(nocite):
            _cite(match, found, path, line)
        if EVERYTHING.search(nocite):
            found.cite("*", path, line)


def _metadata_line(yaml_text: str, name: str) -> int:
    """The line of the document where the front matter's ``name:`` is."""
    at = re.search(rf"^{name}\s*:", yaml_text, re.MULTILINE)
    return line_of(yaml_text, at.start()) + 1 if at else 1
