"""``refbridge format`` shows the model's rich text in every output: italics, small caps,
superscripts and subscripts as the output's own markup, a formula as its TeX in LaTeX and as
Unicode elsewhere; nothing in a value ever changes case when it is case-protected or a formula,
and what CSL-JSON could not say (kept as written by the reader) reaches the engine."""

from __future__ import annotations

import io

import pytest

from refbridge.csl import CslStyle, make_processor
from refbridge.errors import Diagnostics
from refbridge.formats.csljson import READER
from refbridge.formatting import as_items, format_bibliography
from refbridge.model import Date, Name, Record
from refbridge.richtext import Math, Raw, Style, Styled, Url, rich

TITLE = rich(["The ", Styled(Style.ITALIC, ("Bounty",)), " and ", Math("O(n^2)"), " sorting of H",
              Styled(Style.SUBSCRIPT, ("2",)), "O in ", Styled(Style.SMALL_CAPS, ("Fortran",)),
              " and ", Styled(Style.NOCASE, ("DNA",))])
RECORD = Record(id="k1", type="article-journal",
                fields={"title": TITLE, "container-title": "Journal of Things", "volume": "3",
                        "page": "1-10", "DOI": "10.1000/xyz"},
                names={"author": (Name(family="Knuth", given="Donald E."),)},
                dates={"issued": Date.of(2020)})


@pytest.mark.parametrize(("output", "title"), [
    ("text", "The Bounty and O(n²) sorting of H2O in Fortran and DNA"),
    ("html", ('The <i>Bounty</i> and O(n<sup>2</sup>) sorting of H<sub>2</sub>O in '
             '<span style="font-variant:small-caps;">Fortran</span> and DNA')),
    ("latex", ("The \\textit{Bounty} and $O(n^2)$ sorting of H\\textsubscript{2}O in "
              "\\textsc{Fortran} and DNA")),
    ("markdown", "The *Bounty* and O(n^2^) sorting of H~2~O in Fortran and DNA"),
    ("rtf", "The {\\i Bounty} and O(n{\\super 2}) sorting of H{\\sub 2}O in {\\scaps Fortran} and DNA"),
])
def test_rich_titles_keep_their_inline_structure(output: str, title: str) -> None:
    document = format_bibliography([RECORD], style="apa", output=output)
    assert title in document


def test_case_changes_leave_formulas_and_protected_text_alone() -> None:
    record = RECORD.replace(fields={**RECORD.fields, "title": rich([
        "Sorting ", Styled(Style.NOCASE, ("DNA",)), " in ", Math("O(N \\log N)"), " Time"])})
    style = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"><info>'
        '<id>t</id><title>t</title></info><citation><layout><text value="x"/></layout></citation>'
        '<bibliography><layout><text variable="title" text-case="lowercase"/></layout>'
        '</bibliography></style>')
    assert make_processor(style, as_items([record])).bibliography() == [
        "sorting DNA in O(N log N) time"]


def test_a_formula_in_latex_output_is_exactly_its_tex() -> None:
    record = RECORD.replace(fields={**RECORD.fields, "title": rich(["Bounds ", Math(r"\alpha_{i}^{2} \leq 1")])})
    assert r"Bounds $\alpha_{i}^{2} \leq 1$" in format_bibliography([record], style="apa",
                                                                       output="latex")


def test_markup_written_in_a_value_is_text_not_formatting() -> None:
    title = rich(["The <i>tag</i> ", Styled(Style.BOLD, ("stays",))])
    record = RECORD.replace(fields={**RECORD.fields, "title": title})
    assert "The &#60;i&#62;tag&#60;/i&#62; <b>stays</b>" in format_bibliography(
        [record], style="apa", output="html")


def test_an_address_in_a_title_is_shown_as_written() -> None:
    record = RECORD.replace(fields={**RECORD.fields, "title": rich(["See ",
                                                                    Url("https://Example.org/A_B")])})
    assert "See https://Example.org/A_B" in format_bibliography([record], style="apa")


def test_links_are_off_by_default_and_on_when_asked() -> None:
    assert "<a href" not in format_bibliography([RECORD], style="apa", output="html")
    assert '<a href="https://doi.org/10.1000/xyz">https://doi.org/10.1000/xyz</a>' in \
        format_bibliography([RECORD], style="apa", output="html", links=True)


def test_dates_kept_as_written_by_the_reader_reach_the_engine() -> None:
    records = list(READER.read(io.StringIO(
        '[{"id": "a", "type": "book", "title": "T", "issued": {"date-parts": [["1999", "21"], '
        '["2001", "22"]]}}]'), "items.json", Diagnostics()))
    (item,) = as_items(records)
    assert item["issued"] == {"date-parts": [["1999", "21"], ["2001", "22"]]}
    assert "(1999–2001)" in format_bibliography(records, style="apa")


def test_the_legacy_event_key_is_given_back_as_written() -> None:
    records = list(READER.read(io.StringIO(
        '[{"id": "a", "type": "speech", "title": "T", "event": "SIGIR 2021"}]'), "items.json",
        Diagnostics()))
    (item,) = as_items(records)
    assert item["event"] == "SIGIR 2021" and "event-title" not in item


def test_a_formula_that_could_run_is_shown_as_text_in_latex_output() -> None:
    record = RECORD.replace(fields={**RECORD.fields, "title": rich(
        ["Bounds ", Math(r"x \immediate\write18{touch pwned}")])})
    document = format_bibliography([record], style="apa", output="latex")
    assert "\\immediate" not in document.replace("\\textbackslash{}immediate", "")
    assert "Bounds x \\textbackslash{}immediate\\textbackslash{}write18touch pwned" in document


def test_a_logo_is_shown_as_its_text_and_unknown_latex_as_written() -> None:
    record = RECORD.replace(fields={**RECORD.fields, "title": rich(
        [Raw("\\LaTeX", "LaTeX"), " and ", Raw("\\noopsort{a}")])})
    assert "LaTeX and \\noopsort{a}" in format_bibliography([record], style="apa",
                                                            output="text")
