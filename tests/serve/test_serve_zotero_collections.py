"""A Zotero database served (``zotero-sqlite:``): ``item.collections``, ``user.groups`` and
collection-scoped auto-exports answer from the database's own collections (its keys, ids,
versions, tree and items), as Better BibTeX answers them in Zotero."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from serve_support import Running, Served, rpc, serve_in_thread
from zotero_db_support import ZoteroDb

from refbridge.errors import Diagnostics
from refbridge.serve.library import Library

#: What Zotero relates a collection to (here, the same collection in a group library).
SAME_AS = "http://zotero.org/groups/4711/collections/ZQ8PMRTW"


@dataclass
class Database:
    zotero: ZoteroDb
    keys: dict[str, str]  #: collection name -> its key
    ids: dict[str, int]  #: collection name -> its ID

    def close(self) -> None:
        self.zotero.close()


def build(folder: Path, shared_dir: Path) -> Database:
    """Estuaries (with Kelp in it) and Archive (trashed: not listed) and Arctic; a study (with
    a child note) in Estuaries and Kelp, a book in Arctic, a report in none."""
    zotero = ZoteroDb(folder / "zotero.sqlite", shared_dir)
    estuaries = zotero.add_collection("Estuaries")
    kelp = zotero.add_collection("Kelp", estuaries)
    archive = zotero.add_collection("Archive")
    arctic = zotero.add_collection("Arctic")
    zotero.db.execute("INSERT INTO deletedCollections (collectionID) VALUES (?)", (archive,))
    zotero.db.execute("UPDATE collections SET version = 7 WHERE collectionID = ?", (kelp,))
    zotero.db.execute("INSERT INTO relationPredicates (predicate) VALUES ('owl:sameAs')")
    zotero.db.execute("INSERT INTO collectionRelations SELECT ?, predicateID, ? FROM "
                      "relationPredicates", (arctic, SAME_AS))
    study = zotero.add_item("journalArticle", {"title": "Kelp Canopies and Light",
                                               "date": "2022",
                                               "publicationTitle": "Marine Letters"},
                            [("author", "Lúcia", "Ferreira")], collections=[estuaries, kelp])
    zotero.add_note(study, "<p>Light measured at <i>three</i> depths.</p>")
    zotero.add_item("book", {"title": "Sea Ice Ecology", "date": "2019",
                             "publisher": "Polar Press"},
                    [("author", "Bjørn", "Ode")], collections=[arctic])
    zotero.add_item("report", {"title": "Field Notes", "date": "2021"},
                    [("author", "Hanna", "Quist")])
    keys = {str(name): str(key) for name, key in zotero.db.execute(
        "SELECT collectionName, key FROM collections")}
    ids = {"Estuaries": estuaries, "Kelp": kelp, "Arctic": arctic}
    return Database(zotero, keys, ids)


@pytest.fixture
def served(shared_dir: Path, tmp_path: Path) -> Iterator[tuple[Running, Database]]:
    database = build(tmp_path, shared_dir)
    database.close()
    library = Library()
    library.read_paths([f"zotero-sqlite:{database.zotero.path}"], Diagnostics())
    state = Running(Served(library, print))
    server = serve_in_thread(state.served)
    try:
        yield state, database
    finally:
        state.served.shelf.autoexports.close()
        server.shutdown()
        server.server_close()


def test_user_groups_lists_the_databases_collections_as_a_tree_with_relations(
        served: tuple[Running, Database]) -> None:
    server, db = served
    assert rpc(server, "user.groups", True)["result"] == [{
        "id": 1, "name": "My Library", "collections": [
            {"key": db.keys["Arctic"], "name": "Arctic", "parentCollection": False,
             "version": 0, "relations": {"owl:sameAs": SAME_AS}},
            {"key": db.keys["Estuaries"], "name": "Estuaries", "parentCollection": False,
             "version": 0, "relations": {}},
            {"key": db.keys["Kelp"], "name": "Kelp", "parentCollection": db.keys["Estuaries"],
             "version": 7, "relations": {}}]}]


def test_item_collections_are_the_items_collections(served: tuple[Running, Database]
                                                    ) -> None:
    server, db = served
    assert rpc(server, "item.collections", ["ferreira2022kelp", "ode2019sea", "quist2021field"]
               )["result"] == {
        "ferreira2022kelp": [
            {"key": db.keys["Estuaries"], "name": "Estuaries", "parentCollection": False},
            {"key": db.keys["Kelp"], "name": "Kelp", "parentCollection": db.keys["Estuaries"]}],
        "ode2019sea": [{"key": db.keys["Arctic"], "name": "Arctic", "parentCollection": False}],
        "quist2021field": []}


def test_item_collections_with_their_parents(served: tuple[Running, Database]) -> None:
    server, db = served
    estuaries = {"key": db.keys["Estuaries"], "name": "Estuaries", "parentCollection": False}
    assert rpc(server, "item.collections", ["ferreira2022kelp"], True)["result"] == {
        "ferreira2022kelp": [estuaries, {"key": db.keys["Kelp"], "name": "Kelp",
                                     "parentCollection": estuaries}]}


def test_a_collection_path_finds_the_databases_collection(served: tuple[Running, Database],
                                                          tmp_path: Path) -> None:
    server, db = served
    target = tmp_path / "kelp.bib"
    assert rpc(server, "autoexport.add", "/My Library/estuaries/Kelp", "Better BibLaTeX",
               str(target))["result"] == {"libraryID": 1, "key": db.keys["Kelp"],
                                          "id": db.ids["Kelp"]}
    assert target.read_text(encoding="utf-8") == """\
