"""A value the .bib writer has to change to keep LaTeX safe is never changed silently: each
record and field it changes gets one warning saying what, and the run ends with exit status 3
(``ExitStatus.SKIPPED``), in the serial and the parallel conversion alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import run_cli

from refbridge import parallel
from refbridge import runs as run_settings
from refbridge.errors import ExitStatus


def csl_json(tmp_path: Path, **fields: str) -> Path:
    path = tmp_path / "library.json"
    path.write_text(json.dumps([{"id": "lin2024mamba", "type": "article-journal",
                                 "title": "Selective State Spaces", **fields}]),
                    encoding="utf-8")
    return path


def test_a_title_with_a_blank_line_a_line_separator_and_a_bell_is_written_and_reported(
        tmp_path: Path) -> None:
    source = csl_json(tmp_path, title="Selective\n\nState\u2028Spaces\x07")
    status, out, err = run_cli("convert", str(source), "--to", "bibtex")
    assert status == ExitStatus.SKIPPED
    assert "  title = {Selective State Spaces}," in out.splitlines()
    assert err.splitlines() == [
        (f"{source}:1: warning: record 'lin2024mamba': field 'title': paragraph breaks or line "
        "separators written as spaces; control characters dropped"),
        "refbridge: 1 value(s) changed to be written"]


def test_a_url_and_a_doi_ending_in_a_backslash_are_each_reported_with_what_was_written(
        tmp_path: Path) -> None:
    source = csl_json(tmp_path, URL="https://example.org/mamba\\", DOI="10.5555/mamba\\")
    status, out, err = run_cli("convert", str(source), "--to", "biblatex")
    assert status == ExitStatus.SKIPPED
    assert "  url = {https://example.org/mamba%5C}," in out.splitlines()
    assert err.splitlines() == [
        (f"{source}:1: warning: record 'lin2024mamba': field 'doi': '10.5555/mamba\\\\' "
        "written as '10.5555/mamba%5C'"),
        (f"{source}:1: warning: record 'lin2024mamba': field 'url': "
        "'https://example.org/mamba\\\\' written as 'https://example.org/mamba%5C'"),
        "refbridge: 2 value(s) changed to be written"]


@pytest.mark.parametrize("dialect", ["bibtex", "biblatex"])
def test_a_url_with_an_escaped_percent_sign_is_written_as_the_bib_spelled_it(
        tmp_path: Path, dialect: str) -> None:
    source = tmp_path / "library.bib"
    source.write_text("@misc{doe2017notes,\n  title = {Lecture Notes},\n"
                      "  url = {https://www.example.edu/\\%7Ejdoe/notes.pdf},\n}\n",
                      encoding="utf-8")
    status, out, err = run_cli("convert", str(source), "--to", dialect)
    assert status == ExitStatus.OK, err
    assert "  url = {https://www.example.edu/\\%7Ejdoe/notes.pdf}," in out.splitlines()
    assert err == ""


def test_one_line_break_in_an_abstract_is_no_change(tmp_path: Path) -> None:
    source = csl_json(tmp_path, abstract="We propose a model.\nIt scales linearly.")
    status, out, err = run_cli("convert", str(source), "--to", "biblatex")
    assert status == ExitStatus.OK, err
    assert "  abstract = {We propose a model. It scales linearly.}," in out.splitlines()
    assert err == ""


def test_a_parallel_conversion_reports_the_change_as_the_serial_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_settings, "PARALLEL_FROM_BYTES", 0)
    monkeypatch.setattr(parallel, "SHARD_BYTES", (400, 400))  # a few entries a shard
    source = tmp_path / "library.bib"
    source.write_text("".join(
        f"@online{{site{n},\n  title = {{Site {n}}},\n  url = {{https://example.org/{n}\\}},\n}}"
        "\n\n" for n in range(40)), encoding="utf-8")
    serial = run_cli("convert", str(source), "--to", "biblatex", "--jobs", "1")
    in_parallel = run_cli("convert", str(source), "--to", "biblatex", "--jobs", "2")
    assert in_parallel == serial
    assert serial[0] == ExitStatus.SKIPPED
    assert serial[2].splitlines()[:2] == [
        f"{source}: info: read as BibLaTeX (@online in 40 entries)",
        (f"{source}:1: warning: record 'site0': field 'url': 'https://example.org/0\\\\' "
        "written as 'https://example.org/0%5C'")]
    assert serial[2].splitlines()[-1] == "refbridge: 40 value(s) changed to be written"


SITE = "@online{site,\n  title = {Site},\n  url = {https://example.org/a\\},\n}\n"
SITE_WARNING = ("warning: record 'site': field 'url': 'https://example.org/a\\\\' written as "
                "'https://example.org/a%5C'")


def test_cited_reports_a_value_it_changes(tmp_path: Path) -> None:
    (tmp_path / "sites.bib").write_text(SITE, encoding="utf-8")
    paper = tmp_path / "paper.tex"
    paper.write_text("\\bibliography{sites}\n\\cite{site}\n", encoding="utf-8")
    status, out, err = run_cli("cited", str(paper), "--to", "biblatex")
    assert status == ExitStatus.SKIPPED
    assert "  url = {https://example.org/a%5C}," in out.splitlines()
    assert f"{tmp_path / 'sites.bib'}:1: {SITE_WARNING}" in err.splitlines()


def test_dedupe_reports_a_value_it_changes(tmp_path: Path) -> None:
    library = tmp_path / "sites.bib"
    library.write_text(SITE, encoding="utf-8")
    status, _, err = run_cli("dedupe", str(library), "-o", str(tmp_path / "merged.bib"))
    assert status == ExitStatus.SKIPPED
    assert f"{library}:1: {SITE_WARNING}" in err.splitlines()


def test_sync_reports_a_value_it_changes_when_it_writes_the_entry(
        shared_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from zotero_db_support import ZoteroDb

    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(tmp_path / "cache"))
    zotero = ZoteroDb(tmp_path / "zotero.sqlite", shared_dir)
    item = zotero.add_item("webpage", {"title": "Site", "url": "https://example.org/a\\"})
    key = zotero.key_of(item)
    zotero.close()
    output = tmp_path / "library.bib"
    arguments = ("sync", "--from", f"zotero-sqlite:{tmp_path / 'zotero.sqlite'}", "--to",
                 "biblatex", "-o", str(output))
    status, _, err = run_cli(*arguments)
    assert status == ExitStatus.SKIPPED
    assert [line for line in err.splitlines() if "warning" in line] == [
        f"zotero-sqlite:{tmp_path / 'zotero.sqlite'}/items/{key}: {SITE_WARNING}"]
    assert "  url = {https://example.org/a%5C}," in output.read_text("utf-8").splitlines()


def test_site_reports_a_value_its_bibtex_files_change(tmp_path: Path) -> None:
    library = tmp_path / "sites.bib"
    library.write_text(SITE, encoding="utf-8")
    status, _, err = run_cli("site", str(library), "--to", "hugo", "-o", str(tmp_path / "web"))
    assert status == ExitStatus.SKIPPED
    assert f"{library}:1: {SITE_WARNING}" in err.splitlines()
    cite = tmp_path / "web" / "content" / "publication" / "site" / "cite.bib"
    assert "  url = {https://example.org/a%5C}," in cite.read_text("utf-8").splitlines()
