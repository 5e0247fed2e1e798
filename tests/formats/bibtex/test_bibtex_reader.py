"""Reading .bib files (BibTeX and BibLaTeX) into the citation model."""

from __future__ import annotations

import io
import itertools

import pytest

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.bibtex.reader import READER
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.richtext import Math, RichText, Style, Styled, plain, rich


def nocase(text: str) -> Styled:
    return Styled(Style.NOCASE, (text,))


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(READER.read(io.StringIO(text), "refs.bib",
                            diagnostics if diagnostics is not None else Diagnostics()))


def one(text: str) -> Record:
    (record,) = read(text)
    return record


KNUTH = r"""
@string{cj = {The Computer Journal}}
@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate {Programming}},
  journal = cj,
  year = 1984, month = feb,
  volume = {27}, number = {2}, pages = {97--111},
  doi = {10.1093/comjnl/27.2.97},
  url = {https://example.org/knuth_{1984}%20lp},
  keywords = {programming, TeX; documentation},
  mrnumber = {MR0756512},
}
"""


def test_a_classic_article_fills_the_model() -> None:
    record = one(KNUTH)
    assert record.type == "article-journal"
    assert record.citation_key == "knuth1984"
    assert record.fields == {
        "title": rich(["Literate ", nocase("Programming")]),
        "container-title": "The Computer Journal",
        "volume": "27", "issue": "2", "page": "97–111", "DOI": "10.1093/comjnl/27.2.97",
        "URL": "https://example.org/knuth_{1984}%20lp"}
    assert record.names == {"author": (Name(family="Knuth", given="Donald E."),)}
    assert record.dates == {"issued": Date(start=DateParts(1984, 2))}
    assert record.keywords == ("programming", "TeX", "documentation")


def test_fields_without_a_slot_are_kept_as_extra() -> None:
    assert one(KNUTH).extra == {"bibtex.mrnumber": "MR0756512"}


def test_entries_of_the_same_year_and_month_share_a_date_and_each_keep_what_it_cannot_use(
        ) -> None:
    first, second = read("@misc{a, title = {A}, year = 1984, month = {Smarch}}\n"
                         "@misc{b, title = {B}, year = 1984, month = {Smarch}}\n")
    assert first.dates["issued"] is second.dates["issued"]
    assert first.dates["issued"] == Date(start=DateParts(1984))
    assert (first.extra, second.extra) == ({"bibtex.month": "Smarch"}, {"bibtex.month": "Smarch"})


def test_the_record_knows_its_file_and_line() -> None:
    assert str(one(KNUTH).source) == "refs.bib:3"


def test_biblatex_fields_date_journaltitle_and_subtitle_are_understood() -> None:
    record = one(r"""
@article{baez,
  author = {Baez, John C. and Lauda, Aaron D.},
  title = {Higher-Dimensional Algebra {V}},
  subtitle = {2-Groups},
  journaltitle = {Theory and Applications of Categories},
  date = {2004-05-21},
  location = {Sackville},
}""")
    assert record.fields == {
        "title": rich(["Higher-Dimensional Algebra ", nocase("V"), ": 2-Groups"]),
        "container-title": "Theory and Applications of Categories",
        "publisher-place": "Sackville"}
    assert record.dates == {"issued": Date(start=DateParts(2004, 5, 21))}


@pytest.mark.parametrize(("value", "date"), [
    ("2001/2003", Date(start=DateParts(2001), end=DateParts(2003))),
    ("1984~", Date(start=DateParts(1984), circa=True)),
    ("2020-22", Date(start=DateParts(2020), season=2)),
    ("2012-22/2012-23", Date(literal="2012-22/2012-23")),
    ("1984~/1986~", Date(literal="1984~/1986~")),
    ("in press", Date(literal="in press")),
])
def test_biblatex_dates_ranges_circa_and_seasons(value: str, date: Date) -> None:
    assert one(f"@misc{{k, date = {{{value}}}}}").dates == {"issued": date}


