"""MEDLINE .nbib and PubMed XML: specimens laid out as PubMed writes them (NLM's MEDLINE
element descriptions) read to the records a person sees."""

from __future__ import annotations

import io

from support import SAMPLES, run_cli

from refbridge.errors import Diagnostics
from refbridge.formats.tagged import medline as nbib
from refbridge.formats.xml import pubmed as pubmed_xml
from refbridge.model import Date, DateParts, Name, Record
from refbridge.richtext import Style, Styled, rich

NBIB = """\
PMID- 33456789
OWN - NLM
STAT- MEDLINE
IS  - 1548-7105 (Electronic)
IS  - 1548-7091 (Linking)
VI  - 18
IP  - 2
DP  - 2021 Feb 15
TI  - Single-cell imaging of bacterial growth in microfluidic chambers over many
      generations.
PG  - 101-108
LID - 10.1038/s41592-020-01000-1 [doi]
AB  - Bacteria grow. We image them for many generations and measure how their size
      changes.
FAU - Sun, Ji
AU  - Sun J
AD  - Tsinghua University, Beijing, China.
FAU - van der Berg, Jan
AU  - van der Berg J
CN  - Microbial Imaging Consortium
LA  - eng
PT  - Journal Article
PT  - Research Support, Non-U.S. Gov't
DEP - 20210115
PL  - United States
TA  - Nat Methods
JT  - Nature methods
JID - 101215604
OT  - microfluidics
OT  - cell growth
MH  - Escherichia coli/*growth & development
AID - 10.1038/s41592-020-01000-1 [doi]
AID - s41592-020-01000-1 [pii]
PMC - PMC7890123
SO  - Nat Methods. 2021 Feb 15;18(2):101-108. doi: 10.1038/s41592-020-01000-1.

PMID- 30000001
DP  - 2019 Winter
TI  - A second record.
PT  - Review
AU  - Qian Z
"""

PUBMED_XML = """\
<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">
<PubmedArticleSet>
<PubmedArticle>
  <MedlineCitation Status="MEDLINE" Owner="NLM">
    <PMID Version="1">33456789</PMID>
    <Article PubModel="Print-Electronic">
      <Journal>
        <ISSN IssnType="Electronic">1548-7105</ISSN>
        <JournalIssue CitedMedium="Internet">
          <Volume>18</Volume>
          <Issue>2</Issue>
          <PubDate><Year>2021</Year><Month>Feb</Month><Day>15</Day></PubDate>
        </JournalIssue>
        <Title>Nature methods</Title>
        <ISOAbbreviation>Nat Methods</ISOAbbreviation>
      </Journal>
      <ArticleTitle>Growth of <i>Escherichia coli</i> in H<sub>2</sub>O.</ArticleTitle>
      <Pagination><MedlinePgn>101-108</MedlinePgn></Pagination>
      <ELocationID EIdType="doi" ValidYN="Y">10.1038/s41592-020-01000-1</ELocationID>
      <Abstract>
        <AbstractText Label="BACKGROUND" NlmCategory="BACKGROUND">Bacteria grow.</AbstractText>
        <AbstractText Label="RESULTS" NlmCategory="RESULTS">They divide.</AbstractText>
      </Abstract>
      <AuthorList CompleteYN="Y">
        <Author ValidYN="Y"><LastName>Sun</LastName><ForeName>Ji</ForeName><Initials>J</Initials></Author>
        <Author ValidYN="Y"><LastName>Smith</LastName><ForeName>John</ForeName><Suffix>Jr</Suffix></Author>
        <Author ValidYN="Y"><CollectiveName>Microbial Imaging Consortium</CollectiveName></Author>
      </AuthorList>
      <Language>eng</Language>
      <PublicationTypeList>
        <PublicationType UI="D016428">Journal Article</PublicationType>
      </PublicationTypeList>
    </Article>
    <KeywordList Owner="NOTNLM"><Keyword MajorTopicYN="N">microfluidics</Keyword></KeywordList>
  </MedlineCitation>
  <PubmedData>
    <ArticleIdList>
      <ArticleId IdType="pubmed">33456789</ArticleId>
      <ArticleId IdType="doi">10.1038/s41592-020-01000-1</ArticleId>
      <ArticleId IdType="pmc">PMC7890123</ArticleId>
    </ArticleIdList>
  </PubmedData>
</PubmedArticle>
</PubmedArticleSet>
"""


