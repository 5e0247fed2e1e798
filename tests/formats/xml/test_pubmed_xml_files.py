"""PubMed XML as PubMed and its users write it (excerpts of JabRef's and Zotero's test files):
pretty-printed titles, vernacular titles, electronic locations, book articles, MeSH headings
and numeric months read as Zotero's PubMed XML translator reads them; MathML rendered."""

from __future__ import annotations

import io

from lxml import etree

from refbridge.errors import Diagnostics
from refbridge.formats.xml import mathml, pubmed
from refbridge.formats.xml.pubmed import medline_pages, without_final_period
from refbridge.model import Date, DateParts, Name, Record
from refbridge.richtext import Style, Styled, rich

# JabRef's MedlineImporterTestArticleItalics.xml: the title printed over two lines.
ITALICS = """\
<?xml version="1.0" ?>
<PubmedArticleSet>
    <PubmedArticle>
        <MedlineCitation Status="PubMed-not-MEDLINE" Owner="NLM">
            <PMID Version="1">29872490</PMID>
            <Article PubModel="Electronic-eCollection">
                <Journal>
                    <ISSN IssnType="Electronic">1949-2553</ISSN>
                    <JournalIssue CitedMedium="Internet">
                        <Volume>9</Volume>
                        <Issue>37</Issue>
                        <PubDate><Year>2018</Year><Month>May</Month><Day>15</Day></PubDate>
                    </JournalIssue>
                    <Title>Oncotarget</Title>
                    <ISOAbbreviation>Oncotarget</ISOAbbreviation>
                </Journal>
                <ArticleTitle>Genome-wide significant risk factors on chromosome 19 and the
                    <i>APOE</i> locus.
                </ArticleTitle>
                <Abstract>
                    <AbstractText>The apolipoprotein E (
                        <i>APOE</i>) gene on chromosome 19q13.32, was the first.</AbstractText>
                </Abstract>
            </Article>
        </MedlineCitation>
    </PubmedArticle>
</PubmedArticleSet>
"""

# Zotero's PubMed XML case 07: an empty ArticleTitle, the title in VernacularTitle, a pii
# and no page range.
VERNACULAR = """\
<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2019//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd">
<PubmedArticleSet>
    <PubmedArticle>
        <MedlineCitation Status="MEDLINE" Owner="NLM">
            <PMID Version="1">29292925</PMID>
            <Article PubModel="Electronic">
                <Journal>
                    <ISSN IssnType="Electronic">1652-7518</ISSN>
                    <JournalIssue CitedMedium="Internet">
                        <Volume>114</Volume>
                        <PubDate><Year>2017</Year><Month>11</Month><Day>09</Day></PubDate>
                    </JournalIssue>
                    <Title>Lakartidningen</Title>
                    <ISOAbbreviation>Lakartidningen</ISOAbbreviation>
                </Journal>
                <ArticleTitle/>
                <ELocationID EIdType="pii" ValidYN="Y">EWLS</ELocationID>
                <Language>swe</Language>
                <VernacularTitle>Psykisk ohälsa, radikalisering och terrorism - Inget säkert samband har kunnat påvisas.</VernacularTitle>
            </Article>
        </MedlineCitation>
    </PubmedArticle>
</PubmedArticleSet>
"""

# Zotero's PubMed XML case 03: a DOI and a pii beside a page range.
ELOCATIONS = """\
<PubmedArticleSet>
    <PubmedArticle>
        <MedlineCitation Owner="NLM" Status="MEDLINE">
            <PMID Version="1">26074225</PMID>
            <Article PubModel="Print-Electronic">
                <Journal>
                    <ISSN IssnType="Electronic">1525-3198</ISSN>
                    <JournalIssue CitedMedium="Internet">
                        <Volume>98</Volume><Issue>8</Issue>
                        <PubDate><Year>2015</Year><Month>Aug</Month></PubDate>
                    </JournalIssue>
                    <Title>Journal of dairy science</Title>
                </Journal>
                <ArticleTitle>Evaluation of testing strategies to identify infected animals.</ArticleTitle>
                <Pagination><MedlinePgn>5194-210</MedlinePgn></Pagination>
                <ELocationID EIdType="doi" ValidYN="Y">10.3168/jds.2014-8211</ELocationID>
                <ELocationID EIdType="pii" ValidYN="Y">S0022-0302(15)00395-1</ELocationID>
            </Article>
        </MedlineCitation>
    </PubmedArticle>
</PubmedArticleSet>
"""

