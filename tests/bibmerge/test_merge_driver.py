"""refbridge merge-driver: git's merge driver for .bib files, entry by entry and field by
field (``refbridge.bibmerge``). Each rule of the merge has its test with a small invented
base, ours and theirs and the exact merged text; one test runs the driver through a real
``git merge``; properties check that an unchanged side changes nothing and that entries added
on both sides are all kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from refbridge.bibmerge.driver import merge_files
from refbridge.bibmerge.records import merge_documents
from refbridge.bibmerge.ris import read_ris
from refbridge.bibmerge.sequence import merge_libraries
from refbridge.bibmerge.units import read_library

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SMITH = """@article{smith2020,
  author = {Smith, Jane},
  title = {Tidal patterns in estuaries},
  journal = {Coastal Research},
  year = {2020},
}
"""
DOE = """@book{doe2019,
  author = {Doe, John},
  title = {Field methods},
  publisher = {Harbour Press},
  year = {2019},
}
"""
BASE = "% Shared library of the lab\n\n" + SMITH + "\n" + DOE


def merged(base: str, ours: str, theirs: str) -> tuple[str, int]:
    result = merge_libraries(read_library(base), read_library(ours), read_library(theirs))
    return result.text, result.conflicts


def test_entries_added_on_both_sides_are_kept_where_each_side_put_them() -> None:
    ours = BASE.replace(DOE, "@misc{ours2021,\n  title = {Ours},\n}\n\n" + DOE)
    theirs = BASE + "\n@misc{theirs2022,\n  title = {Theirs},\n}\n"
    assert merged(BASE, ours, theirs) == (
        "% Shared library of the lab\n\n" + SMITH + "\n@misc{ours2021,\n  title = {Ours},\n}\n\n"
        + DOE + "\n@misc{theirs2022,\n  title = {Theirs},\n}\n", 0)


def test_an_entry_deleted_on_one_side_and_unchanged_on_the_other_is_deleted() -> None:
    theirs = "% Shared library of the lab\n\n" + SMITH
    ours = BASE.replace("Coastal Research", "Journal of Coastal Research")
    assert merged(BASE, ours, theirs) == (
        "% Shared library of the lab\n\n"
        + SMITH.replace("Coastal Research", "Journal of Coastal Research"), 0)


def test_an_entry_changed_on_one_side_takes_that_change() -> None:
    theirs = BASE.replace("year = {2019}", "year = {2018}")
    assert merged(BASE, BASE, theirs) == (theirs, 0)


def test_an_entry_changed_on_both_sides_merges_field_by_field() -> None:
    ours = BASE.replace("Tidal patterns", "Tidal and wind patterns")
    theirs = BASE.replace("year = {2020},", "year = {2020},\n  doi = {10.1234/cr.2020.7},")
    assert merged(BASE, ours, theirs) == (
        BASE.replace("Tidal patterns", "Tidal and wind patterns")
        .replace("year = {2020},", "year = {2020},\n  doi = {10.1234/cr.2020.7},"), 0)


def test_a_field_changed_to_two_values_is_marked_inside_its_entry_and_the_rest_merged() -> None:
    ours = BASE.replace("year = {2020}", "year = {2021}").replace("Harbour", "Harbor")
    theirs = BASE.replace("year = {2020}", "year = {2022}").replace(
        "Tidal patterns", "Tidal Patterns")
    assert merged(BASE, ours, theirs) == ("""% Shared library of the lab

@article{smith2020,
  author = {Smith, Jane},
  title = {Tidal Patterns in estuaries},
  journal = {Coastal Research},
<<<<<<< ours
  year = {2021},
=======
  year = {2022},
>>>>>>> theirs
}

""" + DOE.replace("Harbour", "Harbor"), 1)


def test_an_entry_renamed_on_one_side_and_edited_on_the_other_is_followed_by_identity() -> None:
    ours = BASE.replace("smith2020", "smith2020tidal")
    theirs = BASE.replace("journal = {Coastal Research}", "journal = {Coastal Research},\n"
                          "  volume = {12}")
    assert merged(BASE, ours, theirs) == (
        BASE.replace("smith2020", "smith2020tidal").replace(
            "journal = {Coastal Research}", "journal = {Coastal Research},\n  volume = {12}"), 0)


def test_an_empty_field_one_side_filled_and_the_other_removed_takes_the_filled_value() -> None:
    base = BASE.replace("  year = {2020},\n", "  year = {2020},\n  note = {},\n")
    ours = base.replace("note = {}", "note = {Data on request}")
    assert merged(base, ours, BASE) == (ours, 0)
    assert merged(base, BASE, ours) == (ours, 0)


def test_a_side_that_reformatted_and_dropped_an_empty_field_keeps_its_layout() -> None:
    base = BASE.replace("  year = {2020},\n", "  year = {2020},\n  note = {},\n")
    ours = base.replace("note = {}", "note = {Data on request}")
    theirs = BASE.replace("  title = {Tidal", "  title   = {Tidal").replace(
        "  journal = ", "  journal = ")
    assert merged(base, ours, theirs) == (theirs.replace(
        "  year = {2020},\n", "  year = {2020},\n  note = {Data on request},\n"), 0)


def test_a_side_that_only_reformatted_loses_to_content_and_its_layout_is_kept() -> None:
    theirs = """% Shared library of the lab

