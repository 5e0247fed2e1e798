"""Zotero's item JSON as files: Better BibTeX's JSON export and saved API answers."""

from __future__ import annotations

import json
from io import StringIO

from support import FIXTURES

from refbridge.errors import Diagnostics
from refbridge.formats.zotero.json import READER
from refbridge.model import Date, Name, Record

EXPORT = FIXTURES / "better-bibtex.json"


def _records(text: str) -> list[Record]:
    return list(READER.read(StringIO(text), "library.json", Diagnostics()))


def test_a_better_bibtex_export_keeps_each_items_citation_key() -> None:
    records = _records(EXPORT.read_text("utf-8"))
    assert [r.citation_key for r in records] == ["bachmann2014", None]


def test_creators_keep_their_order_and_a_one_field_name_is_an_institution() -> None:
    book = _records(EXPORT.read_text("utf-8"))[1]
    assert (book.names["author"], book.names["editor"]) == (
        (Name(family="Sporns", given="Olaf"),), (Name(literal="MIT Brain Group"),))


def test_tags_written_as_text_or_objects_are_keywords() -> None:
    article = _records(EXPORT.read_text("utf-8"))[0]
    assert article.keywords == ("Quantum Physics", "Mathematical Physics")


def test_child_notes_and_attachments_are_kept_as_zotero_extras() -> None:
    article = _records(EXPORT.read_text("utf-8"))[0]
    assert (article.extra["zotero.notes"], article.extra["zotero.attachments"]) == (
        "<p>Read for the seminar.</p>",
        ("arXiv:1412.2970 PDF | /home/ada/Zotero/storage/6QUH3QBM/Bachmann.pdf | "
         "http://www.arxiv.org/pdf/1412.2970.pdf | application/pdf"))


def test_each_record_names_the_line_of_its_item() -> None:
    records = _records(EXPORT.read_text("utf-8"))
    assert [str(r.source) for r in records] == ["library.json:16", "library.json:62"]


def test_a_web_api_answer_reads_the_data_of_each_item() -> None:
    answer = json.dumps([{"key": "ABCD2345", "version": 3, "library": {"type": "user"},
                          "data": {"key": "ABCD2345", "version": 3, "itemType": "book",
                                   "title": "Networks of the Brain", "date": "2011",
                                   "creators": [{"creatorType": "author", "firstName": "Olaf",
                                                 "lastName": "Sporns"}],
                                   "tags": [{"tag": "connectomics"}], "collections": [],
                                   "relations": {}}}], indent=1)
    [record] = _records(answer)
    assert (record.type, str(record.fields["title"]), record.dates["issued"].year,
            record.keywords) == ("book", "Networks of the Brain", 2011, ("connectomics",))


def test_a_field_named_by_its_base_field_is_read_as_the_types_own_field() -> None:
    (patent,) = _records(json.dumps({"items": [{
        "itemType": "patent", "title": "Heat Exchanger for Small Boilers",
        "date": "2005-07-28", "number": "DE10361215", "country": "DE",
        "creators": [{"creatorType": "inventor", "firstName": "Xaver",
                      "lastName": "Laufenberg"}]}]}))
    assert patent.dates["issued"] == Date.of(2005, 7, 28)
    assert patent.fields["number"] == "DE10361215"