def test_a_biblatex_arxiv_preprint_becomes_an_eprint() -> None:
    record = one(r"""
@online{baez/online,
  author = {Baez, John C. and Lauda, Aaron D.},
  title = {Higher-Dimensional Algebra {V}: 2-Groups},
  date = {2004-10-27},
  eprint = {math/0307200v3},
  eprinttype = {arxiv},
  eprintclass = {math.QA},
  pubstate = {prepublished},
}""")
    assert record.type == "article"
    assert record.eprint == Eprint("arXiv", "math/0307200v3", "math.QA")
    assert "status" not in record.fields
    assert record.extra == {}


def test_arxivs_own_export_with_archiveprefix_and_primaryclass_is_understood() -> None:
    record = one(r"""
@misc{vaswani2017attention,
      title={Attention Is All You Need},
      author={Ashish Vaswani and Noam Shazeer},
      year={2017},
      eprint={1706.03762},
      archivePrefix={arXiv},
      primaryClass={cs.CL},
      url={https://arxiv.org/abs/1706.03762},
}""")
    assert record.type == "article"
    assert record.eprint == Eprint("arXiv", "1706.03762", "cs.CL")
    assert record.fields["URL"] == "https://arxiv.org/abs/1706.03762"
    assert record.extra == {}


def test_an_arxiv_eprint_of_a_journal_article_keeps_the_article_type() -> None:
    record = one("@article{k, title={T}, journal={J}, eprint={1234.5678}, "
                 "eprinttype={arxiv}}")
    assert (record.type, record.eprint) == ("article-journal", Eprint("arXiv", "1234.5678"))


def test_a_non_arxiv_eprint_is_kept_as_extra() -> None:
    record = one("@article{k, title={T}, eprint={12345}, eprinttype={jstor}}")
    assert record.eprint is None
    assert record.extra == {"bibtex.eprint": "12345", "bibtex.eprinttype": "jstor"}


def test_and_others_marks_the_author_list_incomplete() -> None:
    record = one("@misc{k, author = {Qian, Zhengping and others}, title = {T}}")
    assert record.authors == (Name(family="Qian", given="Zhengping"),)
    assert record.incomplete_names == {"author"}


def test_latex_in_text_fields_is_decoded_but_identifiers_are_verbatim() -> None:
    record = one(r"""@article{k,
  title = {Schr{\"o}dinger's {\ss}-Stra{\ss}e~-- \"{U}ber $\alpha$ \& more},
  doi = {10.1000/a\_b}, url = {https://x.org/~user/a\_b}, file = {C\:/papers/x.pdf}}""")
    assert record.fields["title"] == rich(
        ["Schrödinger's ß-Straße\u00a0– ", nocase("Ü"), "ber ", Math("\\alpha"), " & more"])
    assert plain(record.fields["title"]) == "Schrödinger's ß-Straße\u00a0– Über α & more"
    assert record.fields["DOI"] == "10.1000/a\\_b"
    assert record.fields["URL"] == "https://x.org/~user/a\\_b"
    assert record.extra == {"bibtex.file": "C\\:/papers/x.pdf"}


@pytest.mark.parametrize(("entry_type", "csl_type"), [
    ("article", "article-journal"), ("book", "book"), ("booklet", "pamphlet"),
    ("conference", "paper-conference"), ("inbook", "chapter"), ("incollection", "chapter"),
    ("inproceedings", "paper-conference"), ("manual", "report"), ("mastersthesis", "thesis"),
    ("misc", "document"), ("phdthesis", "thesis"), ("proceedings", "book"),
    ("techreport", "report"), ("unpublished", "manuscript"), ("mvbook", "book"),
    ("online", "webpage"), ("dataset", "dataset"), ("software", "software"),
    ("patent", "patent"), ("inreference", "entry-encyclopedia"), ("movie", "motion_picture"),
])
def test_entry_types_map_to_csl_types(entry_type: str, csl_type: str) -> None:
    assert one(f"@{entry_type}{{k, title = {{T}}}}").type == csl_type


def test_an_entry_type_the_csl_type_does_not_give_back_is_kept() -> None:
    assert one("@mvbook{k, title = {T}}").extra == {"bibtex.@type": "mvbook"}
    assert one("@book{k, title = {T}}").extra == {}


