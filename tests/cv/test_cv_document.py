"""Grouping, sorting, numbering, links and the summary of a CV (refbridge.cv.document)."""

from __future__ import annotations

import pytest
from support import compiled

import refbridge.csl.processor
from refbridge.cv.document import CvOptions, build_cv, summarize
from refbridge.cv.links import Link, record_links
from refbridge.cv.parts import Split, split
from refbridge.cv.select import CvOptionError
from refbridge.errors import Diagnostics
from refbridge.model import Date, Eprint, Name, Record, Source

QIAN = Name(family="Qian", given="Zhengping")


def record(key: str, csl_type: str, year: int | None, subject: str | None = None,
           month: int | None = None) -> Record:
    return Record(key, csl_type, {"title": f"Paper {key}"}, {"author": (QIAN,)},
                  {"issued": Date.of(year, month)} if year else {},
                  eprint=Eprint("arXiv", primary_class=subject) if subject else None)


RECORDS = [
    record("a", "article", 2025, "cs.DC"),
    record("b", "article-journal", 2026, "cs.DB", month=3),
    record("c", "paper-conference", 2025, "cs.DB"),
    record("d", "article-journal", None),
    record("e", "article", 2026, "cs.DC", month=9),
]


def grouped(key: str) -> list[tuple[str | None, list[str]]]:
    return [(part.heading, [r.id for r in part.records]) for part in split(RECORDS, Split(key))]


def test_year_groups_are_newest_first_with_undated_last() -> None:
    assert grouped("year") == [("2026", ["b", "e"]), ("2025", ["a", "c"]), ("Undated", ["d"])]


def test_type_groups_follow_the_cv_order_of_kinds() -> None:
    assert grouped("type") == [("Preprints", ["a", "e"]), ("Journal articles", ["b", "d"]),
                               ("Conference papers", ["c"])]


def test_subject_groups_are_named_by_the_arxiv_taxonomy_largest_first() -> None:
    assert grouped("subject") == [
        ("Databases \u00b7 cs.DB", ["b", "c"]),
        ("Distributed, Parallel, and Cluster Computing \u00b7 cs.DC", ["a", "e"]),
        ("Other subjects", ["d"])]


def test_no_grouping_is_one_section_without_heading() -> None:
    assert grouped("none") == [(None, ["a", "b", "c", "d", "e"])]


def build(**options: object) -> list[tuple[str | None, list[tuple[int | None, str]]]]:
    document, _ = build_cv(RECORDS, CvOptions(**options),  # type: ignore[arg-type]
                           "text", Diagnostics())
    return [(section.heading, [(entry.number, entry.record.id) for entry in section.entries])
            for section in document.sections]


def test_count_down_numbering_gives_the_newest_the_highest_number() -> None:
    assert build() == [("2026", [(5, "e"), (4, "b")]), ("2025", [(3, "a"), (2, "c")]),
                       ("Undated", [(1, "d")])]


def test_count_up_numbering_runs_across_groups() -> None:
    assert build(group_by="type", numbering="count-up", sort="oldest") == [
        ("Preprints", [(1, "a"), (2, "e")]), ("Journal articles", [(3, "b"), (4, "d")]),
        ("Conference papers", [(5, "c")])]


def test_continuous_and_per_part_numbering_count_up_in_display_order() -> None:
    assert build(group_by="type", numbering="continuous", sort="oldest") == [
        ("Preprints", [(1, "a"), (2, "e")]), ("Journal articles", [(3, "b"), (4, "d")]),
        ("Conference papers", [(5, "c")])]
    assert build(group_by="type", numbering="per-part", sort="oldest") == [
        ("Preprints", [(1, "a"), (2, "e")]), ("Journal articles", [(1, "b"), (2, "d")]),
        ("Conference papers", [(1, "c")])]


def test_split_order_lists_the_groups_it_names_first() -> None:
    assert [heading for heading, _ in build(group_by="type", split_order=("conference",))] == [
        "Conference papers", "Preprints", "Journal articles"]


