"""Failures a user (or a file someone else wrote) can cause are a one-line message naming the
option or file, with the documented exit status: never ``internal error``.

Each case was found by running the command line against it: an invalid ``--key-pattern`` and
JSON nested ten thousand levels deep (Python's decoder raises ``RecursionError``, which no
``except ValueError`` catches) in a key lock, a site manifest, a Zotero key file and a record's
residue note."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import run_cli

from refbridge.errors import ExitStatus, OutputError
from refbridge.zotero_bridge.sync import read_key_file

#: JSON nested deeper than Python's decoder recurses.
DEEP = "[" * 100_000

LIBRARY = """@article{vaswani2017attention,
  author = {Vaswani, Ashish and Shazeer, Noam},
  title = {Attention Is All You Need},
  journal = {Advances in Neural Information Processing Systems},
  year = {2017},
  pages = {5998-6008},
}
"""


@pytest.fixture
def library(tmp_path: Path) -> Path:
    path = tmp_path / "library.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    return path


@pytest.mark.parametrize(("pattern", "problem"), [
    ("[auth", "key pattern '[auth' has a [ that is not closed"),
    ("", "the key pattern is empty"),
])
def test_a_key_pattern_that_cannot_make_keys_is_a_usage_error(
        library: Path, pattern: str, problem: str) -> None:
    status, out, err = run_cli("convert", str(library), "--to", "bibtex", "--regenerate-keys",
                               "--key-pattern", pattern)
    assert status == ExitStatus.USAGE
    assert out == ""
    assert err.splitlines()[-1] == f"Error: Invalid value for '--key-pattern': {problem}"


def test_pull_refuses_an_unknown_key_pattern_field_before_asking_zotero() -> None:
    status, _, err = run_cli("pull", "--to", "bibtex", "--key-pattern", "[journalAbbrev]")
    assert status == ExitStatus.USAGE
    assert "Error: Invalid value for '--key-pattern': unknown field [journalAbbrev] in key " \
           "pattern '[journalAbbrev]'" in err


def test_a_key_lock_nested_too_deeply_names_the_file(library: Path, tmp_path: Path) -> None:
    lock = tmp_path / "refbridge.keys.json"
    lock.write_text(DEEP, encoding="utf-8")
    status, out, err = run_cli("convert", str(library), "--to", "bibtex", "--key-lock",
                               str(lock))
    assert status == ExitStatus.FAILED
    assert out == ""
    assert err == f"refbridge: error: {lock}: not a key lock: nested too deeply\n"


def test_a_site_manifest_nested_too_deeply_is_not_a_manifest(library: Path,
                                                             tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / ".refbridge-site.json").write_text(DEEP, encoding="utf-8")
    status, _, err = run_cli("site", str(library), "--to", "hugo", "-o", str(site), "--prune")
    assert status == ExitStatus.FAILED
    assert err == (f"refbridge: error: {site / '.refbridge-site.json'}: not a refbridge site "
                   "manifest (remove it to start the site's pages afresh)\n")
    assert sorted(p.name for p in site.iterdir()) == [".refbridge-site.json"]


def test_a_zotero_key_file_nested_too_deeply_is_not_a_key_file(tmp_path: Path) -> None:
    keys = tmp_path / "library.bib.keys.json"
    keys.write_text(DEEP, encoding="utf-8")
    with pytest.raises(OutputError, match="not a refbridge key file"):
        read_key_file(keys)


def test_a_ris_note_that_looks_like_a_residue_nested_too_deeply_stays_a_note(
        tmp_path: Path) -> None:
    source = tmp_path / "library.ris"
    source.write_text("TY  - JOUR\nTI  - Attention Is All You Need\n"
                      f"N1  - refbridge: {DEEP}\nER  - \n", encoding="utf-8")
    status, out, err = run_cli("convert", str(source), "--to", "csl-json")
    assert status == ExitStatus.OK
    assert json.loads(out)[0]["note"] == f"refbridge: {DEEP}"
    assert err == (f"{source}:3: warning: a note starts with 'refbridge: ' but holds no "
                   "residue; kept as a note\n")


def test_a_csl_json_note_that_looks_like_a_residue_nested_too_deeply_stays_a_note(
        tmp_path: Path) -> None:
    source = tmp_path / "library.json"
    source.write_text(json.dumps([{"id": "vaswani2017attention", "type": "article-journal",
                                   "title": "Attention Is All You Need",
                                   "note": f"refbridge: {DEEP}"}]), encoding="utf-8")
    status, out, err = run_cli("convert", str(source), "--to", "bibtex")
    assert status == ExitStatus.OK, err
    assert f"  note = {{refbridge: {DEEP}}}," in out.splitlines()


def test_utf_16_named_for_a_file_without_its_byte_order_mark_names_the_file(
        library: Path) -> None:
    status, out, err = run_cli("convert", str(library), "--encoding", "utf-16", "--to", "ris")
    assert status == ExitStatus.FAILED
    assert out == ""
    assert err == (f"refbridge: error: {library}: cannot decode as utf-16: UTF-16 stream does "
                   "not start with BOM (name the encoding with --encoding)\n")


CYCLIC_STYLE = """<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>Cyclic</title><id>cyclic</id></info>
  <macro name="author"><names variable="author"><substitute><text macro="editor"/></substitute>
  </names></macro>
  <macro name="editor"><names variable="editor"/><text macro="author"/></macro>
  <citation><layout><text macro="author"/></layout></citation>
  <bibliography><layout><text macro="author"/></layout></bibliography>
