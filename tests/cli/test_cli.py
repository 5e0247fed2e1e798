"""The command line: conversions, listings, and how failures are reported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support import SAMPLES, run_cli

QIAN = str(SAMPLES / "zhengping-qian.profile.txt")
YANG = str(SAMPLES / "qinwei-yang.profile.txt")




def test_convert_writes_csl_json_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "qian.json"
    code, stdout, stderr = run_cli("convert", QIAN, "--to", "csl-json", "-o", str(out))
    assert (code, stdout, stderr) == (0, "", "")
    items = json.loads(out.read_text(encoding="utf-8"))
    assert [i["id"] for i in items][:3] == ["qian2026specdb", "qian2026trainmover", "qian2026few"]


def test_several_inputs_are_concatenated() -> None:
    code, stdout, _ = run_cli("convert", QIAN, YANG, "--to", "csl-json")
    assert code == 0
    assert len(json.loads(stdout)) == 23


def test_standard_input_and_output() -> None:
    page = (SAMPLES / "qinwei-yang.profile.txt").read_bytes()
    code, stdout, _ = run_cli("convert", "-", "--to", "csl-json", stdin=page)
    assert code == 0
    assert len(json.loads(stdout)) == 9


def test_from_overrides_detection(tmp_path: Path) -> None:
    page = tmp_path / "page.dat"
    page.write_bytes((SAMPLES / "qinwei-yang.profile.txt").read_bytes())
    code, stdout, _ = run_cli("convert", str(page), "--from", "profile", "--to", "csl-json")
    assert code == 0 and len(json.loads(stdout)) == 9


def test_content_is_detected_whatever_the_extension(tmp_path: Path) -> None:
    items = tmp_path / "items.txt"
    items.write_text('[{"id": "a", "type": "book", "title": "T"}]', encoding="utf-8")
    code, stdout, _ = run_cli("convert", str(items), "--to", "csl-json")
    assert (code, json.loads(stdout)) == (0, [{"id": "a", "type": "book", "title": "T"}])


def test_a_bib_read_as_csv_fails_and_writes_nothing(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{sun2021,\n  title = {Learned cardinality estimation},\n"
                   "  author = {Sun, Ji and Li, Guoliang},\n  year = {2021}\n}\n",
                   encoding="utf-8")
    out = tmp_path / "out.bib"
    code, stdout, stderr = run_cli("convert", str(bib), "--from", "csv", "--to", "bibtex",
                                   "-o", str(out))
    assert (code, stdout, stderr) == (1, "", (f"refbridge: error: {bib}:1: not a CSV of records: "
                                      "no heading of the first line names a column this "
                                      "reader reads\n"))
    assert not out.exists()


def test_formats_lists_readers_and_writers() -> None:
    code, stdout, _ = run_cli("formats")
    assert code == 0
    assert "Readers (--from):\n" in stdout and "Writers (--to):\n" in stdout
    assert "  profile " in stdout and "  csl-json " in stdout


def test_an_unknown_output_format_is_a_usage_error_before_reading(tmp_path: Path) -> None:
    code, stdout, stderr = run_cli("convert", str(tmp_path / "missing.txt"), "--to", "docx")
    assert (code, stdout) == (2, "")
    assert stderr.startswith("refbridge: error: no writer for format 'docx' (known: ")


def test_an_unknown_input_format_is_a_usage_error(tmp_path: Path) -> None:
    code, _, stderr = run_cli("convert", YANG, "--from", "docbook", "--to", "csl-json")
    assert code == 2
    assert stderr.startswith("refbridge: error: no reader for format 'docbook' (known: ")


def test_an_empty_bib_is_an_empty_library(tmp_path: Path) -> None:
    empty = tmp_path / "refs.bib"
    empty.write_text("", encoding="utf-8")
    assert run_cli("convert", str(empty), "--to", "csl-json") == (0, "[]\n", "")


def test_a_bib_of_comments_only_is_an_empty_library(tmp_path: Path) -> None:
    comments = tmp_path / "refs.bib"
    comments.write_text("% my references, to be filled in\n\nNothing here yet.\n",
                        encoding="utf-8")
    assert run_cli("convert", str(comments), "--to", "csl-json") == (0, "[]\n", "")


def test_an_empty_ris_is_an_empty_library(tmp_path: Path) -> None:
    empty = tmp_path / "refs.ris"
    empty.write_text("\n\n", encoding="utf-8")
    assert run_cli("convert", str(empty), "--to", "bibtex") == (0, "", "")


def test_a_missing_input_is_named() -> None:
    code, _, stderr = run_cli("convert", "nowhere.txt", "--to", "csl-json")
    assert (code, stderr) == (1, ("refbridge: error: nowhere.txt: cannot open: "
                                 "No such file or directory\n"))


def test_an_unreadable_input_leaves_no_output_and_keeps_an_existing_one(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("this is not\na profile page\nat all\n", encoding="utf-8")
    out = tmp_path / "out.json"
    code, _, stderr = run_cli("convert", str(bad), "--to", "csl-json", "-o", str(out))
    assert code == 1
    assert stderr.startswith(f"refbridge: error: {bad}:")
    assert not out.exists()
    out.write_text("precious", encoding="utf-8")
    run_cli("convert", str(bad), "--to", "csl-json", "-o", str(out))
    assert out.read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "out.json"]


def test_writing_over_an_input_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    page.write_bytes((SAMPLES / "qinwei-yang.profile.txt").read_bytes())
    code, _, stderr = run_cli("convert", str(page), "--to", "csl-json", "-o", str(page))
    assert (code, stderr) == (1, (f"refbridge: error: {page}: refusing to write over an input "
                                 "file\n"))
    assert page.read_bytes() == (SAMPLES / "qinwei-yang.profile.txt").read_bytes()


def test_skipped_records_are_reported_and_set_the_exit_status(tmp_path: Path) -> None:
    items = tmp_path / "items.json"
    items.write_text('[\n{"id": "a", "type": "book", "title": "A"},\n'
                     '{"id": "b", "type": "nonsense"}\n]', encoding="utf-8")
    code, stdout, stderr = run_cli("convert", str(items), "--to", "csl-json")
    assert code == 3
    assert [i["id"] for i in json.loads(stdout)] == ["a"]
    assert stderr == (f"{items}:3: error: record 'b': unknown item type 'nonsense'\n"
                      "refbridge: 1 broken record(s) skipped\n")


def test_skip_invalid_accepts_skipped_records() -> None:
    code, _, stderr = run_cli("convert", "-", "--to", "csl-json", "--skip-invalid",
                          stdin='[{"id": "b", "type": "nonsense"}]')
    assert code == 0
    assert stderr.endswith("refbridge: 1 broken record(s) skipped\n")


def test_strict_stops_at_the_first_broken_record(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code, _, stderr = run_cli("convert", "-", "--to", "csl-json", "--strict", "-o", str(out),
                          stdin='[{"id": "b", "type": "nonsense"}]')
    assert (code, stderr) == (1, ("refbridge: error: <stdin>:1: record 'b': unknown item "
                                 "type 'nonsense'\n"))
    assert not out.exists()


def test_warnings_are_printed_without_failing(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    page.write_text((SAMPLES / "qinwei-yang.profile.txt").read_text(encoding="utf-8").replace(
        "9 recordsLinked", "10 recordsLinked"), encoding="utf-8")
    code, _, stderr = run_cli("convert", str(page), "--to", "csl-json")
    assert (code, stderr) == (0, (f"{page}:5: warning: the page says it lists 10 records but 9 "
                                 "were found\n"))


def test_the_installed_command_runs_as_a_module() -> None:
    result = subprocess.run([sys.executable, "-m", "refbridge", "convert", YANG, "--to",
                             "csl-json"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and len(json.loads(result.stdout)) == 9


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    inputs = " ".join([QIAN, YANG] * 10)  # more than a pipe buffer holds
    shell = f"{sys.executable} -m refbridge convert {inputs} --to csl-json | head -c 1"
    result = subprocess.run(["bash", "-c", "set -o pipefail; " + shell], capture_output=True,
                            text=True, check=False)
    assert (result.returncode, result.stdout, result.stderr) == (0, "[", "")


LIBRARY = """@preamble{"\\newcommand{\\noopsort}[1]{}"}
@article{knuth84,
  Author = {Knuth, D. E.},
  Title = {Literate Programming},
  Journal = {The Computer Journal},
  Year = {1984}, Month = {03},
  Pages = {97--111},
}
@set{both, entryset = {knuth84,lamport86}}
@book{lamport86, author = {Lamport, Leslie}, title = {{\\LaTeX}: A Document Preparation System},
  publisher = {Addison-Wesley}, year = 1986}