@book{doe2019,
  author    = {Doe, John},
  title     = {Field methods},
  publisher = {Harbour Press},
  year      = 2019,
}

@article{smith2020,
  author  = {Smith, Jane},
  title   = {Tidal patterns in estuaries},
  journal = {Coastal Research},
  year    = 2020,
}
"""
    ours = BASE.replace("Field methods", "Field methods in ecology").replace(
        "year = {2020},", "year = {2020},\n  pages = {1--20},")
    assert merged(BASE, ours, theirs) == (theirs.replace(
        "Field methods", "Field methods in ecology").replace(
        "year    = 2020,", "year    = 2020,\n  pages   = {1--20},"), 0)


def test_an_entry_neither_side_touched_comes_out_byte_for_byte() -> None:
    odd = "@Misc{ odd ,title=\"Odd\"  ,  note = {caf\udce9}}\r\n"
    base = odd + "\r\n" + SMITH
    theirs = base.replace("2020}", "2021}")
    assert merged(base, base, theirs) == (odd + "\r\n" + SMITH.replace("2020}", "2021}"), 0)


def test_strings_preambles_and_comments_merge_as_blocks() -> None:
    base = ('@string{cr = "Coastal Research"}\n@preamble{"\\newcommand{\\x}{x}"}\n'
            "@comment{old note}\n\n" + SMITH)
    ours = base.replace('"Coastal Research"', '"Journal of Coastal Research"')
    theirs = base.replace("@comment{old note}", "@comment{new note}").replace(
        '@preamble{"\\newcommand{\\x}{x}"}\n', "")
    assert merged(base, ours, theirs) == (
        '@string{cr = "Journal of Coastal Research"}\n@comment{new note}\n\n' + SMITH, 0)


def test_an_entry_deleted_on_one_side_and_changed_on_the_other_is_marked_whole() -> None:
    ours = "% Shared library of the lab\n\n" + SMITH
    theirs = BASE.replace("year = {2019}", "year = {2018}")
    assert merged(BASE, ours, theirs) == (
        "% Shared library of the lab\n\n" + SMITH + "\n<<<<<<< ours\n=======\n"
        + DOE.replace("2019}", "2018}") + ">>>>>>> theirs\n", 1)


def test_an_entry_deleted_on_one_side_and_only_cut_on_the_other_is_deleted() -> None:
    ours = "% Shared library of the lab\n\n" + SMITH
    theirs = BASE.replace("  publisher = {Harbour Press},\n", "")
    assert merged(BASE, ours, theirs) == (ours, 0)


def _drive(tmp_path: Path, base: str, ours: str, theirs: str, path: str = "refs.bib"
           ) -> tuple[int, str]:
    """The driver run on three files: its exit status and what it wrote into ours."""
    for name, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    status = merge_files(str(tmp_path / "base"), str(tmp_path / "ours"),
                         str(tmp_path / "theirs"), path)
    return status, (tmp_path / "ours").read_text(encoding="utf-8")


BROKEN_DOE = DOE.replace("Harbour Press", "Harbour Press,\n  note = {broken")


def test_a_broken_block_is_merged_as_text_and_the_rest_entry_by_entry(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours = BASE.replace("{2020}", "{2021}")
    theirs = BASE.replace(DOE, BROKEN_DOE)
    assert _drive(tmp_path, BASE, ours, theirs) == (0, theirs.replace("{2020}", "{2021}"))
    assert capsys.readouterr().err == (
        "refbridge: merge-driver: refs.bib (theirs): line 10: the value of 'publisher' runs to "
        "the end of the entry: a '{' in it is never closed (it opens on line 13); that block "
        "merged as text\n")


def test_a_broken_block_changed_on_both_sides_is_one_conflict(tmp_path: Path) -> None:
    base = BASE.replace(DOE, BROKEN_DOE)
    ours = base.replace("{2020}", "{2021}").replace("note = {broken", "note = {broken, ours")
    theirs = base.replace("note = {broken", "note = {broken, theirs")
    assert _drive(tmp_path, base, ours, theirs) == (1, (
        "% Shared library of the lab\n\n" + SMITH.replace("{2020}", "{2021}") + "\n"
        "<<<<<<< ours\n" + BROKEN_DOE.replace("broken", "broken, ours") + "=======\n"
        + BROKEN_DOE.replace("broken", "broken, theirs") + ">>>>>>> theirs\n"))


def test_a_broken_block_fixed_on_one_side_takes_the_fix(tmp_path: Path) -> None:
    base = BASE.replace(DOE, BROKEN_DOE)
    ours = base.replace("{2020}", "{2021}")
    assert _drive(tmp_path, base, ours, BASE) == (0, BASE.replace("{2020}", "{2021}"))


def test_two_broken_blocks_added_in_one_place_are_both_kept(tmp_path: Path) -> None:
    ours = BASE + "\n@misc{Tidal atlas,\n  title = {Tidal atlas},\n}\n"
    theirs = BASE + "\n@misc{Tidal charts,\n  title = {Tidal charts},\n}\n"
    assert _drive(tmp_path, BASE, ours, theirs) == (
        0, ours + "\n@misc{Tidal charts,\n  title = {Tidal charts},\n}\n")


@needs_git
def test_a_bib_without_any_block_is_merged_by_git(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _drive(tmp_path, "a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n") == (0, "A\nb\nC\n")
    assert capsys.readouterr().err == ("refbridge: merge-driver: refs.bib: no version holds a "
                                       ".bib block; merged by git's line merge\n")


def _git(repo: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *arguments], cwd=repo, capture_output=True, text=True,
                          check=False)


@needs_git
def test_git_merge_uses_the_installed_driver(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    command = Path(sys.executable).parent / "refbridge"
    if not command.exists():
        pytest.skip("the refbridge command is not installed beside this Python")
    monkeypatch.setenv("PATH", f"{command.parent}{os.pathsep}{os.environ['PATH']}")
    repo = tmp_path / "lab"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "lab@example.org")
    _git(repo, "config", "user.name", "Lab")
    assert subprocess.run([str(command), "merge-driver", "--install"], cwd=repo,
                          check=False, capture_output=True).returncode == 0
    (repo / "refs.bib").write_text(BASE, encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "library")
    _git(repo, "checkout", "-qb", "student")
    (repo / "refs.bib").write_text(BASE.replace("{2020}", "{2021}"), encoding="utf-8")
    _git(repo, "commit", "-qam", "year")
    _git(repo, "checkout", "-q", "main")
    # the same lines changed: git's line merge conflicts, the entries merge cleanly
    (repo / "refs.bib").write_text(BASE.replace("year = {2020},", "year = {2020},\n"
                                                "  volume = {12},"), encoding="utf-8")
    _git(repo, "commit", "-qam", "volume")
    done = _git(repo, "merge", "-q", "student", "-m", "merge")
    assert done.returncode == 0, done.stderr
    assert (repo / "refs.bib").read_text(encoding="utf-8") == BASE.replace(
        "year = {2020},", "year = {2021},\n  volume = {12},")
    assert (repo / ".gitattributes").read_text(encoding="utf-8") == INSTALLED


def _installed(repo: Path) -> tuple[list[str], str, str]:
    from refbridge.bibmerge.install import install

    changed = install(str(repo))
    return (changed, _git(repo, "config", "--local", "diff.refbridge.textconv").stdout,
            (repo / ".gitattributes").read_text(encoding="utf-8"))


#: What an install writes into a ``.gitattributes``: each pattern the driver merges by its
#: records (never every ``*.json`` nor ``*.yml``).
INSTALLED = ("*.bib merge=refbridge diff=refbridge\n"
             "*.bibtex merge=refbridge diff=refbridge\n"
             "*.csl.json merge=refbridge diff=refbridge\n"
             "*.csljson merge=refbridge diff=refbridge\n"
             "*.ris merge=refbridge diff=refbridge\n")


@needs_git
def test_install_sets_the_diff_driver_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    changed, textconv, attributes = _installed(tmp_path)
    assert (changed[3:], textconv, attributes) == (
        [f"{tmp_path / '.gitattributes'}: {line}" for line in INSTALLED.splitlines()],
        "refbridge diff --textconv\n", INSTALLED)
    assert _installed(tmp_path) == ([], textconv, attributes)


@needs_git
def test_install_completes_the_line_an_earlier_install_wrote(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    (tmp_path / ".gitattributes").write_text("*.pdf binary\n*.bib merge=refbridge\n",
                                             encoding="utf-8")
    assert _installed(tmp_path)[2] == "*.pdf binary\n" + INSTALLED


@needs_git
def test_install_keeps_the_users_lines_byte_for_byte_and_adds_only_what_is_missing(
        tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    user = (b"# attributes of the lab\r\n*.pdf binary\r\n*.ris merge=refbridge\r\n"
            b"*.csl.json  diff=refbridge   merge=refbridge\r\n*.yml text eol=lf")
    (tmp_path / ".gitattributes").write_bytes(user)
    from refbridge.bibmerge.install import install

    install(str(tmp_path))
    assert (tmp_path / ".gitattributes").read_bytes() == user + (
        b"\r\n*.bib merge=refbridge diff=refbridge\r\n"
        b"*.bibtex merge=refbridge diff=refbridge\r\n"
        b"*.csljson merge=refbridge diff=refbridge\r\n"
        b"*.ris merge=refbridge diff=refbridge\r\n")
    before = (tmp_path / ".gitattributes").read_bytes()
    assert install(str(tmp_path)) == []
    assert (tmp_path / ".gitattributes").read_bytes() == before


@needs_git
def test_git_reads_the_installed_attributes_for_each_format(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    _installed(tmp_path)
    paths = ["refs.bib", "old.bibtex", "items.csl.json", "items.csljson", "export.ris",
             "package.json", "ci.yml"]
    answer = _git(tmp_path, "check-attr", "merge", "--", *paths).stdout.splitlines()
    assert answer == [f"{path}: merge: {'refbridge' if number < 5 else 'unspecified'}"
                      for number, path in enumerate(paths)]


def test_a_csljson_file_is_merged_item_by_item(tmp_path: Path) -> None:
    item = '[{"id": "a", "type": "book", "title": "Field methods", %s}]'
    base, ours, theirs = (tmp_path / name for name in ("base", "ours", "theirs"))
    base.write_text(item % '"note": "x"', encoding="utf-8")
    ours.write_text(item % '"note": "y"', encoding="utf-8")
    theirs.write_text(item % '"note": "x", "volume": "2"', encoding="utf-8")
    assert merge_files(str(base), str(ours), str(theirs), "items.csljson") == 0
    assert ours.read_text(encoding="utf-8") == (item % '"note": "y", "volume": "2"') + "\n"


_WORDS = st.text(alphabet="abcdefghij ", min_size=1, max_size=12).map(str.strip).filter(bool)


@st.composite
def _entry(draw: st.DrawFn, key: str) -> str:
    fields = draw(st.lists(st.sampled_from(["title", "author", "year", "note", "journal"]),
                           min_size=0, max_size=4, unique=True))
    indent = draw(st.sampled_from(["  ", "\t", "    "]))
    opener, closer = draw(st.sampled_from([("{", "}"), ('"', '"')]))
    body = "".join(f",\n{indent}{name} = {opener}{draw(_WORDS)}{closer}" for name in fields)
    return f"@{draw(st.sampled_from(['article', 'Book', 'misc']))}{{{key}{body}\n}}\n"


@st.composite
def _library(draw: st.DrawFn, prefix: str = "k", size: int = 5) -> list[str]:
    count = draw(st.integers(0, size))
    blocks = [draw(_entry(f"{prefix}{number}")) for number in range(count)]
    gaps = [draw(st.sampled_from(["", "\n", "\n\n", "% a note\n"])) for _ in blocks]
    return [gap + block for gap, block in zip(gaps, blocks)]


@settings(max_examples=100, deadline=None)
@given(_library(), st.sampled_from(["", "\n", "\n% end\n"]))
def test_merging_a_library_with_itself_unchanged_gives_it_byte_for_byte(
        blocks: list[str], trailer: str) -> None:
    text = "".join(blocks) + trailer
    assert merged(text, text, text) == (text, 0)


@settings(max_examples=100, deadline=None)
@given(_library(), _library("ours"), _library("theirs"), st.randoms(use_true_random=False))
def test_entries_added_on_both_sides_are_all_kept(
        base: list[str], ours_new: list[str], theirs_new: list[str], random: object) -> None:
    ours, theirs = list(base), list(base)
    for side, added in ((ours, ours_new), (theirs, theirs_new)):
        for block in added:
            side.insert(random.randrange(len(side) + 1), block)  # type: ignore[attr-defined]
    text, conflicts = merged("".join(base), "".join(ours), "".join(theirs))
    assert conflicts == 0
    for block in base + ours_new + theirs_new:
        assert block.lstrip("\n").removeprefix("% a note\n").strip() in text


LEE_CORES = "@misc{lee2023,\n  title = {Sediment cores},\n  year = {2023},\n}\n"
LEE_BIRDS = "@misc{lee2023,\n  title = {Estuary birds},\n  year = {2023},\n}\n"


def test_two_works_added_under_one_key_are_both_kept_under_it_ours_first() -> None:
    assert merged(BASE, BASE + "\n" + LEE_CORES, BASE + "\n" + LEE_BIRDS) == (
        BASE + "\n" + LEE_CORES + "\n" + LEE_BIRDS, 0)


def test_two_works_added_under_one_key_are_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _drive(tmp_path, BASE, BASE + "\n" + LEE_CORES, BASE + "\n" + LEE_BIRDS)[0] == 0
    assert capsys.readouterr().err == (
        "refbridge: merge-driver: refs.bib: key lee2023 was added on both sides with different "
        "entries; both kept under it (BibTeX and biber read the first)\n")


def test_one_work_added_on_both_sides_under_one_key_merges_field_by_field() -> None:
    ours = BASE + "\n" + LEE_CORES.replace("  year", "  note = {Cores from the delta},\n  year")
    theirs = BASE + "\n" + LEE_CORES.replace("}\n", "  howpublished = {Core archive},\n}\n")
    assert merged(BASE, ours, theirs) == (
        ours.replace("year = {2023},\n}", "year = {2023},\n  howpublished = {Core archive},\n}"), 0)


def test_one_work_added_on_both_sides_with_conflicting_fields_is_kept_twice() -> None:
    ours = BASE + "\n" + LEE_CORES.replace("  year", "  note = {Delta cores},\n  year")
    theirs = BASE + "\n" + LEE_CORES.replace("  year", "  note = {River cores},\n  year")
    assert merged(BASE, ours, theirs) == (
        ours + "\n" + LEE_CORES.replace("  year", "  note = {River cores},\n  year"), 0)


NIMBUS_SHORT = "@misc{www-nimbus,\n  url = {http://www.nimbusproject.org/},\n}\n"
NIMBUS_FULL = "@misc{www-nimbus,\n  title = {Nimbus},\n  url = {http://www.nimbusproject.org/},\n}\n"


def test_an_entry_both_added_and_one_side_wrote_twice_is_not_kept_a_third_time() -> None:
    twice = BASE.replace(DOE, NIMBUS_SHORT + "\n" + DOE) + "\n" + NIMBUS_FULL
    once = BASE + "\n" + NIMBUS_FULL
    assert merged(BASE, twice, once) == (twice, 0)


def test_an_entry_both_added_and_theirs_wrote_twice_pairs_with_its_equal() -> None:
    twice = BASE.replace(DOE, NIMBUS_SHORT + "\n" + DOE) + "\n" + NIMBUS_FULL
    once = BASE + "\n" + NIMBUS_FULL
    assert merged(BASE, once, twice) == (twice, 0)


def test_a_jabref_setting_changed_on_one_side_is_one_block_replaced() -> None:
    base = SMITH + "\n@Comment{jabref-meta: databaseType:bibtex;}\n"
    theirs = SMITH + "\n@Comment{jabref-meta: databaseType:biblatex;}\n"
    ours = SMITH.replace("2020}", "2021}") + "\n@Comment{jabref-meta: databaseType:bibtex;}\n"
    assert merged(base, ours, theirs) == (
        SMITH.replace("2020}", "2021}") + "\n@Comment{jabref-meta: databaseType:biblatex;}\n", 0)


GROUPS = """@Comment{jabref-meta: grouping:
0 AllEntriesGroup:;
1 KeywordGroup:Estuaries\\;0\\;keywords\\;estuary\\;0\\;0\\;1\\;\\;\\;\\;;
1 KeywordGroup:Sediments\\;0\\;keywords\\;sediment\\;0\\;0\\;1\\;\\;\\;\\;;
1 KeywordGroup:Birds\\;0\\;keywords\\;bird\\;0\\;0\\;1\\;\\;\\;\\;;
}
"""


def test_jabref_groups_changed_on_both_sides_on_different_lines_merge_by_line() -> None:
    base = SMITH + "\n" + GROUPS
    ours = SMITH + "\n" + GROUPS.replace("Estuaries\\;0", "Estuaries\\;1")
    theirs = SMITH + "\n" + GROUPS.replace("}\n", "1 KeywordGroup:Tides\\;0\\;keywords\\;"
                                                  "tide\\;0\\;0\\;1\\;\\;\\;\\;;\n}\n")
    assert merged(base, ours, theirs) == (
        SMITH + "\n" + GROUPS.replace("Estuaries\\;0", "Estuaries\\;1").replace(
            "}\n", "1 KeywordGroup:Tides\\;0\\;keywords\\;tide\\;0\\;0\\;1\\;\\;\\;\\;;\n}\n"), 0)


def test_jabref_groups_changed_on_both_sides_on_neighbouring_lines_conflict() -> None:
    base = SMITH + "\n" + GROUPS
    ours = SMITH + "\n" + GROUPS.replace("Sediments\\;0", "Sediments\\;1")
    theirs = SMITH + "\n" + GROUPS.replace("Birds\\;0", "Birds\\;1")
    assert merged(base, ours, theirs) == (
        SMITH + "\n<<<<<<< ours\n" + GROUPS.replace("Sediments\\;0", "Sediments\\;1")
        + "=======\n" + GROUPS.replace("Birds\\;0", "Birds\\;1") + ">>>>>>> theirs\n", 1)


def test_the_driver_needs_four_arguments() -> None:
    from support import run_cli

    status, _, err = run_cli("merge-driver", "base.bib", "ours.bib")
    assert (status, err.splitlines()[-1]) == (
        2, "Error: give base, ours, theirs and the path (%O %A %B %P)")


@needs_git
def test_a_file_that_is_not_a_bib_is_merged_by_git(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in (("base", "a\nb\nc\n"), ("ours", "A\nb\nc\n"), ("theirs", "a\nb\nC\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert merge_files(str(tmp_path / "base"), str(tmp_path / "ours"), str(tmp_path / "theirs"),
                       "notes.txt") == 0
    assert (tmp_path / "ours").read_text(encoding="utf-8") == "A\nb\nC\n"
    assert capsys.readouterr().err == ("refbridge: merge-driver: notes.txt: not a .bib, "
                                       "CSL-JSON, RIS or Hayagriva file; merged by git's line "
                                       "merge\n")


CSL_BASE = """[
  {
    "id": "smith2020",
    "type": "article-journal",
    "title": "Tidal patterns in estuaries",
    "issued": {"date-parts": [[2020]]}
  },
  {
    "id": "doe2019",
    "type": "book",
    "title": "Field methods"
  }
]
"""


def _csl(items: list[dict[str, object]]) -> str:
    import json

    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def _csl_items() -> list[dict[str, object]]:
    import json

    items: list[dict[str, object]] = json.loads(CSL_BASE)
    return items


def test_csl_json_items_merge_field_by_field_and_added_items_are_kept(tmp_path: Path) -> None:
    ours, theirs = _csl_items(), _csl_items()
    ours[0]["title"] = "Tidal and wind patterns in estuaries"
    theirs[1]["publisher"] = "Harbour Press"
    theirs.append({"id": "lee2023", "type": "book", "title": "Sédiment cores"})
    expected = _csl_items()
    expected[0]["title"] = "Tidal and wind patterns in estuaries"
    expected[1]["publisher"] = "Harbour Press"
    expected.append({"id": "lee2023", "type": "book", "title": "Sédiment cores"})
    assert _drive(tmp_path, CSL_BASE, _csl(ours), _csl(theirs), "refs.json") == (
        0, _csl(expected))


def test_a_csl_json_item_changed_in_one_field_two_ways_is_marked_whole(tmp_path: Path) -> None:
    ours, theirs = _csl_items(), _csl_items()
    ours[1]["title"] = "Field methods in ecology"
    theirs[1]["title"] = "Field Methods"
    first = _csl(_csl_items()[:1]).rstrip("\n").removesuffix("\n]") + ",\n"
    assert _drive(tmp_path, CSL_BASE, _csl(ours), _csl(theirs), "refs.json") == (1, (
        first + "<<<<<<< ours\n"
        '  {\n    "id": "doe2019",\n    "type": "book",\n    "title": "Field methods in ecology"\n'
        "  }\n=======\n"
        '  {\n    "id": "doe2019",\n    "type": "book",\n    "title": "Field Methods"\n  }\n'
        ">>>>>>> theirs\n]\n"))


def test_a_csl_json_item_deleted_on_one_side_and_unchanged_on_the_other_is_deleted(
        tmp_path: Path) -> None:
    ours, theirs = _csl_items(), _csl_items()[:1]
    ours[0]["title"] = "Tidal and wind patterns in estuaries"
    assert _drive(tmp_path, CSL_BASE, _csl(ours), _csl(theirs), "refs.json") == (
        0, _csl(ours[:1]))


@needs_git
def test_a_json_file_that_is_not_csl_json_is_merged_by_git(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base, ours, theirs = '{"a": 1,\n"b": 2,\n"c": 3}\n', '{"a": 9,\n"b": 2,\n"c": 3}\n', (
        '{"a": 1,\n"b": 2,\n"c": 7}\n')
    assert _drive(tmp_path, base, ours, theirs, "settings.json") == (
        0, '{"a": 9,\n"b": 2,\n"c": 7}\n')
    assert capsys.readouterr().err == (
        "refbridge: merge-driver: settings.json (base): not a CSL-JSON array of items, each "
        "with an id; merged by git's line merge instead\n")


RIS_SMITH = """TY  - JOUR
AU  - Smith, Jane
TI  - Tidal patterns in estuaries
T2  - Coastal Research
PY  - 2020
ER  - 

