"""Keys cited by Typst documents.

Typst cites with ``@key`` (also its reference to a label, ``@fig-plot``: a citation only when
a library holds the key, as a Quarto label is, when the document itself sets ``<fig-plot>``)
and ``#cite(<key>)``; ``#bibliography("refs.bib")`` (or a list of files) names the libraries.
Comments (``//``, ``/* */``) and raw text (``\\`code\\```) cite nothing. This module must never
read a library or run Typst.
"""

from __future__ import annotations

import re

from refbridge.cited.citations import Scan, line_of, read_document
from refbridge.errors import Diagnostics

#: Typst's ``@key`` (a label's characters, not ending in ``.`` or ``:``) and ``cite(<key>)``.
CITATION = re.compile(r"(?<![\w@])@(?P<key>\w(?:[\w\-:.]*\w)?)"
                      r"|\bcite\(\s*<(?P<label>[\w\-:.]+)>")
#: What Typst never reads as markup: comments and raw text.
UNREAD = re.compile(r"//[^\n]*|/\*.*?\*/|(?P<fence>`{3,}).*?(?P=fence)|`[^`\n]*`", re.DOTALL)
#: ``#bibliography("a.bib")`` or ``#bibliography(("a.bib", "b.yml"))``: its file names.
_BIBLIOGRAPHY = re.compile(r"#bibliography\(\s*(\((?:[^()]*)\)|\"[^\"]*\")")
_STRING = re.compile(r"\"([^\"]*)\"")
#: A label the document sets: ``<fig-plot>`` (not ``cite(<key>)``).
_LABEL = re.compile(r"(?<!\()<([\w\-:.]+)>")


def blank_unread(text: str) -> str:
    """``text`` with comments and raw text replaced by spaces (newlines and offsets kept)."""
    return UNREAD.sub(lambda match: re.sub(r"[^\n]", " ", match.group()), text)


def scan_text(text: str, path: str, diagnostics: Diagnostics) -> Scan:
    """What the Typst document ``text`` (from ``path``) cites and the libraries it names."""
    found = Scan()
    searchable = blank_unread(text)
    labels = {match.group(1) for match in _LABEL.finditer(searchable)}
    for match in CITATION.finditer(searchable):
        line = line_of(searchable, match.start())
        if match.group("key"):
            key = match.group("key")
            found.cite(key, path, line, cross_reference=key in labels)
        else:
            found.cite(match.group("label"), path, line)
    for match in _BIBLIOGRAPHY.finditer(searchable):
        for name in _STRING.finditer(match.group(1)):
            found.name_library(name.group(1), path, line_of(searchable, match.start()))
    return found


def scan(path: str, diagnostics: Diagnostics, encoding: str | None = None) -> Scan:
    """What the Typst document at ``path`` cites."""
    return scan_text(read_document(path, diagnostics, encoding), path, diagnostics)
