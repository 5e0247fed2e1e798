"""The benchmark's inputs: replicated .bib files keep unique, self-consistent keys."""

from __future__ import annotations

import sys
from pathlib import Path

from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import workloads

SMALL_BIB = """@string{cup = {Cambridge University Press}}

@incollection{westfahl:space,
  title        = {The True Frontier},
  crossref     = {westfahl:frontier},
}

@set{set,
  entryset     = {herrmann, aksin},
}
"""


def test_a_bib_splits_into_definitions_and_entries() -> None:
    source = workloads.split_bib("small.bib", SMALL_BIB)
    assert source.definitions == ("@string{cup = {Cambridge University Press}}",)
    assert [entry.splitlines()[0] for entry in source.entries] == [
        "@incollection{westfahl:space,", "@set{set,"]


def test_renaming_suffixes_the_key_and_the_keys_it_refers_to() -> None:
    source = workloads.split_bib("small.bib", SMALL_BIB)
    assert [workloads.renamed(entry, "-7") for entry in source.entries] == [
        ("@incollection{westfahl:space-7,\n  title        = {The True Frontier},\n"
         "  crossref     = {westfahl:frontier-7},\n}"),
        "@set{set-7,\n  entryset     = {herrmann-7,aksin-7},\n}",
    ]


def test_replicas_write_the_definitions_once_and_every_key_once() -> None:
    text = workloads.replicate(workloads.split_bib("small.bib", SMALL_BIB), 3)
    assert text.count("@string") == 1
    assert [line for line in text.splitlines() if line.startswith("@set")] == [
        "@set{set-1,", "@set{set-2,", "@set{set-3,"]


def test_the_number_of_copies_comes_nearest_to_the_size_asked_for() -> None:
    source = workloads.BibSource("x.bib", (), tuple(f"@misc{{k{i},}}" for i in range(92)))
    assert [workloads.copies_for(source, n) for n in (10, 1_000, 10_000, 100_000)] == [
        1, 11, 109, 1087]


def test_the_generated_bib_is_the_same_for_the_same_size() -> None:
    assert workloads.generated_bib(50) == workloads.generated_bib(50)


def test_the_generated_bib_parses_with_pybtex_into_as_many_unique_entries() -> None:
    from pybtex.database import parse_string

    source = workloads.generated_bib(300)
    parsed = parse_string(workloads.bib_text(source.definitions, source.entries), "bibtex")
    assert list(parsed.entries) == [f"gen{n}" for n in range(1, 301)]


def test_a_written_bib_reports_its_entry_count_and_origin(tmp_path: Path) -> None:
    source = workloads.split_bib("small.bib", SMALL_BIB)
    built = workloads.write_bib(tmp_path, 6, source)
    assert (built.entries, built.origin, built.path.name) == (6, "small.bib x3", "entries-6.bib")
    assert built.path.read_text(encoding="utf-8") == workloads.replicate(source, 3)


def test_without_tex_live_the_bib_is_generated(tmp_path: Path) -> None:
    built = workloads.write_bib(tmp_path, 40, None)
    assert (built.entries, built.origin) == (40, "generated .bib")
    blocks = [line for line in built.path.read_text(encoding="utf-8").splitlines()
              if line.startswith("@")]
    assert len(blocks) == 3 + 40  # the @string definitions, then the entries
    assert blocks[0] == "@string{jacm = {Journal of the {ACM}}}"
    assert blocks[3].endswith("{gen1,")


def test_made_up_surnames_differ_for_different_numbers() -> None:
    assert [workloads.surname(n) for n in (0, 1, 15, 16, 17)] == [
        "Ka", "Ro", "Fe", "Kaka", "Roka"]
    assert len({workloads.surname(n) for n in range(20_000)}) == 20_000


def test_copies_of_the_sample_items_get_names_of_their_own() -> None:
    items = workloads.distinct_items(100)
    first = next(item for item in items if item["id"] == "smith2019neural-0")
    copies = [item for item in items if item["id"].startswith("smith2019neural-")]
    assert first["author"] == [{"family": "Smith", "given": "Alice B."},
                               {"family": "Jones", "given": "Robert"}]
    assert [item["author"][0]["family"] for item in copies] == ["Smith", "Smith Ro", "Smith Mi"]
    assert len(items) == 100
