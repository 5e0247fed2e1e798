"""Enriching records against a local stand-in for arXiv, Crossref and OpenAlex."""

from __future__ import annotations

from pathlib import Path

import pytest
from enrich_support import FixtureServer

from refbridge.enrich import EnrichOptions, OfflineError, ServiceError, enrich_records
from refbridge.model import Date, DateParts, Eprint, Name, Record, Source

OWNER = Name(family="Lin", given="Mei")


pytestmark = pytest.mark.usefixtures("no_remote_network")


def options_for(server: FixtureServer, tmp_path: Path, **changes: object) -> EnrichOptions:
    settings: dict[str, object] = {
        "endpoints": server.endpoints(), "cache_dir": tmp_path / "cache", "backoff": 0.0,
        "intervals": {"arxiv": 0.0, "crossref": 0.0, "openalex": 0.0}}
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
                          "enrich.eprint": "arxiv:2601.00101v2",
                          "enrich.confidence.arxiv": "1.00"}


def test_arxiv_is_searched_by_title_phrase_and_owner(server: FixtureServer,
                                                      tmp_path: Path) -> None:
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    enrich_records([record], options_for(server, tmp_path, services=("arxiv",)))
    [(_, query)] = server.requests_to("arxiv")
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


def test_published_version_from_crossref_is_cited_as_the_paper(server: FixtureServer,
                                                                tmp_path: Path) -> None:
    record = profile_record("Elastic Checkpointing for Distributed Training", 2024, "cs.DC")
    [enriched], report = enrich_records([record], options_for(server, tmp_path))
    assert enriched.type == "article-journal"
    assert {k: enriched.fields[k] for k in ("container-title", "volume", "issue", "page",
                                            "DOI", "publisher", "ISSN")} == {
        "container-title": "Proceedings of the VLDB Endowment", "volume": "17", "issue": "5",
        "page": "1021-1034", "DOI": "10.5555/refbridge.elastic",
        "publisher": "Fixture Academic Press", "ISSN": "2150-8097"}
    assert enriched.dates["issued"] == Date(start=DateParts(2025, 1))
    assert enriched.dates["available-date"] == Date(start=DateParts(2024, 4, 8))
    assert enriched.eprint == Eprint("arXiv", "2601.00108v3", "cs.DC", ("cs.LG",))
    assert enriched.extra["arxiv.journal-ref"] == "Proc. VLDB Endow. 17(5) (2024) 1021-1034"
    assert enriched.extra["enrich.type"] == "crossref:10.5555/refbridge.elastic"
    assert enriched.extra["enrich.available-date"] == "arxiv:2601.00108v3"
    assert [s.service for s in report.outcomes[0].steps] == ["arxiv", "crossref"]


def test_crossref_is_asked_by_the_doi_arxiv_gave(server: FixtureServer,
                                                  tmp_path: Path) -> None:
    record = profile_record("Elastic Checkpointing for Distributed Training", 2024, "cs.DC")
    enrich_records([record], options_for(server, tmp_path))
    assert [path for path, _ in server.requests_to("crossref")] == [
        "/crossref/works/10.5555/refbridge.elastic"]
    assert server.requests_to("openalex") == []


def test_published_version_from_openalex_when_crossref_has_none(server: FixtureServer,
                                                                 tmp_path: Path) -> None:
    record = profile_record("Vectorized Execution for Graph Pattern Queries", 2024)
    [enriched], report = enrich_records([record], options_for(server, tmp_path))
    assert enriched.type == "paper-conference"
    assert enriched.fields["container-title"] == ("Proceedings of the Fixture Conference on "
                                                  "Management of Data")
    assert enriched.fields["page"] == "210-223"
    assert enriched.fields["DOI"] == "10.5555/refbridge.vectorized"
    assert enriched.extra["enrich.container-title"] == "openalex:W9000000109"
    assert [(s.service, s.verdict) for s in report.outcomes[0].steps] == [
        ("arxiv", "match"), ("crossref", "not-found"), ("openalex", "match")]


def test_a_preprint_copy_is_not_taken_for_the_published_version(server: FixtureServer,
                                                                 tmp_path: Path) -> None:
    record = profile_record("Vectorized Execution for Graph Pattern Queries", 2024)
    [enriched], _ = enrich_records([record], options_for(server, tmp_path))
    assert "10.48550" not in enriched.fields["DOI"]


def test_polite_pool_address_is_sent_to_crossref_and_openalex(server: FixtureServer,
                                                              tmp_path: Path) -> None:
    record = profile_record("Vectorized Execution for Graph Pattern Queries", 2024)
    enrich_records([record], options_for(server, tmp_path, mailto="lib@example.org"))
    for service in ("crossref", "openalex"):
        assert [q.get("mailto") for _, q in server.requests_to(service)] == ["lib@example.org"]
    agents = {headers["User-Agent"] for _, _, _, headers in server.log}
    assert len(agents) == 1 and agents.pop().endswith("(mailto:lib@example.org)")


def test_service_unavailable_then_success_is_retried(server: FixtureServer,
                                                     tmp_path: Path) -> None:
    server.fail_next("arxiv", 503, 503)
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    [enriched], report = enrich_records([record], options_for(server, tmp_path))
    assert enriched.eprint is not None and enriched.eprint.identifier == "2601.00101v2"
    assert len(server.requests_to("arxiv")) == 3
    assert report.outcomes[0].outcome == "enriched"


