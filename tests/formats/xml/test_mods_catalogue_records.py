"""MODS as library catalogues write it (excerpts of Zotero's MODS test cases): multi-part
titles, names in every form MODS gives them, roles by code and by text, and nothing a record
holds dropped without a word."""

from __future__ import annotations

import io

from lxml import etree

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
    assert read(PHOTOGRAPHER).extra["mods.namePart-date"] == "Charles Weever Cushman: 1896-1972"


def test_the_photographer_of_a_photograph_is_its_author() -> None:
    assert read(PHOTOGRAPHER).names == {
        "author": (Name(family="Cushman", given="Charles Weever"),)}


def test_a_role_no_csl_role_holds_is_reported_and_read_as_a_contributor() -> None:
    # Zotero's MODS case 21 (GovInfo): a senator of the committee holding the hearing.
    diagnostics = Diagnostics()
    record = read("""    <name type="personal">
        <namePart>Roger F. Wicker</namePart>
        <affiliation>United States Senate</affiliation>
        <role>
            <roleTerm type="text">committee member</roleTerm>
        </role>
    </name>
""", diagnostics)
    assert record.names == {"contributor": (Name(family="Wicker", given="Roger F."),)}
    assert [(m.line, m.message) for m in diagnostics.messages] == [
        (3, "unknown MODS role 'committee member', read as a contributor"),
        (5, "MODS: <affiliation> not carried (the model has no slot for it)")]


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
        (5, "MODS: <physicalDescription> not carried (the model has no slot for it)"),
        (7, "MODS: <recordInfo> not carried (the catalogue's bookkeeping, not the work's)"),
        (8, "MODS: unknown element <holdingSimple> not read"),
        (6, 'MODS: <titleInfo> of a relatedItem type="original" not carried')]


# -- the CSL type, by Zotero's rules: the genre, the typeOfResource, the host's genre, the media
# type, a recipient, GovInfo's extension; then the host's issuance, a monograph, a document.

def test_a_still_image_is_a_graphic() -> None:
    # Zotero's MODS case 03: a photograph whose genre (gmgpc) says nothing of the type.
    record = read("""\
    <titleInfo><title>Telescope Peak from Zabriskie Point</title></titleInfo>
    <typeOfResource>still image</typeOfResource>
    <genre authority="gmgpc">Landscape photographs</genre>
    <relatedItem type="host">
        <titleInfo type="uniform" authority="dlfaqcoll">
            <title> Indiana University Digital Library Program: Charles W. Cushman Photograph Collection</title>
        </titleInfo>
    </relatedItem>
""")
    assert record.type == "graphic"
    assert record.get("genre") == "Landscape photographs"


def test_notated_music_is_a_musical_score_not_a_book() -> None:
    # Zotero's MODS case 11 (Library of Congress).
    record = read("""\
    <titleInfo><title>3 Viennese arias :</title></titleInfo>
    <typeOfResource>notated music</typeOfResource>
    <originInfo><issuance>monographic</issuance></originInfo>
""")
    assert record.type == "musical_score"


def test_software_a_sound_recording_and_mixed_material_have_their_types() -> None:
    # Zotero's MODS cases 13, 17 and 18 (Library of Congress), all monographic.
    types = [read(f"""\
    <typeOfResource>{resource}</typeOfResource>
    <originInfo><issuance>monographic</issuance></originInfo>
""").type for resource in ("software, multimedia", "sound recording-musical",
                           "mixed material")]
    assert types == ["software", "song", "collection"]


