"""Web of Science plain-text exports (Clarivate's field tags) and Scopus CSV exports read to
the records a person sees."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.formats.sheets import scopus as scopus_csv
from refbridge.formats.tagged import wos
from refbridge.model import Date, DateParts, Name

WOS = """\
FN Clarivate Analytics Web of Science
VR 1.0
PT J
AU Sun, J
   Li, GL
AF Sun, Ji
   Li, Guoliang
TI Learned cardinality estimation: a design space exploration and a
   comparative evaluation
SO PROCEEDINGS OF THE VLDB ENDOWMENT
LA English
DT Article
DE cardinality estimation; query optimization
ID MODELS
AB Cardinality estimation is core to query optimization.
C1 [Sun, Ji; Li, Guoliang] Tsinghua Univ, Dept Comp Sci, Beijing, Peoples R China.
NR 42
TC 7
PU ASSOC COMPUTING MACHINERY
PI NEW YORK
SN 2150-8097
J9 PROC VLDB ENDOW
JI Proc. VLDB Endow.
PD SEP
PY 2021
VL 15
IS 1
BP 85
EP 97
DI 10.14778/3485450.3485459
UT WOS:000712345600007
ER

PT B
AU Knuth, DE
TI Literate Programming
PU CSLI
PY 1992
DT Book
ER

EF
"""

SCOPUS = (
    "\ufeffAuthors,Author full names,Author(s) ID,Title,Year,Source title,Volume,Issue,Art. No.,"
    "Page start,Page end,Page count,Cited by,DOI,Link,Abstract,Author Keywords,Index Keywords,"
    "Publisher,ISSN,PubMed ID,Language of Original Document,Abbreviated Source Title,"
    "Document Type,Publication Stage,Open Access,Source,EID\n"
    '"Sun J.; Li G.","Sun, Ji (57200000001); Li, Guoliang (57200000002)",'
    '"57200000001; 57200000002","Learned cardinality estimation",2021,'
    '"Proceedings of the VLDB Endowment",15,1,,85,97,13,7,10.14778/3485450.3485459,'
    '"https://www.scopus.com/inward/record.uri?eid=2-s2.0-85120000000","Cardinality '
    'estimation is core.","cardinality estimation; query optimization","Query processing",'
    '"VLDB Endowment",21508097,,English,"Proc. VLDB Endow.",Article,Final,,Scopus,'
    "2-s2.0-85120000000\n"
    '"Knuth D.E.",,,"Literate programming",1984,"Computer Journal",27,2,,97,111,,,,,,,,,,,,'
    ',Article,Final,,Scopus,2-s2.0-0021400000\n'
)


def test_a_web_of_science_export_reads_to_the_records_a_person_sees() -> None:
    diagnostics = Diagnostics(strict=True)
    article, book = wos.READER.read(io.StringIO(WOS), "savedrecs.txt", diagnostics)
    assert article.type == "article-journal"
    assert article.authors == (Name(family="Sun", given="Ji"), Name(family="Li",
                                                                    given="Guoliang"))
    assert {k: article.get(k) for k in article.fields} == {
        "title": "Learned cardinality estimation: a design space exploration and a "
                 "comparative evaluation",
        "container-title": "PROCEEDINGS OF THE VLDB ENDOWMENT", "language": "English",
        "abstract": "Cardinality estimation is core to query optimization.",
        "publisher": "ASSOC COMPUTING MACHINERY", "publisher-place": "NEW YORK",
        "ISSN": "2150-8097", "container-title-short": "PROC VLDB ENDOW", "volume": "15",
        "issue": "1", "DOI": "10.14778/3485450.3485459", "page": "85-97"}
    assert article.dates == {"issued": Date(start=DateParts(2021, 9))}
    assert article.keywords == ("cardinality estimation", "query optimization", "MODELS")
    assert article.extra["wos.UT"] == "WOS:000712345600007"
    assert article.extra["wos.C1"].startswith("[Sun, Ji; Li, Guoliang] Tsinghua Univ")
    assert (book.type, book.title, book.authors, book.year) == (
        "book", "Literate Programming", (Name(family="Knuth", given="DE"),), 1992)
    assert diagnostics.messages == []


def test_a_scopus_csv_export_reads_to_the_records_a_person_sees() -> None:
    article, old = scopus_csv.READER.read(io.StringIO(SCOPUS), "scopus.csv",
                                          Diagnostics(strict=True))
    assert article.type == "article-journal"
    assert article.authors == (Name(family="Sun", given="Ji"), Name(family="Li",
                                                                    given="Guoliang"))
    assert {k: article.get(k) for k in ("title", "container-title", "volume", "issue", "page",
                                        "DOI", "ISSN", "language", "publisher",
                                        "container-title-short")} == {
        "title": "Learned cardinality estimation",
        "container-title": "Proceedings of the VLDB Endowment", "volume": "15", "issue": "1",
        "page": "85-97", "DOI": "10.14778/3485450.3485459", "ISSN": "21508097",
        "language": "English", "publisher": "VLDB Endowment",
        "container-title-short": "Proc. VLDB Endow."}
    assert article.year == 2021
    assert article.keywords == ("cardinality estimation", "query optimization",
                                "Query processing")
    assert article.id == "2-s2.0-85120000000"
    assert old.authors == (Name(family="Knuth", given="D.E."),)
