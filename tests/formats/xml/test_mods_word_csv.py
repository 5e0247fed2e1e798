"""MODS (LoC schema), Word's bibliography XML and CSV spreadsheets: specimens read to the
records a person sees, and what refbridge writes follows each format's conventions."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.formats.sheets import csv as spreadsheet
from refbridge.formats.xml import mods
from refbridge.formats.xml import word as word_xml
from refbridge.model import Date, DateParts, Name, Record
from refbridge.registry import WriteOptions

MODS = """\
<?xml version="1.0" encoding="UTF-8"?>
<modsCollection xmlns="http://www.loc.gov/mods/v3" xmlns:xlink="http://www.w3.org/1999/xlink">
<mods version="3.7" ID="sun2021">
  <titleInfo><nonSort>The</nonSort><title>design space of cardinality estimators</title>
    <subTitle>a comparative evaluation</subTitle></titleInfo>
  <name type="personal">
    <namePart type="family">Sun</namePart><namePart type="given">Ji</namePart>
    <role><roleTerm authority="marcrelator" type="text">author</roleTerm></role>
  </name>
  <name type="personal">
    <namePart>Smith, John</namePart><namePart type="termsOfAddress">Jr.</namePart>
    <role><roleTerm authority="marcrelator" type="code">aut</roleTerm></role>
  </name>
  <name type="corporate"><namePart>W3C</namePart></name>
  <originInfo><dateIssued encoding="w3cdtf" point="start">2001</dateIssued>
    <dateIssued encoding="w3cdtf" point="end">2003</dateIssued></originInfo>
  <typeOfResource>text</typeOfResource>
  <genre authority="marcgt">article</genre>
  <language><languageTerm type="code" authority="iso639-2b">eng</languageTerm></language>
  <abstract>We compare estimators.</abstract>
  <subject><topic>databases</topic><topic>query optimization</topic></subject>
  <relatedItem type="host">
    <titleInfo><title>Proceedings of the VLDB Endowment</title></titleInfo>
    <originInfo><issuance>continuing</issuance></originInfo>
    <identifier type="issn">2150-8097</identifier>
    <part>
      <detail type="volume"><number>15</number></detail>
      <detail type="issue"><number>1</number></detail>
      <extent unit="pages"><start>85</start><end>97</end></extent>
    </part>
  </relatedItem>
  <identifier type="doi">10.14778/3485450.3485459</identifier>
  <location><url>https://www.vldb.org/pvldb/vol15/p85-sun.pdf</url></location>
</mods>
</modsCollection>
"""

WORD = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<b:Sources SelectedStyle="\\APASixthEditionOfficeOnline.xsl" StyleName="APA" Version="6" xmlns:b="http://schemas.openxmlformats.org/officeDocument/2006/bibliography" xmlns="http://schemas.openxmlformats.org/officeDocument/2006/bibliography"><b:Source><b:Tag>Sun21</b:Tag><b:SourceType>JournalArticle</b:SourceType><b:Guid>{5B2F7E9A-1C3D-4E5F-8A9B-0C1D2E3F4A5B}</b:Guid><b:Title>Learned cardinality estimation</b:Title><b:Year>2021</b:Year><b:Month>September</b:Month><b:JournalName>Proceedings of the VLDB Endowment</b:JournalName><b:Pages>85-97</b:Pages><b:Volume>15</b:Volume><b:Issue>1</b:Issue><b:Author><b:Author><b:NameList><b:Person><b:Last>Sun</b:Last><b:First>Ji</b:First></b:Person><b:Person><b:Last>Li</b:Last><b:First>Guo</b:First><b:Middle>Liang</b:Middle></b:Person></b:NameList></b:Author></b:Author><b:DOI>10.14778/3485450.3485459</b:DOI><b:RefOrder>1</b:RefOrder></b:Source><b:Source><b:Tag>WHO20</b:Tag><b:SourceType>Report</b:SourceType><b:Title>World health statistics</b:Title><b:Year>2020</b:Year><b:Author><b:Author><b:Corporate>World Health Organization</b:Corporate></b:Author></b:Author><b:Publisher>WHO</b:Publisher><b:City>Geneva</b:City></b:Source></b:Sources>
"""


def test_a_mods_record_reads_to_what_a_person_sees() -> None:
    (record,) = mods.READER.read(io.StringIO(MODS), "catalogue.xml", Diagnostics(strict=True))
    assert record.type == "article-journal"
    assert record.citation_key == "sun2021"
    assert record.authors == (Name(family="Sun", given="Ji"),
                              Name(family="Smith", given="John", suffix="Jr."),
                              Name(literal="W3C"))
    assert {k: record.get(k) for k in record.fields} == {
        "title": "The design space of cardinality estimators: a comparative evaluation",
        "container-title": "Proceedings of the VLDB Endowment", "ISSN": "2150-8097",
        "DOI": "10.14778/3485450.3485459", "volume": "15", "issue": "1", "page": "85-97",
        "URL": "https://www.vldb.org/pvldb/vol15/p85-sun.pdf",
        "abstract": "We compare estimators.", "language": "eng"}
    assert record.dates == {"issued": Date(start=DateParts(2001), end=DateParts(2003))}
    assert record.keywords == ("databases", "query optimization")


