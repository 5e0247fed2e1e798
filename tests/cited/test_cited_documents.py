"""What ``refbridge cited`` reads as cited in each kind of document: .aux, .bcf, LaTeX, Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest

from refbridge.cited.citations import BIBLATEX, BIBTEX, Scan
from refbridge.cited.documents import scan_documents
from refbridge.errors import Diagnostics, ParseError


def scanned(path: Path, diagnostics: Diagnostics | None = None) -> Scan:
    return scan_documents([str(path)], diagnostics or Diagnostics())


def cited(scan: Scan) -> list[tuple[str, int]]:
    return [(citation.key, citation.line) for citation in scan.citations]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- .aux ------------------------------------------------------------------------------------
MAIN_AUX = r"""\relax 
\providecommand\hyper@newdestlabel[2]{}
\citation{vaswani2017attention}
\citation{devlin2019bert,radford2019language}
\@input{chapters/related.aux}
\citation{vaswani2017attention}
\bibstyle{plainnat}
\bibdata{refs,abbrev}
\bibcite{devlin2019bert}{{1}{2019}{{Devlin et~al.}}{{}}}
\@writefile{toc}{\contentsline {section}{\numberline {1}Introduction}{1}{section.1}\protected@file@percent }
\gdef \@abspage@last{4}
"""
RELATED_AUX = r"""\relax 
\citation{brown2020language}
\@setckpt{chapters/related}{
\setcounter{page}{3}
}
"""


def test_an_aux_cites_its_citation_keys_in_order_with_their_lines(tmp_path: Path) -> None:
    write(tmp_path / "chapters" / "related.aux", RELATED_AUX)
    scan = scanned(write(tmp_path / "paper.aux", MAIN_AUX))
    assert cited(scan) == [("vaswani2017attention", 3), ("devlin2019bert", 4),
                           ("radford2019language", 4), ("brown2020language", 2),
                           ("vaswani2017attention", 6)]
    assert scan.citations[3].file == str(tmp_path / "chapters" / "related.aux")


def test_an_aux_names_its_bibdata_libraries_with_bib_added(tmp_path: Path) -> None:
    write(tmp_path / "chapters" / "related.aux", RELATED_AUX)
    scan = scanned(write(tmp_path / "paper.aux", MAIN_AUX))
    assert [(library.path, library.line) for library in scan.libraries] == \
        [("refs.bib", 8), ("abbrev.bib", 8)]
    assert scan.dialects == {BIBTEX}


def test_an_aux_of_biblatex_with_the_bibtex_backend_names_no_control_file(tmp_path: Path
                                                                          ) -> None:
    scan = scanned(write(tmp_path / "paper.aux",
                         "\\relax \n\\citation{knuth1984}\n\\bibdata{paper-blx,refs}\n"))
    assert [library.path for library in scan.libraries] == ["refs.bib"]
    assert scan.dialects == {BIBLATEX}


def test_nocite_everything_in_an_aux_cites_every_entry(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.aux", "\\relax \n\\citation{*}\n\\bibdata{refs}\n"))
    assert scan.everything is not None and scan.everything.line == 2
    assert scan.citations == []


def test_an_aux_input_that_is_not_there_is_a_warning(tmp_path: Path) -> None:
    diagnostics = Diagnostics()
    scanned(write(tmp_path / "paper.aux", "\\relax \n\\@input{appendix.aux}\n"), diagnostics)
    assert [str(m) for m in diagnostics.messages] == [
        (f"{tmp_path / 'paper.aux'}:2: warning: \\@input{{appendix.aux}}: no such file (its "
        "\\include was not compiled yet?); its citations are not read")]


# -- .bcf ------------------------------------------------------------------------------------
BCF = """<?xml version="1.0" encoding="UTF-8"?>
<bcf:controlfile version="3.10" bltxversion="3.19" xmlns:bcf="https://sourceforge.net/projects/biblatex">
  <bcf:options component="biber" type="global">
    <bcf:option type="singlevalued">
      <bcf:key>output_encoding</bcf:key>
      <bcf:value>utf8</bcf:value>
    </bcf:option>
  </bcf:options>
  <bcf:bibdata section="0">
    <bcf:datasource type="file" datatype="bibtex" glob="false">refs.bib</bcf:datasource>
    <bcf:datasource type="file" datatype="bibtex" glob="false">~/texmf/bibtex/bib/all.bib</bcf:datasource>
  </bcf:bibdata>
  <bcf:section number="0">
    <bcf:citekey order="1" intorder="1">sigfridsson</bcf:citekey>
    <bcf:citekey order="2" intorder="1">worman</bcf:citekey>
    <bcf:citekey type="set" members="kant:kpv,kant:ku" order="3" intorder="1">kantset</bcf:citekey>
    <bcf:citekey order="4" intorder="1">*</bcf:citekey>
  </bcf:section>
  <bcf:datalist section="0" name="nyt/global//global/global/global" type="entry" sortingtemplatename="nyt" sortingnamekeytemplatename="global" labelprefix="" uniquenametemplatename="global" labelalphanametemplatename="global" namehashtemplatename="global"/>
