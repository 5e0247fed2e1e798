"""The readers of whole dumps: dblp.xml, OpenAlex and Crossref works, the arXiv metadata
snapshot; gzip and tar read as streams."""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

import pytest
from support import FIXTURES, records_of

from refbridge.errors import Diagnostics, ParseError
from refbridge.model import Date, Eprint, Name

DUMPS = FIXTURES / "dumps"
MULLER = Name(family="Müller", given="Jürgen", ids=("orcid:0000-0002-1825-0097",))


def test_dblp_entities_are_read_from_the_bundled_latin1_table() -> None:
    article, paper, _ = records_of(DUMPS / "dblp.xml")
    assert article.authors == (MULLER, Name(family="Olivier", given="Anaïs"))
    assert paper.authors == (Name(family="Sørensen", given="Søren"),)
    assert paper.title == "Index Structures for Naïve Readers"


def test_dblp_records_are_mapped_as_the_person_pages_map_them() -> None:
    article, paper, corr = records_of(DUMPS / "dblp.xml")
    assert (article.type, article.get("DOI"), article.get("page"), article.issued) == (
        "article-journal", "10.1145/3650001", "12:1-12:38", Date.of(2024))
    assert paper.type == "paper-conference"
    assert corr.type == "article"
    assert corr.eprint == Eprint("arXiv", "2401.01234")


def test_dblp_home_pages_are_skipped_without_a_word() -> None:
    diagnostics = Diagnostics()
    records = records_of(DUMPS / "dblp.xml", diagnostics=diagnostics)
    assert [r.extra["dblp.key"] for r in records] == [
        "journals/tods/MullerO24", "conf/vldb/Sorensen23", "journals/corr/abs-2401-01234"]
    assert diagnostics.messages == []


def test_a_dtd_beside_the_dump_declares_its_entities(tmp_path: Path) -> None:
    (tmp_path / "dblp.dtd").write_text('<!ENTITY uuml "ue">\n<!ENTITY iuml "i">\n'
                                       '<!ENTITY oslash "o">\n')
    (tmp_path / "dblp.xml").write_bytes((DUMPS / "dblp.xml").read_bytes())
    assert records_of(tmp_path / "dblp.xml")[0].authors[0].family == "Mueller"


def test_a_gzipped_dblp_dump_is_read_as_its_xml(tmp_path: Path) -> None:
    packed = tmp_path / "dblp.xml.gz"
    packed.write_bytes(gzip.compress((DUMPS / "dblp.xml").read_bytes()))
    assert [r.title for r in records_of(packed)] == [r.title for r in records_of(
        DUMPS / "dblp.xml")]


def test_a_broken_dblp_dump_names_the_line(tmp_path: Path) -> None:
    broken = tmp_path / "dblp.xml"
    broken.write_text('<?xml version="1.0"?>\n<dblp>\n<article key="a">\n<title>T</titel>'
                      "\n</article></dblp>\n")
    with pytest.raises(ParseError, match=r"dblp.xml:4:\d+: not well-formed XML"):
        records_of(broken)


def test_openalex_works_are_mapped_as_the_api_reader_maps_a_work() -> None:
    article, preprint = records_of(DUMPS / "openalex-works.jsonl")
    assert article.id == "openalex:W4390000001"
    assert article.authors[0] == Name(family="Müller", given="Jürgen", ids=(
        "openalex:A5000000001", "orcid:0000-0002-1825-0097"))
    assert (article.get("DOI"), article.get("container-title"), article.get("page"),
            article.issued) == ("10.1145/3650001", "ACM Transactions on Database Systems",
                                "1-38", Date.of(2024, 4, 2))
    assert "profile.owner" not in article.extra
    assert (preprint.type, preprint.eprint) == ("article", Eprint("arXiv", "2401.01234"))


