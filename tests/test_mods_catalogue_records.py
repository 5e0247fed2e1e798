"""MODS as library catalogues write it (excerpts of Zotero's MODS test cases): multi-part
titles, names in every form MODS gives them, roles by code and by text, and nothing a record
holds dropped without a word."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.formats.xml import mods
from refbridge.model import Date, DateParts, Name, Record

OPEN = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<mods version="3.6" xmlns="http://www.loc.gov/mods/v3">\n')


def read(body: str, diagnostics: Diagnostics | None = None) -> Record:
    (record,) = mods.READER.read(io.StringIO(OPEN + body + "</mods>\n"), "catalogue.xml",
                                 diagnostics or Diagnostics())
    return record


# Zotero's MODS case 19 (Nasjonalbiblioteket).
PARTS = """\
   <titleInfo>
      <title>Ludvig Holbergs udvalgte Skrifter</title>
      <partNumber>D. 1-6 B. 4</partNumber>
      <partName>Holbergs Comedier</partName>
   </titleInfo>
   <titleInfo type="alternative">
      <title>Den honette Ambition</title>
   </titleInfo>
   <titleInfo type="alternative">
      <title>Den Stundesløse</title>
   </titleInfo>
"""


def test_part_number_and_part_name_complete_the_title() -> None:
    assert read(PARTS).get("title") == (
        "Ludvig Holbergs udvalgte Skrifter. D. 1-6 B. 4: Holbergs Comedier")


def test_alternative_titles_are_kept() -> None:
    assert read(PARTS).extra["mods.title-alternative"] == "Den honette Ambition\nDen Stundesløse"


def test_a_title_ending_in_a_colon_before_its_subtitle_gets_one_colon() -> None:
    # Zotero's MODS case 11 (Library of Congress, ISBD punctuation).
    record = read("""\
    <titleInfo>
        <title>3 Viennese arias :</title>
        <subTitle>for soprano, obbligato clarinet in B flat, and piano</subTitle>
    </titleInfo>
""")
    assert record.get("title") == ("3 Viennese arias: for soprano, obbligato clarinet in B "
                                   "flat, and piano")


# Zotero's MODS case 03 (Indiana University): family, given and life dates, a role by code
# and by text.
PHOTOGRAPHER = """\
    <titleInfo><title>Telescope Peak from Zabriskie Point</title></titleInfo>
    <name type="personal">
        <namePart type="family">Cushman</namePart>
        <namePart type="given">Charles Weever</namePart>
        <namePart type="date">1896-1972</namePart>
        <role>
            <roleTerm type="code" authority="marcrelator">pht</roleTerm>
            <roleTerm type="text" authority="marcrelator">Photographer</roleTerm>
        </role>
    </name>
    <originInfo>
        <dateCreated encoding="w3cdtf" keyDate="yes">1955-03-22</dateCreated>
    </originInfo>
"""


def test_life_dates_of_a_name_are_kept() -> None:
    record = read(PHOTOGRAPHER)
    assert record.names == {"contributor": (Name(family="Cushman", given="Charles Weever"),)}
    assert record.extra["mods.namePart-date"] == "Charles Weever Cushman: 1896-1972"


def test_a_role_no_csl_role_holds_is_reported_by_its_code_and_text() -> None:
    diagnostics = Diagnostics()
    read(PHOTOGRAPHER, diagnostics)
    assert [m.message for m in diagnostics.messages] == [
        "unknown MODS role 'pht / photographer', read as a contributor"]


def test_a_creation_date_is_the_issued_date_when_there_is_no_other() -> None:
    assert read(PHOTOGRAPHER).dates == {"issued": Date(start=DateParts(1955, 3, 22))}


def test_a_role_is_read_from_its_code_when_the_text_is_in_another_language() -> None:
    # Zotero's MODS case 20 (Kalliope): the text is German, the code MARC's.
    record = read("""\
    <name type="personal">
        <displayForm>Penck, Albrecht</displayForm>
        <namePart>Penck, Albrecht</namePart>
        <role>
            <roleTerm type="text" lang="ger">Adressat</roleTerm>
            <roleTerm authority="MARC Code List for Relators Scheme" type="code">rcp</roleTerm>
        </role>
    </name>
""")
    assert record.names == {"recipient": (Name(family="Penck", given="Albrecht"),)}


def test_a_name_given_only_as_its_display_form_is_read() -> None:
    record = read("""\
    <name type="personal"><displayForm>Blaas, Josef</displayForm></name>
""")
    assert record.authors == (Name(family="Blaas", given="Josef"),)


def test_the_parts_of_a_corporate_name_are_one_name() -> None:
    # Zotero's MODS case 13 (Library of Congress).
    record = read("""\
    <name type="corporate">
        <namePart>Library of Congress</namePart>
        <namePart>Music Division.</namePart>
    </name>
""")
    assert record.authors == (Name(literal="Library of Congress: Music Division."),)


def test_a_suffix_in_terms_of_address_stays_with_the_name() -> None:
    # Zotero's MODS case 16 (Library of Congress).
    record = read("""\
    <name type="personal">
        <namePart type="given">Joseph</namePart>
        <namePart type="termsOfAddress">I, Holy Roman Emperor</namePart>
        <namePart type="date">1678-1711</namePart>
    </name>
""")
    assert record.authors == (Name(given="Joseph", suffix="I, Holy Roman Emperor"),)


def test_identifiers_of_other_kinds_and_further_urls_are_kept() -> None:
    # Zotero's MODS case 03 again: local numbers and a preview image.
    record = read("""\
    <identifier displayLabel="Cushman number" type="local">955.11</identifier>
    <identifier displayLabel="IU Archives number" type="local">P07803</identifier>
    <identifier type="ils system id">000704270</identifier>
    <location>
        <url>http://purl.dlib.indiana.edu/iudl/archives/cushman/P07803</url>
        <url access="preview">http://quod.lib.umich.edu/m/mods/thumbs/P07803.png</url>
    </location>
""")
    assert record.get("URL") == "http://purl.dlib.indiana.edu/iudl/archives/cushman/P07803"
    assert record.extra == {"mods.identifier-local": "955.11\nP07803",
                            "mods.identifier-ils_system_id": "000704270",
                            "mods.url": "http://quod.lib.umich.edu/m/mods/thumbs/P07803.png"}


def test_elements_not_carried_are_reported_once_each_with_their_line() -> None:
    diagnostics = Diagnostics()
    text = OPEN + """\
    <titleInfo><title>Country clustering</title></titleInfo>
    <typeOfResource>text</typeOfResource>
    <physicalDescription><extent>32 p.</extent></physicalDescription>
    <relatedItem type="original"><titleInfo><title>Manuscript</title></titleInfo></relatedItem>
    <recordInfo><recordIdentifier>11761548</recordIdentifier></recordInfo>
    <holdingSimple/>
</mods>
"""
    list(mods.READER.read(io.StringIO(text), "catalogue.xml", diagnostics))
    assert [(m.line, m.message) for m in diagnostics.messages] == [
        (4, ("MODS: <typeOfResource> not carried (the kind of resource: the genre gives "
             "the CSL type)")),
        (5, "MODS: <physicalDescription> not carried (the model has no slot for it)"),
        (7, "MODS: <recordInfo> not carried (the catalogue's bookkeeping, not the work's)"),
        (8, "MODS: unknown element <holdingSimple> not read"),
        (6, 'MODS: <titleInfo> of a relatedItem type="original" not carried')]