</bcf:controlfile>
"""


def test_a_bcf_cites_its_citekeys_and_a_dynamic_sets_members(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.bcf", BCF))
    assert cited(scan) == [("sigfridsson", 14), ("worman", 15), ("kant:kpv", 16),
                           ("kant:ku", 16)]
    assert scan.everything is not None and scan.everything.line == 17
    assert scan.dialects == {BIBLATEX}


def test_a_bcf_names_its_datasources(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.bcf", BCF))
    assert [(library.path, library.line) for library in scan.libraries] == \
        [("refs.bib", 10), ("~/texmf/bibtex/bib/all.bib", 11)]


def test_a_bcf_datasource_that_is_no_bib_file_is_reported(tmp_path: Path) -> None:
    diagnostics = Diagnostics()
    scan = scanned(write(tmp_path / "paper.bcf", BCF.replace(
        'datatype="bibtex" glob="false">refs.bib', 'datatype="biblatexml">refs.bltxml')),
        diagnostics)
    assert [library.path for library in scan.libraries] == ["~/texmf/bibtex/bib/all.bib"]
    assert [str(m) for m in diagnostics.messages] == [
        (f"{tmp_path / 'paper.bcf'}:10: warning: data source 'refs.bltxml' (file, biblatexml) "
        "is not a .bib file; not read (name it with --library)")]


def test_a_bcf_that_is_not_well_formed_is_an_error_with_its_line(tmp_path: Path) -> None:
    broken = BCF.replace("</bcf:section>", "</bcf:sectoin>")
    with pytest.raises(ParseError, match=r"paper\.bcf:18:\d+: not well-formed XML"):
        scanned(write(tmp_path / "paper.bcf", broken))


# -- LaTeX -----------------------------------------------------------------------------------
def test_natbib_commands_cite_their_keys_past_optional_arguments(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex", r"""\documentclass{article}
\usepackage{natbib}
\begin{document}
Transformers \citep{vaswani2017attention} replaced recurrence; \citet*{hochreiter1997long}
showed it first \citep[see][chap.~2]{graves2012, sutskever2014}. \citeauthor{bahdanau2015}
(\citeyear{bahdanau2015}) and \citealp[p.~7]{cho2014}; \Citet{luong2015}.
\nocite{kingma2015}
\end{document}
"""))
    assert cited(scan) == [("vaswani2017attention", 4), ("hochreiter1997long", 4),
                           ("graves2012", 5), ("sutskever2014", 5), ("bahdanau2015", 5),
                           ("bahdanau2015", 6), ("cho2014", 6), ("luong2015", 6),
                           ("kingma2015", 7)]


def test_biblatex_multicite_commands_cite_every_group(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex", r"""\documentclass{article}
\usepackage[backend=biber,style=authoryear]{biblatex}
\addbibresource{refs.bib}
\begin{document}
\parencite[see][p.~3]{knuth:ct:a} and \textcite{companion}. \autocite*{angenendt}
\footcite[12]{augustine} \smartcite{aksin}
\cites(Compare)()[see][45]{sigfridsson}[]{worman}{nussbaum} and no more {text}.
\parencites[p.~5]{kant:kpv}
  [ch.~2]{kant:ku}
