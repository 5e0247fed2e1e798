"""Matching candidates to records: titles, names, years, verdicts."""

from __future__ import annotations

from refbridge.model import Date, Eprint, Name, Record
from refbridge.sameness.people import same_person
from refbridge.sameness.text import normalize_title
from refbridge.sameness.works import title_similarity
from refbridge.services.found import Found
from refbridge.services.matching import assess, judge

OWNER = Name(family="Qian", given="Zhengping")


def record(title: str, year: int = 2022, authors: tuple[Name, ...] = (OWNER,),
           incomplete: bool = True) -> Record:
    return Record(id="r", type="article", fields={"title": title},
                  names={"author": authors}, dates={"issued": Date.of(year)},
                  incomplete_names=frozenset({"author"}) if incomplete else frozenset())


def candidate(identifier: str, title: str, year: int, *authors: str) -> Found:
    names = tuple(Name(family=a.split()[-1], given=" ".join(a.split()[:-1]) or None)
                  for a in authors)
    return Found("arxiv", identifier, Record(
        id=f"arxiv:{identifier}", type="article", fields={"title": title},
        names={"author": names}, dates={"issued": Date.of(year)},
        eprint=Eprint("arXiv", identifier)), published=False)


def test_titles_are_compared_without_case_accents_punctuation_or_tex() -> None:
    assert normalize_title("Higher-Order $(k,\\tau)$-Truss: Décomposition!") == (
        "higher order k truss decomposition")


def test_a_spelling_variant_is_a_near_duplicate() -> None:
    similarity = title_similarity("Robust Query Optimization with Learned Cost Models",
                                  "Robust query optimisation with learned cost-models.")
    assert 0.97 < similarity < 1.0


def test_a_different_title_is_far() -> None:
    assert title_similarity("Streaming Graph Partitioning",
                            "Elastic Checkpointing for Distributed Training") < 0.5


def test_names_match_across_initials_and_order() -> None:
    assert same_person(OWNER, Name(family="Qian", given="Z."))
    assert same_person(OWNER, Name(family="Zhengping", given="Qian"))
    assert not same_person(OWNER, Name(family="Qian", given="Wei"))
    assert not same_person(OWNER, Name(family="Qiang", given="Zhengping"))


def test_a_complete_list_needs_half_its_authors_found() -> None:
    mine = record("FLAT", authors=(OWNER, Name("Wang", "Jing"), Name("Zhou", "Ming"),
                                   Name("Liu", "Xiaoyu")), incomplete=False)
    assert assess(mine, candidate("1", "FLAT", 2022, "Jing Wang", "Zhengping Qian")).authors_ok
    assert not assess(mine, candidate("1", "FLAT", 2022, "Jing Wang")).authors_ok


def test_a_year_two_away_costs_confidence() -> None:
    assessment = assess(record("FLAT", 2020), candidate("1", "FLAT", 2022, "Zhengping Qian"))
    assert (assessment.year_ok, assessment.confidence) == (False, 0.75)


def test_exact_title_owner_and_year_is_a_match() -> None:
    judgement = judge(record("Higher-Order Neighborhood Truss Decomposition"), [
        candidate("2601.00009v1", "Higher-order neighborhood truss decomposition", 2022,
                  "Zhengping Qian", "Lei Sun")])
    assert (judgement.verdict, judgement.confidence) == ("match", 1.0)


def test_one_work_found_twice_is_not_ambiguous() -> None:
    same = candidate("2601.00009v1", "Higher-Order Neighborhood Truss Decomposition", 2022,
                     "Zhengping Qian")
    again = candidate("2601.00009v2", "Higher-Order Neighborhood Truss Decomposition", 2022,
                      "Zhengping Qian")
    assert judge(record("Higher-Order Neighborhood Truss Decomposition"),
                 [same, again]).verdict == "match"


def test_a_title_below_the_floor_is_not_found() -> None:
    judgement = judge(record("Streaming Graph Partitioning"), [
        candidate("1", "Elastic Checkpointing for Distributed Training", 2022,
                  "Zhengping Qian")])
    assert judgement.verdict == "not-found"
    assert judgement.explain().startswith("arxiv:1 (title 0.")


def test_a_linked_work_with_another_title_is_weak() -> None:
    judgement = judge(record("Streaming Graph Partitioning"), [
        candidate("1", "Elastic Checkpointing for Distributed Training", 2022,
                  "Zhengping Qian")], linked=True)
    assert judgement.verdict == "weak"
