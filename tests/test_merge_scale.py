"""Finding records of one work among many (refbridge.merge): titles are compared only with
the titles that may be alike, and no alike pair is missed."""

from __future__ import annotations

import random
from difflib import SequenceMatcher

from hypothesis import given, settings
from hypothesis import strategies as st

from refbridge.merge import duplicate_sets, normalized_title, title_candidates
from refbridge.model import Date, Record

WORDS = ["adaptive", "alpine", "analysis", "approximate", "bayesian", "benchmark", "boundary", "carbon", "causal", "climate", "clustering", "coastal", "compressed", "concurrent", "constraint", "convergence", "decomposition", "dense", "distributed", "drift", "dynamics", "efficient", "embedding", "energy", "estimation", "evaluation", "evolution", "federated", "forecasting", "framework", "glacier", "graph", "groundwater", "heterogeneous", "hierarchical", "hydrology", "inference", "isotope", "kernel", "lake", "language", "latent", "learning", "lightweight", "limnology", "monitoring", "multiscale", "network", "neural", "nonlinear", "nutrient", "optimal", "parallel", "particle", "permafrost", "precipitation", "prediction", "probabilistic", "query", "regional", "remote", "representation", "resilient", "river", "robust", "runoff", "scalable", "seasonal", "sediment", "sensing", "simulation", "snowpack", "soil", "sparse", "spatial", "statistical", "stochastic", "storage", "stream", "subgraph", "survey", "temporal", "thermal", "transfer", "transport", "uncertainty", "variability", "watershed", "wetland"]


def invented_titles(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [normalized_title(" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 10))))
            for _ in range(count)]


def alike(a: str, b: str, similarity: float) -> bool:
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= similarity


def test_a_thousand_different_titles_are_compared_fewer_times_than_there_are_titles(
        ) -> None:
    titles = invented_titles(1000)
    compared = sum(len(later) for later in title_candidates(titles, 0.9))
    assert compared < len(titles) < len(titles) * (len(titles) - 1) // 2


def test_the_same_title_written_again_is_always_compared() -> None:
    titles = ["seasonal drift in alpine lake sediments", "glacier runoff",
              "seasonal drift in alpine lake sediments"]
    assert title_candidates(titles, 0.9) == [[2], [], []]


_BASES = ["seasonal drift in alpine lake sediments", "taming the expressiveness of graph queries",
          "flat fast lightweight and accurate method for cardinality estimation", "soil", "ab"]


@st.composite
def title_variants(draw: st.DrawFn) -> list[str]:
    """Titles near one another: a few bases with letters dropped, put in or changed."""
    titles = []
    for _ in range(draw(st.integers(2, 12))):
        title = list(draw(st.sampled_from(_BASES)))
        for _ in range(draw(st.integers(0, 6))):
            at = draw(st.integers(0, len(title)))
            edit = draw(st.sampled_from(["drop", "put", "change"]))
            letter = draw(st.sampled_from("aeiorst "))
            if edit == "put" or not title:
                title.insert(at, letter)
            elif edit == "drop":
                del title[min(at, len(title) - 1)]
            else:
                title[min(at, len(title) - 1)] = letter
        titles.append("".join(title))
    return titles


@settings(max_examples=60)
@given(title_variants(), st.sampled_from([0.5, 0.7, 0.8, 0.9, 0.95]))
def test_every_pair_of_alike_titles_is_compared(titles: list[str], similarity: float) -> None:
    candidates = title_candidates(titles, similarity)
    for i, a in enumerate(titles):
        for j in range(i + 1, len(titles)):
            if alike(a, titles[j], similarity):
                assert j in candidates[i], (a, titles[j])


def test_a_title_with_a_typo_among_a_thousand_joins_its_work_alone() -> None:
    titles = invented_titles(1000, seed=11)
    records = [Record(f"r{n}", "article-journal", {"title": title},
                      dates={"issued": Date.of(2021)}) for n, title in enumerate(titles)]
    typo = titles[123][:10] + titles[123][11:]
    records.append(Record("typo", "article-journal", {"title": typo},
                          dates={"issued": Date.of(2021)}))
    joined = [members for members, reason in duplicate_sets(records) if len(members) > 1]
    assert joined == [[123, 1000]]