def test_no_numbering_and_title_order() -> None:
    assert build(group_by="none", numbering="none", sort="title") == [
        (None, [(None, "a"), (None, "b"), (None, "c"), (None, "d"), (None, "e")])]


def test_entries_are_formatted_by_the_style_with_the_owner_found() -> None:
    document, _ = build_cv(RECORDS[:1], CvOptions(owners=("Qian, Z.",)), "html", Diagnostics())
    assert document.entries[0].text == (
        '<div class="csl-entry"><b>Zhengping Qian</b>. Paper a. arXiv, 2025.</div>')


def test_underline_highlight_reaches_the_style() -> None:
    document, _ = build_cv(RECORDS[:1], CvOptions(owners=("Zhengping Qian",),
                                                  highlight="underline"), "latex", Diagnostics())
    assert document.entries[0].text == "\\underline{Zhengping Qian}. Paper a. arXiv, 2025."


def test_filters_apply_before_numbering() -> None:
    from refbridge.cv.select import Filters

    assert build(filters=Filters(kinds=("preprint",))) == [("2026", [(2, "e")]),
                                                            ("2025", [(1, "a")])]


def test_summary_counts_records_per_year() -> None:
    assert summarize(RECORDS).text() == "5 publications: 2026 (2), 2025 (2), undated (1)"
    assert summarize(RECORDS[:1]).text() == "1 publication: 2025 (1)"


@pytest.mark.parametrize("option", [{"group_by": "month"}, {"numbering": "roman"},
                                    {"highlight": "italic"}, {"sort": "random"}])
def test_unknown_option_values_are_usage_errors(option: dict[str, str]) -> None:
    with pytest.raises(CvOptionError, match="unknown --"):
        CvOptions(**option)  # type: ignore[arg-type]


def test_links_are_doi_arxiv_and_url_in_that_order() -> None:
    linked = Record("x", "article", {"DOI": "10.1000/xyz(1)", "URL": "https://example.org/x"},
                    eprint=Eprint("arXiv", "2403.01234v2"))
    assert record_links(linked, Diagnostics()) == (
        Link("DOI", "https://doi.org/10.1000/xyz(1)"),
        Link("arXiv", "https://arxiv.org/abs/2403.01234"),
        Link("URL", "https://example.org/x"))


def test_a_url_repeating_the_arxiv_link_is_listed_once() -> None:
    linked = Record("x", "article", {"URL": "https://arxiv.org/abs/2403.01234v1"},
                    eprint=Eprint("arXiv", "2403.01234"))
    assert record_links(linked, Diagnostics()) == (
        Link("arXiv", "https://arxiv.org/abs/2403.01234"),)


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JAVASCRIPT:alert(1)",
                                 "data:text/html,<b>x</b>", "file:///etc/passwd",
                                 "https://exa mple.org", "//example.org/x"])
def test_only_http_urls_are_linked_and_the_rest_reported(url: str) -> None:
    diagnostics = Diagnostics()
    hostile = Record("x", "webpage", {"URL": url}, source=Source("cv.json", 7))
    assert record_links(hostile, diagnostics) == ()
    assert [str(m) for m in diagnostics.messages] == [
        (f"cv.json:7: warning: record 'x': URL {url!r} is not an http(s) address; "
         "the CV does not link it")]


@pytest.mark.skipif(compiled(refbridge.csl.processor),
                    reason="patches the CSL processor, which the compiled build makes native "
                           "(the pure-Python run checks it)")
def test_each_entry_is_rendered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from refbridge.csl.processor import Processor

    rendered: list[str] = []
    entries = Processor._bibliography_entries

    def counted(self: Processor, selection: object = None):  # type: ignore[no-untyped-def]
        for key, node in entries(self, selection):  # type: ignore[arg-type]
            rendered.append(key)
            yield key, node

    monkeypatch.setattr(Processor, "_bibliography_entries", counted)
    document, _ = build_cv(RECORDS, CvOptions(group_by="none"), "text", Diagnostics())
    assert sorted(rendered) == ["cv-0", "cv-1", "cv-2", "cv-3", "cv-4"]
    assert len(document.entries) == 5
