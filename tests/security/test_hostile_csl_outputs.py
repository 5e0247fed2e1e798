"""Formatted bibliographies of hostile record text, in every output format of ``refbridge
format``: no HTML element or attribute, Markdown link, LaTeX command or RTF control word comes
from a record, only http(s) addresses become links, and the text itself is shown."""

from __future__ import annotations

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
    rtf_text,
    run_tex,
    tex_available,
    tex_text,
)

from refbridge.formatting import format_bibliography
from refbridge.model import Date, Name, Record
from refbridge.richtext import plain
from refbridge.styles import pybtex_bridge

#: two CSL styles and a BibTeX style (run through its .bst)
STYLES = ("apa", "ieee", "plain")
ADDRESSES = HOSTILE_URLS + BREAKOUT_URLS

#: per style: titles, URLs and DOIs
INPUTS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    style: (HOSTILE_TEXTS, ADDRESSES, HOSTILE_DOIS) for style in STYLES}


def hostile_records(style: str, keep: str = "") -> list[Record]:
    texts, addresses, dois = INPUTS[style]
    return [
        Record(id=f"r{i}", type="article-journal",
               fields={"title": text, "container-title": "Journal of Tests",
                       "URL": addresses[i % len(addresses)], "DOI": dois[i % len(dois)]},
               names={"author": (Name(family=f"Doe{text}", given="Jane"),)},
               dates={"issued": Date.of(2020)})
        for i, text in enumerate(texts) if keep in text]


#: typographic quotes the CSL engine puts for straight ones, as citeproc-js does
_QUOTES = str.maketrans("“”‘’", "\"\"''")


def normalised(text: str) -> str:
    return " ".join(text.translate(_QUOTES).split())


def assert_text_shown(shown: str, style: str) -> None:
    shown = normalised(shown)
    missing = [text for text in INPUTS[style][0] if normalised(text) not in shown]
    assert missing == []


def render(style: str, output: str) -> str:
    return format_bibliography(hostile_records(style), style, output)


@pytest.mark.parametrize("style", STYLES)
def test_html_output_runs_nothing_and_shows_the_text(style: str) -> None:
    assert_text_shown(assert_safe_html(render(style, "html")), style)


@pytest.mark.parametrize("style", STYLES)
def test_markdown_output_renders_to_safe_html_showing_the_text(style: str) -> None:
    assert_text_shown(assert_safe_html(markdown_html(render(style, "markdown"))), style)


@pytest.mark.parametrize("style", ["apa", "ieee"])
def test_rtf_output_has_only_its_own_control_words_and_shows_the_text(style: str) -> None:
    assert_text_shown(rtf_text(render(style, "rtf")), style)


@pytest.mark.parametrize("style", STYLES)
def test_text_output_is_the_text(style: str) -> None:
    assert_text_shown(render(style, "text"), style)


@pytest.mark.parametrize("style", STYLES)
def test_latex_output_runs_no_command_from_a_record(style: str) -> None:
    latex = render(style, "latex")
    assert_no_dangerous_tex(latex)
    assert_text_shown(tex_text(latex), style)


@pytest.mark.skipif(not tex_available(), reason="needs pdflatex")
@pytest.mark.parametrize("style", STYLES)
def test_pdflatex_compiles_the_latex_output(tmp_path: Path, style: str) -> None:
    typesettable = [r for r in hostile_records(style) if r.fields["title"] not in NOT_TYPESETTABLE]
    body = format_bibliography(typesettable, style, "latex")
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{textcomp}\n\\usepackage{hyperref}\n\\begin{document}\n" + body +
        "\n\\end{document}\n", encoding="utf-8")
    log = run_tex(tmp_path, ["pdflatex", "-no-shell-escape", "-interaction=nonstopmode",
                             "-halt-on-error", "doc.tex"])
    assert "Undefined control sequence" not in log
    assert not (tmp_path / "pwned").exists()


def test_a_bibtex_style_prints_unbalanced_braces_in_a_title_as_text() -> None:
    (record,) = hostile_records("plain", keep="unbalanced {")
    assert plain(record.fields["title"]) in format_bibliography([record], "plain", "text")


def test_pybtex_s_own_plain_shows_a_web_address_as_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pybtex_bridge, "bst_source", lambda style: None)  # as without TeX
    item = {"id": "a", "type": "webpage", "title": "Page", "URL": "https://example.com/a_b~c%20d#x",
            "author": [{"family": "Doe", "given": "Jane"}], "issued": {"date-parts": [[2020]]}}
    html = format_bibliography([item], "plain", "html")
    assert "Jane Doe. Page. 2020. URL: https://example.com/a_b~c%20d#x." in html


def test_pybtex_s_own_plain_links_a_web_address_when_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pybtex_bridge, "bst_source", lambda style: None)  # as without TeX
    item = {"id": "a", "type": "webpage", "title": "Page", "URL": "https://example.com/a_b~c%20d#x",
            "author": [{"family": "Doe", "given": "Jane"}], "issued": {"date-parts": [[2020]]}}
    html = format_bibliography([item], "plain", "html", links=True)
    assert '<a href="https://example.com/a_b~c%20d#x">https://example.com/a_b~c%20d#x</a>' in html


# -- line breaks: LaTeX and Markdown write record text on one line --------------------------
BROKEN_TITLE = "Harmless title\n===\n\nNext block\u2028then\vend"


def broken_records() -> list[Record]:
    return [Record(id="doe2020", type="article-journal",
                   fields={"title": BROKEN_TITLE},
                   names={"author": (Name(family="Doe", given="Jane"),)},
                   dates={"issued": Date.of(2020)}),
            Record(id="dash2021", type="article-journal", fields={"title": "1. Listed"},
                   names={"author": (Name(literal="- Dash"),)}, dates={"issued": Date.of(2021)})]


def test_latex_output_writes_a_record_s_line_breaks_as_spaces() -> None:
    assert format_bibliography(broken_records(), "apa", "latex") == (
        "- Dash. (2021). \\textit{1. Listed}.\n\n"
        "Doe, J. (2020). \\textit{Harmless title === Next block then end}.\n")


def test_markdown_output_starts_no_block_from_record_text() -> None:
    markdown = format_bibliography(broken_records(), "apa", "markdown")
    assert markdown == ("\\- Dash. (2021). *1. Listed*.\n\n"
                        "Doe, J. (2020). *Harmless title === Next block then end*.\n")
    html = markdown_html(markdown)
    assert html.count("<p>") == 2 and "<h1>" not in html and "<li>" not in html

