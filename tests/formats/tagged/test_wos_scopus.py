"""Web of Science plain-text exports (Clarivate's field tags) and Scopus CSV exports read to
the records a person sees."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.formats.sheets import scopus as scopus_csv
from refbridge.formats.tagged import wos
from refbridge.model import Date, DateParts, Name, Record
from refbridge.richtext import Style, Styled, rich

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
        "book", "Literate Programming", (Name(family="Knuth", given="D E"),), 1992)
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


# -- what Web of Science exports hold, as they hold it ------------------------------------------
def read_wos(text: str) -> list[Record]:
    return list(wos.READER.read(io.StringIO(text), "savedrecs.txt", Diagnostics(strict=True)))


#: Zotero's "Web of Science Tagged" import case 07 (Web of Knowledge, BIOSIS): continuation
#: lines are not indented, and an author's e-mail address follows the name.
UNINDENTED = """\
FN Thomson Reuters Web of Knowledge
VR 1.0
PT J
UT BCI:BCI201300112663
TI Importance of methane-derived carbon as a basal resource for two benthic
consumers in arctic lakes
AU Medvedeff, Cassandra A. (medvedeff22@ufl.edu)
Hershey, Anne E.
SO Hydrobiologia
PY 2013
AB Microbial processing of detritus is known to be important to benthic
invertebrate nutrition.
CH4-derived carbon was assimilated.
ER

