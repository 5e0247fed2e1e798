"""The CV as HTML5: a standalone page with a small stylesheet, or a fragment to paste.

Entry texts come from the style engine's HTML output (escaped there, links only http(s)); all
text this module adds is escaped with ``html.escape``. Numbers are written into the entries
(``[14]``) rather than left to ``<ol>`` markers, so they survive copying into a form. The
fragment is one ``<section class="cv-publications">`` with ``h2``/``h3`` headings and no styles.
Braces in the content are written ``&#123;``/``&#125;`` so that a page or fragment placed in a
Jekyll or Hugo site gives Liquid and shortcodes nothing to run. This module must never emit
record text unescaped or a link that is not http(s).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from refbridge.cv.document import CvDocument, CvEntry
from refbridge.cv.links import safe_http_url

STYLESHEET = """\
body { margin: 0; background: #fafafa; color: #222;
       font: 16px/1.5 "Source Serif Pro", Georgia, "Times New Roman", serif; }
main { max-width: 52rem; margin: 2.5rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.9rem; margin: 0 0 .25rem; }
h1 .cv-owner { display: block; font-size: 1.1rem; font-weight: normal; color: #555; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; padding-bottom: .2rem;
     border-bottom: 1px solid #ddd; }
.cv-count { color: #777; font-weight: normal; font-size: .9em; }
.cv-summary { color: #555; margin: .5rem 0 1.5rem; }
.cv-entries { list-style: none; margin: 0; padding: 0; }
.cv-entry { display: grid; grid-template-columns: 3.2rem 1fr; margin: 0 0 .9rem; }
.cv-entry.cv-unnumbered { grid-template-columns: 1fr; }
.cv-number { color: #777; font-variant-numeric: tabular-nums; }
.cv-links { font-size: .85em; margin-left: .25rem; }
.cv-links a { display: inline-block; margin-right: .4rem; padding: 0 .4rem;
              border: 1px solid #bbb; border-radius: .25rem; color: #1a5490;
              text-decoration: none; }
.cv-links a:hover { background: #eef4fb; }
.cv-abstract { font-size: .9em; color: #444; margin-top: .3rem; }
.cv-abstract summary { cursor: pointer; color: #1a5490; }
.csl-entry { display: inline; }
.csl-left-margin { float: left; min-width: 2.8rem; }
.csl-right-inline { margin-left: 3rem; }
.csl-entry:has(.csl-right-inline) + .cv-links { display: block; margin-left: 3rem; }
"""


def links_html(entry: CvEntry) -> str:
    anchors = [f'<a href="{escape(link.url)}">{escape(link.label)}</a>'
               for link in entry.links if safe_http_url(link.url)]
    return f' <span class="cv-links">{"".join(anchors)}</span>' if anchors else ""


def abstract_html(abstract: str | None) -> str:
    """An abstract folded in a ``<details>`` element ("" for none)."""
    return ('<details class="cv-abstract"><summary>Abstract</summary>'
            f"<p>{escape(abstract)}</p></details>") if abstract else ""


def _entry(entry: CvEntry) -> str:
    body = entry.text + links_html(entry) + abstract_html(entry.abstract)
    if entry.number is None:
        return f'<li class="cv-entry cv-unnumbered"><div class="cv-body">{body}</div></li>'
    return (f'<li class="cv-entry"><span class="cv-number">[{entry.number}]</span>'
            f'<div class="cv-body">{body}</div></li>')


TEMPLATE_BRACES = str.maketrans({"{": "&#123;", "}": "&#125;"})


def heading_lines(document: CvDocument, level: int = 1) -> list[str]:
    """The list's title (with the owner's name on a page of its own) and its summary line."""
    owner = (f' <span class="cv-owner">{escape(document.owner)}</span>'
             if document.owner and level == 1 else "")
    lines = [f"<h{level}>{escape(document.title)}{owner}</h{level}>"]
    if document.summary is not None:
        lines.append(f'<p class="cv-summary">{escape(document.summary.text())}</p>')
    return lines


def section_lines(document: CvDocument, level: int,
                  entry_html: Callable[[CvEntry], str]) -> list[str]:
    """The groups of the list, headed at ``level``, each entry written by ``entry_html``."""
    lines = []
    for section in document.sections:
        lines.append('<section class="cv-group">')
        if section.heading is not None:
            lines.append(f"<h{level}>{escape(section.heading)} "
                         f'<span class="cv-count">({len(section.entries)})</span></h{level}>')
        lines.append('<ul class="cv-entries">')
        lines += [entry_html(entry) for entry in section.entries]
        lines += ["</ul>", "</section>"]
    return lines


def page(document: CvDocument, body: list[str], style: str = "", script: str = "") -> str:
    """A standalone HTML5 page of ``body`` lines with the stylesheet (and ``style``, ``script``
    of a writer's own)."""
    title = document.title + (f" \u2014 {document.owner}" if document.owner else "")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>\n{STYLESHEET}{style}</style>",
        "</head>",
        "<body>",
        '<main class="cv-publications">',
        *body,
        "</main>",
        *([f"<script>\n{script}</script>"] if script else []),
        "</body>",
        "</html>",
    ]) + "\n"


def _body(document: CvDocument, title_level: int) -> list[str]:
    lines = heading_lines(document, title_level) + section_lines(document, title_level + 1,
                                                                 _entry)
    return [line.translate(TEMPLATE_BRACES) for line in lines]


def render(document: CvDocument, fragment: bool = False) -> str:
    if fragment:
        return "\n".join(['<section class="cv-publications">', *_body(document, 2),
                          "</section>"]) + "\n"
    return page(document, _body(document, 1))
