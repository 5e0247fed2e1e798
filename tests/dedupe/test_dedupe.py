"""``refbridge dedupe``: which entries are one work, how they merge, the key map, the rewritten
citations, ``cited`` reading ``ids``, dry runs and the interactive choice."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from support import run_cli

from refbridge.dedupe.matching import duplicate_groups
from refbridge.dedupe.run import DedupeOptions, dedupe
from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import read_stream
from refbridge.sameness.works import Profile, same_work


def entries(text: str) -> list[Record]:
    return list(read_stream(io.StringIO(text), text, "lib.bib", Diagnostics()))


def same(a: str, b: str) -> str | None:
    first, second = entries(a + "\n" + b)
    return same_work(Profile(first), Profile(second))


# -- JabRef's documented duplicate rules on invented records: (name, entry, entry, verdict) --
# (benchmarks/dedupe_fixtures.py measures agreement with JabRef's own DuplicateCheckTest)
LAGOON = "author = {Ines Carvalho}, year = {2011}, title = {Tidal mixing in a shallow lagoon}"
HYDROLOGY = "title = {Practical Hydrology}, author = {Ward, Helen}, publisher = {Riverbank Press}"
FENS = ("title = {Notes from the Fens}, author = {Edmund Hale Thorpe}, language = {English}, "
        "publisher = {Fenland Books}, year = {1902}")
RIGHTS = ("title = {Water Rights and Common Land}, author = {Sigrid Aalto}, booktitle = {The "
          "Handbook of Rural Law}, publisher = {Northfield University Press}, year = {2009}")
SNAILS = "author = {Dana Whitfield}, title = {A careful study of pond snails}, year = {2015}"
LIGHTHOUSES = ("author = {Rafael Ortiz}, title = {Lighthouses of the northern coast}, "
               "year = {1987}")
DOI = "10.5555/lim.2015.03.011"
ISBN = "978-3-16-148410-0"
DUPLICATE_RULES = [
    ("same year, title, journal", f"@article{{a, {LAGOON}, journal = {{A}}}}",
     f"@article{{b, {LAGOON}, journal = {{A}}}}", True),
    ("different journal", f"@article{{a, {LAGOON}, journal = {{A}}}}",
     f"@article{{b, {LAGOON}, journal = {{B}}}}", True),
    ("different volume", f"@article{{a, {LAGOON}, journal = {{A}}, number = 2, volume = 14}}",
     f"@article{{b, {LAGOON}, journal = {{A}}, number = 2, volume = 15}}", True),
    ("different title, same volume",
     ("@article{a, author = {Ines Carvalho}, year = 2011, title = {Tidal mixing in a shallow "
     "lagoon}, number = 2, volume = 14}"),
     ("@article{b, author = {Ines Carvalho}, year = 2011, title = {Salinity fronts in a deep "
     "fjord}, number = 2, volume = 14}"), False),
    ("same pages", f"@article{{a, {LAGOON}, journal = {{A}}, volume = 14, pages = {{210--219}}}}",
     f"@article{{b, {LAGOON}, journal = {{A}}, volume = 14, pages = {{210--219}}}}", True),
    ("same pages, one without volume", (f"@article{{a, {LAGOON}, journal = {{A}}, number = 2, "
     "pages = {210--219}}"), (f"@article{{b, {LAGOON}, journal = {{A}}, volume = 14, number = 2, "
     "pages = {210--219}}"), True),
    ("different volume, no journal", f"@article{{a, {LAGOON}, volume = 14, pages = {{210--219}}}}",
     f"@article{{b, {LAGOON}, volume = 15, pages = {{210--219}}}}", True),
    ("different title, no journal", f"@article{{a, {LAGOON}, volume = 14, pages = {{210--219}}}}",
     ("@article{b, author = {Ines Carvalho}, year = 2011, title = {Salinity fronts in a deep "
     "fjord}, volume = 15, pages = {210--219}}"), False),
    ("different volume and journal, all else equal", (f"@article{{a, {LAGOON}, journal = {{A}}, "
     "volume = 14, number = 2, pages = {210--219}}"), (f"@article{{b, {LAGOON}, journal = {{B}}, "
     "volume = 15, number = 2, pages = {210--219}}"), True),
    ("two unrelated entries", f"@article{{a, {SNAILS}}}", f"@article{{b, {LIGHTHOUSES}}}", False),
    ("unrelated, different DOIs", f"@article{{a, {SNAILS}, doi = {{{DOI}}}}}",
     f"@article{{b, {LIGHTHOUSES}, doi = {{10.5555/lim.2015.03.01X}}}}", False),
    ("same DOI, different types", f"@article{{a, {SNAILS}, doi = {{{DOI}}}}}",
     f"@incollection{{b, {SNAILS}, doi = {{{DOI}}}}}", True),
    ("DOIs differing by an underscore", f"@article{{a, {SNAILS}, doi = {{{DOI}}}}}",
     f"@incollection{{b, {LIGHTHOUSES}, doi = {{10.5555/lim.2015.03.0_11}}}}", False),
    ("same ISBN, different types", f"@article{{a, {SNAILS}, isbn = {{{ISBN}}}}}",
     f"@incollection{{b, {LIGHTHOUSES}, isbn = {{{ISBN}}}}}", False),
    ("inbooks, different chapters", (f"@inbook{{a, {FENS}, chapter = {{Chapter One – The "
     "Drained Lands}}"), f"@inbook{{b, {FENS}, chapter = {{Chapter Two – Eel Fishing}}}}",
     False),
    ("inbooks, different pages", f"@inbook{{a, {FENS}, pages = {{1-20}}}}",
     f"@inbook{{b, {FENS}, pages = {{21-40}}}}", False),
    ("incollections, different chapters", f"@incollection{{a, {RIGHTS}, chapter = 4}}",
     f"@incollection{{b, {RIGHTS}, chapter = 5}}", False),
    ("incollections, different pages", f"@incollection{{a, {RIGHTS}, pages = {{1-20}}}}",
     f"@incollection{{b, {RIGHTS}, pages = {{21-40}}}}", False),
    ("inbook without chapter, inbook with", (f"@inbook{{a, {FENS}, chapter = {{Chapter One – "
     "The Drained Lands}}"), f"@inbook{{b, {FENS}}}", True),
    ("books, different editions", f"@book{{a, {HYDROLOGY}, date = 2003, edition = 1}}",
     f"@book{{b, {HYDROLOGY}, date = 2010, edition = 2}}", False),
    ("books, editions First and Second", ("@book{a, title = {Statistical methods: An "
     "introduction}, publisher = {Delta Press}, year = 1998, author = {Lund, Petra and Okoye, "
     "Chidi}, volume = 1, number = 1, edition = {First}}"), ("@book{b, title = {Statistical "
     "methods:An introduction}, publisher = {Delta Press Ltd}, year = 2017, author = {Lund, "
     "Petra and Okoye, Chidi}, edition = {Second}}"), False),
    ("articles of one book sharing its ISBN", ("@article{Reyes_1999, author = {Lucia Reyes}, "
     "chapter = 3, pages = {41-58}, title = {Flood Warnings in Practice}, booktitle = {RIV}, "
     f"editor = {{RIV}}, publisher = {{RIV}}, isbn = {{{ISBN}}}, year = 1999}}"),
     ("@article{Novak_1999, author = {Karel Novak}, chapter = 7, pages = {99-120}, title = "
     "{Levee Maintenance}, booktitle = {RIV}, editor = {RIV}, publisher = {RIV}, "
     f"isbn = {{{ISBN}}}, year = 1999}}"), False),
    ("inbooks sharing an ISBN", (f"@inbook{{a, title = {{Flood Warnings in Practice}}, isbn = "
     f"{{{ISBN}}}}}"), f"@inbook{{b, title = {{Levee Maintenance}}, isbn = {{{ISBN}}}}}", False),
    ("incollections sharing an ISBN", ("@incollection{a, title = {Flood Warnings in Practice}, "
     f"isbn = {{{ISBN}}}}}"), (f"@incollection{{b, title = {{Levee Maintenance}}, isbn = "
     f"{{{ISBN}}}}}"), False),
]
#: Where refbridge keeps two entries apart though JabRef's check calls them one, and why.
KEPT_APART = [
    ("same book, edition missing, seven years apart", f"@book{{a, {HYDROLOGY}, date = 2003}}",
     f"@book{{b, {HYDROLOGY}, date = 2010}}"),  # years apart: two editions
    ("same book, edition given once, seven years apart", f"@book{{a, {HYDROLOGY}, date = 2003}}",
     f"@book{{b, {HYDROLOGY}, date = 2010, edition = 2}}"),
    ("author only, same", "@article{a, author = {Ines Carvalho}}",
     "@article{b, author = {Ines Carvalho}}"),  # no title: nothing says it is one work
    ("unrelated, equal DOIs", f"@article{{a, {SNAILS}, doi = {{{DOI}}}}}",
     f"@article{{b, {LIGHTHOUSES}, doi = {{{DOI}}}}}"),  # a DOI pasted into the wrong entry
]


@pytest.mark.parametrize(("name", "first", "second", "duplicate"), DUPLICATE_RULES,
                         ids=[case[0] for case in DUPLICATE_RULES])
def test_duplicate_rules(name: str, first: str, second: str, duplicate: bool) -> None:
    assert (same(first, second) is not None) is duplicate


@pytest.mark.parametrize(("name", "first", "second"), KEPT_APART,
                         ids=[case[0] for case in KEPT_APART])
def test_entries_kept_apart_on_purpose(name: str, first: str, second: str) -> None:
    assert same(first, second) is None


def test_latex_and_unicode_spellings_initials_and_subtitle_punctuation_are_one_work() -> None:
    assert same("@article{a, author = {M{\\\"u}ller, J{\\\"o}rg}, title = {Graph Networks: "
                "A Survey of Methods}, journal = {J. Graphs}, year = 2021}",
                "@article{b, author = {Müller, J.}, title = {Graph networks --- a survey of "
                "methods}, journal = {Journal of Graphs}, year = 2021}") == \
        "same title, year and authors"


def test_a_preprint_and_its_published_version_two_years_later_are_one_work() -> None:
    assert same("@misc{pre, author = {Qian, Zhengping}, title = {Learned Index Structures for "
                "Spatial Data}, year = 2019, eprint = {1901.00001}, archiveprefix = {arXiv}}",
                "@inproceedings{pub, author = {Zhengping Qian}, title = {Learned index "
                "structures for spatial data}, booktitle = {SIGMOD}, year = 2021}") == \
        "same title, year and authors"


def test_two_published_papers_of_one_title_two_years_apart_are_two_works() -> None:
    assert same("@article{a, author = {Qian, Zhengping}, title = {Learned Index Structures for "
                "Spatial Data}, journal = {VLDB J.}, year = 2019}",
                "@article{b, author = {Qian, Zhengping}, title = {Learned Index Structures for "
                "Spatial Data}, journal = {TODS}, year = 2021}") is None


@pytest.mark.parametrize("note", ["Reply to: ", "Erratum: ", "Comment on ", "Corrigendum to "])
def test_a_note_about_a_paper_is_not_the_paper(note: str) -> None:
    assert same("@article{a, author = {Weber, Anna}, title = {Quantum Walks on Graphs}, "
                "journal = {PRL}, year = 2020}",
                f"@article{{b, author = {{Weber, Anna}}, title = {{{note}Quantum Walks on "
                "Graphs}, journal = {PRL}, year = 2020}") is None


def test_part_one_and_part_two_are_two_works() -> None:
    assert same("@article{a, author = {Weber, Anna}, title = {Quantum Walks on Graphs, Part I}, "
                "journal = {PRL}, year = 2020}",
                "@article{b, author = {Weber, Anna}, title = {Quantum Walks on Graphs, Part II}, "
                "journal = {PRL}, year = 2020}") is None


def test_two_volumes_of_a_book_are_two_works() -> None:
    assert same("@book{a, author = {Knuth, Donald E.}, title = {The Art of Computer "
                "Programming}, volume = 1, year = 1997, publisher = {Addison-Wesley}}",
                "@book{b, author = {Knuth, Donald E.}, title = {The Art of Computer "
                "Programming}, volume = 2, year = 1997, publisher = {Addison-Wesley}}") is None


def test_the_same_isbn_in_either_form_is_one_book() -> None:
    assert same("@book{a, author = {Knuth, Donald E.}, title = {The TeXbook}, year = 1984, "
                "isbn = {0-201-13447-0}}", "@book{b, author = {Knuth, D.}, title = {TeXbook}, "
                "year = 1986, isbn = {978-0-201-13447-6}}") == "same ISBN"


def test_two_issues_of_one_volume_are_two_works() -> None:
    assert same("@article{a, author = {Anonymous}, title = {Instructions for Authors}, "
                "journal = {J. Typesetting}, year = 1995, volume = 7, number = 2}",
                "@article{b, author = {Anonymous}, title = {Instructions for Authors}, "
                "journal = {J. Typesetting}, year = 1995, volume = 7, number = 3}") is None


def test_a_set_listing_a_volumes_isbn_is_not_that_volume() -> None:
    assert same("@book{a, author = {Williams, Robin}, title = {The Non-Designer's Design "
                "Book}, year = 2006, isbn = {0-321-19385-7}}",
                "@book{b, author = {Williams, Robin}, title = {The Non-Designer's Collection}, "
                "year = 2006, isbn = {0-321-41276-1 (set), 0-321-19385-7 (design book)}}") is None


def test_a_preprint_whose_title_adds_a_function_word_is_found() -> None:
    records = entries("@inproceedings{a, author = {Ines Carvalho}, year = 2014, title = {Tidal "
                      "mixing in shallow lagoons}, booktitle = {Coastal Workshop}}\n"
                      "@article{b, author = {Ines Carvalho}, year = 2015, title = {Tidal mixing "
                      "in the shallow lagoons}, journal = {arXiv}}")
    assert [members for members, _ in duplicate_groups(records)] == [[0, 1]]


def test_titles_one_word_apart_are_two_works() -> None:
    assert same("@periodical{a, title = {Current Opinion in Cardiology}}",
                "@periodical{b, title = {Current Opinion in Radiology}}") is None


def test_a_misspelt_word_and_a_dropped_article_are_one_title() -> None:
    assert same("@article{a, author = {Morris, R.}, title = {A Comparison of Feedforward and "
                "Self-Organizing Approaches to the Font Orientation Problems}, year = 1989}",
                "@article{b, author = {Morris, R. J. T.}, title = {Comparison of Feedforward "
                "and Self-Organising Approaches to the Font Orientation Problem}, year = 1989}"
                ) == "same title, year and authors"


def test_a_report_and_its_published_version_without_a_year_are_one_work() -> None:
    assert same("@techreport{a, author = {Knuth, Donald E.}, title = {The Letter S}, "
                "institution = {Stanford University}, year = 1980}",
                "@article{b, author = {Knuth, Donald E.}, title = {The Letter S}, journal = "
                "{The Mathematical Intelligencer}, volume = 2, pages = {114--122}}") == \
        "same title, year and authors"


def test_a_work_that_joins_two_kept_apart_stays_with_the_first() -> None:
    records = entries(
        "@book{v1, author = {Knuth, D.}, title = {The Art of Computer Programming}, volume = 1,"
        " year = 1997}\n@book{v2, author = {Knuth, D.}, title = {The Art of Computer "
        "Programming}, volume = 2, year = 1997}\n@book{any, author = {Knuth, Donald}, title = "
        "{The Art of Computer Programming}, year = 1997}")
    assert duplicate_groups(records) == [([0, 2], "same title, year and authors")]


LIBRARY = """\
@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming},
  journal = {The Computer Journal},
  year = {1984},
  volume = {27},
}

