"""RIS reader: Zotero/EndNote/Mendeley RIS into records, with every loss of rispy avoided."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.tagged.ris import READER, format_name, format_record, parse_date, parse_name
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.pipeline import read_file

ZOTERO_EXPORT = """TY  - JOUR
TI  - Literate Programming
AU  - Knuth, Donald E.
T2  - The Computer Journal
J2  - Comput. J.
PY  - 1984
DA  - 1984/02//
VL  - 27
IS  - 2
SP  - 97
EP  - 111
SN  - 0010-4620
DO  - 10.1093/comjnl/27.2.97
UR  - https://academic.oup.com/comjnl/article/27/2/97/343244?login=false;x=1
KW  - programming
KW  - TeX
AB  - The structure of a software program may be thought of as a web.
N1  - Reprinted in Literate Programming (1992).
ER  - 
"""


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(READER.read(io.StringIO(text), "refs.ris", diagnostics or Diagnostics()))


def test_a_zotero_journal_article_reads_into_every_model_field() -> None:
    (record,) = read(ZOTERO_EXPORT)
    assert record.type == "article-journal"
    assert dict(record.fields) == {
        "title": "Literate Programming", "container-title": "The Computer Journal",
        "container-title-short": "Comput. J.", "volume": "27", "issue": "2",
        "page": "97-111", "ISSN": "0010-4620", "DOI": "10.1093/comjnl/27.2.97",
        "URL": "https://academic.oup.com/comjnl/article/27/2/97/343244?login=false;x=1",
        "abstract": "The structure of a software program may be thought of as a web.",
        "note": "Reprinted in Literate Programming (1992)."}
    assert record.authors == (Name(family="Knuth", given="Donald E."),)
    assert record.dates == {"issued": Date(start=DateParts(1984, 2))}
    assert record.keywords == ("programming", "TeX")


def test_a_url_with_semicolons_stays_one_url() -> None:
    (record,) = read("TY  - ELEC\nUR  - https://example.org/a;b;c\nER  - \n")
    assert record.fields["URL"] == "https://example.org/a;b;c"


def test_a_byte_order_mark_does_not_hide_the_first_record(tmp_path: Path) -> None:
    path = tmp_path / "bom.ris"
    path.write_bytes(b"\xef\xbb\xbf" + ZOTERO_EXPORT.encode() + b"TY  - BOOK\nTI  - Two\nER  - \n")
    titles = [r.title for r in read_file(str(path), Diagnostics())]
    assert titles == ["Literate Programming", "Two"]


def test_a_byte_order_mark_in_text_is_ignored_too() -> None:
    assert [r.title for r in read("\ufeff" + ZOTERO_EXPORT)] == ["Literate Programming"]


def test_crlf_and_lf_files_read_the_same(tmp_path: Path) -> None:
    crlf, lf = tmp_path / "crlf.ris", tmp_path / "lf.ris"
    crlf.write_bytes(ZOTERO_EXPORT.replace("\n", "\r\n").encode())
    lf.write_bytes(ZOTERO_EXPORT.encode())
    from_crlf = [r.replace(source=None) for r in read_file(str(crlf), Diagnostics())]
    from_lf = [r.replace(source=None) for r in read_file(str(lf), Diagnostics())]
    assert from_crlf == from_lf and from_lf[0].fields["note"].startswith("Reprinted")


def test_a_last_record_without_er_is_kept_with_a_warning() -> None:
    diagnostics = Diagnostics()
    records = read(ZOTERO_EXPORT + "\nTY  - BOOK\nTI  - Unfinished\nPY  - 2001\n", diagnostics)
    assert [r.title for r in records] == ["Literate Programming", "Unfinished"]
    assert [str(m) for m in diagnostics.messages] == [
        ("refs.ris:21: warning: the record of line 21 has no 'ER  -' line; "
        "it ends at the end of the file")]


def test_a_record_cut_off_by_the_next_type_line_is_kept_with_a_warning() -> None:
    diagnostics = Diagnostics()
    records = read("TY  - BOOK\nTI  - One\nTY  - BOOK\nTI  - Two\nER  - \n", diagnostics)
    assert [r.title for r in records] == ["One", "Two"]
    assert [str(m) for m in diagnostics.messages] == [
        "refs.ris:3: warning: the record of line 1 has no 'ER  -' line; it ends here"]


def test_names_with_suffix_particles_and_corporate_forms() -> None:
    assert parse_name("King, Martin Luther, Jr.") == Name(
        family="King", given="Martin Luther", suffix="Jr.")
    assert parse_name("van Gogh, Vincent") == Name(
        family="Gogh", given="Vincent", non_dropping_particle="van")
    assert parse_name("Beethoven, Ludwig van") == Name(
        family="Beethoven", given="Ludwig", dropping_particle="van")
    assert parse_name("World Health Organization") == Name(literal="World Health Organization")
    assert parse_name("Plato,") == Name(family="Plato")


def test_dates_with_missing_parts_seasons_and_free_text() -> None:
    assert parse_date("2024/05/17/") == Date(start=DateParts(2024, 5, 17))
    assert parse_date("2024///") == Date(start=DateParts(2024))
    assert parse_date("1999///Spring") == Date(start=DateParts(1999), season=1)
    assert parse_date("2020/03//Conference week") == Date(
        start=DateParts(2020, 3), literal="Conference week")
    assert parse_date("ca. 1850") == Date(start=DateParts(1850), circa=True)
    assert parse_date("18th century") == Date(literal="18th century")


def roles(record: Record) -> dict[str, list[str]]:
    return {role: [format_name(n) for n in people] for role, people in record.names.items()}


def test_a_books_A2_is_its_series_editor_and_A3_its_editor() -> None:
    # the RIS specification's BOOK (Zotero's ris/03 case): A2 Editor, Series; A3 Editor
    (record,) = read("TY  - BOOK\nA2  - Editor, Series\nA3  - Editor\nA4  - Translator\n"
                     "AU  - Name1, Author\nED  - Calvino, Italo\nER  - \n")
    assert roles(record) == {"collection-editor": ["Editor, Series"], "editor": ["Editor",
                             "Calvino, Italo"], "translator": ["Translator"],
                             "author": ["Name1, Author"]}


def test_a_chapters_A2_is_its_editor_and_A3_its_series_editor() -> None:
    (record,) = read("TY  - CHAP\nA2  - Editor\nA3  - Editor, Series\nA4  - Translator\n"
                     "ER  - \n")
    assert roles(record) == {"editor": ["Editor"], "collection-editor": ["Editor, Series"],
                             "translator": ["Translator"]}


@pytest.mark.parametrize(("entry", "expected"), [
    ("TY  - BILL\nA2  - Sponsor\n", {"author": ["Sponsor"]}),
    ("TY  - PCOMM\nAU  - Name1, Author\nA2  - Recipient\n",
     {"author": ["Name1, Author"], "recipient": ["Recipient"]}),
    ("TY  - THES\nAU  - Name1, Author\nA3  - Advisor\n",
     {"author": ["Name1, Author"], "contributor": ["Advisor"]}),
    ("TY  - SOUND\nA1  - Composer\nA2  - Performer\n",
     {"composer": ["Composer"], "author": ["Performer"]}),
    ("TY  - MPCT\nA3  - Producer\nA4  - Performers\nAU  - Director\n",
     {"producer": ["Producer"], "contributor": ["Performers"], "author": ["Director"]}),
    ("TY  - VIDEO\nA1  - Author Name, Author2 Name2\n",
     {"director": ["Author Name, Author2 Name2"]}),
    ("TY  - EDBOOK\nA2  - Editor, Series\nA4  - Translator\nAU  - Editor\n",
     {"collection-editor": ["Editor, Series"], "translator": ["Translator"],
      "editor": ["Editor"]}),
])
def test_name_tags_have_the_role_the_specification_gives_them_in_each_type(
        entry: str, expected: dict[str, list[str]]) -> None:
    (record,) = read(entry + "ER  - \n")
    assert roles(record) == expected


def test_a_name_tag_without_a_role_in_its_type_is_kept_as_its_extra() -> None:
    # ris/03's COMP and CASE: a program's series editor, a case's counsel (no CSL role)
    (program, case) = read("TY  - COMP\nA2  - Editor, Series\nAU  - Programmer\nER  - \n"
                           "TY  - CASE\nA2  - Reporter\nA4  - Counsel\nER  - \n")
    assert roles(program) == {"author": ["Programmer"]}
    assert program.extra == {"ris.A2": "Editor, Series"}
    assert case.names == {}
    assert case.extra == {"ris.A4": "Counsel"}
    assert case.fields["container-title"] == "Reporter"


def test_a_patents_A2_is_its_issuing_authority() -> None:
    # Zotero's ris/02 case
    (record,) = read("TY  - PAT\nA1  - Burger,D.R.\nA2  - Epitope,I.\nER  - \n")
    assert record.fields["authority"] == "Epitope,I."
    assert list(record.names) == ["author"]


def test_roles_of_a_type_are_written_with_the_tags_that_read_back_as_them() -> None:
    text = "TY  - SOUND\nAU  - Composer\nA2  - Performer\nER  - \n"
    (record,) = read(text)
    assert format_record(record) == text


def test_continuation_lines_join_a_multi_line_abstract() -> None:
    (record,) = read("TY  - JOUR\nAB  - First paragraph\nwraps here.\n\nSecond one.\nER  - \n")
    assert record.fields["abstract"] == "First paragraph\nwraps here.\n\nSecond one."


def test_unknown_tags_are_kept_as_extra_fields() -> None:
    (record,) = read("TY  - JOUR\nTI  - T\nL1  - file:///paper.pdf\nL1  - file:///si.pdf\n"
                     "C7  - e1001\nER  - \n")
    assert dict(record.extra) == {"ris.L1": "file:///paper.pdf\nfile:///si.pdf",
                                  "ris.C7": "e1001"}


def test_an_unknown_reference_type_reads_as_a_document_with_a_warning() -> None:
    diagnostics = Diagnostics()
    (record,) = read("TY  - WIDGET\nTI  - T\nER  - \n", diagnostics)
    assert (record.type, dict(record.extra)) == ("document", {"ris.TY": "WIDGET"})
    assert [str(m) for m in diagnostics.messages] == [
        "refs.ris:1: warning: unknown RIS type 'WIDGET', read as a generic document"]


def test_the_arxiv_note_becomes_the_eprint_and_drops_the_derived_publisher() -> None:
    (record,) = read("TY  - UNPB\nTI  - SpecDB\nPB  - arXiv\nDB  - arXiv\n"
                     "N1  - arXiv:2601.00001v2 [cs.DB]\nER  - \n")
    assert record.eprint == Eprint("arXiv", "2601.00001v2", "cs.DB")
    assert dict(record.fields) == {"title": "SpecDB"}
    assert record.type == "article"


def test_a_broken_residue_note_is_kept_as_a_note_with_a_warning() -> None:
    diagnostics = Diagnostics()
    (record,) = read("TY  - GEN\nTI  - T\nN1  - refbridge: not json\nER  - \n", diagnostics)
    assert record.fields["note"] == "refbridge: not json"
    assert [m.line for m in diagnostics.warnings] == [3]


def test_a_record_that_cannot_be_built_is_skipped_with_file_and_line() -> None:
    diagnostics = Diagnostics()
    text = ('TY  - JOUR\nTI  - Good\nER  - \n\nTY  - JOUR\nTI  - Bad\n'
            'N1  - refbridge: {"issued": {"date-parts": [[2020, 2, 40]]}}\nER  - \n')
    assert [r.title for r in read(text, diagnostics)] == ["Good"]
    assert diagnostics.skipped == 1
    assert diagnostics.errors[0].file == "refs.ris" and diagnostics.errors[0].line == 5


def test_strict_mode_stops_at_a_broken_record() -> None:
    text = 'TY  - JOUR\nN1  - refbridge: {"author": [{"family": 3, "given": []}]}\nER  - \n'
    with pytest.raises(ParseError, match=r"refs\.ris:1: record skipped"):
        read(text, Diagnostics(strict=True))


def test_text_outside_a_record_is_reported_with_its_line() -> None:
    diagnostics = Diagnostics()
    assert read("Exported by X\n\n" + ZOTERO_EXPORT, diagnostics)[0].title \
        == "Literate Programming"
    assert [str(m) for m in diagnostics.messages] == [
        "refs.ris:1: warning: text outside a record (expected 'TY  - '): 'Exported by X'"]


def test_the_reader_recognises_ris_by_its_first_line() -> None:
    assert READER.sniff("\n\nTY  - JOUR\nTI  - x\n")
    assert not READER.sniff("@article{x,\n")


@given(st.text(alphabet=st.sampled_from(list("TYAUERPDSKN1 -,/\n\r\ufeff{}x0123456789")) | st.characters(),
               max_size=300))
def test_any_text_reads_without_a_crash(text: str) -> None:
    diagnostics = Diagnostics()
    records = read(text, diagnostics)
    assert all(isinstance(r, Record) for r in records)


def test_a_comma_alone_is_kept_as_a_corporate_name_with_a_warning() -> None:
    diagnostics = Diagnostics()
    (record,) = read("TY  - JOUR\nAU  - ,\nER  - \n", diagnostics)
    assert record.authors == (Name(literal=","),)
    assert [m.line for m in diagnostics.warnings] == [2]


def test_a_note_of_extra_lines_gives_the_citation_key_and_bib_fields() -> None:
    (record,) = read("TY  - JOUR\nTI  - Literate Programming\nAU  - Knuth, Donald E.\n"
                     "PY  - 1984\nN1  - Citation Key: knuth:lp\ntex.fjournal: The Computer "
                     "Journal\nN1  - Read at the meeting.\nER  - \n")
    assert (record.citation_key, record.get("note"), dict(record.extra)) == (
        "knuth:lp", "Read at the meeting.", {"bibtex.fjournal": "The Computer Journal"})


def test_a_year_tag_that_says_more_of_the_same_year_is_the_date() -> None:
    # IEEE Xplore writes the conference's days in Y1 beside the year in PY
    (record,) = read("TY  - CONF\nTI  - Field probes for switchyards\nPY  - 2014\n"
                     "Y1  - 16-18 Oct. 2014\nER  - \n")
    assert record.dates["issued"] == Date(start=DateParts(2014, 10, 16),
                                          end=DateParts(2014, 10, 18))
    assert "ris.Y1" not in record.extra


def test_a_year_tag_of_another_year_is_kept_beside_the_date() -> None:
    (record,) = read("TY  - JOUR\nTI  - T\nPY  - 2014\nY1  - 2013/05/02\nER  - \n")
    assert (record.dates["issued"], record.extra["ris.Y1"]) == (Date.of(2014), "2013/05/02")


def test_a_season_beside_the_year_alone_is_the_date_and_the_year_no_extra() -> None:
    (record,) = read("TY  - JOUR\nTI  - Field notes\nPY  - 1900\nDA  - 1900///Spring\nER  - \n")
    assert record.dates["issued"] == Date(start=DateParts(1900), season=1)
    assert dict(record.extra) == {}
