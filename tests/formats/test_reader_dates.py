"""Each reader reads the free-text dates its format holds through the one date reader: the
shapes that showed each reader leaving common dates literal, read to their parts, and the
warning (file and line) for a date that stays literal."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.model import Date, DateParts, Record
from refbridge.registry import get_reader


def read(format_name: str, text: str, source: str) -> tuple[list[Record], list[str]]:
    diagnostics = Diagnostics()
    records = list(get_reader(format_name).read(io.StringIO(text), source, diagnostics))
    return records, [str(m) for m in diagnostics.messages]


def zotero_rdf(date: str) -> str:
    """A Zotero RDF export of one journal article with the given ``dc:date``."""
    return f"""<rdf:RDF
 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
 xmlns:z="http://www.zotero.org/namespaces/export#"
 xmlns:bib="http://purl.org/net/biblio#"
 xmlns:dc="http://purl.org/dc/elements/1.1/">
    <bib:Article rdf:about="#item_1">
        <z:itemType>journalArticle</z:itemType>
        <dc:title>Groundwater recharge in semi-arid basins</dc:title>
        <dc:date>{date}</dc:date>
    </bib:Article>
</rdf:RDF>
"""


def test_zotero_rdf_reads_a_month_and_year_written_with_a_slash() -> None:
    (record,), messages = read("zotero", zotero_rdf("12/2009"), "group.rdf")
    assert record.dates["issued"] == Date(start=DateParts(2009, 12))
    assert messages == []


def test_zotero_rdf_reads_an_ordinal_day_and_a_season() -> None:
    (first,), _ = read("zotero", zotero_rdf("20th February 2020"), "group.rdf")
    (second,), _ = read("zotero", zotero_rdf("Spring 2021"), "group.rdf")
    assert first.dates["issued"] == Date(start=DateParts(2020, 2, 20))
    assert second.dates["issued"] == Date(start=DateParts(2021), season=1)


def test_zotero_rdf_keeps_an_unreadable_date_literal_with_a_warning() -> None:
    (record,), messages = read("zotero", zotero_rdf("18th century"), "group.rdf")
    assert record.dates["issued"] == Date(literal="18th century")
    assert messages == [
        "group.rdf:6: warning: date: date '18th century' not understood; kept as written"]


def test_zotero_rdf_extra_date_lines_keep_what_date_parts_cannot_say() -> None:
    text = zotero_rdf("1984").replace(
        "</bib:Article>", "    <dc:description>original-date: Spring 1983\n"
                          "event-date: 1985-1988</dc:description>\n    </bib:Article>")
    (record,), _ = read("zotero", text, "group.rdf")
    assert record.dates["original-date"] == Date(literal="Spring 1983")
    assert record.dates["event-date"] == Date(start=DateParts(1985), end=DateParts(1988))


def test_ris_reads_an_iso_date_and_a_month_name_in_da() -> None:
    records, messages = read("ris", "TY  - JOUR\nTI  - One\nDA  - 2015-10-05\nER  - \n\n"
                                    "TY  - JOUR\nTI  - Two\nDA  - October 2015\nER  - \n",
                             "export.ris")
    assert [r.dates["issued"] for r in records] == [
        Date(start=DateParts(2015, 10, 5)), Date(start=DateParts(2015, 10))]
    assert messages == []


def test_ris_reads_ebscos_year_repeated_after_the_day() -> None:
    (record,), _ = read("ris", "TY  - JOUR\nTI  - Coastal erosion\nPY  - 2020/01/01/2020\n"
                               "ER  - \n", "ebsco.ris")
    assert record.dates["issued"] == Date(start=DateParts(2020, 1, 1))
    assert "ris.PY" not in record.extra


def test_ris_completes_a_month_and_day_in_da_with_the_year_of_py() -> None:
    (record,), _ = read("ris", "TY  - JOUR\nTI  - Soil carbon\nDA  - MAY 6\nPY  - 2023\n"
                               "ER  - \n", "wos.ris")
    assert record.dates["issued"] == Date(start=DateParts(2023, 5, 6))
    assert "ris.PY" not in record.extra


def test_ris_keeps_an_unreadable_date_literal_with_a_warning() -> None:
    (record,), messages = read("ris", "TY  - ELEC\nTI  - Site\nY2  - last week\nER  - \n",
                               "export.ris")
    assert record.dates["accessed"] == Date(literal="last week")
    assert messages == [
        "export.ris:3: warning: Y2: date 'last week' not understood; kept as written"]


def test_medline_reads_dp_with_the_month_before_or_after_the_year() -> None:
    records, messages = read("nbib", "PMID- 2181145\nTI  - Cardiac output.\nDP  - Apr 1990\n\n"
                                     "PMID- 2181146\nTI  - Renal flow.\nDP  - 1990 Apr\n",
                             "pubmed.nbib")
    assert [r.dates["issued"] for r in records] == [Date(start=DateParts(1990, 4))] * 2
    assert messages == []


def test_medline_reads_a_dp_range_across_years() -> None:
    (record,), _ = read("nbib", "PMID- 11111111\nTI  - Winter issue.\nDP  - 2000 Dec-2001 Jan\n",
                        "pubmed.nbib")
    assert record.dates["issued"] == Date(start=DateParts(2000, 12), end=DateParts(2001, 1))


def test_pubmed_xml_reads_a_medline_date_range() -> None:
    text = """<?xml version="1.0"?>
