"""Duplicates across inputs (refbridge.merge): which records are one work, what a merge keeps."""

from __future__ import annotations

from refbridge.merge import deduplicate, duplicate_sets, merge_records
from refbridge.model import Date, Eprint, Name, Record, Source
from refbridge.sameness.ids import arxiv_id
from refbridge.sameness.text import fold as normalized_title

QIAN = Name(family="Qian", given="Zhengping")
YANG = Name(family="Yang", given="Qinwei")


def profile_record(title: str, year: int, line: int) -> Record:
    return Record(f"profile-{line}", "article", {"title": title}, {"author": (QIAN,)},
                  {"issued": Date.of(year)}, eprint=Eprint("arXiv", primary_class="cs.DC"),
                  incomplete_names=frozenset({"author"}),
                  source=Source("zhengping-qian.profile.txt", line))


def test_same_doi_is_one_work_whatever_its_written_form() -> None:
    a = Record("a", "article-journal", {"title": "One", "DOI": "10.1145/3404835.3462900"})
    b = Record("b", "article-journal", {"title": "Another title",
                                        "DOI": "https://doi.org/10.1145/3404835.3462900"})
    assert duplicate_sets([a, b]) == [([0, 1], "same DOI")]


def test_arxiv_id_comes_from_eprint_doi_or_url_without_version() -> None:
    from_eprint = Record("a", "article", eprint=Eprint("arXiv", "2403.01234v2"))
    from_doi = Record("b", "article", {"DOI": "10.48550/arXiv.2403.01234"})
    from_url = Record("c", "article", {"URL": "https://arxiv.org/pdf/2403.01234v1"})
    assert [arxiv_id(r) for r in (from_eprint, from_doi, from_url)] == ["2403.01234"] * 3
    assert duplicate_sets([from_eprint, from_doi, from_url]) == [([0, 1, 2], "same arXiv id")]


def test_same_title_and_year_is_one_work_despite_case_and_punctuation() -> None:
    a = profile_record("TrainMover: An Interruption-Resilient Runtime for ML Training", 2026, 17)
    b = Record("b", "paper-conference",
               {"title": "TrainMover -- an interruption resilient runtime for ML training"},
               dates={"issued": Date.of(2026, 4)})
    assert duplicate_sets([a, b]) == [([0, 1], "same title and year")]


def test_a_small_difference_in_the_title_still_matches() -> None:
    a = profile_record("Taming the Expressiveness and Programmability of Graph Analytical "
                       "Queries", 2020, 105)
    b = Record("b", "article-journal", {"title": "Taming the expressiveness and "
                                                 "programmability of graph analytical query"},
               dates={"issued": Date.of(2020)})
    assert duplicate_sets([a, b]) == [([0, 1], "same title and year")]


def test_same_title_in_another_year_is_another_work() -> None:
    a = profile_record("Adaptive Data-Borrowing for Treatment Effects", 2025, 1)
    b = profile_record("Adaptive Data-Borrowing for Treatment Effects", 2026, 2)
    assert duplicate_sets([a, b]) == [([0], ""), ([1], "")]


def test_similar_but_different_titles_are_different_works() -> None:
    a = profile_record("Improving Treatment Effect Estimation in Trials through Adaptive "
                       "Borrowing of External Controls", 2026, 1)
    b = profile_record("Adaptive Data-Borrowing for Improving Treatment Effect Estimation "
                       "using External Controls", 2026, 2)
    assert len(duplicate_sets([a, b])) == 2


def test_normalized_title_folds_case_accents_and_punctuation() -> None:
    assert normalized_title("Über-Graphs: A  Study!") == "uber graphs a study"


def test_merge_keeps_the_complete_author_list_and_fills_every_gap() -> None:
    profile = profile_record("TrainMover", 2026, 17).replace(
        fields={"title": "TrainMover", "abstract": "Large-scale ML training jobs ..."})
    published = Record("b", "paper-conference",
                       {"title": "TrainMover", "container-title": "Proc. of EuroSys",
                        "DOI": "10.5555/cv-test.trainmover"},
                       {"author": (Name(family="Lao", given="ChonLam"), QIAN, YANG)},
                       {"issued": Date.of(2026, 4)}, keywords=("training",),
                       source=Source("coauthors.json", 2))
    merged = merge_records([profile, published])
    assert merged.type == "paper-conference"
    assert merged.authors == (Name(family="Lao", given="ChonLam"), QIAN, YANG)
    assert merged.incomplete_names == frozenset()
    assert dict(merged.fields) == {"title": "TrainMover", "container-title": "Proc. of EuroSys",
                                   "DOI": "10.5555/cv-test.trainmover",
                                   "abstract": "Large-scale ML training jobs ..."}
    assert merged.issued == Date.of(2026, 4)
    assert merged.eprint == Eprint("arXiv", primary_class="cs.DC")
    assert merged.keywords == ("training",)