"""


def test_a_bib_written_to_bib_keeps_its_layout_and_normalize_writes_the_writers_way(
        tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    code, stdout, _ = run_cli("convert", str(path), "--to", "bibtex")
    assert code == 0
    assert stdout.startswith('@preamble{"\\newcommand{\\noopsort}[1]{}"}\n\n@article{knuth84,\n'
                             "  author = {Knuth, D. E.},\n  title = {Literate Programming},\n"
                             "  journal = {The Computer Journal},\n  year = {1984},\n"
                             "  month = {03},\n  pages = {97--111},\n}\n")
    code, stdout, _ = run_cli("convert", str(path), "--to", "bibtex", "--normalize")
    assert "  month = mar,\n" in stdout
    assert "  title = {{\\LaTeX}: A Document Preparation System},\n" in stdout


def test_a_preamble_rides_in_a_format_that_cannot_use_it_only_as_refbridge_data(
        tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    code, stdout, _ = run_cli("convert", str(path), "--to", "ris")
    assert code == 0
    assert [line for line in stdout.splitlines() if "noopsort" in line] == [
        ('N1  - refbridge: {"custom": {"hints": {"bibtex.before": '
        '"@preamble{\\"\\\\newcommand{\\\\noopsort}[1]{}\\"}"}, '
        '"latex": {"page": "97--111"}}, "page": "97–111"}')]


def test_a_preamble_comes_back_from_a_trip_through_ris(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    run_cli("convert", str(path), "--to", "ris", "-o", str(tmp_path / "refs.ris"))
    code, stdout, _ = run_cli("convert", str(tmp_path / "refs.ris"), "--to", "bibtex")
    assert code == 0
    assert stdout.startswith('@preamble{"\\newcommand{\\noopsort}[1]{}"}\n\n@article{knuth84,\n')


def test_a_set_of_entries_is_no_reference_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    code, stdout, _ = run_cli("format", str(path), "--style", "apa")
    assert code == 0
    assert stdout.splitlines() == [
        "Knuth, D. E. (1984). Literate Programming. The Computer Journal, 97–111.",
        "Lamport, L. (1986). LaTeX: A Document Preparation System. Addison-Wesley."]


REPEATED_KEY = ("@misc{qian2026, title = {SpecDB}, year = 2026}\n"
                "@misc{qian2026, title = {Feature-Oriented Decomposition}, year = 2026}\n")


def test_a_repeated_key_given_a_new_one_in_another_format_is_reported_with_exit_3(
        tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(REPEATED_KEY, encoding="utf-8")
    code, stdout, err = run_cli("convert", str(path), "--to", "csl-json")
    assert code == 3
    assert [item["id"] for item in json.loads(stdout)] == ["qian2026", "qian2026a"]
    assert (f"{path}:2: warning: citation key changed: 'qian2026' -> 'qian2026a' "
            "(an earlier record has it)\n") in err


def test_a_repeated_key_written_back_to_a_bib_stays_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(REPEATED_KEY, encoding="utf-8")
    code, stdout, _ = run_cli("convert", str(path), "--to", "bibtex")
    assert code == 0
    assert stdout.count("@misc{qian2026,\n") == 2
