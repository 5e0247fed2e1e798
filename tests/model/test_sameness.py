"""One home for "is this the same work?" and "is this the same person?" (refbridge.sameness):
the identifiers of a record, its identity keys, and the rules every job asks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from refbridge.model import Date, Eprint, Name, Record
from refbridge.sameness.ids import arxiv_id, identifiers, own_doi
from refbridge.sameness.keys import bib_identity, identities, signature
from refbridge.sameness.people import expands, same_person
from refbridge.sameness.text import fold, normalize_title
from refbridge.sameness.works import Profile, barrier, compatible, same_work, title_similarity

QIAN = Name(family="Qian", given="Zhengping")
YANG = Name(family="Yang", given="Qinwei")


def work(title: str, year: int, kind: str = "article-journal", *,
         people: tuple[Name, ...] = (QIAN, YANG), **fields: str) -> Record:
    return Record(id=title[:12], type=kind, fields={"title": title, **fields},
                  names={"author": people}, dates={"issued": Date.of(year)})


def in_venue(venue: str, record: Record) -> Record:
    return replace(record, fields={**record.fields, "container-title": venue})


# -- identifiers of a record

def test_the_arxiv_id_of_an_arxiv_doi_without_its_version() -> None:
    record = work("Efficient Long-Context Retrieval", 2024, "article",
                  DOI="https://doi.org/10.48550/arXiv.2403.01234v2")
    assert arxiv_id(record) == "2403.01234"


def test_the_arxiv_id_of_google_scholars_venue() -> None:
    record = work("Efficient Long-Context Retrieval", 2024, "article",
                  **{"container-title": "arXiv preprint arXiv:2403.01234"})
    assert arxiv_id(record) == "2403.01234"


def test_an_arxiv_doi_is_no_doi_of_the_works_own() -> None:
    assert own_doi(work("Sparse Attention", 2024, DOI="10.48550/arXiv.2403.01234")) is None


def test_identifiers_by_kind_in_their_compared_form() -> None:
    record = work("Graph Databases", 2021, "book", DOI="10.1007/978-3-030-12345-6",
                  ISBN="3-540-12345-3").replace(eprint=Eprint("arXiv", "2101.00001v3"))
    assert identifiers(record) == {"doi": {"10.1007/978-3-030-12345-6"},
                                   "arxiv": {"2101.00001"}, "isbn": {"9783540123453"}}


# -- identity keys

def test_the_arxiv_id_of_dblps_corr_volume() -> None:
    record = work("Factorial models of language", 2013,
                  **{"container-title": "CoRR", "volume": "abs/1312.61680v2"})
    assert arxiv_id(record) == "1312.61680"


def test_the_key_locks_identities_of_a_published_paper() -> None:
    record = work("Über-Graphs: A Study", 2023, DOI="10.1145/3580305.3599256")
    assert identities(record) == ("doi:10.1145/3580305.3599256", "work:uber graphs a study|2023|qian")


def test_the_key_lock_reads_no_arxiv_id_from_scholars_venue() -> None:
    record = work("Sparse Attention", 2024, "article",
                  **{"container-title": "arXiv preprint arXiv:2403.01234"})
    assert identities(record) == ("work:sparse attention|2024|qian",)


def test_a_checks_signature_is_letters_and_digits() -> None:
    assert signature(work("Über-Graphs: A Study", 2023)) == ("ubergraphsastudy", 2023, "qian")


def test_a_bib_entrys_identity_is_its_doi_before_its_title() -> None:
    fields = {"title": "On {G}raphs", "year": "2020", "author": "Lovelace, Ada",
              "doi": "https://doi.org/10.1000/ABC.1"}
    assert bib_identity("article", fields) == "doi:10.1000/abc.1"


def test_a_bib_entrys_identity_without_identifiers_sets_latex_aside() -> None:
    fields = {"title": "On \\emph{Graphs}", "year": "2020", "author": "Ada Lovelace"}
    assert bib_identity("Article", fields) == "work:article|on graphs|2020|lovelace"


# -- text

def test_unicode_and_ascii_fold_alike() -> None:
    assert fold("Über-Graphs: A Study") == fold("Uber graphs -- a study") == "uber graphs a study"


def test_latex_markup_is_set_aside_from_a_title() -> None:
    assert normalize_title("Sparse \\emph{Attention} for Long Contexts") == normalize_title(
        "Sparse Attention for Long Contexts") == "sparse attention for long contexts"


def test_title_similarity_of_a_title_and_its_latex_spelling() -> None:
    assert title_similarity("Sparse \\textit{Attention} for Long Contexts",
                            "Sparse Attention for Long Contexts") == 1.0


# -- same person

def test_initials_are_the_written_out_given_names() -> None:
    assert same_person(Name(family="Qian", given="Z."), QIAN)


def test_two_written_out_given_names_that_differ_are_two_people() -> None:
    assert not same_person(Name(family="Qian", given="Zhou"), QIAN)


def test_with_initials_only_two_given_names_of_one_initial_are_one_person() -> None:
    assert same_person(Name(family="Qian", given="Zhou"), QIAN, initials_only=True)


def test_the_same_words_in_another_order_are_one_name() -> None:
    assert same_person(Name(literal="Qian Zhengping"), QIAN)


def test_a_written_out_name_expands_its_initials() -> None:
    assert expands(Name(family="Stillman", given="Alexander N."),
                   Name(family="Stillman", given="A.N."))


# -- same work

def test_a_preprint_and_its_published_version_two_years_later_are_one_work() -> None:
    preprint = work("Sparse attention for long contexts", 2022, "article")
    published = work("Sparse Attention for Long Contexts", 2024)
    assert same_work(Profile(preprint), Profile(published)) == "same title, year and authors"


def test_two_published_papers_two_years_apart_are_two_works() -> None:
    first = work("Sparse Attention for Long Contexts", 2022)
    second = work("Sparse Attention for Long Contexts", 2024)
    assert same_work(Profile(first), Profile(second)) is None


def test_initials_and_full_names_are_one_author_list() -> None:
    short = work("Sparse Attention for Long Contexts", 2024,
                 people=(Name(family="Qian", given="Z."), Name(family="Yang", given="Q.")))
    full = work("Sparse Attention for Long Contexts", 2024)
    assert same_work(Profile(short), Profile(full)) == "same title, year and authors"


def test_a_subtitle_set_off_by_a_colon_or_a_dash_is_one_title() -> None:
    colon = work("Graph Stream Summarization: From Big Bang to Big Crunch", 2016)
    dash = work("Graph Stream Summarization -- From Big Bang to Big Crunch", 2016)
    assert same_work(Profile(colon), Profile(dash)) == "same title, year and authors"


def test_the_same_doi_is_one_work_whatever_the_titles() -> None:
    a = work("Sparse Attention", 2024, DOI="10.1145/3580305.3599256")
    b = work("Sparse attention for long contexts", 2023, DOI="https://doi.org/10.1145/3580305.3599256")
    assert same_work(Profile(a), Profile(b)) == "same DOI"


def test_two_editions_stay_apart() -> None:
    first = work("Reinforcement Learning: An Introduction", 2018, "book", edition="2nd ed.")
    second = work("Reinforcement Learning: An Introduction", 2018, "book", edition="Third")
    assert barrier(Profile(first), Profile(second)) == "different editions"


def test_two_volumes_of_a_book_stay_apart() -> None:
    first = work("The Art of Computer Programming", 1997, "book", volume="1")
    second = work("The Art of Computer Programming", 1997, "book", volume="2")
    assert barrier(Profile(first), Profile(second)) == "different volumes"


def test_two_parts_stay_apart() -> None:
    first = work("Foundations of Graph Streams, Part I", 2020)
    second = work("Foundations of Graph Streams, Part II", 2020)
    assert barrier(Profile(first), Profile(second)) == "different parts"


def test_an_erratum_stays_apart_from_its_paper() -> None:
    paper = work("Sparse Attention for Long Contexts", 2024)
    erratum = work("Erratum: Sparse Attention for Long Contexts", 2024)
    assert barrier(Profile(paper), Profile(erratum)) == "a note about a work and another"


def test_a_reply_stays_apart_from_its_paper() -> None:
    paper = work("Sparse Attention for Long Contexts", 2024)
    reply = work("Reply to Sparse Attention for Long Contexts", 2024)
    assert same_work(Profile(paper), Profile(reply)) is None


def test_merges_alike_titles_with_two_own_dois_are_two_works() -> None:
    a = work("Graph Stream Summarization", 2016, DOI="10.1145/2882903.2915223")
    b = work("Graph Stream Summarization", 2016, DOI="10.1145/2882903.9999999")
    assert not compatible(a, b)


def test_an_arxiv_doi_and_a_journals_doi_are_a_preprint_and_its_paper() -> None:
    preprint = work("Sparse Attention for Long Contexts", 2022, DOI="10.48550/arXiv.2203.01234",
                    **{"container-title": "Arxiv preprint arXiv:2203.01234"})
    published = work("Sparse attention for long contexts", 2024, DOI="10.1145/3580305.3599256",
                     **{"container-title": "Transactions on Long Documents"})
    assert same_work(Profile(preprint), Profile(published)) == "same title, year and authors"


@pytest.mark.parametrize("venue", ["arXiv", "CoRR", "arXiv:2203.01234", "bioRxiv"])
def test_a_journal_named_after_a_preprint_server_is_a_preprint(venue: str) -> None:
    preprint = work("Sparse Attention for Long Contexts", 2022, **{"container-title": venue})
    published = work("Sparse Attention for Long Contexts", 2024,
                     **{"container-title": "Transactions on Long Documents"})
    assert same_work(Profile(preprint), Profile(published)) == "same title, year and authors"


def test_howpublished_arxiv_is_a_preprint() -> None:
    preprint = work("Sparse Attention for Long Contexts", 2022, "document",
                    medium="arXiv preprint")
    published = work("Sparse Attention for Long Contexts", 2024)
    assert same_work(Profile(preprint), Profile(published)) == "same title, year and authors"


@pytest.mark.parametrize("title", [
    "Sparse Attention for Long Contexts: Supplementary material",
    "Supplementary Material: Sparse Attention for Long Contexts",
    "Sparse Attention for Long Contexts (Supplementaty Material)",
    "Sparse Attention for Long Contexts -- Source Code",
])
def test_a_papers_supplement_stays_apart_from_the_paper(title: str) -> None:
    paper = work("Sparse Attention for Long Contexts", 2024, "paper-conference")
    supplement = work(title, 2024, "document")
    assert barrier(Profile(paper), Profile(supplement)) == "a note about a work and another"


def test_a_note_saying_supplementary_material_of_keeps_an_entry_apart() -> None:
    paper = work("Sparse Attention for Long Contexts", 2024, "paper-conference")
    supplement = work("Sparse Attention for Long Contexts", 2024, "document",
                      note="Supplementary material of \\cite{QiaYan2024}")
    assert barrier(Profile(paper), Profile(supplement)) == "a note about a work and another"


def test_a_misc_entry_of_a_papers_title_without_identifiers_is_not_its_preprint() -> None:
    page = work("Sparse Attention for Long Contexts", 2023, "document",
                URL="https://example.org/sparse-attention")
    paper = work("Sparse Attention for Long Contexts", 2024, "paper-conference")
    assert same_work(Profile(page), Profile(paper)) is None


def test_a_misc_entry_with_the_papers_doi_is_the_paper() -> None:
    misc = work("Sparse Attention for Long Contexts", 2024, "document",
                DOI="10.1145/3580305.3599256")
    paper = work("Sparse Attention for Long Contexts", 2024, "paper-conference",
                 DOI="10.1145/3580305.3599256")
    assert same_work(Profile(misc), Profile(paper)) == "same DOI"


def test_a_doi_pasted_into_an_unrelated_entry_years_apart_does_not_make_one_work() -> None:
    paper = work("Sparse Attention for Long Contexts", 2013, DOI="10.1145/3580305.3599256")
    other = work("Tidal Mixing in a Shallow Lagoon", 1997, DOI="10.1145/3580305.3599256")
    assert same_work(Profile(paper), Profile(other)) is None


def test_a_doi_shared_by_other_titles_of_the_same_authors_and_year_is_one_work() -> None:
    english = work("Sparse Attention for Long Contexts", 2024, DOI="10.1145/3580305.3599256")
    german = work("Spärliche Aufmerksamkeit für lange Kontexte", 2024,
                  DOI="10.1145/3580305.3599256")
    assert same_work(Profile(english), Profile(german)) == "same DOI"


def test_a_book_dated_a_year_apart_is_one_book() -> None:
    printed = work("Stochastic Local Search", 2004, "book", publisher="Elsevier")
    dated = work("Stochastic Local Search", 2005, "book", publisher="Morgan Kaufmann")
    assert same_work(Profile(printed), Profile(dated)) == "same title, year and authors"


@pytest.mark.parametrize("companion", [
    "Proceedings of the Genetic and Evolutionary Computation Conference Companion",
    "CVPR Workshop on Autonomous Driving",
    "CHI Conference on Human Factors in Computing Systems, Extended Abstracts",
])
def test_a_conference_paper_and_its_companions_workshops_stay_apart(companion: str) -> None:
    title = "Trajectory Prediction via Differentiable Simulation"
    main = in_venue("IEEE Intelligent Transportation Systems Conference",
                    work(title, 2021, "paper-conference"))
    lesser = in_venue(companion, work(title, 2021, "paper-conference"))
    assert barrier(Profile(main), Profile(lesser)) == \
        "a conference's paper and its companion's or workshop's"


def test_a_workshop_paper_and_its_arxiv_preprint_are_one_work() -> None:
    title = "Near-Optimal Glimpse Sequences for Hard Attention"
    workshop = in_venue("NeurIPS Workshop on Deep Learning",
                        work(title, 2019, "paper-conference"))
    preprint = in_venue("arXiv preprint arXiv:1906.05462", work(title, 2019, "article"))
    assert same_work(Profile(workshop), Profile(preprint)) == "same title, year and authors"


def test_a_conference_paper_and_its_journal_version_with_its_doi_stay_apart() -> None:
    conference = work("Game Theoretic Analysis of Call-by-Value Computation", 1997,
                      "paper-conference", DOI="10.1007/3-540-63165-8_180")
    journal = work("Game-Theoretic Analysis of Call-by-Value Computation", 1999,
                   DOI="10.1007/3-540-63165-8_180")
    assert same_work(Profile(conference), Profile(journal)) is None
    assert barrier(Profile(conference), Profile(journal)) == \
        "a conference paper and its journal version"


def test_a_journal_article_typed_as_a_conference_paper_a_year_apart_is_one_work() -> None:
    typed = work("SegNet: A Deep Convolutional Encoder-Decoder Architecture", 2016,
                 "paper-conference", DOI="10.1109/TPAMI.2016.2644615")
    article = work("SegNet: A Deep Convolutional Encoder-Decoder Architecture", 2017,
                   DOI="10.1109/TPAMI.2016.2644615")
    assert same_work(Profile(typed), Profile(article)) == "same DOI"


def test_two_books_years_apart_sharing_a_doi_are_two_editions() -> None:
    older = work("Logic and Structure", 1997, "book", DOI="10.1007/978-1-4471-4558-5")
    newer = work("Logic and Structure", 2004, "book", DOI="10.1007/978-1-4471-4558-5")
    assert barrier(Profile(older), Profile(newer)) == "editions years apart"


def test_two_books_years_apart_sharing_an_isbn_are_one_edition_reprinted() -> None:
    first = work("The METAFONTbook", 1986, "book", ISBN="0-201-13444-6")
    reprint = work("The METAFONTbook", 1993, "book", ISBN="0201134446")
    assert same_work(Profile(first), Profile(reprint)) == "same ISBN"


def test_two_web_pages_of_one_site_stay_apart() -> None:
    home = work("Gephi", 2008, "document", URL="https://gephi.org")
    features = work("Gephi", 2008, "document", URL="https://gephi.org/features/")
    assert barrier(Profile(home), Profile(features)) == "different web pages"


def test_a_specification_and_the_web_page_about_it_stay_apart() -> None:
    specification = work("Cloud Data Management Interface", 2015, "report", edition="1.1.1",
                         URL="https://www.snia.org/sites/default/files/CDMI_Spec_v1.1.1.pdf")
    page = work("Cloud Data Management Interface", 2015, "document",
                URL="https://www.snia.org/cdmi")
    assert same_work(Profile(specification), Profile(page)) is None


@pytest.mark.parametrize("other", [
    "http://www.eazybi.com/blog/data{\\_}visualization{\\_}and{\\_}chart{\\_}types/",
    "https://eazybi.com/blog/data_visualization_and_chart_types#3bef34896c30",
    "https://eazybi.com/blog/data_visualization_and_chart_type",
])
def test_one_web_page_by_its_address_spelt_otherwise_is_one_work(other: str) -> None:
    page = work("How to Pick the Right Chart Type", 2016, "document",
                URL="https://eazybi.com/blog/data_visualization_and_chart_types")
    again = work("How to pick the right chart type", 2016, "document", URL=other)
    assert same_work(Profile(page), Profile(again)) == "same title, year and authors"


def test_a_book_chapter_and_its_pdf_elsewhere_are_one_work() -> None:
    chapter = in_venue("Handbook of Data Visualization", work(
        "A Brief History of Data Visualization", 2006, "document",
        URL="https://link.springer.com/book/10.1007/978-3-540-33037-0"))
    pdf = work("A Brief History of Data Visualization", 2006, "document",
               URL="http://datavis.ca/papers/hbook.pdf")
    assert same_work(Profile(chapter), Profile(pdf)) == "same title, year and authors"


def test_a_title_a_word_apart_in_one_venue_with_all_authors_and_year_is_one_work() -> None:
    book = "Cognitive Psychology of Memory"
    chapter = in_venue(book, work("Associative processes in episodic memory", 2008, "chapter"))
    again = in_venue(book, work("Associative retrieval processes in episodic memory", 2008,
                                "chapter"))
    assert same_work(Profile(chapter), Profile(again)) == \
        "same venue, year and authors, a title a word apart"


def test_a_title_a_word_apart_at_one_web_address_is_one_page() -> None:
    page = work("Softlayer", 2017, "document", people=(Name(literal="IBM Corp."),),
                URL="www.softlayer.com")
    again = work("IBM Softlayer", 2017, "document", people=(Name(literal="IBM Corp."),),
                 URL="www.softlayer.com")
    assert same_work(Profile(page), Profile(again)) == \
        "same venue, year and authors, a title a word apart"


def test_short_titles_a_word_apart_in_one_venue_are_two_works() -> None:
    book = "Handbook of Optimization"
    robust = in_venue(book, work("Robust Optimization", 2010, "chapter"))
    stochastic = in_venue(book, work("Stochastic Optimization", 2010, "chapter"))
    assert same_work(Profile(robust), Profile(stochastic)) is None


@pytest.mark.parametrize("change", [
    {"venue": "Handbook of Memory"},  # another venue
    {"people": (QIAN,)},  # not all the authors
])
def test_a_title_a_word_apart_needs_the_same_venue_and_all_authors(change: dict[str, Any]
                                                                 ) -> None:
    chapter = in_venue("Cognitive Psychology of Memory",
                       work("Associative processes in episodic memory", 2008, "chapter"))
    again = in_venue(str(change.get("venue", "Cognitive Psychology of Memory")),
                     work("Associative retrieval processes in episodic memory", 2008,
                          "chapter", people=change.get("people", (QIAN, YANG))))
    assert same_work(Profile(chapter), Profile(again)) is None


def test_a_conference_paper_naming_its_arxiv_preprint_is_no_preprint() -> None:
    conference = in_venue("International Conference on Artificial Intelligence and Statistics",
                          work("Coping With Simulators That Don't Always Return", 2020,
                               "paper-conference")).replace(eprint=Eprint("arXiv", "2003.12908"))
    symposium = in_venue("Symposium on Advances in Approximate Bayesian Inference",
                         work("Coping With Simulators That Don't Always Return", 2019,
                              "paper-conference"))
    assert not Profile(conference).preprint
    assert same_work(Profile(conference), Profile(symposium)) is None


def test_one_paper_paginated_in_two_printings_is_one_work() -> None:
    open_access = in_venue("Proc. of CVPR", work("Learning from Simulated Images", 2017,
                                                 "paper-conference", page="2107--2116"))
    publisher = in_venue("Proc. of CVPR", work("Learning from Simulated Images", 2017,
                                               "paper-conference", page="2242--2251"))
    assert same_work(Profile(open_access), Profile(publisher)) == "same title, year and authors"


@pytest.mark.parametrize(("kind", "other_pages"), [
    ("paper-conference", "2242--2260"),  # other lengths: two papers
    ("chapter", "50--51"),  # two passages of one book
])
def test_papers_or_passages_at_other_pages_stay_apart(kind: str, other_pages: str) -> None:
    first = work("Resource Management for Big Data Platforms", 2016, kind, page="49--50")
    second = work("Resource Management for Big Data Platforms", 2016, kind, page=other_pages)
    assert barrier(Profile(first), Profile(second)) == "different pages"
