"""The output formats of a formatted bibliography are listed once (``vocab.OUTPUT_FORMATS``);
the CSL engine's writers, ``refbridge format --to``, the styles and the layouts follow it."""

from __future__ import annotations

from support import run_cli

from refbridge.csl.formats import FORMATS
from refbridge.formatting import CITATION_LAYOUTS, LAYOUTS
from refbridge.styles.builtin.bibtex_classics import STYLES
from refbridge.styles.definitions import OUTPUTS
from refbridge.vocab import OUTPUT_FORMATS


def test_the_output_formats_in_their_order() -> None:
    assert OUTPUT_FORMATS == ("text", "html", "markdown", "latex", "rtf")


def test_the_csl_engine_writes_each_output_format() -> None:
    assert tuple(FORMATS) == OUTPUT_FORMATS


def test_a_style_may_write_each_output_format() -> None:
    assert OUTPUTS == OUTPUT_FORMATS


def test_a_bibliography_and_its_citations_have_a_layout_in_each_output_format() -> None:
    assert tuple(LAYOUTS) == tuple(CITATION_LAYOUTS) == OUTPUT_FORMATS


def test_the_classic_bibtex_styles_write_every_output_format_but_rtf() -> None:
    assert {style.outputs for style in STYLES} == {("text", "html", "markdown", "latex")}


def test_format_offers_each_output_format() -> None:
    status, _, err = run_cli("format", "--to", "docx", "-")
    assert status == 2
    assert "'text', 'html', 'markdown', 'latex', 'rtf'" in err
