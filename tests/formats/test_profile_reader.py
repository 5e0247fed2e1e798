"""Profile pages read to exactly the records they list, robust to the ways scrapes vary."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from support import FIXTURES, SAMPLES

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.profile import READER
from refbridge.model import Date, Eprint, Name, Record

PROFILES = FIXTURES / "profile"

HEADER = (
    "arXiv subjects\n\nZhengping Qian\n\n"
    "Publications and source records attributed to Zhengping Qian.\n\n"
)


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(READER.read(io.StringIO(text), "page.txt", diagnostics or Diagnostics()))


def record_text(source: str = "arXiv2026", title: str = "SpecDB: LLM-Generated Databases",
                abstract: str = "We present SpecDB.", subject: str = "cs.DB↗") -> str:
    return "\n\n".join(p for p in (source, title, abstract, subject) if p) + "\n\n"


# -- the two real pages -----------------------------------------------------------------
@pytest.mark.parametrize(("sample", "count"), [("zhengping-qian", 14), ("qinwei-yang", 9)])
def test_seed_pages_read_to_every_record_exactly(sample: str, count: int) -> None:
    diagnostics = Diagnostics()
    with open(SAMPLES / f"{sample}.profile.txt", encoding="utf-8") as page:
        records = list(READER.read(page, f"{sample}.profile.txt", diagnostics))
    expected = json.loads((PROFILES / f"{sample}.expected.json").read_text(encoding="utf-8"))
    got = [{"year": r.year, "subject": r.eprint.primary_class if r.eprint else None,
            "title": r.title, "abstract": r.get("abstract")} for r in records]
    assert len(records) == count
    assert got == expected
    assert diagnostics.messages == []


def test_seed_titles_years_and_subjects_in_page_order() -> None:
    with open(SAMPLES / "qinwei-yang.profile.txt", encoding="utf-8") as page:
        records = list(READER.read(page, "yang.txt", Diagnostics()))
    assert [(r.year, r.eprint.primary_class if r.eprint else None, r.title) for r in records] == [
        (2026, "cs.DB", ("SmartANN: Object Causal Modeling Boosts Approximate Nearest Neighbor "
                        "Diagnosis and Auto-Design")),
        (2026, "cs.DC", ("ARGUS: Production-Scale Tracing and Performance Diagnosis for over "
                        "10,000-GPU Clusters")),
        (2026, "cs.DC", ("LiveR: Fine-Grained Elasticity via Live Reconfiguration for Model "
                        "Training")),
        (2026, "stat.ME", ("Improving Treatment Effect Estimation in Trials through Adaptive "
                          "Borrowing of External Controls")),
        (2025, "cs.NI", "SHIFT: Exploring the Boundary of RDMA Network Fault Tolerance"),
        (2025, "stat.ME", ("Adaptive Data-Borrowing for Improving Treatment Effect Estimation "
                          "using External Controls")),
        (2025, "cs.LG", ("Identification and Estimation of Long-Term Treatment Effects with "
                        "Monotone Missing")),
        (2025, "cs.LG", "Optimal Policy Adaptation under Covariate Shift"),
        (2023, "cs.DC", "Isolated Scheduling for Distributed Training Tasks in GPU Clusters"),
    ]


def test_a_record_is_an_arxiv_preprint_by_the_owner_with_an_incomplete_author_list() -> None:
    (record,) = read(HEADER + "1 recordLinked to original sources\n\n" + record_text())
    assert record.type == "article"
    assert record.names == {"author": (Name(family="Qian", given="Zhengping"),)}
    assert record.incomplete_names == frozenset({"author"})
    assert record.eprint == Eprint("arXiv", primary_class="cs.DB")
    assert record.dates == {"issued": Date.of(2026)}
    assert record.extra == {"profile.owner": "Zhengping Qian"}
    assert str(record.source) == "page.txt:9"


# -- LaTeX in titles and abstracts --------------------------------------------------------
@pytest.mark.parametrize(
    ("latex", "unicode"),
    [
        (r"a 1.94$\times$ speedup", "a 1.94× speedup"),
        ("a ``fallback and bypass'' approach", "a “fallback and bypass” approach"),
        (r"only 0.58\% error", "only 0.58% error"),
        (r"the $(k, τ)$-truss model", "the (k, τ)-truss model"),
        (r"implemented in \texttt{rdma-core} and", "implemented in rdma-core and"),
        (r"we propose the \flash DSL", r"we propose the \flash DSL"),
        ("at ~3% of their code size", "at ~3% of their code size"),
        ("by 28.8--256.5% at", "by 28.8–256.5% at"),
        ("costs $5 per run", "costs $5 per run"),
    ],
)
def test_latex_in_abstracts_is_decoded_without_losing_a_character(latex: str,
                                                                  unicode: str) -> None:
    (record,) = read(HEADER + record_text(abstract=latex))
    assert record.get("abstract") == unicode


def test_latex_in_titles_is_decoded() -> None:
    (record,) = read(HEADER + record_text(title=r"Speeding up \texttt{grep} by 2$\times$"))
    assert record.title == "Speeding up grep by 2×"


# -- variations of the page -------------------------------------------------------------
def test_crlf_line_endings_and_a_bom_read_the_same(tmp_path: Path) -> None:
    from refbridge.pipeline import read_file

    page = tmp_path / "crlf.txt"
    text = (SAMPLES / "qinwei-yang.profile.txt").read_text(encoding="utf-8")
    page.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    diagnostics = Diagnostics()
    records = list(read_file(str(page), diagnostics))
    assert [r.title for r in records] == [r.title for r in read(text)]
    assert [r.get("abstract") for r in records] == [r.get("abstract") for r in read(text)]
    assert diagnostics.messages == []


def test_extra_blank_lines_and_spaces_are_ignored() -> None:
    text = HEADER + "\n\n   arXiv2026  \n\n\n  SpecDB  \n\n\n We present SpecDB. \n\n\n cs.DB↗ \n\n\n"
    (record,) = read(text)
    assert (record.title, record.get("abstract"), record.eprint) == (
        "SpecDB", "We present SpecDB.", Eprint("arXiv", primary_class="cs.DB"))


def test_multi_paragraph_abstracts_keep_their_paragraphs() -> None:
    (record,) = read(HEADER + record_text(abstract="First paragraph,\nwrapped.\n\nSecond one."))
    assert record.get("abstract") == "First paragraph, wrapped.\n\nSecond one."


def test_a_record_without_a_subject_line_is_kept() -> None:
    records = read(HEADER + record_text(subject="") + record_text(title="TrainMover"))
    assert [(r.title, r.eprint) for r in records] == [
        ("SpecDB: LLM-Generated Databases", Eprint("arXiv")),
        ("TrainMover", Eprint("arXiv", primary_class="cs.DB")),
    ]


def test_a_record_without_an_abstract_is_kept() -> None:
    (record,) = read(HEADER + record_text(abstract=""))
    assert (record.title, record.get("abstract")) == ("SpecDB: LLM-Generated Databases", None)


def test_other_sources_keep_their_name_and_subjects_as_keywords() -> None:
    (record,) = read(HEADER + record_text(source="DBLP2024", subject="Databases↗"))
    assert (record.year, record.eprint, record.keywords, record.extra) == (
        2024, None, ("Databases",),
        {"profile.owner": "Zhengping Qian", "profile.source": "DBLP"})


def test_several_subjects_become_primary_class_and_cross_lists() -> None:
    (record,) = read(HEADER + record_text(subject="cs.DB↗ cs.LG↗"))
    assert record.eprint == Eprint("arXiv", primary_class="cs.DB", cross_lists=("cs.LG",))


def test_an_unknown_arxiv_category_is_kept_with_a_warning() -> None:
    diagnostics = Diagnostics()
    (record,) = read(HEADER + record_text(subject="cs.XX↗"), diagnostics)
    assert record.eprint == Eprint("arXiv", primary_class="cs.XX")
    assert [str(m) for m in diagnostics.messages] == [
        "page.txt:7: warning: 'cs.XX' is not an arXiv category"]


def test_non_ascii_owner_names_are_split_into_given_and_family() -> None:
    page = HEADER.replace("Zhengping Qian", "Łukasz van der Żółw")
    (record,) = read(page + record_text())
    assert record.authors == (Name(family="Żółw", given="Łukasz",
                                   non_dropping_particle="van der"),)


def test_a_count_that_disagrees_is_a_warning_naming_both_numbers() -> None:
    diagnostics = Diagnostics()
    records = read(HEADER + "3 recordsLinked to original sources\n\n" + record_text(),
                   diagnostics)
    assert len(records) == 1
    assert [str(m) for m in diagnostics.messages] == [
        "page.txt:5: warning: the page says it lists 3 records but 1 were found"]


def test_a_page_that_is_not_a_profile_page_is_refused_naming_the_line() -> None:
    with pytest.raises(ParseError, match=r"^page.txt:3: not a profile page: expected the line .* found .}.$"):
        read("@article{key,\n  title = {X}\n}\n\nsomething else\n")


def test_an_empty_page_is_refused_as_empty() -> None:
    with pytest.raises(ParseError) as refused:
        read("")
    assert str(refused.value) == ("page.txt:1: the file is empty: no profile page (nor any "
                                  "record) in it")


def test_a_page_of_blank_lines_is_refused_as_empty() -> None:
    with pytest.raises(ParseError) as refused:
        read("\n  \n\n")
    assert str(refused.value) == ("page.txt:1: the file is empty: no profile page (nor any "
                                  "record) in it")


def test_a_page_without_the_attribution_line_is_refused_naming_its_last_line() -> None:
    with pytest.raises(ParseError) as refused:
        read("Ada Lovelace\n\nSome words\n")
    assert str(refused.value) == ("page.txt:3: not a profile page: no line 'Publications and "
                                  "source records attributed to NAME.'")


def test_text_before_the_first_record_is_skipped_with_an_error() -> None:
    diagnostics = Diagnostics()
    records = read(HEADER + "Some stray text\n\n" + record_text(), diagnostics)
    assert len(records) == 1
    assert diagnostics.skipped == 1
    assert [str(m) for m in diagnostics.messages] == [
        ("page.txt:7: error: expected a source and year such as 'arXiv2026', found "
        "'Some stray text'; skipped up to the next record")]


def test_strict_mode_stops_at_the_first_broken_record() -> None:
    with pytest.raises(ParseError, match="page.txt:7: expected a source and year"):
        read(HEADER + "Some stray text\n\n" + record_text(), Diagnostics(strict=True))


def test_sniff_recognises_profile_pages_only() -> None:
    assert READER.sniff(HEADER)
    assert not READER.sniff("@article{key, title={x}}")
