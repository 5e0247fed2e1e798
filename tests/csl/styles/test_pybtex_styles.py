"""The BibTeX classics (plain, unsrt, alpha): what bibtex prints with the same .bst, in every
output, with the owner in bold and record text escaped."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import SAMPLES, biblatex_examples, requires_tool

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.reader import is_container
from refbridge.formatting import as_items, format_bibliography, name_matcher
from refbridge.pipeline import read_records, write_records
from refbridge.styles import pybtex_bridge
from refbridge.styles.definitions import FormatRequest
from refbridge.styles.pybtex_bridge import PybtexProcessor

ARTICLE = {
    "id": "smith2019", "type": "article-journal", "title": "Neural approaches to ATLAS data",
    "author": [{"family": "Smith", "given": "Alice B."},
               {"family": "Meer", "given": "Jan", "non-dropping-particle": "van der"}],
    "container-title": "Journal of Documentation", "volume": "75", "issue": "4",
    "page": "801-829", "issued": {"date-parts": [[2019, 7]]}, "DOI": "10.1108/JD-11-2018-0190",
}
BOOK = {"id": "knuth1997", "type": "book", "title": "The art of computer programming",
        "author": [{"family": "Knuth", "given": "Donald E."}], "publisher": "Addison-Wesley",
        "issued": {"date-parts": [[1997]]}}
UNSIGNED_BOOK = {"id": "cmos", "type": "book", "title": "The Chicago manual of style",
                 "publisher": "University of Chicago Press", "issued": {"date-parts": [[2017]]}}
STYLES = ("plain", "unsrt", "alpha")


@pytest.fixture(params=["bst", "python"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs with TeX Live's .bst (when it is installed) and with pybtex's Python
    version of the style, which is what formats without TeX."""
    if request.param == "bst" and pybtex_bridge.bst_source("plain") is None:
        pytest.skip("needs TeX Live's plain.bst (kpsewhich)")
    if request.param == "python":
        monkeypatch.setattr(pybtex_bridge, "bst_source", lambda style: None)
    return str(request.param)


def qian() -> list[dict[str, object]]:
    records = read_records([str(SAMPLES / "zhengping-qian.profile.txt")], Diagnostics())
    return as_items(records)


def test_a_title_keeps_its_acronyms_and_is_lower_cased_as_bibtex_does(engine: str) -> None:
    (entry,) = [line for line in format_bibliography(qian(), "plain").splitlines()
                if "FSPN" in line]
    assert entry.endswith("Zhengping Qian et al. FSPN: A new class of probabilistic graphical "
                          "model. arXiv preprint, cs.AI (Artificial Intelligence), 2020.")


def test_and_others_is_et_al(engine: str) -> None:
    item = {**ARTICLE, "custom": {"incomplete-names": ["author"]}}
    assert format_bibliography([item], "unsrt").startswith(
        "[1] Alice B. Smith, Jan van der Meer, et al. Neural approaches to ATLAS data.")


def test_the_owner_is_bold_in_html_and_markdown(engine: str) -> None:
    markdown = format_bibliography([ARTICLE], "plain", "markdown", highlight="Meer, Jan")
    assert markdown.startswith("\\[1\\] Alice B. Smith and **Jan van der Meer**. Neural "
                               "approaches to ATLAS data. *Journal of Documentation*, "
                               "75(4):801–829, July 2019.")
    html = format_bibliography([ARTICLE], "plain", "html", highlight="Smith")
    assert "<b>Alice B. Smith</b> and Jan van der Meer" in html


def test_backslashes_and_braces_in_record_text_stay_text(engine: str) -> None:
    book = {**BOOK, "title": "The \\par of {unbalanced} braces}"}
    assert format_bibliography([book], "plain") == (
        "[1] Donald E. Knuth. The \\par of {unbalanced} braces}. Addison-Wesley, 1997.\n")
    assert "\\textit{The \\textbackslash{}par of \\{unbalanced\\} braces\\}}." in format_bibliography(
        [book], "plain", "latex")


def test_alpha_labels_are_the_citations(engine: str) -> None:
    assert format_bibliography([ARTICLE, BOOK], "alpha", cite=True) == "[SvdM19]\n[Knu97]\n"


def test_unsrt_keeps_input_order_and_plain_sorts_by_author(engine: str) -> None:
    unsrt = format_bibliography([BOOK, ARTICLE], "unsrt").splitlines()
    plain = format_bibliography([BOOK, ARTICLE], "plain").splitlines()
    assert [line[:10] for line in unsrt] == ["[1] Donald", "[2] Alice "]
    assert [line[:10] for line in plain] == ["[1] Donald", "[2] Alice "]  # Knuth < Smith


def test_record_text_is_text_in_every_output(engine: str) -> None:
    item = {**BOOK, "title": r"50% of \relax & $y$ {sets}, <script> *x* _y_"}
    assert "50% of \\relax & $y$ {sets}, <script> *x* _y_" in format_bibliography([item],
                                                                                   "plain")
    assert "50\\% of \\textbackslash{}relax \\& \\$y\\$ \\{sets\\}, \\textless{}script" \
        in format_bibliography([item], "plain", "latex")
    html = format_bibliography([item], "plain", "html")
    assert "&#60;script&#62;" in html and "<script" not in html
    assert "\\*x\\* \\_y\\_" in format_bibliography([item], "plain", "markdown")


