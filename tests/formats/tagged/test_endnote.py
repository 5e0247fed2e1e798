"""EndNote's tagged export (.enw) and XML export: specimens laid out as EndNote and Google
Scholar write them read to the records a person sees; refbridge's own output follows EndNote's
conventions (reference type names and numbers, style runs, corporate names with a comma)."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.formats.tagged import endnote
from refbridge.formats.xml import endnote as endnote_xml
from refbridge.model import Date, DateParts, Name, Record
from refbridge.registry import WriteOptions
from refbridge.richtext import Style, Styled, rich

#: As Google Scholar's "Import into EndNote" link and EndNote's own export write it.
ENW = """\
%0 Journal Article
%T Learned cardinality estimation: a design space exploration and a comparative evaluation
%A Sun, Ji
%A Zhang, Jintao
%A van der Berg, Jan
%A World Health Organization,
%J Proceedings of the VLDB Endowment
%V 15
%N 1
%P 85-97
%@ 2150-8097
%D 2021
%8 September
%R 10.14778/3485450.3485459
%U https://doi.org/10.14778/3485450.3485459
%K cardinality estimation
%K query optimization
%X Cardinality estimation is core to query optimization.
The learned estimators are compared on real data.
%I VLDB Endowment
%F sun2021learned

%0 Book Section
%A Knuth, Donald E.
%E Doe, Jane
%T Literate programming
%B Literate Programming
%C Stanford
%I CSLI
%D 1992
%P 99-136
%7 2
"""

ENDNOTE_XML = """\
<?xml version="1.0" encoding="UTF-8" ?><xml><records><record><database name="My Library.enl" path="C:\\My Library.enl">My Library.enl</database><source-app name="EndNote" version="20.0">EndNote</source-app><rec-number>12</rec-number><foreign-keys><key app="EN" db-id="x9a0">12</key></foreign-keys><ref-type name="Journal Article">17</ref-type><contributors><authors><author><style face="normal" font="default" size="100%">Sun, Ji</style></author><author><style face="normal" font="default" size="100%">Li, Guoliang</style></author></authors></contributors><titles><title><style face="normal" font="default" size="100%">Growth of </style><style face="italic" font="default" size="100%">E. coli</style><style face="normal" font="default" size="100%"> at 10</style><style face="superscript" font="default" size="100%">6</style><style face="normal" font="default" size="100%"> cells</style></title><secondary-title><style face="normal" font="default" size="100%">Nature Methods</style></secondary-title></titles><periodical><full-title><style face="normal" font="default" size="100%">Nature Methods</style></full-title><abbr-1><style face="normal" font="default" size="100%">Nat. Methods</style></abbr-1></periodical><pages><style face="normal" font="default" size="100%">101-108</style></pages><volume><style face="normal" font="default" size="100%">18</style></volume><number><style face="normal" font="default" size="100%">2</style></number><keywords><keyword><style face="normal" font="default" size="100%">microbiology</style></keyword><keyword><style face="normal" font="default" size="100%">imaging</style></keyword></keywords><dates><year><style face="normal" font="default" size="100%">2021</style></year><pub-dates><date><style face="normal" font="default" size="100%">Feb 15</style></date></pub-dates></dates><isbn><style face="normal" font="default" size="100%">1548-7091</style></isbn><accession-num><style face="normal" font="default" size="100%">33456789</style></accession-num><abstract><style face="normal" font="default" size="100%">We grow bacteria.</style></abstract><auth-address><style face="normal" font="default" size="100%">Tsinghua University</style></auth-address><electronic-resource-num><style face="normal" font="default" size="100%">10.1038/s41592-020-01000-1</style></electronic-resource-num><urls><related-urls><url><style face="normal" font="default" size="100%">https://www.nature.com/articles/s41592</style></url></related-urls></urls><language><style face="normal" font="default" size="100%">eng</style></language></record></records></xml>
"""


def read_enw(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(endnote.READER.read(io.StringIO(text), "refs.enw",
                                    diagnostics or Diagnostics(strict=True)))


def test_a_google_scholar_enw_reads_to_the_article_a_person_sees() -> None:
    article, _ = read_enw(ENW)
    assert article.type == "article-journal"
    assert article.citation_key == "sun2021learned"
    assert [n.display() for n in article.authors] == [
        "Ji Sun", "Jintao Zhang", "Jan van der Berg", "World Health Organization"]
    assert article.authors[2] == Name(family="Berg", given="Jan", non_dropping_particle="van der")
    assert article.authors[3] == Name(literal="World Health Organization")
    assert dict(article.fields) == {
        "title": "Learned cardinality estimation: a design space exploration and a "
                 "comparative evaluation",
        "container-title": "Proceedings of the VLDB Endowment", "volume": "15", "issue": "1",
        "page": "85-97", "ISSN": "2150-8097", "DOI": "10.14778/3485450.3485459",
        "URL": "https://doi.org/10.14778/3485450.3485459", "publisher": "VLDB Endowment",
        "abstract": "Cardinality estimation is core to query optimization.\n"
                    "The learned estimators are compared on real data."}
    assert article.dates == {"issued": Date(start=DateParts(2021, 9))}
    assert article.keywords == ("cardinality estimation", "query optimization")


def test_a_book_section_has_its_book_editor_and_edition() -> None:
    _, chapter = read_enw(ENW)
    assert chapter.type == "chapter"
    assert chapter.names["editor"] == (Name(family="Doe", given="Jane"),)
    assert (chapter.get("container-title"), chapter.get("publisher-place"),
            chapter.get("publisher"), chapter.get("edition"), chapter.year) == (
        "Literate Programming", "Stanford", "CSLI", "2", 1992)


def test_an_unknown_reference_type_is_a_document_with_a_warning() -> None:
    diagnostics = Diagnostics()
    (record,) = read_enw("%0 Hologram\n%T Light\n", diagnostics)
    assert record.type == "document"
    assert [str(m) for m in diagnostics.messages] == [
        ("refs.enw:1: warning: unknown EndNote reference type 'Hologram', read as a generic "
        "document")]


def test_the_writer_uses_endnote_type_names_and_marks_corporate_names() -> None:
    (article, _) = read_enw(ENW)
    text = endnote.format_record(article)
    assert text.splitlines()[:6] == [
        "%0 Journal Article",
        ("%T Learned cardinality estimation: a design space exploration and a comparative "
        "evaluation"),
        "%A Sun, Ji", "%A Zhang, Jintao", "%A van der Berg, Jan", "%A World Health Organization,"]
    assert "%Z refbridge:" not in text  # EndNote's own tags hold all of it


def test_what_endnote_has_no_tag_for_travels_in_one_note() -> None:
    record = Record(id="k", type="article-journal", fields={"title": "T"}, citation_key="k",
                    names={"author": (Name(family="Qian", given="Z"),)},
                    dates={"issued": Date(start=DateParts(2001), end=DateParts(2003))})
    text = endnote.format_record(record)
    assert text.splitlines()[-1] == ('%Z refbridge: {"issued": {"date-parts": [[2001], '
                                     '[2003]]}}')
    (back,) = read_enw(text)
    assert back.dates == record.dates


def test_endnote_xml_reads_style_runs_as_rich_text() -> None:
    (record,) = endnote_xml.READER.read(io.StringIO(ENDNOTE_XML), "lib.xml",
                                        Diagnostics(strict=True))
    assert record.fields["title"] == rich([
        "Growth of ", Styled(Style.ITALIC, ("E. coli",)), " at 10",
        Styled(Style.SUPERSCRIPT, ("6",)),
        " cells"])
    assert record.type == "article-journal"
    assert [n.display() for n in record.authors] == ["Ji Sun", "Guoliang Li"]
    assert {k: record.get(k) for k in ("container-title", "container-title-short", "volume",
                                       "issue", "page", "ISSN", "DOI", "URL", "abstract",
                                       "language", "archive_location")} == {
        "container-title": "Nature Methods", "container-title-short": "Nat. Methods",
        "volume": "18", "issue": "2", "page": "101-108", "ISSN": "1548-7091",
        "DOI": "10.1038/s41592-020-01000-1", "URL": "https://www.nature.com/articles/s41592",
        "abstract": "We grow bacteria.", "language": "eng", "archive_location": "33456789"}
    assert record.dates == {"issued": Date(start=DateParts(2021, 2, 15))}
    assert record.keywords == ("microbiology", "imaging")
    assert dict(record.extra) == {"endnote-xml.auth-address": "Tsinghua University"}


def test_endnote_xml_is_written_with_type_numbers_and_style_runs() -> None:
    (record,) = endnote_xml.READER.read(io.StringIO(ENDNOTE_XML), "lib.xml", Diagnostics())
    out = io.StringIO()
    endnote_xml.WRITER.write([record], out, WriteOptions())
    text = out.getvalue()
    assert '<ref-type name="Journal Article">17</ref-type>' in text
    assert ('<style face="italic" font="default" size="100%">E. coli</style>'
            '<style face="normal" font="default" size="100%"> at 10</style>'
            '<style face="superscript" font="default" size="100%">6</style>') in text
    assert ('<auth-address><style face="normal" font="default" size="100%">Tsinghua '
            'University</style></auth-address>') in text
    (back,) = endnote_xml.READER.read(io.StringIO(text), "out.xml", Diagnostics(strict=True))
    assert back.replace(source=None) == record.replace(source=None)


# -- other programs' tagged files: JabRef's importer fixtures, Zotero's Refer/BibIX cases --------

def messages(diagnostics: Diagnostics) -> list[str]:
    return [str(m) for m in diagnostics.messages]


def test_a_second_type_line_starts_another_record() -> None:
    # JabRef's Endnote.entries.enw: records one after the other, no blank line between them.
    diagnostics = Diagnostics()
    found = read_enw("%0\n%A testA0\n%A testA1\n%E testE0\n%E testE1\n%T testT\n"
                     "%0 Journal\n%B testB0\n%0 Book\n%B testB1\n%I testI0\n", diagnostics)
    assert [(r.type, r.title, r.get("container-title")) for r in found] == [
        ("document", "testT", None), ("article-journal", None, "testB0"),
        ("book", None, "testB1")]
    assert [n.family for n in found[0].authors] == ["testA0", "testA1"]
    assert found[2].get("publisher") == "testI0"
    assert messages(diagnostics) == []


def test_a_type_line_another_follows_at_once_is_no_record() -> None:
    # Zotero's Refer/BibIX case 04: a library catalogue's record with two %0 lines.
    diagnostics = Diagnostics()
    (record,) = read_enw(
        "%0 Serial\n%0 Audio\n%I Studio Omega, Verein für Christliche Radioarbeit\n"
        "%D 2021\n%C Wien\n%G German\n%T Diesseits von Eden: der Podcast der katholischen "
        "Fakultäten Österreichs & Südtirols\n%U https://diesseits.theopodcast.at/home\n",
        diagnostics)
    assert (record.type, record.year, record.get("publisher-place")) == ("song", 2021, "Wien")
    assert messages(diagnostics) == [
        ("refs.enw:1: warning: reference type 'Serial' without a field before the next %0: "
         "no record, skipped")]


def test_a_type_line_without_a_type_or_anything_else_is_no_record() -> None:
    # JabRef's Endnote.pattern.no_enw: one line, "%0".
    diagnostics = Diagnostics()
    assert read_enw("%0\n", diagnostics) == []
    assert messages(diagnostics) == ["refs.enw:1: warning: a record without any value is skipped"]


def test_a_record_without_a_type_line_is_typed_by_refers_tags() -> None:
    # Zotero's Refer/BibIX case 03: a publisher (%I) and no journal or book title: a book.
    diagnostics = Diagnostics()
    (record,) = read_enw(
        "%T Corn\n%A Newman, W. H.\n%I Uniontown, Ala. : Canebrake Agricultural Experiment "
        "Station\n%D 1891\n%K Corn -- Yields\n%K Corn -- Varieties\n", diagnostics)
    assert (record.type, record.title, record.year) == ("book", "Corn", 1891)
    assert messages(diagnostics) == [
        ("refs.enw:1: warning: a record without %0 (reference type) is read as a book "
         "(refer's reading of its tags)")]


def test_the_authors_of_an_edited_book_are_its_editors() -> None:
    # JabRef's ReferImporterTest.editorNameInAuthorField.
    (book,) = read_enw("%0 Edited Book\n%A testE\n%A testEL, testEF\n%A editor\n")
    assert book.type == "book"
    assert "author" not in book.names
    assert book.names["editor"] == (Name(family="testE"),
                                    Name(family="testEL", given="testEF"), Name(family="editor"))


def test_a_books_secondary_author_line_names_its_series_editor() -> None:
    # EndNote's Book labels %E (Secondary Author) "Series Editor"; %Y holds its editor.
    (book,) = read_enw("%0 Book\n%A Hall, Peter A\n%E Thatcher, Mark\n%Y Rhodes, Martin\n"
                       "%T Beyond varieties of capitalism\n")
    assert (book.names["collection-editor"], book.names["editor"]) == (
        (Name(family="Thatcher", given="Mark"),), (Name(family="Rhodes", given="Martin"),))


def test_a_books_series_editor_and_editor_are_written_back_to_their_lines() -> None:
    (book,) = read_enw("%0 Book\n%E Thatcher, Mark\n%Y Rhodes, Martin\n%T Beyond\n")
    out = io.StringIO()
    endnote.WRITER.write([book], out, WriteOptions())
    assert "%E Thatcher, Mark\n%Y Rhodes, Martin\n" in out.getvalue()


def test_the_short_type_names_jabref_writes_are_read() -> None:
    # JabRef's EndnoteImporterTest.importPreservesDiacriticalCitationKey.
    (record,) = read_enw("%0 Journal\n%A Author\n%T Title\n%F kṛṣṇā\n")
    assert (record.type, record.citation_key) == ("article-journal", "kṛṣṇā")


def test_a_value_labelled_as_a_doi_is_the_doi_before_one_that_is_not() -> None:
    # JabRef's Endnote.entries.enw: two %R lines, the second labelled "doi:".
    (thesis,) = read_enw("%0 Thesis\n%I testI1\n%R testRw\n%R doi:testR\n")
    assert thesis.get("DOI") == "doi:testR"
    assert thesis.extra["endnote.R"] == "testRw"


def test_a_labelled_doi_is_kept_bare() -> None:
    (record,) = read_enw("%0 Journal Article\n%T 参考文献管理工具研究\n"
                         "%R doi:10.3969/j.issn.1008-0821.2009.02.027\n")
    assert record.get("DOI") == "10.3969/j.issn.1008-0821.2009.02.027"


def test_endnote_xml_reads_an_edited_books_authors_as_its_editors_too() -> None:
    xml = ('<?xml version="1.0" encoding="UTF-8" ?><xml><records><record>'
           '<ref-type name="Edited Book">28</ref-type><contributors><authors>'
           '<author>Hancké, Bob</author><author>Rhodes, Martin</author></authors>'
           '</contributors><titles><title>Beyond varieties of capitalism</title></titles>'
           '<dates><year>2007</year></dates></record></records></xml>')
    (book,) = endnote_xml.READER.read(io.StringIO(xml), "lib.xml", Diagnostics(strict=True))
    assert (book.type, "author" in book.names) == ("book", False)
    assert [n.family for n in book.names["editor"]] == ["Hancké", "Rhodes"]


def test_an_access_date_without_separators_is_a_date() -> None:
    # JabRef's Endnote.book.example.enw, as the German National Library exports it.
    (book,) = read_enw("%0 Book\n%A Preißel, René\n%D 2016\n%I dpunkt.verlag\n"
                       "%T Git : dezentrale Versionsverwaltung im Team\n%[ 20151028\n"
                       "%= 20151125\n")
    assert book.dates["accessed"] == Date(start=DateParts(2015, 10, 28))
    assert book.extra["endnote.="] == "20151125"
