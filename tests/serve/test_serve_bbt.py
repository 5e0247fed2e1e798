"""``refbridge serve`` answers Better BibTeX's cite-as-you-write and JSON-RPC requests as
Better BibTeX does, from an invented library (no Zotero)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_support import Running, rpc, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """One server for the module: these tests change nothing it serves."""
    with running(tmp_path_factory.mktemp("bbt")) as state:
        yield state


TWO = [{"key": "hartmann2021"}, {"key": "lindqvist2018"}]
WITH_PAGE = [{"key": "hartmann2021", "locator": "204", "prefix": "see"},
             {"key": "lindqvist2018"}]


def test_probe_answers_ready_without_opening_a_picker(server: Running) -> None:
    answer = httpx.get(f"{server.base}/better-bibtex/cayw?probe=true")
    assert (answer.status_code, answer.text, server.opened) == (200, "ready", [])


@pytest.mark.parametrize(("query", "picked", "expected"), [
    ("format=latex", TWO, r"\cite{hartmann2021,lindqvist2018}"),
    ("format=latex", WITH_PAGE, r"\cite[see][204]{hartmann2021}\cite{lindqvist2018}"),
    ("format=latex&command=citep", TWO, r"\citep{hartmann2021,lindqvist2018}"),
    ("format=citet", [{"key": "lindqvist2018"}], r"\citet{lindqvist2018}"),
    ("format=latex", [{"key": "hartmann2021", "suppressAuthor": True},
                      {"key": "lindqvist2018", "suppressAuthor": True}],
     r"\citeyear{hartmann2021,lindqvist2018}"),
    ("format=biblatex", TWO, r"\autocite{hartmann2021,lindqvist2018}"),
    ("format=biblatex", WITH_PAGE, r"\autocites[see][204]{hartmann2021}{lindqvist2018}"),
    ("format=biblatex&command=textcite", [{"key": "lindqvist2018", "suppressAuthor": True}],
     r"\textcite{lindqvist2018}"),
    ("format=biblatex", [{"key": "lindqvist2018", "suppressAuthor": True}],
     r"\autocite*{lindqvist2018}"),
    ("format=pandoc", TWO, "@hartmann2021; @lindqvist2018"),
    ("format=pandoc&brackets=1", WITH_PAGE, "[see @hartmann2021, {p. 204}; @lindqvist2018]"),
    ("format=pandoc&brackets=1&page=", WITH_PAGE, "[see @hartmann2021, 204; @lindqvist2018]"),
    ("format=pandoc", [{"key": "lindqvist2018", "suppressAuthor": True, "locator": "3",
                        "label": "chapter"}], "-@lindqvist2018, ch. 3"),
    ("format=mmd", WITH_PAGE, "[see][#hartmann2021][#lindqvist2018][]"),
    ("format=typst", WITH_PAGE, '#cite(<hartmann2021>,"p. 204")#cite(<lindqvist2018>)'),
    ("format=scannable-cite", WITH_PAGE,
     ("{ see | Hartmann, & Okafor, 2021 | p. 204 | | zu:0:hartmann2021 }"
     "{ | Lindqvist, 2018 | | | zu:0:lindqvist2018 }")),
    ("format=formatted-citation&style=apa", WITH_PAGE,
     "(see Hartmann & Okafor, 2021, p. 204; Lindqvist, 2018)"),
    ("format=formatted-bibliography&style=http://www.zotero.org/styles/apa", TWO,
     ("Hartmann, I., & Okafor, C. (2021). Tidal Mixing in Shallow Estuaries. Journal of Coastal "
     "Studies, 14, 201–219. https://doi.org/10.5555/jcs.2021.014\n"
     "Lindqvist, M. (2018). Salt and Silt. Nordhavn Press.\n")),
    ("format=translate&translator=Better%20BibTeX", [{"key": "lindqvist2018"}],
     ("@book{lindqvist2018,\n  author = {Lindqvist, Maja},\n  title = {Salt and Silt},\n"
     "  publisher = {Nordhavn Press},\n  address = {Aarhus},\n  year = {2018},\n}\n")),
    ("format=latex", [], ""),
])
def test_a_pick_is_answered_in_the_format_asked_for(server: Running, query: str,
                                                    picked: list[dict[str, Any]],
                                                    expected: str) -> None:
    answer = server.cayw(query, picked)
    assert (answer.status_code, answer.text) == (200, expected)


def test_no_format_is_latex(server: Running) -> None:
    assert server.cayw("", TWO).text == r"\cite{hartmann2021,lindqvist2018}"


def test_the_json_format_carries_each_record_as_csl_json(server: Running) -> None:
    picked = json.loads(server.cayw("format=json", [{"key": "lindqvist2018", "locator": "7"}])
                        .text)
    assert picked == [{"citationKey": "lindqvist2018", "locator": "7", "label": "page",
                       "prefix": "", "suffix": "", "suppressAuthor": False,
                       "item": {"id": "lindqvist2018", "type": "book",
                                "author": [{"family": "Lindqvist", "given": "Maja"}],
                                "title": "Salt and Silt", "publisher": "Nordhavn Press",
                                "publisher-place": "Aarhus",
                                "issued": {"date-parts": [[2018]]},
                                "custom": {"hints": {"bibtex.layout": "book book author,title,publisher,address,year"}}}}]


def test_a_cancelled_pick_is_empty(server: Running) -> None:
    assert server.cayw("format=pandoc", None).text == ""


def test_an_unknown_format_is_refused_before_any_picker_opens(server: Running) -> None:
    answer = httpx.get(f"{server.base}/better-bibtex/cayw?format=wiki")
    assert (answer.status_code, answer.text, server.opened) == (
        400, 'CAYW failed: No such formatter "wiki"', [])


@pytest.mark.parametrize(("query", "error"), [
    ("format=formatted-citation&style=no-such-style-at-all", "no-such-style-at-all"),
    ("format=formatted-bibliography&contentType=rtf", "contentType 'rtf': choose text or html"),
    ("format=translate&translator=Better%20Word", "unknown translator 'Better Word'"),
])
def test_a_request_that_cannot_be_answered_opens_no_picker(server: Running, query: str,
                                                           error: str) -> None:
    answer = httpx.get(f"{server.base}/better-bibtex/cayw?{query}")
    assert answer.status_code == 400 and error in answer.text
    assert answer.text.startswith("CAYW failed: ")
    assert server.opened == []


def test_a_pick_nobody_answers_is_empty_after_the_timeout(tmp_path: Path) -> None:
    with running(tmp_path, pick_timeout=0.2) as server:
        answer = httpx.get(f"{server.base}/better-bibtex/cayw?format=latex", timeout=10)
        assert (answer.status_code, answer.text, len(server.opened)) == (200, "", 1)


def test_a_pick_of_an_unknown_key_is_refused(server: Running) -> None:
    answers: list[httpx.Response] = []
    import threading

    waiting = threading.Thread(target=lambda: answers.append(
        httpx.get(f"{server.base}/better-bibtex/cayw?format=latex", timeout=30)))
    waiting.start()
    page = server.next_opened()
    refused = httpx.post(page.split("?")[0], json={"citations": [{"key": "nobody1999"}]},
                         headers=server.token)
    assert (refused.status_code, refused.json()) == (
        400, {"error": "no record has the key 'nobody1999'"})
    httpx.post(page.split("?")[0], json={"cancel": True}, headers=server.token)
    waiting.join(30)
    assert answers[0].text == ""


def test_api_ready(server: Running) -> None:
    from refbridge.version import __version__

    assert rpc(server, "api.ready") == {
        "jsonrpc": "2.0", "id": 1,
        "result": {"zotero": f"refbridge {__version__}",
                   "betterbibtex": f"refbridge {__version__}"}}


def test_item_search_finds_by_words_with_csl_json_library_and_citekey(server: Running) -> None:
    assert rpc(server, "item.search", "silt")["result"] == [{
        "id": "lindqvist2018", "type": "book",
        "author": [{"family": "Lindqvist", "given": "Maja"}], "title": "Salt and Silt",
        "publisher": "Nordhavn Press", "publisher-place": "Aarhus",
        "issued": {"date-parts": [[2018]]}, "custom": {"hints": {"bibtex.layout": "book book author,title,publisher,address,year"}},
        "library": "My Library",
        "citekey": "lindqvist2018"}]


def test_item_search_takes_zotero_search_conditions(server: Running) -> None:
    found = rpc(server, "item.search", [["joinMode", "any"], ["creator", "contains", "okafor"],
                                        ["title", "contains", "silt"]])["result"]
    assert [item["citekey"] for item in found] == ["hartmann2021", "lindqvist2018"]


def test_item_search_of_nothing_lists_every_item(server: Running) -> None:
    assert [item["citekey"] for item in rpc(server, "item.search", "")["result"]] == [
        "hartmann2021", "lindqvist2018", "hostile"]


def test_item_citationkey_maps_item_keys_to_citation_keys(server: Running) -> None:
    assert rpc(server, "item.citationkey", ["1:lindqvist2018", "ABCD1234"])["result"] == {
        "1:lindqvist2018": "lindqvist2018", "ABCD1234": None}


def test_item_bibliography_in_the_style_asked_for(server: Running) -> None:
    assert rpc(server, "item.bibliography", ["@lindqvist2018"],
               {"id": "http://www.zotero.org/styles/ieee"})["result"] == (
        "[1] M. Lindqvist, Salt and Silt. Aarhus: Nordhavn Press, 2018.\n")


def test_item_bibliography_without_a_style_is_an_error(server: Running) -> None:
    assert rpc(server, "item.bibliography", ["lindqvist2018"])["error"] == {
        "code": -32603, "message": "Error: no style specified"}


@pytest.mark.parametrize(("format", "error"), [
    ({"id": "ieee", "mode": "citation"},
     {"code": -32603, "message": "Error: mode must be bibliograpy, not citation"}),
    ({"quickCopy": True},
     {"code": -32602, "message": "format.quickCopy: there are no Zotero quick-copy settings "
                                 "outside Zotero: give id, contentType and locale"}),
    ({"id": "ieee", "exportNotes": True},
     {"code": -32602, "message": "format: unknown member 'exportNotes' (known: id, "
                                 "contentType, locale, quickCopy, mode)"}),
])
def test_item_bibliography_refuses_a_format_it_cannot_apply(server: Running,
                                                            format: dict[str, Any],
                                                            error: dict[str, Any]) -> None:
    assert rpc(server, "item.bibliography", ["lindqvist2018"], format)["error"] == error


def test_item_bibliography_in_bibliography_mode(server: Running) -> None:
    assert rpc(server, "item.bibliography", ["lindqvist2018"],
               {"id": "ieee", "mode": "bibliography", "quickCopy": False})["result"] == (
        "[1] M. Lindqvist, Salt and Silt. Aarhus: Nordhavn Press, 2018.\n")


def test_item_export_by_translator(server: Running) -> None:
    exported = rpc(server, "item.export", ["lindqvist2018"], "Better CSL JSON")["result"]
    assert json.loads(exported) == [{
        "id": "lindqvist2018", "type": "book",
        "author": [{"family": "Lindqvist", "given": "Maja"}], "title": "Salt and Silt",
        "publisher": "Nordhavn Press", "publisher-place": "Aarhus",
        "issued": {"date-parts": [[2018]]}, "custom": {"hints": {"bibtex.layout": "book book author,title,publisher,address,year"}}}]


def test_item_export_names_the_keys_not_found(server: Running) -> None:
    assert rpc(server, "item.export", ["lindqvist2018", "nobody1999"], "biblatex")["error"] == {
        "code": -32602, "message": "not found: nobody1999"}


def test_item_attachments_of_a_record_without_files(server: Running) -> None:
    assert rpc(server, "item.attachments", "lindqvist2018")["result"] == []


def test_item_attachments_are_the_files_of_the_record(tmp_path: Path) -> None:
    text = ("@book{okafor2019,\n  title = {Estuary Notes},\n  year = {2019},\n"
            "  file = {Full Text:/home/chidi/papers/okafor\\:2019.pdf:application/pdf;"
            ":slides.pdf:PDF},\n}\n")
    with running(tmp_path, text=text) as server:
        assert rpc(server, "item.attachments", "@okafor2019")["result"] == [
            {"open": "file:///home/chidi/papers/okafor%3A2019.pdf",
             "path": "/home/chidi/papers/okafor:2019.pdf"},
            {"open": "slides.pdf", "path": "slides.pdf"}]


def test_parameters_by_name(server: Running) -> None:
    answer = httpx.post(f"{server.base}/better-bibtex/json-rpc", json={
        "jsonrpc": "2.0", "method": "item.export", "id": 7,
        "params": {"citekeys": ["lindqvist2018"], "translator": "biblatex"}}).json()
    assert answer["id"] == 7
    assert answer["result"].startswith("@book{lindqvist2018,\n")


def test_a_batch_is_answered_in_order(server: Running) -> None:
    answer = httpx.post(f"{server.base}/better-bibtex/json-rpc", json=[
        {"jsonrpc": "2.0", "method": "item.citationkey", "params": [["hostile"]], "id": 1},
        {"jsonrpc": "2.0", "method": "item.nothing", "id": 2}]).json()
    assert answer == [
        {"jsonrpc": "2.0", "result": {"hostile": "hostile"}, "id": 1},
        {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found: item.nothing"},
         "id": 2}]


@pytest.mark.parametrize(("body", "error"), [
    (b"{not json", -32700),
    (b'{"method": "api.ready"}', -32600),
    (b'{"jsonrpc": "2.0", "method": "item.export", "params": [["hostile"]]}', -32602),
])
def test_bad_requests_get_their_json_rpc_error(server: Running, body: bytes, error: int
                                               ) -> None:
    answer = httpx.post(f"{server.base}/better-bibtex/json-rpc", content=body,
                        headers={"Content-Type": "application/json"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (200, error)


def test_a_zotero_database_is_served_with_better_bibtexs_keys(shared_dir: Path,
                                                               tmp_path: Path) -> None:
    """``--library zotero-sqlite:PATH``: Zotero's item keys give Better BibTeX's citation
    keys, as Zotero with Better BibTeX would answer."""
    from serve_support import Served, serve_in_thread
    from zotero_db_support import ZoteroDb, better_bibtex_db

    from refbridge.errors import Diagnostics
    from refbridge.serve.library import Library

    folder = tmp_path / "Zotero"
    folder.mkdir()
    zotero = ZoteroDb(folder / "zotero.sqlite", shared_dir)
    book = zotero.add_item("book", {"title": "Sketch of the Analytical Engine", "date": "1843"},
                           [("author", "Luigi", "Menabrea")])
    notes = zotero.add_item("book", {"title": "Notes on the Engine", "date": "1844"},
                            [("author", "Ada", "Lovelace")])
    zotero.close()
    better_bibtex_db(folder / "better-bibtex.sqlite", {zotero.key_of(book): "menabrea1843"})
    library = Library()
    library.read_paths([f"zotero-sqlite:{zotero.path}"], Diagnostics())
    served = Served(library, print)
    server = serve_in_thread(served)
    try:
        state = Running(served)
        assert [item["citekey"] for item in rpc(state, "item.search", "engine")["result"]
                ] == ["menabrea1843", "lovelace1844notes"]
        assert rpc(state, "item.citationkey", [f"1:{zotero.key_of(notes)}"])["result"] == {
            f"1:{zotero.key_of(notes)}": "lovelace1844notes"}
    finally:
        server.shutdown()
        server.server_close()


def test_a_library_changed_on_disk_is_read_again(tmp_path: Path) -> None:
    import os

    with running(tmp_path) as server:
        library = tmp_path / "library.bib"
        library.write_text("@book{nyberg2022, author = {Nyberg, Tove}, title = {Fjords},"
                           " year = 2022}\n", encoding="utf-8")
        os.utime(library, ns=(1, 1))  # a stamp surely not the first one's
        found = rpc(server, "item.search", "")["result"]
        assert [item["citekey"] for item in found] == ["nyberg2022"]


def test_a_library_gone_from_disk_keeps_its_records_and_is_reported_once(tmp_path: Path
                                                                         ) -> None:
    reported: list[str] = []
    with running(tmp_path) as server:
        server.served.report = reported.append
        (tmp_path / "library.bib").unlink()
        found = rpc(server, "item.search", "")["result"]
        rpc(server, "item.search", "")
    assert [item["citekey"] for item in found] == ["hartmann2021", "lindqvist2018", "hostile"]
    assert reported == [(f"refbridge: error: {tmp_path / 'library.bib'}: cannot open: "
                        "No such file or directory")]


def test_the_picker_closed_without_a_pick_cancels_it_with_the_token_in_its_address(
        server: Running) -> None:
    """What the picker page's script sends when its tab is closed (``sendBeacon`` can send no
    header: the token is in the address)."""
    import threading

    answers: list[httpx.Response] = []
    waiting = threading.Thread(target=lambda: answers.append(
        httpx.get(f"{server.base}/better-bibtex/cayw?format=pandoc", timeout=30)))
    waiting.start()
    page = server.next_opened()
    beacon = httpx.post(page, content=b'{"cancel":true}', headers={
        "Content-Type": "text/plain;charset=UTF-8", "Origin": server.base})
    waiting.join(30)
    assert (beacon.status_code, answers[0].status_code, answers[0].text) == (200, 200, "")


def test_a_json_rpc_request_in_the_query_of_a_get(server: Running) -> None:
    """As pandoc's zotero.lua asks: ``json-rpc?`` and the request, URL-encoded."""
    from urllib.parse import quote

    request = json.dumps({"jsonrpc": "2.0", "method": "item.citationkey",
                          "params": [["lindqvist2018"]], "id": 3})
    answer = httpx.get(f"{server.base}/better-bibtex/json-rpc?{quote(request)}")
    assert answer.json() == {"jsonrpc": "2.0", "result": {"lindqvist2018": "lindqvist2018"},
                             "id": 3}


