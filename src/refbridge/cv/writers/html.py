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


def _links(entry: CvEntry) -> str:
    anchors = [f'<a href="{escape(link.url)}">{escape(link.label)}</a>'
               for link in entry.links if safe_http_url(link.url)]
    return f' <span class="cv-links">{"".join(anchors)}</span>' if anchors else ""


def _entry(entry: CvEntry) -> str:
    body = entry.text + _links(entry)
    if entry.abstract:
        body += ('<details class="cv-abstract"><summary>Abstract</summary>'
                 f"<p>{escape(entry.abstract)}</p></details>")
    if entry.number is None:
        return f'<li class="cv-entry cv-unnumbered"><div class="cv-body">{body}</div></li>'
    return (f'<li class="cv-entry"><span class="cv-number">[{entry.number}]</span>'
            f'<div class="cv-body">{body}</div></li>')


_TEMPLATE_BRACES = str.maketrans({"{": "&#123;", "}": "&#125;"})


def _body(document: CvDocument, title_level: int) -> list[str]:
    group_level = title_level + 1
    owner = (f' <span class="cv-owner">{escape(document.owner)}</span>'
             if document.owner and title_level == 1 else "")
    lines = [f"<h{title_level}>{escape(document.title)}{owner}</h{title_level}>"]
    if document.summary is not None:
        lines.append(f'<p class="cv-summary">{escape(document.summary.text())}</p>')
    for section in document.sections:
        lines.append('<section class="cv-group">')
        if section.heading is not None:
            lines.append(f"<h{group_level}>{escape(section.heading)} "
                         f'<span class="cv-count">({len(section.entries)})</span>'
                         f"</h{group_level}>")
        lines.append('<ul class="cv-entries">')
        lines += [_entry(entry) for entry in section.entries]
        lines += ["</ul>", "</section>"]
    return [line.translate(_TEMPLATE_BRACES) for line in lines]


def render(document: CvDocument, fragment: bool = False) -> str:
    if fragment:
        return "\n".join(['<section class="cv-publications">', *_body(document, 2),
                          "</section>"]) + "\n"
    title = document.title + (f" \u2014 {document.owner}" if document.owner else "")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>\n{STYLESHEET}</style>",
        "</head>",
        "<body>",
        '<main class="cv-publications">',
        *_body(document, 1),
        "</main>",
        "</body>",
        "</html>",
    ]) + "\n"
