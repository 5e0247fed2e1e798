"""refbridge diff: what changed between two libraries, entries added, removed, renamed and
changed field by field, layout left out; as text, JSON and Markdown; as git's external diff
(seven arguments) and textconv."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import run_cli

OLD = """@article{smith2020,
  author = {Smith, Jane},
  title = {Tidal patterns in estuaries},
  journal = {Coastal Research},
  year = {2020},
}

@book{doe2019,
  author = {Doe, John},
  title = {Field methods},
  year = {2019},
}

@misc{lee2018,
  title = {Survey notes},
}
"""
NEW = """@book{doe2019field,
  author = {Doe, John},
  title = {Field methods},
  year = {2019},
  publisher = {Harbour Press},
}

@article{smith2020,
  author  = {Smith, Jane},
  title   = "Tidal patterns in estuaries",
  journal = {Coastal   Research},
  year    = {2021},
}

@misc{kim2023,
  title = {Sediment data},
}
"""


@pytest.fixture
def libraries(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "old.bib").write_text(OLD, encoding="utf-8")
    (tmp_path / "new.bib").write_text(NEW, encoding="utf-8")
    return str(tmp_path / "old.bib"), str(tmp_path / "new.bib")


def test_json_lists_added_removed_renamed_and_changed_fields(libraries: tuple[str, str]
                                                             ) -> None:
    status, out, _ = run_cli("diff", *libraries, "--format", "json")
    assert status == 1
    assert json.loads(out) == {
        "added": ["kim2023"], "removed": ["lee2018"], "renamed": [["doe2019", "doe2019field"]],
        "changed": {"doe2019field": {"publisher": [None, "Harbour Press"]},
                    "smith2020": {"year": ["2020", "2021"]}}}


def test_text_report(libraries: tuple[str, str]) -> None:
    assert run_cli("diff", *libraries) == (1, """added: kim2023
removed: lee2018
renamed: doe2019 -> doe2019field
changed: doe2019field
  publisher: (none) -> "Harbour Press"
changed: smith2020
  year: "2020" -> "2021"
""", "")


def test_markdown_report_escapes_record_text(tmp_path: Path) -> None:
    (tmp_path / "a.bib").write_text("@misc{k1,\n  title = {A *bold* claim},\n}\n",
                                    encoding="utf-8")
    (tmp_path / "b.bib").write_text("@misc{k1,\n  title = {A [new] claim},\n}\n",
                                    encoding="utf-8")
    assert run_cli("diff", str(tmp_path / "a.bib"), str(tmp_path / "b.bib"), "--format",
                   "markdown")[:2] == (1, ('## Changed\n\n- k1\n  - title: "A \\*bold\\* claim" '
                                          '-> "A \\[new\\] claim"\n'))


def test_layout_only_differences_are_no_change(tmp_path: Path) -> None:
    (tmp_path / "a.bib").write_text(OLD, encoding="utf-8")
    reformatted = OLD.replace("  title = {Field methods},\n  year = {2019},",
                              '  year = 2019,\n  title = "Field methods",')
    (tmp_path / "b.bib").write_text(reformatted.replace("\n\n", "\n"), encoding="utf-8")
    assert run_cli("diff", str(tmp_path / "a.bib"), str(tmp_path / "b.bib")) == (0, "", "")


def test_libraries_in_other_formats_are_compared_through_the_model(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps([
        {"id": "smith2020", "type": "article-journal", "title": "Tidal patterns",
         "issued": {"date-parts": [[2020]]}}]), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps([
        {"id": "smith2020", "type": "article-journal", "title": "Tidal patterns",
         "issued": {"date-parts": [[2021]]}}]), encoding="utf-8")
    status, out, _ = run_cli("diff", str(tmp_path / "a.json"), str(tmp_path / "b.json"),
                             "--format", "json")
    assert (status, json.loads(out)["changed"]) == (1, {"smith2020": {
        "issued": ['{"date-parts": [[2020]]}', '{"date-parts": [[2021]]}']}})


def test_an_unreadable_library_is_an_error_with_status_2(tmp_path: Path) -> None:
    (tmp_path / "a.bib").write_text(OLD, encoding="utf-8")
    (tmp_path / "b.bib").write_text("@misc{k1,\n  title = {open\n", encoding="utf-8")
    status, out, err = run_cli("diff", str(tmp_path / "a.bib"), str(tmp_path / "b.bib"))
    assert (status, out) == (2, "")
    assert err.startswith(f"refbridge: diff: error: {tmp_path / 'b.bib'}")


def test_git_external_diff_arguments_print_a_header_and_exit_0(libraries: tuple[str, str]
                                                               ) -> None:
    old, new = libraries
    status, out, _ = run_cli("diff", "refs.bib", old, "a" * 40, "100644", new, "b" * 40,
                             "100644")
    assert status == 0
    assert out.startswith("refbridge diff a/refs.bib b/refs.bib\nadded: kim2023\n")


def test_git_external_diff_of_an_added_file_reads_dev_null_as_empty(
        libraries: tuple[str, str]) -> None:
    assert run_cli("diff", "refs.bib", "/dev/null", "." * 40, "100644", libraries[0], "a" * 40,
                   "100644") == (0, ("refbridge diff a/refs.bib b/refs.bib\nadded: smith2020\n"
                                    "added: doe2019\nadded: lee2018\n"), "")


def test_textconv_writes_entries_sorted_with_fields_sorted(tmp_path: Path) -> None:
    (tmp_path / "a.bib").write_text(NEW, encoding="utf-8")
    assert run_cli("diff", "--textconv", str(tmp_path / "a.bib"))[:2] == (0, """\
@book{doe2019field
  author = Doe, John
  publisher = Harbour Press
  title = Field methods
  year = 2019
}
@misc{kim2023
  title = Sediment data
}
@article{smith2020
  author = Smith, Jane
  journal = Coastal Research
  title = Tidal patterns in estuaries
  year = 2021
}
""")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_diff_shows_entries_through_the_external_diff(tmp_path: Path) -> None:
    command = Path(sys.executable).parent / "refbridge"
    if not command.exists():
        pytest.skip("the refbridge command is not installed beside this Python")
    repo = tmp_path / "lab"
    repo.mkdir()

    def git(*arguments: str) -> str:
        return subprocess.run(["git", *arguments], cwd=repo, capture_output=True, text=True,
                              check=True).stdout

    git("init", "-q")
    git("config", "diff.refbridge.command", f"{command} diff")
    (repo / ".gitattributes").write_text("*.bib diff=refbridge\n", encoding="utf-8")
    (repo / "refs.bib").write_text(OLD, encoding="utf-8")
    git("add", ".")
    git("-c", "user.email=lab@example.org", "-c", "user.name=Lab", "commit", "-qm", "library")
    (repo / "refs.bib").write_text(NEW, encoding="utf-8")
    assert git("diff", "--ext-diff").startswith(
        "refbridge diff a/refs.bib b/refs.bib\nadded: kim2023\nremoved: lee2018\n")
