"""``refbridge cited``: a .bib holding exactly what a paper cites, and what is missing."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support import SHARED, requires_tool, run_cli

from refbridge.errors import ExitStatus

LIBRARY = r"""% The group's library
@string{ jmlr = "Journal of Machine Learning Research" }
@string{ pmlr = {Proceedings of Machine Learning Research} }

@preamble{ "\providecommand{\noopsort}[1]{}" }

@proceedings{icml2015,
  title     = {Proceedings of the 32nd International Conference on Machine Learning},
  booktitle = {Proceedings of the 32nd International Conference on Machine Learning},
  editor    = {Bach, Francis and Blei, David},
  series    = pmlr,
  volume    = {37},
  publisher = {PMLR},
  address   = {Lille, France},
  year      = {2015},
}

@article{srivastava2014dropout,
  author  = {Srivastava, Nitish and Hinton, Geoffrey and Krizhevsky, Alex and
             Sutskever, Ilya and Salakhutdinov, Ruslan},
  title   = {Dropout: A Simple Way to Prevent Neural Networks from Overfitting},
  journal = jmlr,
  year    = {2014},
  volume  = {15},
  number  = {56},
  pages   = {1929--1958},
}

@inproceedings{ioffe2015batch,
  author    = {Ioffe, Sergey and Szegedy, Christian},
  title     = {Batch Normalization: Accelerating Deep Network Training by Reducing
               Internal Covariate Shift},
  crossref  = {icml2015},
  pages     = {448--456},
}

@preamble{ "\providecommand{\SortNoop}[1]{}" }

@book{goodfellow2016deep,
  author    = {Goodfellow, Ian and Bengio, Yoshua and Courville, Aaron},
  title     = {Deep Learning},
  publisher = {MIT Press},
  year      = {\noopsort{2016}2016},
}

@article{kingma2014adam,
  author  = {Kingma, Diederik P. and Ba, Jimmy},
  title   = {{Adam}: A Method for Stochastic Optimization},
  journal = {arXiv preprint arXiv:1412.6980},
  year    = {2014},
}
"""

#: An .aux as pdflatex writes it for a paper citing two entries (one twice) with plain.bst.
AUX = r"""\relax 
\citation{ioffe2015batch}
\citation{srivastava2014dropout}
\citation{ioffe2015batch}
\bibstyle{plain}
\bibdata{library}
\bibcite{ioffe2015batch}{1}
\bibcite{srivastava2014dropout}{2}
\@writefile{toc}{\contentsline {section}{\numberline {1}Introduction}{1}{}\protected@file@percent }
\gdef \@abspage@last{2}
"""

#: What ``cited`` writes for AUX: the library's @preamble blocks, the @string definitions
#: the entries use, the cited entries as the library wrote them and the crossref parent after
#: its child.
EXPECTED = r"""@preamble{ "\providecommand{\noopsort}[1]{}" }

@preamble{ "\providecommand{\SortNoop}[1]{}" }

@string{ jmlr = "Journal of Machine Learning Research" }

@string{ pmlr = {Proceedings of Machine Learning Research} }

@inproceedings{ioffe2015batch,
  author    = {Ioffe, Sergey and Szegedy, Christian},
  title     = {Batch Normalization: Accelerating Deep Network Training by Reducing
               Internal Covariate Shift},
  crossref  = {icml2015},
  pages     = {448--456},
}

@article{srivastava2014dropout,
  author  = {Srivastava, Nitish and Hinton, Geoffrey and Krizhevsky, Alex and
             Sutskever, Ilya and Salakhutdinov, Ruslan},
  title   = {Dropout: A Simple Way to Prevent Neural Networks from Overfitting},
  journal = jmlr,
  year    = {2014},
  volume  = {15},
  number  = {56},
  pages   = {1929--1958},
}

