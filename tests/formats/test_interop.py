"""Records to and from bibtexparser v2's ``Library`` and pybtex's ``BibliographyData``."""

from __future__ import annotations

import pytest

import refbridge
from refbridge.model import Name

bibtexparser = pytest.importorskip("bibtexparser", minversion="2")
from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts
from pybtex.database import parse_string as pybtex_parse

BIB = r"""@string{cj = "The Computer Journal"}

@article{knuth1984,
  author = {Knuth, Donald E. and van der Berg, Jan and Smith, Jr., John},
  title = {Literate Programming},
  journal = cj,
  year = 1984,
  month = may,
  pages = {97--111},
}

@inproceedings{lee2020,
  author = {Lee, Ana and M{\"u}ller, Bernd},
  title = {Fast {CRISPR} Screens of \emph{E. coli} with H$_2$O},
  booktitle = {Proceedings of the Conference on Things},
  year = {2020},
}
"""
AUTHORS = {
    "knuth1984": [Name(family="Knuth", given="Donald E."),
                  Name(family="Berg", given="Jan", non_dropping_particle="van der"),
                  Name(family="Smith", given="John", suffix="Jr.")],
    "lee2020": [Name(family="Lee", given="Ana"), Name(family="Müller", given="Bernd")],
}
#: refbridge's .bib of BIB (the macro's definition kept, its use expanded, the month macro
#: kept bare)
WRITTEN = r"""@string{cj = "The Computer Journal"}

@article{knuth1984,
  author = {Knuth, Donald E. and van der Berg, Jan and Smith, Jr., John},
  title = {Literate Programming},
  journal = {The Computer Journal},
  year = {1984},
  month = may,
  pages = {97--111},
}

@inproceedings{lee2020,
  author = {Lee, Ana and M{\"u}ller, Bernd},
  title = {Fast {CRISPR} Screens of \emph{E. coli} with H$_2$O},
  booktitle = {Proceedings of the Conference on Things},
  year = {2020},
}
"""


def _summary(found: refbridge.ReadResult) -> list[tuple[object, ...]]:
    return [(record.citation_key, record.type, list(record.authors), record.title,
             record.get("container-title"), record.issued and record.issued.start,
             record.get("page")) for record in found]


EXPECTED_SUMMARY = [
    ("knuth1984", "article-journal", AUTHORS["knuth1984"], "Literate Programming",
     "The Computer Journal", refbridge.read(text="@misc{k, year = 1984, month = may}")[0]
     .issued.start, "97–111"),  # type: ignore[union-attr]
    ("lee2020", "paper-conference", AUTHORS["lee2020"],
     "Fast CRISPR Screens of E. coli with H₂O", "Proceedings of the Conference on Things",
     refbridge.read(text="@misc{k, year = 2020}")[0].issued.start, None),  # type: ignore[union-attr]
]


def test_the_month_of_the_expected_dates_is_may() -> None:
    assert EXPECTED_SUMMARY[0][5].month == 5  # type: ignore[union-attr]


@pytest.mark.parametrize("stack", [None, [], [SeparateCoAuthors()],
                                   [SeparateCoAuthors(), SplitNameParts()]],
                         ids=["default", "raw", "coauthors", "name-parts"])
def test_a_library_reads_as_its_bib_does(stack: list[object] | None) -> None:
    library = bibtexparser.parse_string(BIB, parse_stack=stack)
    found = refbridge.from_bibtexparser(library)
    assert found.diagnostics.messages == []
    assert _summary(found) == _summary(refbridge.read(text=BIB, format="bibtex"))
    assert refbridge.write(found, format="bibtex") == WRITTEN


def test_records_become_a_library_of_entries_and_fields() -> None:
    library = refbridge.to_bibtexparser(refbridge.read(text=BIB, format="bibtex"))
    assert [(entry.entry_type, entry.key, [(f.key, f.value) for f in entry.fields])
            for entry in library.entries] == [
        ("article", "knuth1984", [
            ("author", "Knuth, Donald E. and van der Berg, Jan and Smith, Jr., John"),
            ("title", "Literate Programming"), ("journal", "The Computer Journal"),
            ("year", "1984"), ("month", "may"), ("pages", "97--111")]),
        ("inproceedings", "lee2020", [
            ("author", r'Lee, Ana and M{\"u}ller, Bernd'),
            ("title", r"Fast {CRISPR} Screens of \emph{E. coli} with H$_2$O"),
            ("booktitle", "Proceedings of the Conference on Things"), ("year", "2020")]),
    ]
    assert library.failed_blocks == []


def test_a_library_round_trip_gives_the_same_records() -> None:
    found = refbridge.read(text=BIB, format="bibtex")
    again = refbridge.from_bibtexparser(refbridge.to_bibtexparser(found))
    assert _summary(again) == _summary(found)


def test_bibliography_data_reads_as_its_bib_does() -> None:
    found = refbridge.from_pybtex(pybtex_parse(BIB, "bibtex"))
    assert found.diagnostics.messages == []
    assert _summary(found) == EXPECTED_SUMMARY


def test_pybtex_values_keep_their_latex() -> None:
    data = pybtex_parse(r"@misc{k, title = {100\% of H$_2$O}, note = {A \& B}}", "bibtex")
    record = refbridge.from_pybtex(data)[0]
    assert (record.title, record.get("note")) == ("100% of H₂O", "A & B")


def test_a_pybtex_preamble_is_kept_with_the_records() -> None:
    data = pybtex_parse("@preamble{\"\\newcommand{\\noopsort}[1]{}\"}\n"
                        "@misc{k, title = {T}}", "bibtex")
    written = refbridge.write(refbridge.from_pybtex(data), format="bibtex")
    assert written.startswith('@preamble{"\\newcommand{\\noopsort}[1]{}"}')


def test_records_become_bibliography_data_of_persons_and_fields() -> None:
    data = refbridge.to_pybtex(refbridge.read(text=BIB, format="bibtex"))
    entry = data.entries["knuth1984"]
    assert entry.type == "article"
    assert [(p.last_names, p.first_names, p.prelast_names, p.lineage_names)
            for p in entry.persons["author"]] == [
        (["Knuth"], ["Donald"], [], []), (["Berg"], ["Jan"], ["van", "der"], []),
        (["Smith"], ["John"], [], ["Jr."])]
    assert dict(entry.fields) == {"title": "Literate Programming",
                                  "journal": "The Computer Journal", "year": "1984",
                                  "month": "May", "pages": "97--111"}
    assert data.entries["lee2020"].fields["title"] == \
        r"Fast {CRISPR} Screens of \emph{E. coli} with H$_2$O"


def test_a_pybtex_round_trip_gives_the_same_records() -> None:
    found = refbridge.read(text=BIB, format="bibtex")
    assert _summary(refbridge.from_pybtex(refbridge.to_pybtex(found))) == _summary(found)
