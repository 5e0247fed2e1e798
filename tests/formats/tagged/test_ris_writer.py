"""RIS writer: tags Zotero, EndNote and Mendeley import, and a residue note for the rest."""

from __future__ import annotations

import io
import json

import pytest
from support import SAMPLES

from refbridge.errors import Diagnostics
from refbridge.formats.tagged.ris import READER, WRITER
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.pipeline import read_file, with_keys
from refbridge.registry import WriteOptions


def write(records: list[Record]) -> str:
    out = io.StringIO()
    WRITER.write(records, out, WriteOptions())
    return out.getvalue()


def read(text: str) -> list[Record]:
    return list(READER.read(io.StringIO(text), "out.ris", Diagnostics(strict=True)))


KNUTH = Record(
    id="knuth1984", type="article-journal", citation_key="knuth1984",
    fields={"title": "Literate Programming", "container-title": "The Computer Journal",
            "volume": "27", "issue": "2", "page": "97-111", "DOI": "10.1093/comjnl/27.2.97",
            "URL": "https://example.org/a;b"},
    names={"author": (Name(family="Knuth", given="Donald E."),),
           "editor": (Name(family="Gogh", given="Vincent", non_dropping_particle="van",
                           suffix="Jr."), Name(literal="ACM"))},
    dates={"issued": Date(start=DateParts(1984, 2, 1))},
    keywords=("programming", "TeX"),
)


def test_a_journal_article_is_written_with_the_standard_tags() -> None:
    assert write([KNUTH]) == (
        "TY  - JOUR\n"
        "ID  - knuth1984\n"
        "TI  - Literate Programming\n"
        "AU  - Knuth, Donald E.\n"
        "A2  - van Gogh, Vincent, Jr.\n"
        "A2  - ACM\n"
        "T2  - The Computer Journal\n"
        "PY  - 1984\n"
        "DA  - 1984/02/01/\n"
        "VL  - 27\n"
        "IS  - 2\n"
        "SP  - 97\n"
        "EP  - 111\n"
        "DO  - 10.1093/comjnl/27.2.97\n"
        "UR  - https://example.org/a;b\n"
        "KW  - programming\n"
        "KW  - TeX\n"
        "ER  - \n")


def test_what_the_tags_carry_needs_no_residue_note() -> None:
    assert "refbridge:" not in write([KNUTH])
    assert read(write([KNUTH]))[0].replace(source=None) == KNUTH


def test_a_seed_preprint_gets_the_arxiv_note_and_publisher_zotero_imports() -> None:
    records = with_keys(read_file(str(SAMPLES / "zhengping-qian.profile.txt"), Diagnostics()),
                        WriteOptions())
    first = write(records[:1]).splitlines()
    assert first[:7] == ["TY  - UNPB", "ID  - qian2026specdb",
                         ("TI  - SpecDB: LLM-Generated Customized Databases via Feature-Oriented "
                         "Decomposition"), "AU  - Qian, Zhengping", "PY  - 2026", "PB  - arXiv",
                         "DB  - arXiv"]
    assert first[-3:] == ["N1  - arXiv [cs.DB]",
                          ('N1  - refbridge: {"custom": {"extra": {"profile.owner": '
                          '"Zhengping Qian"}, "incomplete-names": ["author"]}}'),
                          "ER  - "]


def test_a_known_arxiv_identifier_is_in_the_note() -> None:
    record = Record(id="x", type="article", fields={"title": "T"},
                    eprint=Eprint("arXiv", "2601.00001v2", "cs.DB"))
    assert "N1  - arXiv:2601.00001v2 [cs.DB]\n" in write([record])


def test_a_published_paper_with_an_arxiv_eprint_keeps_its_publisher_out_of_arxiv() -> None:
    record = Record(
        id="smith2018", type="article-journal", citation_key="smith2018",
        fields={"title": "A Search for Dark Photons", "container-title":
                "Physical Review Letters", "volume": "120", "issue": "10", "page": "101801"},
        names={"author": (Name(family="Smith", given="John"),)},
        dates={"issued": Date.of(2018)}, eprint=Eprint("arXiv", "1801.00001", "hep-ex"))
    text = write([record])
    assert text == ("TY  - JOUR\nID  - smith2018\nTI  - A Search for Dark Photons\n"
                    "AU  - Smith, John\nT2  - Physical Review Letters\nPY  - 2018\n"
                    "VL  - 120\nIS  - 10\nSP  - 101801\nN1  - arXiv:1801.00001 [hep-ex]\n"
                    "ER  - \n")
    assert read(text)[0].replace(source=None) == record