# JabRef's MedlineImporterTestBookArticleSet.xml, shortened: a chapter of a book and a bare
# book document.
BOOK_ARTICLE_SET = """\
<PubmedBookArticleSet>
<PubmedBookArticle>
    <BookDocument>
        <PMID Version="1">21413195</PMID>
        <ArticleIdList>
            <ArticleId IdType="bookaccession">NBK51812</ArticleId>
        </ArticleIdList>
        <Book>
            <Publisher>
                <PublisherName>Royal College of Physicians (UK)</PublisherName>
                <PublisherLocation>London</PublisherLocation>
            </Publisher>
            <BookTitle book="nicecg79">Rheumatoid Arthritis: National Clinical Guideline for Management and Treatment in Adults</BookTitle>
            <PubDate><Year>2009</Year><Month>02</Month></PubDate>
            <AuthorList Type="authors">
                <Author>
                    <CollectiveName>National Collaborating Centre for Chronic Conditions (UK)</CollectiveName>
                </Author>
            </AuthorList>
            <CollectionTitle book="nicecollect">National Institute for Health and Clinical Excellence: Guidance</CollectionTitle>
            <Isbn>9781860163593</Isbn>
            <ELocationID EIdType="doi" ValidYN="Y">10.3275/8949</ELocationID>
            <ELocationID EIdType="pii" ValidYN="Y">1223321</ELocationID>        </Book>
        <Language>eng</Language>
        <ArticleTitle>Title for some article</ArticleTitle>
    </BookDocument>
    <PubmedBookData>
        <PublicationStatus>ppublish</PublicationStatus>
        <ArticleIdList>
            <ArticleId IdType="pubmed">21413195</ArticleId>
        </ArticleIdList>
    </PubmedBookData>
</PubmedBookArticle>
</PubmedBookArticleSet>
"""

# JabRef's MedlineImporterTestPubmedBook.xml, shortened: a bare PubmedBookArticle.
BARE_BOOK = """\
<PubmedBookArticle>
    <BookDocument>
        <PMID Version="1">21413195</PMID>
        <Book>
            <Publisher><PublisherName>Royal College of Physicians (UK)</PublisherName></Publisher>
            <BookTitle book="nicecg79">Rheumatoid Arthritis</BookTitle>
            <PubDate><Year>2009</Year></PubDate>
            <AuthorList Type="authors">
                <Author><LastName>Williams</LastName><ForeName>Darlisha A</ForeName></Author>
            </AuthorList>
            <Isbn>9781860163593</Isbn>
        </Book>
        <Abstract>
            <AbstractText>just a dummy.</AbstractText>
            <CopyrightInformation>Copyright from somwhere</CopyrightInformation>
        </Abstract>
    </BookDocument>
</PubmedBookArticle>
"""


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(pubmed.READER.read(io.StringIO(text), "pubmed.xml",
                                   diagnostics or Diagnostics()))


def test_a_title_printed_over_two_lines_is_one_line_with_its_italics() -> None:
    (record,) = read(ITALICS)
    assert record.fields["title"] == rich([
        "Genome-wide significant risk factors on chromosome 19 and the ",
        Styled(Style.ITALIC, ("APOE",)), " locus"])


def test_layout_inside_brackets_adds_no_space() -> None:
    (record,) = read(ITALICS)
    assert record.fields["abstract"] == rich([
        "The apolipoprotein E (", Styled(Style.ITALIC, ("APOE",)),
        ") gene on chromosome 19q13.32, was the first."])


def test_an_empty_article_title_gives_way_to_the_vernacular_title() -> None:
    (record,) = read(VERNACULAR)
    assert record.get("title") == ("Psykisk ohälsa, radikalisering och terrorism - Inget säkert "
                                   "samband har kunnat påvisas")
    assert "pubmed-xml.VernacularTitle" not in record.extra


def test_a_pii_is_the_page_when_there_is_no_page_range() -> None:
    (record,) = read(VERNACULAR)
    assert record.get("page") == "EWLS"


def test_beside_a_page_range_the_pii_is_kept_and_the_doi_read() -> None:
    (record,) = read(ELOCATIONS)
    assert (record.get("page"), record.get("DOI")) == ("5194-5210", "10.3168/jds.2014-8211")
    assert record.extra["pubmed-xml.pii"] == "S0022-0302(15)00395-1"


def test_a_book_article_set_is_read_a_chapter_in_its_book() -> None:
    (chapter,) = read(BOOK_ARTICLE_SET)
    assert chapter.type == "chapter"
    assert {k: chapter.get(k) for k in chapter.fields} == {
        "PMID": "21413195", "title": "Title for some article",
        "container-title": ("Rheumatoid Arthritis: National Clinical Guideline for Management "
                            "and Treatment in Adults"),
        "collection-title": "National Institute for Health and Clinical Excellence: Guidance",
        "publisher": "Royal College of Physicians (UK)", "publisher-place": "London",
        "ISBN": "9781860163593", "language": "eng", "DOI": "10.3275/8949", "page": "1223321",
        "call-number": "NBK51812", "URL": "https://www.ncbi.nlm.nih.gov/books/NBK51812/"}
    assert chapter.names == {"container-author": (
        Name(literal="National Collaborating Centre for Chronic Conditions (UK)"),)}
    assert chapter.extra == {"pubmed-xml.PublicationStatus": "ppublish"}