def read_nbib(text: str) -> list[Record]:
    return list(nbib.READER.read(io.StringIO(text), "pubmed.nbib", Diagnostics(strict=True)))


def test_a_pubmed_nbib_reads_to_the_article_a_person_sees() -> None:
    article, _ = read_nbib(NBIB)
    assert article.type == "article-journal"
    assert article.id == "pmid33456789"
    assert [n.display() for n in article.authors] == [
        "Ji Sun", "Jan van der Berg", "Microbial Imaging Consortium"]
    assert {k: article.get(k) for k in article.fields} == {
        "PMID": "33456789", "ISSN": "1548-7105, 1548-7091", "volume": "18", "issue": "2",
        "title": "Single-cell imaging of bacterial growth in microfluidic chambers over many "
                 "generations.",
        "page": "101-108", "DOI": "10.1038/s41592-020-01000-1",
        "abstract": "Bacteria grow. We image them for many generations and measure how their "
                    "size changes.",
        "language": "eng", "publisher-place": "United States",
        "container-title-short": "Nat Methods", "container-title": "Nature methods",
        "PMCID": "PMC7890123"}
    assert article.dates == {"issued": Date(start=DateParts(2021, 2, 15))}
    assert article.keywords == ("microfluidics", "cell growth",
                                "Escherichia coli/*growth & development")
    assert article.extra["nbib.AD"] == "Tsinghua University, Beijing, China."


def test_short_names_are_read_when_a_record_has_no_full_names() -> None:
    _, review = read_nbib(NBIB)
    assert review.authors == (Name(family="Qian", given="Z"),)
    assert review.dates == {"issued": Date(start=DateParts(2019), season=4)}


def test_nbib_is_written_as_pubmed_lays_it_out() -> None:
    article, _ = read_nbib(NBIB)
    text = nbib.format_record(article)
    assert text.splitlines()[:4] == ["PMID- 33456789", "IS  - 1548-7105 (Electronic)",
                                     "IS  - 1548-7091 (Linking)", "VI  - 18"]
    assert "DP  - 2021 Feb 15" in text.splitlines()
    assert "FAU - van der Berg, Jan" in text.splitlines()
    assert "AU  - van der Berg J" in text.splitlines()
    assert "LID - 10.1038/s41592-020-01000-1 [doi]" in text.splitlines()
    (back,) = read_nbib(text)
    assert back.replace(source=None) == article.replace(source=None)


def test_a_record_without_a_pmid_starts_with_an_empty_pmid_line() -> None:
    # Zotero's MEDLINE import recognises a file only by "PMID- " among its first lines
    record = Record(id="doe2020", citation_key="doe2020", type="article-journal",
                    fields={"title": "Sleep and memory"},
                    names={"author": (Name(family="Doe", given="Jane"),)})
    text = nbib.format_record(record)
    assert text == ("PMID- \nTI  - Sleep and memory\nFAU - Doe, Jane\nAU  - Doe J\n"
                    'PT  - Journal Article\nGN  - refbridge: {"id": "doe2020"}\n')
    (back,) = read_nbib(text)
    assert back.replace(source=None) == record


def test_every_record_of_the_bundled_profile_as_nbib_starts_with_pmid() -> None:
    code, stdout, _ = run_cli("convert", str(SAMPLES / "qinwei-yang.profile.txt"),
                              "--to", "nbib")
    assert code == 0
    assert [block.split("\n", 1)[0] for block in stdout.strip().split("\n\n")] == ["PMID- "] * 9


