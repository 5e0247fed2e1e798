"""Which records a CV lists (refbridge.cv.select): years, types, arXiv subjects, free text."""

from __future__ import annotations

import pytest

from refbridge.cv.select import CvOptionError, Filters, select
from refbridge.model import Date, Eprint, Name, Record

RECORDS = [
    Record("specdb", "article", {"title": "SpecDB: LLM-Generated Customized Databases"},
           {"author": (Name(family="Qian", given="Zhengping"),)}, {"issued": Date.of(2026)},
           eprint=Eprint("arXiv", primary_class="cs.DB", cross_lists=("cs.AI",))),
    Record("shift", "paper-conference", {"title": "SHIFT: RDMA Network Fault Tolerance",
                                         "container-title": "Proceedings of NSDI"},
           {"author": (Name(family="Yang", given="Qinwei"),)}, {"issued": Date.of(2025)}),
    Record("borrowing", "article-journal", {"title": "Adaptive Borrowing of External Controls",
                                            "abstract": "Treatment effects in clinical trials."},
           {"author": (Name(family="Núñez", given="José"),)}, {"issued": Date.of(2023)},
           eprint=Eprint("arXiv", primary_class="stat.ME")),
    Record("in-press", "article-journal", {"title": "Reproducible bibliographies"}),
]


def ids(filters: Filters) -> list[str]:
    return [record.id for record in select(RECORDS, filters)]


def test_no_filter_keeps_everything_in_order() -> None:
    assert ids(Filters()) == ["specdb", "shift", "borrowing", "in-press"]


def test_year_range_is_inclusive_and_drops_undated_records() -> None:
    assert ids(Filters(since=2024, until=2025)) == ["shift"]
    assert ids(Filters(since=2025)) == ["specdb", "shift"]


def test_type_accepts_publication_kinds_and_csl_types() -> None:
    assert ids(Filters(kinds=("journal", "preprint"))) == ["specdb", "borrowing", "in-press"]
    assert ids(Filters(kinds=("paper-conference",))) == ["shift"]


def test_subject_matches_any_category_or_a_whole_archive() -> None:
    assert ids(Filters(subjects=("cs.AI",))) == ["specdb"]
    assert ids(Filters(subjects=("stat",))) == ["borrowing"]
    assert ids(Filters(subjects=("CS.db",))) == ["specdb"]


def test_free_text_needs_every_word_ignoring_case_and_accents() -> None:
    assert ids(Filters(text="nunez clinical")) == ["borrowing"]
    assert ids(Filters(text="rdma nsdi")) == ["shift"]
    assert ids(Filters(text="rdma databases")) == []


def test_filters_combine_with_and() -> None:
    assert ids(Filters(since=2024, kinds=("preprint",), text="llm")) == ["specdb"]


def test_unknown_type_is_a_usage_error_naming_the_choices() -> None:
    with pytest.raises(CvOptionError, match="unknown publication type 'journl' "
                                            r"\(choose from preprint, journal,"):
        Filters(kinds=("journl",))


def test_empty_year_range_is_a_usage_error() -> None:
    with pytest.raises(CvOptionError, match="the year range 2026-2020 is empty"):
        Filters(since=2026, until=2020)
