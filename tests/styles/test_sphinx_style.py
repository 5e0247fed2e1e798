"""Sphinx documents with any CSL style: the pybtex styles of ``refbridge.sphinx_style``,
built by sphinx-build and compared with ``refbridge format`` on the same .bib."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

pytest.importorskip("sphinxcontrib.bibtex", reason="needs sphinx and sphinxcontrib-bibtex")
html5lib = pytest.importorskip("html5lib")

from pybtex.database import parse_string
from pybtex.plugin import find_plugin
from sphinx.cmd.build import build_main

from refbridge.sphinx_style import CslSpan, css, rich_text

#: Three works without formulas, so the text output and the HTML output say the same.
BIB = r"""@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming},
  journal = {The Computer Journal},
  year = {1984},
  volume = {27},
  number = {2},
  pages = {97--111},
  doi = {10.1093/comjnl/27.2.97},
}

@book{lamport1994,
  author = {Lamport, Leslie},
  title = {{\LaTeX}: A Document Preparation System},
  publisher = {Addison-Wesley},
  edition = {2},
  year = {1994},
}

@incollection{okafor2019,
  author = {Okafor, Chiamaka and van Dijk, Pieter},
  title = {Soil Carbon \& Land Use in the {Niger} Delta},
  booktitle = {Tropical Soils},
  editor = {Mensah, Kofi},
  publisher = {Springer},
  address = {Cham},
  year = {2019},
  pages = {45--67},
}
"""
#: A title with italics, a formula and markup-like text that must stay text.
FORMATTED = r"""@inproceedings{lee2020,
  author = {Lee, Ana and M{\"u}ller, Bernd},
  title = {Screens of \emph{E. coli} in H$_2$O: the <script> & <b> tags},
  booktitle = {Proceedings of the Conference on Things},
  year = {2020},
  pages = {1--10},
}
"""
INDEX = """\
Test
====

See :cite:p:`okafor2019`, :cite:p:`knuth1984` and :cite:p:`lamport1994`.

.. bibliography::
"""
SMALL_CAPS_CSL = """\
<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info>
    <title>Family names in small caps</title>
    <id>http://example.org/small-caps</id>
    <updated>2024-01-01T00:00:00+00:00</updated>
  </info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography>
    <layout suffix=".">
      <names variable="author">
        <name name-as-sort-order="all"><name-part name="family" font-variant="small-caps"/></name>
      </names>
      <text variable="title" prefix=", " font-style="italic"/>
    </layout>
  </bibliography>
</style>
"""


def _build(folder: Path, bib: str, conf: str, index: str = INDEX) -> list[Any]:
    """Build the Sphinx project (HTML) and return its bibliography's citation divs."""
    source = folder / "src"
    source.mkdir(exist_ok=True)
    (source / "refs.bib").write_text(bib, encoding="utf-8")
    (source / "conf.py").write_text("bibtex_bibfiles = ['refs.bib']\n" + textwrap.dedent(conf),
                                    encoding="utf-8")
    (source / "index.rst").write_text(index, encoding="utf-8")
    status = build_main(["-q", "-W", "-E", "-b", "html", str(source), str(folder / "html")])
    assert status == 0
    page = html5lib.parse((folder / "html" / "index.html").read_text(encoding="utf-8"),
                          namespaceHTMLElements=False)
    return list(page.iterfind(".//div[@class='citation']"))


def _entry(citation: Any) -> Any:
    return citation.find("p")


def _label(citation: Any) -> str:
    return "".join(citation.find("span[@class='label']").itertext()).strip("[]")


def _text(element: Any) -> str:
    return "".join(element.itertext())


#: Sphinx's HTML element -> the element refbridge's HTML output writes for the same thing
_SAME_AS: dict[str, str] = {"em": "i", "strong": "b"}


def _markup(element: Any) -> str:
    """The element's content as markup of text, formatting and links only."""
    parts = [element.text or ""]
    for child in element:
        tag = _SAME_AS.get(child.tag, child.tag)
        link = f' href="{child.get("href")}"' if tag == "a" else ""
        parts.append(f"<{tag}{link}>{_markup(child)}</{tag}>{child.tail or ''}")
    return "".join(parts)


def _formatted(bib_path: Path, *options: str) -> str:
    code, stdout, stderr = run_cli("format", str(bib_path), *options)
    assert (code, stderr) == (0, "")
    return stdout


def _refbridge_html_entries(bib_path: Path, style: str) -> list[Any]:
    page = html5lib.parse(_formatted(bib_path, "--style", style, "--to", "html", "--links"),
                          namespaceHTMLElements=False)
    return list(page.iterfind(".//div[@class='csl-entry']"))


def test_apa_entries_are_the_text_refbridge_format_writes(tmp_path: Path) -> None:
    citations = _build(tmp_path, BIB, "extensions = ['sphinxcontrib.bibtex']\n"
                                      "bibtex_default_style = 'refbridge-apa'\n")
    expected = _formatted(tmp_path / "src" / "refs.bib", "--style", "apa", "--to", "text")
    assert [_text(_entry(c)) for c in citations] == expected.splitlines()
    assert [_label(c) for c in citations] == ["1", "2", "3"]


def test_apa_entries_have_the_formatting_of_refbridges_html(tmp_path: Path) -> None:
    citations = _build(tmp_path, BIB + FORMATTED, """\
        extensions = ['sphinxcontrib.bibtex']
        bibtex_default_style = 'refbridge-apa'
        """, INDEX.replace("and :cite:p:", ":cite:p:`lee2020` and :cite:p:"))
    expected = _refbridge_html_entries(tmp_path / "src" / "refs.bib", "apa")
    assert [_markup(_entry(c)) for c in citations] == [_markup(e) for e in expected]
    assert _markup(_entry(citations[2])) == (
        "Lee, A., & Müller, B. (2020). Screens of <i>E. coli</i> in H<sub>2</sub>O: the "
        "<script> & <b> tags. <i>Proceedings of the Conference on Things</i>, 1–10.")


def test_record_text_never_becomes_markup(tmp_path: Path) -> None:
    citations = _build(tmp_path, FORMATTED, """\
        extensions = ['sphinxcontrib.bibtex']
        bibtex_default_style = 'refbridge-apa'
        """, INDEX.replace("okafor2019", "lee2020").replace(
            ", :cite:p:`knuth1984` and :cite:p:`lamport1994`", ""))
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "the &lt;script&gt; &amp; &lt;b&gt; tags" in page.replace("The &lt;", "the &lt;")
    assert [child.tag for child in _entry(citations[0])] == ["em", "sub", "em"]


def test_the_generic_style_renders_the_style_conf_py_names(tmp_path: Path) -> None:
    citations = _build(tmp_path, BIB, """\
        extensions = ['sphinxcontrib.bibtex', 'refbridge.sphinx_style']
        bibtex_default_style = 'refbridge'
        refbridge_csl_style = 'chicago-author-date'
        """)
    expected = _formatted(tmp_path / "src" / "refs.bib", "--style", "chicago-author-date")
    assert [_text(_entry(c)) for c in citations] == expected.splitlines()


def test_ieee_numbers_the_entries_in_citation_order_as_sphinx_labels(tmp_path: Path) -> None:
    citations = _build(tmp_path, BIB, "extensions = ['sphinxcontrib.bibtex']\n"
                                      "bibtex_default_style = 'refbridge-ieee'\n")
    assert [(_label(c), _text(_entry(c))) for c in citations] == [
        ("1", ("C. Okafor and P. van Dijk, “Soil Carbon & Land Use in the Niger Delta,” in "
              "Tropical Soils, K. Mensah, Ed., Cham: Springer, 2019, pp. 45–67.")),
        ("2", ("D. E. Knuth, “Literate Programming,” The Computer Journal, vol. 27, no. 2, "
              "pp. 97–111, 1984, doi: 10.1093/comjnl/27.2.97.")),
        ("3", ("L. Lamport, LaTeX: A Document Preparation System, 2nd ed. Addison-Wesley, "
              "1994.")),
    ]


def test_a_csl_file_named_in_conf_py_shows_its_small_caps(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "small-caps.csl").write_text(SMALL_CAPS_CSL, encoding="utf-8")
    citations = _build(tmp_path, BIB, """\
        extensions = ['sphinxcontrib.bibtex', 'refbridge.sphinx_style']
        bibtex_default_style = 'refbridge'
        refbridge_csl_style = 'small-caps.csl'
        """)
    spans = [span for c in citations for span in _entry(c).iter("span")]
    assert [(span.get("class"), span.text) for span in spans] == [
        ("csl-small-caps", "Okafor"), ("csl-small-caps", "Dijk"), ("csl-small-caps", "van"),
        ("csl-small-caps", "Knuth"), ("csl-small-caps", "Lamport")]
    assert [_text(_entry(c)) for c in citations] == [  # in citation order: the style sorts not
        "Okafor, Chiamaka, Dijk, Pieter van, Soil Carbon & Land Use in the Niger Delta.",
        "Knuth, Donald E., Literate Programming.",
        "Lamport, Leslie, LaTeX: A Document Preparation System."]
    assert (tmp_path / "html" / "_static" / "refbridge-csl.css").read_text(encoding="utf-8") \
        == css()


def test_the_style_formats_pybtex_entries_outside_sphinx() -> None:
    style = find_plugin("pybtex.style.formatting", "refbridge-apa")()
    data = parse_string(BIB, "bibtex")
    entries = list(style.format_entries(data.entries.values()))
    assert [(entry.key, entry.label) for entry in entries] == [
        ("knuth1984", "1"), ("lamport1994", "2"), ("okafor2019", "3")]
    assert entries[1].text.render_as("latex") == (
        r"Lamport, L. (1994). \emph{LaTeX: A Document Preparation System} (2nd ed.). "
        "Addison-Wesley.")


def test_small_caps_are_a_span_in_each_pybtex_backend() -> None:
    text = rich_text('<div class="csl-entry"><span style="font-variant:small-caps;">Nature'
                     "</span> &#38; <i>Science</i></div>")
    assert text.parts[0] == CslSpan("small-caps", "Nature")
    assert text.render_as("latex") == r"\textsc{Nature} \& \emph{Science}"
    assert text.render_as("html") == ('<span style="font-variant: small-caps">Nature</span> '
                                      "&amp; <em>Science</em>")
    assert text.render_as("text") == "Nature & Science"


def test_small_caps_are_a_classed_inline_node_in_docutils() -> None:
    from pybtex.plugin import find_plugin as find

    backend = find("pybtex.backends", "docutils")()
    nodes = CslSpan("small-caps", "Nature").render(backend)
    assert [(node.tagname, node["classes"], node.astext()) for node in nodes] == [
        ("inline", ["csl-small-caps"], "Nature")]


def test_a_labelling_styles_label_is_left_to_sphinx() -> None:
    text = rich_text('<div class="csl-entry">\n    <div class="csl-left-margin">[1]</div>'
                     '<div class="csl-right-inline">A. Lee, <i>Title</i>.</div>\n  </div>')
    assert text.render_as("html") == "A. Lee, <em>Title</em>."
