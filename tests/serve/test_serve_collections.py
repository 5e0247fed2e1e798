"""``refbridge serve``'s collections as Better BibTeX's JSON-RPC gives them: JabRef's static
groups of the .bib served (``groups`` fields, the ``jabref-meta: grouping`` tree), and those
``collection.scanAUX`` makes; paths found as Better BibTeX finds them, with its error codes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_support import GROUPED, Running, rpc, running

from refbridge.serve.collections import collection_key, jabref_groups

MARINE, KELP, UNSORTED = (collection_key(("Marine",)), collection_key(("Marine", "Kelp")),
                          collection_key(("Unsorted",)))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    with running(tmp_path, text=GROUPED) as state:
        yield state


def test_jabref_groups_are_the_static_groups_of_the_tree_with_their_paths() -> None:
    assert jabref_groups(GROUPED) == [("Marine",), ("Marine", "Kelp")]


def test_a_jabref_group_name_keeps_its_escaped_separator() -> None:
    """JabRef escapes a group's ``;`` for the group, then again for the metadata line."""
    text = ("@Comment{jabref-meta: grouping:\n0 AllEntriesGroup:;\n"
            "1 StaticGroup:Salt\\\\\\;Silt\\;0\\;1\\;\\;\\;\\;;\n}")
    assert jabref_groups(text) == [("Salt;Silt",)]


def test_collection_keys_are_zoteros_letters_and_the_same_in_every_run() -> None:
    assert collection_key(("Marine",)) == "5TIZ9TD8"
    assert collection_key(("Marine", "Kelp")) == "NDZEYTVB"


def test_user_groups_lists_the_collections_as_zoteros_json(server: Running) -> None:
    assert rpc(server, "user.groups", True)["result"] == [{
        "id": 1, "name": "My Library", "collections": [
            {"key": MARINE, "name": "Marine", "parentCollection": False, "version": 0,
             "relations": {}},
            {"key": KELP, "name": "Kelp", "parentCollection": MARINE, "version": 0,
             "relations": {}},
            {"key": UNSORTED, "name": "Unsorted", "parentCollection": False, "version": 0,
             "relations": {}}]}]


def test_user_groups_without_collections(server: Running) -> None:
    assert rpc(server, "user.groups")["result"] == [
        {"id": 1, "name": "My Library", "collections": None}]


def test_item_collections_gives_each_keys_collections(server: Running) -> None:
    assert rpc(server, "item.collections", ["ferreira2022", "@ode2019", "nobody1999"]
               )["result"] == {
        "ferreira2022": [{"key": MARINE, "name": "Marine", "parentCollection": False},
                         {"key": KELP, "name": "Kelp", "parentCollection": MARINE}],
        "ode2019": [{"key": MARINE, "name": "Marine", "parentCollection": False}]}


def test_item_collections_with_their_parents(server: Running) -> None:
    assert rpc(server, "item.collections", ["ferreira2022"], True)["result"] == {
        "ferreira2022": [
            {"key": MARINE, "name": "Marine", "parentCollection": False},
            {"key": KELP, "name": "Kelp", "parentCollection": {
                "key": MARINE, "name": "Marine", "parentCollection": False}}]}


def test_item_collections_of_no_key_found_is_an_error(server: Running) -> None:
    assert rpc(server, "item.collections", ["nobody1999"])["error"] == {
        "code": -32602, "message": "zero matches for nobody1999"}


def test_scan_aux_fills_a_new_collection_with_the_cited_entries(server: Running,
                                                                 tmp_path: Path) -> None:
    aux = tmp_path / "paper.aux"
    aux.write_text("\\relax\n\\citation{quist2021}\n\\citation{ode2019,nobody1999}\n",
                   encoding="utf-8")
    assert rpc(server, "collection.scanAUX", "//Papers/Draft", str(aux)) == {
        "jsonrpc": "2.0", "id": 1,
        "result": {"libraryID": 1, "key": collection_key(("Papers", "Draft"))}}
    assert rpc(server, "item.collections", ["ode2019", "quist2021"])["result"] == {
        "ode2019": [{"key": MARINE, "name": "Marine", "parentCollection": False},
                    {"key": collection_key(("Papers", "Draft")), "name": "Draft",
                     "parentCollection": collection_key(("Papers",))}],
        "quist2021": [{"key": UNSORTED, "name": "Unsorted", "parentCollection": False},
                      {"key": collection_key(("Papers", "Draft")), "name": "Draft",
                       "parentCollection": collection_key(("Papers",))}]}


