"""Zotero's item JSON and the model: what the connector and the Web API are given, and what a
library's items read back as."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from support import SAMPLES

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.reader import READER as BIB
from refbridge.formats.zotero.items import Skipped, records_of_items, translator_item, web_item
from refbridge.model import Eprint, Name, Record
from refbridge.pipeline import read_records

KNUTH = r"""@article{knuth84,
  author = {Knuth, Donald E. and {ATLAS Collaboration}},
  title = {Literate Programming with \emph{WEB}},
  journal = {The Computer Journal},
  year = {1984},
  month = feb,
  volume = {27},
  number = {2},
  pages = {97--111},
  doi = {10.1093/comjnl/27.2.97},
  keywords = {programming, TeX},
}
"""


def knuth() -> Record:
    return next(BIB.read(io.StringIO(KNUTH), "refs.bib", Diagnostics()))


def qian() -> Record:
    return next(read_records([str(SAMPLES / "zhengping-qian.profile.txt")], Diagnostics()))


def test_a_profile_preprint_is_the_item_zoteros_rdf_import_makes() -> None:
    item = translator_item(qian(), "s1-0")
    assert item.pop("abstractNote").startswith("Mainstream relational databases ship")
    assert item == {
        "id": "s1-0", "itemType": "preprint",
        "title": "SpecDB: LLM-Generated Customized Databases via Feature-Oriented "
                 "Decomposition",
        "date": "2026", "repository": "arXiv",
        "extra": 'tex.profile-owner: Zhengping Qian\n'
                 'refbridge: {"custom": {"incomplete-names": ["author"]}}',
        "creators": [{"creatorType": "author", "lastName": "Qian", "firstName": "Zhengping"}],
        "tags": ["cs.DB", "Databases"], "notes": [], "attachments": [], "seeAlso": []}


def test_the_connector_gets_rich_titles_one_field_names_and_the_key() -> None:
    item = translator_item(knuth(), "s1-0")
    assert item["title"] == 'Literate Programming with <i><span class="nocase">WEB</span></i>'
    assert item["creators"] == [
        {"creatorType": "author", "lastName": "Knuth", "firstName": "Donald E."},
        {"creatorType": "author", "lastName": "ATLAS Collaboration", "fieldMode": 1}]
    assert (item["citationKey"], item["DOI"], item["pages"], item["date"]) == (
        "knuth84", "10.1093/comjnl/27.2.97", "97–111", "1984-02")


def test_the_web_api_gets_its_own_shapes_of_names_tags_and_collections() -> None:
    item = web_item(knuth(), ["COLL2345"], ["from-refbridge"])
    assert item["creators"][1] == {"creatorType": "author", "name": "ATLAS Collaboration"}
    assert item["tags"] == [{"tag": "programming"}, {"tag": "TeX"},
                            {"tag": "from-refbridge"}]
    assert (item["collections"], item["relations"]) == (["COLL2345"], {})
    assert "id" not in item and "notes" not in item


def test_an_item_saved_on_the_web_reads_back_as_the_record() -> None:
    record = knuth()
    data = dict(web_item(record), key="ABCD2345", version=7,
                dateAdded="2026-01-01T00:00:00Z", dateModified="2026-01-02T00:00:00Z")
    [(key, back)] = records_of_items([data], "zotero-web:user:1", Diagnostics())
    assert key == "ABCD2345"
    assert back == record.replace(source=back.source)
    assert str(back.source) == "zotero-web:user:1/items/ABCD2345"


def test_a_pushed_preprint_reads_back_without_a_made_up_key() -> None:
    record = qian()
    data = dict(web_item(record), key="QIAN2345", version=1)
    [(_, back)] = records_of_items([data], "zotero-desktop:", Diagnostics())
    assert back.citation_key is None and back.id == "QIAN2345"
    assert back.eprint == Eprint("arXiv", None, "cs.DB")
    assert back.incomplete_names == {"author"}
    assert dict(back.extra) == {"profile.owner": "Zhengping Qian"}


LIBRARY = [
    {"key": "PAPER234", "version": 4, "itemType": "journalArticle", "title": "On Graphs",
     "creators": [{"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"},
                  {"creatorType": "author", "name": "W3C"}],
     "tags": [{"tag": "graphs", "type": 1}], "collections": ["COLL2345"], "relations": {},
     "extra": "Citation Key: lovelace1843graphs", "date": "1843", "dateAdded": "x",
     "dateModified": "y"},
    {"key": "NOTE2345", "version": 5, "itemType": "note", "parentItem": "PAPER234",
     "note": "<p>Read it.</p>", "tags": [], "relations": {}},
    {"key": "FILE2345", "version": 6, "itemType": "attachment", "parentItem": "PAPER234",
     "linkMode": "imported_file", "title": "Full Text PDF", "tags": [], "relations": {}},
    {"key": "LOOSE234", "version": 7, "itemType": "note", "note": "<p>Ideas</p>",
     "tags": [], "collections": [], "relations": {}},
]


def test_library_items_are_records_with_their_child_notes() -> None:
    skipped = Skipped()
    read = list(records_of_items(LIBRARY, "zotero-desktop:", Diagnostics(), skipped))
    assert [key for key, _ in read] == ["PAPER234"]
    record = read[0][1]
    assert (record.citation_key, record.get("note")) == ("lovelace1843graphs", None)
    assert record.authors == (Name(family="Lovelace", given="Ada"), Name(literal="W3C"))
    assert record.keywords == ("graphs",)
    assert dict(record.extra) == {"zotero.notes": "<p>Read it.</p>"}
    assert skipped.describe() == "1 attachment(s), 1 standalone note(s)"


def test_an_item_the_model_refuses_is_reported_with_its_key() -> None:
    broken = [dict(LIBRARY[0], title="bad\x00title")]
    diagnostics = Diagnostics()
    assert list(records_of_items(broken, "zotero-web:user:1", diagnostics)) == []
    [message] = diagnostics.messages
    assert str(message).startswith("zotero-web:user:1/items/PAPER234: error: item skipped: ")
    assert "NUL" in str(message)


def test_zotero_fields_and_types_without_a_csl_counterpart_go_back_as_they_came() -> None:
    email = {"key": "MAIL2345", "version": 1, "itemType": "email", "subject": "Hello",
             "rights": "CC BY", "creators": [
                 {"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"},
                 {"creatorType": "recipient", "firstName": "Charles", "lastName": "Babbage"}]}
    song = {"key": "SONG2345", "version": 1, "itemType": "audioRecording", "title": "Air",
            "creators": [{"creatorType": "wordsBy", "firstName": "Ada", "lastName": "Lovelace"},
                         {"creatorType": "wordsBy", "name": "Anonymous"}]}
    [(_, mail), (_, air)] = records_of_items([email, song], "zotero-desktop:", Diagnostics())
    assert dict(mail.extra) == {"zotero.rights": "CC BY", "zotero.itemType": "email"}
    assert dict(air.extra) == {"zotero.wordsBy": "Lovelace, Ada\nAnonymous"}
    assert web_item(mail) == {"itemType": "email", "subject": "Hello", "rights": "CC BY",
                              "creators": email["creators"], "tags": [], "collections": [],
                              "relations": {}}
    assert web_item(air)["creators"] == song["creators"]


#: Zotero's own fixture of every item type with every field (zotero/zotero's
#: test/tests/data/itemJSON.js), kept outside the repository.
ALL_TYPES = Path("/work/data/zotero/itemJSON.json")


@pytest.mark.skipif(not ALL_TYPES.is_file(), reason=f"needs Zotero's fixture at {ALL_TYPES}")
def test_every_zotero_item_type_and_field_goes_back_as_it_came() -> None:
    items = list(json.loads(ALL_TYPES.read_text(encoding="utf-8")).values())
    diagnostics = Diagnostics()
    read = list(records_of_items(items, "itemJSON", diagnostics))
    assert (len(read), diagnostics.messages) == (len(items), [])
    for (_, record), item in zip(read, items):
        back = web_item(record)
        for name, value in item.items():
            if name not in ("key", "version", "dateAdded", "dateModified", "creators"):
                assert back.get(name) == value, (item["itemType"], name)
        assert sorted(map(sorted, (c.items() for c in back["creators"]))) == sorted(
            map(sorted, (c.items() for c in item["creators"]))), item["itemType"]
