"""Formatted bibliographies of hostile record text, in every output format of ``refbridge
format``: no HTML element or attribute, Markdown link, LaTeX command or RTF control word comes
from a record, only http(s) addresses become links, and the text itself is shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz.hostile import BREAKOUT_URLS, HOSTILE_DOIS, HOSTILE_TEXTS, HOSTILE_URLS
from fuzz.safety import (
    assert_no_dangerous_tex,
    assert_safe_html,
    markdown_html,
    rtf_text,
    run_tex,
    tex_available,
    tex_text,
)

from refbridge.errors import RefbridgeError
from refbridge.formatting import format_bibliography
from refbridge.model import Date, Name, Record

#: two CSL styles and a pybtex style (which refuses braces in titles: see the last test)
STYLES = ("apa", "ieee", "plain")
ADDRESSES = HOSTILE_URLS + BREAKOUT_URLS


def braceless(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(value for value in values if not set(value) & set("{}"))


#: per style: titles, URLs and DOIs. pybtex styles refuse values with braces (a clear error,
#: see the last test), so they get the others.
INPUTS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "apa": (HOSTILE_TEXTS, ADDRESSES, HOSTILE_DOIS),
    "ieee": (HOSTILE_TEXTS, ADDRESSES, HOSTILE_DOIS),
    "plain": (braceless(HOSTILE_TEXTS), braceless(ADDRESSES), braceless(HOSTILE_DOIS)),
}


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
    typesettable = [r for r in hostile_records(style) if "\u202e" not in r.fields["title"]]
    body = format_bibliography(typesettable, style, "latex")
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{textcomp}\n\\usepackage{hyperref}\n\\begin{document}\n" + body +
        "\n\\end{document}\n", encoding="utf-8")
    log = run_tex(tmp_path, ["pdflatex", "-no-shell-escape", "-interaction=nonstopmode",
                             "-halt-on-error", "doc.tex"])
    assert "Undefined control sequence" not in log
    assert not (tmp_path / "pwned").exists()


def test_a_pybtex_style_refuses_braces_in_a_title_with_a_clear_error() -> None:
    with pytest.raises(RefbridgeError, match="title contains braces, which pybtex styles "
                       "cannot print; use a CSL style"):
        format_bibliography(hostile_records("apa", keep="unbalanced {"), "plain", "text")


def test_a_pybtex_style_links_a_web_address_as_written() -> None:
    item = {"id": "a", "type": "webpage", "title": "Page", "URL": "https://example.com/a_b~c%20d#x",
            "author": [{"family": "Doe", "given": "Jane"}], "issued": {"date-parts": [[2020]]}}
    html = format_bibliography([item], "plain", "html", links=True)
    assert '<a href="https://example.com/a_b~c%20d#x">https://example.com/a_b~c%20d#x</a>' in html
