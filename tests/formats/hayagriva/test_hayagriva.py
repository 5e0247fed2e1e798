"""Hayagriva YAML, Typst's bibliography format: what the reader makes of a researcher's file,
what the writer makes of a .bib, and that refbridge's own files read back to the records
written. Typst's own reading of the output is checked in tests/formats/hayagriva/test_typst.py."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from support import ROOT, run_cli

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.csljson import to_csl
from refbridge.formats.hayagriva import codec as hayagriva
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.registry import WriteOptions, detect_reader
from refbridge.richtext import Math, Style, Styled, rich

LIBRARY = ROOT / "tests" / "corpus" / "seeds" / "typst-library.yml"


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(hayagriva.READER.read(io.StringIO(text), "refs.yml",
                                      diagnostics or Diagnostics(strict=True)))


def unsourced(records: list[Record]) -> list[Record]:
    return [record.replace(source=None) for record in records]


def write(records: list[Record]) -> str:
    out = io.StringIO()
    hayagriva.WRITER.write(records, out, WriteOptions())
    return out.getvalue()


def library() -> dict[str, Record]:
    return {record.id: record for record in read(LIBRARY.read_text(encoding="utf-8"))}


# -- reading ----------------------------------------------------------------------------------
def test_a_journal_article_takes_its_venue_from_its_periodical_parent() -> None:
    item = to_csl(library()["okafor2021"])
    assert item == {
        "id": "okafor2021", "type": "article-journal",
        "author": [{"family": "Okafor", "given": "Chidinma A."},
                   {"family": "Lindqvist", "given": "Erik"},
                   {"family": "Berg", "given": "Pieter", "non-dropping-particle": "van der"}],
        "title": 'Phonon-limited mobility in two-dimensional <span class="nocase">MoS2</span> '
                 "transistors",
        "page": "1204-1213", "DOI": "10.1021/acsnano.0c09876", "PMID": "33691234",
        "language": "en",
        "abstract": "We compute the intrinsic mobility of monolayer transistors from first "
                    "principles.",
        "container-title": "ACS Nano", "container-title-short": "ACS Nano", "volume": "15",
        "issue": "3", "ISSN": "1936-0851",
        "issued": {"date-parts": [[2021, 3, 15]]},
    }


def test_a_chapter_takes_editors_and_publisher_from_its_anthology() -> None:
    record = library()["haddad2019"]
    assert (record.type, record.get("container-title"), record.get("publisher"),
            record.get("publisher-place"), record.get("ISBN")) == (
        "chapter", "Paper Worlds", "Cambridge University Press", "Cambridge",
        "978-1-108-47211-5")
    assert record.names["editor"] == (Name(family="Moreau", given="Camille"),
                                      Name(family="Tanaka", given="Hiroshi"))
    assert record.extra == {"hayagriva.container.type": "anthology"}


def test_a_conference_paper_has_proceedings_and_the_conference_as_its_event() -> None:
    record = library()["silva2022"]
    assert record.type == "paper-conference"
    assert {k: record.get(k) for k in ("container-title", "publisher", "event-title",
                                      "event-place")} == {
        "container-title": "Proceedings of the 60th Annual Meeting of the Association for "
                           "Computational Linguistics",
        "publisher": "Association for Computational Linguistics",
        "event-title": "ACL 2022", "event-place": "Dublin, Ireland"}
    assert record.authors == (Name(family="Silva", given="Ana Beatriz"),
                              Name(family="Nguyen", given="Thi Minh"))


def test_identifiers_come_from_serial_number() -> None:
    records = library()
    assert records["nrel2020"].get("number") == "NREL/TP-5000-77384"
    assert records["arxiv2023"].eprint == Eprint("arXiv", "2305.01234")
    assert records["arxiv2023"].dates["accessed"] == Date.of(2024, 1, 10)
    assert records["tidytext"].get("version") == "1.4.2"


def test_a_prefix_is_a_dropping_particle_and_a_particle_in_the_name_a_non_dropping_one(
        ) -> None:
    """As Typst shows them: ``Cruz, M. de la`` and ``van der Berg, P.`` in APA."""
    records = library()
    assert records["brennan2018"].names["editor"] == (
        Name(family="Cruz", given="Mateo", dropping_particle="de la"),)
    assert records["okafor2021"].authors[2] == Name(family="Berg", given="Pieter",
                                                    non_dropping_particle="van der")


def test_a_name_without_a_comma_is_a_literal_name() -> None:
    assert library()["nrel2020"].authors == (
        Name(literal="National Renewable Energy Laboratory"),)


def test_a_verbatim_title_is_case_protected_and_affiliated_translators_are_translators(
        ) -> None:
    record = library()["proust1913"]
    assert record.fields["title"] == rich([Styled(Style.NOCASE, ("Du côté de chez Swann",))])
    assert record.names["translator"] == (Name(family="Davis", given="Lydia"),)


def test_a_field_refbridge_has_no_slot_for_is_kept_and_written_back() -> None:
    record = library()["lecture2020"]
    assert record.extra == {"hayagriva.runtime": '"01:12:40"'}
    assert '  runtime: 01:12:40\n' in write([record])


def test_braces_keep_case_and_dollars_hold_a_formula() -> None:
    (record,) = read('x:\n  type: article\n  title: "The {DNA} of $O(n^2)$ sorting, 5\\\\$"\n')
    assert record.fields["title"] == rich(["The ", Styled(Style.NOCASE, ("DNA",)), " of ",
                                           Math("O(n^2)"), " sorting, 5$"])


def test_a_year_zero_is_one_bc() -> None:
    (record,) = read("x:\n  type: misc\n  title: Tablet\n  date: '0000'\n")
    assert record.issued == Date(start=DateParts(-1))


# -- bad input --------------------------------------------------------------------------------
def test_bad_yaml_is_an_error_naming_the_line() -> None:
    with pytest.raises(ParseError) as caught:
        read("a:\n  type: book\n  title: [Unclosed\nb:\n  type: book\n")
    assert caught.value.file == "refs.yml"
    assert caught.value.line == 4


def test_an_entry_that_is_no_mapping_is_skipped_with_its_line_and_the_rest_read() -> None:
    diagnostics = Diagnostics()
    records = read("a: just text\nb:\n  type: book\n  title: Kept\n", diagnostics)
    assert [r.id for r in records] == ["b"]
    assert [(m.level, m.line, m.message) for m in diagnostics.messages] == [
        ("error", 1, "entry 'a': entry 'a' must be a mapping of fields")]


def test_an_unknown_entry_type_is_read_as_misc_with_a_warning() -> None:
    diagnostics = Diagnostics()
    (record,) = read("a:\n  type: podcast\n  title: Episode 4\n", diagnostics)
    assert record.type == "document"
    assert [(m.line, m.message) for m in diagnostics.warnings] == [
        (1, "entry 'a': unknown entry type 'podcast'; read as misc")]


def test_converting_bad_yaml_fails_and_writes_nothing(tmp_path: Path) -> None:
    source, target = tmp_path / "refs.yml", tmp_path / "out.bib"
    source.write_text("a:\n  title: \"unclosed\n", encoding="utf-8")
    status, _, stderr = run_cli("convert", str(source), "--to", "biblatex", "-o", str(target))
    assert status == 1
    assert "refs.yml:3" in stderr and "not valid YAML" in stderr
    assert "Traceback" not in stderr
    assert not target.exists()


def test_a_hayagriva_file_is_detected_by_its_content() -> None:
    assert detect_reader("-", LIBRARY.read_text(encoding="utf-8")[:2048]).name == "hayagriva"


# -- writing ----------------------------------------------------------------------------------
BIB = r"""@article{cahn1958,
  author = {Cahn, John W. and Hilliard, John E.},
  title = {Free Energy of a Nonuniform System. {I}. Interfacial Free Energy},
  journal = {The Journal of Chemical Physics},
  volume = {28},
  number = {2},
  pages = {258--267},
  year = {1958},
  doi = {10.1063/1.1744102},
  issn = {0021-9606},
}
@incollection{beauvoir1990,
  author = {de Beauvoir, Simone},
  title = {Pyrrhus et Cin{\'e}as},
  booktitle = {Essais philosophiques},
  editor = {Lecarme-Tabone, Éliane},
  publisher = {Gallimard},
  address = {Paris},
  pages = {113--160},
  year = {1990},
}
@phdthesis{tanaka2015,
  author = {Tanaka, Yuki},
  title = {Dislocation dynamics in {HCP} metals},
  school = {Kyoto University},
  year = {2015},
  month = mar,
  url = {https://repository.kulib.kyoto-u.ac.jp/dspace/handle/2433/199318},
  urldate = {2023-09-01},
  keywords = {plasticity, magnesium},
}
"""

EXPECTED = """cahn1958:
  type: article
  title: Free Energy of a Nonuniform System. {I}. Interfacial Free Energy
  author:
  - Cahn, John W.
  - Hilliard, John E.
  date: 1958
  page-range: 258–267
  serial-number:
    doi: 10.1063/1.1744102
  parent:
    type: periodical
    title: The Journal of Chemical Physics
    volume: 28
    issue: 2
    serial-number:
      issn: 0021-9606

beauvoir1990:
  type: chapter
  title: Pyrrhus et Cinéas
  author:
  - name: de Beauvoir
    given-name: Simone
  date: 1990
  page-range: 113–160
  parent:
    type: book
    title: Essais philosophiques
    editor:
    - Lecarme-Tabone, Éliane
    publisher:
      name: Gallimard
      location: Paris

tanaka2015:
  type: thesis
  title: Dislocation dynamics in {HCP} metals
  author:
  - Tanaka, Yuki
  date: 2015-03
  genre: PhD thesis
  publisher: Kyoto University
  url:
    value: https://repository.kulib.kyoto-u.ac.jp/dspace/handle/2433/199318
    date: 2023-09-01
  refbridge:
    keyword: plasticity, magnesium
"""


def test_a_bib_file_becomes_the_hayagriva_entries_typst_expects(tmp_path: Path) -> None:
    source = tmp_path / "refs.bib"
    source.write_text(BIB, encoding="utf-8")
    status, out, stderr = run_cli("convert", str(source), "--to", "hayagriva")
    assert (status, stderr) == (0, "")
    assert out == EXPECTED


def test_reading_and_writing_refbridges_own_file_gives_it_back_exactly() -> None:
    written = write(read(LIBRARY.read_text(encoding="utf-8")))
    again = read(written)
    assert unsourced(again) == unsourced(read(LIBRARY.read_text(encoding="utf-8")))
    assert write(again) == written


def test_what_the_format_has_no_field_for_travels_in_the_refbridge_key() -> None:
    record = Record(
        id="lee2024", type="article-magazine",
        fields={"title": rich(["Why ", Styled(Style.ITALIC, ("Drosophila",)), " sleeps"]),
                "container-title": "The Atlantic"},
        names={"author": (Name(family="Lee", given="Min-jun"),)},
        dates={"issued": Date(start=DateParts(2024, 5), end=DateParts(2024, 6))},
        keywords=("sleep", "genetics"), extra={"bibtex.mrnumber": "4412345"},
        citation_key="lee2024")
    text = write([record])
    assert text == """lee2024:
  type: article
  title: Why Drosophila sleeps
  author:
  - Lee, Min-jun
  date: 2024-05
  parent:
    type: periodical
    title: The Atlantic
  refbridge:
    type: article-magazine
    title: Why <i>Drosophila</i> sleeps
    issued:
      date-parts:
      - - 2024
        - 5
      - - 2024
        - 6
    keyword: sleep, genetics
    custom:
      extra:
        bibtex.mrnumber: '4412345'
"""
    assert unsourced(read(text)) == [record]


def test_record_text_never_becomes_a_formula_or_a_protected_group() -> None:
    record = Record(id="x", type="book", fields={"title": "Costs {in} $ and \\$ of C\\C++}"},
                    citation_key="x")
    text = write([record])
    assert "  title: Costs \\{in\\} \\$ and \\\\\\$ of C\\\\C++\\}\n" in text
    assert unsourced(read(text)) == [record]


def test_a_date_shaped_value_of_another_format_comes_back_as_text() -> None:
    # JabRef's creationdate travels in the residue, unquoted as the writer writes dates
    record = Record(id="TelPeak", type="article-journal", citation_key="TelPeak",
                    fields={"title": "Telescope Peak from Zabriskie Point"},
                    extra={"bibtex.creationdate": "1955-11-30"})
    text = write([record])
    assert "        bibtex.creationdate: 1955-11-30\n" in text
    assert [r.extra for r in read(text)] == [{"bibtex.creationdate": "1955-11-30"}]