def test_an_html_text_in_a_collection_is_a_web_page() -> None:
    # Zotero's MODS case 02 (Online Books Page): a host with no genre, an HTML text.
    record = read("""\
    <titleInfo>
        <title>At Gettysburg, or, What a Girl Saw and Heard of the Battle: A True Narrative</title>
    </titleInfo>
    <typeOfResource>text</typeOfResource>
    <physicalDescription>
        <internetMediaType>text/html</internetMediaType>
        <digitalOrigin>reformatted digital</digitalOrigin>
    </physicalDescription>
    <relatedItem type="host">
        <titleInfo type="uniform" authority="dlfaqcoll">
            <title>A Celebration of Women Writers: Americana</title>
        </titleInfo>
    </relatedItem>
""")
    assert record.type == "webpage"
    assert record.get("container-title") == "A Celebration of Women Writers: Americana"


def test_a_marc_genre_of_the_record_wins_over_its_host() -> None:
    # Zotero's MODS case 19 (Nasjonalbiblioteket): fiction is a book, though it has a host.
    record = read("""\
    <typeOfResource>text</typeOfResource>
    <genre type="literaryform">fiction</genre>
    <genre authority="marcgt">fiction</genre>
    <relatedItem displayLabel="Inkludert i" type="host">
        <titleInfo>
            <title>Ludvig Holbergs udvalgte Skrifter. D. 1-6, Holbergs Comedier</title>
        </titleInfo>
    </relatedItem>
""")
    assert record.type == "book"


def test_a_marc_genre_that_tells_the_type_is_kept_as_the_genre_once() -> None:
    # Zotero's MODS case 19 again: the literary form and the MARC genre say the same.
    record = read("""\
    <genre type="literaryform">fiction</genre>
    <genre authority="marcgt">fiction</genre>
""")
    assert (record.get("genre"), record.extra) == ("fiction", {})


def test_a_record_with_a_recipient_is_a_letter() -> None:
    # Zotero's MODS case 20 (Kalliope), its host an archive's holding.
    record = read("""\
    <titleInfo><title>[Brief Josef Blaas' an Albrecht Penck]</title></titleInfo>
    <name type="personal">
        <namePart>Penck, Albrecht</namePart>
        <role>
            <roleTerm type="text" lang="ger">Adressat</roleTerm>
            <roleTerm authority="MARC Code List for Relators Scheme" type="code">rcp</roleTerm>
        </role>
    </name>
    <relatedItem type="host">
        <titleInfo><title>Korrespondenzen (Titel)</title></titleInfo>
    </relatedItem>
""")
    assert record.type == "personal_communication"


HEARING = """\
<titleInfo>
 <title>AFGHANISTAN</title>
</titleInfo>
<typeOfResource>text</typeOfResource>
<genre authority="marcgt">government publication</genre>
<extension>
 <congCommittee authorityId="ssas00" chamber="S" congress="111" type="S">
  <name type="authority-standard">Committee on Armed Services</name>
 </congCommittee>
</extension>
"""


def test_a_govinfo_record_of_a_committee_is_a_hearing() -> None:
    # Zotero's MODS case 21 (GovInfo): the extension says more than the genre.
    assert read(HEARING).type == "hearing"


def test_a_govinfo_government_publication_without_extension_is_a_report() -> None:
    # Zotero's MODS case 22 (GovInfo): the WMD commission's report.
    record = read("""\
<titleInfo>
 <title>Unclassified Version of the Report of the Commission on the Intelligence Capabilities of the United States Regarding Weapons of Mass Destruction</title>
</titleInfo>
<typeOfResource>text</typeOfResource>
<genre authority="marcgt">government publication</genre>
""")
    assert record.type == "report"


# Zotero's MODS case 23 (GovInfo).
BILL = """\
    <extension>
         <docClass>hr</docClass>
         <congress>117</congress>
         <billNumber>3304</billNumber>
         <shortTitle type="measure">Advancing Uniform Transportation Opportunities for Veterans Act</shortTitle>
         <shortTitle type="measure">AUTO for Veterans Act</shortTitle>
    </extension>
    <titleInfo>
         <title>An Act To amend title 38, United States Code, to authorize the Secretary of Veterans Affairs to provide or assist in providing an additional vehicle adapted for operation by disabled individuals to certain eligible persons, and for other purposes.</title>
    </titleInfo>
    <genre authority="marcgt">government publication</genre>
"""


