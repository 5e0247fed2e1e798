"""CSL-JSON and Zotero markup: rich text out and back, literal tags kept as text."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from strategies import rich_value
from support import REFERENCE_NODE_MODULES, SHARED, requires_reference_js

from refbridge.formats.csl_markup import TAG_BREAK, from_markup, is_lossless, to_markup
from refbridge.formats.csljson import from_csl, to_csl
from refbridge.latex.decode import decode_latex
from refbridge.model import Record
from refbridge.richtext import Math, Raw, Style, Styled, Text, rich


@pytest.mark.parametrize(("value", "markup"), [
    (rich([Styled(Style.ITALIC, ("Drosophila",)), " genes"]), "<i>Drosophila</i> genes"),
    (rich(["H", Styled(Style.SUBSCRIPT, ("2",)), "O"]), "H<sub>2</sub>O"),
    (rich(["E = mc", Styled(Style.SUPERSCRIPT, ("2",))]), "E = mc<sup>2</sup>"),
    (rich([Styled(Style.BOLD, ("bold",))]), "<b>bold</b>"),
    (rich([Styled(Style.SMALL_CAPS, ("Sc",))]),
     '<span style="font-variant:small-caps;">Sc</span>'),
    (rich(["The ", Styled(Style.NOCASE, ("DNA",)), " code"]),
     'The <span class="nocase">DNA</span> code'),
])
def test_styles_become_the_tags_csl_processors_read(value: Text, markup: str) -> None:
    assert to_markup(value) == markup
    assert from_markup(markup) == value


def test_a_formula_is_shown_in_unicode_with_scripts_and_protected() -> None:
    assert to_markup(rich(["costs ", Math("O(n^2)")])) == \
        'costs <span class="nocase">O(n<sup>2</sup>)</span>'


def test_raw_latex_is_shown_as_written_and_protected() -> None:
    assert to_markup(rich([Raw("\\cite{x}")])) == '<span class="nocase">\\cite{x}</span>'


def test_a_literal_tag_in_text_is_broken_so_that_no_processor_reads_it() -> None:
    markup = to_markup("Using <i> and <span class=\"nocase\"> in titles")
    assert markup == (f"Using <{TAG_BREAK}i> and <{TAG_BREAK}span class=\"nocase\"> "
                      "in titles")
    assert from_markup(markup) == "Using <i> and <span class=\"nocase\"> in titles"


def test_other_angle_brackets_stay_as_they_are() -> None:
    assert to_markup("1 < 2 and <script>") == "1 < 2 and <script>"


def test_tags_that_do_not_pair_are_text() -> None:
    assert from_markup("a <i>b") == "a <i>b"
    assert from_markup("a </b> c") == "a </b> c"


def test_italic_inside_italic_is_upright_as_citeproc_js_reads_it() -> None:
    # citeproc-js: <i>Studies of <span style="font-style:normal;">Homo</span> in Kenya</i>
    assert from_markup("<i>Studies of <i>Homo</i> in Kenya</i>") == rich(
        [Styled(Style.ITALIC, ("Studies of ",)), "Homo", Styled(Style.ITALIC, (" in Kenya",))])


def test_a_style_turned_off_inside_another_keeps_that_one() -> None:
    # citeproc-js: <i>Notes on <b>the <span style="font-style:normal;">Beagle</span> log</b></i>;
    # bold and small caps inside themselves are turned off too, superscript is not
    assert from_markup("<i>Notes on <b>the <i>Beagle</i> log</b></i>") == rich([
        Styled(Style.ITALIC, ("Notes on ", Styled(Style.BOLD, ("the ",)))),
        Styled(Style.BOLD, ("Beagle",)), Styled(Style.ITALIC, (Styled(Style.BOLD, (" log",)),))])
    assert from_markup("<b>Bold <b>inner</b></b> and <sup>a<sup>b</sup></sup>") == rich(
        [Styled(Style.BOLD, ("Bold ",)), "inner and ", Styled(Style.SUPERSCRIPT, ("ab",))])


def test_a_span_without_a_known_style_keeps_its_text() -> None:
    assert from_markup('<span class="nodecor">plain</span> text') == "plain text"


def test_formulas_and_raw_latex_are_not_lossless_as_markup() -> None:
    assert is_lossless(rich([Styled(Style.ITALIC, ("x",))]))
    assert not is_lossless(rich([Math("x^2")]))


@given(rich_value())
def test_lossless_values_come_back_from_their_markup(value: Text) -> None:
    if is_lossless(value):
        assert from_markup(to_markup(value)) == value


@given(rich_value())
def test_every_value_comes_back_from_csl_json(value: Text) -> None:
    record = Record(id="k", type="article-journal", fields={"title": value})
    assert from_csl(to_csl(record)).fields["title"] == value


def test_csl_json_keeps_a_bib_spelling_beside_the_markup() -> None:
    value = decode_latex('Schr\\"{o}dinger $\\psi$')
    item = to_csl(Record(id="k", type="book", fields={"title": value}))
    assert item["title"] == ('Schr<span class="nocase">ö</span>dinger '
                             '<span class="nocase">ψ</span>')
    assert item["custom"]["latex"] == {"title": 'Schr\\"{o}dinger $\\psi$'}


def test_an_edited_value_wins_over_a_stale_spelling() -> None:
    item = {"id": "k", "type": "book", "title": "Schrödinger's cat",
            "custom": {"latex": {"title": 'Schr\\"{o}dinger'}}}
    assert from_csl(item).fields["title"] == "Schrödinger's cat"


@requires_reference_js()
def test_citeproc_js_shows_clean_text_for_rich_values(tmp_path: Path) -> None:
    """The markup is what citeproc-js (Zotero's CSL engine) reads: no literal tags."""
    if not (SHARED / "tools" / "csl-reference.js").exists():
        pytest.skip("needs ../shared/tools/csl-reference.js")
    titles = [decode_latex("The {DNA} of \\emph{Drosophila}: H\\textsubscript{2}O and "
                           "$\\sum_{i=1}^n x_i^2 \\geq 0$ in {\\sc Small} caps"),
              "Literal <i> tags & <b>stay</b> text"]
    items = [to_csl(Record(id=f"r{n}", type="article-journal",
                           fields={"title": title, "container-title": "Genetics"}))
             for n, title in enumerate(titles)]
    path = tmp_path / "items.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    result = subprocess.run(
        ["node", str(SHARED / "tools" / "csl-reference.js"), str(SHARED / "csl" / "apa.csl"),
         str(path), "html"], capture_output=True, text=True, check=True,
        env={**os.environ, "NODE_PATH": str(REFERENCE_NODE_MODULES)})
    html = result.stdout
    assert "<i>Drosophila</i>" in html
    assert "H<sub>2</sub>O" in html
    assert "∑<sub>i=1</sub><sup>n</sup> x<sub>i</sub><sup>2</sup> ≥ 0" in html
    assert '<span style="font-variant:small-caps;">Small</span>' in html
    assert "&#60;" + TAG_BREAK + "i&#62; tags" in html
    assert "nocase" not in html
