"""RIS, CSL-JSON and Zotero RDF output of hostile record text: no extra record, tag or element
comes from a record, and every value reads back exactly as written."""

from __future__ import annotations

import io

import pytest
from fuzz.hostile import BREAKOUT_URLS, HOSTILE_DOIS, HOSTILE_TEXTS, HOSTILE_URLS

from refbridge.errors import Diagnostics
from refbridge.model import Date, Name, Record
from refbridge.pipeline import with_keys
from refbridge.registry import WriteOptions, get_reader, get_writer

FORMATS = ("ris", "csl-json", "zotero")
FIELDS = ("title", "container-title", "note", "abstract", "publisher")


def round_trip(name: str, records: list[Record]) -> tuple[str, list[Record]]:
    out = io.StringIO()
    get_writer(name).write(with_keys(records, WriteOptions()), out, WriteOptions())
    diagnostics = Diagnostics(strict=True)
    back = list(get_reader(name).read(io.StringIO(out.getvalue()), "hostile", diagnostics))
    assert [m for m in diagnostics.messages if m.level == "error"] == []
    return out.getvalue(), back


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_hostile_text_reads_back_exactly(name: str, text: str) -> None:
    record = Record(id="r", type="article-journal", fields=dict.fromkeys(FIELDS, text),
                    names={"author": (Name(family=text, given="Jane"),)},
                    dates={"issued": Date.of(2020)}, keywords=(text,))
    _, [back] = round_trip(name, [record])
    assert {field: back.fields[field] for field in FIELDS} == dict.fromkeys(FIELDS, text)
    assert back.names["author"] == (Name(family=text, given="Jane"),)
    assert back.keywords == (text,)


@pytest.mark.parametrize("name", FORMATS)
def test_hostile_addresses_read_back_exactly(name: str) -> None:
    records = [Record(id=f"u{i}", type="webpage", fields={"title": "Page", "URL": url,
                                                          "DOI": doi})
               for i, (url, doi) in enumerate(zip(HOSTILE_URLS + BREAKOUT_URLS,
                                                  HOSTILE_DOIS * 6))]
    _, back = round_trip(name, records)
    assert [(r.fields["URL"], r.fields["DOI"]) for r in back] == [
        (r.fields["URL"], r.fields["DOI"]) for r in records]


def test_a_value_that_looks_like_ris_tags_stays_in_its_record() -> None:
    record = Record(id="r", type="book", fields={"title": "Safe\nER  - \nTY  - JOUR\nTI  - Evil"})
    written, back = round_trip("ris", [record])
    assert [line for line in written.splitlines() if line.startswith("TY  - ")] == ["TY  - BOOK"]
    assert [r.fields["title"] for r in back] == ["Safe\nER  - \nTY  - JOUR\nTI  - Evil"]


def test_markup_in_zotero_rdf_is_character_data() -> None:
    from lxml import etree

    record = Record(id="r", type="book", fields={"title": "<z:itemType>x</z:itemType>]]>&e;"})
    written, [back] = round_trip("zotero", [record])
    tree = etree.fromstring(written.encode(), etree.XMLParser(resolve_entities=False))
    assert len(tree.findall(".//{http://www.zotero.org/namespaces/export#}itemType")) == 1
    assert back.fields["title"] == "<z:itemType>x</z:itemType>]]>&e;"