def test_deduplicate_reports_every_source_of_a_merge() -> None:
    a = profile_record("FLAT: Fast, Lightweight and Accurate Method", 2021, 90)
    b = Record("b", "article-journal", {"title": "FLAT: fast, lightweight and accurate method"},
               {"author": (QIAN,)}, {"issued": Date.of(2021)}, source=Source("cv.json", 4))
    c = profile_record("Another paper", 2021, 95)
    result = deduplicate([a, b, c])
    assert [r.title for r in result.records] == ["FLAT: fast, lightweight and accurate method",
                                                 "Another paper"]
    assert result.merges[0].sources == (Source("zhengping-qian.profile.txt", 90),
                                        Source("cv.json", 4))
    assert result.describe() == [
        ("merged 2 records (same title and year): zhengping-qian.profile.txt:90, cv.json:4: "
         "FLAT: fast, lightweight and accurate method")]


def limnology(record_id: str, authors: tuple[Name, ...], source: Source) -> Record:
    return Record(record_id, "article-journal",
                  {"title": "Seasonal drift in alpine lake sediments",
                   "DOI": "10.1000/jlimn.2021.0101"}, {"author": authors},
                  {"issued": Date.of(2021)}, source=source)


SCOPUS = (Name(family="Stillman", given="A.N."), Name(family="Berg", given="J.",
                                                     non_dropping_particle="van der"),
          Name(family="Okafor", given="C.", suffix="Jr."))
FULL = (Name(family="Stillman", given="Alexander N."), Name(family="Berg", given="Johanna"),
        Name(family="Okafor", given="Chinedu"))


def test_full_given_names_win_over_initials_whichever_source_comes_first() -> None:
    scopus = limnology("scopus", SCOPUS, Source("scopus.csv", 2))
    bib = limnology("bib", FULL, Source("mine.bib", 1))
    expected = (Name(family="Stillman", given="Alexander N."),
                Name(family="Berg", given="Johanna", non_dropping_particle="van der"),
                Name(family="Okafor", given="Chinedu", suffix="Jr."))
    assert merge_records([scopus, bib]).authors == expected
    assert merge_records([bib, scopus]).authors == expected


def test_where_fuller_names_came_from_is_kept_with_the_list() -> None:
    merged = merge_records([limnology("scopus", SCOPUS, Source("scopus.csv", 2)),
                            limnology("bib", FULL, Source("mine.bib", 1))])
    assert merged.extra["merge.author"] == "scopus.csv:2; mine.bib:1"


def test_another_given_name_is_another_spelling_not_a_fuller_one() -> None:
    short = limnology("a", (Name(family="Stillman", given="Alex"),), Source("a.csv", 2))
    other = limnology("b", (Name(family="Stillman", given="Alexander"),), Source("b.bib", 1))
    assert merge_records([short, other]).authors == (Name(family="Stillman", given="Alex"),)


def test_initials_two_people_could_have_are_not_written_out() -> None:
    scopus = limnology("scopus", (Name(family="Wang", given="J."), Name(family="Wang",
                                                                       given="L."),
                                  Name(family="Wang", given="J.")), Source("scopus.csv", 2))
    bib = limnology("bib", (Name(family="Wang", given="Jing"), Name(family="Wang", given="Lei"),
                            Name(family="Wang", given="Jun")), Source("mine.bib", 1))
    assert [n.display() for n in merge_records([scopus, bib]).authors] == [
        "J. Wang", "Lei Wang", "J. Wang"]


def test_a_middle_initial_is_kept_over_a_form_without_it() -> None:
    scopus = limnology("scopus", (Name(family="Stillman", given="Alexander N."),),
                       Source("scopus.csv", 2))
    bib = limnology("bib", (Name(family="Stillman", given="Alexander"),), Source("b.bib", 1))
    assert merge_records([scopus, bib]).authors == (Name(family="Stillman",
                                                         given="Alexander N."),)