"""
RIS_DOE = """TY  - BOOK
ID  - doe2019
AU  - Doe, John
TI  - Field methods
PB  - Harbour Press
PY  - 2019
ER  - 
"""
RIS_BASE = RIS_SMITH + RIS_DOE


def test_ris_records_merge_field_by_field_and_added_records_are_kept(tmp_path: Path) -> None:
    ours = RIS_BASE.replace("TI  - Tidal patterns", "TI  - Tidal and wind patterns")
    theirs = RIS_BASE.replace("PY  - 2019\n", "PY  - 2019\nSN  - 978-0-00-000000-2\n") + (
        "\nTY  - GEN\nTI  - Sédiment cores\nER  - \n")
    assert _drive(tmp_path, RIS_BASE, ours, theirs, "refs.ris") == (0, (
        RIS_BASE.replace("TI  - Tidal patterns", "TI  - Tidal and wind patterns")
        .replace("PY  - 2019\n", "PY  - 2019\nSN  - 978-0-00-000000-2\n")
        + "\nTY  - GEN\nTI  - Sédiment cores\nER  - \n"))


def test_ris_authors_changed_on_one_side_are_one_field(tmp_path: Path) -> None:
    ours = RIS_BASE.replace("AU  - Doe, John\n", "AU  - Doe, John\nAU  - Roe, Rita\n")
    theirs = RIS_BASE.replace("PB  - Harbour Press", "PB  - Harbor Press")
    assert _drive(tmp_path, RIS_BASE, ours, theirs, "refs.ris") == (0, ours.replace(
        "PB  - Harbour Press", "PB  - Harbor Press"))


def test_a_ris_field_changed_two_ways_is_marked_inside_its_record(tmp_path: Path) -> None:
    ours = RIS_BASE.replace("PY  - 2019", "PY  - 2018").replace("T2  - Coastal Research",
                                                                "T2  - J. Coastal Research")
    theirs = RIS_BASE.replace("PY  - 2019", "PY  - 2021")
    assert _drive(tmp_path, RIS_BASE, ours, theirs, "refs.ris") == (1, (
        RIS_SMITH.replace("T2  - Coastal Research", "T2  - J. Coastal Research")
        + "TY  - BOOK\nID  - doe2019\nAU  - Doe, John\nTI  - Field methods\n"
        "PB  - Harbour Press\n<<<<<<< ours\nPY  - 2018\n=======\nPY  - 2021\n"
        ">>>>>>> theirs\nER  - \n"))


def test_a_ris_record_deleted_on_one_side_and_unchanged_on_the_other_is_deleted(
        tmp_path: Path) -> None:
    ours = RIS_BASE.replace("PB  - Harbour Press", "PB  - Harbor Press")
    assert _drive(tmp_path, RIS_BASE, ours, RIS_DOE, "refs.ris") == (
        0, RIS_DOE.replace("PB  - Harbour Press", "PB  - Harbor Press"))


def test_a_ris_record_deleted_on_one_side_and_changed_on_the_other_is_marked_whole(
        tmp_path: Path) -> None:
    theirs = RIS_BASE.replace("PB  - Harbour Press", "PB  - Harbor Press")
    assert _drive(tmp_path, RIS_BASE, RIS_SMITH, theirs, "refs.ris") == (1, (
        RIS_SMITH + "<<<<<<< ours\n=======\n" + RIS_DOE.replace("Harbour", "Harbor")
        + ">>>>>>> theirs\n"))


def test_a_ris_file_cut_off_inside_a_record_is_merged_by_git(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = RIS_BASE.removesuffix("ER  - \n")
    assert _drive(tmp_path, RIS_BASE, cut, RIS_BASE, "refs.ris") == (0, cut)
    assert capsys.readouterr().err == (
        "refbridge: merge-driver: refs.ris (ours): line 8: a record without its ER line; merged "
        "by git's line merge instead\n")


HAYAGRIVA_BASE = """# Shared library of the lab
smith2020:
  type: article
  title: Tidal patterns in estuaries
  author: Smith, Jane
  date: 2020
  parent:
    type: periodical
    title: Coastal Research