def test_pubmed_xml_reads_inline_markup_as_rich_text() -> None:
    (article,) = pubmed_xml.READER.read(io.StringIO(PUBMED_XML), "pubmed.xml",
                                        Diagnostics(strict=True))
    assert article.fields["title"] == rich([
        "Growth of ", Styled(Style.ITALIC, ("Escherichia coli",)), " in H",
        Styled(Style.SUBSCRIPT, ("2",)), "O"])
    assert article.type == "article-journal"
    assert [n.display() for n in article.authors] == [
        "Ji Sun", "John Smith, Jr", "Microbial Imaging Consortium"]
    assert {k: article.get(k) for k in ("PMID", "DOI", "PMCID", "container-title",
                                        "container-title-short", "volume", "issue", "page",
                                        "ISSN", "language", "abstract")} == {
        "PMID": "33456789", "DOI": "10.1038/s41592-020-01000-1", "PMCID": "PMC7890123",
        "container-title": "Nature methods", "container-title-short": "Nat Methods",
        "volume": "18", "issue": "2", "page": "101-108", "ISSN": "1548-7105",
        "language": "eng", "abstract": "BACKGROUND: Bacteria grow.\nRESULTS: They divide."}
    assert article.dates == {"issued": Date(start=DateParts(2021, 2, 15))}
    assert article.keywords == ("microfluidics",)


# -- ERIC's .nbib and PubMed's e-locators (Zotero's MEDLINE/nbib import cases) ------------------
#: Zotero's MEDLINE/nbib import case 05 (ERIC): full names with a comma in AU, no FAU; a DOI as a
#: link in AID; ``EISSN-`` before the ISSN; a report's publisher in JT.
ERIC = """\
OWN - ERIC
TI  - Test-Taker Perception of and Test Performance on Computer-Delivered Speaking Tests
AU  - Zhou, Yujia
AU  - van Groen, Maaike M.
JT  - Language Testing in Asia
AID - http://dx.doi.org/10.1186/s40468-019-0086-7
OID - EJ1245375
VI  - 9
LID - http://eric.ed.gov/?id=EJ1245375
ISSN - EISSN-2229-0443
PT  - Journal Articles
PT  - Reports - Research

OWN - ERIC
TI  - College Entrance Exams: How Does Test Preparation Affect Retest Scores?
AU  - Moore, Raeal
JT  - ACT, Inc.
DP  - 2019
LID - http://eric.ed.gov/?id=ED602023
PT  - Reports - Research
"""


def test_eric_short_names_with_a_comma_split_at_the_comma() -> None:
    article, _ = read_nbib(ERIC)
    assert article.authors == (Name(family="Zhou", given="Yujia"),
                               Name(family="Groen", given="Maaike M.",
                                    non_dropping_particle="van"))


def test_short_names_without_a_comma_are_family_and_initials() -> None:
    (record,) = read_nbib("PMID- 1\nTI  - T\nAU  - van Raaij MJ\nPT  - Journal Article\n")
    assert record.authors == (Name(family="van Raaij", given="MJ"),)


def test_eric_identifiers_are_the_doi_issn_and_url() -> None:
    article, _ = read_nbib(ERIC)
    assert (article.type, article.get("DOI"), article.get("ISSN"), article.get("URL")) == (
        "article-journal", "10.1186/s40468-019-0086-7", "2229-0443",
        "http://eric.ed.gov/?id=EJ1245375")
    assert article.get("container-title") == "Language Testing in Asia"


def test_an_eric_reports_journal_tag_is_its_publisher() -> None:
    _, report = read_nbib(ERIC)
    assert (report.type, report.get("publisher"), report.get("container-title")) == (
        "report", "ACT, Inc.", None)


def test_an_article_without_pages_has_its_e_locator_as_page() -> None:
    # Zotero's MEDLINE/nbib import case 06 (PubMed)
    (record,) = read_nbib("PMID- 35128459\nTI  - Slow Burns\nLID - 1042 [pii]\n"
                          "LID - 10.3390/ijerph19031042 [doi]\nPT  - Journal Article\n"
                          "AID - 1042 [pii]\nAID - 10.3390/ijerph19031042 [doi]\n")
    assert (record.get("page"), record.get("DOI"), dict(record.extra)) == (
        "1042", "10.3390/ijerph19031042", {})


