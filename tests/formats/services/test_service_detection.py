"""Saved answers of the services are told apart from their content, before CSL-JSON."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import FIXTURES

from refbridge.errors import Diagnostics, ParseError
from refbridge.pipeline import read_file
from refbridge.registry import detect_reader
from refbridge.runs import ReadOptions

SPECIMENS = FIXTURES / "sources"


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


LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
          '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n')


@pytest.mark.parametrize(("reader", "body"), [
    ("orcid", ('<activities:works xmlns:activities="http://www.orcid.org/ns/activities">'
              "&lol2;</activities:works>")),
    ("dblp", '<dblpperson name="&lol2;" pid="1/2"/>'),
    ("arxiv-atom", '<feed xmlns="http://www.w3.org/2005/Atom"><title>&lol2;</title></feed>'),
])
def test_xml_readers_refuse_entity_declarations(tmp_path: Path, reader: str,
                                                body: str) -> None:
    path = tmp_path / "answer.xml"
    path.write_text(LAUGHS + body)
    with pytest.raises(ParseError, match="a document type declaration is not allowed"):
        list(read_file(str(path), Diagnostics(), ReadOptions(from_format=reader)))
