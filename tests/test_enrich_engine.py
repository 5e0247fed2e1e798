"""Enriching records against a local stand-in for arXiv, Crossref and OpenAlex."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from enrich_support import FixtureData, FixtureServer, forbid_remote_connections, serving

from refbridge.enrich import EnrichOptions, OfflineError, enrich_records
from refbridge.model import Date, DateParts, Eprint, Name, Record, Source

OWNER = Name(family="Lin", given="Mei")


@pytest.fixture(autouse=True)
def no_remote_network(monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_remote_connections(monkeypatch)


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    with serving(FixtureData("scenarios.atom", "works.json", "works.json")) as running:
        yield running


def options_for(server: FixtureServer, tmp_path: Path, **changes: object) -> EnrichOptions:
    settings: dict[str, object] = dict(
        endpoints=server.endpoints(), cache_dir=tmp_path / "cache", backoff=0.0,
        intervals={"arxiv": 0.0, "crossref": 0.0, "openalex": 0.0})
    settings.update(changes)
    return EnrichOptions(**settings)  # type: ignore[arg-type]


def profile_record(title: str, year: int, primary: str = "cs.DB") -> Record:
    """A record as the profile reader makes it: the owner only, no identifier."""
    return Record(id="mei-lin-1", type="article", fields={"title": title},
                  names={"author": (OWNER,)}, dates={"issued": Date.of(year)},
                  eprint=Eprint("arXiv", primary_class=primary),
                  incomplete_names=frozenset({"author"}),
                  source=Source("mei-lin.profile.txt", 9))


def test_exact_match_fills_authors_identifier_categories_and_dates(
        server: FixtureServer, tmp_path: Path) -> None:
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    [enriched], report = enrich_records([record], options_for(server, tmp_path))
    assert [n.display() for n in enriched.authors] == ["Mei Lin", "Rahul Verma",
                                                      "Sofía Álvarez"]
    assert enriched.incomplete_names == frozenset()
    assert enriched.eprint == Eprint("arXiv", "2601.00101v2", "cs.DB", ("cs.LG",))
    assert enriched.dates["issued"] == Date(start=DateParts(2025, 3, 4))
    assert enriched.extra["arxiv.published"] == "2025-03-04"
    assert enriched.extra["arxiv.updated"] == "2025-06-10"
    assert enriched.extra["arxiv.comment"] == "14 pages, 9 figures"
    assert report.outcomes[0].outcome == "enriched"
    assert report.outcomes[0].steps[0].confidence == 1.0


def test_every_filled_value_names_its_source(server: FixtureServer, tmp_path: Path) -> None:
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    [enriched], _ = enrich_records([record], options_for(server, tmp_path))
    provenance = {k: v for k, v in enriched.extra.items() if k.startswith("enrich.")}
    assert provenance == {"enrich.author": "arxiv:2601.00101v2",
                          "enrich.abstract": "arxiv:2601.00101v2",
                          "enrich.issued": "arxiv:2601.00101v2",
                          "enrich.eprint": "arxiv:2601.00101v2"}


def test_arxiv_is_searched_by_title_phrase_and_owner(server: FixtureServer,
                                                      tmp_path: Path) -> None:
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    enrich_records([record], options_for(server, tmp_path, services=("arxiv",)))
    [(path, query)] = server.requests_to("arxiv")
    assert query["search_query"] == ('ti:"learned index structures for spatial joins" '
                                     'AND au:"lin"')


def test_near_duplicate_title_of_another_work_is_not_a_rival(server: FixtureServer,
                                                            tmp_path: Path) -> None:
    record = profile_record("Robust Query Optimization with Learned Cost Models", 2025)
    [enriched], report = enrich_records([record], options_for(server, tmp_path))
    assert enriched.eprint is not None and enriched.eprint.identifier == "2601.00102v1"
    assert report.outcomes[0].steps[0].verdict == "match"


def test_two_works_with_the_same_title_are_reported_not_applied(server: FixtureServer,
                                                               tmp_path: Path) -> None:
    record = profile_record("Streaming Graph Partitioning", 2024, "cs.DS")
    [enriched], report = enrich_records([record], options_for(server, tmp_path))
    assert enriched == record
    assert report.outcomes[0].outcome == "ambiguous"
    [message] = [m for m in report.messages()]
    assert message.startswith("mei-lin.profile.txt:9: ambiguous: 'Streaming Graph "
                              "Partitioning': arxiv: arxiv:2601.00105v1 (title 1.00")
    assert "and arxiv:2601.00106v1 (1.00)" in message


def test_an_accepted_ambiguous_match_applies_the_best_candidate(server: FixtureServer,
                                                                tmp_path: Path) -> None:
    record = profile_record("Streaming Graph Partitioning", 2024, "cs.DS")
    [enriched], report = enrich_records(
        [record], options_for(server, tmp_path, accept=frozenset({"ambiguous"})))
    assert enriched.eprint is not None and enriched.eprint.identifier == "2601.00105v1"
    assert report.outcomes[0].outcome == "enriched"


def test_owner_not_among_the_authors_is_a_weak_match_left_unapplied(
        server: FixtureServer, tmp_path: Path) -> None:
    record = profile_record("Cost-Based Scheduling of Inference Workloads", 2025, "cs.DC")
    [enriched], report = enrich_records([record], options_for(server, tmp_path))
    assert enriched == record
    assert report.outcomes[0].outcome == "weak"
    [message] = report.messages()
    assert message == (
        "mei-lin.profile.txt:9: weak: 'Cost-Based Scheduling of Inference Workloads': arxiv: "
        "arxiv:2601.00107v1 (title 1.00; year 2025 within one of 2025; Mei Lin not among the "
        "3 authors; confidence 0.65) (--accept weak applies it)")


def test_an_accepted_weak_match_is_applied(server: FixtureServer, tmp_path: Path) -> None:
    record = profile_record("Cost-Based Scheduling of Inference Workloads", 2025, "cs.DC")
    [enriched], _ = enrich_records(
        [record], options_for(server, tmp_path, accept=frozenset({"weak"})))
    assert [n.display() for n in enriched.authors] == ["Omar Haddad", "Priya Nair", "Wei Lin"]
