"""The ``refbridge cv`` command: inputs merged, options passed on, problems reported, exit codes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import ROOT, SAMPLES, run_cli

from refbridge.cv import CvOptions, render_cv
from refbridge.cv.writers.docx import install_hint
from refbridge.errors import RefbridgeError
from refbridge.model import Record

FIXTURES = ROOT / "tests" / "fixtures" / "cv"
ZHENGPING = str(SAMPLES / "zhengping-qian.profile.txt")
QINWEI = str(SAMPLES / "qinwei-yang.profile.txt")
COAUTHORS = str(FIXTURES / "coauthor-records.json")


def incomplete_authors_note(cut_short: int, listed: int) -> str:
    return (f"refbridge: warning: {cut_short} of {listed} listed records have incomplete author "
            "lists (their source names only some authors); add an input with the full lists to "
            "complete them\n")


def run(*args: str) -> tuple[int, str, str]:
    return run_cli("cv", *args)


def test_both_profiles_give_the_expected_markdown(tmp_path: Path) -> None:
    output = tmp_path / "publications.md"
    status, _, stderr = run(ZHENGPING, QINWEI, "--owner", "Zhengping Qian", "--all-records",
                            "-o", str(output))
    assert (status, stderr) == (0, incomplete_authors_note(23, 23))
    assert output.read_text(encoding="utf-8") == (FIXTURES / "merged.md").read_text("utf-8")


def test_a_cv_lists_the_owners_records_and_says_how_many_it_left_out() -> None:
    status, stdout, stderr = run(ZHENGPING, QINWEI, "--owner", "Zhengping Qian", "--to", "text")
    assert status == 0
    assert stderr == ("refbridge: warning: 9 of 23 records do not name Zhengping Qian among "
                      "their people and are left out (--all-records lists them)\n"
                      + incomplete_authors_note(14, 14))
    assert "14 publications: " in stdout and "Qinwei Yang" not in stdout


def test_the_lists_of_two_people_need_an_owner() -> None:
    status, stdout, stderr = run(ZHENGPING, QINWEI)
    assert (status, stdout, stderr) == (2, "", (
        "refbridge: error: the inputs are the publication lists of 2 people (Zhengping Qian, "
        "Qinwei Yang); say whose CV this is with --owner NAME\n"))


def test_a_mistyped_owner_is_said_with_the_closest_author_name() -> None:
    status, stdout, stderr = run(ZHENGPING, "--owner", "Zhenping Qian", "--to", "text")
    assert status == 0
    assert stderr.splitlines()[0] == (
        "refbridge: warning: the owner 'Zhenping Qian' is no author of any record; did you "
        "mean 'Zhengping Qian'? (nothing is highlighted and no record is left out)")
    assert "14 publications: " in stdout


def test_a_numbered_style_numbers_each_entry_once() -> None:
    status, stdout, _ = run(ZHENGPING, "--style", "ieee-cv", "--to", "text", "--no-summary",
                            "--group-by", "none")
    assert status == 0
    assert stdout.splitlines()[3] == (
        "[1] Z. Qian et al., “SpecDB: LLM-Generated Customized Databases via Feature-Oriented "
        "Decomposition,” 2026, arXiv.")
    status, stdout, _ = run(ZHENGPING, "--style", "ieee-cv", "--to", "text", "--no-summary",
                            "--group-by", "none", "--numbering", "count-down")
    assert stdout.splitlines()[3].startswith("[14] [1] Z. Qian et al., “SpecDB")


def test_duplicates_across_inputs_are_merged_and_reported() -> None:
    status, stdout, stderr = run(ZHENGPING, COAUTHORS, "--owner", "Zhengping Qian",
                                 "--to", "text", "--no-summary")
    assert status == 0
    assert stderr.splitlines()[:2] == [
        (f"refbridge: merged 2 records (same title and year): {ZHENGPING}:17, {COAUTHORS}:2: "
         "TrainMover: An interruption-resilient runtime for ML training"),
        (f"refbridge: merged 2 records (same title and year): {ZHENGPING}:105, {COAUTHORS}:18: "
         "Taming the expressiveness and programmability of graph analytical query")]
    assert stderr.splitlines()[2:] == [incomplete_authors_note(12, 14).rstrip()]
    assert ("[14] ChonLam Lao, Zhengping Qian, Qinwei Yang and Ang Chen. TrainMover: An "
            "interruption-resilient runtime for ML training. In Proceedings of the Example "
            "Systems Conference, 101–117, Example Press, 2026.") in stdout
    assert "     DOI: https://doi.org/10.5555/cv-test.trainmover" in stdout


def test_a_profile_and_a_bib_file_become_one_list() -> None:
    published = str(FIXTURES / "qian-published.bib")
    status, stdout, stderr = run(ZHENGPING, published, "--owner", "Qian, Zhengping",
                                 "--group-by", "type", "--to", "markdown", "--no-summary")
    assert status == 0
    assert stderr.splitlines()[0] == (
        f"refbridge: merged 2 records (same title and year): {ZHENGPING}:89, {published}:2: "
        "FLAT: Fast, Lightweight and Accurate Method for Cardinality Estimation")
    assert stdout.startswith("## Publications\n\n### Preprints (13)\n")
    assert stdout.endswith(
        "### Journal articles (1)\n\n- \\[1\\] Rong Zhu, Ziniu Wu, Yuxing Han, Kai Zeng, "
        "Andreas Pfadler, **Zhengping Qian**, Jingren Zhou and Bin Cui. FLAT: Fast, "
        "Lightweight and Accurate Method for Cardinality Estimation. *Proceedings of the VLDB "
        "Endowment*, 14(9), 1489–1502, 2021.\n")


def test_no_merge_keeps_every_record() -> None:
    status, stdout, stderr = run(ZHENGPING, COAUTHORS, "--no-merge", "--to", "text")
    assert (status, stderr) == (0, incomplete_authors_note(14, 16))
    assert "16 publications: 2026 (8), 2025 (1), 2022 (1), 2021 (2), 2020 (3), 2019 (1)" in stdout


def test_the_profile_owner_is_the_default_owner() -> None:
    status, stdout, _ = run(QINWEI, "--to", "markdown", "--no-summary", "--since", "2026",
                            "--match", "ARGUS")
    assert status == 0
    assert stdout == (
        "## Publications\n\n### 2026 (1)\n\n- \\[1\\] **Qinwei Yang** et al. ARGUS: "
        "Production-Scale Tracing and Performance Diagnosis for over 10,000-GPU Clusters. "
        "arXiv, 2026.\n")


def test_filters_grouping_and_numbering_reach_the_list() -> None:
    status, stdout, _ = run(QINWEI, "--to", "text", "--group-by", "subject", "--since", "2025",
                            "--subject", "stat", "--numbering", "count-up", "--no-summary",
                            "--title", "Statistics papers")
    assert status == 0
    assert stdout == (
        "Statistics papers — Qinwei Yang\n===============================\n\n"
        "Methodology \u00b7 stat.ME (2)\n"
        "-------------------------\n\n"
        "[1] Qinwei Yang et al. Improving Treatment Effect Estimation in Trials through "
        "Adaptive Borrowing of External Controls. arXiv, 2026.\n\n"
        "[2] Qinwei Yang et al. Adaptive Data-Borrowing for Improving Treatment Effect Estimation "
        "using External Controls. arXiv, 2025.\n")


def test_an_unsafe_url_is_reported_with_file_and_line() -> None:
    hostile = str(FIXTURES / "hostile-records.json")
    status, stdout, stderr = run(hostile, "--to", "html", "--fragment")
    assert status == 0
    assert stderr == (f"{hostile}:2: warning: record 'hostile': URL 'javascript:alert"
                      "(document.cookie)' is not an http(s) address; the CV does not link it\n")
    assert "javascript:alert(document" not in stdout


@pytest.mark.parametrize("option", [("--group-by", "month"), ("--numbering", "roman"),
                                    ("--highlight", "italic"), ("--to", "rtf"),
                                    ("--type", "journl")])
def test_unknown_option_values_exit_with_usage_status(option: tuple[str, str]) -> None:
    status, stdout, stderr = run(QINWEI, *option)
    assert (status, stdout) == (2, "")
    assert stderr.startswith("refbridge: error: unknown ")


def test_docx_needs_an_output_file() -> None:
    status, _, stderr = run(QINWEI, "--to", "docx")
    assert status == 1
    assert stderr == "refbridge: error: docx output is a binary file: name it with -o FILE.docx\n"


def test_docx_is_written_to_the_named_file(tmp_path: Path) -> None:
    pytest.importorskip("docx", reason="DOCX output needs python-docx")
    output = tmp_path / "publications.docx"
    status, _, stderr = run(QINWEI, "--owner", "Qinwei Yang", "--to", "docx", "-o", str(output))
    assert (status, stderr) == (0, incomplete_authors_note(9, 9))
    assert output.read_bytes()[:2] == b"PK"


def test_docx_without_python_docx_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "docx", None)
    record = Record("a", "article", {"title": "A title"})
    with pytest.raises(RefbridgeError, match=r"^DOCX output needs python-docx: pip install "):
        render_cv([record], CvOptions(), "docx")


def test_the_docx_hint_of_an_editable_clone_installs_the_clone_with_its_extra() -> None:
    pip_record = '{"dir_info": {"editable": true}, "url": "file:///home/ada/src/refbridge"}'
    assert install_hint(pip_record) == "pip install -e '/home/ada/src/refbridge[docx]'"


def test_the_docx_hint_of_a_clone_installed_as_a_copy_installs_the_clone_again() -> None:
    pip_record = '{"dir_info": {}, "url": "file:///home/ada/my%20src/refbridge"}'
    assert install_hint(pip_record) == "pip install '/home/ada/my src/refbridge[docx]'"


def test_the_docx_hint_of_a_package_index_install_names_the_extra() -> None:
    assert install_hint(None) == "pip install 'refbridge[docx]'"


def test_an_unknown_style_fails_before_reading() -> None:
    status, stdout, stderr = run(QINWEI, "--style", "no-such-style-anywhere")
    assert (status, stdout) == (2, "")
    assert stderr.startswith("refbridge: error: unknown style 'no-such-style-anywhere'")


def test_a_catalogue_style_can_format_the_entries() -> None:
    status, stdout, _ = run(QINWEI, "--style", "apa", "--owner", "Yang, Q.", "--to", "text",
                            "--until", "2023", "--no-summary", "--group-by", "none")
    assert status == 0
    assert stdout.endswith("[1] Yang, Q. et al. (2023). Isolated Scheduling for Distributed "
                           "Training Tasks in GPU Clusters. arXiv.\n")


def test_a_profile_written_as_bib_keeps_its_owner_highlighted(tmp_path: Path) -> None:
    bib = tmp_path / "qian.bib"
    assert run_cli("convert", ZHENGPING, "--to", "bibtex", "-o", str(bib))[0] == 0
    assert "  profile-owner = {Zhengping Qian},\n" in bib.read_text(encoding="utf-8")
    _, from_profile, _ = run(ZHENGPING, "--to", "markdown")
    status, from_bib, _ = run(str(bib), "--to", "markdown")
    assert status == 0 and from_bib == from_profile
    assert "- \\[14\\] **Zhengping Qian** et al. SpecDB:" in from_bib


def test_two_profiles_written_as_bib_are_still_two_peoples_lists(tmp_path: Path) -> None:
    bibs = []
    for profile in (ZHENGPING, QINWEI):
        bibs.append(str(tmp_path / (Path(profile).name + ".bib")))
        assert run_cli("convert", profile, "--to", "biblatex", "-o", bibs[-1])[0] == 0
    assert run(*bibs) == run(ZHENGPING, QINWEI)