<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>9999999</PMID><Article>
<Journal><JournalIssue><PubDate><MedlineDate>1998 Dec-1999 Jan</MedlineDate></PubDate>
</JournalIssue><Title>J Test</Title></Journal><ArticleTitle>A trial.</ArticleTitle>
</Article></MedlineCitation></PubmedArticle></PubmedArticleSet>
"""
    (record,), _ = read("pubmed-xml", text, "pubmed.xml")
    assert record.dates["issued"] == Date(start=DateParts(1998, 12), end=DateParts(1999, 1))


def test_endnote_reads_a_whole_date_in_the_year_tag() -> None:
    (record,), messages = read("endnote", "%0 Journal Article\n%T Tidal energy\n%D 12/2009\n",
                               "library.enw")
    assert record.dates["issued"] == Date(start=DateParts(2009, 12))
    assert messages == []


def test_endnote_reads_a_date_tag_with_a_range_of_days() -> None:
    (record,), _ = read("endnote", "%0 Conference Proceedings\n%T Sensor networks\n%D 2019\n"
                                   "%8 May 5-7\n", "library.enw")
    assert record.dates["issued"] == Date(start=DateParts(2019, 5, 5), end=DateParts(2019, 5, 7))


def test_endnote_xml_reads_an_iso_date_in_pub_dates() -> None:
    text = """<?xml version="1.0" encoding="UTF-8"?>
<xml><records><record><ref-type name="Journal Article">17</ref-type>
<titles><title>Wind loads</title></titles>
<dates><year>2018</year><pub-dates><date>2018-2-12</date></pub-dates></dates>
</record></records></xml>
"""
    (record,), _ = read("endnote-xml", text, "library.xml")
    assert record.dates["issued"] == Date(start=DateParts(2018, 2, 12))


def test_web_of_science_reads_a_season_and_a_month_range_in_pd() -> None:
    records, _ = read("wos", "FN Clarivate Analytics Web of Science\nVR 1.0\n"
                             "PT J\nTI Ice cores\nPD SPR\nPY 2011\nER\n\n"
                             "PT J\nTI Sea ice\nPD JAN-FEB\nPY 2012\nER\nEF\n", "savedrecs.txt")
    assert [r.dates["issued"] for r in records] == [
        Date(start=DateParts(2011), season=1),
        Date(start=DateParts(2012, 1), end=DateParts(2012, 2))]


def test_word_xml_reads_a_month_name_in_another_language() -> None:
    text = """<?xml version="1.0"?>
