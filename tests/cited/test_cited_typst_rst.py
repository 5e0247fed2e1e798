"""What the scanners of Typst and reStructuredText (Sphinx) documents read as cited, and where
``refbridge.cited.spans`` finds each cited key in a document's text."""

from __future__ import annotations

from pathlib import Path

from refbridge.cited.citations import Scan
from refbridge.cited.documents import scan_documents, scan_text
from refbridge.cited.spans import citation_spans
from refbridge.errors import Diagnostics


def scanned(path: Path) -> Scan:
    return scan_documents([str(path)], Diagnostics())


def cited(scan: Scan) -> list[tuple[str, int, bool]]:
    return [(c.key, c.line, c.cross_reference) for c in scan.citations]


TYPST = """#set page(numbering: "1")
= Introduction <intro>
Transformers @vaswani2017 replaced recurrence, see @intro.
// @commented2020 is not cited
Also #cite(<devlin2019>, form: "prose") and `@raw2021` in raw text.
#bibliography(("refs.bib", "more.yml"))
"""


def test_typst_cites_at_keys_and_cite_labels_with_their_lines(tmp_path: Path) -> None:
    paper = tmp_path / "paper.typ"
    paper.write_text(TYPST, encoding="utf-8")
    assert cited(scanned(paper)) == [("vaswani2017", 3, False), ("intro", 3, True),
                                     ("devlin2019", 5, False)]


def test_typst_bibliography_names_every_file_of_its_list(tmp_path: Path) -> None:
    paper = tmp_path / "paper.typ"
    paper.write_text(TYPST, encoding="utf-8")
    assert [(named.path, named.line) for named in scanned(paper).libraries] == \
        [("refs.bib", 6), ("more.yml", 6)]


RST = """Results
=======

As shown by :cite:t:`vaswani2017` and others :cite:p:`{see}devlin2019, radford2019{p. 3}`.
A note :footcite:`lecun1998`.
"""


def test_rst_cites_the_keys_of_sphinxcontrib_bibtex_roles(tmp_path: Path) -> None:
    page = tmp_path / "docs" / "results.rst"
    page.parent.mkdir()
    page.write_text(RST, encoding="utf-8")
    assert cited(scanned(page)) == [("vaswani2017", 4, False), ("devlin2019", 4, False),
                                    ("radford2019", 4, False), ("lecun1998", 5, False)]


def test_rst_libraries_are_the_bibtex_bibfiles_of_the_nearest_conf_py(tmp_path: Path) -> None:
    (tmp_path / "docs" / "api").mkdir(parents=True)
    (tmp_path / "docs" / "conf.py").write_text(
        "extensions = ['sphinxcontrib.bibtex']\nbibtex_bibfiles = ['refs.bib', 'extra.bib']\n",
        encoding="utf-8")
    page = tmp_path / "docs" / "api" / "index.rst"
    page.write_text(RST, encoding="utf-8")
    conf = str(tmp_path / "docs" / "conf.py")
    assert [(n.path, n.file) for n in scanned(page).libraries] == [("refs.bib", conf),
                                                                   ("extra.bib", conf)]


def spans_of(name: str, text: str) -> list[tuple[str, str]]:
    scan = scan_text(name, text, Diagnostics())
    return [(span.key, text[span.start:span.end])
            for span in citation_spans(name, text, scan.citations)]


def test_spans_are_where_each_key_is_written_in_every_kind() -> None:
    latex = "% \\cite{hidden}\nAs \\citep[see][p.~2]{ knuth1984 ,lamport1994}.\n"
    markdown = "See [@knuth1984, p. 3; -@lamport1994] and @{odd:key}.\n"
    rst = ":cite:p:`{see}knuth1984,lamport1994`\n"
    assert spans_of("a.tex", latex) == [("knuth1984", "knuth1984"),
                                        ("lamport1994", "lamport1994")]
    assert spans_of("a.md", markdown) == [("knuth1984", "knuth1984"),
                                          ("lamport1994", "lamport1994"), ("odd:key", "odd:key")]
    assert [span.start for span in citation_spans(
        "a.typ", TYPST, scan_text("a.typ", TYPST, Diagnostics()).citations)] == \
        [TYPST.index("@vaswani2017") + 1, TYPST.index("@intro") + 1,
         TYPST.index("<devlin2019>") + 1]
    assert spans_of("a.rst", rst) == [("knuth1984", "knuth1984"),
                                      ("lamport1994", "lamport1994")]