doe2019:
  type: book
  title: Field methods
  author:
    - Doe, John
  publisher: Harbour Press
  date: 2019
"""


def test_hayagriva_entries_merge_field_by_field_and_added_entries_are_kept(
        tmp_path: Path) -> None:
    ours = HAYAGRIVA_BASE.replace("    title: Coastal Research",
                                  "    title: Journal of Coastal Research")
    theirs = HAYAGRIVA_BASE.replace("  date: 2020\n", "  date: 2020\n  volume: 12\n") + (
        "\nlee2023:\n  type: book\n  title: Sédiment cores\n")
    assert _drive(tmp_path, HAYAGRIVA_BASE, ours, theirs, "refs.yml") == (0, (
        HAYAGRIVA_BASE.replace("    title: Coastal Research",
                               "    title: Journal of Coastal Research")
        .replace("  date: 2020\n", "  date: 2020\n  volume: 12\n")
        + "\nlee2023:\n  type: book\n  title: Sédiment cores\n"))


def test_a_hayagriva_field_requoted_on_one_side_and_changed_on_the_other_takes_the_change(
        tmp_path: Path) -> None:
    ours = HAYAGRIVA_BASE.replace("  title: Field methods", '  title: "Field methods"')
    theirs = HAYAGRIVA_BASE.replace("  title: Field methods", "  title: Field methods in ecology")
    assert _drive(tmp_path, HAYAGRIVA_BASE, ours, theirs, "refs.yml") == (0, theirs)


def test_a_hayagriva_field_changed_two_ways_is_marked_inside_its_entry(tmp_path: Path) -> None:
    ours = HAYAGRIVA_BASE.replace("    - Doe, John\n", "    - Doe, John\n    - Roe, Rita\n")
    theirs = HAYAGRIVA_BASE.replace("    - Doe, John\n", "    - Doe, Jonathan\n").replace(
        "  date: 2019", "  date: 2018")
    assert _drive(tmp_path, HAYAGRIVA_BASE, ours, theirs, "refs.yml") == (1, (
        HAYAGRIVA_BASE.split("doe2019:")[0] + "doe2019:\n  type: book\n  title: Field methods\n"
        "<<<<<<< ours\n  author:\n    - Doe, John\n    - Roe, Rita\n=======\n  author:\n"
        "    - Doe, Jonathan\n>>>>>>> theirs\n  publisher: Harbour Press\n  date: 2018\n"))


def test_a_yaml_file_that_is_not_hayagriva_is_merged_by_git(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base, ours, theirs = "- a\n- b\n- c\n", "- A\n- b\n- c\n", "- a\n- b\n- C\n"
    assert _drive(tmp_path, base, ours, theirs, "list.yml") == (0, "- A\n- b\n- C\n")
    assert capsys.readouterr().err == (
        "refbridge: merge-driver: list.yml (base): not a Hayagriva file (a mapping of keys to "
        "entries); merged by git's line merge instead\n")


@st.composite
def _ris_records(draw: st.DrawFn, prefix: str = "r") -> list[str]:
    """RIS records with ids ``prefix0``, ``prefix1`` ..., invented titles and years."""
    words = st.text(alphabet="abcdefghij éü", min_size=1, max_size=12).map(str.strip).filter(bool)
    return [f"TY  - JOUR\nID  - {prefix}{number}\nTI  - {draw(words)}\n"
            f"PY  - {draw(st.integers(1900, 2030))}\nER  - \n\n"
            for number in range(draw(st.integers(0, 4)))]


@settings(max_examples=60, deadline=None)
@given(_ris_records("base"), _ris_records("ours"), _ris_records("theirs"),
       st.randoms(use_true_random=False))
def test_ris_records_added_on_both_sides_are_all_kept_and_an_unchanged_file_is_kept(
        base: list[str], ours_new: list[str], theirs_new: list[str], random: object) -> None:
    ours, theirs = list(base), list(base)
    for side, added in ((ours, ours_new), (theirs, theirs_new)):
        for record in added:
            side.insert(random.randrange(len(side) + 1), record)  # type: ignore[attr-defined]
    assume(base and ours and theirs)  # a file without a record is not RIS: git's line merge
    texts = ["".join(records) for records in (base, ours, theirs)]
    assert merge_documents(*(read_ris(text) for text in (texts[0],) * 3)) == (texts[0], 0)
    text, conflicts = merge_documents(*(read_ris(text) for text in texts))
    assert conflicts == 0
    assert sorted(text.split("TY  - ")) == sorted("".join(base + ours_new + theirs_new)
                                                  .split("TY  - "))


def test_a_ris_record_retitled_on_one_side_and_edited_on_the_other_is_followed(
        tmp_path: Path) -> None:
    ours = RIS_BASE.replace("TI  - Tidal patterns", "TI  - Tidal and wind patterns")
    theirs = RIS_BASE.replace("PY  - 2020", "PY  - 2020\nVL  - 12")
    assert _drive(tmp_path, RIS_BASE, ours, theirs, "refs.ris") == (0, ours.replace(
        "PY  - 2020", "PY  - 2020\nVL  - 12"))


def test_a_hayagriva_key_renamed_on_one_side_and_edited_on_the_other_is_followed(
        tmp_path: Path) -> None:
    ours = HAYAGRIVA_BASE.replace("doe2019:", "doe2019field:")
    theirs = HAYAGRIVA_BASE.replace("  date: 2019", "  date: 2018")
    assert _drive(tmp_path, HAYAGRIVA_BASE, ours, theirs, "refs.yml") == (0, ours.replace(
        "  date: 2019", "  date: 2018"))


def test_a_ris_record_deleted_beside_an_unrelated_added_one_is_not_followed(
        tmp_path: Path) -> None:
    added = "TY  - BOOK\nAU  - Lee, Min\nTI  - Sediment cores\nPY  - 2023\nER  - \n"
    ours = RIS_SMITH + added
    theirs = RIS_BASE.replace("PB  - Harbour Press", "PB  - Harbor Press")
    assert _drive(tmp_path, RIS_BASE, ours, theirs, "refs.ris") == (1, (
        RIS_SMITH + "<<<<<<< ours\n=======\n" + RIS_DOE.replace("Harbour", "Harbor")
        + ">>>>>>> theirs\n" + added))
