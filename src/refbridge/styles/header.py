"""Reading the ``<info>`` header of a CSL style file: id, title, parent and default locale.

Listing and resolving styles needs only these few facts from each of the catalogue's ~10,800
files, so they are read with a handful of regular expressions over the file's head instead of a
full XML parse (measured on the catalogue: 0.75 s for all files this way, 1.6 s with lxml's
``iterparse`` stopping at ``<title>``; listings are cached on top, see ``catalogue``). This module must never interpret style semantics:
rendering parses the whole style with ``refbridge.csl``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

_HEAD_BYTES = 8192  #: enough for the <info> block of all but a handful of catalogue styles
_STYLE_TAG = re.compile(r"<style\b[^>]*>", re.DOTALL)
_TITLE = re.compile(r"<title>(.*?)</title>", re.DOTALL)
_ID = re.compile(r"<id>(.*?)</id>", re.DOTALL)
_LINK = re.compile(r"<link\b[^>]*>", re.DOTALL)
_CATEGORY = re.compile(r"<category\b[^>]*\bcitation-format\s*=\s*[\"'](?P<format>[\w-]+)", re.DOTALL)
_ATTRIBUTE = re.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@dataclass(frozen=True, slots=True)
class StyleHeader:
    """What a CSL file says about itself before any formatting rules."""

    id: str  #: the short id: the last segment of ``<id>`` (``apa`` for .../styles/apa)
    title: str
    parent: str | None  #: short id of the independent parent, for a dependent style
    default_locale: str | None  #: the ``default-locale`` attribute of ``<style>``
    #: ``<category citation-format>``: ``author-date``, ``numeric``, ``label``, ``note`` ...
    citation_format: str | None = None


def _attributes(tag: str) -> dict[str, str]:
    return {m.group(1): html.unescape(m.group(2) if m.group(2) is not None else m.group(3))
            for m in _ATTRIBUTE.finditer(tag)}


def short_id(uri: str) -> str:
    """``http://www.zotero.org/styles/nature`` -> ``nature``."""
    return uri.strip().rstrip("/").rsplit("/", 1)[-1]


def parse_style_header(text: str, fallback_id: str) -> StyleHeader:
    """The header facts of the style whose text (or at least its ``<info>`` part) is ``text``."""
    style_tag = _STYLE_TAG.search(text)
    title = _TITLE.search(text)
    uri = _ID.search(text)
    category = _CATEGORY.search(text)
    parent = next((attrs.get("href") for attrs in map(_attributes, _LINK.findall(text))
                   if attrs.get("rel") == "independent-parent"), None)
    return StyleHeader(
        id=short_id(html.unescape(uri.group(1))) if uri else fallback_id,
        title=html.unescape(title.group(1)).strip() if title else fallback_id,
        parent=short_id(parent) if parent else None,
        default_locale=_attributes(style_tag.group(0)).get("default-locale") if style_tag else None,
        citation_format=category["format"] if category else None,
    )


def read_style_header(path: Path) -> StyleHeader:
    """The header of the CSL file at ``path``, reading only as much of it as needed."""
    with path.open("rb") as stream:
        head = stream.read(_HEAD_BYTES)
        if b"</info>" not in head:
            head += stream.read()
    return parse_style_header(head.decode("utf-8", errors="replace"), fallback_id=path.stem)
