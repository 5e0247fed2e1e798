"""Input formats told apart by content whatever the file is called (standard input, ``.txt``),
and a ``--from`` that names the wrong format is an error, not an empty output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import FIXTURES, ROOT, run_cli

from refbridge.errors import Diagnostics, ParseError
from refbridge.pipeline import read_file
from refbridge.registry import UnknownFormat, detect_reader
from refbridge.runs import ReadOptions

SHARED = ROOT.parent / "shared" / "conformance"

#: RIS as Zotero's RIS translator tests give it, on standard input.
RIS = """TY  - JOUR
T1  - Phase separation in alloys
A1  - Cahn, John W.
JF  - Acta Metallurgica
VL  - 9
SP  - 795
EP  - 801
PY  - 1961
ER  - 
"""
#: RIS without its TY line, as JabRef's "corrupted" RIS fixture (after a byte-order mark).
RIS_WITHOUT_TYPE = """\ufeff
JF  - Empirical Software Engineering
T1  - Editorial: Open Source and Empirical Software Engineering
VL  - 6
IS  - 3
SP  - 193
EP  - 195
PY  - 2001
ER  - 
"""
#: MEDLINE as PubMed writes it.
MEDLINE = """PMID- 22664795
OWN - NLM
STAT- MEDLINE
TI  - Mortality and morbidity in older adults.
AU  - Smith J
FAU - Smith, John
DP  - 2012 Jun
"""
#: MEDLINE as ERIC writes it: no PMID, the title first.
MEDLINE_ERIC = """TI  - Teaching Statistics with Games
AU  - van Groen, Maaike M.
PT  - Journal Articles
SO  - Journal of Statistics Education v20 n1 2012
OT  - Statistics
"""
#: A Web of Science export whose first line starts with a space.
WOS = """ FN Clarivate Analytics Web of Science
VR 1.0
PT J
AU Qi, H
TI Graphene oxide
ER

EF
"""


@pytest.mark.parametrize(("name", "head", "reader"), [
    ("-", RIS, "ris"),
    ("export.txt", RIS, "ris"),
    ("refs.ris", RIS_WITHOUT_TYPE, "ris"),
    ("-", RIS_WITHOUT_TYPE, "ris"),
    ("-", MEDLINE, "nbib"),
    ("pubmed.txt", MEDLINE, "nbib"),
    ("eric.txt", MEDLINE_ERIC, "nbib"),
    ("savedrecs.txt", WOS, "wos"),
    ("-", "<PubmedBookArticleSet>\n<PubmedBookArticle>\n", "pubmed-xml"),
    ("book.xml", "<PubmedBookArticle>\n    <BookDocument>\n", "pubmed-xml"),
    ("Sources.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<Sources></Sources>\n',
     "word-xml"),
    ("-", "%0\n", "endnote"),
])
def test_the_format_is_told_by_content(name: str, head: str, reader: str) -> None:
    assert detect_reader(name, head).name == reader


def test_a_txt_file_no_reader_recognises_is_not_taken_for_a_profile_page() -> None:
    with pytest.raises(UnknownFormat, match=r"^notes\.txt: cannot tell the input format"):
        detect_reader("notes.txt", "<1337>\nAuthor\n  Mustermann  Musterfrau\n")


def test_a_bib_of_comments_is_still_an_empty_bibtex_library() -> None:
    assert detect_reader("refs.bib", "% my references\n").name == "bibtex"


def test_a_better_bibtex_json_export_is_read_as_zotero_item_json() -> None:
    head = (FIXTURES / "better-bibtex.json").read_text("utf-8")
    assert detect_reader("library.json", head).name == "zotero-json"


def test_a_zotero_web_api_answer_is_read_as_zotero_item_json() -> None:
    answer = json.dumps([{"key": "ABCD2345", "version": 3, "data": {
        "key": "ABCD2345", "itemType": "book", "title": "Networks of the Brain"}}])
    assert detect_reader("items.json", answer).name == "zotero-json"


def test_csl_json_is_not_taken_for_zotero_item_json() -> None:
    assert detect_reader("refs.json", '[{"id": "a", "type": "book", "title": "T"}]').name == \
        "csl-json"


def _ris_file(tmp_path: Path) -> Path:
    path = tmp_path / "refs.json"
    path.write_text(json.dumps([{"id": "cahn1961", "type": "article-journal",
                                 "title": "Phase separation in alloys"}]), encoding="utf-8")
    return path


@pytest.mark.parametrize("named", ["ris", "bibtex", "nbib"])
def test_a_wrong_from_is_an_error_naming_the_file_and_what_it_looks_like(
        tmp_path: Path, named: str) -> None:
    path = _ris_file(tmp_path)
    with pytest.raises(ParseError) as error:
        list(read_file(str(path), Diagnostics(), ReadOptions(from_format=named)))
    assert str(error.value) == (f"{path}: read as {named} (--from {named}), but no {named} "
                                "record was found; it looks like csl-json")


def test_a_wrong_from_exits_1_and_writes_no_output(tmp_path: Path) -> None:
    path = _ris_file(tmp_path)
    output = tmp_path / "out.bib"
    code, _, stderr = run_cli("convert", "--from", "ris", str(path), "--to", "bibtex", "-o",
                              str(output))
    assert (code, output.exists()) == (1, False)
    assert stderr.strip().endswith("but no ris record was found; it looks like csl-json")


def test_from_naming_the_format_of_an_empty_library_is_no_error(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text("% nothing yet\n", encoding="utf-8")
    assert list(read_file(str(path), Diagnostics(), ReadOptions(from_format="bibtex"))) == []


def test_ris_on_standard_input_is_read_as_ris(tmp_path: Path) -> None:
    code, stdout, _ = run_cli("convert", "-", "--to", "csl-json", stdin=RIS)
    item = json.loads(stdout)[0]
    assert (code, item["type"], item["author"]) == (
        0, "article-journal", [{"family": "Cahn", "given": "John W."}])


@pytest.mark.parametrize("case", sorted(p.name for p in (SHARED / "zotero-import" / "ris").glob(
    "*.input")) if (SHARED / "zotero-import" / "ris").is_dir() else [])
def test_zoteros_ris_cases_are_detected_as_ris_on_standard_input(case: str) -> None:
    head = (SHARED / "zotero-import" / "ris" / case).read_text("utf-8-sig")[:65536]
    assert detect_reader("-", head).name == "ris"
