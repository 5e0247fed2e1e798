"""Shapes of real libraries that bibtex and biber read and refbridge must read and write back
alike: an empty ``type`` that silences plain's "Technical report", a key with parentheses,
``\\@`` in a value, TABs that biber reads apart from spaces, ``@Comment`` lines without braces.

Each shape is checked on its own (what is read, what is written), then all of them together
with the real tools (benchmarks/fidelity.py): what bibtex and biber print for the library is
what they print for its conversion.
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest
from support import ROOT

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.reader import READER
from refbridge.formats.bibtex.writer import BIBLATEX_WRITER, BIBTEX_WRITER, BibtexWriter
from refbridge.model import Date, DateParts, Record
from refbridge.registry import WriteOptions
from refbridge.richtext import plain

sys.path.insert(0, str(ROOT / "benchmarks"))

from fidelity import BiberSetup, biber_blocks, check_library

DIALECTS = pytest.mark.parametrize("writer", [BIBTEX_WRITER, BIBLATEX_WRITER],
                                   ids=["bibtex", "biblatex"])

#: The shapes, as the libraries wrote them (a TAB before ``and`` and at a title's end).
LIBRARY = """\
@techreport{Sweeney:2002,
  author = {Latanya Sweeney},
  title = {k-Anonymity: A Model for Protecting Privacy},
  institution = {Carnegie Mellon University},
  type = "{}",
  year = 2002
}

@TechReport{Lamport:1994,
  author = {Leslie Lamport},
  title = {How to Write a Proof},
  institution = {DEC Systems Research Center},
  type = {},
  number = {94},
  year = 1994
}

@inproceedings{Vos:2010,
  author = {Marina De Vos and Tina Balke},
  title = {Modelling Legal Norms},
  booktitle = {Proceedings of COIN\\@AAMAS 2010},
  year = 2010
}

@misc{brilliantmaps,
  author = {{\\@brilliantmaps}},
  title = {Map of the Week},
  year = 2016
}

@article{Chen:2019,
  author = {Wei Chen and Ana Silva\tand Rui Costa and Li Wang},
  title = {Deep Learning for Protein Folding\t},
  journal = {Bioinformatics},
  year = 2019
}
"""

#: An Emacs mode line and an ESA document's key: bibtex reads them, biber rejects the library
#: ("syntax error: found "1215.bib", expected ... "{" or "("", "found "(", expected ",""").
PARENTHESISED_KEY = """\
@Comment 1215.bib -*- mode: BibTeX -*-

@techreport{LL:ESA/SPC(2009)6,
  author = {{European Space Agency}},
  title = {Science Programme Committee Resolution},
  institution = {ESA},
  year = 2009
}
"""


def read(text: str) -> tuple[list[Record], list[str]]:
    diagnostics = Diagnostics()
    records = list(READER.read(io.StringIO(text), "refs.bib", diagnostics))
    return records, [str(m) for m in diagnostics.messages]


def written(records: list[Record], writer: BibtexWriter) -> str:
    out = io.StringIO()
    writer.write(records, out, WriteOptions())
    return out.getvalue()


def entry(text: str, key: str) -> str:
    """The entry ``key`` of a written .bib."""
    start = text.index("{" + key + ",")
    return text[text.rindex("@", 0, start):text.index("\n}\n", start) + 3]


def test_an_empty_type_silences_the_genre_of_a_techreport() -> None:
    records, messages = read(LIBRARY)
    assert messages == []
    assert [r.get("genre") for r in records[:2]] == [None, None]


@DIALECTS
def test_an_empty_type_is_written_back_empty(writer: BibtexWriter) -> None:
    text = written(read(LIBRARY)[0], writer)
    assert "  type = {{}},\n" in entry(text, "Sweeney:2002")
    assert "  type = {},\n" in entry(text, "Lamport:1994")


def test_a_comment_line_without_braces_is_a_comment() -> None:
    records, messages = read(PARENTHESISED_KEY)
    assert records[0].hints["bibtex.before"] == "@Comment 1215.bib -*- mode: BibTeX -*-"
    assert messages[0] == ("refs.bib:1: warning: an @comment without braces: bibtex reads it "
                           "as a comment, and so does refbridge (a .bib is written with it as "
                           "it is); biber stops with a syntax error and reads no entry of the "
                           "file")


@DIALECTS
def test_a_comment_line_without_braces_is_written_back_as_it_is(
        writer: BibtexWriter) -> None:
    assert written(read(PARENTHESISED_KEY)[0], writer).startswith(
        "@Comment 1215.bib -*- mode: BibTeX -*-\n\n@techreport{")