def test_a_thesis_type_becomes_its_genre() -> None:
    assert one("@phdthesis{k, title={T}, school={MIT}}").fields == {
        "title": "T", "publisher": "MIT", "genre": "PhD thesis"}
    assert one("@thesis{k, title={T}, type={mathesis}, institution={MIT}}").fields == {
        "title": "T", "publisher": "MIT", "genre": "Master's thesis"}


def test_number_means_issue_in_an_article_and_series_number_in_a_book() -> None:
    assert one("@article{k, number={4}}").fields == {"issue": "4"}
    assert one("@book{k, series={LNCS}, number={42}}").fields == {
        "collection-title": "LNCS", "collection-number": "42"}


def test_a_crossref_child_inherits_from_its_parent_read_later() -> None:
    child, parent = read(r"""
@incollection{westfahl:space,
  author = {Westfahl, Gary}, title = {The True Frontier}, pages = {55-65},
  crossref = {westfahl:frontier}}
@collection{westfahl:frontier,
  editor = {Westfahl, Gary}, title = {Space and Beyond},
  date = 2000, publisher = {Greenwood}, location = {Westport, Conn.}}
""")
    assert child.fields == {"title": "The True Frontier", "page": "55-65",
                            "container-title": "Space and Beyond", "publisher": "Greenwood",
                            "publisher-place": "Westport, Conn."}
    assert child.names["editor"] == (Name(family="Westfahl", given="Gary"),)
    assert child.dates == {"issued": Date.of(2000)}
    assert child.extra == {"bibtex.crossref": "westfahl:frontier"}
    assert parent.citation_key == "westfahl:frontier"


def test_a_crossref_child_inherits_from_a_parent_of_any_type_read_before() -> None:
    parent, child = read(r"""
@misc{dataset:2021,
  author = {Okafor, Ngozi}, title = {Lagos Traffic Counts}, year = {2021},
  publisher = {Zenodo}}
@misc{dataset:2021:v2,
  title = {Lagos Traffic Counts, version 2}, crossref = {dataset:2021}}
""")
    assert child.names["author"] == (Name(family="Okafor", given="Ngozi"),)
    assert child.dates == {"issued": Date.of(2021)}
    assert child.fields == {"title": "Lagos Traffic Counts, version 2", "publisher": "Zenodo"}
    assert parent.citation_key == "dataset:2021"


def test_a_crossref_child_without_keywords_inherits_its_parents() -> None:
    child, parent = read(r"""
@inproceedings{lee:sensing,
  author = {Lee, Min-jun}, title = {Sensing Floods}, crossref = {iswc:2019}}
@proceedings{iswc:2019,
  title = {Proceedings of ISWC 2019}, year = 2019, keywords = {sensors, flooding}}
""")
    assert child.keywords == ("sensors", "flooding")
    assert parent.keywords == ("sensors", "flooding")


def test_a_crossref_child_keeps_its_own_keywords() -> None:
    child, _ = read(r"""
@inproceedings{lee:sensing,
  title = {Sensing Floods}, keywords = {hydrology}, crossref = {iswc:2019}}
@proceedings{iswc:2019,
  title = {Proceedings of ISWC 2019}, year = 2019, keywords = {sensors, flooding}}
""")
    assert child.keywords == ("hydrology",)


def test_a_crossref_to_a_missing_entry_is_reported() -> None:
    diagnostics = Diagnostics()
    (record,) = read("@incollection{c, title={T}, crossref={nowhere}}", diagnostics)
    assert record.fields == {"title": "T"}
    assert [str(m) for m in diagnostics.messages] == [
        ("refs.bib:1: warning: entry 'c': crossref 'nowhere' is not in the file; "
        "nothing inherited")]


def test_preamble_and_comments_are_kept_with_the_next_entry_as_layout() -> None:
    record = one('@preamble{"\\newcommand{\\noop}[1]{}"}\n@comment{jabref-meta: x;}\n'
                 "@misc{k, title = {T}}")
    assert record.extra == {}
    assert record.hints["bibtex.before"] == (
        '@preamble{"\\newcommand{\\noop}[1]{}"}\n@comment{jabref-meta: x;}')


