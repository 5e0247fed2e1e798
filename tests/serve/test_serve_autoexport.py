"""``autoexport.add``: a collection of the served library written to a file, whole and at
once, when added and again when the library changes on disk; Better BibTeX's clashes and
errors as JSON-RPC errors."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_support import GROUPED, MARINE_BIBLATEX, Running, rpc, running

from refbridge.serve.collections import collection_key

MARINE = collection_key(("Marine",))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    with running(tmp_path, text=GROUPED) as state:
        yield state


def add(server: Running, *params: Any) -> Any:
    return rpc(server, "autoexport.add", *params)


def test_an_auto_export_is_written_when_added(server: Running, tmp_path: Path) -> None:
    target = tmp_path / "out" / "marine.bib"
    target.parent.mkdir()
    assert add(server, "//Marine", "Better BibLaTeX", str(target)) == {
        "jsonrpc": "2.0", "id": 1, "result": {"libraryID": 1, "key": MARINE, "id": 1}}
    assert target.read_text(encoding="utf-8") == MARINE_BIBLATEX


def test_an_auto_export_follows_a_change_of_the_library_on_disk(server: Running,
                                                                 tmp_path: Path) -> None:
    target = tmp_path / "marine.ris"
    add(server, "/My Library/Marine", "ris", str(target))
    library = tmp_path / "library.bib"
    library.write_text(GROUPED.replace("groups = {Marine},", "groups = {Unsorted},"),
                       encoding="utf-8")
    os.utime(library, ns=(1, 1))  # a stamp surely not the first one's
    deadline = time.monotonic() + 10
    while "Salt Marshes" in target.read_text(encoding="utf-8"):
        assert time.monotonic() < deadline, "the auto-export was not written again"
        time.sleep(0.1)
    assert target.read_text(encoding="utf-8") == (
        "TY  - JOUR\nID  - ferreira2022\nTI  - Kelp Canopies and Light\n"
        "AU  - Ferreira, Lúcia\nT2  - Marine Letters\nPY  - 2022\n"
        'N1  - refbridge: {"custom": {"extra": {"bibtex.groups": "Marine, Kelp"}, '
        '"latex": {"author": ["Ferreira, Lúcia"]}}}\nER  - \n')


def test_an_unchanged_collection_is_not_written_again(server: Running, tmp_path: Path
                                                      ) -> None:
    target = tmp_path / "marine.bib"
    add(server, "//Marine", "biblatex", str(target))
    os.utime(target, ns=(5, 5))
    library = tmp_path / "library.bib"
    library.write_text(GROUPED.replace("Field Notes", "Field Notes, Revised"),
                       encoding="utf-8")
    os.utime(library, ns=(1, 1))
    assert server.served.shelf.autoexports.refresh_and_update() == []
    assert target.stat().st_mtime_ns == 5


def test_a_collection_filled_by_scan_aux_is_written_again(server: Running, tmp_path: Path
                                                          ) -> None:
    target = tmp_path / "draft.json"
    aux = tmp_path / "paper.aux"
    aux.write_text("\\citation{quist2021}\n", encoding="utf-8")
    assert add(server, "//Papers/Draft", "Better CSL JSON", str(target))["result"] == {
        "libraryID": 1, "key": collection_key(("Papers", "Draft")), "id": 4}
    assert target.read_text(encoding="utf-8") == "[]\n"
    rpc(server, "collection.scanAUX", "//Papers/Draft", str(aux))
    assert server.served.shelf.autoexports.refresh_and_update() == [str(target)]
    assert '"id": "quist2021"' in target.read_text(encoding="utf-8")


@pytest.mark.parametrize("translator", ["Better BibLaTeX", "f895aa0d-f28e-47fe-b247-2ea77c6ed583",
                                        "bib", "biblatex"])
def test_a_translator_by_name_id_shortcut_or_writer(server: Running, tmp_path: Path,
                                                    translator: str) -> None:
    target = tmp_path / "marine.bib"
    add(server, "//Marine", translator, str(target))
    assert target.read_text(encoding="utf-8") == MARINE_BIBLATEX


def test_the_same_auto_export_added_again_is_kept(server: Running, tmp_path: Path) -> None:
    target = str(tmp_path / "marine.bib")
    add(server, "//Marine", "biblatex", target)
    assert add(server, "//Marine", "Better BibLaTeX", target)["result"] == {
        "libraryID": 1, "key": MARINE, "id": 1}


def test_another_auto_export_to_the_same_file_needs_replace(server: Running, tmp_path: Path
                                                            ) -> None:
    target = tmp_path / "out.bib"
    add(server, "//Marine", "biblatex", str(target))
    assert add(server, "//Unsorted", "biblatex", str(target))["error"] == {
        "code": -32602,
        "message": "Auto-export exists with incompatible parameters, but no 'replace' was "
                   "requested"}
    assert add(server, "//Unsorted", "biblatex", str(target), {}, True)["result"] == {
        "libraryID": 1, "key": collection_key(("Unsorted",)), "id": 3}
    assert target.read_text(encoding="utf-8").startswith("@misc{quist2021,\n")


@pytest.mark.parametrize(("params", "error"), [
    (["//Marine", "Better Word", "/tmp/x.bib"], "Unknown translator 'Better Word'"),
    (["//Marine", "biblatex", "x.bib"], "path must be an absolute path"),
    (["//Marine", "biblatex", "/tmp/x.bib", {"exportNotes": "yes"}],
     "display option value 'yes' must be true or false"),
    (["//Marine", "biblatex", "/tmp/x.bib", ["exportNotes"]],
     "displayOptions must be an object"),
])
def test_an_auto_export_that_cannot_be_added(server: Running, params: list[Any],
                                             error: str) -> None:
    assert add(server, *params)["error"] == {"code": -32602, "message": error}
    assert server.served.shelf.autoexports.listed() == []


def test_an_unknown_translator_makes_no_collection(server: Running) -> None:
    add(server, "//New", "Better Word", "/tmp/x.bib")
    assert [c["name"] for c in rpc(server, "user.groups", True)["result"][0]["collections"]
            ] == ["Marine", "Kelp", "Unsorted"]


def test_an_auto_export_never_writes_over_the_library_served(server: Running,
                                                             tmp_path: Path) -> None:
    library = tmp_path / "library.bib"
    assert add(server, "//Marine", "biblatex", str(library))["error"] == {
        "code": -32602, "message": f"{library}: refusing to write over an input file"}
    assert library.read_text(encoding="utf-8") == GROUPED


def test_an_auto_export_that_cannot_be_written_is_an_error(server: Running, tmp_path: Path
                                                           ) -> None:
    target = tmp_path / "no-such-folder" / "out.bib"
    error = add(server, "//Marine", "biblatex", str(target))["error"]
    assert error == {"code": -32602,
                     "message": f"{target}: cannot write: No such file or directory"}


def test_autoexport_add_is_refused_in_a_get(server: Running, tmp_path: Path) -> None:
    import json
    from urllib.parse import quote

    target = tmp_path / "marine.bib"
    request = json.dumps({"jsonrpc": "2.0", "method": "autoexport.add",
                          "params": ["//Marine", "biblatex", str(target)], "id": 2})
    answer = httpx.get(f"{server.base}/better-bibtex/json-rpc?{quote(request)}").json()
    assert answer["error"]["code"] == -32600
    assert not target.exists()