def test_beside_pages_the_e_locator_is_kept_and_written_back() -> None:
    # Zotero's MEDLINE/nbib import case 04 (PubMed)
    (record,) = read_nbib("PMID- 25744111\nTI  - Effectiveness\nPG  - 475-82\n"
                          "LID - 10.1016/j.puhe.2015.01.018 [doi]\n"
                          "LID - S0033-3506(15)00037-2 [pii]\nPT  - Journal Article\n"
                          "AID - S0033-3506(15)00037-2 [pii]\n")
    assert (record.get("page"), dict(record.extra)) == (
        "475-482", {"nbib.LID": "S0033-3506(15)00037-2 [pii]"})
    assert "LID - S0033-3506(15)00037-2 [pii]" in nbib.format_record(record).splitlines()


def test_every_issn_of_a_record_is_an_issn_and_its_kind_is_written_back() -> None:
    # Zotero's MEDLINE/nbib import case 04 (PubMed): both ISSNs are the article's ISSN
    text = ("PMID- 25744111\nIS  - 1476-5616 (Electronic)\nIS  - 0033-3506 (Print)\n"
            "IS  - 0033-3506 (Linking)\nTI  - T\n")
    (record,) = read_nbib(text)
    assert record.get("ISSN") == "1476-5616, 0033-3506"
    assert [line for line in nbib.format_record(record).splitlines()
            if line.startswith("IS  -")] == [
        "IS  - 1476-5616 (Electronic)", "IS  - 0033-3506 (Print)", "IS  - 0033-3506 (Linking)"]


def test_an_abbreviated_page_range_is_written_out() -> None:
    # Zotero's MEDLINE/nbib import case 02: PG - 6913-7, which Zotero reads as 6913-6917
    (record,) = read_nbib("PMID- 1\nTI  - T\nPG  - 6913-7\n")
    assert record.get("page") == "6913-6917"


def test_a_report_of_a_conference_is_a_conference_paper() -> None:
    # JabRef's MedlinePlainImporterTestMultiAbstract.txt: conference types, no Journal Article
    (record,) = read_nbib("PMC -22664230\nPT  - Clinical Conference\n"
                          "PT  - Consensus Development Conference\n"
                          "PT  - Consensus Development Conference, NIH\nJT  - Test Journal\n")
    assert record.type == "paper-conference"


def test_a_journal_article_reporting_a_conference_stays_a_journal_article() -> None:
    (record,) = read_nbib("PMID- 1\nPT  - Consensus Development Conference, NIH\n"
                          "PT  - Journal Article\nJT  - JAMA\n")
    assert record.type == "article-journal"


def test_an_eric_report_with_a_journal_number_is_a_journal_article() -> None:
    # Zotero's MEDLINE/nbib import case 07 (ERIC): OID EJ..., only report types
    (article,) = read_nbib(
        "OWN - ERIC\nTI  - From Here to There! Elementary\n"
        "JT  - Educational Technology Research and Development\nOID - EJ1208101\nVI  - 67\n"
        "PT  - Reports - Research\nPT  - Reports - Evaluative\n")
    assert (article.type, article.get("container-title")) == (
        "article-journal", "Educational Technology Research and Development")


def test_an_eric_document_typed_as_a_report_is_a_report() -> None:
    (report,) = read_nbib("OWN - ERIC\nTI  - Findings\nJT  - OECD Publishing\nOID - ED602023\n"
                          "PT  - Reports - Research\n")
    assert (report.type, report.get("publisher")) == ("report", "OECD Publishing")


def test_pubmeds_unlabelled_section_label_is_no_label() -> None:
    # the abstract of JabRef's MedlineImporterTestNbib.xml (AbstractText Label="UNLABELLED")
    # with its label written before the text: dropped, as the PubMed XML reader drops it
    (record,) = read_nbib("PMID- 1\nTI  - T\nAB  - UNLABELLED: just a dummy.\n")
    assert record.get("abstract") == "just a dummy."


def test_a_labelled_abstract_keeps_its_labels() -> None:
    (record,) = read_nbib("PMID- 1\nTI  - T\nAB  - BACKGROUND: Bacteria grow. RESULTS: They\n"
                          "      divide.\n")
    assert record.get("abstract") == "BACKGROUND: Bacteria grow. RESULTS: They divide."