EF
"""


def test_continuation_lines_without_indent_keep_title_authors_and_abstract() -> None:
    (record,) = read_wos(UNINDENTED)
    assert record.get("title") == ("Importance of methane-derived carbon as a basal resource "
                                   "for two benthic consumers in arctic lakes")
    assert record.authors == (Name(family="Medvedeff", given="Cassandra A."),
                              Name(family="Hershey", given="Anne E."))
    assert record.get("abstract") == ("Microbial processing of detritus is known to be "
                                      "important to benthic invertebrate nutrition. "
                                      "CH4-derived carbon was assimilated.")


def test_an_e_mail_after_a_name_is_kept_apart_from_the_name() -> None:
    (record,) = read_wos(UNINDENTED)
    assert record.extra["wos.EM"] == "medvedeff22@ufl.edu"


def test_a_full_name_without_a_comma_has_the_family_name_first() -> None:
    (record,) = read_wos("PT J\nAU Qi, HX\nAF Qi Haixia\nTI T\nER\n")
    assert record.authors == (Name(family="Qi", given="Haixia"),)


def test_a_middle_initial_after_a_second_comma_ends_the_given_name() -> None:
    # Web of Science writes Marta J. Kowalczyk so in AF and C1
    (record,) = read_wos("PT J\nAU Kowalczyk, MJ\n   Lowe, RH\nAF Kowalczyk, Marta, J\n"
                         "   Lowe, Richard, Jr.\nTI T\nER\n")
    assert record.authors == (Name(family="Kowalczyk", given="Marta J"),
                              Name(family="Lowe", given="Richard", suffix="Jr."))


def test_derwent_short_names_without_a_comma_are_family_and_initials() -> None:
    # Zotero's import case 08 (Derwent Innovations Index)
    (record,) = read_wos("PT P\nAU YANG Y\n   LI W\nTI Use of reagent\nPN CN110836969-A\n"
                         "ER\n")
    assert record.authors == (Name(family="YANG", given="Y"), Name(family="LI", given="W"))
    assert (record.type, record.get("number")) == ("patent", "CN110836969-A")


def test_medline_in_web_of_science_separates_names_by_semicolons() -> None:
    # JabRef's IsiImporterTestMedline.isi
    (record,) = read_wos("PT J\nAU Joffe, Hadine; Hall, Janet E; Gruber, Staci\nTI T\nER\n")
    assert [n.family for n in record.authors] == ["Joffe", "Hall", "Gruber"]


def test_inline_markup_of_a_title_is_rich_text() -> None:
    (record,) = read_wos("PT J\nTI Growth of <i>Escherichia coli</i> on CO<sub>2</sub> and "
                         "<sup>13</sup>C\nER\n")
    assert record.fields["title"] == rich([
        "Growth of ", Styled(Style.ITALIC, ("Escherichia coli",)), " on CO",
        Styled(Style.SUBSCRIPT, ("2",)), " and ", Styled(Style.SUPERSCRIPT, ("13",)), "C"])


def test_an_article_number_is_the_page_of_an_article_without_pages() -> None:
    (record,) = read_wos("PT J\nTI T\nSO PLOS ONE\nAR e4342\nPG 12\nER\n")
    assert (record.get("page"), record.get("number-of-pages")) == ("e4342", "12")


def test_an_article_number_beside_pages_is_the_number() -> None:
    (record,) = read_wos("PT J\nTI T\nAR 041103\nBP 1\nEP 3\nER\n")
    assert (record.get("page"), record.get("number")) == ("1-3", "041103")


def test_inspecs_page_range_is_the_page() -> None:
    # JabRef's IsiImporterTestMedline.isi
    (record,) = read_wos("PT J\nTI T\nPS 2457-71\nER\n")
    assert (record.get("page"), dict(record.extra)) == ("2457-71", {})


def test_a_thesis_keeps_its_page_count() -> None:
    (record,) = read_wos("PT B\nDT Dissertation/Thesis\nTI T\nPG 214\nER\n")
    assert (record.type, record.get("number-of-pages")) == ("thesis", "214")


def test_a_doi_as_a_link_is_the_doi() -> None:
    (record,) = read_wos("PT J\nTI T\nDI https://doi.org/10.14778/3485450.3485459\nER\n")
    assert record.get("DOI") == "10.14778/3485450.3485459"


def test_initials_run_together_are_separate_initials() -> None:
    # Zotero's Web of Science case 04: BE Fielding, JE, which Zotero reads as J E
    (record,) = read_wos("PT S\nAU McCormick, MC\nBE Fielding, JE\n   Brownson, RC\n"
                         "TI Prevention\nER\n")
    assert [(n.family, n.given) for role in ("author", "editor") for n in record.names[role]] \
        == [("McCormick", "M C"), ("Fielding", "J E"), ("Brownson", "R C")]


def test_an_article_in_a_volume_of_a_book_series_is_a_chapter() -> None:
    # Zotero's Web of Science case 04: PT S (a book series), DT Review
    (record,) = read_wos("PT S\nTI Prevention of Preterm Birth\n"
                         "SO ANNUAL REVIEW OF PUBLIC HEALTH, VOL 32\n"
                         "SE Annual Review of Public Health\nDT Review\nER\n")
    assert record.type == "chapter"


def test_the_print_and_the_electronic_issn_are_both_the_issn() -> None:
    # Zotero's Web of Science case 07
    (record,) = read_wos("PT J\nTI T\nSN 0018-8158\nEI 1573-5117\nER\n")
    assert record.get("ISSN") == "0018-8158, 1573-5117"


def test_biosis_index_terms_are_keywords() -> None:
    # Zotero's Web of Science cases 02 and 05 (BIOSIS): broad terms, organisms, concepts
    (record,) = read_wos(
        "PT J\nTI T\nDE anaesthesia; halothane\nOR dogs\nBD Canis; Canidae\n"
        "MC Human Medicine (Medical Sciences); Equipment Apparatus Devices and\n"
        "   Instrumentation\nMQ indexing cell delivery catheter; medical supplies\nER\n")
    assert record.keywords == (
        "anaesthesia", "halothane", "dogs", "Canis", "Canidae",
        "Human Medicine (Medical Sciences)", "Equipment Apparatus Devices and Instrumentation",
        "indexing cell delivery catheter", "medical supplies")


def test_inspec_sub_and_superscripts_are_rich_text() -> None:
    # JabRef's IsiImporterTestInspec.isi: TI ... Sn/sub 2 /P/sub 2/S/sub 6/ crystals
    (record,) = read_wos("PT J\nTI Optical and photoelectric spectroscopy of photorefractive\n"
                         "   Sn/sub 2 /P/sub 2/S/sub 6/ crystals\nER\n")
    assert record.fields["title"] == rich([
        "Optical and photoelectric spectroscopy of photorefractive Sn",
        Styled(Style.SUBSCRIPT, ("2",)), "P", Styled(Style.SUBSCRIPT, ("2",)), "S",
        Styled(Style.SUBSCRIPT, ("6",)), " crystals"])


def test_a_proceedings_books_group_author_is_kept_apart_from_the_papers_authors() -> None:
    # Zotero's Web of Science case 09: GP IEEE, the book group author of a proceedings paper
    (paper,) = read_wos("PT S\nAU Chen, L\nAF Chen, L\nGP IEEE\nTI A protocol\n"
                        "DT Proceedings Paper\nER\n")
    assert [n.family for n in paper.authors] == ["Chen"]
    assert paper.extra["wos.GP"] == "IEEE"


def test_a_books_group_author_is_its_author() -> None:
    (book,) = read_wos("PT B\nGP World Health Organization\nTI Global report\nDT Book\nER\n")
    assert book.authors == (Name(literal="World Health Organization"),)
