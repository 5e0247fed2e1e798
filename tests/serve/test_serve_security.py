"""Who may ask ``refbridge serve``: it listens on 127.0.0.1 only; refuses a ``Host`` that is
no loopback name (DNS rebinding) and a POST from another site; the app needs the run's token,
Better BibTeX's endpoints do not; record text never becomes markup; uploads are never files
outside a private temporary folder."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_support import Running, running

from refbridge.serve.guard import host_allowed, origin_allowed
from refbridge.serve.server import make_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    with running(tmp_path) as state:
        yield state


PROBE = "/better-bibtex/cayw?probe=1"
READY = {"jsonrpc": "2.0", "method": "api.ready", "id": 1}


def test_the_server_listens_on_the_loopback_address_only(server: Running) -> None:
    from refbridge.serve.server import Served

    made = make_server(Served(server.served.library, print), 0)
    try:
        assert made.server_address[0] == "127.0.0.1"
    finally:
        made.server_close()


def test_the_default_port_is_better_bibtexs() -> None:
    from refbridge.serve.server import DEFAULT_PORT

    assert DEFAULT_PORT == 23119


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "127.0.0.1:23119", "[::1]:23119",
                                  "LOCALHOST:80", "127.3.4.5"])
def test_loopback_hosts_are_allowed(host: str) -> None:
    assert host_allowed(host)


@pytest.mark.parametrize("host", [None, "", "evil.example", "evil.example:23119",
                                  "127.0.0.1.evil.example", "localhost.evil.example",
                                  "192.168.1.5", "[::1]:port", "0.0.0.0"])
def test_other_hosts_are_refused(host: str | None) -> None:
    assert not host_allowed(host)


@pytest.mark.parametrize("path", [PROBE, "/", "/api/entries", "/static/app.js"])
def test_a_request_for_another_host_name_is_refused(server: Running, path: str) -> None:
    answer = httpx.get(server.base + path + ("&" if "?" in path else "?")
                       + f"token={server.served.token}",
                       headers={"Host": f"rebound.example:{server.served.port}"})
    assert (answer.status_code, answer.text) == (403, "forbidden\n")


def test_a_json_rpc_call_for_another_host_name_is_refused(server: Running) -> None:
    answer = httpx.post(server.base + "/better-bibtex/json-rpc", json=READY,
                        headers={"Host": "rebound.example"})
    assert answer.status_code == 403


def test_a_posted_pick_for_another_host_name_is_refused(server: Running) -> None:
    answer = httpx.post(server.base + "/better-bibtex/cayw", json={"format": "pandoc"},
                        headers={"Host": "rebound.example"})
    assert (answer.status_code, answer.text, server.opened) == (403, "forbidden\n", [])


@pytest.mark.parametrize("origin", ["http://evil.example", "null"])
def test_a_posted_pick_from_another_origin_opens_no_picker(server: Running, origin: str
                                                          ) -> None:
    answer = httpx.post(server.base + "/better-bibtex/cayw", json={"format": "pandoc"},
                        headers={"Origin": origin})
    assert (answer.status_code, answer.text, server.opened) == (403, "forbidden\n", [])


def raw(server: Running, request: bytes) -> bytes:
    """What the server answers ``request`` sent as it is, read until it closes."""
    with socket.create_connection(("127.0.0.1", server.served.port), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_a_request_without_a_host_is_refused(server: Running) -> None:
    answer = raw(server, b"GET /better-bibtex/cayw?probe=1 HTTP/1.0\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 403 ")


def test_localhost_by_name_is_answered(server: Running) -> None:
    answer = httpx.get(server.base + PROBE, headers={"Host": f"localhost:{server.served.port}"})
    assert (answer.status_code, answer.text) == (200, "ready")


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "https://127.0.0.1:{port}",
                                    "http://127.0.0.1:1", "http://rebound.example:{port}"])
def test_a_post_from_another_origin_is_refused(server: Running, origin: str) -> None:
    answer = httpx.post(server.base + "/better-bibtex/json-rpc", json=READY,
                        headers={"Origin": origin.format(port=server.served.port)})
    assert answer.status_code == 403


def test_a_post_from_another_origin_is_refused_even_with_the_token(server: Running) -> None:
    answer = httpx.post(server.base + "/api/clear", json={},
                        headers={**server.token, "Origin": "http://evil.example"})
    assert answer.status_code == 403
    assert len(server.served.library.entries) == 3


@pytest.mark.parametrize("origin", [None, "http://127.0.0.1:{port}", "http://localhost:{port}"])
def test_a_post_from_no_origin_or_the_servers_own_is_answered(server: Running,
                                                              origin: str | None) -> None:
    headers = {} if origin is None else {"Origin": origin.format(port=server.served.port)}
    answer = httpx.post(server.base + "/better-bibtex/json-rpc", json=READY, headers=headers)
    assert answer.status_code == 200


def test_origin_check_of_a_malformed_origin() -> None:
    assert not origin_allowed("http://127.0.0.1:notaport", 23119)


@pytest.mark.parametrize("path", ["/", "/api/entries", "/api/export?format=bibtex",
                                  "/pick/anything"])
def test_the_app_needs_the_token(server: Running, path: str) -> None:
    assert httpx.get(server.base + path).status_code == 403
    wrong = httpx.get(server.base + path, headers={"X-Refbridge-Token": "guess"})
    assert wrong.status_code == 403


def test_the_apps_posts_need_the_token(server: Running) -> None:
    answer = httpx.post(server.base + "/api/load", json={"name": "x.bib", "text": "@misc{x,}"})
    assert answer.status_code == 403
    assert len(server.served.library.entries) == 3


def test_better_bibtexs_endpoints_need_no_token(server: Running) -> None:
    assert httpx.get(server.base + PROBE).text == "ready"
    answer = httpx.post(server.base + "/better-bibtex/json-rpc", json=READY)
    assert "result" in answer.json()


def test_a_pick_cannot_be_answered_without_the_token(server: Running) -> None:
    import threading

    answers: list[httpx.Response] = []
    waiting = threading.Thread(target=lambda: answers.append(
        httpx.get(f"{server.base}/better-bibtex/cayw?format=latex", timeout=30)))
    waiting.start()
    page = server.next_opened()
    forged = httpx.post(page.split("?")[0], json={"citations": [{"key": "hostile"}]})
    assert forged.status_code == 403
    httpx.post(page.split("?")[0], json={"citations": [{"key": "lindqvist2018"}]},
               headers=server.token)
    waiting.join(30)
    assert answers[0].text == r"\cite{lindqvist2018}"


def test_pages_run_only_the_servers_own_scripts(server: Running) -> None:
    answer = httpx.get(server.served.address())
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "default-src 'none'" in policy
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


def test_a_title_that_is_a_script_is_text_in_the_list(server: Running) -> None:
    listed = httpx.get(server.base + "/api/entries?q=mallory", headers=server.token)
    assert listed.headers["content-type"] == "application/json; charset=utf-8"
    assert listed.json()["entries"][0]["title"] == "<script>alert(1)</script>"
    assert "<script>alert" not in httpx.get(server.served.address()).text


def test_a_title_that_is_a_script_is_escaped_in_the_preview(server: Running) -> None:
    preview = httpx.get(server.base + "/api/preview?style=apa&output=html&keys=hostile",
                        headers=server.token).json()["text"]
    assert preview == ('<div class="csl-bib-body">\n  <div class="csl-entry">Mallory, E. '
                       "(2020). <i>&#60;script&#62;alert(1)&#60;/script&#62;</i>.</div>\n"
                       "</div>\n")


def test_a_title_that_is_a_script_is_plain_text_from_cayw(server: Running) -> None:
    answer = server.cayw("format=formatted-bibliography", [{"key": "hostile"}])
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_scripts_do_not_set_record_text_as_markup() -> None:
    from refbridge.serve.pages import SCRIPTS

    setting_markup = [line.strip() for script in SCRIPTS.values()
                      for line in script.splitlines() if "innerHTML" in line]
    assert setting_markup == ["document.getElementById('preview').innerHTML = answer.text;",
                              "document.getElementById('cv-preview').innerHTML = answer.html;"]


def test_an_upload_named_as_a_path_writes_no_file(server: Running, tmp_path: Path) -> None:
    target = tmp_path / "planted.aux"
    answer = httpx.post(server.base + "/api/cited", headers=server.token, json={
        "name": str(target), "text": "\\citation{hostile}\n"})
    assert answer.json()["cited"] == ["hostile"]
    assert not target.exists()
    loaded = httpx.post(server.base + "/api/load", headers=server.token, json={
        "name": str(tmp_path / "planted.bib"), "text": "@misc{planted, title = {P}}\n"})
    assert loaded.json()["added"] == 1
    assert sorted(os.listdir(tmp_path)) == ["library.bib"]


def test_the_command_listens_on_127_0_0_1_and_prints_the_apps_address(tmp_path: Path
                                                                       ) -> None:
    import re
    import subprocess
    import sys

    library = tmp_path / "library.bib"
    library.write_text("@misc{solo2022, title = {Alone}, year = 2022}\n", encoding="utf-8")
    command = subprocess.Popen(
        [sys.executable, "-m", "refbridge", "serve", "--library", str(library), "--port", "0",
         "--no-browser"], stderr=subprocess.PIPE, text=True)
    try:
        assert command.stderr is not None
        line = command.stderr.readline()
        found = re.search(r"the app at (http://127\.0\.0\.1:(\d+)/\?token=\S+)", line)
        assert found, line
        assert line.startswith("refbridge: serving 1 records; ")
        assert httpx.get(found.group(1)).status_code == 200
        base = f"http://127.0.0.1:{found.group(2)}"
        assert httpx.get(base + "/").status_code == 403
        assert httpx.get(base + PROBE).text == "ready"
    finally:
        command.terminate()
        command.wait(10)


def test_a_malformed_length_is_refused_and_the_server_goes_on(server: Running) -> None:
    answer = raw(server, b"POST /better-bibtex/json-rpc HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Length: -5\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert b'{"error": "Content-Length \'-5\' is not a length"}' in answer
    assert httpx.get(server.base + PROBE).text == "ready"


def test_a_body_too_large_is_refused_unread(server: Running) -> None:
    from refbridge.serve.server import MAX_BODY

    answer = raw(server, b"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 + f"X-Refbridge-Token: {server.served.token}\r\n".encode()
                 + f"Content-Length: {MAX_BODY + 1}\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert b"the request is larger than 64 MB" in answer


def test_a_title_that_is_a_script_is_escaped_in_the_cv_preview(server: Running) -> None:
    preview = httpx.get(server.base + "/api/cv?owner=Eve%20Mallory", headers=server.token
                        ).json()["html"]
    assert "<b>Eve Mallory</b>. &#60;script&#62;alert(1)&#60;/script&#62;. 2020." in preview
    assert "<script>" not in preview
