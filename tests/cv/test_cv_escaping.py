"""Record text is data in every CV output: it never becomes Markdown, HTML or LaTeX markup.

The record in tests/fixtures/cv/hostile-records.json carries HTML tags, a ``javascript:`` URL,
Markdown syntax, TeX commands and math delimiters in its title, authors, venue and abstract.
"""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
from support import ROOT, requires_tool

from refbridge.cv import CvOptions, render_cv
from refbridge.errors import Diagnostics
from refbridge.pipeline import read_records

HOSTILE = ROOT / "tests" / "fixtures" / "cv" / "hostile-records.json"
TITLE = ('<script>alert(1)</script> & *not bold* _not_ [no link](javascript:alert(1)) $x^2$ '
         "100% {\\textbf{not}} # ~40% `code` {{ site.email }} {% include x.html %} "
         "{{< shortcode >}}")
ABSTRACT = ("<img src=x onerror=alert(2)> \\end{itemize} ~3% of $$ cost | a | b | ## not a "
            "heading 1. not a list")
OPTIONS = CvOptions(owners=("Zhengping Qian",), abstracts=True)


def render(to: str, fragment: bool = False) -> str | bytes:
    records = list(read_records([str(HOSTILE)], Diagnostics()))
    content, _, _ = render_cv(records, OPTIONS, to, fragment)
    return content


def html_tree(markup: str, fragment: bool) -> object:
    html5lib = pytest.importorskip("html5lib", reason="the HTML check needs html5lib")
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    tree = parser.parseFragment(markup) if fragment else parser.parse(markup)
    assert parser.errors == []
    return tree


def assert_safe_html(tree: object) -> None:
    elements = list(tree.iter())  # type: ignore[attr-defined]
    assert {e.tag for e in elements} & {"script", "img", "iframe", "input"} == set()
    assert not any(name.startswith("on") for e in elements for name in e.attrib)
    hrefs = [e.get("href") for e in elements if e.get("href") is not None]
    assert all(href.startswith(("https://", "http://")) for href in hrefs)


def visible_text(tree: object) -> str:
    return " ".join("".join(tree.itertext()).split())  # type: ignore[attr-defined]


@pytest.mark.parametrize("fragment", [False, True], ids=["page", "fragment"])
def test_html_shows_the_record_text_and_runs_nothing(fragment: bool) -> None:
    tree = html_tree(str(render("html", fragment)), fragment)
    assert_safe_html(tree)
    text = visible_text(tree)
    assert TITLE in text
    assert "Evil <blink>Corp</blink> & Sons \\relax" in text
    assert ABSTRACT in text


def test_markdown_renders_to_the_record_text_and_no_markup() -> None:
    markdown_it = pytest.importorskip("markdown_it", reason="the Markdown check needs "
                                                            "markdown-it-py")
    renderer = markdown_it.MarkdownIt("commonmark").enable("strikethrough")
    rendered = renderer.render(str(render("markdown")))
    tree = html_tree(rendered, fragment=True)
    assert_safe_html(tree)
    assert {e.tag for e in tree.iter()} <= {  # type: ignore[attr-defined]
        "DOCUMENT_FRAGMENT", "h2", "h3", "p", "ul", "li", "strong", "em", "blockquote"}
    text = visible_text(tree)
    assert TITLE in text
    assert ABSTRACT in text


@pytest.mark.parametrize("to", ["markdown", "html"])
def test_site_generators_find_no_liquid_or_shortcode_to_run(to: str) -> None:
    content = str(render(to, fragment=True))
    assert "{" not in content
    assert "}" not in content
    assert "&#123;&#123; site.email &#125;&#125; &#123;% include x.html %&#125;" in content


def test_latex_escapes_commands_and_specials() -> None:
    latex = str(render("latex"))
    assert "\\textbackslash{}input\\{/etc/passwd\\}" in latex
    assert "\\textbackslash{}end\\{itemize\\}" in latex
    assert "\\$x\\textasciicircum{}2\\$ 100\\%" in latex
    assert "\\href{javascript" not in latex


@requires_tool("pdflatex")
def test_latex_with_hostile_text_compiles(tmp_path: Path) -> None:
    (tmp_path / "publications.tex").write_text(str(render("latex")), encoding="utf-8")
    (tmp_path / "cv.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{hyperref}\n"
        "\\begin{document}\n\\input{publications}\n\\end{document}\n", encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                          "-no-shell-escape", "cv.tex"], cwd=tmp_path, check=False, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:]


def test_text_output_keeps_the_record_text_verbatim() -> None:
    text = " ".join(str(render("text")).split())
    assert TITLE in text
    assert "javascript:" not in text.replace("[no link](javascript:alert(1))", "")


def test_docx_keeps_the_record_text_as_text() -> None:
    docx = pytest.importorskip("docx", reason="DOCX output needs python-docx")
    document = docx.Document(io.BytesIO(render("docx")))  # type: ignore[arg-type]
    paragraphs = [paragraph.text for paragraph in document.paragraphs]
    assert any(TITLE in paragraph for paragraph in paragraphs)
    assert " ".join(ABSTRACT.split()) in paragraphs
    assert not [rel for rel in document.part.rels.values() if rel.is_external]