</style>
"""


def test_a_style_whose_macros_call_each_other_in_a_circle_names_the_style_and_the_circle(
        library: Path, tmp_path: Path) -> None:
    style = tmp_path / "cyclic.csl"
    style.write_text(CYCLIC_STYLE, encoding="utf-8")
    status, out, err = run_cli("format", str(library), "--style", str(style))
    assert status == ExitStatus.FAILED
    assert out == ""
    assert err == (f"refbridge: error: {style}: CSL macro 'author' calls itself "
                   "(author -> editor -> author)\n")


def test_a_style_calling_an_undefined_macro_names_the_style(library: Path,
                                                            tmp_path: Path) -> None:
    style = tmp_path / "missing.csl"
    style.write_text(CYCLIC_STYLE.replace('<text macro="author"/></macro>', "</macro>")
                     .replace('macro name="author"', 'macro name="authors"'), encoding="utf-8")
    status, _, err = run_cli("format", str(library), "--style", str(style))
    assert status == ExitStatus.FAILED
    assert err == f"refbridge: error: {style}: CSL style calls undefined macro 'author'\n"


def _nested_style(groups: int) -> str:
    """A style whose bibliography's title is inside ``groups`` nested groups."""
    return CYCLIC_STYLE.replace(
        '<bibliography><layout><text macro="author"/></layout></bibliography>',
        "<bibliography><layout>" + "<group>" * groups + '<text variable="title"/>'
        + "</group>" * groups + "</layout></bibliography>").replace(
        '<text macro="author"/></macro>', "</macro>").replace(
        '<citation><layout><text macro="author"/>', '<citation><layout><text macro="editor"/>')


def test_a_style_nested_thousands_deep_is_refused_naming_the_style(library: Path,
                                                                  tmp_path: Path) -> None:
    style = tmp_path / "deep.csl"
    style.write_text(_nested_style(5000), encoding="utf-8")
    status, out, err = run_cli("format", str(library), "--style", str(style))
    assert status == ExitStatus.FAILED
    assert out == ""
    assert err == (f"refbridge: error: {style}: not a CSL style: its elements nest more than "
                   "100 deep\n")


def test_a_style_nested_as_deep_as_allowed_renders(library: Path, tmp_path: Path) -> None:
    style = tmp_path / "nested.csl"
    style.write_text(_nested_style(95), encoding="utf-8")  # 99 deep with its <text>
    status, out, err = run_cli("format", str(library), "--style", str(style))
    assert status == ExitStatus.OK, err
    assert out == "Attention Is All You Need\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("arguments", [
    ["check", "{library}"],  # its findings, printed with click.echo
    ["formats"],
    ["cited", "--help"],  # printed by click itself
], ids=["check", "formats", "help"])
def test_standard_output_on_a_full_disk_is_a_one_line_error(library: Path,
                                                            arguments: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "refbridge",
             *(a.format(library=library) for a in arguments)],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    assert done.returncode == ExitStatus.FAILED
    assert done.stderr == "refbridge: error: <stdout>: cannot write: No space left on device\n"


@pytest.mark.parametrize(("arguments", "problem"), [
    (["verify", "{library}", "--crossref-api", "file:///etc/passwd"],
     "--crossref-api: 'file:///etc/passwd' is not an http:// or https:// address of a host"),
    (["verify", "{library}", "--crossref-api", "http://[::1"],
     "--crossref-api: 'http://[::1' is not a web address (Invalid IPv6 URL)"),
    (["pull", "--from", "zotero-desktop", "--to", "bibtex", "--zotero-url", "http://[::1"],
     "--zotero-url: 'http://[::1' is not a web address (Invalid IPv6 URL)"),
    (["pull", "--from", "zotero-desktop", "--to", "bibtex", "--zotero-url", "ftp://zotero"],
     "--zotero-url: 'ftp://zotero' is not an http:// or https:// address of a host"),
], ids=["file", "ipv6", "zotero-ipv6", "zotero-ftp"])
def test_a_service_address_that_is_no_web_address_is_a_usage_error(
        library: Path, arguments: list[str], problem: str) -> None:
    status, out, err = run_cli(*(a.format(library=library) for a in arguments))
    assert status == ExitStatus.USAGE
    assert out == ""
    assert err == f"refbridge: error: {problem}\n"


def test_a_service_address_from_the_environment_is_checked_and_named(
        library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFBRIDGE_OPENALEX_API", "api.openalex.org")
    status, _, err = run_cli("enrich", str(library), "--offline")
    assert status == ExitStatus.USAGE
    assert err == ("refbridge: error: REFBRIDGE_OPENALEX_API: 'api.openalex.org' is not an "
                   "http:// or https:// address of a host\n")
