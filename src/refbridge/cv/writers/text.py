"""The CV as plain text: a title, the summary, underlined group headings and numbered entries.

Entry texts come from the style engine's text output; links follow their entry on an indented
line, abstracts are wrapped below it. This module must never add markup of any kind.
"""

from __future__ import annotations

import textwrap

from refbridge.cv.document import CvDocument, CvEntry

WIDTH = 100


def _entry(entry: CvEntry, indent: str) -> list[str]:
    number = f"[{entry.number}] " if entry.number is not None else ""
    lines = [number + " ".join(entry.text.split())]
    lines += [f"{indent}{link.label}: {link.url}" for link in entry.links]
    if entry.abstract:
        lines += textwrap.wrap(" ".join(entry.abstract.split()), WIDTH,
                               initial_indent=indent, subsequent_indent=indent)
    return lines


def render(document: CvDocument, fragment: bool = False) -> str:
    title = document.title + (f" \u2014 {document.owner}" if document.owner else "")
    lines = [title, "=" * len(title), ""]
    if document.summary is not None:
        lines += [document.summary.text(), ""]
    numbers = [len(str(e.number)) + 3 for e in document.entries if e.number is not None]
    indent = " " * (max(numbers) if numbers else 4)
    for section in document.sections:
        if section.heading is not None:
            heading = f"{section.heading} ({len(section.entries)})"
            lines += [heading, "-" * len(heading), ""]
        for entry in section.entries:
            lines += _entry(entry, indent)
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
