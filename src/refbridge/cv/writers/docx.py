"""The CV as a Word document (DOCX), for grant and hiring forms that want Word.

python-docx (the optional extra ``docx``) writes the file; without it, the error says how to
add the extra to this installation (from the clone it was installed from, if it was). Entry
texts come from the style engine's HTML output; the few inline tags it writes (``i``, ``b``, ``sup``, ``sub``,
styled ``span`` and ``a``) become Word run formatting and hyperlinks, read with the standard
library's ``html.parser`` (which also decodes entities, so text stays text). Only http(s) links
become hyperlinks; characters XML cannot hold (control characters) become U+FFFD
(``formats.xml.safe.xml_text``). This module must never write a field code or any markup from
record text.
"""

from __future__ import annotations

import importlib.metadata
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from typing import Any
from urllib.parse import unquote, urlparse

from refbridge.cv.document import CvDocument, CvEntry
from refbridge.cv.links import safe_http_url
from refbridge.errors import RefbridgeError
from refbridge.formats.xml.safe import xml_text

HANGING_INDENT_CM = 1.2
LINK_COLOR = (0x1A, 0x54, 0x90)
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class RunStyle:
    italic: bool = False
    bold: bool = False
    underline: bool = False
    small_caps: bool = False
    superscript: bool = False
    subscript: bool = False
    link: str | None = None


#: inline tag -> the run formatting it switches on
TAG_STYLES: dict[str, dict[str, bool]] = {
    "i": {"italic": True}, "em": {"italic": True}, "b": {"bold": True},
    "strong": {"bold": True}, "u": {"underline": True}, "sup": {"superscript": True},
    "sub": {"subscript": True},
}
#: CSS declaration of the engine's ``<span style>`` -> the run formatting it sets
CSS_STYLES: dict[str, dict[str, bool]] = {
    "font-style:italic": {"italic": True}, "font-style:oblique": {"italic": True},
    "font-style:normal": {"italic": False}, "font-weight:bold": {"bold": True},
    "font-weight:normal": {"bold": False}, "font-variant:small-caps": {"small_caps": True},
    "font-variant:normal": {"small_caps": False},
    "text-decoration:underline": {"underline": True},
}


class _InlineRuns(HTMLParser):
    """Splits an HTML entry into (text, style) runs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, RunStyle]] = [("", RunStyle())]
        self.runs: list[tuple[str, RunStyle]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        style = self.stack[-1][1]
        values = dict(attrs)
        changes: dict[str, Any] = dict(TAG_STYLES.get(tag, {}))
        for declaration in (values.get("style") or "").split(";"):
            changes.update(CSS_STYLES.get(declaration.replace(" ", ""), {}))
        if tag == "a" and safe_http_url(values.get("href") or ""):
            style = replace(style, link=values["href"])
        self.stack.append((tag, replace(style, **changes)))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        if data:
            self.runs.append((data, self.stack[-1][1]))


def inline_runs(entry_html: str) -> list[tuple[str, RunStyle]]:
    """The text runs of an HTML entry with their formatting; whitespace collapsed as a browser
    would."""
    parser = _InlineRuns()
    parser.feed(entry_html)
    parser.close()
    runs: list[tuple[str, RunStyle]] = []
    for text, style in parser.runs:
        text = _WHITESPACE.sub(" ", text)
        if text.startswith(" ") and (not runs or runs[-1][0].endswith(" ")):
            text = text[1:]
        if text:
            runs.append((text, style))
    if runs and runs[-1][0].endswith(" "):
        text, style = runs.pop()
        if text.rstrip():
            runs.append((text.rstrip(), style))
    return runs


def _docx() -> Any:
    try:
        import docx
    except ImportError:
        raise RefbridgeError(f"DOCX output needs python-docx: {install_hint(_direct_url())}"
                             ) from None
    return docx


def _direct_url() -> str | None:
    """pip's record of where this installation came from (``direct_url.json``), if any."""
    try:
        return importlib.metadata.distribution("refbridge").read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        return None


def install_hint(direct_url: str | None) -> str:
    """The command that adds the docx extra: from the directory pip installed refbridge from
    (a clone, ``-e`` when editable; *direct_url* is pip's ``direct_url.json``), else by name."""
    try:
        origin = json.loads(direct_url or "{}")
    except ValueError:
        origin = {}
    url = urlparse(str(origin.get("url", ""))) if isinstance(origin, dict) else urlparse("")
    if url.scheme != "file":
        return "pip install 'refbridge[docx]'"
    editable = "-e " if (origin.get("dir_info") or {}).get("editable") else ""
    return f"pip install {editable}'{unquote(url.path)}[docx]'"


def _add_run(paragraph: Any, text: str, style: RunStyle) -> None:
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import RGBColor

    run = paragraph.add_run(xml_text(text))
    font = run.font
    font.italic = style.italic or None
    font.bold = style.bold or None
    font.underline = style.underline or style.link is not None or None
    font.small_caps = style.small_caps or None
    font.superscript = style.superscript or None
    font.subscript = style.subscript or None
    if style.link is None:
        return
    font.color.rgb = RGBColor(*LINK_COLOR)
    hyperlink = OxmlElement("w:hyperlink")
    hyperlink.set(qn("r:id"), paragraph.part.relate_to(style.link, RELATIONSHIP_TYPE.HYPERLINK,
                                                       is_external=True))
    hyperlink.append(run._r)
    paragraph._p.append(hyperlink)


def _entry_runs(entry: CvEntry) -> Iterator[tuple[str, RunStyle]]:
    if entry.number is not None:
        yield f"[{entry.number}]\t", RunStyle()
    yield from inline_runs(entry.text)
    for link in entry.links:
        yield " ", RunStyle()
        yield f"[{link.label}]", RunStyle(link=link.url)


def render(document: CvDocument, fragment: bool = False) -> bytes:
    docx = _docx()
    from docx.shared import Cm, Pt

    word = docx.Document()
    word.core_properties.title = xml_text(document.title)
    word.add_heading(xml_text(document.title), level=1)
    if document.owner:
        word.add_paragraph(xml_text(document.owner))
    if document.summary is not None:
        word.add_paragraph(xml_text(document.summary.text()))
    for section in document.sections:
        if section.heading is not None:
            word.add_heading(xml_text(f"{section.heading} ({len(section.entries)})"), level=2)
        for entry in section.entries:
            paragraph = word.add_paragraph()
            layout = paragraph.paragraph_format
            layout.left_indent = Cm(HANGING_INDENT_CM)
            layout.first_line_indent = Cm(-HANGING_INDENT_CM)
            layout.tab_stops.add_tab_stop(Cm(HANGING_INDENT_CM))
            for text, style in _entry_runs(entry):
                _add_run(paragraph, text, style)
            if entry.abstract:
                abstract = word.add_paragraph()
                abstract.paragraph_format.left_indent = Cm(HANGING_INDENT_CM)
                abstract.add_run(xml_text(" ".join(entry.abstract.split()))).font.size = Pt(9)
    out = io.BytesIO()
    word.save(out)
    return out.getvalue()