def test_a_line_that_is_not_json_is_reported_and_the_rest_read(tmp_path: Path) -> None:
    dump = tmp_path / "works.jsonl"
    lines = (DUMPS / "openalex-works.jsonl").read_text().splitlines()
    dump.write_text(f'{lines[0]}\n{{"id": "https://openalex.org/W1", \n{lines[1]}\n')
    diagnostics = Diagnostics()
    records = records_of(dump, diagnostics=diagnostics)
    assert len(records) == 2
    assert [(m.line, m.message.split(":")[0]) for m in diagnostics.messages] == [
        (2, "not valid JSON")]


def test_crossref_pages_give_every_work() -> None:
    article, paper = records_of(DUMPS / "crossref-works.jsonl")
    assert article.authors == (MULLER, Name(family="Olivier", given="Anaïs"))
    assert (article.get("container-title-short"), article.get("number"), article.get("ISSN"),
            article.issued, article.get("abstract"), article.keywords) == (
        "ACM Trans. Database Syst.", "12", "0362-5915", Date.of(2024, 4, 2),
        "Joins & streams.", ("Information Systems",))
    assert paper.type == "paper-conference"
    assert paper.title == "A Retracted Result: On Sorting"
    assert paper.authors == (Name(literal="The Invented Consortium"),)
    assert paper.names["editor"] == (Name(family="Major", given="Mary"),)


def test_the_crossref_public_data_file_is_a_tar_of_gzipped_pages(tmp_path: Path) -> None:
    archive = tmp_path / "crossref.tar"
    page = gzip.compress((DUMPS / "crossref-works.jsonl").read_bytes().rstrip(b"\n"))
    with tarfile.open(archive, "w") as tar:
        for name in ("0.json.gz", "1.json.gz"):
            member = tarfile.TarInfo(name)
            member.size = len(page)
            tar.addfile(member, io.BytesIO(page))
    assert [r.get("DOI") for r in records_of(archive)] == [
        "10.1145/3650001", "10.5555/retracted.2022.7"] * 2


def test_a_truncated_gzip_file_is_an_error_naming_it(tmp_path: Path) -> None:
    packed = tmp_path / "works.jsonl.gz"
    packed.write_bytes(gzip.compress((DUMPS / "openalex-works.jsonl").read_bytes())[:-40])
    with pytest.raises(ParseError, match="works.jsonl.gz: cannot unpack"):
        records_of(packed)


def test_arxiv_metadata_papers_are_preprints_with_their_latest_version() -> None:
    learned, strings = records_of(DUMPS / "arxiv-metadata.jsonl")
    assert learned.id == "arxiv:2401.01234"
    assert learned.title == "Learned Cardinalities, Revisited"
    assert learned.authors == (Name(family="Wei", given="Li"),
                               Name(family="Dubois", given="René"))
    assert learned.eprint == Eprint("arXiv", "2401.01234v2", "cs.DB", ("cs.LG",))
    assert learned.issued == Date.of(2024, 1, 3)
    assert learned.extra == {"arxiv.comment": "12 pages, 4 figures",
                             "arxiv.license": "http://creativecommons.org/licenses/by/4.0/",
                             "arxiv.updated": "2024-02-09", "arxiv.published": "2024-01-03"}
    assert (strings.get("DOI"), strings.extra["arxiv.journal-ref"]) == (
        "10.5555/plb.1999.001", "Phys. Lett. B 450 (1999) 1-9")


@pytest.mark.parametrize(("name", "reader"), [
    ("dblp.xml", "dblp-xml"), ("openalex-works.jsonl", "openalex-works"),
    ("crossref-works.jsonl", "crossref-works"), ("arxiv-metadata.jsonl", "arxiv-metadata")])
def test_each_dump_is_told_by_its_content(name: str, reader: str) -> None:
    from refbridge.registry import detect_reader
    from refbridge.textio import open_input

    with open_input(str(DUMPS / name), Diagnostics()) as (_, head):
        assert detect_reader(name, head).name == reader
