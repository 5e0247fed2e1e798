"""`refbridge cv` outputs for the two bundled profile pages and for both merged, in every format.

The expected files in tests/fixtures/cv/ are the exact outputs; after an intended change of the
output, regenerate them with ``python tests/cv/test_cv_outputs.py`` and review the diff.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__":  # run as a script: the test helpers, as pytest's pythonpath finds them
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytest
from support import ROOT, SAMPLES, requires_tool

from refbridge.cv import CvOptions, render_cv
from refbridge.errors import Diagnostics
from refbridge.pipeline import read_records

FIXTURES = ROOT / "tests" / "fixtures" / "cv"
EXTENSIONS = {"markdown": "md", "html": "html", "latex": "tex", "text": "txt"}


@dataclass(frozen=True)
class Case:
    name: str
    inputs: tuple[str, ...]
    owner: str
    all_records: bool = False


CASES = [
    Case("zhengping-qian", ("zhengping-qian.profile.txt",), "Zhengping Qian"),
    Case("qinwei-yang", ("qinwei-yang.profile.txt",), "Qinwei Yang"),
    Case("merged", ("zhengping-qian.profile.txt", "qinwei-yang.profile.txt"), "Zhengping Qian",
         all_records=True),
]


def render(case: Case, to: str, **options: object) -> str | bytes:
    records = list(read_records([str(SAMPLES / name) for name in case.inputs], Diagnostics()))
    options_ = CvOptions(owners=(case.owner,), all_records=case.all_records,
                         **options)  # type: ignore[arg-type]
    content, _, _ = render_cv(records, options_, to)
    return content


def docx_outline(content: bytes) -> str:
    """The paragraphs of a DOCX file, one per line: bold runs in ** **, italic runs in * *,
    hyperlinks as <address|text>."""
    import docx
    from docx.text.hyperlink import Hyperlink

    def inline(run: docx.text.run.Run) -> str:
        return (f"**{run.text}**" if run.bold else f"*{run.text}*" if run.italic else run.text)

    lines = []
    for paragraph in docx.Document(io.BytesIO(content)).paragraphs:
        text = "".join(f"<{part.address}|{part.text}>" if isinstance(part, Hyperlink)
                       else inline(part) for part in paragraph.iter_inner_content())
        lines.append(f"[{paragraph.style.name}] {text}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("to", EXTENSIONS)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_output_is_exactly_the_expected_list(case: Case, to: str) -> None:
    expected = (FIXTURES / f"{case.name}.{EXTENSIONS[to]}").read_text(encoding="utf-8")
    assert render(case, to) == expected


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_docx_has_exactly_the_expected_paragraphs_and_bold_owner(case: Case) -> None:
    pytest.importorskip("docx", reason="DOCX output needs python-docx")
    expected = (FIXTURES / f"{case.name}.docx.txt").read_text(encoding="utf-8")
    assert docx_outline(render(case, "docx")) == expected  # type: ignore[arg-type]


def test_docx_links_are_hyperlinks_and_styles_carry_over() -> None:
    pytest.importorskip("docx", reason="DOCX output needs python-docx")
    records = [record for record in read_records([str(SAMPLES / "varied.json")], Diagnostics())
               if record.id == "smith2019neural"]
    content, _, _ = render_cv(records, CvOptions(owners=("Smith, Alice B.",)), "docx")
    assert docx_outline(content).splitlines()[-1] == (  # type: ignore[arg-type]
        "[Normal] [1]\t**Alice B. Smith** and Robert Jones. Neural approaches to citation "
        "parsing. *Journal of Documentation*, 75(4), 801–829, 2019. "
        "<https://doi.org/10.1108/JD-11-2018-0190|[DOI]>")


def test_merged_profiles_list_every_record_of_both() -> None:
    text = render(CASES[2], "text")
    assert isinstance(text, str)
    assert "23 publications: 2026 (11), 2025 (5), 2023 (1), 2022 (1), 2021 (2), 2020 (2), " \
           "2019 (1)" in text


@pytest.mark.parametrize("fragment", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_html_parses_as_html5_without_errors(case: Case, fragment: bool) -> None:
    html5lib = pytest.importorskip("html5lib", reason="the HTML5 check needs html5lib")
    records = list(read_records([str(SAMPLES / n) for n in case.inputs], Diagnostics()))
    content, _, _ = render_cv(records, CvOptions(owners=(case.owner,), abstracts=True), "html",
                              fragment=fragment)
    parser = html5lib.HTMLParser(strict=True)
    if fragment:
        parser.parseFragment(content)
    else:
        parser.parse(content)
    assert parser.errors == []


#: document class -> the LaTeX files it needs besides the TeX Live base
LATEX_REQUIREMENTS = {"article": ("hyperref.sty",), "moderncv": ("moderncv.cls", "lmodern.sty")}
#: moderncv loads fontawesome5 (in TeX Live's large fonts-extra) for icons; the publication list
#: uses none but the list bullet, so where it is missing a two-line stand-in is put beside the CV
FONTAWESOME_STAND_IN = ("\\ProvidesPackage{fontawesome5}\n"
                        "\\newcommand{\\faCircle}[1][]{\\textbullet}\n")
LATEX_DOCUMENTS = {
    "article": "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{hyperref}\n"
               "\\begin{document}\n\\input{publications}\n\\end{document}\n",
    "moderncv": "\\documentclass{moderncv}\n\\moderncvstyle{classic}\n\\usepackage[T1]{fontenc}\n"
                "\\usepackage{lmodern}\n\\name{Zhengping}{Qian}\n\\begin{document}\n"
                "\\makecvtitle\n\\input{publications}\n\\end{document}\n",
}


def _missing_latex_files(names: tuple[str, ...]) -> list[str]:
    if shutil.which("kpsewhich") is None:
        return list(names)
    return [name for name in names if not subprocess.run(
        ["kpsewhich", name], check=False, capture_output=True, text=True).stdout.strip()]


@requires_tool("pdflatex")
@pytest.mark.parametrize("document_class", LATEX_DOCUMENTS)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_latex_section_compiles_with_pdflatex(case: Case, document_class: str,
                                              tmp_path: Path) -> None:
    missing = _missing_latex_files(LATEX_REQUIREMENTS[document_class])
    if missing:
        pytest.skip(f"{document_class} needs {', '.join(missing)}, not installed")
    (tmp_path / "publications.tex").write_text(str(render(case, "latex", abstracts=True)),
                                                encoding="utf-8")
    (tmp_path / "cv.tex").write_text(LATEX_DOCUMENTS[document_class], encoding="utf-8")
    if document_class == "moderncv" and _missing_latex_files(("fontawesome5.sty",)):
        (tmp_path / "fontawesome5.sty").write_text(FONTAWESOME_STAND_IN, encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "cv.tex"],
                         cwd=tmp_path, check=False, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:]
    assert (tmp_path / "cv.pdf").stat().st_size > 0


def regenerate() -> None:
    for case in CASES:
        for to, extension in EXTENSIONS.items():
            (FIXTURES / f"{case.name}.{extension}").write_text(str(render(case, to)),
                                                              encoding="utf-8")
        (FIXTURES / f"{case.name}.docx.txt").write_text(
            docx_outline(render(case, "docx")), encoding="utf-8")  # type: ignore[arg-type]


if __name__ == "__main__":
    regenerate()