def test_a_service_that_keeps_failing_stops_the_run_with_its_name(server: FixtureServer,
                                                                  tmp_path: Path) -> None:
    server.fail_next("arxiv", 503, 503, 503, 503)
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    with pytest.raises(ServiceError, match=r"arXiv kept failing \(HTTP 503\) after 4 attempts"):
        enrich_records([record], options_for(server, tmp_path))


def test_no_network_is_a_clear_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a port on this machine that nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    options = EnrichOptions(endpoints={"arxiv": closed}, cache_dir=tmp_path, backoff=0.0,
                            retries=1, intervals={"arxiv": 0.0})
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    with pytest.raises(OfflineError, match=r"cannot reach arXiv at 127\.0\.0\.1:\d+ .*"
                                           r"use --offline to work from cached answers only"):
        enrich_records([record], options)


def test_a_second_run_makes_no_requests(server: FixtureServer, tmp_path: Path) -> None:
    record = profile_record("Elastic Checkpointing for Distributed Training", 2024, "cs.DC")
    first, _ = enrich_records([record], options_for(server, tmp_path))
    asked = len(server.log)
    second, report = enrich_records([record], options_for(server, tmp_path))
    assert len(server.log) == asked
    assert second == first
    assert report.requests == 0 and report.from_cache == 1
    assert report.summary() == "1 record(s): 1 enriched; 1 from cache, 0 request(s)"


def test_a_record_looked_up_without_any_answer_is_not_counted_from_the_cache(
        server: FixtureServer, tmp_path: Path) -> None:
    untitled = profile_record("Learned Index Structures for Spatial Joins", 2025).replace(
        fields={"title": "???"})  # no word to search for: no service is asked
    _, report = enrich_records([untitled], options_for(server, tmp_path))
    assert server.log == []
    assert report.summary() == "1 record(s): 1 not found; 0 from cache, 0 request(s)"


def test_offline_answers_from_the_cache_only(server: FixtureServer, tmp_path: Path) -> None:
    cached = profile_record("Learned Index Structures for Spatial Joins", 2025)
    enrich_records([cached], options_for(server, tmp_path))
    asked = len(server.log)
    uncached = profile_record("Streaming Graph Partitioning", 2024, "cs.DS")
    records, report = enrich_records([cached, uncached],
                                     options_for(server, tmp_path, offline=True))
    assert len(server.log) == asked
    assert [o.outcome for o in report.outcomes] == ["enriched", "not-cached"]
    assert records[1] == uncached


def test_refresh_asks_again_despite_the_cache(server: FixtureServer, tmp_path: Path) -> None:
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    enrich_records([record], options_for(server, tmp_path, services=("arxiv",)))
    enrich_records([record], options_for(server, tmp_path, services=("arxiv",), refresh=True))
    assert len(server.requests_to("arxiv")) == 2


def test_base_urls_come_from_the_environment(server: FixtureServer, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for variable, url in server.environment().items():
        monkeypatch.setenv(variable, url)
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(tmp_path / "env-cache"))
    record = profile_record("Learned Index Structures for Spatial Joins", 2025)
    [enriched], _ = enrich_records([record], EnrichOptions(
        backoff=0.0, intervals={"arxiv": 0.0, "crossref": 0.0, "openalex": 0.0}))
    assert enriched.eprint is not None and enriched.eprint.identifier == "2601.00101v2"
    assert (tmp_path / "env-cache" / "enrich.sqlite3").is_file()


def test_a_complete_record_is_not_looked_up(server: FixtureServer, tmp_path: Path) -> None:
    record = Record(id="done", type="article-journal", fields={"title": "Done",
                                                               "DOI": "10.5555/done"},
                    names={"author": (OWNER,)})
    records, report = enrich_records([record], options_for(server, tmp_path))
    assert records == [record] and server.log == []
    assert report.outcomes[0].outcome == "complete"


def test_values_the_input_has_are_kept_and_reported(server: FixtureServer,
                                                    tmp_path: Path) -> None:
    record = profile_record("Learned Index Structures for Spatial Joins", 2025).replace(
        fields={"title": "Learned Index Structures for Spatial Joins",
                "abstract": "Our own abstract."},
        eprint=Eprint("arXiv", primary_class="cs.DS"))
    [enriched], report = enrich_records([record], options_for(server, tmp_path))
    assert enriched.fields["abstract"] == "Our own abstract."
    assert enriched.eprint == Eprint("arXiv", "2601.00101v2", "cs.DS", ("cs.LG",))
    assert [c for s in report.outcomes[0].steps for c in s.conflicts] == [
        "eprint primary class: kept cs.DS, arxiv:2601.00101v2 has cs.DB"]


def test_overwrite_replaces_the_input_values(server: FixtureServer, tmp_path: Path) -> None:
    record = profile_record("Learned Index Structures for Spatial Joins", 2024).replace(
        fields={"title": "Learned Index Structures for Spatial Joins",
                "abstract": "Our own abstract."})
    [kept], report = enrich_records([record], options_for(server, tmp_path))
    assert kept.year == 2024
    assert list(report.messages()) == [(
        "mei-lin.profile.txt:9: conflict: 'Learned Index Structures for Spatial Joins': "
        "issued: kept 2024, arxiv:2601.00101v2 has 2025 (--overwrite replaces)")]
    [replaced], _ = enrich_records([record], options_for(server, tmp_path, overwrite=True))
    assert replaced.year == 2025
    assert replaced.fields["abstract"] == "Fixture entry: an exact match."
