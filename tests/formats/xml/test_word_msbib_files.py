"""Word bibliography XML as JabRef's MS Office export writes it (JabRef's MsBib test files):
standard numbers with their kind, the place in three parts, locale ids, JabRef's BibTeX
extension elements."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.formats.xml import word
from refbridge.model import Name, Record
from refbridge.registry import WriteOptions

OPEN = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<b:Sources xmlns:b="http://schemas.openxmlformats.org/officeDocument/2006/'
        'bibliography" xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
        'bibliography" SelectedStyle="">\n')

# JabRef's MsBibImporterTest4.xml.
SECTION = OPEN + """\
<b:Source>
<b:SourceType>BookSection</b:SourceType>
<b:Tag>raey</b:Tag>
<b:LCID>0</b:LCID>
<b:Title>Agile Entwicklung Web-basierter Systeme</b:Title>
<b:Year>2002</b:Year>
<b:Pages>237-248</b:Pages>
<b:Volume>44</b:Volume>
<b:StandardNumber>:ISSN:0937-6429</b:StandardNumber>
<b:Publisher>Gabler Verlag</b:Publisher>
<b:JournalName>Wirtschaftsinformatik</b:JournalName>
<b:Issue>3</b:Issue>
<b:URL>http://dx.doi.org/10.1007/BF03250842</b:URL>
<b:BIBTEX_KeyWords>software development processes; agile software development environments; time-to-market; Extreme Programming; Crystal methods family; Adaptive Software Development</b:BIBTEX_KeyWords>
</b:Source>
</b:Sources>
"""

# JabRef's MsBibMultiLocationAddressTest.xml.
PLACE = OPEN + """\
<b:Source>
<b:BIBTEX_Entry>inproceedings</b:BIBTEX_Entry>
<b:SourceType>ConferenceProceedings</b:SourceType>
<b:Tag>LocationTest</b:Tag>
<b:Author><b:Author><b:NameList><b:Person><b:Last>LocationTest</b:Last></b:Person></b:NameList></b:Author></b:Author>
<b:City>Stroudsburg</b:City>
<b:StateProvince>PA</b:StateProvince>
<b:CountryRegion>USA</b:CountryRegion>
</b:Source>
</b:Sources>
"""


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(word.READER.read(io.StringIO(text), "Sources.xml", diagnostics or Diagnostics()))


def test_a_standard_number_with_its_kind_is_that_identifier() -> None:
    (section,) = read(SECTION)
    assert section.get("ISSN") == "0937-6429"
    assert not {"ISBN", "number"} & section.fields.keys()


def test_a_standard_number_of_another_kind_is_kept_with_its_kind() -> None:
    # JabRef's MsBibImporterTest5.xml: an MR number.
    (report,) = read(SECTION.replace(":ISSN:0937-6429", ":MRN:0937-6429"))
    assert report.extra["word.StandardNumber_MRN"] == "0937-6429"
    assert not {"ISBN", "ISSN"} & report.fields.keys()


def test_jabrefs_keywords_element_gives_the_keywords() -> None:
    (section,) = read(SECTION)
    assert section.keywords == (
        "software development processes", "agile software development environments",
        "time-to-market", "Extreme Programming", "Crystal methods family",
        "Adaptive Software Development")
    assert "word.BIBTEX_KeyWords" not in section.extra


def test_locale_id_zero_is_no_language_and_is_kept() -> None:
    (section,) = read(SECTION)
    assert "language" not in section.fields
    assert section.extra["word.LCID"] == "0"


def test_a_locale_id_is_its_language_and_is_written_back_as_the_id() -> None:
    (section,) = read(SECTION.replace("<b:LCID>0</b:LCID>", "<b:LCID>1031</b:LCID>"))
    assert section.get("language") == "de-DE"
    out = io.StringIO()
    word.WRITER.write([section], out, WriteOptions())
    assert "<b:LCID>1031</b:LCID>" in out.getvalue()


def test_city_state_and_country_are_one_place() -> None:
    (paper,) = read(PLACE)
    assert paper.get("publisher-place") == "Stroudsburg, PA, USA"
    assert paper.authors == (Name(family="LocationTest"),)
    assert paper.extra == {"word.BIBTEX_Entry": "inproceedings"}


def test_an_unknown_contributor_role_is_reported_and_read_as_a_contributor() -> None:
    diagnostics = Diagnostics()
    (paper,) = read(PLACE.replace("<b:Author><b:Author>", "<b:Author><b:Moderator>")
                    .replace("</b:Author></b:Author>", "</b:Moderator></b:Author>"),
                    diagnostics)
    assert paper.names == {"contributor": (Name(family="LocationTest"),)}
    assert [m.message for m in diagnostics.messages] == [
        "unknown Word contributor role <Moderator>, read as a contributor"]
