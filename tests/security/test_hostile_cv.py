"""CV publication lists of hostile record text, in every CV output and with the CSL and pybtex
styles a CV can use: no markup or command from a record, only web links, the text shown.
(tests/cv/test_cv_escaping.py checks one hostile record in depth; this runs the shared corpus.)"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from fuzz.hostile import (
    BREAKOUT_URLS,
    HOSTILE_DOIS,
    HOSTILE_TEXTS,
    HOSTILE_URLS,
    NOT_TYPESETTABLE,
)
from fuzz.safety import (
    assert_no_dangerous_tex,
    assert_safe_html,
    markdown_html,
    run_tex,
    tex_available,
    tex_text,
)

from refbridge.cv import CvOptions, render_cv
from refbridge.model import Date, Eprint, Name, Record

ADDRESSES = HOSTILE_URLS + BREAKOUT_URLS
STYLES = ("cv", "apa")
RECORDS = [
    Record(id=f"r{i}", type="article-journal",
           fields={"title": text, "container-title": f"Journal {text}",
                   "URL": ADDRESSES[i % len(ADDRESSES)],
                   "DOI": HOSTILE_DOIS[i % len(HOSTILE_DOIS)], "abstract": text},
           names={"author": (Name("Qian", "Zhengping"), Name(f"Doe{text}", "Jane"))},
           dates={"issued": Date.of(2000 + i)},
           eprint=Eprint("arXiv", f"2601.{i:05d}", "cs.DB"))
    for i, text in enumerate(HOSTILE_TEXTS)]
_QUOTES = str.maketrans("“”‘’", "\"\"''")


def render(style: str, to: str) -> str | bytes:
    options = CvOptions(owners=("Zhengping Qian",), style=style, abstracts=True, merge=False)
    content, _, _ = render_cv(RECORDS, options, to, fragment=True)
    return content


def assert_text_shown(shown: str) -> None:
    shown = " ".join(shown.translate(_QUOTES).split())
    assert [t for t in HOSTILE_TEXTS if " ".join(t.translate(_QUOTES).split()) not in shown] == []


@pytest.mark.parametrize("style", STYLES)
def test_html_cv_runs_nothing_and_shows_the_text(style: str) -> None:
    assert_text_shown(assert_safe_html(str(render(style, "html"))))


@pytest.mark.parametrize("style", STYLES)
def test_markdown_cv_renders_to_safe_html_showing_the_text(style: str) -> None:
    assert_text_shown(assert_safe_html(markdown_html(str(render(style, "markdown")))))


@pytest.mark.parametrize("style", STYLES)
def test_latex_cv_runs_no_command_from_a_record(style: str) -> None:
    latex = str(render(style, "latex"))
    assert_no_dangerous_tex(latex)
    assert_text_shown(tex_text(latex))


@pytest.mark.parametrize("style", STYLES)
def test_text_cv_is_the_text(style: str) -> None:
    assert_text_shown(str(render(style, "text")))


@pytest.mark.parametrize("style", STYLES)
def test_docx_cv_holds_the_text_as_character_data(style: str) -> None:
    from lxml import etree

    content = render(style, "docx")
    assert isinstance(content, bytes)
    with zipfile.ZipFile(io.BytesIO(content)) as docx:
        document = etree.fromstring(docx.read("word/document.xml"))
        relations = docx.read("word/_rels/document.xml.rels").decode()
    namespace = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    assert_text_shown("".join(node.text or "" for node in document.iter(f"{namespace}t")))
    assert "javascript:" not in relations.lower()


@pytest.mark.skipif(not tex_available(), reason="needs pdflatex")
def test_pdflatex_compiles_the_latex_cv(tmp_path: Path) -> None:
    typesettable = [r for r in RECORDS if r.fields["title"] not in NOT_TYPESETTABLE]
    options = CvOptions(owners=("Zhengping Qian",), abstracts=True, merge=False)
    content, _, _ = render_cv(typesettable, options, "latex")
    (tmp_path / "cv.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{textcomp}\n\\usepackage{hyperref}\n\\begin{document}\n" + str(content)
        + "\n\\end{document}\n", encoding="utf-8")
    log = run_tex(tmp_path, ["pdflatex", "-no-shell-escape", "-interaction=nonstopmode",
                             "-halt-on-error", "cv.tex"])
    assert "Undefined control sequence" not in log
    assert not (tmp_path / "pwned").exists()