def test_a_comment_without_braces_ends_where_an_entry_starts_on_its_line() -> None:
    records, _ = read("@comment see below @misc{a, title = {A}}\n")
    assert [r.id for r in records] == ["a"]
    assert records[0].hints["bibtex.before"] == "@comment see below "


def test_a_key_with_parentheses_is_read_as_bibtex_reads_it() -> None:
    records, messages = read(PARENTHESISED_KEY)
    assert [r.citation_key for r in records] == ["LL:ESA/SPC(2009)6"]
    assert messages[1:] == [("refs.bib:3: warning: the key 'LL:ESA/SPC(2009)6' holds "
                             "parentheses: bibtex reads it; biber stops with a syntax error and "
                             "reads no entry of the file; written back as it is")]


@DIALECTS
def test_a_key_with_parentheses_is_written_back(writer: BibtexWriter) -> None:
    assert "\n@techreport{LL:ESA/SPC(2009)6,\n" in written(read(PARENTHESISED_KEY)[0], writer)


def test_the_spacing_factor_command_prints_nothing() -> None:
    records = read(LIBRARY)[0]
    assert plain(records[2].fields["container-title"]) == "Proceedings of COINAAMAS 2010"
    assert records[3].names["author"][0].literal == "brilliantmaps"


@DIALECTS
def test_the_spacing_factor_command_is_written_back(writer: BibtexWriter) -> None:
    text = written(read(LIBRARY)[0], writer)
    assert "  booktitle = {Proceedings of COIN\\@AAMAS 2010},\n" in entry(text, "Vos:2010")
    assert "  author = {{\\@brilliantmaps}},\n" in entry(text, "brilliantmaps")


def test_a_tab_before_and_separates_names_as_bibtex_reads_them() -> None:
    chen = read(LIBRARY)[0][4]
    assert [n.family for n in chen.names["author"]] == ["Chen", "Silva", "Costa", "Wang"]


@DIALECTS
def test_tabs_are_written_back_for_biber_which_reads_them_apart(writer: BibtexWriter) -> None:
    chen = entry(written(read(LIBRARY)[0], writer), "Chen:2019")
    assert "  author = {Wei Chen and Ana Silva\tand Rui Costa and Li Wang},\n" in chen
    assert "  title = {Deep Learning for Protein Folding\t},\n" in chen


@pytest.fixture(scope="module")
def biber_setup(tmp_path_factory: pytest.TempPathFactory) -> BiberSetup:
    for tool in ("bibtex", "biber", "pdflatex"):
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool} (TeX Live)")
    return BiberSetup.make(tmp_path_factory.mktemp("biber-setup"))


@pytest.mark.parametrize("route", ["direct", "csl-json"])
def test_bibtex_and_biber_print_the_same_for_the_converted_shapes(
        route: str, biber_setup: BiberSetup, tmp_path: Path) -> None:
    library = tmp_path / "shapes.bib"
    library.write_text(LIBRARY, encoding="utf-8")
    result = check_library(library, route, tmp_path, ("plain", "alpha"), biber_setup)
    assert {tool: (measured.identical, len(measured.entries))
            for tool, measured in result.tools.items()} == {"bibtex": (5, 5), "biber": (5, 5)}


def test_bibtex_prints_the_same_for_a_converted_comment_line_and_key_with_parentheses(
        biber_setup: BiberSetup, tmp_path: Path) -> None:
    library = tmp_path / "esa.bib"
    library.write_text(PARENTHESISED_KEY, encoding="utf-8")
    result = check_library(library, "direct", tmp_path, ("plain", "alpha"), biber_setup)
    assert {tool: (measured.identical, len(measured.entries))
            for tool, measured in result.tools.items()} == {"bibtex": (1, 1)}
    assert biber_blocks(library, biber_setup, tmp_path / "biber") == {}  # it reads nothing


#: MeSH headings of a MEDLINE record, as keywords (two of them hold a comma).
MESH = Record(id="pmid31452104", type="article-journal", citation_key="pmid31452104",
              fields={"title": "Ten simple rules"},
              keywords=("Humans", "Models, Statistical", "Data Interpretation, Statistical"))


def test_a_braced_group_in_keywords_is_one_keyword() -> None:
    records, _ = read("@article{mesh, title = {Ten simple rules},\n"
                      "  keywords = {Humans, {Models, Statistical}; {\\\"U}bersicht}}\n")
    assert records[0].keywords == ("Humans", "Models, Statistical", "Übersicht")


@DIALECTS
def test_a_keyword_holding_a_comma_is_written_in_braces(writer: BibtexWriter) -> None:
    text = written([MESH], writer)
    assert "  keywords = {Humans, {Models, Statistical}, {Data Interpretation, Statistical}},\n" \
        in text
    assert read(text)[0][0].keywords == MESH.keywords


