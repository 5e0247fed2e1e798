"""Scopus CSV exports as Scopus writes them (excerpts of real exports, long cells shortened):
every row is read, whichever reader reads it, with its document type and its editors."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
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
    '"Srivastava P., Srivastava N., Agarwal R., Singh P.",'
    '"57564065700;56957784100;57211546880;57209545849;",'
    '"Estimation in Agile Software Development Using Artificial Intelligence",2022,'
    '"Lecture Notes in Networks and Systems","376",,,"83","93",,,'
    '"10.1007/978-981-16-8826-3_8",'
    '"https://www.scopus.com/inward/record.uri?eid=2-s2.0-85127637536",'
    '"Amity Institute of Information Technology, Lucknow, India",'
    '"In software development, agile methods are becoming more popular.\n'
    '© 2022, The Author(s)",'
    '"Agile software development; Estimation",'
    '"Kaiser M.S.Bandyopadhyay A.Ray K.Singh R.Nagar V.",'
    '"Springer Science and Business Media Deutschland GmbH",'
    '"1st International Conference on Trends in Electronics and Health Informatics, TEHI 2021",'
    '"16 December 2021 through 17 December 2021","275489",23673370,9789811688256,"English",'
    '"Lect. Notes Networks Syst.",Conference Paper,"Final","",Scopus,2-s2.0-85127637536\n'
    '"Akour M.A., Das A.","57750775000;57215925487;",'
    '"Developing a virtual smart total learning environment for future teaching-learning '
    'system",2020,"Proceedings of 2020 IEEE TALE",,,"9368373","576","579",,1,'
    '"10.1109/TALE48869.2020.9368373","https://www.scopus.com/inward/record.uri?eid=2-s2.0-'
    '85102971550",,"The world of education system will have to change.",,'
    '"Mitsuhara H.Goda Y.Rodrigo Ma.M.T.Bruel J.-M.Chi-Un Lei L.Veltkamp R.de Gloria A.",'
    '"Institute of Electrical and Electronics Engineers Inc.",,,,,9781728169422,"English",,'
    'Conference Paper,"Final","",Scopus,2-s2.0-85102971550\n'
)

#: The layout since 2023: every cell quoted, ``Authors`` separated by ``;``, ``Author full
#: names`` with Scopus ids, document types in sentence case; the file starts with a BOM.
EXPORT_2023 = (
    '\ufeff"Authors","Author full names","Author(s) ID","Title","Year","Source title","Volume",'
    '"Issue","Art. No.","Page start","Page end","Page count","Cited by","DOI","Link",'
    '"Editors","Publisher","Conference name","Conference location","ISBN","CODEN",'
    '"Language of Original Document","Abbreviated Source Title","Document Type",'
    '"Publication Stage","Open Access","Source","EID"\n'
    '"Yazdanian S.; Chen Z.W.; Littlefair G.","Yazdanian, S. (42062485000); Chen, Z.W. '
    '(8566662300); Littlefair, G. (55885490400)","42062485000; 8566662300; 55885490400",'
    '"Mechanical properties of Al and Mg alloy welds made using friction stir lap welding",'
    '"2011","TMS Annual Meeting","","","","243","251","8","3","",'
    '"https://www.scopus.com/inward/record.uri?eid=2-s2.0-79960637280","Shafik M.; Case K.",'
    '"","Friction Stir Welding and Processing VI","San Diego, CA","978-111800201-8","85MVA",'
    '"English","TMS Annu Meet","Conference paper","Final","","Scopus","2-s2.0-79960637280"\n'
    '"Unnikrishnan M.A.; Edwin Raja Dhas J.","Unnikrishnan, M.A. (57197735070); Edwin Raja '
    'Dhas, J. (36135245200)","57197735070; 36135245200","Influence of temperature on '
    'mechanical and microstructural properties during fsw of magnesium alloys","2020",'
    '"Journal of Green Engineering","10","9","","6541","6560","19","1","",'
    '"https://www.scopus.com/inward/record.uri?eid=2-s2.0-85094136345","","Alpha Publishers",'
    '"","","","","English","J. Green Eng.","Article","Final","","Scopus","2-s2.0-85094136345"\n'
)


def read(text: str) -> tuple[list[Record], Diagnostics]:
    diagnostics = Diagnostics()
    return list(scopus.READER.read(io.StringIO(text), "scopus.csv", diagnostics)), diagnostics


def test_every_row_of_an_export_is_read_also_an_abstract_over_two_lines() -> None:
    records, diagnostics = read(EXPORT_2022)
    assert [r.id for r in records] == ["2-s2.0-85127637536", "2-s2.0-85102971550"]
    assert records[0].get("abstract") == ("In software development, agile methods are becoming "
                                          "more popular.\n© 2022, The Author(s)")
    assert diagnostics.messages == []


def test_run_together_editors_are_one_name_each() -> None:
    first, second = read(EXPORT_2022)[0]
    assert first.names["editor"] == (
        Name(family="Kaiser", given="M.S."), Name(family="Bandyopadhyay", given="A."),
        Name(family="Ray", given="K."), Name(family="Singh", given="R."),
        Name(family="Nagar", given="V."))
    assert second.names["editor"] == (
        Name(family="Mitsuhara", given="H."), Name(family="Goda", given="Y."),
        Name(family="Rodrigo", given="Ma.M.T."), Name(family="Bruel", given="J.-M."),
        Name(family="Chi-Un Lei", given="L."), Name(family="Veltkamp", given="R."),
        Name(family="de Gloria", given="A."))


def test_editors_separated_by_semicolons_stay_as_they_are() -> None:
    (proceedings, _), _ = read(EXPORT_2023)
    assert proceedings.names["editor"] == (Name(family="Shafik", given="M."),
                                           Name(family="Case", given="K."))


def test_sentence_case_document_types_of_newer_exports_are_known() -> None:
    (proceedings, article), diagnostics = read(EXPORT_2023)
    assert (proceedings.type, article.type) == ("paper-conference", "article-journal")
    assert diagnostics.messages == []


def test_a_byte_order_mark_before_a_quoted_header_hides_no_column() -> None:
    (proceedings, _), _ = read(EXPORT_2023)
    assert proceedings.authors == (Name(family="Yazdanian", given="S."),
                                   Name(family="Chen", given="Z.W."),
                                   Name(family="Littlefair", given="G."))
    assert proceedings.get("ISBN") == "978-111800201-8"
    assert proceedings.extra["scopus.CODEN"] == "85MVA"
    assert not any('"' in key for key in proceedings.extra)


def test_columns_no_mapping_reads_are_kept_under_keys_without_spaces() -> None:
    first = read(EXPORT_2022)[0][0]
    assert {k: v for k, v in first.extra.items() if k != "scopus.Link"} == {
        "scopus.Author(s)_ID": "57564065700;56957784100;57211546880;57209545849;",
        "scopus.Affiliations": "Amity Institute of Information Technology, Lucknow, India",
        "scopus.Conference_date": "16 December 2021 through 17 December 2021",
        "scopus.Conference_code": "275489", "scopus.Publication_Stage": "Final",
        "scopus.Source": "Scopus", "scopus.EID": "2-s2.0-85127637536"}


def test_a_scopus_export_read_as_plain_csv_loses_no_row() -> None:
    # Headings with spaces (``Author full names``) once made every row's extra key invalid.
    diagnostics = Diagnostics()
    records = list(spreadsheet.READER.read(io.StringIO(EXPORT_2023), "scopus.csv",
                                           diagnostics))
    assert len(records) == 2
    assert records[0].extra["csv.Author_full_names"].startswith("Yazdanian, S. (42062485000)")
    assert records[0].extra["csv.Document_Type"] == "Conference paper"
    assert [m for m in diagnostics.messages if m.level == "error"] == []