def test_scan_aux_clears_a_collection_that_exists(server: Running, tmp_path: Path) -> None:
    aux = tmp_path / "paper.aux"
    aux.write_text("\\citation{quist2021}\n", encoding="utf-8")
    assert rpc(server, "collection.scanAUX", "/My Library/marine", str(aux))["result"] == {
        "libraryID": 1, "key": MARINE}
    assert rpc(server, "item.collections", ["ode2019", "quist2021"])["result"] == {
        "ode2019": [],
        "quist2021": [{"key": MARINE, "name": "Marine", "parentCollection": False},
                      {"key": UNSORTED, "name": "Unsorted", "parentCollection": False}]}


@pytest.mark.parametrize(("path", "error"), [
    ("Marine", {"code": 404, "message": 'collection path "Marine" is not an absolute path'}),
    ("/Marine", {"code": 404, "message": "path is too short"}),
    ("/Group 7/Marine", {"code": 404, "message": "Library Group 7 not found"}),
])
def test_scan_aux_of_a_path_that_names_no_collection(server: Running, tmp_path: Path,
                                                      path: str, error: dict[str, Any]
                                                      ) -> None:
    aux = tmp_path / "paper.aux"
    aux.write_text("\\citation{quist2021}\n", encoding="utf-8")
    assert rpc(server, "collection.scanAUX", path, str(aux))["error"] == error


def test_a_name_two_collections_share_is_not_unique(tmp_path: Path) -> None:
    twice = GROUPED.replace("1 KeywordGroup:Reviews", "1 StaticGroup:marine")
    with running(tmp_path, text=twice) as server:
        aux = tmp_path / "paper.aux"
        aux.write_text("\\citation{quist2021}\n", encoding="utf-8")
        assert rpc(server, "collection.scanAUX", "//MARINE/Draft", str(aux))["error"] == {
            "code": 409, "message": "Collection '/MARINE' is not unique"}


def test_scan_aux_of_a_relative_aux_is_refused(server: Running) -> None:
    assert rpc(server, "collection.scanAUX", "//Draft", "paper.aux")["error"] == {
        "code": -32602, "message": "aux must be an absolute path"}


def test_scan_aux_of_a_missing_aux_is_an_error_naming_it(server: Running, tmp_path: Path
                                                         ) -> None:
    error = rpc(server, "collection.scanAUX", "//Draft", str(tmp_path / "gone.aux"))["error"]
    assert error == {"code": -32603,
                     "message": f"{tmp_path / 'gone.aux'}: cannot open: No such file or "
                                "directory"}


def test_methods_that_change_collections_are_refused_in_a_get(server: Running,
                                                              tmp_path: Path) -> None:
    """A web page of any site can make a browser send a GET (no ``Origin``)."""
    import json
    from urllib.parse import quote

    aux = tmp_path / "paper.aux"
    aux.write_text("\\citation{quist2021}\n", encoding="utf-8")
    request = json.dumps({"jsonrpc": "2.0", "method": "collection.scanAUX",
                          "params": ["//Draft", str(aux)], "id": 4})
    answer = httpx.get(f"{server.base}/better-bibtex/json-rpc?{quote(request)}")
    assert answer.json() == {"jsonrpc": "2.0", "id": 4, "error": {
        "code": -32600,
        "message": "collection.scanAUX changes the library's collections: send it in a POST"}}
    assert [c["name"] for c in rpc(server, "user.groups", True)["result"][0]["collections"]
            ] == ["Marine", "Kelp", "Unsorted"]