def test_a_bare_book_article_is_read_with_its_copyright_kept() -> None:
    (book,) = read(BARE_BOOK)
    assert (book.type, book.get("title"), book.authors, book.year) == (
        "book", "Rheumatoid Arthritis", (Name(family="Williams", given="Darlisha A"),), 2009)
    assert book.extra == {"pubmed-xml.CopyrightInformation": "Copyright from somwhere"}


def test_the_period_medline_ends_a_title_with_is_not_part_of_it() -> None:
    assert (without_final_period("Zotero: harnessing the power of a personal bibliographic "
                                 "manager."), without_final_period("Why now..."),
            without_final_period(rich(["In ", Styled(Style.ITALIC, ("vivo.",))]))) == (
        "Zotero: harnessing the power of a personal bibliographic manager", "Why now...",
        rich(["In ", Styled(Style.ITALIC, ("vivo",))]))


def test_medline_page_ranges_are_written_out() -> None:
    assert [medline_pages(p) for p in ("132-42", "5194-210", "e123", "S12-5", "")] == [
        "132-142", "5194-5210", "e123", "S12-5", ""]


# JabRef's MedlineImporterTestMeshHeadingList.xml: MeSH headings with qualifiers and
# major-topic marks.
MESH = """\
<PubmedArticleSet>
    <PubmedArticle>
        <MedlineCitation Status="MEDLINE" Owner="NLM">
            <PMID Version="1">12345678</PMID>
            <Article PubModel="Print">
                <Journal>
                    <JournalIssue><Volume>1</Volume><PubDate><Year>2024</Year></PubDate></JournalIssue>
                    <Title>Test Journal</Title>
                </Journal>
                <ArticleTitle>Test article for MeSH heading parsing.</ArticleTitle>
            </Article>
            <MeshHeadingList>
                <MeshHeading>
                    <DescriptorName UI="D006801" MajorTopicYN="N">Humans</DescriptorName>
                </MeshHeading>
                <MeshHeading>
                    <DescriptorName UI="D012984" MajorTopicYN="Y">Software</DescriptorName>
                </MeshHeading>
                <MeshHeading>
                    <DescriptorName UI="D007674" MajorTopicYN="Y">Kidney Diseases</DescriptorName>
                    <QualifierName UI="Q000175" MajorTopicYN="N">diagnosis</QualifierName>
                    <QualifierName UI="Q000453" MajorTopicYN="N">epidemiology</QualifierName>
                    <QualifierName UI="Q000628" MajorTopicYN="N">therapy</QualifierName>
                </MeshHeading>
                <MeshHeading>
                    <DescriptorName UI="D008962" MajorTopicYN="N">Models, Theoretical</DescriptorName>
                    <QualifierName UI="Q000379" MajorTopicYN="Y">methods</QualifierName>
                </MeshHeading>
                <MeshHeading>
                    <DescriptorName UI="D000001" MajorTopicYN="Y">Sample Heading</DescriptorName>
                    <QualifierName UI="Q000001" MajorTopicYN="Y">analysis</QualifierName>
                </MeshHeading>
            </MeshHeadingList>
        </MedlineCitation>
    </PubmedArticle>
</PubmedArticleSet>
"""


def test_mesh_descriptors_are_the_keywords() -> None:
    (record,) = read(MESH)
    assert record.keywords == ("Humans", "Software", "Kidney Diseases", "Models, Theoretical",
                               "Sample Heading")


def test_mesh_qualifiers_and_major_topics_are_kept_in_medline_notation() -> None:
    diagnostics = Diagnostics()
    (record,) = read(MESH, diagnostics)
    assert record.extra["pubmed-xml.MeshHeading"] == (
        "*Software\n*Kidney Diseases/diagnosis/epidemiology/therapy\n"
        "Models, Theoretical/*methods\n*Sample Heading/*analysis")
    assert not [m for m in diagnostics.messages if "QualifierName" in m.message]


