"""Scopus CSV exports as Scopus writes them (each layout as a real export has it, the records
invented):
every row is read, whichever reader reads it, with its document type and its editors."""

from __future__ import annotations

import io

import pytest

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.sheets import csv as spreadsheet
from refbridge.formats.sheets import scopus
from refbridge.model import Name, Record

#: The 2022 layout: no ``Author full names``, ``Author(s) ID`` ending in ``;``, ``Editors``
#: run together, unquoted numbers, an abstract over two lines.
EXPORT_2022 = (
    "Authors,Author(s) ID,Title,Year,Source title,Volume,Issue,Art. No.,Page start,Page end,"
    "Page count,Cited by,DOI,Link,Affiliations,Abstract,Author Keywords,Editors,Publisher,"
    "Conference name,Conference date,Conference code,ISSN,ISBN,Language of Original Document,"
    "Abbreviated Source Title,Document Type,Publication Stage,Open Access,Source,EID\n"
    '"Lindgren P., Lindgren N., Osei R., Varga P.",'
    '"57000000101;57000000102;57000000103;57000000104;",'
    '"Effort Estimation for Iterative Software Projects with Learned Models",2022,'
    '"Lecture Notes in Applied Computing","376",,,"83","93",,,'
    '"10.1000/lnac-2022-0083",'
    '"https://www.scopus.com/inward/record.uri?eid=2-s2.0-85100000001",'
    '"Institute of Computing, Tampere, Finland",'
    '"In software projects, iterative methods are common.\n'
    '© 2022, The Author(s)",'
    '"Iterative development; Estimation",'
    '"Hartmann M.S.Okonkwo A.Lind K.Moreau R.Tanaka V.",'
    '"Springer Science and Business Media Deutschland GmbH",'
    '"1st International Conference on Applied Computing, ICAC 2021",'
    '"16 December 2021 through 17 December 2021","270001",23670000,9789810000001,"English",'
    '"Lect. Notes Appl. Comput.",Conference Paper,"Final","",Scopus,2-s2.0-85100000001\n'
    '"Rahman M.A., Kovac A.","57000000201;57000000202;",'
    '"Designing a shared online learning environment for project-based '
    'teaching",2020,"Proceedings of 2020 Conference on Teaching",,,"9300001","576","579",,1,'
    '"10.1000/CT2020.9300001","https://www.scopus.com/inward/record.uri?eid=2-s2.0-'
    '85100000002",,"Teaching will have to change.",,'
    '"Ishikawa H.Berg Y.Santos Ma.M.T.Fabre J.-M.Wai-Ming Chan L.Dekker R.de Luca A.",'
    '"Institute of Electrical and Electronics Engineers Inc.",,,,,9781700000003,"English",,'
    'Conference Paper,"Final","",Scopus,2-s2.0-85100000002\n'
)

#: The layout since 2023: every cell quoted, ``Authors`` separated by ``;``, ``Author full
#: names`` with Scopus ids, document types in sentence case; the file starts with a BOM.
EXPORT_2023 = (
    '\ufeff"Authors","Author full names","Author(s) ID","Title","Year","Source title","Volume",'
    '"Issue","Art. No.","Page start","Page end","Page count","Cited by","DOI","Link",'
    '"Editors","Publisher","Conference name","Conference location","ISBN","CODEN",'
    '"Language of Original Document","Abbreviated Source Title","Document Type",'
    '"Publication Stage","Open Access","Source","EID"\n'
    '"Farahani S.; Zhou Z.W.; Ashworth G.","Farahani, S. (42000000301); Zhou, Z.W. '
    '(8500000302); Ashworth, G. (55000000303)","42000000301; 8500000302; 55000000303",'
    '"Strength of aluminium and magnesium lap joints made by friction stir welding",'
    '"2011","Annual Meeting on Light Metals","","","","243","251","8","3","",'
    '"https://www.scopus.com/inward/record.uri?eid=2-s2.0-79900000004","Novak M.; Reyes K.",'
    '"","Joining of Light Metals VI","Denver, CO","978-100000000-5","85ABC",'
    '"English","Annu Meet Light Met","Conference paper","Final","","Scopus","2-s2.0-79900000004"\n'
    '"Mensah M.A.; Perez Garcia J.","Mensah, M.A. (57000000401); Perez '
    'Garcia, J. (36000000402)","57000000401; 36000000402","Effect of heat on '
    'the grain structure of welded magnesium sheets","2020",'
    '"Journal of Joining Studies","10","9","","6541","6560","19","1","",'
    '"https://www.scopus.com/inward/record.uri?eid=2-s2.0-85000000005","","Beta Press",'
    '"","","","","English","J. Join. Stud.","Article","Final","","Scopus","2-s2.0-85000000005"\n'
)


