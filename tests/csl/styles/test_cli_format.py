"""`refbridge format` and `refbridge styles` on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from refbridge.cli import main

pytestmark = pytest.mark.usefixtures("private_cache")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_styles_search_lists_modules_marked_first() -> None:
    code, out, _ = run("styles", "--search", "bibtex")
    assert code == 0
    assert out.splitlines()[:3] == [
        "* alpha\tBibTeX alpha: author-year labels such as [Knu97], sorted like plain (pybtex)",
        "* plain\tBibTeX plain: numbered, sorted by author, year and title (pybtex)",
        "* unsrt\tBibTeX unsrt: numbered in input order (pybtex)",
    ]


def test_styles_search_finds_catalogue_styles_by_title() -> None:
    code, out, _ = run("styles", "--search", "nature digest")
    assert (code, out) == (0, "  nature-digest\tNature Digest\n")


def test_styles_search_says_when_nothing_matches() -> None:
    code, out, err = run("styles", "--search", "zzz")
    assert (code, out, err) == (0, "", "refbridge: no style matches 'zzz'\n")


def test_an_unknown_style_like_no_other_suggests_no_lookalike(tmp_path: Path) -> None:
    code, _, err = run("format", str(tmp_path / "missing.json"), "--style", "nosuchstyle")
    assert (code, err) == (2, ("refbridge: error: unknown style 'nosuchstyle'; see "
                               "`refbridge styles --search WORD`\n"))


def test_an_unknown_locale_is_a_usage_error_before_reading(tmp_path: Path) -> None:
    code, out, err = run("format", str(tmp_path / "missing.json"), "--locale", "xx-YY")
    assert (code, out) == (2, "")
    assert err.startswith("refbridge: error: unknown locale 'xx-YY' (known: af-ZA, ar, ")
    code, _, err = run("format", str(tmp_path / "missing.json"), "--locale", "en_GB")
    assert (code, err) == (2, ("refbridge: error: unknown locale 'en_GB' (did you mean "
                               "en-GB?)\n"))


def test_a_locale_of_a_known_language_is_accepted(samples_dir: Path) -> None:
    code, out, _ = run("format", str(samples_dir / "varied.json"), "--style", "apa",
                       "--locale", "de-LU")
    assert code == 0
    assert "(Hrsg.)" in out


def test_format_prints_one_entry_per_line(samples_dir: Path) -> None:
    code, out, _ = run("format", str(samples_dir / "varied.json"), "--style", "unsrt")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 26
    # (pybtex's Python unsrt, used without TeX Live's unsrt.bst, adds the DOI after it)
    assert lines[0].startswith("[1] Alice B. Smith and Robert Jones. Neural approaches to citation "
                               "parsing. Journal of Documentation, 75(4):801–829, July 2019.")


def test_format_cite_prints_citations(samples_dir: Path) -> None:
    code, out, _ = run("format", str(samples_dir / "varied.json"), "--style", "alpha", "--cite")
    assert code == 0
    assert out.splitlines()[:3] == ["[SJ19]", "[Smi20b]", "[Smi20a]"]


def test_format_writes_output_file(samples_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "publications.html"
    code, out, _ = run("format", str(samples_dir / "varied.json"), "--style", "plain",
                       "--to", "html", "-o", str(target))
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8").startswith('<div class="csl-bib-body">\n')


def test_format_unknown_style_fails_before_reading(tmp_path: Path) -> None:
    code, out, err = run("format", str(tmp_path / "missing.json"), "--style", "ieeee")
    assert (code, out) == (2, "")
    assert err.startswith("refbridge: error: unknown style 'ieeee'; did you mean ieee")


def test_format_links_urls_and_dois_only_with_links(tmp_path: Path) -> None:
    items = tmp_path / "items.json"
    items.write_text('[{"id": "a", "type": "webpage", "title": "Page", "URL": "https://example.org/"}]',
                     encoding="utf-8")
    _, plain, _ = run("format", str(items), "--style", "apa", "--to", "html")
    _, linked, _ = run("format", str(items), "--style", "apa", "--to", "html", "--links")
    assert "https://example.org/</div>" in plain
    assert '<a href="https://example.org/">https://example.org/</a>' in linked


def test_format_keeps_an_item_whose_date_the_model_cannot_hold(tmp_path: Path) -> None:
    items = tmp_path / "items.json"
    items.write_text('[{"id": "a", "type": "book", "title": "Seasons", "author": [{"family": "Doe"}],'
                     ' "issued": {"date-parts": [["1999", "21"], ["2001", "22"]]}}]', encoding="utf-8")
    code, out, err = run("format", str(items), "--style", "apa")
    assert (code, out) == (0, "Doe. (1999–2001). Seasons.\n")
    assert "warning: record 'a': issued: the two ends of the range are in different seasons" in err
