"""Several sources of one person's works at once: the profile page, ORCID, dblp and a Google
Scholar export merged into full citations, each value from the best source, the owner known
by their identifiers."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from support import ROOT

from refbridge.cli import main
from refbridge.cv.owner import IDS_KEY, OwnerMatcher
from refbridge.errors import Diagnostics
from refbridge.merge import deduplicate
from refbridge.model import Date, Eprint, Name, Record, Source
from refbridge.pipeline import read_records

SOURCES = ROOT / "tests" / "fixtures" / "sources"
PROFILE = ROOT / "samples" / "zhengping-qian.profile.txt"
INPUTS = [PROFILE, SOURCES / "qian.orcid-works.json", SOURCES / "qian.orcid-bulk.json",
          SOURCES / "qian.dblp.xml", SOURCES / "qian.scholar.csv"]


def merged_records() -> list[Record]:
    records = list(read_records([str(p) for p in INPUTS], Diagnostics()))
    return deduplicate(records).records


def by_title(records: list[Record], start: str) -> list[Record]:
    return [r for r in records if (r.title or "").startswith(start)]


def test_a_work_in_every_source_takes_each_value_from_the_best_one() -> None:
    [flat] = by_title(merged_records(), "FLAT")
    assert flat.type == "article-journal"
    assert [n.display() for n in flat.authors] == ["Jing Wang", "Zhengping Qian", "Ming Zhou",
                                                  "Xiaoyu Liu"]
    assert flat.incomplete_names == frozenset()
    assert flat.get("container-title") == "Proc. VLDB Endow."
    assert flat.issued == Date.of(2021, 5)
    assert {key: value for key, value in flat.extra.items() if key.startswith("merge.")} == {
        "merge.type": "dblp:journals/pvldb/WangQZL21",
        "merge.title": "dblp:journals/pvldb/WangQZL21",
        "merge.container-title": "dblp:journals/pvldb/WangQZL21",
        "merge.volume": "dblp:journals/pvldb/WangQZL21",
        "merge.issue": "dblp:journals/pvldb/WangQZL21",
        "merge.page": "dblp:journals/pvldb/WangQZL21",
        "merge.DOI": "dblp:journals/pvldb/WangQZL21",
        "merge.abstract": f"{PROFILE}:89",
        "merge.ISSN": "orcid:0000-0002-1825-0097/work/310001",
        "merge.language": "orcid:0000-0002-1825-0097/work/310001",
        "merge.publisher": f"{SOURCES / 'qian.scholar.csv'}:2",
        "merge.author": "dblp:journals/pvldb/WangQZL21",
        "merge.issued": "orcid:0000-0002-1825-0097/work/310001"}


def test_the_owner_gathers_their_identifiers_from_every_list() -> None:
    [flat] = by_title(merged_records(), "FLAT")
    assert flat.authors[1].ids == ("dblp:95/7448-1", "orcid:0000-0002-1825-0097")


def test_the_preprint_and_the_paper_join_through_their_identifiers() -> None:
    [cardinality] = by_title(merged_records(), "Cardinality Estimation")
    assert (cardinality.type, cardinality.get("container-title"), cardinality.issued) == (
        "paper-conference", "SIGMOD Conference", Date.of(2022, 6, 12))
    assert cardinality.eprint is not None and cardinality.eprint.identifier == "2601.00010"


def test_two_versions_of_a_data_set_with_their_own_dois_stay_two() -> None:
    versions = by_title(merged_records(), "FSPN benchmark")
    assert [v.get("DOI") for v in versions] == ["10.5555/refbridge.fspn-data.v1",
                                               "10.5555/refbridge.fspn-data.v2"]


def test_a_bare_profile_record_becomes_the_full_citation() -> None:
    [specdb] = by_title(merged_records(), "SpecDB")
    assert [n.display() for n in specdb.authors] == ["Jing Wang", "Zhengping Qian",
                                                    "Ming Zhou"]
    assert specdb.eprint is not None
    assert (specdb.eprint.identifier, specdb.eprint.primary_class) == ("2601.00001", "cs.DB")
    assert specdb.get("abstract", "").startswith("Mainstream relational databases")


def record(title: str, authors: tuple[Name, ...], line: int, **fields: str) -> Record:
    return Record(f"r{line}", "article-journal", {"title": title, **fields},
                  {"author": authors}, {"issued": Date.of(2020)}, source=Source("a.json", line))


def test_same_titles_by_different_people_stay_two() -> None:
    a = record("Introduction", (Name(family="Lovelace", given="Ada"),), 1)
    b = record("Introduction", (Name(family="Babbage", given="Charles"),), 2)
    assert len(deduplicate([a, b]).records) == 2


def test_a_shared_pmid_joins_records() -> None:
    a = record("Gene expression in mice", (Name(family="Lovelace", given="Ada"),), 1,
               PMID="31234567")
    b = record("Gene Expression in Mice: a study", (Name(family="Lovelace"),), 2,
               PMID="31234567")
    result = deduplicate([a, b])
    assert [m.reason for m in result.merges] == ["same PMID"]


def test_scholars_arxiv_venue_is_the_arxiv_id() -> None:
    scholar = record("SpecDB", (Name(family="Qian", given="Zhengping"),), 1,
                     **{"container-title": "arXiv preprint arXiv:2601.00001"})
    arxiv = Record("arxiv:2601.00001", "article", {"title": "SpecDB: LLM-generated databases"},
                   dates={"issued": Date.of(2026)},
                   eprint=Eprint("arXiv", "2601.00001v2"))
    assert [m.reason for m in deduplicate([scholar, arxiv]).merges] == ["same arXiv id"]


def test_a_name_carrying_the_owners_id_is_highlighted_in_any_spelling() -> None:
    matcher = OwnerMatcher.of(["Zhengping Qian"], ["openalex:A5025692314"])
    assert matcher({"family": "钱正平", IDS_KEY: "openalex:A5025692314"})
    assert matcher({"family": "Qian", "given": "Zhengping"})


def test_a_namesake_known_by_another_id_is_not_highlighted() -> None:
    matcher = OwnerMatcher.of(["Wei Wang"], ["dblp:35/7092-1"])
    assert not matcher({"family": "Wang", "given": "Wei", IDS_KEY: "dblp:35/7092-2"})
    assert matcher({"family": "Wang", "given": "Wei", IDS_KEY: "openalex:A1"})


def test_cv_over_every_source_lists_full_citations_with_the_owner_highlighted() -> None:
    result = CliRunner().invoke(main, ["cv", *map(str, INPUTS), "--to", "markdown",
                                       "--no-summary", "--no-links"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert ("- \\[6\\] Jing Wang, **Zhengping Qian**, Ming Zhou and Xiaoyu Liu. FLAT: Fast, "
            "Lightweight and Accurate Method for Cardinality Estimation. *Proc. VLDB Endow.*, "
            "14(9), 1489–1502, 2021.") in lines
    assert ("- \\[15\\] Jing Wang, **Zhengping Qian** and Ming Zhou. SpecDB: LLM-Generated "
            "Customized Databases via Feature-Oriented Decomposition. arXiv:2601.00001, "
            "2026.") in lines
    merges = [line for line in result.stderr.splitlines() if " merged " in line]
    assert merges[-4] == (
        f"refbridge: merged 5 records (same DOI, same arXiv id, same title and year): "
        f"{PROFILE}:81, {SOURCES}/qian.orcid-works.json:214, "
        f"{SOURCES}/qian.orcid-bulk.json:137, {SOURCES}/qian.dblp.xml:35, "
        f"{SOURCES}/qian.dblp.xml:48: "
        "Cardinality Estimation in DBMS: A Comprehensive Benchmark Evaluation")
    assert len(merges) == 8


def test_convert_merge_writes_one_record_per_work(tmp_path: Path) -> None:
    out = tmp_path / "merged.bib"
    result = CliRunner().invoke(main, ["convert", *map(str, INPUTS[1:]), "--merge", "--to",
                                       "bibtex", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text("utf-8").count("\n@") + 1 == 8
    assert result.stderr.count("refbridge: merged ") == 6


def test_cv_highlights_the_owner_by_identifier_in_another_script() -> None:
    result = CliRunner().invoke(main, ["cv", str(SOURCES / "qian.openalex.json"), "--to",
                                       "markdown", "--no-summary", "--no-links",
                                       "--owner", "Z. Qian",
                                       "--owner-id", "openalex:A5025692314"])
    assert result.exit_code == 0, result.output
    assert ("- \\[3\\] Anna Schmidt, **钱正平**, Rui Zhao and Lei Sun. TrainMover: An "
            "Interruption-Resilient Runtime for ML Training. arXiv:2601.00002, 2026."
            ) in result.stdout.splitlines()


def test_cv_refuses_an_owner_id_that_is_not_one() -> None:
    result = CliRunner().invoke(main, ["cv", str(PROFILE), "--owner-id", "orcid:1234"])
    assert result.exit_code == 2
    assert "'1234' is not an ORCID iD" in result.stderr


SCOPUS_EXPORT = (
    '"Authors","Author full names","Author(s) ID","Title","Year","Source title","Volume",'
    '"Issue","Page start","Page end","DOI","Document Type","Source","EID"\n'
    '"Stillman A.N.; van der Berg J.","Stillman, A.N. (57000000001); van der Berg, J. '
    '(57000000002)","57000000001; 57000000002","Seasonal drift in alpine lake sediments",'
    '"2021","Journal of Limnology","80","2","101","118","10.1000/jlimn.2021.0101","Article",'
    '"Scopus","2-s2.0-85000000001"\n')
OWN_BIB = """@article{stillman2021,
  author = {Stillman, Alexander N. and van der Berg, Johanna},
  title = {Seasonal Drift in Alpine Lake Sediments},
  journal = {Journal of Limnology},
  year = {2021},
  doi = {10.1000/jlimn.2021.0101},
}
"""


@pytest.mark.parametrize("scopus_first", [True, False])
def test_convert_merge_writes_the_full_names_over_scopus_initials(tmp_path: Path,
                                                                  scopus_first: bool) -> None:
    (tmp_path / "scopus.csv").write_text(SCOPUS_EXPORT, encoding="utf-8")
    (tmp_path / "mine.bib").write_text(OWN_BIB, encoding="utf-8")
    inputs = [str(tmp_path / "scopus.csv"), str(tmp_path / "mine.bib")]
    result = CliRunner().invoke(main, ["convert", *(inputs if scopus_first else inputs[::-1]),
                                       "--merge", "--to", "bibtex"])
    assert result.exit_code == 0, result.output
    assert "  author = {Stillman, Alexander N. and van der Berg, Johanna},\n" in result.stdout
