"""``refbridge check``: duplicate keys and records, fields a style needs, suspicious values,
each named by file and line, and an exit status scripts can use."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzz.harness import FUZZ
from hypothesis import given
from hypothesis import strategies as st
from strategies import records

from refbridge.check import (
    CODES,
    REQUIREMENTS,
    CheckUsageError,
    check_records,
)
from refbridge.cli import main
from refbridge.errors import ExitStatus
from refbridge.model import Date, Name, Record, Source
from refbridge.vocab import DATE_VARIABLE_SET, NAME_VARIABLE_SET, TEXT_VARIABLE_SET

THIS_YEAR = 2026


def article(line: int, **fields: str) -> Record:
    """A complete journal article (nothing to report) with ``fields`` changed."""
    return Record(
        id=f"r{line}", type="article-journal",
        fields={"title": "Timely reliability", "container-title": "SIGMOD Record",
                "volume": "49", "page": "1-14", **fields},
        names={"author": (Name("Qian", "Zhengping"),)}, dates={"issued": Date.of(2020)},
        citation_key=f"qian2020-{line}", source=Source("refs.bib", line))


def findings(*records: Record, requirements: tuple[str, ...] = ("bibtex",)) -> list[str]:
    return [str(f) for f in check_records(records, requirements, this_year=THIS_YEAR)]


def test_a_complete_record_has_no_findings() -> None:
    assert findings(article(1), requirements=("bibtex", "biblatex", "apa")) == []


def test_a_reused_citation_key_names_the_first_use() -> None:
    first, second = article(1), article(9, title="Another paper")
    second = second.replace(citation_key="QIAN2020-1")
    assert findings(first, second) == [
        ("refs.bib:9: warning: citation key 'QIAN2020-1' is already used at refs.bib:1 "
        "[duplicate-key]")]


def test_the_same_doi_twice_is_a_duplicate_record() -> None:
    assert findings(article(1, DOI="10.1145/3318464.3389703"),
                    article(9, DOI="https://doi.org/10.1145/3318464.3389703",
                            title="Other title")) == [
        "refs.bib:9: warning: same DOI as the record at refs.bib:1 [duplicate-record]",
        ("refs.bib:9: warning: DOI 'https://doi.org/10.1145/3318464.3389703' holds more than "
        "the DOI; write '10.1145/3318464.3389703' [doi]")]


def test_the_same_title_year_and_first_author_is_a_duplicate_record() -> None:
    assert findings(article(1), article(9, title="TIMELY  Reliability!")) == [
        ("refs.bib:9: warning: same title, year and first author as the record at refs.bib:1 "
        "[duplicate-record]")]


def test_a_missing_field_is_named_with_the_style_that_needs_it() -> None:
    book = Record(id="b", type="book", fields={"title": "Notes"}, dates={"issued": Date.of(1990)},
                  names={"editor": (Name("Knuth", "Donald"),)}, source=Source("refs.bib", 3))
    assert findings(book, requirements=("bibtex", "apa")) == [
        "refs.bib:3: warning: bibtex needs publisher for type book [missing-field]",
        "refs.bib:3: warning: apa needs publisher for type book [missing-field]"]


def test_requirement_tables_name_only_model_variables() -> None:
    known = TEXT_VARIABLE_SET | NAME_VARIABLE_SET | DATE_VARIABLE_SET | {"eprint"}
    for table in REQUIREMENTS.values():
        for requirements in table.values():
            for requirement in requirements:
                assert set(requirement.split("|")) <= known, requirement


@pytest.mark.parametrize(("issued", "message"), [
    (Date.of(20260), "issued year 20260 is outside 1000-2028"),
    (Date(literal="20260"), "issued year 20260 is outside 1000-2028"),
    (Date.of(999), "issued year 999 is outside 1000-2028"),
])
def test_a_year_far_from_now_is_suspicious(issued: Date, message: str) -> None:
    record = article(4).replace(dates={"issued": issued})
    assert findings(record) == [f"refs.bib:4: warning: {message} [year]"]


@pytest.mark.parametrize(("field", "value", "message"), [
    ("page", "12-", "pages '12-' are not a page or a range such as 12-19 [pages]"),
    ("page", "-12", "pages '-12' are not a page or a range such as 12-19 [pages]"),
    ("page", "29-12", "pages '29-12' end before they start [pages]"),
    ("page", "x--y", "pages 'x--y' are not a page or a range such as 12-19 [pages]"),
    ("DOI", "10.1145", "DOI '10.1145' is not a DOI (10.NNNN/suffix) [doi]"),
    ("DOI", "doi:10.1145/3318464.3389703",
     ("DOI 'doi:10.1145/3318464.3389703' holds more than the DOI; write "
     "'10.1145/3318464.3389703' [doi]")),
    ("URL", "javascript:alert(1)",
     "URL 'javascript:alert(1)' is not a web address (http, https or ftp) [url]"),
    ("URL", "www.example.com/paper.pdf",
     "URL 'www.example.com/paper.pdf' is not a web address (http, https or ftp) [url]"),
    ("ISBN", "978-0-201-89683-2", ("ISBN '978-0-201-89683-2' has a wrong length or check "
     "digit [isbn]")),
    ("ISBN", "0-201-89683-5", "ISBN '0-201-89683-5' has a wrong length or check digit [isbn]"),
    ("ISSN", "0163-5807", "ISSN '0163-5807' has a wrong form or check digit [issn]"),
])
def test_a_suspicious_value_is_named(field: str, value: str, message: str) -> None:
    assert findings(article(7, **{field: value})) == [f"refs.bib:7: warning: {message}"]


@pytest.mark.parametrize(("field", "value"), [
    ("page", "1203-12"), ("page", "e1234"), ("page", "xi-xx"), ("page", "12–19, 23"),
    ("page", "S12-S19"), ("DOI", "10.1007/978-3-030-12345-6_3"),
    ("URL", "https://arxiv.org/abs/2601.01234"), ("ISBN", "978-0-201-89683-1"),
    ("ISBN", "0-201-89683-4"), ("ISBN", "080442957X"), ("ISSN", "0163-5808"),
    ("ISSN", "2049-3630"),
])
def test_a_sound_value_is_not_reported(field: str, value: str) -> None:
    assert findings(article(7, **{field: value})) == []


def test_an_unknown_requirement_table_is_a_usage_error() -> None:
    with pytest.raises(CheckUsageError, match="no requirement table 'harvard'"):
        list(check_records([], ("harvard",)))


# -- the command ----------------------------------------------------------------------------
LIBRARY = """\
@article{qian2020,
  author = {Qian, Zhengping}, title = {Timely Reliability}, journal = {SIGMOD Record},
  year = {2020}, pages = {12-}
}