<b:Sources xmlns:b="http://schemas.openxmlformats.org/officeDocument/2006/bibliography">
<b:Source><b:Tag>Mei16</b:Tag><b:SourceType>JournalArticle</b:SourceType>
<b:Title>Dijken</b:Title><b:Year>2016</b:Year><b:Month>mei</b:Month><b:Day>1</b:Day>
</b:Source></b:Sources>
"""
    (record,), messages = read("word-xml", text, "Sources.xml")
    assert record.dates["issued"] == Date(start=DateParts(2016, 5, 1))
    assert messages == []


def test_word_xml_keeps_an_unreadable_month_literal_with_a_warning() -> None:
    text = """<?xml version="1.0"?>
<b:Sources xmlns:b="http://schemas.openxmlformats.org/officeDocument/2006/bibliography">
<b:Source><b:Tag>X</b:Tag><b:SourceType>JournalArticle</b:SourceType>
<b:Title>Dijken</b:Title><b:Year>2016</b:Year><b:Month>Q3</b:Month>
</b:Source></b:Sources>
"""
    (record,), messages = read("word-xml", text, "Sources.xml")
    assert record.dates["issued"] == Date(literal="Q3 2016")
    assert messages == [("Sources.xml:3: warning: Year/Month/Day: date 'Q3 2016' not "
                        "understood; kept as written")]


def test_mods_reads_a_range_in_one_date_issued() -> None:
    text = """<?xml version="1.0"?>
<modsCollection xmlns="http://www.loc.gov/mods/v3"><mods ID="a1">
<titleInfo><title>Field notes</title></titleInfo>
<originInfo><dateIssued>1985-1988</dateIssued></originInfo>
</mods></modsCollection>
"""
    (record,), _ = read("mods", text, "records.xml")
    assert record.dates["issued"] == Date(start=DateParts(1985), end=DateParts(1988))


def test_google_scholar_csv_keeps_a_year_it_cannot_read_with_a_warning() -> None:
    text = ("Authors,Title,Publication,Volume,Number,Pages,Year,Publisher\n"
            '"Sun, Ji",Learned estimation,VLDB,15,1,85-97,forthcoming,\n'
            '"Li, Guoliang",Query plans,VLDB,,,,2019 (submitted),\n')
    records, messages = read("google-scholar-csv", text, "citations.csv")
    assert [r.dates.get("issued") for r in records] == [
        Date(literal="forthcoming"), Date(literal="2019 (submitted)")]
    assert messages == [("citations.csv:3: warning: Year: date '2019 (submitted)' not "
                        "understood; kept as written")]


def test_medline_writes_a_winter_issue_as_winter() -> None:
    from refbridge.formats.tagged.medline import format_date

    assert format_date(Date(start=DateParts(2019), season=4)) == "2019 Winter"
    assert format_date(Date(start=DateParts(2019), season=3)) == "2019 Fall"


def test_zotero_rdf_writes_ranges_seasons_and_circa_as_date_text_it_reads_back() -> None:
    from refbridge.formats.zotero.rdf import format_date, parse_date

    dates = {"1985/1988": Date(start=DateParts(1985), end=DateParts(1988)),
             "2010-09/2010-10": Date(start=DateParts(2010, 9), end=DateParts(2010, 10)),
             "Spring 2021": Date(start=DateParts(2021), season=1),
             "ca. 1850": Date(start=DateParts(1850), circa=True)}
    assert {text: parse_date(text) for text in map(format_date, dates.values()) if text} == dates
    assert format_date(Date(start=DateParts(-44), circa=True)) is None  # "ca. -0044" says no date


def test_zotero_rdf_leaves_a_backwards_range_to_extra() -> None:
    from refbridge.formats.zotero.rdf import format_date

    assert format_date(Date(start=DateParts(2000, 5), end=DateParts(2000, 3))) is None