@article{Knuth84lp,
  author = {D. E. Knuth},
  title = {Literate programming},
  year = 1984,
  doi = {10.1093/comjnl/27.2.97},
  note = {Reprinted in CSLI 1992},
}

@book{texbook,
  author = {Knuth, Donald E.},
  title = {The {\\TeX}book},
  year = {1984},
}
"""


@pytest.fixture
def library(tmp_path: Path) -> Path:
    path = tmp_path / "lib.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    return path


def test_a_merged_entry_keeps_the_winners_key_takes_missing_values_and_lists_the_other_key(
        library: Path, tmp_path: Path) -> None:
    status, _, _ = run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"))
    assert status == 0
    assert (tmp_path / "out.bib").read_text(encoding="utf-8") == """\
@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming},
  journal = {The Computer Journal},
  year = {1984},
  volume = {27},
  doi = {10.1093/comjnl/27.2.97},
  note = {Reprinted in CSLI 1992},
  ids = {Knuth84lp},
}

@book{texbook,
  author = {Knuth, Donald E.},
  title = {The {\\TeX}book},
  year = {1984},
}
"""


def test_every_merge_is_reported_with_the_values_taken(library: Path, tmp_path: Path) -> None:
    _, _, err = run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"))
    assert err.splitlines() == [
        ("refbridge: dedupe: merged Knuth84lp into knuth1984 (same title, year and authors): "
        "Literate Programming"),
        "refbridge: dedupe:   knuth1984: DOI = '10.1093/comjnl/27.2.97' from Knuth84lp",
        "refbridge: dedupe:   knuth1984: note = 'Reprinted in CSLI 1992' from Knuth84lp",
        "refbridge: dedupe: merged 1 group(s) of duplicates: 3 entries -> 2",
    ]


def test_the_map_names_each_key_that_went_and_its_replacement(library: Path,
                                                              tmp_path: Path) -> None:
    run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"),
            "--map", str(tmp_path / "renames.json"))
    assert (tmp_path / "renames.json").read_text(encoding="utf-8") == \
        '{\n  "Knuth84lp": "knuth1984"\n}\n'


def test_a_dry_run_reports_and_writes_nothing(library: Path, tmp_path: Path) -> None:
    status, _, err = run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"),
                             "--map", str(tmp_path / "renames.json"), "--dry-run")
    assert (status, err.splitlines()[-1]) == (
        0, "refbridge: dedupe: would merge 1 group(s) of duplicates: 3 entries -> 2")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib.bib"]


def test_interactive_no_keeps_the_group_apart(library: Path, tmp_path: Path) -> None:
    status, _, err = run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"),
                             "--interactive", stdin="n\n")
    assert status == 0
    assert "refbridge: dedupe: kept apart: knuth1984, Knuth84lp" in err.splitlines()
    assert (tmp_path / "out.bib").read_text(encoding="utf-8").count("@") == 3


def test_latex_citations_of_keys_that_went_are_rewritten_comments_left(
        library: Path, tmp_path: Path) -> None:
    paper = tmp_path / "paper.tex"
    paper.write_text("% \\cite{Knuth84lp}\r\nSee \\citep[p.~3]{texbook,Knuth84lp} and "
                     "\\cite{ Knuth84lp }.\r\n", encoding="utf-8")
    _, _, err = run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"),
                        "--rewrite", str(paper))
    assert paper.read_bytes() == (b"% \\cite{Knuth84lp}\r\nSee \\citep[p.~3]{texbook,knuth1984}"
                                  b" and \\cite{ knuth1984 }.\r\n")
    assert f"refbridge: dedupe: rewrote 2 citation(s) in {paper}" in err.splitlines()


def test_markdown_citations_are_rewritten_code_left(library: Path, tmp_path: Path) -> None:
    paper = tmp_path / "paper.qmd"
    paper.write_text("As [@Knuth84lp, p. 3] and @{Knuth84lp} show; `@Knuth84lp` is code.\n",
                     encoding="utf-8")
    run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"), "--rewrite", str(paper))
    assert paper.read_text(encoding="utf-8") == \
        "As [@knuth1984, p. 3] and @{knuth1984} show; `@Knuth84lp` is code.\n"


def test_typst_citations_are_rewritten_comments_left(library: Path, tmp_path: Path) -> None:
    paper = tmp_path / "paper.typ"
    paper.write_text("// @Knuth84lp\nAs @Knuth84lp. and #cite(<Knuth84lp>) show.\n",
                     encoding="utf-8")
    run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"), "--rewrite", str(paper))
    assert paper.read_text(encoding="utf-8") == \
        "// @Knuth84lp\nAs @knuth1984. and #cite(<knuth1984>) show.\n"


def test_cited_finds_an_entry_by_a_key_in_its_ids(library: Path, tmp_path: Path) -> None:
    dedupe([str(library)], str(tmp_path / "out.bib"), DedupeOptions())
    paper = tmp_path / "paper.tex"
    paper.write_text("\\cite{Knuth84lp}\n", encoding="utf-8")
    status, out, _ = run_cli("cited", str(paper), "--library", str(tmp_path / "out.bib"))
    assert (status, out.splitlines()[0], "ids = {Knuth84lp}," in out) == (
        0, "@article{knuth1984,", True)


def test_a_map_file_over_the_library_is_refused(library: Path, tmp_path: Path) -> None:
    status, _, err = run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"),
                             "--map", str(library))
    assert (status, err.startswith("refbridge: error: "), library.read_text(encoding="utf-8"),
            (tmp_path / "out.bib").exists()) == (1, True, LIBRARY, False)


def test_the_key_lock_files_the_merged_work_under_the_kept_key(tmp_path: Path) -> None:
    library = tmp_path / "lib.bib"
    library.write_text("@article{Knuth84lp, author = {D. E. Knuth}, title = {Literate "
                       "programming}, year = 1984}\n@article{knuth1984, author = {Knuth, "
                       "Donald E.}, title = {Literate Programming}, journal = {The Computer "
                       "Journal}, year = 1984}\n", encoding="utf-8")
    lock = tmp_path / "refbridge.keys.json"
    lock.write_text("{}\n", encoding="utf-8")
    run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"))
    assert lock.read_text(encoding="utf-8") == \
        '{\n  "work:literate programming|1984|knuth": "knuth1984"\n}\n'


def test_a_document_that_cannot_be_read_leaves_every_file_as_it_was(library: Path,
                                                                    tmp_path: Path) -> None:
    paper = tmp_path / "paper.typ"
    paper.write_bytes(b"@Knuth84lp \xff\n")
    status, _, err = run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"),
                             "--map", str(tmp_path / "renames.json"), "--rewrite", str(paper))
    assert (status, err) == (1, (f"refbridge: error: {paper}:1: cannot decode as utf-8: invalid "
                                 "start byte (byte 0xff; name the encoding with --encoding)\n"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib.bib", "paper.typ"]


def test_a_dry_run_says_which_citations_it_would_rewrite(library: Path, tmp_path: Path) -> None:
    paper = tmp_path / "paper.md"
    paper.write_text("See @Knuth84lp.\n", encoding="utf-8")
    _, _, err = run_cli("dedupe", str(library), "-o", str(tmp_path / "out.bib"), "--dry-run",
                        "--rewrite", str(paper))
    assert f"refbridge: dedupe: would rewrite 1 citation(s) in {paper}" in err.splitlines()
    assert paper.read_text(encoding="utf-8") == "See @Knuth84lp.\n"


def test_one_article_dated_online_and_in_its_issue_a_year_apart_is_one_work() -> None:
    assert same("@article{online, author = {Okafor, Nneka and Lindqvist, Per}, title = {Sparse "
                "Attention for Long Tidal Records}, journal = {IEEE Transactions on Pattern "
                "Analysis \\& Machine Intelligence}, pages = {1--14}, year = 2022}",
                "@article{issue, author = {Nneka Okafor and Per Lindqvist}, title = {Sparse "
                "attention for long tidal records}, journal = {IEEE Transactions on Pattern "
                "Analysis and Machine Intelligence}, volume = 45, number = 4, pages = "
                "{4713--4726}, year = 2023}") == "same title, authors and venue, a year apart"


def test_a_conference_paper_dated_by_its_arxiv_year_is_one_work() -> None:
    assert same("@inproceedings{a, author = {Okafor, Nneka}, title = {Density Estimation with "
                "Tidal Flows}, booktitle = {5th International Conference on Learning "
                "Representations, ICLR 2017, Toulon, France}, year = 2017}",
                "@article{b, author = {Okafor, Nneka}, title = {Density estimation with tidal "
                "flows}, journal = {International Conference on Learning Representations}, "
                "year = 2016}") == "same title, authors and venue, a year apart"


def test_one_title_in_other_venues_a_year_apart_is_two_works() -> None:
    assert same("@inproceedings{a, author = {Okafor, Nneka}, title = {Density Estimation with "
                "Tidal Flows}, booktitle = {Coastal Modelling Conference}, year = 2017}",
                "@article{b, author = {Okafor, Nneka}, title = {Density estimation with tidal "
                "flows}, journal = {Journal of Estuarine Science}, year = 2016}") is None


def test_pages_that_run_backwards_say_nothing() -> None:
    assert same("@article{a, author = {Okafor, Nneka}, title = {Cascaded Models of Tidal "
                "Flow}, journal = {Journal of Machine Learning Research}, volume = 23, "
                "number = 47, pages = {1--33}, year = 2022}",
                "@article{b, author = {Okafor, Nneka}, title = {Cascaded models of tidal "
                "flow}, journal = {Journal of Machine Learning Research}, volume = 23, "
                "pages = {47--1}, year = 2022}") == "same title, year and authors"


def test_a_piece_in_a_conferences_music_proceedings_is_not_its_paper() -> None:
    assert same("@inproceedings{note, author = {Aalto, Sigrid and Mbeki, Thandi}, title = {Songs "
                "for Drowned Bells}, booktitle = {Music Proceedings of the International "
                "Conference on Sound Interfaces}, year = 2014}",
                "@inproceedings{paper, author = {Aalto, Sigrid and Mbeki, Thandi}, title = "
                "{Songs for Drowned Bells}, booktitle = {Proceedings of the International "
                "Conference on Sound Interfaces}, year = 2014}") is None


def test_an_installation_and_a_performance_of_one_title_are_two_works() -> None:
    assert same("@inproceedings{a, author = {Aalto, Sigrid}, title = {Tidal Organ}, booktitle "
                "= {Installation Proceedings of the International Conference on Sound "
                "Interfaces}, year = 2014}",
                "@inproceedings{b, author = {Aalto, Sigrid}, title = {Tidal Organ}, booktitle "
                "= {Music Proceedings of the International Conference on Sound Interfaces}, "
                "year = 2014}") is None


def test_an_edition_named_at_the_end_of_the_title_is_the_edition() -> None:
    assert same("@book{a, author = {Szabo, Reka}, title = {Estuaries: Models and Measurements},"
                " edition = {Second}, year = 2022, publisher = {Tidewater}}",
                "@book{b, author = {Szabo, Reka}, title = {Estuaries: models and measurements, "
                "2nd {E}dition}, year = 2022}") == "same title, year and authors"


def test_editions_named_in_a_title_and_a_field_apart_are_two_works() -> None:
    assert same("@book{a, author = {Szabo, Reka}, title = {Estuaries: Models and Measurements},"
                " edition = {Second}, year = 2022, publisher = {Tidewater}}",
                "@book{b, author = {Szabo, Reka}, title = {Estuaries: models and measurements, "
                "Third Edition}, year = 2022}") is None


def test_one_workshop_volume_named_in_full_and_short_at_one_place_in_print_is_one_work() -> None:
    assert same("@inproceedings{full, author = {Aalto, Sigrid}, title = {Recursive Pattern "
                "Discovery in Tidal Records}, booktitle = {Machine Learning and Knowledge "
                "Discovery: International Workshops of CMLD 2019, Proceedings, Part II}, "
                "volume = 1168, pages = {485--493}, year = 2020}",
                "@inproceedings{short, author = {Aalto, Sigrid}, title = {Recursive pattern "
                "discovery in tidal records}, booktitle = {CMLD 2019}, volume = 1168, pages = "
                "{485--493}, year = 2020}") == "same title, year and authors"


def test_a_workshop_paper_and_its_conference_paper_in_other_volumes_are_two_works() -> None:
    assert same("@inproceedings{w, author = {Aalto, Sigrid}, title = {Recursive Pattern "
                "Discovery in Tidal Records}, booktitle = {Proceedings of the CMLD 2019 "
                "Workshops}, volume = 1168, pages = {485--493}, year = 2019}",
                "@inproceedings{c, author = {Aalto, Sigrid}, title = {Recursive pattern "
                "discovery in tidal records}, booktitle = {CMLD 2019}, volume = 1167, pages = "
                "{485--493}, year = 2019}") is None


def test_a_preprint_and_its_paper_whose_title_dropped_its_name_are_found() -> None:
    records = entries("@article{pre, author = {Okafor, Nneka and Szabo, Reka}, title = "
                      "{TideNet: Self-Supervised Depth of Estuary Channels}, journal = {arXiv},"
                      " eprint = {1905.02693}, year = 2019}\n"
                      "@inproceedings{pub, author = {Okafor, Nneka and Szabo, Reka}, title = "
                      "{Self-Supervised Depth of Estuary Channels}, booktitle = {Proceedings of "
                      "the Coastal Vision Conference}, year = 2020}")
    assert duplicate_groups(records) == [([0, 1], "same title, year and authors")]


def test_a_title_headed_by_a_plain_word_keeps_it() -> None:
    assert same("@article{a, author = {Okafor, Nneka}, title = {Introduction: Depth of Estuary "
                "Channels}, journal = {Coastal Vision}, year = 2019}",
                "@article{b, author = {Okafor, Nneka}, title = {Depth of Estuary Channels}, "
                "journal = {Estuary Letters}, year = 2019}") is None


def test_a_book_whose_booktitle_repeats_its_title_is_a_book_printed_a_year_apart() -> None:
    assert same("@book{a, editor = {Glass, Fiona and Kovac, Goran}, title = {Handbook of Tidal "
                "Heuristics}, booktitle = {Handbook of Tidal Heuristics}, publisher = {Kluwer},"
                " year = 2002}",
                "@book{b, editor = {Glass, Fiona and Kovac, Goran}, title = {Handbook of Tidal "
                "Heuristics}, booktitle = {Handbook of Tidal Heuristics}, publisher = "
                "{Springer}, year = 2003}") == "same title, year and authors"


def test_one_printing_with_the_first_authors_given_names_garbled_is_one_work() -> None:
    assert same("@article{a, author = {Thorpe, Waldo}, title = {A Film of Silt in the Estuary},"
                " journal = {Coastal Geography}, volume = 46, pages = {234--240}, year = 1970}",
                "@article{b, author = {Thorpe, Author W R}, title = {A film of silt in the "
                "estuary}, journal = {Coastal Geography}, volume = 46, pages = {234--240}, "
                "year = 1970}") == "same title, year, volume and pages"


def test_one_title_and_year_at_other_pages_of_one_volume_are_two_works() -> None:
    assert same("@article{a, author = {Thorpe, Waldo}, title = {A Film of Silt in the Estuary},"
                " journal = {Coastal Geography}, volume = 46, pages = {234--240}, year = 1970}",
                "@article{b, author = {Thorpe, Ada}, title = {A film of silt in the estuary}, "
                "journal = {Coastal Geography}, volume = 46, pages = {301--309}, year = 1970}"
                ) is None


def test_a_conference_paper_dated_by_its_meeting_under_the_venues_initials_is_one_work() -> None:
    assert same("@inproceedings{a, author = {Lindqvist, Per}, title = {A Model of Salt Fronts "
                "in Shallow Estuaries}, booktitle = {CEMS 1998}, year = 1998}",
                "@inproceedings{b, author = {Lindqvist, Per}, title = {A model of salt fronts "
                "in shallow estuaries}, booktitle = {Advances in Coastal and Estuarine Modelling "
                "Systems 11}, pages = {796--802}, year = 1999}") == \
        "same title, authors and venue, a year apart"


def test_two_chapters_carrying_their_books_doi_are_two_works() -> None:
    assert same("@article{ch13, author = {Lindqvist, Per and Okafor, Nneka}, title = {13 Robust "
                "Performance}, journal = {Feedback Systems for Estuaries}, year = 2016, doi = "
                "{10.5555/feedback.2016}}",
                "@article{ch8, author = {Lindqvist, Per and Okafor, Nneka}, title = {08 Output "
                "Feedback}, journal = {Feedback Systems for Estuaries}, year = 2016, doi = "
                "{10.5555/feedback.2016}}") is None


def test_one_doi_and_a_title_worded_a_little_differently_in_one_journal_is_one_work() -> None:
    assert same("@article{a, author = {Montero, Alba}, title = {Instability of the one-step "
                "broken phase in tidal models}, journal = {Journal of Physics A}, year = 2004, "
                "doi = {10.5555/jpa.37.6.008}}",
                "@article{b, author = {Montero, Alba}, title = {Instability of one-step "
                "breaking in tidal models}, journal = {Journal of Physics A}, year = 2004, "
                "doi = {10.5555/jpa.37.6.008}}") == "same DOI"


def test_one_doi_and_title_at_online_and_issue_pages_is_one_work() -> None:
    assert same("@article{online, author = {Okafor, Nneka and Montero, Alba}, title = {Tuning "
                "of Estuary Networks}, journal = {Coastal Cortex}, pages = {1--14}, year = 2017,"
                " doi = {10.5555/cc/bhx249}}",
                "@article{issue, author = {Lindqvist, Per and Okafor, Nneka and Montero, Alba},"
                " title = {Tuning of estuary networks}, journal = {Coastal Cortex}, volume = 28, "
                "pages = {281--294}, year = 2017, doi = {10.5555/cc/bhx249}}") == "same DOI"


def test_one_talk_given_at_two_meetings_is_two_works() -> None:
    assert same("@misc{agu, author = {Okafor, Nneka and Lindqvist, Per}, title = {Can we "
                "calibrate models of estuary flooding?}, note = {American Geophysical Union "
                "Fall Meeting 2018}, year = 2018}",
                "@misc{dmdu, author = {Okafor, Nneka and Lindqvist, Per}, title = {Can we "
                "calibrate models of estuary flooding?}, note = {Society for Decision Making "
                "Under Deep Uncertainty 2018 Workshop}, year = 2018}") is None


def test_one_talk_entered_twice_at_one_meeting_is_one_work() -> None:
    assert same("@misc{a, author = {Okafor, Nneka}, title = {Can we calibrate models of estuary "
                "flooding?}, note = {American Geophysical Union Fall Meeting 2018}, year = 2018}",
                "@misc{b, author = {Okafor, Nneka}, title = {Can we calibrate models of estuary "
                "flooding?}, note = {AGU Fall Meeting, American Geophysical Union}, year = 2018}"
                ) == "same title, year and authors"
