"""Saved answers of the services are told apart from their content, before CSL-JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from refbridge.registry import detect_reader

SPECIMENS = Path(__file__).parent / "fixtures" / "sources"


@pytest.mark.parametrize(("name", "reader"), [
    ("qian.orcid-works.json", "orcid"), ("qian.orcid-bulk.json", "orcid"),
    ("qian.orcid-works.xml", "orcid"), ("qian.dblp.xml", "dblp"),
    ("qian.openalex.json", "openalex"), ("qian.s2-papers.json", "semantic-scholar"),
    ("qian.arxiv.atom", "arxiv-atom"), ("qian.scholar.csv", "google-scholar-csv"),
])
def test_each_specimen_is_detected_by_content(name: str, reader: str) -> None:
    head = (SPECIMENS / name).read_text("utf-8-sig")[:65536]
    assert detect_reader("saved.json", head).name == reader


@pytest.mark.parametrize("head", [
    ('{"meta": {"count": 0, "db_response_time_ms": 3, "page": 1, "per_page": 25}, '
    '"results": [], "group_by": []}'),
    '[{"id": "https://openalex.org/W1", "type": "article", "title": "A"}]',
])
def test_openalex_lists_are_not_taken_for_csl_json(head: str) -> None:
    assert detect_reader("works.json", head).name == "openalex"


def test_csl_json_is_still_csl_json() -> None:
    assert detect_reader("refs.json", '[{"id": "a", "type": "book"}]').name == "csl-json"
