"""Zotero RDF reader: a user's own Zotero export becomes records for every other command."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.zotero.rdf import READER, parse_date
from refbridge.model import Date, DateParts, Eprint, Name, Record

#: The shape of Zotero's "Export Library… → Zotero RDF": flat nodes joined by rdf:resource.
ZOTERO_EXPORT = """<rdf:RDF
 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
 xmlns:z="http://www.zotero.org/namespaces/export#"
 xmlns:dcterms="http://purl.org/dc/terms/"
 xmlns:bib="http://purl.org/net/biblio#"
 xmlns:foaf="http://xmlns.com/foaf/0.1/"
 xmlns:link="http://purl.org/rss/1.0/modules/link/"
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:prism="http://prismstandard.org/namespaces/1.2/basic/">
    <bib:Article rdf:about="https://doi.org/10.1093/comjnl/27.2.97">
        <z:itemType>journalArticle</z:itemType>
        <dcterms:isPartOf rdf:resource="urn:issn:0010-4620"/>
        <bib:authors>
            <rdf:Seq>
                <rdf:li>
                    <foaf:Person>
                        <foaf:surname>Knuth</foaf:surname>
                        <foaf:givenName>Donald E.</foaf:givenName>
                    </foaf:Person>
                </rdf:li>
            </rdf:Seq>
        </bib:authors>
        <dcterms:isReferencedBy rdf:resource="#item_13"/>
        <link:link rdf:resource="#item_12"/>
        <dc:subject>programming</dc:subject>
        <dc:subject>
           <z:AutomaticTag>
              <rdf:value>TeX</rdf:value>
           </z:AutomaticTag>
        </dc:subject>
        <dc:title>Literate Programming</dc:title>
        <dcterms:abstract>The structure of a program may be thought of as a web.</dcterms:abstract>
        <dc:date>February 1984</dc:date>
        <z:language>en</z:language>
        <z:libraryCatalog>Silverchair</z:libraryCatalog>
        <dc:identifier>
            <dcterms:URI>
                <rdf:value>https://academic.oup.com/comjnl/article/27/2/97/343244</rdf:value>
            </dcterms:URI>
        </dc:identifier>
        <bib:pages>97-111</bib:pages>
        <dc:description>original-date: 1983-05</dc:description>
    </bib:Article>
    <bib:Journal rdf:about="urn:issn:0010-4620">
        <prism:volume>27</prism:volume>
        <dc:title>The Computer Journal</dc:title>
        <prism:number>2</prism:number>
        <dc:identifier>DOI 10.1093/comjnl/27.2.97</dc:identifier>
        <dc:identifier>ISSN 0010-4620</dc:identifier>
    </bib:Journal>
    <z:Attachment rdf:about="#item_12">
        <z:itemType>attachment</z:itemType>
        <dc:title>Full Text PDF</dc:title>
    </z:Attachment>
    <bib:Memo rdf:about="#item_13">
        <rdf:value>&lt;p&gt;Read in 2024.&lt;/p&gt;</rdf:value>
    </bib:Memo>
    <rdf:Description rdf:about="#item_20">
        <z:itemType>preprint</z:itemType>
        <dc:publisher>
            <foaf:Organization>
                <foaf:name>arXiv</foaf:name>
            </foaf:Organization>
        </dc:publisher>
        <bib:authors>
            <rdf:Seq>
                <rdf:li><foaf:Person><foaf:surname>van Gogh</foaf:surname>
                    <foaf:givenName>Vincent, Jr.</foaf:givenName></foaf:Person></rdf:li>
                <rdf:li><foaf:Person><foaf:surname>ATLAS Collaboration</foaf:surname>
                    </foaf:Person></rdf:li>
            </rdf:Seq>
        </bib:authors>
        <dc:subject>cs.DB</dc:subject>
        <dc:subject>Databases</dc:subject>
        <dc:subject>query engines</dc:subject>
        <dc:title>SpecDB</dc:title>
        <dc:date>2026-01-15</dc:date>
        <prism:number>arXiv:2601.00001</prism:number>
    </rdf:Description>
    <z:Collection rdf:about="#collection_3">
        <dc:title>Reading</dc:title>
        <dcterms:hasPart rdf:resource="https://doi.org/10.1093/comjnl/27.2.97"/>
    </z:Collection>
