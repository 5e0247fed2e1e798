"""DOIs as exports spell them (resolver links, ``doi:`` labels, PubMed's ``[doi]``) become the
bare DOI in every reader, so a style prints ``https://doi.org/`` once; what is no DOI stays as
written."""

from __future__ import annotations

import io

import pytest

from refbridge.errors import Diagnostics
from refbridge.formats.tagged.ris import READER as RIS
from refbridge.formatting import format_bibliography
from refbridge.identifiers import (
    SCHOLAR_ARXIV_VENUE,
    arxiv_base,
    arxiv_id_from_doi,
    clean_doi,
    doi_of,
    isbn13,
    isbns_in,
)
from refbridge.registry import get_reader


@pytest.mark.parametrize("spelling", [
    "10.1016/j.actamat.2016.09.028",
    "http://dx.doi.org/10.1016/j.actamat.2016.09.028",  # ScienceDirect's RIS (JabRef)
    "https://doi.org/10.1016/j.actamat.2016.09.028",
    "https://dx.doi.org/10.1016/j.actamat.2016.09.028",
    "doi:10.1016/j.actamat.2016.09.028",
    "doi: 10.1016/j.actamat.2016.09.028",  # AIP's M3 and N1 (JabRef's RisImporterTest8)
    "DOI 10.1016/j.actamat.2016.09.028",
    "DOI: 10.1016/j.actamat.2016.09.028",
    "10.1016/j.actamat.2016.09.028 [doi]",  # PubMed's LID/AID
    "  doi:10.1016/j.actamat.2016.09.028 ",
])
def test_every_spelling_of_a_doi_is_the_bare_doi(spelling: str) -> None:
    assert clean_doi(spelling) == "10.1016/j.actamat.2016.09.028"


@pytest.mark.parametrize("value", ["doi: whatever", "S0033-3506(15)00037-2",
                                   "https://example.org/10.1000/x", "10.1000"])
def test_a_value_that_is_no_doi_is_kept_as_written(value: str) -> None:
    assert (doi_of(value), clean_doi(value)) == (None, value)


#: One small record per reader, its DOI spelled as the link ScienceDirect writes.
LINK = "http://dx.doi.org/10.1016/j.actamat.2016.09.028"
IN_EACH_FORMAT: dict[str, str] = {
    "bibtex": f"@article{{ghosh2016, title = {{Phase separation}}, doi = {{{LINK}}}}}\n",
    "csl-json": f'[{{"id": "g", "type": "article-journal", "DOI": "{LINK}"}}]',
    "ris": f"TY  - JOUR\nT1  - Phase separation\nDO  - {LINK}\nER  - \n",
    "endnote": f"%0 Journal Article\n%T Phase separation\n%R {LINK}\n",
    "nbib": f"PMID- 1\nTI  - Phase separation\nAID - {LINK}\n",
    "wos": f"PT J\nTI Phase separation\nDI {LINK}\nER\n",
    "csv": f"title,doi\nPhase separation,{LINK}\n",
    "mods": ('<mods xmlns="http://www.loc.gov/mods/v3"><titleInfo><title>Phase separation'
             f'</title></titleInfo><identifier type="doi">{LINK}</identifier></mods>'),
}


@pytest.mark.parametrize("format_name", sorted(IN_EACH_FORMAT))
def test_each_reader_keeps_the_bare_doi(format_name: str) -> None:
    reader = get_reader(format_name)
    (record,) = reader.read(io.StringIO(IN_EACH_FORMAT[format_name]), f"refs.{format_name}",
                            Diagnostics())
    assert record.get("DOI") == "10.1016/j.actamat.2016.09.028"


def test_apa_prints_the_doi_link_once() -> None:
    # JabRef's RisImporterTestScience.ris, shortened
    records = list(RIS.read(io.StringIO(
        "TY  - JOUR\nT1  - Phase separation\nJO  - Acta Materialia\nVL  - 121\nPY  - 2016\n"
        f"AU  - Ghosh, Chanchal\nDO  - {LINK}\nER  - \n"), "science.ris", Diagnostics()))
    assert format_bibliography(records, "apa") == (
        "Ghosh, C. (2016). Phase separation. Acta Materialia, 121. "
        "https://doi.org/10.1016/j.actamat.2016.09.028\n")


def test_an_arxiv_doi_names_the_arxiv_id_as_written() -> None:
    assert arxiv_id_from_doi("10.48550/arXiv.2403.01234") == "2403.01234"


def test_a_journal_doi_names_no_arxiv_id() -> None:
    assert arxiv_id_from_doi("10.1145/3580305.3599256") is None


@pytest.mark.parametrize(("identifier", "base"), [
    ("2401.12345v2", "2401.12345"),
    ("hep-th/9901001v1", "hep-th/9901001"),
    ("2401.12345", "2401.12345"),
])
def test_an_arxiv_id_without_its_version(identifier: str, base: str) -> None:
    assert arxiv_base(identifier) == base


def test_google_scholars_arxiv_venue_holds_the_arxiv_id() -> None:
    match = SCHOLAR_ARXIV_VENUE.match("arXiv preprint arXiv:2601.00001")
    assert match is not None and match["id"] == "2601.00001"


def test_an_isbn_10_is_compared_as_its_isbn_13() -> None:
    assert isbn13("0-262-03384-4") == "9780262033848"


def test_a_number_of_another_length_is_no_isbn() -> None:
    assert isbn13("0262-0338") is None


def test_every_isbn_of_a_field_once_as_isbn_13() -> None:
    assert isbns_in("978-0-262-03384-8 (hardcover); 0-262-03384-4") == ["9780262033848"]
