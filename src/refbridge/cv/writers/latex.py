"""The CV as a LaTeX section that drops into a CV: plain ``article`` or ``moderncv``.

The output is a fragment (``\\section*`` with ``\\subsection*`` per group and an ``itemize``
list whose labels are the numbers) for a UTF-8 document that loads ``hyperref`` (moderncv
does). Entry texts come from the style engine's LaTeX output; everything this module adds is
escaped with the engine's own LaTeX escaping, and link addresses with its ``\\href`` writer, so
record text never becomes a LaTeX command. Non-ASCII characters are written as LaTeX commands
(``refbridge.latex.encode``) so that pdflatex without extra packages reads them; only scripts no
table covers (CJK) stay UTF-8 and need a CJK setup. This module must never write a preamble.
"""

from __future__ import annotations

import re

from refbridge.csl.formats import FORMATS
from refbridge.cv.document import CvDocument, CvEntry
from refbridge.latex.encode import encode_latex

_LATEX = FORMATS["latex"]
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def pdflatex_safe(latex: str) -> str:
    """``latex`` with its non-ASCII characters written as LaTeX commands (``{\\L}``,
    ``{\\ensuremath{\\tau}}``); characters no table knows (CJK) stay UTF-8."""
    return _NON_ASCII.sub(lambda match: encode_latex(match.group()), latex)


def escape(text: str) -> str:
    return _LATEX.escape(" ".join(text.split()))


def _entry(entry: CvEntry) -> list[str]:
    label = f"[{{[{entry.number}]}}]" if entry.number is not None else "[]"
    links = " ".join(_LATEX.link(link.url, escape(f"[{link.label}]")) for link in entry.links)
    lines = [f"  \\item{label} {' '.join(entry.text.split())}" + (f" {links}" if links else "")]
    if entry.abstract:
        lines.append(f"    \\par{{\\small {escape(entry.abstract)}\\par}}")
    return lines


def render(document: CvDocument, fragment: bool = False) -> str:
    lines = ["% Publication list by refbridge: needs a UTF-8 document with hyperref loaded.",
             f"\\section*{{{escape(document.title)}}}"]
    if document.summary is not None:
        lines += [escape(document.summary.text()), ""]
    for section in document.sections:
        if section.heading is not None:
            lines.append(f"\\subsection*{{{escape(section.heading)} ({len(section.entries)})}}")
        lines.append("\\begin{itemize}")
        for entry in section.entries:
            lines += _entry(entry)
        lines += ["\\end{itemize}", ""]
    return pdflatex_safe("\n".join(lines).rstrip("\n") + "\n")
