"""``refbridge check`` on a .bib as written: biblatex's data model (from blx-dm.def), BibTeX's
rules, JabRef-style integrity rules, references between entries, the key pattern, the report
formats and ``--fix`` (safe repairs written back, every other byte unchanged)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from refbridge.check import CheckOptions, check_files
from refbridge.check.rules import RULES
from refbridge.check.values import YEARS_AHEAD
from refbridge.cli import main
from refbridge.errors import Diagnostics, ExitStatus


def findings(tmp_path: Path, text: str, *args: str) -> list[str]:
    """The text report of ``text`` as refs.bib, without the directory."""
    path = tmp_path / "refs.bib"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), *args])
    return result.stdout.replace(f"{tmp_path}/", "").splitlines()


ARTICLE = ("@article{qian2020,\n  author = {Qian, Zhengping},\n  title = {Timely reliability},\n"
           "  journal = {SIGMOD Record},\n  year = {2020},\n  volume = {49},\n"
           "  pages = {1--14},\n%s}\n")


def one(tmp_path: Path, field: str, *args: str) -> list[str]:
    return findings(tmp_path, ARTICLE % f"  {field},\n", *args)


def test_a_year_field_of_five_digits_is_one_finding(tmp_path: Path) -> None:
    text = ("@article{qian2020,\n  author = {Qian, Zhengping},\n  title = {Timely reliability},\n"
            "  journal = {SIGMOD Record},\n  year = {20200},\n}\n\n"
            "@article{lee3020,\n  author = {Lee, Ann},\n  title = {Far ahead},\n"
            "  journal = {SIGMOD Record},\n  year = {3020},\n}\n")
    latest = datetime.date.today().year + YEARS_AHEAD
    assert findings(tmp_path, text, "--ignore", "missing-field") == [
        "refs.bib:1: warning: year '20200' is not a four-digit number [year]",
        f"refs.bib:8: warning: issued year 3020 is outside 1000-{latest} [year]"]


# -- biblatex's data model --------------------------------------------------------------------
@pytest.mark.parametrize(("field", "expected"), [
    ("volumes = {iii}", [("refs.bib:1: warning: biblatex's data model has no field 'volumes' for "
                         "@article (biber ignores it) [field-not-for-type]"),
                         ("refs.bib:1: error: volumes 'iii' is not an integer: biber ignores the "
                         "field [field-type]")]),
    ("foo = {bar}", [("refs.bib:1: warning: biblatex's data model has no field 'foo' (biber "
                     "ignores it) [unknown-field]")]),
    ("urldate = {2020-02-30}", [("refs.bib:1: error: urldate '2020-02-30' is not a date biblatex "
                                "reads (ISO 8601-2: 2020, 2020-05, 2020-05-21, 2001/2003): biber "
                                "ignores it [date-format]")]),
    ("gender = {xx}", [("refs.bib:1: error: gender 'xx' is not one of sf, sm, sn, pf, pm, pn, pp "
                       "[field-type]")]),
])
def test_biblatex_data_model_judges_each_field(tmp_path: Path, field: str,
                                               expected: list[str]) -> None:
    assert one(tmp_path, field, "--dialect", "biblatex", "--ignore", "missing-field") == expected


@pytest.mark.parametrize("date", ["2020", "2020-05", "2020-05-21", "2001/2003", "2020~",
                                  "2020-05-21T10:00:00Z", "19XX", "2020/..", "2000-02-29",
                                  "2020-05-21/2020-06-01"])
def test_dates_biblatex_reads_are_not_reported(tmp_path: Path, date: str) -> None:
    assert one(tmp_path, f"urldate = {{{date}}}", "--dialect", "biblatex") == []


def test_biber_aliases_are_read_before_the_required_fields(tmp_path: Path) -> None:
    thesis = ("@phdthesis{qian2010,\n  author = {Qian, Zhengping},\n  title = {Graphs},\n"
              "  school = {Tsinghua University},\n  year = {2010}\n}\n")
    assert findings(tmp_path, thesis, "--dialect", "biblatex") == []


def test_an_unknown_entry_type_in_each_dialect(tmp_path: Path) -> None:
    text = "@dataset{d1,\n  author = {Qian, Zhengping},\n  title = {Logs},\n  year = {2020}\n}\n"
    assert findings(tmp_path, text) == [
        ("refs.bib:1: error: the standard BibTeX styles have no entry type @dataset (they print "
        "it as @misc) [unknown-entry-type]")]
    assert findings(tmp_path, text, "--dialect", "biblatex") == []


def test_a_child_counts_what_it_inherits_from_a_later_parent(tmp_path: Path) -> None:
    text = ("@inproceedings{qian2020,\n  author = {Qian, Zhengping},\n  title = {Timely},\n"
            "  crossref = {sigmod2020}\n}\n\n@proceedings{sigmod2020,\n"
            "  title = {Proceedings of {SIGMOD}},\n  year = {2020}\n}\n")
    assert findings(tmp_path, text, "--dialect", "biblatex") == []
    assert findings(tmp_path, text, "--require", "bibtex") == [
        "refs.bib:1: warning: bibtex needs booktitle for @inproceedings [missing-field]"]


def test_a_reference_to_a_key_no_entry_has(tmp_path: Path) -> None:
    assert one(tmp_path, "crossref = {sigmod2021}", "--ignore", "missing-field") == [
        ("refs.bib:1: error: crossref 'sigmod2021' names no entry of the file "
        "[missing-reference]")]


# -- integrity ------------------------------------------------------------------------------
@pytest.mark.parametrize(("field", "expected"), [
    ("subtitle = {The DNA of {RNA} in LaTeX}",
     ("warning: subtitle has capitals a style that changes case would lower: DNA, LaTeX (protect "
     "them with braces: {DNA}) [title-case]")),
    ("note = {a \\{ b} c}", ("error: note: the braces do not balance as LaTeX reads them (\\{ and "
     "\\} are characters, not groups) [braces]")),
    ("editor = {Smith, John, Doe, Jane}", ("error: editor has too many commas in 'Smith, John, "
     "Doe, Jane': an 'and' is missing between names (biber skips the entry) [names]")),
    ("editor = {Smith, John and}", ("error: editor has an empty name (an 'and' at the start or "
     "end, or twice) [names]")),
    ("editor = {others and Smith, John}", ("error: editor has 'others' before its last name "
     "('and others' ends a list) [names]")),
    ("note = {Cells &amp; tissues}", "warning: note holds the HTML entity '&amp;' [html]"),
    ("note = {The <i>in vivo</i> case}", ("warning: note holds HTML markup '<i>' (write LaTeX: "
     "\\textit{...}, \\textsuperscript{...}) [html]")),
    ("note = {Cafe\u0301}", "note: note is not in Unicode normal form C [unicode-nfc]"),
    ("month = {Sept}", ("warning: month 'Sept' is neither a month macro (jan .. dec) nor a number "
     "1-12 [month]")),
    ("publisher = acm", ("error: publisher uses acm, which no @string defines (bibtex and biber "
     "read it as empty) [undefined-macro]")),
    ("doi = {https://doi.org/10.1145/3318464.3389703}", ("warning: DOI "
     "'https://doi.org/10.1145/3318464.3389703' holds more than the DOI; write "
     "'10.1145/3318464.3389703' [doi]")),
    ("isbn = {978-0-201-89683-2}", ("warning: ISBN '978-0-201-89683-2' has a wrong length or "
     "check digit [isbn]")),
])
def test_an_integrity_problem_is_named(tmp_path: Path, field: str, expected: str) -> None:
    assert one(tmp_path, field) == [f"refs.bib:1: {expected}"]


def test_a_single_hyphen_page_range_is_style(tmp_path: Path) -> None:
    assert findings(tmp_path, (ARTICLE % "").replace("1--14", "1-14")) == [
        ("refs.bib:1: note: pages '1-14': a range is written with -- (an en dash) "
        "[page-range-dash]")]


def test_a_title_that_keeps_its_case_is_not_reported(tmp_path: Path) -> None:
    book = ("@book{knuth1984,\n  author = {Knuth, Donald E.},\n  title = {The TeXbook},\n"
            "  publisher = {Addison-Wesley},\n  year = {1984}\n}\n")
    assert findings(tmp_path, book) == []  # plain.bst prints a book's title as written


def test_a_key_that_deviates_from_the_pattern(tmp_path: Path) -> None:
    text = (ARTICLE % "") + "\n" + (ARTICLE % "").replace("{qian2020,", "{qian2020b,").replace(
        "Timely reliability", "Timely recovery")
    text += "\n" + (ARTICLE % "").replace("{qian2020,", "{Qian20,").replace(
        "Timely reliability", "Fast recovery")
    assert findings(tmp_path, text, "--key-pattern", "[auth:lower][year]") == [
        ("refs.bib:19: note: citation key 'Qian20' is not the pattern's key 'qian2020' "
        "[key-pattern]")]


# -- choosing rules and the exit status -----------------------------------------------------
def test_select_reports_only_the_rules_named(tmp_path: Path) -> None:
    text = ARTICLE % "  month = {Sept},\n  isbn = {978-0-201-89683-2},\n"
    assert findings(tmp_path, text, "--select", "isbn") == [
        "refs.bib:1: warning: ISBN '978-0-201-89683-2' has a wrong length or check digit [isbn]"]


def test_notes_alone_exit_0_and_fail_on_note_exits_4(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text((ARTICLE % "").replace("1--14", "1-14"), encoding="utf-8")
    assert CliRunner().invoke(main, ["check", str(path)]).exit_code == 0
    assert CliRunner().invoke(main, ["check", str(path), "--fail-on", "note"]).exit_code == \
        ExitStatus.PROBLEMS


def test_every_rule_has_a_known_severity_and_a_unique_id() -> None:
    assert len({rule.id for rule in RULES}) == len(RULES)
    assert {rule.severity for rule in RULES} <= {"error", "warning", "note"}


# -- report formats -------------------------------------------------------------------------
FAULTY = ARTICLE % "  isbn = {978-0-201-89683-2},\n"


def test_github_annotations(tmp_path: Path) -> None:
    assert findings(tmp_path, FAULTY, "--format", "github") == [
        ("::warning file=refs.bib,line=1,title=isbn::ISBN '978-0-201-89683-2' has a wrong "
        "length or check digit")]


def test_json_report(tmp_path: Path) -> None:
    assert json.loads("\n".join(findings(tmp_path, FAULTY, "--format", "json"))) == [
        {"rule": "isbn", "severity": "warning", "file": "refs.bib", "line": 1,
         "key": "qian2020", "fixable": False,
         "message": "ISBN '978-0-201-89683-2' has a wrong length or check digit"}]


def test_sarif_report_names_rules_and_physical_locations(tmp_path: Path) -> None:
    sarif = json.loads("\n".join(findings(tmp_path, FAULTY, "--format", "sarif")))
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == [r.id for r in RULES]
    assert run["results"] == [{
        "ruleId": "isbn", "level": "warning",
        "message": {"text": "ISBN '978-0-201-89683-2' has a wrong length or check digit"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "refs.bib"},
                                            "region": {"startLine": 1}}}]}]


# -- --fix ----------------------------------------------------------------------------------
MESSY = ("% my library\r\n@article{qian2020,\r\n  author = {Qian, Zhengping},\r\n"
         "  title    = \"Timely reliability\",\r\n  journal = {Cells &amp; Tissues},\r\n"
         "  year = 2020, month = {September},\r\n  pages = {1-14},\r\n"
         "  doi = {https://doi.org/10.1145/3318464.3389703},\r\n  note = {Cafe\u0301}}\r\n"
         "\r\n@book{knuth1984, title={The TeXbook}, author={Knuth, Donald E.},\r\n"
         "  publisher={Addison-Wesley}, year={1984}, pages={1-14}}\r\n")


def test_fix_writes_back_only_the_fixed_values(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(MESSY.encode("utf-8"))
    result = CliRunner().invoke(main, ["check", str(path), "--fix"])
    assert result.exit_code == 0
    assert path.read_bytes().decode("utf-8") == (
        MESSY.replace("{Cells &amp; Tissues}", "{Cells \\& Tissues}")
        .replace("{September}", "sep").replace("{1-14},\r\n  doi", "{1--14},\r\n  doi")
        .replace("{https://doi.org/10.1145/3318464.3389703}", "{10.1145/3318464.3389703}")
        .replace("Cafe\u0301", "Caf\u00e9").replace("pages={1-14}", "pages={1--14}"))
    assert result.stderr.replace(f"{tmp_path}/", "").splitlines() == [
        ("refbridge: fixed refs.bib:2 qian2020: doi: {https://doi.org/10.1145/3318464.3389703} "
        "-> {10.1145/3318464.3389703}"),
        ("refbridge: fixed refs.bib:2 qian2020: journal: {Cells &amp; Tissues} -> "
        "{Cells \\& Tissues}"),
        "refbridge: fixed refs.bib:2 qian2020: month: {September} -> sep",
        "refbridge: fixed refs.bib:2 qian2020: note: {Cafe\u0301} -> {Caf\u00e9}",
        "refbridge: fixed refs.bib:2 qian2020: pages: {1-14} -> {1--14}",
        "refbridge: fixed refs.bib:11 knuth1984: pages: {1-14} -> {1--14}"]
    assert CliRunner().invoke(main, ["check", str(path)]).stdout == ""


def test_fix_of_a_library_with_nothing_to_fix_keeps_every_byte(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    text = MESSY.replace("{Cells &amp; Tissues}", "{Cells}").replace("{September}", "sep") \
        .replace("1-14", "1--14").replace("https://doi.org/", "").replace("Cafe\u0301", "x")
    path.write_bytes(text.encode("utf-8"))
    assert CliRunner().invoke(main, ["check", str(path), "--fix"]).exit_code == 0
    assert path.read_bytes() == text.encode("utf-8")


def test_the_library_api_reads_a_bib_as_written(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(ARTICLE % "  month = {Sept},\n", encoding="utf-8")
    found = list(check_files([str(path)], Diagnostics(), options=CheckOptions.of(("bibtex",))))
    assert [(f.code, f.key, f.source.line if f.source else None) for f in found] == [
        ("month", "qian2020", 1)]