def test_biber_reads_a_braced_keyword_as_one(biber_setup: BiberSetup, tmp_path: Path) -> None:
    library = tmp_path / "mesh.bib"
    library.write_text(written([MESH], BIBLATEX_WRITER), encoding="utf-8")
    block = biber_blocks(library, biber_setup, tmp_path / "biber")["pmid31452104"]
    assert "\\keyw{Humans,{Models,Statistical},{Data Interpretation,Statistical}}" in block


#: Web of Science's BibTeX export: the month field holds a day or a range of months.
WOS_MONTHS = """\
@article{ WOS:000471234500001,
Author = {Qi, Haixia and Chen, Li},
Title = {Streaming Joins over Sliding Windows},
Journal = {VLDB JOURNAL},
Year = {2019},
Month = {JUL 3},
Volume = {28},
}

@article{ WOS:000471234500002,
Author = {Qi, Haixia},
Title = {Adaptive Partitioning},
Journal = {IEEE SOFTWARE},
Year = {2020},
Month = {NOV-DEC},
}
"""


def test_a_month_with_a_day_is_read_into_the_date() -> None:
    records, messages = read(WOS_MONTHS)
    assert messages == []
    assert records[0].dates["issued"] == Date(start=DateParts(2019, 7, 3))


def test_a_range_of_months_is_read_into_the_date() -> None:
    records, _ = read(WOS_MONTHS)
    assert records[1].dates["issued"] == Date(start=DateParts(2020, 11), end=DateParts(2020, 12))


@DIALECTS
def test_a_free_text_month_is_written_back_as_written(writer: BibtexWriter) -> None:
    text = written(read(WOS_MONTHS)[0], writer)
    assert "  year = {2019},\n  month = {JUL 3},\n" in entry(text, "WOS:000471234500001")
    assert "  year = {2020},\n  month = {NOV-DEC},\n}" in entry(text, "WOS:000471234500002")


def test_bibtex_prints_the_same_for_converted_free_text_months(
        biber_setup: BiberSetup, tmp_path: Path) -> None:
    library = tmp_path / "wos.bib"
    library.write_text(WOS_MONTHS, encoding="utf-8")
    result = check_library(library, "csl-json", tmp_path, ("plain", "alpha"), biber_setup)
    assert (result.tools["bibtex"].identical, len(result.tools["bibtex"].entries)) == (2, 2)


#: Web of Science's older .bib braces every value twice.
WOS_DOUBLE_BRACED = """@article{ ISI:000429757300002,
Author = {Lindqvist, Karin and Pekka, Aho},
Title = {{Fish stocks of a shallow archipelago}},
Journal = {{ESTUARINE COASTAL AND SHELF SCIENCE}},
Year = {{2018}},
Volume = {{204}},
Month = {{MAY 1}},
DOI = {{10.1016/j.ecss.2018.01.099}},
}

@article{ ISI:000429757300003,
Author = {Lindqvist, Karin},
Title = {{Seabird counts}},
Year = {{2018}},
Month = {{FEB}},
}
"""


def test_a_double_braced_month_and_doi_are_read() -> None:
    records, messages = read(WOS_DOUBLE_BRACED)
    assert messages == []
    assert [r.dates["issued"] for r in records] == [Date(start=DateParts(2018, 5, 1)),
                                                    Date(start=DateParts(2018, 2))]
    assert records[0].get("DOI") == "10.1016/j.ecss.2018.01.099"


@DIALECTS
def test_a_double_braced_month_is_written_back_as_written(writer: BibtexWriter) -> None:
    text = written(read(WOS_DOUBLE_BRACED)[0], writer)
    assert ("  year = {{2018}},\n  volume = {{204}},\n  month = {{MAY 1}},\n"
            in entry(text, "ISI:000429757300002"))
    assert "  year = {{2018}},\n  month = {{FEB}},\n" in entry(text, "ISI:000429757300003")


def test_an_empty_name_in_a_list_is_left_out_with_a_warning() -> None:
    # ScienceDirect writes an editor it has no name for as a lone comma
    records, messages = read('@incollection{Charness2016,\n  title = "Technology, gaming, and '
                             'social networking",\n  editor = "Schaie, K. Warner and ,  and '
                             'Willis, Sherry L. ",\n  year = "2016",\n}\n')
    assert [(n.family, n.given) for n in records[0].names["editor"]] == [
        ("Schaie", "K. Warner"), ("Willis", "Sherry L.")]
    assert messages == [("refs.bib:1: warning: entry 'Charness2016': editor: 1 empty name(s) "
                         "(only a comma) left out")]
