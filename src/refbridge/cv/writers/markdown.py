r"""The CV as Markdown for GitHub, Jekyll (kramdown) and Hugo (goldmark).

Headings are ``##`` (the title) and ``###`` (groups) so the list drops into a page; entries are
bullet items with an escaped ``\[N\]`` number (ordered lists cannot count down). Entry texts
come from the style engine's Markdown output, already escaped; everything this module adds
(headings, summary, link labels, abstracts) is escaped here, including ``$`` (math on GitHub),
``~`` (strike-through; written ``&#126;``, as kramdown has no ``\~``) and ``&`` before an entity
name. Braces anywhere in the document, entries included, are written ``&#123;`` and ``&#125;``:
Jekyll runs Liquid and Hugo runs shortcodes on a page before Markdown, and no backslash stops
them. This module must never let record text become Markdown, HTML or template markup.
"""

from __future__ import annotations

import re

from refbridge.csl.formats import guard_line_start
from refbridge.cv.document import CvDocument, CvEntry

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|!$])")
#: braces as character references: Jekyll runs Liquid (``{{ }}``, ``{% %}``) and Hugo runs
#: shortcodes (``{{< >}}``) on a page before Markdown, and no backslash escape stops them
_TEMPLATE_BRACES = str.maketrans({"{": "&#123;", "}": "&#125;"})
_ENTITY = re.compile(r"&(?=#?\w+;)")


def escape(text: str) -> str:
    """``text`` as Markdown that renders as exactly ``text`` (on one line)."""
    flat = " ".join(text.split())
    escaped = _ENTITY.sub("&amp;", _SPECIAL.sub(r"\\\1", flat)).replace("~", "&#126;")
    return guard_line_start(escaped)


def _link(label: str, url: str) -> str:
    return f"[{escape(label)}](<{url}>)"


def _entry(entry: CvEntry) -> list[str]:
    number = f"\\[{entry.number}\\] " if entry.number is not None else ""
    links = " ".join(_link(link.label, link.url) for link in entry.links)
    text = guard_line_start(" ".join(entry.text.split()))
    lines = [f"- {number}{text}" + (f" {links}" if links else "")]
    if entry.abstract:
        lines += ["", f"  > {escape(entry.abstract)}"]
    return lines


def render(document: CvDocument, fragment: bool = False) -> str:
    lines = [f"## {escape(document.title)}", ""]
    if document.summary is not None:
        lines += [escape(document.summary.text()), ""]
    for section in document.sections:
        if section.heading is not None:
            lines += [f"### {escape(section.heading)} ({len(section.entries)})", ""]
        for entry in section.entries:
            lines += _entry(entry)
            if entry.abstract:
                lines.append("")
        if lines[-1]:
            lines.append("")
    return ("\n".join(lines).rstrip("\n") + "\n").translate(_TEMPLATE_BRACES)