def read(text: str) -> tuple[list[Record], Diagnostics]:
    diagnostics = Diagnostics()
    return list(scopus.READER.read(io.StringIO(text), "scopus.csv", diagnostics)), diagnostics


def test_every_row_of_an_export_is_read_also_an_abstract_over_two_lines() -> None:
    records, diagnostics = read(EXPORT_2022)
    assert [r.id for r in records] == ["2-s2.0-85100000001", "2-s2.0-85100000002"]
    assert records[0].get("abstract") == ("In software projects, iterative methods are common."
                                          "\n© 2022, The Author(s)")
    assert diagnostics.messages == []


def test_run_together_editors_are_one_name_each() -> None:
    first, second = read(EXPORT_2022)[0]
    assert first.names["editor"] == (
        Name(family="Hartmann", given="M.S."), Name(family="Okonkwo", given="A."),
        Name(family="Lind", given="K."), Name(family="Moreau", given="R."),
        Name(family="Tanaka", given="V."))
    assert second.names["editor"] == (
        Name(family="Ishikawa", given="H."), Name(family="Berg", given="Y."),
        Name(family="Santos", given="Ma.M.T."), Name(family="Fabre", given="J.-M."),
        Name(family="Wai-Ming Chan", given="L."), Name(family="Dekker", given="R."),
        Name(family="de Luca", given="A."))


def test_editors_separated_by_semicolons_stay_as_they_are() -> None:
    (proceedings, _), _ = read(EXPORT_2023)
    assert proceedings.names["editor"] == (Name(family="Novak", given="M."),
                                           Name(family="Reyes", given="K."))


def test_sentence_case_document_types_of_newer_exports_are_known() -> None:
    (proceedings, article), diagnostics = read(EXPORT_2023)
    assert (proceedings.type, article.type) == ("paper-conference", "article-journal")
    assert diagnostics.messages == []


def test_a_byte_order_mark_before_a_quoted_header_hides_no_column() -> None:
    (proceedings, _), _ = read(EXPORT_2023)
    assert proceedings.authors == (Name(family="Farahani", given="S."),
                                   Name(family="Zhou", given="Z.W."),
                                   Name(family="Ashworth", given="G."))
    assert proceedings.get("ISBN") == "978-100000000-5"
    assert proceedings.extra["scopus.CODEN"] == "85ABC"
    assert not any('"' in key for key in proceedings.extra)


def test_columns_no_mapping_reads_are_kept_under_keys_without_spaces() -> None:
    first = read(EXPORT_2022)[0][0]
    assert {k: v for k, v in first.extra.items() if k != "scopus.Link"} == {
        "scopus.Author(s)_ID": "57000000101;57000000102;57000000103;57000000104;",
        "scopus.Affiliations": "Institute of Computing, Tampere, Finland",
        "scopus.Conference_date": "16 December 2021 through 17 December 2021",
        "scopus.Conference_code": "270001", "scopus.Publication_Stage": "Final",
        "scopus.Source": "Scopus", "scopus.EID": "2-s2.0-85100000001"}


def test_a_scopus_export_read_as_plain_csv_loses_no_row() -> None:
    # Headings with spaces (``Author full names``) once made every row's extra key invalid.
    diagnostics = Diagnostics()
    records = list(spreadsheet.READER.read(io.StringIO(EXPORT_2023), "scopus.csv",
                                           diagnostics))
    assert len(records) == 2
    assert records[0].extra["csv.Author_full_names"].startswith("Farahani, S. (42000000301)")
    assert records[0].extra["csv.Document_Type"] == "Conference paper"
    assert [m for m in diagnostics.messages if m.level == "error"] == []


def test_rows_with_a_cell_more_than_the_header_are_read_and_reported_once() -> None:
    # two exports glued together: the later rows end in one more cell than the header names
    header, first, second = EXPORT_2023.splitlines(keepends=True)
    later = second.replace("\n", ',"Scopus 2024"\n')
    glued = header + first + later + later.replace("85000000005", "85000000006")
    records, diagnostics = read(glued)
    assert [r.id for r in records] == ["2-s2.0-79900000004", "2-s2.0-85000000005",
                                       "2-s2.0-85000000006"]
    assert [r.extra.get("scopus.column_29") for r in records] == [None, "Scopus 2024",
                                                                  "Scopus 2024"]
    assert [str(m) for m in diagnostics.messages] == [
        ("scopus.csv:3: warning: rows with more cells than headings (29 under 28, from here on): "
        "read by their headings, the cells past the last kept as 'column 29' and on")]


def test_a_bib_file_is_not_read_as_a_scopus_export() -> None:
    with pytest.raises(ParseError) as error:
        read("@article{lindgren2022,\n  title = {Effort Estimation},\n  year = {2022}\n}\n")
    assert str(error.value) == ("scopus.csv:1: not a CSV of records: no heading of the first line "
                                "names a column this reader reads")