@proceedings{icml2015,
  title     = {Proceedings of the 32nd International Conference on Machine Learning},
  booktitle = {Proceedings of the 32nd International Conference on Machine Learning},
  editor    = {Bach, Francis and Blei, David},
  series    = pmlr,
  volume    = {37},
  publisher = {PMLR},
  address   = {Lille, France},
  year      = {2015},
}
"""

#: What ``cited --to bibtex`` writes for AUX: the entries written anew, as ``convert`` writes
#: a .bib (the macros written out, the @preamble blocks joined).
EXPECTED_WRITTEN = r"""@preamble{"\providecommand{\noopsort}[1]{}" # "\providecommand{\SortNoop}[1]{}"}

@inproceedings{ioffe2015batch,
  author = {Ioffe, Sergey and Szegedy, Christian},
  title = {Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift},
  crossref = {icml2015},
  pages = {448--456},
}

@article{srivastava2014dropout,
  author = {Srivastava, Nitish and Hinton, Geoffrey and Krizhevsky, Alex and Sutskever, Ilya and Salakhutdinov, Ruslan},
  title = {Dropout: A Simple Way to Prevent Neural Networks from Overfitting},
  journal = {Journal of Machine Learning Research},
  year = {2014},
  volume = {15},
  number = {56},
  pages = {1929--1958},
}

@proceedings{icml2015,
  title = {Proceedings of the 32nd International Conference on Machine Learning},
  booktitle = {Proceedings of the 32nd International Conference on Machine Learning},
  editor = {Bach, Francis and Blei, David},
  series = {Proceedings of Machine Learning Research},
  volume = {37},
  publisher = {PMLR},
  address = {Lille, France},
  year = {2015},
}
"""


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    """A paper's directory: library.bib and the paper.aux that cites from it."""
    (tmp_path / "library.bib").write_text(LIBRARY, encoding="utf-8")
    (tmp_path / "paper.aux").write_text(AUX, encoding="utf-8")
    return tmp_path


def test_an_aux_gives_its_entries_with_parents_and_preambles(paper: Path) -> None:
    status, _, err = run_cli("cited", str(paper / "paper.aux"), "-o", str(paper / "paper.bib"))
    assert status == ExitStatus.OK, err
    assert (paper / "paper.bib").read_text(encoding="utf-8") == EXPECTED
    assert err == ("refbridge: cited: 3 entries written as bibtex (2 cited, 1 needed by them) "
                   "from 5 in 1 library\n")


def test_a_named_bib_format_writes_the_entries_anew(paper: Path) -> None:
    status, _, err = run_cli("cited", str(paper / "paper.aux"), "--to", "bibtex",
                             "-o", str(paper / "paper.bib"))
    assert status == ExitStatus.OK, err
    assert (paper / "paper.bib").read_text(encoding="utf-8") == EXPECTED_WRITTEN


def test_library_order_keeps_the_librarys_order_with_parents_after_children(paper: Path
                                                                            ) -> None:
    (paper / "paper.aux").write_text(AUX.replace("\\citation{ioffe2015batch}\n", "", 1)
                                     .replace("\\citation{srivastava2014dropout}\n",
                                              "\\citation{kingma2014adam}\n"
                                              "\\citation{srivastava2014dropout}\n"),
                                     encoding="utf-8")
    status, out, _ = run_cli("cited", str(paper / "paper.aux"), "--order", "library")
    assert status == ExitStatus.OK
    keys = [line.partition("{")[2].rstrip(",") for line in out.splitlines()
            if line.startswith("@") and not line.startswith(("@preamble", "@string"))]
    assert keys == ["srivastava2014dropout", "ioffe2015batch", "kingma2014adam", "icml2015"]


def test_a_missing_key_is_reported_where_it_is_cited_with_the_closest_keys(paper: Path
                                                                           ) -> None:
    (paper / "paper.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n"
        "Dropout \\cite{srivastava2014dropout} and Adam \\cite{kingma2015adam}.\n"
        "Batch normalisation \\citep[see][]{Ioffe2015batch}.\n"
        "Again \\cite{kingma2015adam}.\n"
        "\\bibliography{library}\n\\end{document}\n", encoding="utf-8")
    status, _, err = run_cli("cited", str(paper / "paper.tex"), "-o", str(paper / "paper.bib"))
    tex = paper / "paper.tex"
    assert status == ExitStatus.MISSING == 5
    assert err.splitlines()[:2] == [
        (f"{tex}:3: error: 'kingma2015adam' is cited but no library holds it; did you mean "
        "'kingma2014adam'? (cited in 1 more place(s))"),
        (f"{tex}:4: error: 'Ioffe2015batch' is cited but no library holds it; did you mean "
        "'ioffe2015batch'?")]
    assert "@article{srivastava2014dropout," in (paper / "paper.bib").read_text("utf-8")


def test_a_cite_shown_in_verbatim_is_no_missing_key(paper: Path) -> None:
    (paper / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage{listings}\n\\begin{document}\n"
        "Dropout \\cite{srivastava2014dropout}, written \\verb|\\cite{key}|:\n"
        "\\begin{lstlisting}\n\\cite{srivastava2014dropout,key}\n\\end{lstlisting}\n"
        "\\bibliography{library}\n\\end{document}\n", encoding="utf-8")
    status, _, err = run_cli("cited", str(paper / "paper.tex"), "-o", str(paper / "paper.bib"))
    assert status == ExitStatus.OK
    assert err == ("refbridge: cited: 1 entry written as bibtex (1 cited, 0 needed by them) "
                   "from 5 in 1 library\n")


def test_cited_order_reads_an_input_files_citations_where_it_is_input(paper: Path) -> None:
    (paper / "related.tex").write_text("Adam \\cite{kingma2014adam}.\n", encoding="utf-8")
    (paper / "paper.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\cite{goodfellow2016deep}\n"
        "\\input{related}\n\\cite{srivastava2014dropout}\n"
        "\\bibliography{library}\n\\end{document}\n", encoding="utf-8")
    status, out, _ = run_cli("cited", str(paper / "paper.tex"), "--order", "cited")
    assert status == ExitStatus.OK
    keys = [line for line in out.splitlines()
            if line.startswith("@") and not line.startswith(("@preamble", "@string"))]
    assert keys == ["@book{goodfellow2016deep,", "@article{kingma2014adam,",
                    "@article{srivastava2014dropout,"]


def test_allow_missing_exits_0_and_still_reports(paper: Path) -> None:
    (paper / "paper.aux").write_text(AUX + "\\citation{nosuchkey}\n", encoding="utf-8")
    status, _, err = run_cli("cited", str(paper / "paper.aux"), "--allow-missing")
    assert status == ExitStatus.OK
    assert f"{paper / 'paper.aux'}:11: error: 'nosuchkey' is cited but no library holds it\n" \
        in err


def test_unused_lists_the_entries_nothing_cites_with_their_lines(paper: Path) -> None:
    status, _, err = run_cli("cited", str(paper / "paper.aux"), "--unused")
    library = paper / "library.bib"
    assert status == ExitStatus.OK
    assert err.splitlines()[:2] == [
        f"{library}:39: note: 'goodfellow2016deep' is cited by no document",
        f"{library}:46: note: 'kingma2014adam' is cited by no document"]


def test_nocite_everything_writes_every_entry(paper: Path) -> None:
    (paper / "paper.aux").write_text("\\relax \n\\citation{kingma2014adam}\n\\citation{*}\n"
                                     "\\bibdata{library}\n", encoding="utf-8")
    status, out, _ = run_cli("cited", str(paper / "paper.aux"))
    assert status == ExitStatus.OK
    keys = [line for line in out.splitlines()
            if line.startswith("@") and not line.startswith(("@preamble", "@string"))]
    assert keys == ["@article{kingma2014adam,", "@article{srivastava2014dropout,",
                        "@inproceedings{ioffe2015batch,", "@book{goodfellow2016deep,",
                        "@proceedings{icml2015,"]


BIBLATEX_LIBRARY = r"""@xdata{springer:berlin,
  publisher = {Springer},
  location  = {Berlin and Heidelberg},
}

@book{kant:kpv,
  author = {Kant, Immanuel},
  title  = {Kritik der praktischen Vernunft},
  xdata  = {springer:berlin},
  date   = {1788},
}

@book{kant:ku,
  author = {Kant, Immanuel},
  title  = {Kritik der Urtheilskraft},
  xdata  = {springer:berlin},
  date   = {1790},
}

@set{kant,
  entryset = {kant:kpv,kant:ku},
}

@online{ctan,
  title   = {CTAN},
  url     = {https://www.ctan.org},
  urldate = {2006-10-01},
}
"""

BCF = """<?xml version="1.0" encoding="UTF-8"?>
<bcf:controlfile version="3.10" bltxversion="3.19" xmlns:bcf="https://sourceforge.net/projects/biblatex">
  <bcf:bibdata section="0">
    <bcf:datasource type="file" datatype="bibtex" glob="false">philosophy.bib</bcf:datasource>
  </bcf:bibdata>
  <bcf:section number="0">
    <bcf:citekey order="1" intorder="1">kant</bcf:citekey>
  </bcf:section>
</bcf:controlfile>
"""


def test_a_bcf_gives_a_sets_members_and_their_xdata_in_biblatex(tmp_path: Path) -> None:
    (tmp_path / "philosophy.bib").write_text(BIBLATEX_LIBRARY, encoding="utf-8")
    (tmp_path / "paper.bcf").write_text(BCF, encoding="utf-8")
    status, out, err = run_cli("cited", str(tmp_path / "paper.bcf"))
    assert status == ExitStatus.OK, err
    assert [line for line in out.splitlines() if line.startswith("@")] == [
        "@set{kant,", "@book{kant:kpv,", "@xdata{springer:berlin,", "@book{kant:ku,"]
    assert "written as biblatex (1 cited, 3 needed by them)" in err


def test_a_key_an_entry_needs_that_no_library_holds_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "philosophy.bib").write_text(BIBLATEX_LIBRARY.replace(
        "xdata  = {springer:berlin},\n  date   = {1788}", "xdata  = {springer}, date = {1788}"),
        encoding="utf-8")
    (tmp_path / "paper.bcf").write_text(BCF, encoding="utf-8")
    status, _, err = run_cli("cited", str(tmp_path / "paper.bcf"))
    assert status == ExitStatus.OK
    assert err.splitlines()[0] == (f"{tmp_path / 'philosophy.bib'}:6: warning: entry "
                                   "'kant:kpv' names xdata 'springer', which no library holds")