</rdf:RDF>
"""


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(READER.read(io.StringIO(text), "My Library.rdf", diagnostics or Diagnostics()))


def test_a_zotero_journal_article_reads_into_the_model() -> None:
    record = read(ZOTERO_EXPORT)[0]
    assert record.type == "article-journal"
    assert dict(record.fields) == {
        "title": "Literate Programming",
        "abstract": "The structure of a program may be thought of as a web.",
        "container-title": "The Computer Journal", "volume": "27", "issue": "2",
        "page": "97-111", "DOI": "10.1093/comjnl/27.2.97", "ISSN": "0010-4620",
        "URL": "https://academic.oup.com/comjnl/article/27/2/97/343244", "language": "en",
        "source": "Silverchair"}
    assert record.authors == (Name(family="Knuth", given="Donald E."),)
    assert record.dates == {"issued": Date(start=DateParts(1984, 2)),
                            "original-date": Date(start=DateParts(1983, 5))}
    assert record.keywords == ("programming", "TeX")
    assert dict(record.extra) == {"zotero.notes": "<p>Read in 2024.</p>"}
    assert record.source is not None and record.source.line == 10


def test_a_zotero_preprint_becomes_an_arxiv_eprint_with_its_categories() -> None:
    record = read(ZOTERO_EXPORT)[1]
    assert record.type == "article"
    assert record.eprint == Eprint("arXiv", "2601.00001", "cs.DB")
    assert record.keywords == ("query engines",)
    assert dict(record.fields) == {"title": "SpecDB"}
    assert record.authors == (
        Name(family="Gogh", given="Vincent", non_dropping_particle="van", suffix="Jr."),
        Name(literal="ATLAS Collaboration"))


def test_an_item_without_a_key_reads_without_one_when_extra_holds_data() -> None:
    record = read(ZOTERO_EXPORT)[0]  # its Extra holds original-date
    assert (record.citation_key, record.id) == (None, "zotero1")


def test_better_bibtex_citation_key_in_extra_is_the_key() -> None:
    text = ZOTERO_EXPORT.replace("<dc:description>original-date: 1983-05</dc:description>",
                                 "<dc:description>Citation Key: knuth1984literate\n"
                                 "original-date: 1983-05\nRead twice.</dc:description>")
    record = read(text)[0]
    assert (record.citation_key, record.id) == ("knuth1984literate", "knuth1984literate")
    assert record.get("note") == "Read twice."


def test_the_citation_key_field_wins_over_a_different_key_in_extra() -> None:
    text = ZOTERO_EXPORT.replace(
        "<dc:description>original-date: 1983-05</dc:description>",
        "<z:citationKey>knuth84</z:citationKey>"
        "<dc:description>Citation Key: knuth1984literate</dc:description>")
    record = read(text)[0]
    assert record.citation_key == "knuth84"
    assert record.get("note") == "Citation Key: knuth1984literate"


def test_attachments_are_reported_not_read_as_records() -> None:
    diagnostics = Diagnostics()
    assert len(read(ZOTERO_EXPORT, diagnostics)) == 2
    assert [str(m) for m in diagnostics.messages] == [
        "My Library.rdf:51: warning: Zotero attachment items are not records; skipped"]


def test_zotero_date_texts() -> None:
    assert parse_date("17 Feb 1984") == Date(start=DateParts(1984, 2, 17))
    assert parse_date("February 17, 1984") == Date(start=DateParts(1984, 2, 17))
    assert parse_date("1984/02/17") == Date(start=DateParts(1984, 2, 17))
    assert parse_date("1984-13") == Date(literal="1984-13")
    assert parse_date("Spring 1999") == Date(start=DateParts(1999), season=1)
    assert parse_date("18th century") == Date(literal="18th century")


def test_malformed_xml_is_an_error_naming_file_and_line() -> None:
    with pytest.raises(ParseError, match=r"^My Library\.rdf:3:\d+: not well-formed XML"):
        read('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
             "<rdf:Description>\n<dc:title>x</rdf:Description></rdf:RDF>")


def test_a_document_type_declaration_is_refused_so_no_entity_is_expanded() -> None:
    text = ('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
            + ZOTERO_EXPORT.replace("<dc:title>SpecDB", "<dc:title>&x;SpecDB"))
    with pytest.raises(ParseError, match="document type declaration is not allowed"):
        read(text)


def test_an_unknown_item_type_reads_as_a_document_with_a_warning() -> None:
    diagnostics = Diagnostics()
    text = ZOTERO_EXPORT.replace("<z:itemType>preprint", "<z:itemType>hologram")
    assert read(text, diagnostics)[1].type == "document"
    assert any("unknown Zotero item type 'hologram'" in str(m) for m in diagnostics.messages)


def test_the_reader_recognises_zotero_rdf() -> None:
    assert READER.sniff(ZOTERO_EXPORT[:600])
    assert not READER.sniff('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">')


@given(st.text(max_size=200))
def test_any_text_is_records_or_a_parse_error(text: str) -> None:
    try:
        records = read(text)
    except ParseError as exc:
        assert exc.file == "My Library.rdf"
    else:
        assert records == []


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40))
def test_any_field_text_in_a_zotero_export_reads(value: str) -> None:
    from xml.sax.saxutils import escape

    text = ZOTERO_EXPORT.replace("<dc:title>SpecDB</dc:title>",
                                 f"<dc:title>{escape(value)}</dc:title>")
    try:
        records = read(text)
    except ParseError:
        return  # characters XML 1.0 forbids make the file not well-formed
    assert len(records) == 2


def test_better_bibtex_lines_in_extra_give_the_key_and_bib_fields() -> None:
    rdf = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
           'xmlns:z="http://www.zotero.org/namespaces/export#" '
           'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:bib="http://purl.org/net/biblio#">'
           '<bib:Book rdf:about="#item_1"><z:itemType>book</z:itemType>'
           '<dc:title>The TeXbook</dc:title>'
           '<dc:description>Citation Key: knuth:texbook\ntex.howpublished: Softcover\n'
           'tex.profile-owner: Donald E. Knuth\nFirst printing.</dc:description>'
           '</bib:Book></rdf:RDF>')
    (record,) = READER.read(io.StringIO(rdf), "lib.rdf", Diagnostics(strict=True))
    assert (record.citation_key, record.get("note"), dict(record.extra)) == (
        "knuth:texbook", "First printing.",
        {"bibtex.howpublished": "Softcover", "profile.owner": "Donald E. Knuth"})
