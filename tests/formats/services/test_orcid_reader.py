"""The ORCID reader: API v3.0 works summaries, bulk full works, person and record answers, in
JSON and XML, read to the records a person sees."""

from __future__ import annotations

import json
from pathlib import Path

from support import FIXTURES, records_of

from refbridge.errors import Diagnostics
from refbridge.formats.services.orcid import document, person_name, records
from refbridge.model import Date, Eprint, Name

SPECIMENS = FIXTURES / "sources"
WORKS = SPECIMENS / "qian.orcid-works.json"
BULK = SPECIMENS / "qian.orcid-bulk.json"
ORCID = "orcid:0000-0002-1825-0097"


def test_each_work_group_is_one_record_made_from_its_preferred_version() -> None:
    found = records_of(WORKS)
    assert [(r.title, r.get("DOI")) for r in found] == [
        ("FLAT: Fast, Lightweight and Accurate Method for Cardinality Estimation",
         "10.5555/refbridge.flat"),
        ("Cardinality Estimation in DBMS: A Comprehensive Benchmark Evaluation",
         "10.5555/refbridge.cardest"),
        ("FSPN benchmark workloads", "10.5555/refbridge.fspn-data.v1"),
        ("FSPN benchmark workloads", "10.5555/refbridge.fspn-data.v2"),
        ("TrainMover: An Interruption-Resilient Runtime for ML Training", None)]
    flat = found[0]
    assert flat.get("container-title") == "Proceedings of the VLDB Endowment"  # Crossref's
    assert flat.extra["orcid.put-code"] == "310001"
    assert flat.issued == Date.of(2021, 5)


def test_self_identifiers_give_doi_arxiv_and_part_of_gives_the_journal_issn() -> None:
    flat, cardinality = records_of(WORKS)[:2]
    assert flat.get("ISSN") == "2150-8097"
    assert cardinality.eprint == Eprint("arXiv", "2601.00010")
    assert (cardinality.type, cardinality.issued) == ("paper-conference", Date.of(2022, 6, 12))


def test_types_follow_orcid_work_types() -> None:
    assert [r.type for r in records_of(WORKS)] == ["article-journal", "paper-conference", "dataset",
                                            "dataset", "article"]


def test_the_works_path_names_the_owner() -> None:
    assert {r.extra["profile.owner-id"] for r in records_of(WORKS)} == {ORCID}


def test_bulk_full_works_carry_contributors_with_their_orcid_ids() -> None:
    flat = records_of(BULK)[0]
    assert flat.authors == (Name(family="Wang", given="Jing"),
                            Name(family="Qian", given="Zhengping"),
                            Name(family="Zhou", given="Ming"), Name(family="Liu", given="Xiaoyu"))
    assert [n.ids for n in flat.authors] == [(), (ORCID,), (), ()]


def test_a_work_without_contributors_takes_the_authors_of_its_bibtex_citation() -> None:
    cardinality = records_of(BULK)[1]
    assert [n.display() for n in cardinality.authors] == ["Wei Zhang", "Zhengping Qian",
                                                          "Yuxin Chen"]
    assert cardinality.extra["orcid.authors-from"] == "citation"


def test_an_error_in_a_bulk_answer_is_reported_with_its_message() -> None:
    diagnostics = Diagnostics()
    assert len(records_of(BULK, diagnostics=diagnostics)) == 4
    assert [str(m) for m in diagnostics.messages] == [
        (f"{BULK}: warning: ORCID reported an error for a work: 404 Not Found: The resource was "
        "not found. Full validation error: No entity found with id: 310006")]


def test_summaries_read_with_full_works_and_the_person_give_complete_owned_records() -> None:
    answers = [document(json.loads(path.read_text("utf-8")), str(path))
               for path in (WORKS, BULK)]
    person = json.loads((SPECIMENS / "qian.orcid-person.json").read_text("utf-8"))
    answers[0].owner = person_name(person)
    found = list(records(answers, str(WORKS), Diagnostics()))
    assert len(found) == 5
    assert [len(r.authors) for r in found] == [4, 3, 2, 2, 1]
    assert found[4].incomplete_names == frozenset({"author"})
    assert found[4].authors[0].ids == (ORCID,)
    assert found[0].extra["profile.owner"] == "Zhengping Qian"


def test_xml_reads_like_json() -> None:
    from_xml = records_of(SPECIMENS / "qian.orcid-works.xml")
    from_json = records_of(WORKS)
    assert [r.title for r in from_xml] == [from_json[0].title, from_json[4].title]
    assert dict(from_xml[0].fields) == dict(from_json[0].fields)
    assert from_xml[0].issued == from_json[0].issued
    assert from_xml[1].get("URL") == "https://arxiv.org/abs/2601.00002"
    assert from_xml[0].source is not None and from_xml[0].source.line == 42


def test_json_records_name_the_line_of_their_put_code() -> None:
    assert [r.source.line for r in records_of(WORKS) if r.source] == [40, 214, 317, 405, 493]


def test_one_work_reads_even_without_its_put_code(tmp_path: Path) -> None:
    work = json.loads(BULK.read_text("utf-8"))["bulk"][0]["work"]
    del work["put-code"], work["path"]
    single = tmp_path / "work.json"
    single.write_text(json.dumps(work, indent=2))
    [flat] = records_of(single)
    assert (flat.title, len(flat.authors)) == (
        "FLAT: Fast, Lightweight and Accurate Method for Cardinality Estimation", 4)