\volcite[see]{2}[45]{aristotle:rhetoric}
\end{document}
"""))
    assert cited(scan) == [
        ("knuth:ct:a", 5), ("companion", 5), ("angenendt", 5), ("augustine", 6),
        ("aksin", 6), ("sigfridsson", 7), ("worman", 7), ("nussbaum", 7), ("kant:kpv", 8),
        ("kant:ku", 8), ("aristotle:rhetoric", 10)]
    assert [library.path for library in scan.libraries] == ["refs.bib"]
    assert scan.dialects == {BIBLATEX}


def test_comments_cite_nothing_but_an_escaped_percent_is_text(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex", r"""We gain 5\% \cite{kept2020} % \cite{dropped}
%\cite{alsodropped}
Line\\% \cite{droppedtoo}
\begin{comment}
\cite{inthecomment}
\end{comment}
\iffalse \cite{neverset} \fi \cite{last}
"""))
    assert cited(scan) == [("kept2020", 1), ("last", 7)]


def test_verbatim_environments_cite_nothing(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex", r"""Cite with \cite{lamport1994}:
\begin{verbatim}
\cite{key}
\end{verbatim}
\begin{verbatim*}\cite{starred}\end{verbatim*}
\begin{lstlisting}[language={[LaTeX]TeX}]
\citep{listed}
\end{lstlisting}
\begin{minted}{latex}
\textcite{minted}
\end{minted}
\begin{Verbatim}[frame=single]
\cite{fancy}
\end{Verbatim}
\begin{filecontents*}{cites.tex}
\cite{written}
\end{filecontents*}
as in \cite{mittelbach2004}.
"""))
    assert cited(scan) == [("lamport1994", 1), ("mittelbach2004", 18)]


def test_verbatim_arguments_cite_nothing(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex", r"""Type \verb|\cite{key}| or \verb*+\cite{a b}+,
\lstinline!\cite{listed}! \lstinline[language=TeX]{\cite{braced}} \Verb!\cite{fancy}!
\mintinline{latex}{\cite{minted}} \mintinline{latex}|\cite{bar}| \cite{lamport1994}
\mint{latex}/\cite{mint}/ \verb|unclosed \cite{mittelbach2004}
"""))
    assert cited(scan) == [("lamport1994", 3), ("mittelbach2004", 4)]


def test_a_percent_in_verbatim_is_no_comment(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex",
                         "Write \\verb|50%| as \\cite{lamport1994}.\n"
                         "\\begin{verbatim}\n100% \\end{verbatim} \\cite{knuth1984}\n"
                         "A \\verb|%| then % \\cite{commented}\n"))
    assert cited(scan) == [("lamport1994", 1), ("knuth1984", 3)]


def test_a_commented_verbatim_environment_hides_nothing(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex",
                         "% \\begin{verbatim}\n\\cite{lamport1994}\n% \\end{verbatim}\n"))
    assert cited(scan) == [("lamport1994", 2)]


def test_alltt_typesets_commands_so_its_citations_count(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex",
                         "\\begin{alltt}\nsee \\cite{knuth1984}\n\\end{alltt}\n"))
    assert cited(scan) == [("knuth1984", 2)]


def test_a_macro_parameter_is_no_key(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex",
                         "\\newcommand{\\mycite}[1]{\\citep{#1}}\n\\mycite{a}\\cite{b}\n"))
    assert cited(scan) == [("b", 2)]


def test_input_include_and_subfile_are_read_relative_to_the_document(tmp_path: Path) -> None:
    write(tmp_path / "sections" / "intro.tex", "\\cite{intro1}\n\\input{sections/detail}\n")
    write(tmp_path / "sections" / "detail.tex", "\n\\cite{detail1}\n")
    write(tmp_path / "chapters" / "method.tex", "\\citep{method1}\n")
    write(tmp_path / "appendix.tex", "\\documentclass[paper.tex]{subfiles}\n\\cite{appx1}\n")
    main = write(tmp_path / "paper.tex", "\\cite{main1}\n\\input{sections/intro}\n"
                 "\\include{chapters/method}\n\\subfile{appendix.tex}\n"
                 "\\includegraphics{figure}\n")
    scan = scanned(main)
    assert [(c.key, Path(c.file).name, c.line) for c in scan.citations] == [
        ("main1", "paper.tex", 1), ("intro1", "intro.tex", 1), ("detail1", "detail.tex", 2),
        ("method1", "method.tex", 1), ("appx1", "appendix.tex", 2)]


def test_a_files_citations_come_where_it_is_brought_in(tmp_path: Path) -> None:
    write(tmp_path / "intro.tex", "Recurrent nets \\cite{hochreiter1997}.\n")
    write(tmp_path / "method.tex", "\\input{detail}\nAdam \\cite{kingma2015}.\n")
    write(tmp_path / "detail.tex", "Dropout \\cite{srivastava2014}.\n")
    scan = scanned(write(tmp_path / "paper.tex",
                         "\\cite{vaswani2017}\n\\input{intro}\n\\cite{devlin2019}\n"
                         "\\include{method}\n\\cite{brown2020}\n"))
    assert cited(scan) == [("vaswani2017", 1), ("hochreiter1997", 1), ("devlin2019", 3),
                           ("srivastava2014", 1), ("kingma2015", 2), ("brown2020", 5)]


def test_a_file_brought_in_twice_is_read_at_its_first_place(tmp_path: Path) -> None:
    write(tmp_path / "macros.tex", "\\nocite{knuth1984}\n\\input{paper}\n")
    scan = scanned(write(tmp_path / "paper.tex",
                         "\\cite{lamport1994}\n\\input{macros}\n\\input{macros}\n"
                         "\\cite{mittelbach2004}\n"))
    assert cited(scan) == [("lamport1994", 1), ("knuth1984", 1), ("mittelbach2004", 4)]


def test_a_file_brought_in_that_is_not_there_is_a_warning(tmp_path: Path) -> None:
    diagnostics = Diagnostics()
    scanned(write(tmp_path / "paper.tex", "\\input{glyphtounicode}\n\\cite{a}\n"), diagnostics)
    assert [str(m) for m in diagnostics.messages] == [
        (f"{tmp_path / 'paper.tex'}:1: warning: \\input: no file "
        f"'{tmp_path / 'glyphtounicode'}' (nor with .tex); its citations are not read")]


def test_bibliography_names_libraries_for_bibtex(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex",
                         "\\bibliographystyle{plain}\n\\bibliography{refs, ../shared/abbrev}\n"))
    assert [(library.path, library.line) for library in scan.libraries] == \
        [("refs.bib", 2), ("../shared/abbrev.bib", 2)]
    assert scan.dialects == {BIBTEX}


# -- Markdown --------------------------------------------------------------------------------
MARKDOWN = """---
title: "Attention, revisited"
bibliography: [refs.bib, extra.json]
nocite: |
  @kingma2015, @ba2016