def test_mods_is_written_with_genres_a_host_and_a_part() -> None:
    (record,) = mods.READER.read(io.StringIO(MODS), "catalogue.xml", Diagnostics())
    out = io.StringIO()
    mods.WRITER.write([record], out, WriteOptions())
    text = out.getvalue()
    for expected in ('<genre authority="bibutilsgt">journal article</genre>',
                     '<relatedItem type="host">', '<genre authority="marcgt">periodical</genre>',
                     '<dateIssued encoding="w3cdtf" point="start">2001</dateIssued>',
                     '<namePart type="termsOfAddress">Jr.</namePart>',
                     '<extent unit="page">'):
        assert expected in text
    assert "refbridge:" not in text
    (back,) = mods.READER.read(io.StringIO(text), "out.mods", Diagnostics(strict=True))
    assert back.replace(source=None) == record.replace(source=None)


def test_a_word_sources_file_reads_to_what_a_person_sees() -> None:
    article, report = word_xml.READER.read(io.StringIO(WORD), "Sources.xml",
                                           Diagnostics(strict=True))
    assert (article.type, article.citation_key) == ("article-journal", "Sun21")
    assert article.authors == (Name(family="Sun", given="Ji"),
                               Name(family="Li", given="Guo Liang"))
    assert {k: article.get(k) for k in article.fields} == {
        "title": "Learned cardinality estimation",
        "container-title": "Proceedings of the VLDB Endowment", "page": "85-97",
        "volume": "15", "issue": "1", "DOI": "10.14778/3485450.3485459"}
    assert article.dates == {"issued": Date(start=DateParts(2021, 9))}
    assert dict(article.extra) == {"word.Guid": "{5B2F7E9A-1C3D-4E5F-8A9B-0C1D2E3F4A5B}",
                                   "word.RefOrder": "1"}
    assert report.type == "report"
    assert report.authors == (Name(literal="World Health Organization"),)
    assert (report.get("publisher"), report.get("publisher-place")) == ("WHO", "Geneva")


def test_word_keeps_what_it_has_no_element_for_in_the_comments() -> None:
    record = Record(id="k", citation_key="k", type="article-journal",
                    fields={"title": "T", "abstract": "An abstract."}, keywords=("a", "b"))
    element = word_xml.record_source(record)
    comments = element.findtext(f"{{{word_xml.t.NAMESPACE}}}Comments")
    assert comments == 'refbridge: {"abstract": "An abstract.", "keyword": "a, b"}'


CSV = ("Title,Authors,Year,Journal,Volume,Pages,DOI,Keywords,Rating\n"
       '"Learned cardinality estimation","Sun, Ji; Li, Guoliang; W3C",2021,'
       '"Proc. VLDB Endow.",15,85-97,10.14778/3485450.3485459,"databases; ML",5\n'
       "\n"
       '"=HYPERLINK(""http://evil.example"")",,1999,,,,,,\n')


def test_a_spreadsheet_with_its_own_headings_reads() -> None:
    first, formula = spreadsheet.READER.read(io.StringIO(CSV), "pubs.csv",
                                             Diagnostics(strict=True))
    assert first.authors == (Name(family="Sun", given="Ji"), Name(family="Li", given="Guoliang"),
                             Name(literal="W3C"))
    assert {k: first.get(k) for k in first.fields} == {
        "title": "Learned cardinality estimation", "container-title": "Proc. VLDB Endow.",
        "volume": "15", "page": "85-97", "DOI": "10.14778/3485450.3485459"}
    assert first.year == 2021
    assert first.keywords == ("databases", "ML")
    assert dict(first.extra) == {"csv.Rating": "5"}
    assert formula.source is not None and formula.source.line == 4


def test_a_value_that_is_a_formula_is_written_as_text() -> None:
    record = Record(id="k", citation_key="k", type="book",
                    fields={"title": '=HYPERLINK("http://evil.example")', "note": "+1"})
    out = io.StringIO()
    spreadsheet.WRITER.write([record], out, WriteOptions())
    row = out.getvalue().splitlines()[1]
    assert row.startswith('k,book,"\'=HYPERLINK(""http://evil.example"")"')
    assert ",'+1" in row
    (back,) = spreadsheet.READER.read(io.StringIO(out.getvalue()), "out.csv",
                                      Diagnostics(strict=True))
    assert back.replace(source=None) == record


def test_a_lone_carriage_return_of_a_value_is_written_as_a_quoted_line_break() -> None:
    # EndNote XML separates the lines of notes, ISBNs and ISSNs by a CR alone
    record = Record(id="ahmad2015", citation_key="ahmad2015", type="article-journal",
                    fields={"title": "Prostate cancer",
                            "ISSN": "1532-1827 (Electronic)\r0007-0920 (Linking)",
                            "note": "First note\r\nSecond note"})
    out = io.StringIO()
    spreadsheet.WRITER.write([record], out, WriteOptions())
    assert out.getvalue().splitlines(keepends=True)[1:] == [
        'ahmad2015,article-journal,Prostate cancer,,,,,,,,,,,,"1532-1827 (Electronic)\n',
        '0007-0920 (Linking)",,,,,"First note\n',
        'Second note"\n']
    text = io.TextIOWrapper(io.BytesIO(out.getvalue().encode()), newline=None)  # as a file is read
    (back,) = spreadsheet.READER.read(text, "out.csv", Diagnostics(strict=True))
    assert back.replace(source=None) == record.replace(fields={
        "title": "Prostate cancer", "ISSN": "1532-1827 (Electronic)\n0007-0920 (Linking)",
        "note": "First note\nSecond note"})


def test_a_row_with_more_cells_than_headings_is_skipped_with_its_line() -> None:
    diagnostics = Diagnostics()
    records = list(spreadsheet.READER.read(io.StringIO("title,year\nA,2001\nB,2002,x\n"),
                                           "pubs.csv", diagnostics))
    assert [r.title for r in records] == ["A"]
    assert [str(m) for m in diagnostics.messages] == [
        "pubs.csv:3: error: row skipped: 3 cells under 2 headings"]