def test_the_layout_of_an_entry_is_kept_as_hints() -> None:
    record = one("@Book{k, Title = {T}, Year = 1999, Month = {03}, Publisher = {P}, "
                 "note = {A}, note = {B}}")
    assert record.hints == {"bibtex.layout": "book book title,year,month,publisher,note",
                            "bibtex.month": "03", "bibtex.again.note": "B"}


def test_a_field_with_macros_that_nothing_defines_keeps_them_as_written() -> None:
    record = one("@mastersthesis{k, title = {T}, type = dipl, school = RWTH # { Aachen}}")
    assert record.hints["bibtex.raw.type"] == "dipl"
    assert record.hints["bibtex.raw.school"] == "RWTH # { Aachen}"


def test_a_title_keeps_how_the_bib_spelled_it() -> None:
    title = one("@misc{k, title = {Evaluating SpecDB on \\emph{TPC-C}}}").fields["title"]
    assert isinstance(title, RichText)
    assert title.latex == "Evaluating SpecDB on \\emph{TPC-C}"


def test_a_broken_entry_is_read_up_to_the_break_as_bibtex_reads_it() -> None:
    diagnostics = Diagnostics()
    records = read("@misc{a, title = {A}}\n@misc{b, title = {Broken}\n  year = 2001}\n"
                   "@misc{c, title = {C}}\n", diagnostics)
    assert [(r.citation_key, r.title, r.year) for r in records] == [
        ("a", "A", None), ("b", "Broken", None), ("c", "C", None)]
    assert [str(m) for m in diagnostics.messages] == [
        ("refs.bib:3: error: broken entry: expected ',' or '}' after the value of "
        "'title', found 'y'; the 1 field(s) before it are read, as BibTeX reads them")]
    assert (diagnostics.read_in_part, diagnostics.skipped) == (1, 0)


def test_a_broken_entry_without_a_key_is_skipped_and_the_rest_is_read() -> None:
    diagnostics = Diagnostics()
    records = read("@misc{a, title = {A}}\n@misc{ title = {Broken}}\n@misc{c, title = {C}}\n",
                   diagnostics)
    assert [r.citation_key for r in records] == ["a", "c"]
    assert diagnostics.skipped == 1


def test_strict_mode_makes_a_broken_entry_fatal() -> None:
    with pytest.raises(ParseError, match=r"refs.bib:1: broken entry: "):
        read("@misc{b, title = {Broken}", Diagnostics(strict=True))


def test_duplicate_keys_are_reported_and_both_entries_kept() -> None:
    diagnostics = Diagnostics()
    records = read("@misc{k, title = {One}}\n@misc{k, title = {Two}}\n", diagnostics)
    assert [r.title for r in records] == ["One", "Two"]
    assert [str(m) for m in diagnostics.messages] == [
        ("refs.bib:2: warning: duplicate key 'k' (first at line 1); both entries are kept "
        "(a .bib written from them repeats it; another format gives the later one a new key)")]


def test_a_repeated_field_is_reported() -> None:
    diagnostics = Diagnostics()
    assert one("@misc{k, title = {One}, title = {Two}}").title == "One"
    read("@misc{k, title = {One}, title = {Two}}", diagnostics)
    assert [m.message for m in diagnostics.messages] == [
        ("entry 'k': field 'title' appears twice; the second value 'Two' is ignored, "
        "as BibTeX does (and kept for biber)")]


def test_an_undefined_macro_is_reported_and_kept_as_text() -> None:
    diagnostics = Diagnostics()
    (record,) = read("@article{k, journal = jacm}", diagnostics)
    assert record.fields == {"container-title": "jacm"}
    assert [m.message for m in diagnostics.messages] == [
        "entry 'k': field 'journal' uses undefined macro(s) jacm; kept as text"]