---

# Introduction

Transformers [@vaswani2017; @devlin2019, p. 3] replaced recurrence.
@hochreiter1997 says so [-@hochreiter1997], as does @{doi:10.1000/xyz-1}.
Write to jane.doe@example.org or <mailto:jane@example.org>, not \\@escaped.
As @smith04. shows, see Figure @fig-results and @sec:intro.

`@incode` and ``a @twobackticks b`` are code; `r citation("@inr")` too.

```{r}
# @inchunk
plot(cars)
```

~~~
@infenced
~~~

<!-- @incomment -->

| paper | year |
|-------|------|
| @intable | 2020 |
"""


def markdown_scan(tmp_path: Path, name: str = "paper.md") -> Scan:
    return scanned(write(tmp_path / name, MARKDOWN))


def test_pandoc_citations_are_read_with_their_lines(tmp_path: Path) -> None:
    assert cited(markdown_scan(tmp_path)) == [
        ("kingma2015", 4), ("ba2016", 4), ("vaswani2017", 10), ("devlin2019", 10),
        ("hochreiter1997", 11), ("hochreiter1997", 11), ("doi:10.1000/xyz-1", 11),
        ("smith04", 13), ("fig-results", 13), ("sec:intro", 13), ("intable", 30)]


def test_indented_code_cites_nothing(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.md",
                         "Pandoc writes [@vaswani2017] as:\n\n    [@indented]\n\n"
                         "- a list\n\n      [@inlistcode]\n\nSee @devlin2019.\n"))
    assert cited(scan) == [("vaswani2017", 1), ("devlin2019", 9)]


def test_cross_reference_labels_are_marked_as_such(tmp_path: Path) -> None:
    marked = [c.key for c in markdown_scan(tmp_path).citations if c.cross_reference]
    assert marked == ["fig-results", "sec:intro"]


def test_r_markdown_and_quarto_are_read_as_markdown(tmp_path: Path) -> None:
    assert cited(markdown_scan(tmp_path, "paper.Rmd")) == cited(markdown_scan(tmp_path))
    assert cited(markdown_scan(tmp_path, "paper.qmd")) == cited(markdown_scan(tmp_path))


def test_the_front_matter_names_the_libraries(tmp_path: Path) -> None:
    assert [(library.path, library.line) for library in markdown_scan(tmp_path).libraries] == \
        [("refs.bib", 3), ("extra.json", 3)]


def test_nocite_everything_in_the_front_matter(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.md",
                         "---\nbibliography: refs.bib\nnocite: '@*'\n---\nText.\n"))
    assert scan.everything is not None and scan.everything.line == 3


def test_a_document_of_an_unknown_kind_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match=r"paper\.docx: cannot tell what kind of document"):
        scanned(write(tmp_path / "paper.docx", "x"))


def test_a_multicite_ends_at_an_unbalanced_or_keyless_group(tmp_path: Path) -> None:
    scan = scanned(write(tmp_path / "paper.tex",
                         "\\cites{a}[see] text \\cite{b}\n\\parencites{c}{d}[p.~3 \\cite{e}\n"))
    assert cited(scan) == [("a", 1), ("b", 1), ("c", 2), ("d", 2), ("e", 2)]