def test_markdown_escapes_only_what_markdown_reads() -> None:
    markdown = format_bibliography(qian()[:1], "plain", "markdown",
                                   highlight="Qian, Zhengping")
    assert markdown == ("\\[1\\] **Zhengping Qian** et al. SpecDB: LLM-generated customized "
                        "databases via feature-oriented decomposition. arXiv preprint, cs.DB "
                        "(Databases), 2026.\n")


def test_an_entry_missing_what_its_type_requires_is_still_printed(engine: str) -> None:
    assert format_bibliography([{**UNSIGNED_BOOK, "publisher": None}], "plain") == \
        "[1] The Chicago manual of style. 2017.\n"


def test_rtf_is_not_offered_by_pybtex_styles() -> None:
    with pytest.raises(Exception, match="style 'plain' cannot write 'rtf'"):
        format_bibliography([ARTICLE], style="plain", output="rtf")


# -- the same text as bibtex --------------------------------------------------------------
def _without_sets(text: str) -> str:
    """A .bib without its BibLaTeX ``@set`` entries (refbridge lists their members only)."""
    return re.sub(r"(?ms)^@set\{.*?^\}\s*$", "", text)


def _bibtex(bib: Path, style: str, work: Path) -> str:
    """The .bbl bibtex writes for every entry of ``bib`` in ``style``."""
    (work / "refs.bib").write_text(bib.read_text(encoding="utf-8"), encoding="utf-8")
    (work / "refs.aux").write_text(f"\\relax\n\\citation{{*}}\n\\bibstyle{{{style}}}\n"
                                   "\\bibdata{refs}\n", encoding="utf-8")
    subprocess.run(["bibtex", "-terse", "refs"], cwd=work, capture_output=True, check=False)
    return (work / "refs.bbl").read_text(encoding="utf-8", errors="replace")


def _libraries(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    seeds = tmp_path / "seeds.bib"
    write_records(read_records([str(SAMPLES / "zhengping-qian.profile.txt"),
                                str(SAMPLES / "qinwei-yang.profile.txt")], Diagnostics()),
                  str(seeds), "bibtex")
    yield "profile pages", seeds
    xampl = subprocess.run(["kpsewhich", "xampl.bib"], capture_output=True, text=True,
                           check=False).stdout.strip()
    if xampl:
        yield "xampl.bib", Path(xampl)
    examples = tmp_path / "biblatex-examples.bib"
    examples.write_text(_without_sets(biblatex_examples().read_text(encoding="utf-8")),
                        encoding="utf-8")
    yield "biblatex-examples.bib", examples


@requires_tool("bibtex", "kpsewhich")
@pytest.mark.parametrize("style", STYLES)
def test_every_entry_reads_as_bibtex_prints_it(style: str, tmp_path: Path) -> None:
    for name, bib in _libraries(tmp_path):
        work = tmp_path / f"{style}-{bib.stem}"
        work.mkdir()
        bbl = _bibtex(bib, style, work)
        items = as_items(r for r in read_records([str(bib)], Diagnostics())
                         if not is_container(r))
        ours = PybtexProcessor.create(style, items, FormatRequest()).bibliography()
        bibtex = PybtexProcessor.from_bbl(style, bbl, items, FormatRequest()).bibliography()
        assert len(ours) == len(items), name
        assert ours == bibtex, name


@requires_tool("bibtex", "kpsewhich")
def test_a_bbl_reads_as_text_without_latex() -> None:
    bbl = ("\\begin{thebibliography}{1}\n\n\\bibitem{whole-journal}\n"
           "{\\em \\mbox{G-Animal's} Journal}, 41(7), July 1986.\n\n"
           "\\bibitem{article-crossref}\nL[eslie]~A. Aamport.\n\\newblock The gnats and gnus\n"
           "  document preparation system.\n\\newblock In {\\em \\mbox{G-Animal's} Journal\\/} "
           "\\cite{whole-journal}, pages 73+.\n\n\\end{thebibliography}\n")
    items = [{"id": "whole-journal", "type": "article-journal", "title": "Journal"},
             {"id": "article-crossref", "type": "article-journal", "title": "Gnats"}]
    assert PybtexProcessor.from_bbl("plain", bbl, items, FormatRequest()).bibliography() == [
        "[1] G-Animal's Journal, 41(7), July 1986.",
        ("[2] L[eslie] A. Aamport. The gnats and gnus document preparation system. In "
        "G-Animal's Journal [1], pages 73+.")]


def test_the_owner_matcher_reaches_the_style() -> None:
    request = FormatRequest("text", None, name_matcher("Knuth"))
    assert PybtexProcessor.create("plain", [BOOK], request).bibliography() == [
        "[1] Donald E. Knuth. The art of computer programming. Addison-Wesley, 1997."]


def test_without_tex_the_styles_still_format(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    pybtex_bridge.bst_source.cache_clear()
    try:
        assert pybtex_bridge.bst_source("plain") is None
        assert format_bibliography([BOOK], "plain") == (
            "[1] Donald E. Knuth. The art of computer programming. Addison-Wesley, 1997.\n")
    finally:
        pybtex_bridge.bst_source.cache_clear()