@pytest.mark.parametrize("pages", ["97--111", "97\u2013111", "97 - 111", "97\u2014111"])
def test_a_page_range_is_cut_into_start_and_end_page(pages: str) -> None:
    lines = write([KNUTH.replace(fields={**KNUTH.fields, "page": pages})]).splitlines()
    assert lines[lines.index("SP  - 97") + 1] == "EP  - 111"


def test_what_ris_cannot_hold_goes_into_one_residue_note_and_comes_back() -> None:
    record = Record(
        id="bach", type="musical_score", citation_key="bach",
        fields={"title": "Messe in h-Moll", "version": "BWV 232"},
        names={"composer": (Name(family="Bach", given="Johann Sebastian"),)},
        dates={"issued": Date(start=DateParts(1733), end=DateParts(1749), circa=True)},
        extra={"bibtex.mrnumber": "MR1"})
    text = write([record])
    (note,) = [line for line in text.splitlines() if line.startswith("N1  - refbridge: ")]
    assert "AU  - Bach, Johann Sebastian" in text.splitlines()  # a score's AU: its composer
    assert json.loads(note.removeprefix("N1  - refbridge: ")) == {
        "custom": {"extra": {"bibtex.mrnumber": "MR1"}},
        "issued": {"circa": True, "date-parts": [[1733], [1749]]},
        "version": "BWV 232"}
    assert read(text)[0].replace(source=None) == record


def test_record_text_can_never_become_a_tag_line() -> None:
    record = Record(id="x", type="article-journal", citation_key="x",
                    fields={"title": "T", "abstract": "One\nER  - \nTY  - BOOK\nAU  - Evil, E."})
    text = write([record])
    assert [line[:2] for line in text.splitlines() if not line.startswith(" ")] == [
        "TY", "ID", "TI", "AB", "N1", "ER"]
    assert read(text)[0].replace(source=None) == record


def test_records_are_separated_by_a_blank_line() -> None:
    text = write([KNUTH, KNUTH.replace(citation_key="knuth1984a")])
    assert "ER  - \n\nTY  - JOUR\n" in text and len(read(text)) == 2


@pytest.mark.parametrize("sample", ["varied.json", "varied-types.json"])
def test_every_item_type_of_the_varied_samples_round_trips(sample: str) -> None:
    records = with_keys(read_file(str(SAMPLES / sample), Diagnostics()), WriteOptions())
    back = read(write(records))
    assert [r.replace(source=None) for r in back] == [r.replace(source=None) for r in records]


def test_every_seed_round_trips_under_its_citation_key() -> None:
    for name in ("zhengping-qian", "qinwei-yang"):
        records = with_keys(read_file(str(SAMPLES / f"{name}.profile.txt"), Diagnostics()),
                            WriteOptions())
        back = read(write(records))
        assert [r.replace(source=None) for r in back] == [
            r.replace(source=None, id=r.citation_key) for r in records]


def test_exclude_fields_takes_model_parts_and_ris_tags() -> None:
    out = io.StringIO()
    WRITER.write([KNUTH], out, WriteOptions(exclude_fields=frozenset({"KW", "editor", "DOI"})))
    assert [line[:2] for line in out.getvalue().splitlines()] == [
        "TY", "ID", "TI", "AU", "T2", "PY", "DA", "VL", "IS", "SP", "EP", "UR", "ER"]


def test_fields_writes_only_the_parts_asked_for() -> None:
    out = io.StringIO()
    WRITER.write([KNUTH], out, WriteOptions(include_fields=frozenset({"title", "AU"})))
    assert out.getvalue() == ("TY  - JOUR\nID  - knuth1984\nTI  - Literate Programming\n"
                              "AU  - Knuth, Donald E.\nER  - \n")


def test_a_broadcasts_authors_are_written_as_au_for_other_programs() -> None:
    # VIDEO's AU is its director (RIS specification, Zotero): authors without a director are
    # still AU lines, and the residue note makes them authors again for refbridge
    record = Record(id="doc", type="broadcast", citation_key="doc",
                    fields={"title": "Planet Earth"},
                    names={"author": (Name(family="Attenborough", given="David"),)})
    text = write([record])
    assert "AU  - Attenborough, David" in text.splitlines()
    assert read(text)[0].replace(source=None) == record