def test_a_date_that_is_not_iso_8601_is_reported_and_kept_as_text() -> None:
    diagnostics = Diagnostics()
    (record,) = read("@online{k, title = {Tides}, date = {Spring 2020}}", diagnostics)
    assert record.dates == {"issued": Date(literal="Spring 2020")}
    assert [m.message for m in diagnostics.messages] == [
        "read as BibLaTeX (@online, date in 1 entry)",
        ("entry 'k': date 'Spring 2020' is not an ISO 8601 date refbridge reads into parts; "
         "kept as text")]


def test_a_subtitle_whose_title_has_no_text_becomes_the_title() -> None:
    assert one("@misc{k, title = {{}}, subtitle = {After the Colon}}").fields == \
        {"title": "After the Colon"}


def test_a_subtitle_without_a_title_is_kept_as_extra() -> None:
    assert one("@misc{k, subtitle = {Alone}}").extra == {"bibtex.subtitle": "Alone"}


def test_a_name_list_of_only_others_is_kept_as_extra() -> None:
    record = one("@misc{k, author = {others}, title = {T}}")
    assert (record.names, record.extra) == ({}, {"bibtex.author": "others"})


def test_the_first_of_two_fields_of_one_variable_wins_and_the_other_is_kept() -> None:
    record = one("@article{k, journal = {Second}, journaltitle = {First}, title = {T}}")
    assert (record.fields, record.extra) == (
        {"container-title": "Second", "title": "T"}, {"bibtex.journaltitle": "First"})


def test_origyear_is_the_original_date_and_the_month_goes_with_the_year() -> None:
    assert one("@misc{k, title = {T}, origyear = 1901, year = 2001, month = mar}").dates == {
        "issued": Date(start=DateParts(2001, 3)), "original-date": Date(start=DateParts(1901))}


def test_an_empty_field_and_the_same_field_again_is_no_repetition() -> None:
    diagnostics = Diagnostics()
    (record,) = read("@misc{k, title = {}, title = {Second}}", diagnostics)
    assert (record.fields, diagnostics.messages) == ({"title": "Second"}, [])


def test_the_reader_recognises_bib_text() -> None:
    assert READER.sniff("% my refs\n@Article{k,\n")
    assert not READER.sniff('[{"id": "k", "type": "book"}]')


def test_records_are_handed_on_before_the_file_is_read_to_the_end() -> None:
    class Endless(io.StringIO):
        def read(self, size: int | None = -1) -> str:
            return "@book{k, title = {T}}\n" * 50

    records = READER.read(Endless(), "endless.bib", Diagnostics())
    assert [r.title for r in itertools.islice(records, 3)] == ["T", "T", "T"]


def test_runs_of_white_space_are_one_space_but_a_no_break_space_is_kept() -> None:
    record = one("@article{k, title = {Hunky Cajuns and Gay Sextons:\u00a0Diversity\n\t  in"
                 "   Reviews}}")
    assert record.get("title") == "Hunky Cajuns and Gay Sextons:\u00a0Diversity in Reviews"


def test_an_entry_after_other_text_on_its_line_is_read_as_bibtex_reads_it() -> None:
    records = read('<@book{childers00,\n  title = "Speech Processing",\n  year = "2000"\n}\n'
                   '@misc{first, publisher = "Elsevier"}@inproceedings{kimcox00,\n'
                   '  title = "Time-Delay Networks"}\n')
    assert [(r.id, str(r.source)) for r in records] == [
        ("childers00", "refs.bib:1"), ("first", "refs.bib:5"), ("kimcox00", "refs.bib:5")]


def test_an_at_sign_in_text_between_entries_is_no_entry() -> None:
    records = read("@misc{a, title = {A}}\nmail me@example.org about it\n@misc{b, title = {B}}\n")
    assert [r.id for r in records] == ["a", "b"]


def test_an_entry_commented_out_with_a_percent_sign_is_skipped_as_biber_skips_it() -> None:
    records = read("@misc{a, title = {A}}\n%@misc{a,\n%  title = {Old}\n%}\n"
                   "@misc{b, title = {B}}\n")
    assert [r.title for r in records] == ["A", "B"]