LINDQVIST_CSL = {"id": "lindqvist2018", "type": "book",
                 "author": [{"family": "Lindqvist", "given": "Maja"}], "title": "Salt and Silt",
                 "publisher": "Nordhavn Press", "publisher-place": "Aarhus",
                 "issued": {"date-parts": [[2018]]},
                 "custom": {"hints": {
                     "bibtex.layout": "book book author,title,publisher,address,year"}}}


def test_a_posted_pick_answers_state_pick_and_the_text_a_get_answers(server: Running) -> None:
    """Better BibTeX's POST form: the options in a JSON body (the query's win), the answer
    JSON with the document state sent, Zotero's citation and the formatted ``output``."""
    state = {"documents": {"paper": {"data": "kept"}}}
    answer = server.cayw("brackets=1", [{"key": "lindqvist2018", "locator": "12",
                                         "prefix": "see", "suppressAuthor": True}],
                         posted={"format": "latex", "brackets": False, "state": state})
    assert (answer.status_code, answer.headers["content-type"]) == (
        200, "application/json; charset=utf-8")
    assert answer.json() == {
        "state": state,
        "pick": [{"citationItems": [{"id": "lindqvist2018", "itemData": LINDQVIST_CSL,
                                     "locator": "12", "label": "page", "prefix": "see",
                                     "suppress-author": True}]}],
        "output": r"\citeyear[see][12]{lindqvist2018}"}