def test_a_govinfo_record_with_a_bill_number_is_a_bill_cited_by_its_short_title() -> None:
    record = read(BILL)
    assert record.type == "bill"
    assert record.get("title") == "Advancing Uniform Transportation Opportunities for Veterans Act"
    assert record.get("number") == "H.R. 3304"


def test_the_official_title_of_a_bill_is_kept() -> None:
    assert read(BILL).extra["mods.title-official"] == (
        "An Act To amend title 38, United States Code, to authorize the Secretary of Veterans "
        "Affairs to provide or assist in providing an additional vehicle adapted for operation "
        "by disabled individuals to certain eligible persons, and for other purposes.")


# -- subjects: only topics are keywords, as Zotero's tags; the other parts are kept.

def test_only_topics_are_keywords_places_are_kept() -> None:
    # Zotero's MODS case 01 (Library of Congress web archive).
    record = read("""\
    <subject>
        <topic>Elections</topic>
        <geographic>Alaska</geographic>
    </subject>
    <subject>
        <topic>Governors</topic>
        <geographic>Alaska</geographic>
        <topic>Election</topic>
    </subject>
""")
    assert record.keywords == ("Elections", "Governors", "Election")
    assert record.extra == {"mods.subject-geographic": "Alaska"}


def test_subject_genres_and_periods_are_kept_not_keywords() -> None:
    # Zotero's MODS cases 11 and 17 (Library of Congress).
    record = read("""\
    <subject authority="lcsh">
        <topic valueURI="http://id.loc.gov/authorities/subjects/sh85094914">Operas</topic>
        <genre valueURI="http://id.loc.gov/authorities/subjects/sh99001548">Excerpts,
            Arranged</genre>
        <genre valueURI="http://id.loc.gov/authorities/subjects/sh99001780">Scores and parts</genre>
    </subject>
    <subject authority="lcsh">
        <topic>Bluegrass music</topic>
        <temporal>1971-1980</temporal>
    </subject>
""")
    assert record.keywords == ("Operas", "Bluegrass music")
    assert record.extra == {"mods.subject-genre": "Excerpts, Arranged\nScores and parts",
                            "mods.subject-temporal": "1971-1980"}


def test_a_hierarchical_place_is_kept_with_its_parts_joined() -> None:
    # Zotero's MODS case 03 (Indiana University).
    record = read("""\
    <subject>
        <hierarchicalGeographic>
            <country>United States</country>
            <state>California</state>
            <county>Inyo</county>
        </hierarchicalGeographic>
    </subject>
""")
    assert record.keywords == ()
    assert record.extra == {
        "mods.subject-hierarchicalGeographic": "United States -- California -- Inyo"}


def test_the_scale_of_a_map_is_read() -> None:
    # Zotero's MODS case 15 (Library of Congress).
    record = read("""\
    <typeOfResource>cartographic</typeOfResource>
    <subject>
        <cartographics>
            <scale>Scale [ca. 1:510,000].</scale>
        </cartographics>
    </subject>
    <subject authority="lcsh">
        <geographic>Campbell County (Wyo.)</geographic>
        <topic>Maps</topic>
    </subject>
""")
    assert (record.type, record.get("scale"), record.keywords) == (
        "map", "Scale [ca. 1:510,000].", ("Maps",))
    assert record.extra == {"mods.subject-geographic": "Campbell County (Wyo.)"}


# -- names, pages, empty records.

def test_bracketed_life_dates_are_not_part_of_the_given_name() -> None:
    # Zotero's MODS case 02 (Online Books Page).
    record = read("""\
    <name type="personal">
        <namePart>Alleman, Tillie Pierce [1848-1914]</namePart>
        <role>
            <roleTerm type="code" authority="marcrelator">aut</roleTerm>
            <roleTerm type="text" authority="marcrelator">Author</roleTerm>
        </role>
    </name>
""")
    assert record.authors == (Name(family="Alleman", given="Tillie Pierce"),)
    assert record.extra == {"mods.namePart-date": "Tillie Pierce Alleman: 1848-1914"}


