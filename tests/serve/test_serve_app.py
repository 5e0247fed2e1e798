"""The local app of ``refbridge serve``: its page, and its API loading records from text,
listing them with ``check``'s findings, previewing them in a style, exporting them in every
writer's format and listing what an uploaded document cites."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_support import Running, running

UPLOAD = "@article{doe2020, author = {Doe, Ann}, title = {Untitled Work}, year = 2020}\n"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    with running(tmp_path) as state:
        yield state


def get(server: Running, path: str) -> httpx.Response:
    return httpx.get(server.base + path, headers=server.token)


def post(server: Running, path: str, body: object) -> httpx.Response:
    return httpx.post(server.base + path, headers=server.token, json=body)


def test_the_page_is_served_with_the_token_in_its_address(server: Running) -> None:
    answer = httpx.get(server.served.address())
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert '<script src="/static/app.js" defer></script>' in answer.text


def test_the_scripts_are_served(server: Running) -> None:
    answer = httpx.get(server.base + "/static/app.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/javascript; charset=utf-8"


def test_loaded_text_adds_records_listed_with_their_findings(server: Running) -> None:
    assert post(server, "/api/load", {"name": "upload.bib", "text": UPLOAD}).json() == {
        "added": 1, "problems": []}
    assert get(server, "/api/entries?q=untitled").json() == {"entries": [{
        "key": "doe2020", "type": "article-journal", "title": "Untitled Work",
        "authors": ["Ann Doe"], "year": "2020", "origin": "upload.bib",
        "findings": [{"code": "missing-field", "severity": "warning",
                      "message": "bibtex needs journal for type article-journal"}]}],
        "total": 1}


def b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode("ascii")


def titles(server: Running, query: str) -> list[tuple[str, str, str]]:
    return [(entry["key"], entry["title"], entry["origin"])
            for entry in get(server, f"/api/entries?q={query}").json()["entries"]]


def test_a_dropped_gzip_file_is_read_as_the_text_it_holds(server: Running) -> None:
    import gzip

    assert post(server, "/api/load", {"name": "upload.bib.gz",
                                      "data": b64(gzip.compress(UPLOAD.encode()))}
                ).json() == {"added": 1, "problems": []}
    assert titles(server, "untitled") == [("doe2020", "Untitled Work", "upload.bib.gz")]


def test_a_dropped_tar_archive_is_read_file_after_file(server: Running) -> None:
    import io
    import tarfile

    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w:gz") as archive:
        for name, text in [("a.bib", UPLOAD), ("b.bib", ("@book{roe2011, title = {Other "
                                                        "Untitled Work}, year = 2011}\n"))]:
            member = tarfile.TarInfo(name)
            member.size = len(text.encode())
            archive.addfile(member, io.BytesIO(text.encode()))
    assert post(server, "/api/load", {"name": "refs.tar.gz", "data": b64(packed.getvalue())}
                ).json() == {"added": 2, "problems": []}
    assert titles(server, "untitled") == [("doe2020", "Untitled Work", "refs.tar.gz"),
                                          ("roe2011", "Other Untitled Work", "refs.tar.gz")]


def test_a_dropped_latin_1_file_is_read_in_its_encoding_with_a_warning(server: Running
                                                                       ) -> None:
    text = "@book{sorensen2017, author = {Sørensen, Åse}, title = {Øresund}, year = 2017}\n"
    answer = post(server, "/api/load", {"name": "old.bib",
                                        "data": b64(text.encode("latin-1"))}).json()
    assert answer == {"added": 1, "problems": [
        ("old.bib:1: warning: not UTF-8 (byte 0xf8); reading as cp1252 (name another "
        "encoding with --encoding)")]}
    assert titles(server, "oresund") == [("sorensen2017", "Øresund", "old.bib")]


def test_dropped_data_that_is_not_base64_is_refused(server: Running) -> None:
    answer = post(server, "/api/load", {"name": "x.bib", "data": "@book{x,}"})
    assert (answer.status_code, answer.json()) == (400, {
        "error": "x.bib: the data is not base64"})


def test_a_dropped_file_of_no_known_format_is_an_error_naming_it(server: Running) -> None:
    import io
    import zipfile

    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("refs.bib", UPLOAD)
    answer = post(server, "/api/load", {"name": "refs.zip", "data": b64(packed.getvalue())})
    assert (answer.status_code, answer.json()) == (400, {
        "error": "refs.zip: binary data (NUL byte at offset 5): not a text file"})
    assert len(server.served.library.entries) == 3


def test_a_loaded_key_already_taken_is_made_unique(server: Running) -> None:
    text = "@book{lindqvist2018, title = {Another Book}, year = 2019}\n"
    post(server, "/api/load", {"name": "more.bib", "text": text})
    assert [entry["key"] for entry in get(server, "/api/entries").json()["entries"]] == [
        "hartmann2021", "lindqvist2018", "hostile", "lindqvist2018a"]


def test_problems_of_loaded_text_are_reported(server: Running) -> None:
    answer = post(server, "/api/load", {"name": "broken.bib",
                                        "text": "@book{cut, title = {Cut Short}\n"}).json()
    assert answer == {"added": 1, "problems": [
        ("broken.bib:1: error: broken entry: the entry is never closed (missing '}'); the 1 "
        "field(s) before it are read, as BibTeX reads them")]}


def test_text_of_no_known_format_is_an_error(server: Running) -> None:
    answer = post(server, "/api/load", {"name": "notes.txt", "text": "just some words\n"})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("notes.txt: ")


def test_a_listing_gives_the_first_records_and_counts_them_all(server: Running) -> None:
    listed = get(server, "/api/entries?limit=2").json()
    assert ([entry["key"] for entry in listed["entries"]], listed["total"]) == (
        ["hartmann2021", "lindqvist2018"], 3)


def test_remove_all_records(server: Running) -> None:
    assert post(server, "/api/clear", {}).json() == {"ok": True}
    assert get(server, "/api/entries").json() == {"entries": [], "total": 0}


def test_style_search(server: Running) -> None:
    found = get(server, "/api/styles?q=ieee%20access").json()
    assert found == {"styles": [{"name": "ieee-access", "title": "IEEE Access"}], "more": 0}


def test_preview_in_a_style(server: Running) -> None:
    answer = get(server, "/api/preview?style=ieee&output=text&keys=lindqvist2018").json()
    assert answer == {"output": "text", "shown": 1, "total": 1,
                      "text": "[1] M. Lindqvist, Salt and Silt. Aarhus: Nordhavn Press, 2018.\n"}


def test_a_preview_of_every_record_formats_the_first_ones(server: Running,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    from refbridge.serve import app

    monkeypatch.setattr(app, "PREVIEWED", 1)
    answer = get(server, "/api/preview?style=apa&output=text").json()
    assert answer == {"output": "text", "shown": 1, "total": 3, "text": (
        "Hartmann, I., & Okafor, C. (2021). Tidal Mixing in Shallow Estuaries. Journal of "
        "Coastal Studies, 14, 201–219. https://doi.org/10.5555/jcs.2021.014\n")}


def test_preview_in_an_unknown_style_is_an_error(server: Running) -> None:
    answer = get(server, "/api/preview?style=no-such-style-anywhere")
    assert answer.status_code == 400
    assert "no-such-style-anywhere" in answer.json()["error"]


def test_every_writer_is_offered(server: Running) -> None:
    from refbridge.registry import writer_names

    listed = [f["name"] for f in get(server, "/api/formats").json()["formats"]]
    assert listed == writer_names()


def test_export_is_a_download_in_the_format_asked_for(server: Running) -> None:
    answer = get(server, "/api/export?format=ris&keys=lindqvist2018")
    assert answer.headers["content-disposition"] == 'attachment; filename="library.ris"'
    assert answer.text == ("TY  - BOOK\nID  - lindqvist2018\nTI  - Salt and Silt\n"
                           "AU  - Lindqvist, Maja\nPY  - 2018\nPB  - Nordhavn Press\n"
                           "CY  - Aarhus\nER  - \n")


@pytest.mark.parametrize(("name", "text"), [
    ("paper.aux", "\\relax\n\\citation{hartmann2021}\n\\citation{nobody1999}\n"),
    ("paper.tex", "As shown \\cite{hartmann2021,nobody1999}.\n"),
])
def test_what_an_uploaded_document_cites(server: Running, name: str, text: str) -> None:
    assert post(server, "/api/cited", {"name": name, "text": text}).json() == {
        "cited": ["hartmann2021", "nobody1999"], "missing": ["nobody1999"],
        "bib": "@article{hartmann2021,\n  author = {Hartmann, Ilse and Okafor, Chidi},\n"
               "  title = {Tidal Mixing in Shallow Estuaries},\n"
               "  journal = {Journal of Coastal Studies},\n  year = {2021},\n"
               "  volume = {14},\n  pages = {201--219},\n  doi = {10.5555/jcs.2021.014},\n}\n"}


def test_an_unknown_api_path_is_not_found(server: Running) -> None:
    assert get(server, "/api/nothing").status_code == 404


def test_cv_preview_with_the_owner_in_bold(server: Running) -> None:
    answer = get(server, "/api/cv?owner=Maja%20Lindqvist&title=Books").json()
    assert answer == {"html": (
        '<section class="cv-publications">\n<h2>Books</h2>\n'
        '<p class="cv-summary">1 publication: 2018 (1)</p>\n<section class="cv-group">\n'
        '<h3>2018 <span class="cv-count">(1)</span></h3>\n<ul class="cv-entries">\n'
        '<li class="cv-entry"><span class="cv-number">[1]</span><div class="cv-body">'
        '<div class="csl-entry"><b>Maja Lindqvist</b>. <i>Salt and Silt</i>. Nordhavn Press, '
        "2018.</div></div></li>\n</ul>\n</section>\n</section>\n")}


def test_cv_download_as_markdown(server: Running) -> None:
    answer = get(server, "/api/cv?owner=Okafor,%20Chidi&to=markdown&since=2020")
    assert answer.headers["content-disposition"] == 'attachment; filename="cv.md"'
    assert answer.text == (
        "## Publications\n\n1 publication: 2021 (1)\n\n### 2021 (1)\n\n"
        "- \\[1\\] Ilse Hartmann and **Chidi Okafor**. Tidal Mixing in Shallow Estuaries. "
        "*Journal of Coastal Studies*, 14, 201–219, 2021. "
        "[DOI](<https://doi.org/10.5555/jcs.2021.014>)\n")


def test_cv_download_as_docx(server: Running) -> None:
    answer = get(server, "/api/cv?all=1&to=docx")
    assert answer.headers["content-type"] == (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    assert answer.headers["content-disposition"] == 'attachment; filename="cv.docx"'
    assert answer.content[:4] == b"PK\x03\x04"


def test_cv_with_an_unknown_option_is_an_error(server: Running) -> None:
    answer = get(server, "/api/cv?sort=loudest")
    assert (answer.status_code, answer.json()) == (400, {
        "error": "unknown --sort 'loudest' (choose from newest, oldest, title)"})


def test_a_look_up_offline_reports_what_is_not_cached(server: Running) -> None:
    answer = post(server, "/api/lookup", {"text": "https://doi.org/10.5555/Unknown.1\n"})
    assert answer.json() == {"added": 0, "problems": [
        ("10.5555/Unknown.1: not found (Crossref: no cached answer for "
        "https://api.crossref.org/works/10.5555%2FUnknown.1 (offline))")]}


def test_a_look_up_of_something_else_says_what_it_takes(server: Running) -> None:
    answer = post(server, "/api/lookup", {"text": "my favourite paper"})
    assert answer.json() == {"added": 0, "problems": [
        ("my favourite paper: not a DOI, an arXiv id or a profile (orcid:..., dblp:..., "
        'openalex:..., s2:..., arxiv-author:"Name")')]}


def test_a_look_up_adds_the_work_a_service_knows(tmp_path: Path,
                                                 no_remote_network: None) -> None:
    from enrich_support import FixtureData, serving

    from refbridge.enrich import EnrichOptions

    with serving(FixtureData("scenarios.atom", "works.json", "works.json")) as services:
        options = EnrichOptions(endpoints=services.endpoints(), cache_dir=tmp_path / "cache",
                                backoff=0.0, intervals={"arxiv": 0.0, "crossref": 0.0,
                                                        "openalex": 0.0})
        with running(tmp_path, services=options) as server:
            answer = post(server, "/api/lookup", {"text": "doi:10.5555/refbridge.elastic"})
            assert answer.json() == {"added": 1, "problems": []}
            listed = get(server, "/api/entries?q=elastic").json()["entries"]
    assert [(entry["title"], entry["origin"]) for entry in listed] == [
        ("Elastic Checkpointing for Distributed Training", "look-up")]


def test_a_pasted_profile_page_adds_its_works(server: Running) -> None:
    from support import SAMPLES

    text = (SAMPLES / "qinwei-yang.profile.txt").read_text(encoding="utf-8")
    assert post(server, "/api/load", {"name": "pasted", "text": text}).json() == {
        "added": 9, "problems": []}
    listed = get(server, "/api/entries?q=smartann").json()["entries"]
    assert [(entry["key"], entry["year"], entry["origin"]) for entry in listed] == [
        ("yang2026smartann", "2026", "pasted")]


def test_the_command_fails_in_one_line_for_a_library_it_cannot_read(tmp_path: Path) -> None:
    from support import run_cli

    missing = tmp_path / "missing.bib"
    code, out, err = run_cli("serve", "--library", str(missing), "--port", "0", "--no-browser")
    assert (code, out, err) == (
        1, "", f"refbridge: error: {missing}: cannot open: No such file or directory\n")


def test_the_command_fails_in_one_line_for_a_port_in_use(server: Running) -> None:
    from support import run_cli

    code, out, err = run_cli("serve", "--port", str(server.served.port), "--no-browser")
    assert (code, out, err) == (
        1, "", (f"refbridge: error: cannot listen on 127.0.0.1:{server.served.port}: Address "
               "already in use (is Zotero or another server running? choose --port)\n"))