def test_a_posted_pick_takes_the_query_over_the_body(server: Running) -> None:
    answer = server.cayw("format=pandoc", WITH_PAGE, posted={"format": "latex",
                                                             "brackets": True})
    assert answer.json()["output"] == "[see @hartmann2021, {p. 204}; @lindqvist2018]"


def test_a_posted_cancelled_pick_is_empty_with_an_empty_state(server: Running) -> None:
    answer = server.cayw("", None, posted={})
    assert answer.json() == {"state": {}, "pick": [], "output": ""}


def test_a_posted_probe_answers_ready(server: Running) -> None:
    answer = httpx.post(f"{server.base}/better-bibtex/cayw", json={"probe": True})
    assert (answer.status_code, answer.text, server.opened) == (200, "ready", [])


def test_a_posted_selection_is_empty_without_a_picker(server: Running) -> None:
    answer = httpx.post(f"{server.base}/better-bibtex/cayw?selected=1", json={})
    assert (answer.json(), server.opened) == ({"state": {}, "pick": [], "output": ""}, [])


@pytest.mark.parametrize(("body", "headers", "error"), [
    (b'{"format": "wiki"}', {"Content-Type": "application/json"},
     'CAYW failed: No such formatter "wiki"'),
    (b"format=latex", {"Content-Type": "application/x-www-form-urlencoded"},
     "CAYW failed: the request body must be application/json"),
    (b'["latex"]', {"Content-Type": "application/json"},
     "CAYW failed: the request body is not a JSON object"),
    (b'{"format": ["latex"]}', {"Content-Type": "application/json"},
     "CAYW failed: option 'format' must be a string, a number or a boolean"),
])
def test_a_posted_request_that_cannot_be_answered_opens_no_picker(
        server: Running, body: bytes, headers: dict[str, str], error: str) -> None:
    answer = httpx.post(f"{server.base}/better-bibtex/cayw", content=body, headers=headers)
    assert (answer.status_code, answer.text, server.opened) == (400, error, [])
