"""EndNote XML as EndNote, Bookends and Mendeley write it (excerpts of JabRef's and Zotero's
test files): what ``<isbn>`` holds, and attached files that are not the record's URL."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.formats.xml import endnote as endnote_xml
from refbridge.model import Name, Record
from refbridge.registry import WriteOptions


def records(body: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<xml><records>{body}</records></xml>\n'


# JabRef's EndnoteXmlImporterTestArticle.xml (a Bookends export), shortened.
JOURNAL_ARTICLE = records("""
<record>
  <ref-type name="Journal Article">17</ref-type>
  <titles><title><style face="normal" font="default" size="100%">Prostate cancer</style></title>
    <secondary-title>Br J Cancer</secondary-title></titles>
  <urls>
    <related-urls><url>http://www.ncbi.nlm.nih.gov/pubmed/25647015</url></related-urls>
    <pdf-urls><url>file://localhost/Users/user/Documents/Bookends/Attachments/Ahmad%20et%20al%202015.pdf</url></pdf-urls>
  </urls>
  <isbn><style face="normal" font="default" size="100%">1532-1827 (Electronic)</style></isbn>
</record>""")

# Zotero's EndNote XML case 01, records 1, 2 and 8: a report with an EndNote library's PDF,
# a book's ISBN, a patent's number.
ZOTERO_CASE = records("""
<record>
  <ref-type name="Report">10</ref-type>
  <titles><title>Country Clustering in Comparative Political Economy</title></titles>
  <pages>32</pages>
  <urls><pdf-urls>
    <url>internal-pdf://Ahlquist and Breunig _ 2009 _ Country Clustering in Comparative Political Econom.pdf</url>
  </pdf-urls></urls>
</record>
<record>
  <ref-type name="Book">1</ref-type>
  <titles><title>Planting green roofs and living walls</title></titles>
  <isbn>0881929115</isbn>
</record>
<record>
  <ref-type name="Patent">25</ref-type>
  <titles><title>Yo-yo having a modifiable string gap</title></titles>
  <isbn>WO2011US30214</isbn>
</record>""")

# Mendeley's export: the attached PDF's internal-pdf link before the web address.
MENDELEY = records("""
<record>
  <ref-type name="Journal Article">17</ref-type>
  <titles><title>Learned cardinality estimation</title></titles>
  <urls><related-urls>
    <url>internal-pdf://Sun 2021 Learned cardinality estimation.pdf</url>
    <url>https://www.vldb.org/pvldb/vol15/p85-sun.pdf</url>
  </related-urls></urls>
</record>""")


def read(text: str) -> list[Record]:
    return list(endnote_xml.READER.read(io.StringIO(text), "library.xml",
                                        Diagnostics(strict=True)))


def test_the_isbn_element_of_a_journal_article_is_its_issn() -> None:
    (article,) = read(JOURNAL_ARTICLE)
    assert article.get("ISSN") == "1532-1827 (Electronic)"
    assert "ISBN" not in article.fields


def test_a_books_isbn_stays_an_isbn_and_a_patents_is_its_number() -> None:
    _, book, patent = read(ZOTERO_CASE)
    assert (book.get("ISBN"), patent.get("number")) == ("0881929115", "WO2011US30214")
    assert "ISBN" not in patent.fields


def test_an_attached_pdf_is_no_url_and_is_kept() -> None:
    report = read(ZOTERO_CASE)[0]
    assert "URL" not in report.fields
    assert report.extra["endnote-xml.urls/pdf-urls/url"] == (
        "internal-pdf://Ahlquist and Breunig _ 2009 _ Country Clustering in Comparative "
        "Political Econom.pdf")


def test_a_file_attachment_beside_a_web_address_leaves_the_address_the_url() -> None:
    (article,) = read(JOURNAL_ARTICLE)
    assert article.get("URL") == "http://www.ncbi.nlm.nih.gov/pubmed/25647015"
    assert article.extra["endnote-xml.urls/pdf-urls/url"].startswith("file://localhost/")


def test_mendeleys_internal_pdf_link_among_the_urls_does_not_replace_the_url() -> None:
    (article,) = read(MENDELEY)
    assert article.get("URL") == "https://www.vldb.org/pvldb/vol15/p85-sun.pdf"
    assert article.extra["endnote-xml.urls/pdf-urls/url"] == (
        "internal-pdf://Sun 2021 Learned cardinality estimation.pdf")


def test_attachments_are_written_back_as_pdf_urls() -> None:
    out = io.StringIO()
    endnote_xml.WRITER.write(read(JOURNAL_ARTICLE), out, WriteOptions())
    (again,) = read(out.getvalue())
    assert "<pdf-urls>" in out.getvalue()
    assert again.extra == read(JOURNAL_ARTICLE)[0].extra
    assert (again.get("URL"), again.get("ISSN")) == (
        "http://www.ncbi.nlm.nih.gov/pubmed/25647015", "1532-1827 (Electronic)")


# Zotero's EndNote XML case 01, record 4: a Book whose names are its secondary authors.
BOOK_SECONDARY_AUTHORS = records("""
<record>
  <ref-type name="Book">1</ref-type>
  <contributors>
    <secondary-authors>
      <author>Hancké, Bob</author>
      <author>Rhodes, Martin</author>
      <author>Thatcher, Mark</author>
    </secondary-authors>
  </contributors>
  <titles>
    <title>Beyond varieties of capitalism : Conflict, contradiction, and complementarities in the European economy</title>
  </titles>
  <dates><year>2007</year></dates>
  <publisher>Oxford University Press</publisher>
</record>""")


def test_a_books_secondary_authors_are_its_series_editors() -> None:
    (book,) = read(BOOK_SECONDARY_AUTHORS)
    assert dict(book.names) == {"collection-editor": (
        Name(family="Hancké", given="Bob"), Name(family="Rhodes", given="Martin"),
        Name(family="Thatcher", given="Mark"))}


def test_a_books_tertiary_authors_are_its_editors() -> None:
    (book,) = read(BOOK_SECONDARY_AUTHORS.replace("secondary-authors", "tertiary-authors"))
    assert list(book.names) == ["editor"]


def test_a_book_section_keeps_its_secondary_authors_as_editors() -> None:
    (chapter,) = read(BOOK_SECONDARY_AUTHORS.replace('name="Book">1', 'name="Book Section">5'))
    assert list(chapter.names) == ["editor"]


def test_an_edited_books_authors_are_editors_and_secondary_authors_series_editors() -> None:
    edited = BOOK_SECONDARY_AUTHORS.replace('name="Book">1', 'name="Edited Book">28').replace(
        "<contributors>", "<contributors><authors><author>Hall, Peter A</author></authors>")
    (book,) = read(edited)
    assert (book.names["editor"], len(book.names["collection-editor"])) == (
        (Name(family="Hall", given="Peter A"),), 3)


def test_a_books_editors_and_series_editors_are_written_where_they_read_back() -> None:
    (book,) = read(BOOK_SECONDARY_AUTHORS)
    with_editor = book.replace(names={**book.names, "editor": (Name(family="Hall", given="P"),)})
    out = io.StringIO()
    endnote_xml.WRITER.write([with_editor], out, WriteOptions())
    (again,) = read(out.getvalue())
    written = out.getvalue()
    assert written.index("<secondary-authors>") < written.index("Hancké") < written.index(
        "<tertiary-authors>") < written.index("Hall, P")
    assert dict(again.names) == dict(with_editor.names)