@article{qian2020,
  author = {Qian, Zhengping}, title = {Another}, journal = {SIGMOD Record}, year = {2021}
}
"""


def run_check(tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "refs.bib"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


def test_check_prints_findings_and_exits_with_problems(tmp_path: Path) -> None:
    status, out, err = run_check(tmp_path, LIBRARY)
    assert status == ExitStatus.PROBLEMS == 4
    assert out.splitlines() == [
        (f"{tmp_path}/refs.bib:1: warning: pages '12-' are not a page or a range such as 12-19 "
        "[pages]"),
        (f"{tmp_path}/refs.bib:6: warning: citation key 'qian2020' is already used at "
        f"{tmp_path}/refs.bib:1 [duplicate-key]")]
    assert "refbridge: 2 problem(s) found" in err


def test_a_bib_is_told_its_missing_fields_by_their_bib_names(tmp_path: Path) -> None:
    status, out, _ = run_check(tmp_path, (
        "@inproceedings{qian2020,\n  author = {Qian, Zhengping},\n  title = {Timely},\n"
        "  year = {2020}\n}\n\n@phdthesis{qian2010,\n  author = {Qian, Zhengping},\n"
        "  title = {Graphs},\n  year = {2010}\n}\n\n@article{qian2021,\n"
        "  author = {Qian, Zhengping},\n  title = {Reliable},\n"
        "  journaltitle = {SIGMOD Record}\n}\n"), "--require", "bibtex", "--require",
        "biblatex")
    assert (status, out.splitlines()) == (ExitStatus.PROBLEMS, [
        (f"{tmp_path}/refs.bib:1: warning: bibtex needs booktitle for @inproceedings "
        "[missing-field]"),
        (f"{tmp_path}/refs.bib:1: warning: biblatex needs booktitle for @inproceedings "
        "[missing-field]"),
        f"{tmp_path}/refs.bib:7: warning: bibtex needs school for @phdthesis [missing-field]",
        (f"{tmp_path}/refs.bib:7: warning: biblatex needs institution for @phdthesis "
        "[missing-field]"),
        # journaltitle is biblatex's: the standard BibTeX styles print no journal without journal
        f"{tmp_path}/refs.bib:13: warning: bibtex needs journal for @article [missing-field]",
        f"{tmp_path}/refs.bib:13: warning: bibtex needs year for @article [missing-field]",
        (f"{tmp_path}/refs.bib:13: warning: biblatex needs date or year for @article "
         "[missing-field]")])


def test_proceedings_with_editors_only_are_not_asked_for_an_author(tmp_path: Path) -> None:
    proceedings = ("@proceedings{vldb2021,\n  editor = {Zhou, Jingren},\n"
                   "  title = {Proceedings of the VLDB Endowment},\n  year = {2021}\n}\n")
    assert run_check(tmp_path, proceedings, "--require", "bibtex", "--require",
                     "biblatex") == (0, "", "")


def test_check_of_a_clean_library_exits_0(tmp_path: Path) -> None:
    assert run_check(tmp_path, LIBRARY.replace("{12-}", "{12--19}").replace(
        "{qian2020,\n  author = {Qian, Zhengping}, title = {Another}", "{qian2021,\n  author = "
        "{Qian, Zhengping}, title = {Another}")) == (0, "", "")


def test_ignored_codes_are_not_reported(tmp_path: Path) -> None:
    status, out, _ = run_check(tmp_path, LIBRARY, "--ignore", "pages", "--ignore",
                               "duplicate-key")
    assert (status, out) == (0, "")


def test_an_unknown_code_to_ignore_is_a_usage_error(tmp_path: Path) -> None:
    status, _, err = run_check(tmp_path, LIBRARY, "--ignore", "typo")
    assert status == ExitStatus.USAGE
    assert "no finding code 'typo'" in err


def test_broken_records_take_precedence_over_findings(tmp_path: Path) -> None:
    status, _, err = run_check(tmp_path, LIBRARY + "\n@article{broken,\n  title = {x\n")
    assert status == ExitStatus.SKIPPED
    assert (f"{tmp_path}/refs.bib:10: error: broken entry: a '{{' is never closed (it opens on "
            "line 11)") in err


def test_skip_invalid_leaves_the_findings_status(tmp_path: Path) -> None:
    status, _, _ = run_check(tmp_path, LIBRARY + "\n@article{broken,\n  title = {x\n",
                             "--skip-invalid")
    assert status == ExitStatus.PROBLEMS


def test_strict_stops_at_the_first_broken_record(tmp_path: Path) -> None:
    status, out, err = run_check(tmp_path, "@article{broken,\n  title = {x\n\n" + LIBRARY,
                                 "--strict")
    assert status == ExitStatus.FAILED
    assert out == ""
    assert f"{tmp_path}/refs.bib:1: broken entry" in err


@FUZZ
@given(st.lists(records(), max_size=6))
def test_any_records_give_only_known_findings(library: list[Record]) -> None:
    for finding in check_records(library, tuple(REQUIREMENTS)):
        assert finding.code in CODES
        assert finding.message.strip()