@article{ferreira2022kelp,
  author = {Ferreira, L{\\'u}cia},
  title = {Kelp Canopies and Light},
  journaltitle = {Marine Letters},
  date = {2022},
}
"""


def test_an_auto_export_of_a_collection_with_its_child_notes(
        served: tuple[Running, Database], tmp_path: Path) -> None:
    server, _ = served
    target = tmp_path / "kelp.bib"
    rpc(server, "autoexport.add", "//Estuaries/Kelp", "Better BibLaTeX", str(target),
        {"exportNotes": True})
    assert target.read_text(encoding="utf-8") == """\
@article{ferreira2022kelp,
  author = {Ferreira, L{\\'u}cia},
  title = {Kelp Canopies and Light},
  journaltitle = {Marine Letters},
  date = {2022},
  note = {Light measured at three depths.},
}
"""


def test_an_auto_export_follows_the_database_on_disk(served: tuple[Running, Database],
                                                     tmp_path: Path) -> None:
    import sqlite3

    server, db = served
    target = tmp_path / "arctic.bib"
    rpc(server, "autoexport.add", "//Arctic", "Better BibTeX", str(target))
    assert "quist2021field" not in target.read_text(encoding="utf-8")
    connection = sqlite3.connect(db.zotero.path)
    connection.execute("INSERT INTO collectionItems SELECT ?, max(itemID), 1 FROM items",
                       (db.ids["Arctic"],))  # the report, added last
    connection.commit()
    connection.close()
    os.utime(db.zotero.path, ns=(1, 1))
    assert server.served.shelf.autoexports.refresh_and_update() == [str(target)]
    assert [line for line in target.read_text(encoding="utf-8").splitlines()
            if line.startswith("@")] == ["@book{ode2019sea,", "@techreport{quist2021field,"]


def test_a_made_collection_gets_an_id_after_the_databases(served: tuple[Running, Database],
                                                          tmp_path: Path) -> None:
    server, db = served
    answer = rpc(server, "autoexport.add", "//Arctic/Svalbard", "biblatex",
                 str(tmp_path / "svalbard.bib"))["result"]
    assert answer["id"] == max(db.ids.values()) + 1