def test_a_host_name_without_a_role_is_a_contributor_and_its_dates_are_kept() -> None:
    # Zotero's MODS case 19 (Nasjonalbiblioteket): the author of the collected works.
    record = read("""\
    <relatedItem displayLabel="Inkludert i" type="host">
        <titleInfo>
            <title>Ludvig Holbergs udvalgte Skrifter. D. 1-6, Holbergs Comedier</title>
        </titleInfo>
        <name>
            <namePart>Holberg, Ludvig, 1684-1754</namePart>
        </name>
    </relatedItem>
""")
    assert record.names == {"contributor": (Name(family="Holberg", given="Ludvig"),)}
    assert record.extra["mods.namePart-date"] == "Ludvig Holberg: 1684-1754"


def test_a_page_range_of_one_page_is_that_page() -> None:
    # Zotero's MODS case 10 (an article of Entropy).
    record = read("""\
    <relatedItem type="host">
        <titleInfo><title>Entropy</title></titleInfo>
        <originInfo><issuance>continuing</issuance></originInfo>
        <part>
            <extent unit="pages">
                <start>17</start>
                <end>17</end>
            </extent>
        </part>
    </relatedItem>
""")
    assert (record.type, record.get("page")) == ("article-journal", "17")


def test_an_empty_record_is_skipped_with_a_warning() -> None:
    # JabRef's MODSImporterTestMinimal.xml.
    diagnostics = Diagnostics()
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<modsCollection xmlns="http://www.loc.gov/mods/v3">\n'
            '<mods version="3.6">\n</mods>\n</modsCollection>\n')
    assert list(mods.READER.read(io.StringIO(text), "minimal.xml", diagnostics)) == []
    assert [(m.line, m.message) for m in diagnostics.messages] == [
        (3, "an empty <mods> record skipped")]


def test_the_scale_of_a_map_is_written_back_as_mods() -> None:
    record = Record(id="campbell", type="map",
                    fields={"title": "Campbell County, Wyoming",
                            "scale": "Scale [ca. 1:510,000]."})
    text = etree.tostring(mods.record_mods(record), encoding="unicode")
    assert "<cartographics><scale>Scale [ca. 1:510,000].</scale></cartographics>" in text
    assert '"scale"' not in text  # not in the residue note: MODS holds it
    (written,) = mods.READER.read(io.StringIO(text), "written.xml", Diagnostics())
    assert written.get("scale") == "Scale [ca. 1:510,000]."


def test_the_zotero_item_type_of_a_zotero_export_is_read() -> None:
    # Zotero's MODS export writes the item type as a local genre, the MARC genre on the host.
    record = read("""\
    <titleInfo><title>Why Zotero writes MODS</title></titleInfo>
    <typeOfResource>software, multimedia</typeOfResource>
    <genre authority="local">blogPost</genre>
    <relatedItem type="host">
        <titleInfo><title>Zotero Blog</title></titleInfo>
        <genre authority="marcgt">web site</genre>
    </relatedItem>
""")
    assert (record.type, record.get("genre")) == ("post-weblog", None)


def test_a_type_without_a_genre_is_written_as_its_type_of_resource() -> None:
    record = Record(id="odyssey", type="song", fields={"title": "2001 bluegrass odyssey"})
    text = etree.tostring(mods.record_mods(record), encoding="unicode")
    assert "<typeOfResource>sound recording</typeOfResource>" in text
    assert '"type"' not in text  # not in the residue note: MODS holds it
    (written,) = mods.READER.read(io.StringIO(text), "written.xml", Diagnostics())
    assert written.type == "song"