def test_csl_json_for_pandoc_from_a_markdown_paper(tmp_path: Path) -> None:
    (tmp_path / "library.bib").write_text(LIBRARY, encoding="utf-8")
    (tmp_path / "paper.md").write_text(
        "---\nbibliography: library.bib\n---\n\nDropout [@srivastava2014dropout, p. 1930] "
        "helps; see @fig-loss and @ioffe2015batch.\n", encoding="utf-8")
    status, _, err = run_cli("cited", str(tmp_path / "paper.md"), "-o",
                             str(tmp_path / "paper.json"))
    assert status == ExitStatus.OK, err
    items = json.loads((tmp_path / "paper.json").read_text(encoding="utf-8"))
    assert [(item["id"], item["type"], item.get("page")) for item in items] == [
        ("srivastava2014dropout", "article-journal", "1929\u20131958"),
        ("ioffe2015batch", "paper-conference", "448\u2013456"), ("icml2015", "book", None)]
    assert items[1]["container-title"] == \
        "Proceedings of the 32nd International Conference on Machine Learning"


@pytest.mark.skipif(not (SHARED / "schemas" / "csl-data.json").is_file(),
                    reason="needs ../shared/schemas/csl-data.json")
def test_the_csl_json_written_is_valid(paper: Path) -> None:
    import jsonschema

    status, out, _ = run_cli("cited", str(paper / "paper.aux"), "--to", "csl-json")
    assert status == ExitStatus.OK
    schema = json.loads((SHARED / "schemas" / "csl-data.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(out), schema)


def test_libraries_given_replace_those_the_documents_name(paper: Path) -> None:
    other = paper / "other.bib"
    other.write_text("@misc{ioffe2015batch, title = {Another}}\n", encoding="utf-8")
    status, out, _ = run_cli("cited", str(paper / "paper.aux"), "--library", str(other),
                             "--allow-missing")
    assert status == ExitStatus.OK
    assert out == "@misc{ioffe2015batch, title = {Another}}\n"


def test_no_library_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text("\\cite{a}\n", encoding="utf-8")
    status, out, err = run_cli("cited", str(tmp_path / "paper.tex"))
    assert (status, out) == (ExitStatus.USAGE, "")
    assert err == ("refbridge: error: the documents name no library (no \\bibdata, "
                   "\\bibliography, \\addbibresource or bibliography:); name one with "
                   "--library\n")


def test_a_named_library_that_is_not_there_is_an_error_with_its_line(paper: Path) -> None:
    (paper / "paper.aux").write_text(AUX.replace("\\bibdata{library}", "\\bibdata{librar}"),
                                     encoding="utf-8")
    status, _, err = run_cli("cited", str(paper / "paper.aux"), "-o", str(paper / "out.bib"))
    assert status == ExitStatus.FAILED
    assert err.startswith(f"refbridge: error: {paper / 'paper.aux'}:6: the library "
                          "'librar.bib' named here is not in")
    assert not (paper / "out.bib").exists()


def test_an_output_format_the_name_does_not_tell_is_a_usage_error(paper: Path) -> None:
    status, _, err = run_cli("cited", str(paper / "paper.aux"), "-o", str(paper / "out.xyz"))
    assert status == ExitStatus.USAGE
    assert "cannot tell the output format from the name" in err


def test_the_output_never_overwrites_the_library(paper: Path) -> None:
    status, _, _ = run_cli("cited", str(paper / "paper.aux"), "-o",
                           str(paper / "library.bib"))
    assert status == ExitStatus.FAILED
    assert (paper / "library.bib").read_text(encoding="utf-8") == LIBRARY


DOCUMENT = r"""\documentclass{article}
\begin{document}
Batch normalisation~\cite{ioffe2015batch} and dropout~\cite{srivastava2014dropout}.
\bibliographystyle{plain}
\bibliography{paper}
\end{document}
"""


@requires_tool("pdflatex", "bibtex")
def test_the_paper_compiles_with_bibtex_and_the_crossref_resolves(paper: Path) -> None:
    build = paper / "build"
    build.mkdir()
    status, _, err = run_cli("cited", str(paper / "paper.aux"), "-o", str(build / "paper.bib"))
    assert status == ExitStatus.OK, err
    (build / "doc.tex").write_text(DOCUMENT, encoding="utf-8")
    for command in (["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "doc.tex"],
                    ["bibtex", "doc"]):
        run = subprocess.run(command, cwd=build, capture_output=True, text=True, timeout=120,
                             check=False)
        assert run.returncode == 0, run.stdout
    log = (build / "doc.blg").read_text(encoding="utf-8")
    assert "Warning" not in log and "error" not in log.lower(), log
    bbl = (build / "doc.bbl").read_text(encoding="utf-8")
    assert "\\bibitem{ioffe2015batch}" in bbl and "\\bibitem{srivastava2014dropout}" in bbl
    assert "Francis Bach and David Blei, editors, {\\em Proceedings of the 32nd " \
        "International Conference on Machine Learning}" in " ".join(bbl.split())


BIBLATEX_DOCUMENT = r"""\documentclass{article}
\usepackage[backend=biber]{biblatex}
\addbibresource{paper.bib}
\begin{document}
Kant's critiques~\cite{kant}, also online~\parencite[see][]{ctan}.
\printbibliography
\end{document}
"""


@requires_tool("pdflatex", "biber")
def test_the_bcf_pdflatex_writes_gives_a_bib_biber_reads_without_a_warning(tmp_path: Path
                                                                           ) -> None:
    (tmp_path / "philosophy.bib").write_text(BIBLATEX_LIBRARY, encoding="utf-8")
    (tmp_path / "doc.tex").write_text(BIBLATEX_DOCUMENT, encoding="utf-8")

    def run(*command: str) -> str:
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                              timeout=180, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    run("pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "doc.tex")
    status, _, err = run_cli("cited", str(tmp_path / "doc.bcf"), "--library",
                             str(tmp_path / "philosophy.bib"), "-o", str(tmp_path / "paper.bib"))
    assert status == ExitStatus.OK, err
    assert "5 entries written as biblatex (2 cited, 3 needed by them)" in err
    log = run("biber", "doc")
    assert "WARN" not in log and "ERROR" not in log, log
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    assert all(f"\\entry{{{key}}}" in bbl for key in ("kant", "kant:kpv", "kant:ku", "ctan"))


def test_only_the_definitions_the_entries_use_are_written_with_those_they_use(
        tmp_path: Path) -> None:
    (tmp_path / "library.bib").write_text(
        '@string{acm = "ACM"}\n@string{tods = acm # " Trans. Database Syst."}\n'
        '@string{vldbj = "VLDB J."}\n\n'
        "@article{qian2024,\n  author = {Qian, Zhengping},\n  title = {Streams},\n"
        "  journal = tods,\n  month = mar,\n  year = 2024,\n}\n", encoding="utf-8")
    (tmp_path / "paper.aux").write_text("\\citation{qian2024}\n\\bibdata{library}\n",
                                        encoding="utf-8")
    status, out, _ = run_cli("cited", str(tmp_path / "paper.aux"))
    assert status == ExitStatus.OK
    assert out == ('@string{acm = "ACM"}\n\n@string{tods = acm # " Trans. Database Syst."}\n\n'
                   "@article{qian2024,\n  author = {Qian, Zhengping},\n  title = {Streams},\n"
                   "  journal = tods,\n  month = mar,\n  year = 2024,\n}\n")


def test_an_entity_in_a_bcf_is_kept_as_its_text_and_reported(tmp_path: Path) -> None:
    (tmp_path / "philosophy.bib").write_text(BIBLATEX_LIBRARY, encoding="utf-8")
    (tmp_path / "paper.bcf").write_text(BCF.replace(
        "<bcf:controlfile", '<!DOCTYPE bcf:controlfile SYSTEM "bcf.dtd">\n<bcf:controlfile'
    ).replace(">kant<", ">kant&nbsp;<"), encoding="utf-8")
    status, _, err = run_cli("cited", str(tmp_path / "paper.bcf"))
    bcf = tmp_path / "paper.bcf"
    assert f"{bcf}:8: warning: biber control file: entity &nbsp; is not defined in the " \
           "document (its DTD is not read): kept as the text &nbsp;" in err.splitlines()
    assert f"{bcf}:8: error: 'kant&nbsp;' is cited but no library holds it" in err
    assert status == ExitStatus.SKIPPED
