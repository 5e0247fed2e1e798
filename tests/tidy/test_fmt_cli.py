"""``refbridge fmt`` on files: in place and atomically, ``-o``, ``--check``, ``--diff``,
settings from pyproject.toml or .refbridge.toml under the command line, and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import ROOT, run_cli

UNTIDY = '@Article{smith20,\n  Title = "Graphs",\n    year = 2020}\n'
TIDY = "@article{smith20,\n  title = {Graphs},\n  year  = 2020,\n}\n"


@pytest.fixture
def bib(tmp_path: Path) -> Path:
    path = tmp_path / "refs.bib"
    path.write_text(UNTIDY, encoding="utf-8")
    return path


def test_a_file_is_formatted_in_place(bib: Path) -> None:
    status, _, err = run_cli("fmt", str(bib))
    assert (status, bib.read_text(encoding="utf-8")) == (0, TIDY)
    assert err == "refbridge: fmt: 1 of 1 file(s) changed\n"


def test_output_goes_to_o_and_the_input_is_untouched(bib: Path, tmp_path: Path) -> None:
    out = tmp_path / "tidy.bib"
    assert run_cli("fmt", str(bib), "-o", str(out))[0] == 0
    assert (bib.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")) == (UNTIDY, TIDY)


def test_o_with_two_inputs_is_a_usage_error(bib: Path, tmp_path: Path) -> None:
    status, _, err = run_cli("fmt", str(bib), str(bib), "-o", str(tmp_path / "x.bib"))
    assert status == 2 and "-o names one output" in err


def test_check_lists_what_would_change_and_exits_1(bib: Path) -> None:
    status, out, err = run_cli("fmt", "--check", str(bib))
    assert (status, out) == (1, f"{bib}:1: smith20: reformatted\n")
    assert err == "refbridge: fmt: 1 of 1 file(s) would change\n"
    assert bib.read_text(encoding="utf-8") == UNTIDY
    bib.write_text(TIDY, encoding="utf-8")
    assert run_cli("fmt", "--check", str(bib))[:2] == (0, "")


def test_diff_shows_a_unified_diff_and_changes_nothing(bib: Path) -> None:
    status, out, _ = run_cli("fmt", "--diff", str(bib))
    assert status == 0
    assert out == (f"--- {bib} (original)\n+++ {bib} (formatted)\n@@ -1,3 +1,4 @@\n"
                   "-@Article{smith20,\n-  Title = \"Graphs\",\n-    year = 2020}\n"
                   "+@article{smith20,\n+  title = {Graphs},\n+  year  = 2020,\n+}\n")
    assert bib.read_text(encoding="utf-8") == UNTIDY


def test_settings_come_from_pyproject_and_the_command_line_wins(bib: Path,
                                                                tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "paper"\n\n[tool.refbridge.fmt]\nindent = 4\nvalues = "quotes"\n',
        encoding="utf-8")
    run_cli("fmt", str(bib), "--values", "braces")
    assert bib.read_text(encoding="utf-8") == (
        "@article{smith20,\n    title = {Graphs},\n    year  = 2020,\n}\n")


def test_refbridge_toml_nearer_the_file_is_found_first(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.refbridge.fmt]\nindent = 8\n",
                                             encoding="utf-8")
    folder = tmp_path / "paper" / "bib"
    folder.mkdir(parents=True)
    (tmp_path / "paper" / ".refbridge.toml").write_text("[fmt]\nalign = false\n",
                                                        encoding="utf-8")
    path = folder / "refs.bib"
    path.write_text(UNTIDY, encoding="utf-8")
    run_cli("fmt", str(path))
    assert path.read_text(encoding="utf-8") == (
        "@article{smith20,\n  title = {Graphs},\n  year = 2020,\n}\n")


def test_an_unknown_setting_names_the_file_and_changes_nothing(bib: Path,
                                                               tmp_path: Path) -> None:
    (tmp_path / ".refbridge.toml").write_text("[fmt]\nsort-by = \"key\"\n", encoding="utf-8")
    status, _, err = run_cli("fmt", str(bib))
    assert status == 2
    assert err == (f"refbridge: error: {tmp_path / '.refbridge.toml'} [fmt]: unknown option "
                   "'sort-by' (known: align, drop-empty, field-order, indent, journals, "
                   "key-pattern, months, sort, unicode, values, wrap)\n")
    assert bib.read_text(encoding="utf-8") == UNTIDY


def test_a_bad_sort_is_a_usage_error(bib: Path) -> None:
    status, _, err = run_cli("fmt", "--sort", "author", str(bib))
    assert status == 2
    assert "command line: sort: 'author' is not one of given, key, type, year" in err


def test_a_broken_file_is_reported_left_untouched_and_the_others_done(tmp_path: Path,
                                                                     bib: Path) -> None:
    broken = tmp_path / "broken.bib"
    broken.write_text("@misc{a, title = {T}}\n@misc{b, title = {open\n}\n", encoding="utf-8")
    status, _, err = run_cli("fmt", str(broken), str(bib))
    assert status == 1
    assert err.splitlines()[:2] == [
        (f"{broken}:2: error: broken entry: the value of 'title' runs to the end of the "
         "entry: a '{' in it is never closed"),
        f"{broken}: error: not formatted; the file is left as it is"]
    assert broken.read_text(encoding="utf-8").startswith("@misc{a, title = {T}}")
    assert bib.read_text(encoding="utf-8") == TIDY


def test_crlf_line_endings_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "windows.bib"
    path.write_bytes(UNTIDY.replace("\n", "\r\n").encode())
    run_cli("fmt", str(path))
    assert path.read_bytes() == TIDY.replace("\n", "\r\n").encode()


def test_an_unchanged_file_is_not_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "tidy.bib"
    path.write_text(TIDY, encoding="utf-8")
    before = path.stat().st_mtime_ns
    assert run_cli("fmt", str(path))[0] == 0
    assert path.stat().st_mtime_ns == before


def test_standard_input_is_formatted_to_standard_output() -> None:
    assert run_cli("fmt", "-", stdin=UNTIDY)[:2] == (0, TIDY)


def test_renamed_keys_are_reported_with_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "keys.bib"
    path.write_text("@book{tb, author = {Donald Knuth}, title = {The TeXbook}, year = 1984}\n",
                    encoding="utf-8")
    _, _, err = run_cli("fmt", "--key-pattern", "[auth:lower][year]", str(path))
    assert err.splitlines()[0] == f"{path}:1: note: key 'tb' renamed to 'knuth1984'"


def test_pre_commit_runs_fmt_on_bib_files() -> None:
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: refbridge-fmt\n" in hooks
    assert "  entry: refbridge fmt\n" in hooks
    assert "  files: \\.bib$\n" in hooks


def test_check_knows_of_a_month_macro_defined_after_the_entries(tmp_path: Path) -> None:
    # --check reads a file as it streams; a later @string mar keeps {March} as it is
    text = "@article{smith20,\n  title = {Graphs},\n  month = {March},\n}\n\n@string{%s}\n"
    path = tmp_path / "refs.bib"
    path.write_text(text % "mar = {Mars}", encoding="utf-8")
    assert run_cli("fmt", "--check", "--months", str(path))[:2] == (0, "")
    path.write_text(text % "acm = {ACM}", encoding="utf-8")
    assert run_cli("fmt", "--check", "--months", str(path))[:2] == \
        (1, f"{path}:1: smith20: reformatted\n")