# Zotero's PubMed XML case 06: PubDate's month as a number.
NUMERIC_MONTH = """\
<PubmedArticleSet>
    <PubmedArticle>
        <MedlineCitation Status="MEDLINE" Owner="NLM">
            <PMID Version="1">30720432</PMID>
            <Article PubModel="Electronic">
                <Journal>
                    <ISSN IssnType="Electronic">2050-084X</ISSN>
                    <JournalIssue CitedMedium="Internet">
                        <Volume>8</Volume>
                        <PubDate>
                            <Year>2019</Year>
                            <Month>02</Month>
                            <Day>04</Day>
                        </PubDate>
                    </JournalIssue>
                    <Title>eLife</Title>
                </Journal>
                <ArticleTitle>Stereotyped terminal axon branching of leg motor neurons mediated by IgSF proteins DIP-α and Dpr10.</ArticleTitle>
            </Article>
        </MedlineCitation>
    </PubmedArticle>
</PubmedArticleSet>
"""


def test_a_pub_date_month_written_as_a_number_is_read() -> None:
    (record,) = read(NUMERIC_MONTH)
    assert record.dates["issued"] == Date(start=DateParts(2019, 2, 4))


# JabRef's MedlineImporterTestMathML.xml, three of its formulas.
MATHML = """\
<PubmedArticleSet>
    <PubmedArticle>
        <MedlineCitation Status="MEDLINE" Owner="NLM">
            <PMID Version="1">32759406</PMID>
            <Article PubModel="Electronic">
                <Journal><Title>Journal of integrative bioinformatics</Title></Journal>
                <ArticleTitle>CellML 2.0.</ArticleTitle>
                <Abstract>
                    <AbstractText>
                        Following are examples of MathML elements:

                        <!--Indices & Exponents:-->
                        <mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML">
                            <mml:mrow>
                                <mml:msubsup>
                                    <mml:mi>η</mml:mi>
                                    <mml:mi>p</mml:mi>
                                    <mml:mn>2</mml:mn>
                                </mml:msubsup>
                            </mml:mrow>
                        </mml:math>

                        <!--Cartesian:-->
                        <math xmlns="http://www.w3.org/1998/Math/MathML">
                            <apply>
                                <in/>
                                <cn type="complex-cartesian">17<sep/>29</cn>
                                <complexes/>
                            </apply>
                        </math>

                        <!--Fractions:-->
                        <math xmlns="http://www.w3.org/1998/Math/MathML">
                            <mfrac>
                                <mrow>
                                    <mi>a</mi>
                                    <mo>+</mo>
                                    <mn>1</mn>
                                </mrow>
                                <mi>b</mi>
                            </mfrac>
                        </math>

                        <!--Root:-->
                        <math xmlns="http://www.w3.org/1998/Math/MathML">
                            <mi>y</mi>
                            <mo>=</mo>
                            <mroot>
                                <msup>
                                    <mi>x</mi>
                                    <mn>2</mn>
                                </msup>
                                <mn>3</mn>
                            </mroot>
                        </math>

                        <!--Matrix:-->
                        <math xmlns="http://www.w3.org/1998/Math/MathML">
                            <matrix>
                                <matrixrow>
                                    <cn> 0 </cn> <cn> 1 </cn>
                                </matrixrow>
                                <matrixrow>
                                    <cn> 1 </cn> <cn> 0 </cn>
                                </matrixrow>
                            </matrix>
                        </math>
                    </AbstractText>
                </Abstract>
            </Article>
        </MedlineCitation>
    </PubmedArticle>
</PubmedArticleSet>
"""


def test_mathml_in_an_abstract_is_rendered_with_its_scripts() -> None:
    (record,) = read(MATHML)
    assert record.fields["abstract"] == rich([
        "Following are examples of MathML elements: η", Styled(Style.SUBSCRIPT, ("p",)),
        Styled(Style.SUPERSCRIPT, ("2",)), " 17+29i∈ℂ (a+1)/b y=∛x",
        Styled(Style.SUPERSCRIPT, ("2",)), " [0 1; 1 0]"])


def test_mathml_fences_put_their_separators_between_the_children() -> None:
    fenced = """<math xmlns="http://www.w3.org/1998/Math/MathML">
        <mfenced><mi>a</mi><mi>b</mi><mi>c</mi></mfenced>
        <mfenced separators=''><mi>a</mi><mi>b</mi><mi>c</mi></mfenced>
        <mfenced open="|" close=">"><mi>a</mi><mi>b</mi><mi>c</mi></mfenced></math>"""
    assert rich(mathml.render(etree.fromstring(fenced))) == "(a,b,c)(abc)|a,b,c>"


def test_a_book_s_numeric_month_is_read() -> None:
    xml = ("<PubmedBookArticle><BookDocument><PMID>21413195</PMID><Book><BookTitle>Rheumatoid "
           "Arthritis</BookTitle><PubDate><Year>2009</Year><Month>02</Month></PubDate></Book>"
           "</BookDocument></PubmedBookArticle>")
    (record,) = pubmed.READER.read(io.StringIO(xml), "book.xml", Diagnostics())
    assert record.dates["issued"].start == DateParts(2009, 2)
