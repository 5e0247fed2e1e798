"""The collections and auto-exports of a run kept in the state file: saved after each change,
made again at the next start; a state file that cannot be read is reported in one line and
never written over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serve_support import GROUPED, MARINE_BIBLATEX, rpc, running

from refbridge.serve.collections import collection_key
from refbridge.serve.state import default_state_file


def first_run(tmp_path: Path, state: Path) -> None:
    """A run that adds an auto-export of //Marine and fills //Papers/Draft from an .aux."""
    aux = tmp_path / "paper.aux"
    aux.write_text("\\citation{quist2021}\n", encoding="utf-8")
    with running(tmp_path, text=GROUPED, state_file=state) as server:
        rpc(server, "autoexport.add", "//Marine", "Better BibLaTeX", str(tmp_path / "m.bib"),
            {"exportNotes": True})
        rpc(server, "collection.scanAUX", "//Papers/Draft", str(aux))


def test_the_state_is_saved_after_each_change(tmp_path: Path) -> None:
    state = tmp_path / "state" / "serve.json"
    first_run(tmp_path, state)
    assert json.loads(state.read_text(encoding="utf-8")) == {
        "refbridge-serve-state": 1,
        "libraries": [str(tmp_path / "library.bib")],
        "collections": [{"path": ["Papers"], "keys": None},
                        {"path": ["Papers", "Draft"], "keys": ["quist2021"]}],
        "autoexports": [{"path": str(tmp_path / "m.bib"), "collection": ["Marine"],
                         "translator": "Better BibLaTeX",
                         "displayOptions": {"exportNotes": True,
                                            "useJournalAbbreviation": False}}]}


def test_the_next_run_writes_the_auto_exports_again_and_keeps_the_collections(
        tmp_path: Path) -> None:
    state = tmp_path / "serve.json"
    first_run(tmp_path, state)
    (tmp_path / "m.bib").unlink()
    reported: list[str] = []
    with running(tmp_path, text=GROUPED, state_file=state, reported=reported) as server:
        assert (tmp_path / "m.bib").read_text(encoding="utf-8") == MARINE_BIBLATEX
        assert [(e.path, e.display_options.export_notes)
                for e in server.served.shelf.autoexports.listed()] == [
            (str(tmp_path / "m.bib"), True)]
        assert rpc(server, "item.collections", ["quist2021"])["result"] == {"quist2021": [
            {"key": collection_key(("Unsorted",)), "name": "Unsorted",
             "parentCollection": False},
            {"key": collection_key(("Papers", "Draft")), "name": "Draft",
             "parentCollection": collection_key(("Papers",))}]}
    assert reported == []


def test_an_auto_export_that_cannot_be_written_now_is_kept_and_reported(tmp_path: Path
                                                                       ) -> None:
    state = tmp_path / "serve.json"
    state.write_text(json.dumps({
        "refbridge-serve-state": 1, "collections": [],
        "autoexports": [{"path": str(tmp_path / "gone" / "m.bib"), "collection": ["Marine"],
                         "translator": "biblatex"}]}), encoding="utf-8")
    reported: list[str] = []
    with running(tmp_path, text=GROUPED, state_file=state, reported=reported) as server:
        assert len(server.served.shelf.autoexports.listed()) == 1
    assert reported == [(f"refbridge: error: auto-export: {tmp_path / 'gone' / 'm.bib'}: "
                        "cannot write: No such file or directory")]


def test_an_auto_export_of_a_collection_gone_from_the_library_is_dropped(tmp_path: Path
                                                                         ) -> None:
    state = tmp_path / "serve.json"
    first_run(tmp_path, state)
    (tmp_path / "m.bib").write_text("kept\n", encoding="utf-8")
    reported: list[str] = []
    without_marine = GROUPED.replace("Marine", "Coast")
    with running(tmp_path, text=without_marine, state_file=state, reported=reported) as server:
        assert server.served.shelf.autoexports.listed() == []
    assert reported == [(f"refbridge: warning: {state}: auto-export to {tmp_path / 'm.bib'} "
                        "not restored: the collection /Marine is no longer in the library "
                        "(its file is left as it is)")]
    assert (tmp_path / "m.bib").read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize(("text", "why"), [
    ("{not json", ("not JSON (Expecting property name enclosed in double quotes: line 1 "
                  "column 2 (char 1))")),
    ('{"autoexports": []}', 'no "refbridge-serve-state": 1 member'),
    ('{"refbridge-serve-state": 1, "autoexports": [{"path": "/x.bib", "collection": "M"}]}',
     "an auto-export's collection is not a list of names"),
])
def test_a_corrupt_state_file_is_reported_and_never_written_over(tmp_path: Path, text: str,
                                                                 why: str) -> None:
    state = tmp_path / "serve.json"
    state.write_text(text, encoding="utf-8")
    reported: list[str] = []
    with running(tmp_path, text=GROUPED, state_file=state, reported=reported) as server:
        rpc(server, "autoexport.add", "//Marine", "biblatex", str(tmp_path / "m.bib"))
        assert server.served.shelf.autoexports.listed() != []
    assert reported == [
        (f"refbridge: warning: {state}: not a serve state refbridge can read ({why}): nothing "
        "of earlier runs restored, and this run's collections and auto-exports are not saved "
        "to it (move it away to keep them)")]
    assert state.read_text(encoding="utf-8") == text


def test_the_default_state_file_is_one_per_set_of_libraries_in_the_state_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)
    first = default_state_file(["refs.bib", "more.ris"])
    assert first.parent == tmp_path / "state" / "refbridge" / "serve"
    assert first.name.endswith(".json") and len(first.name) == len("0123456789abcdef.json")
    assert default_state_file([str(tmp_path / "more.ris"), str(tmp_path / "refs.bib")]) == \
        first
    assert default_state_file(["refs.bib"]) != first
