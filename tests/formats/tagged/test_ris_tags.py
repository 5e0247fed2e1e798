"""RIS tags as publishers' and databases' exports write them (the JabRef importer fixtures and
Zotero's RIS.js import cases): every title, container, identifier and type tag reaches the
model part it names, by the record's type where the RIS specification says so."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from refbridge.errors import Diagnostics
from refbridge.formats.tagged.ris import READER, WRITER, identifier_kind
from refbridge.model import Record
from refbridge.registry import WriteOptions

#: ScienceDirect's RIS (JabRef's RisImporterTestScience.ris): T1 holds the title, JO the
#: journal's full name, DO a resolver link.
SCIENCEDIRECT = """\
TY  - JOUR
T1  - Phase separation and \u03c9 transformation in binary V-Ti and ternary V-Ti-Cr alloys
JO  - Acta Materialia
VL  - 121
IS  - 
SP  - 310
EP  - 324
PY  - 2016/12//
T2  - 
AU  - Ghosh, Chanchal
SN  - 1359-6454
DO  - http://dx.doi.org/10.1016/j.actamat.2016.09.028
UR  - //www.sciencedirect.com/science/article/pii/S1359645416307273
ER  - 
"""


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(READER.read(io.StringIO(text), "refs.ris", diagnostics or Diagnostics()))


def test_t1_is_the_title_and_jo_stands_in_for_the_missing_journal_name() -> None:
    (record,) = read(SCIENCEDIRECT)
    assert record.get("title") == ("Phase separation and \u03c9 transformation in binary V-Ti "
                                   "and ternary V-Ti-Cr alloys")
    assert (record.get("container-title"), record.get("container-title-short")) == (
        "Acta Materialia", "Acta Materialia")
    assert dict(record.extra) == {}


def test_a_doi_written_as_a_resolver_link_is_kept_as_the_doi() -> None:
    (record,) = read(SCIENCEDIRECT)
    assert record.get("DOI") == "10.1016/j.actamat.2016.09.028"


def test_pubmeds_ris_keeps_its_t1_title() -> None:
    # JabRef's RisImporterTestDOI.ris (PubMed: Send to -> Citation manager, RIS)
    (record,) = read("TY  - JOUR\nDB  - PubMed\nAU  - Jung, Sang In\n"
                     "T1  - The effect of smartphone usage time on posture and respiratory "
                     "function\nLA  - eng\nSN  - 0915-5287\nY1  - 2016/01\n"
                     "JF  - Journal of physical therapy science\nJA  - J Phys Ther Sci\n"
                     "VL  - 28\nIS  - 1\nSP  - 186\nEP  - 189\nDO  - 10.1589/jpts.28.186\n"
                     "ER  - \n")
    assert record.get("title") == ("The effect of smartphone usage time on posture and "
                                   "respiratory function")
    assert (record.get("container-title"), record.get("container-title-short")) == (
        "Journal of physical therapy science", "J Phys Ther Sci")


def test_a_title_wrapped_onto_a_continuation_line_is_one_line() -> None:
    # Zotero's RIS.js import case 01 (Reference Manager)
    (record,) = read("TY  - JOUR\nA1  - Baldwin,S.A.\nT1  - Blood-brain barrier breach "
                     "following\ncortical contusion in the rat\nJO  - J.Neurosurg.\n"
                     "ER  - \n")
    assert record.get("title") == ("Blood-brain barrier breach following cortical contusion "
                                   "in the rat")


def test_a_second_title_tag_is_kept_as_an_extra_and_written_back() -> None:
    (record,) = read("TY  - CONF\nT1  - Editorial: Open Source\nTI  - Editorial.\nER  - \n")
    assert (record.get("title"), dict(record.extra)) == (
        "Editorial: Open Source", {"ris.TI": "Editorial."})
    assert "TI  - Editorial." in WRITER.record_text(record, WriteOptions())


def test_the_same_journal_in_t2_and_jf_is_one_container_title() -> None:
    # JabRef's RisImporterTest8_date.ris (AIP Publishing)
    (record,) = read("TY  - JOUR\nT1  - Hydration forces\nT2  - The Journal of Chemical "
                     "Physics\nJF  - The Journal of Chemical Physics\nJO  - J. Chem. Phys.\n"
                     "ER  - \n")
    assert (record.get("container-title"), record.get("container-title-short")) == (
        "The Journal of Chemical Physics", "J. Chem. Phys.")
    assert dict(record.extra) == {}


def test_bt_is_a_books_own_title_and_a_chapters_book_title() -> None:
    (book,) = read("TY  - BOOK\nBT  - Find It Fast\nER  - \n")
    (chapter,) = read("TY  - CHAP\nTI  - Toward a Robust Analysis\n"
                      "BT  - Dermoscopy Image Analysis\nER  - \n")
    assert (book.get("title"), book.get("container-title")) == ("Find It Fast", None)
    assert chapter.get("container-title") == "Dermoscopy Image Analysis"


def test_c3_is_the_proceedings_title_and_t2_then_the_conference() -> None:
    # Zotero's RIS.js import case 03 (EndNote's RIS of every field)
    (record,) = read("TY  - CONF\nTI  - Title\nC3  - Proceedings Title\nSN  - ISBN\n"
                     "T2  - Conference Name\nT3  - Series Title\nER  - \n")
    assert {k: record.get(k) for k in ("container-title", "event-title",
                                       "collection-title")} == {
        "container-title": "Proceedings Title", "event-title": "Conference Name",
        "collection-title": "Series Title"}


def test_t2_alone_is_a_conference_papers_proceedings() -> None:
    (record,) = read("TY  - CPAPER\nTI  - Title\nT2  - Proc. of VLDB 2021\nER  - \n")
    assert (record.get("container-title"), record.get("event-title")) == (
        "Proc. of VLDB 2021", None)


def test_scopus_document_type_in_m3_is_kept_as_an_extra_not_a_genre() -> None:
    # JabRef's RisImporterTestScopus.ris
    (record,) = read("TY  - JOUR\nTI  - A transversely isotropic composite\n"
                     "M3  - Article\nDB  - Scopus\nER  - \n")
    assert (record.get("genre"), dict(record.extra)) == (None, {"ris.M3": "Article"})
    assert "M3  - Article" in WRITER.record_text(record, WriteOptions())


def test_m3_is_the_type_of_work_of_a_thesis() -> None:
    (record,) = read("TY  - THES\nTI  - T\nM3  - Doctoral dissertation\nER  - \n")
    assert record.get("genre") == "Doctoral dissertation"


def test_a_doi_in_m3_is_the_doi_and_a_repeated_one_is_no_extra() -> None:
    # JabRef's RisImporterTest9.ris (Elsevier via Crossref): DO and M3 both hold the DOI
    (record,) = read("TY  - JOUR\nTI  - Grid Cells for Conceptual Spaces?\n"
                     "DO  - 10.1016/j.neuron.2016.10.006\n"
                     "M3  - doi: 10.1016/j.neuron.2016.10.006\nER  - \n")
    (endnote,) = read("TY  - JOUR\nTI  - T\nM3  - 10.1201/b19107-2\nER  - \n")
    assert (record.get("DOI"), dict(record.extra)) == ("10.1016/j.neuron.2016.10.006", {})
    assert endnote.get("DOI") == "10.1201/b19107-2"


@pytest.mark.parametrize(("value", "record_type", "kind"), [
    ("1528-1159 0362-2436", "article-journal", "ISSN"),
    ("1359-6454", "book", "ISSN"),
    ("978-1-4822-5326-9", "chapter", "ISBN"),
    ("0-06-095285-1", "article-journal", "ISBN"),
    ("1548-7105 (Electronic)", "document", "ISSN"),
    ("ISSN/ISBN", "article-journal", "ISSN"),
    ("ISSN/ISBN", "book", "ISBN"),
    ("TR-2020-01", "report", "number"),
])
def test_sn_is_an_issn_or_isbn_by_its_shape_else_by_the_type(value: str, record_type: str,
                                                            kind: str) -> None:
    assert identifier_kind(value, record_type) == kind


def test_every_issn_of_several_sn_lines_is_kept() -> None:
    (record,) = read("TY  - JOUR\nTI  - T\nSN  - 1528-1159 0362-2436\nSN  - 0099-2240\n"
                     "SN  - 978-1-4822-5326-9\nER  - \n")
    assert (record.get("ISSN"), record.get("ISBN")) == (
        "1528-1159 0362-2436, 0099-2240", "978-1-4822-5326-9")


def test_a_generic_record_keeps_its_container_and_volume() -> None:
    (gen,) = read("TY  - GEN\nTI  - Working notes\nT2  - Lab Series\nVL  - 4\nER  - \n")
    (ser,) = read("TY  - SER\nTI  - Lecture Notes\nT2  - Springer\nVL  - 12\nER  - \n")
    assert [(r.type, r.get("container-title"), r.get("volume")) for r in (gen, ser)] == [
        ("document", "Lab Series", "4"), ("book", "Springer", "12")]


# -- the fixtures themselves -------------------------------------------------------------------
def _titled(path: Path) -> list[bool]:
    """For each record of an RIS file with a title tag, whether it was read with a title."""
    records = read(path.read_text(encoding="utf-8"))
    has_tag = [any(line[:2] in ("TI", "T1", "CT", "BT") and line[6:].strip()
                   for line in block.splitlines())
               for block in path.read_text(encoding="utf-8").split("TY  - ")[1:]]
    return [r.title is not None for r, tagged in zip(records, has_tag, strict=True) if tagged]


def test_every_jabref_ris_fixture_record_with_a_title_tag_has_its_title(
        shared_dir: Path) -> None:
    files = sorted((shared_dir / "conformance" / "jabref-importer").glob("*.ris"))
    assert len(files) == 19
    assert {f.name: all(_titled(f)) for f in files} == {f.name: True for f in files}


def test_zotero_ris_cases_read_the_titles_zotero_reads(shared_dir: Path) -> None:
    cases = sorted((shared_dir / "conformance" / "zotero-import" / "ris").glob("*.input"))
    assert len(cases) == 12
    for case in cases:
        expected = json.loads(case.with_suffix(".expected.json").read_text(encoding="utf-8"))
        records = read(case.read_text(encoding="utf-8"))
        pairs = [(" ".join(item["title"].split()), " ".join((r.title or "").split()))
                 for item, r in zip(expected, records, strict=True) if "title" in item]
        assert [got for _, got in pairs] == [want for want, _ in pairs], case.name


def test_a_journal_articles_m1_is_its_issue_when_no_is_gives_one() -> None:
    # Zotero's ris/04 case (EndNote): M1 - 9999 beside VL - 9999
    (record,) = read("TY  - JOUR\nTI  - Rapid identification\nM1  - 9999\nVL  - 9999\nER  - \n")
    assert (record.get("issue"), record.get("number")) == ("9999", None)


def test_a_journal_articles_m1_beside_an_is_stays_its_number() -> None:
    # JabRef's RisImporterTest5b.ris: the copyright line in M1, the issue in IS
    (record,) = read("TY  - JOUR\nM1  - Copyright (C) 2016  U.S. National Library of Medicine.\n"
                     "IS  - 2\nER  - \n")
    assert (record.get("issue"), record.get("number")) == (
        "2", "Copyright (C) 2016  U.S. National Library of Medicine.")


def test_ser_is_a_book_in_a_series() -> None:
    # RIS: SER, "Serial (Book, Monograph)"; Zotero's ris/05 case
    (record,) = read("TY  - SER\nA1  - Monographic Author\nT1  - Monographic Title\n"
                     "SN  - ISBN\nER  - \n")
    assert (record.type, record.get("ISBN")) == ("book", "ISBN")


def test_pubmeds_identifiers_in_user_tags_are_the_pmid_and_pmcid() -> None:
    # JabRef's RisImporterTestDOI.ris (PubMed's RIS export)
    (record,) = read("TY  - JOUR\nT1  - The effect of smartphone usage time\n"
                     "U1  - 26957754[pmid]\nU2  - PMC4756000[pmcid]\nU4  - jpts-2015-817[PII]\n"
                     "ER  - \n")
    assert (record.get("PMID"), record.get("PMCID"), dict(record.extra)) == (
        "26957754", "PMC4756000", {"ris.U4": "jpts-2015-817[PII]"})
