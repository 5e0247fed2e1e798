"""The one HTTP policy of every service (``services.retrying`` through
``services.http`` and the Zotero client): a byte limit counted after decompression, a deadline
on the whole answer, redirects only within the host asked, HTTPS by default, and a service's
JSON read in one place.

Every server here listens on 127.0.0.1 and answers as a misbehaving service would.
"""

from __future__ import annotations

import gc
import socket
import struct
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import records_of, running
from verify_support import verify_services, write_library

from refbridge.cli import main
from refbridge.services import crossref
from refbridge.services.errors import OfflineError, ServiceError
from refbridge.services.http import PoliteClient
from refbridge.services.retrying import MAX_ANSWER_BYTES
from refbridge.services.settings import SERVICE_ENDPOINTS, ClientOptions, endpoint
from refbridge.verify.run import verify_records
from refbridge.verify.settings import VerifyOptions

pytestmark = pytest.mark.usefixtures("no_remote_network")

Route = Callable[["Handler"], None]


class Handler(BaseHTTPRequestHandler):
    server: MisbehavingServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        return

    def do_GET(self) -> None:
        self.server.log.append(self.path)
        route = next((r for prefix, r in self.server.routes.items()
                      if self.path.startswith(prefix)), None)
        if route is None:
            self.send(404, b"no such route")
            return
        route(self)

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.do_GET()

    def send(self, status: int, body: bytes, content_type: str = "application/json",
             **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)


class MisbehavingServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes: dict[str, Route] = {}
        self.log: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


@pytest.fixture
def server() -> Iterator[MisbehavingServer]:
    with running(MisbehavingServer()) as serving:
        yield serving


def gzip_bomb(megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros, gzipped (about a thousandth of it): one MiB deflated once,
    its block repeated (a full flush makes each block stand alone; compressing the whole
    answer cost seconds of CPU)."""
    mebibyte = bytes(1 << 20)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = deflate.compress(mebibyte) + deflate.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(megabytes):
        crc = zlib.crc32(mebibyte, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # no name, no time, best compression
    trailer = struct.pack("<II", crc, (megabytes << 20) & 0xFFFFFFFF)
    return header + block * megabytes + deflate.flush() + trailer


def bomb_route(megabytes: int) -> Route:
    body = gzip_bomb(megabytes)
    return lambda handler: handler.send(200, body, Content_Encoding="gzip")


def client(server: MisbehavingServer, **changes: object) -> PoliteClient:
    settings: dict[str, object] = {"retries": 0, "intervals": dict.fromkeys(SERVICE_ENDPOINTS,
                                                                            0.0), **changes}
    return PoliteClient(ClientOptions(**settings), None)  # type: ignore[arg-type]


# -- the byte limit --------------------------------------------------------------------------
def test_the_default_limit_of_an_answer_is_32_mib() -> None:
    assert ClientOptions().max_bytes == MAX_ANSWER_BYTES == 32 * 1024 * 1024


def test_a_gzip_bomb_stops_at_the_limit_counted_after_decompression(
        server: MisbehavingServer) -> None:
    server.routes["/works"] = bomb_route(512)
    asking = client(server, max_bytes=4 << 20)
    gc.disable()  # what the refused answer held is freed at once, not by the collector
    tracemalloc.start()
    try:
        with pytest.raises(ServiceError) as raised:
            asking.get("crossref", f"{server.url}/works/10.5555/bomb")
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        gc.enable()
    assert str(raised.value) == (
        f"Crossref at 127.0.0.1:{server.server_address[1]}: an answer larger than 4 MiB (the "
        f"limit); not read further: {server.url}/works/10.5555/bomb")
    assert peak < 200 << 20  # the 512 MiB answer is never held
    assert held < 8 << 20


def test_enrich_refuses_a_bomb_beyond_the_default_limit_in_one_line(
        server: MisbehavingServer, tmp_path: Path) -> None:
    server.routes["/crossref"] = bomb_route(40)
    library = tmp_path / "refs.bib"
    library.write_text("@article{ada, title = {On Analytical Engines}, author = {Lovelace, "
                       "Ada}}\n", encoding="utf-8")
    result = CliRunner().invoke(main, [
        "convert", str(library), "--to", "bibtex", "--enrich", "--services", "crossref",
        "--no-cache", "--retries", "0", "--timeout", "120",  # the limit, not the deadline, stops it
        "--crossref-api", f"{server.url}/crossref"],
        env={"REFBRIDGE_REQUEST_INTERVAL": "0"})
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith(
        f"refbridge: error: Crossref at 127.0.0.1:{server.server_address[1]}: an answer "
        f"larger than 32 MiB (the limit); not read further: {server.url}/crossref/works?")


# -- the deadline ----------------------------------------------------------------------------
def drip(handler: Handler) -> None:
    """A byte every 0.3 seconds, forever (as long as the client listens)."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", "1000")
    handler.end_headers()
    try:
        for _ in range(1000):
            handler.wfile.write(b" ")
            handler.wfile.flush()
            time.sleep(0.3)
    except OSError:
        return


def test_a_server_sending_a_byte_now_and_then_is_cut_at_the_deadline(
        server: MisbehavingServer) -> None:
    server.routes["/works"] = drip
    asking = client(server, timeout=1.0)
    started = time.monotonic()
    with pytest.raises(OfflineError, match=r"cannot reach Crossref at 127\.0\.0\.1:\d+ \(no "
                                           r"complete answer within 1 s\)"):
        asking.get("crossref", f"{server.url}/works/10.5555/slow")
    assert time.monotonic() - started < 1.5


def test_a_host_found_unreachable_is_not_asked_again(server: MisbehavingServer) -> None:
    server.routes["/works"] = drip
    asking = client(server, timeout=1.0)
    for _ in range(2):
        with pytest.raises(OfflineError):
            asking.get("crossref", f"{server.url}/works/10.5555/slow")
    assert server.log == ["/works/10.5555/slow"]
    assert list(asking.unreachable) == ["crossref"]


# -- redirects ---------------------------------------------------------------------------------
def redirect_to(location: Callable[[Handler], str]) -> Route:
    return lambda handler: handler.send(302, b"", Location=location(handler))


def test_a_redirect_to_another_host_is_refused_naming_that_host(
        server: MisbehavingServer) -> None:
    port = server.server_address[1]
    server.routes["/works"] = redirect_to(lambda h: f"http://localhost:{port}/elsewhere")
    with pytest.raises(ServiceError) as raised:
        client(server).get("crossref", f"{server.url}/works/10.5555/moved")
    assert str(raised.value) == (
        f"Crossref at 127.0.0.1:{port}: redirected to localhost:{port}, which is not followed "
        "(redirects are followed within the host asked only): "
        f"{server.url}/works/10.5555/moved")
    assert server.log == ["/works/10.5555/moved"]


def test_a_redirect_within_the_host_is_followed(server: MisbehavingServer) -> None:
    server.routes["/works"] = redirect_to(lambda h: "/moved/10.5555/here")
    server.routes["/moved"] = lambda handler: handler.send(200, b'{"status": "ok"}')
    answer = client(server).get("crossref", f"{server.url}/works/10.5555/here")
    assert (answer.status, answer.json()) == (200, {"status": "ok"})


def test_a_redirect_loop_is_a_one_line_error(server: MisbehavingServer) -> None:
    server.routes["/works"] = redirect_to(lambda h: h.path)
    with pytest.raises(ServiceError, match=r"^Crossref at 127\.0\.0\.1:\d+: redirected more "
                                           r"than 5 times \(a redirect loop\?\)"):
        client(server).get("crossref", f"{server.url}/works/10.5555/loop")
    assert len(server.log) == 6


def test_verify_reports_a_redirect_loop_for_each_entry_and_goes_on(
        server: MisbehavingServer, tmp_path: Path) -> None:
    server.routes["/crossref"] = redirect_to(lambda h: h.path)
    with verify_services() as services:
        options = VerifyOptions(
            endpoints={**services.endpoints(), "crossref": f"{server.url}/crossref"},
            use_cache=False, retries=0, intervals=dict.fromkeys(SERVICE_ENDPOINTS, 0.0))
        run = verify_records(records_of(write_library(tmp_path)), options)
    verdicts = {v.record.citation_key: v for v in run.verdicts}
    assert len(verdicts) == 8
    assert verdicts["lin2022index"].findings[0].message.startswith(
        "Crossref (DOI 10.1145/3514221.3517850): failed: Crossref at 127.0.0.1:")
    assert "redirected more than 5 times" in verdicts["lin2022index"].findings[0].message
    assert verdicts["silva2023roads"].status == "verified"  # DataCite still asked


# -- HTTPS ---------------------------------------------------------------------------------------
def test_every_service_is_asked_over_https_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable, _ in SERVICE_ENDPOINTS.values():
        monkeypatch.delenv(variable, raising=False)
    assert {service: endpoint(service).split("://")[0] for service in SERVICE_ENDPOINTS} == \
        dict.fromkeys(SERVICE_ENDPOINTS, "https")


# -- a service's JSON ----------------------------------------------------------------------------
@pytest.mark.parametrize(("body", "problem"), [
    (b'{"message": ', "the answer is not valid JSON (Expecting value)"),
    (b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
     "the answer is not valid JSON (nested too deeply)"),
    (b'{"message-type": "work", "message": [1, 2]}', "the answer has no work message"),
])
def test_broken_service_json_is_a_service_error_naming_service_and_request(
        server: MisbehavingServer, body: bytes, problem: str) -> None:
    server.routes["/works"] = lambda handler: handler.send(200, body)
    with pytest.raises(ServiceError) as raised:
        crossref.by_doi(client(server), server.url, "10.5555/broken", None)
    url = f"{server.url}/works/10.5555%2Fbroken"
    assert str(raised.value) == f"Crossref ({url}): {problem}"


def test_verify_reports_deeply_nested_json_for_the_entry_and_goes_on(
        server: MisbehavingServer, tmp_path: Path) -> None:
    server.routes["/crossref"] = lambda handler: handler.send(
        200, b'{"a":' * 100_000 + b"1" + b"}" * 100_000)
    with verify_services() as services:
        options = VerifyOptions(
            endpoints={**services.endpoints(), "crossref": f"{server.url}/crossref"},
            use_cache=False, retries=0, intervals=dict.fromkeys(SERVICE_ENDPOINTS, 0.0))
        run = verify_records(records_of(write_library(tmp_path)), options)
    first = run.verdicts[0].findings[0]
    assert (first.code, first.message.endswith("the answer is not valid JSON (nested too "
                                               "deeply)")) == ("unreachable", True)
    assert len(run.verdicts) == 8


# -- Zotero --------------------------------------------------------------------------------------
def test_zotero_web_api_answering_broken_json_is_a_one_line_error(
        server: MisbehavingServer, tmp_path: Path) -> None:
    server.routes["/users/1/items"] = lambda handler: handler.send(
        200, b"<html>maintenance</html>", Last_Modified_Version="5")
    result = CliRunner().invoke(main, [
        "pull", "--from", "zotero-web", "--library", "user:1", "--zotero-url", server.url,
        "--to", "bibtex"], env={"ZOTERO_API_KEY": "WRITEKEY1234",
                                "REFBRIDGE_CACHE_DIR": str(tmp_path / "cache")})
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        (f"refbridge: error: the Zotero Web API at 127.0.0.1:{server.server_address[1]}, while "
         "listing the library's items: the answer is not valid JSON (Expecting value)")]


def test_zotero_web_api_answering_wrongly_shaped_items_is_a_one_line_error(
        server: MisbehavingServer, tmp_path: Path) -> None:
    server.routes["/users/1/items"] = lambda handler: handler.send(
        200, b'{"ABCD2345": "seven"}', Last_Modified_Version="5")
    result = CliRunner().invoke(main, [
        "pull", "--from", "zotero-web", "--library", "user:1", "--zotero-url", server.url,
        "--to", "bibtex"], env={"ZOTERO_API_KEY": "WRITEKEY1234",
                                "REFBRIDGE_CACHE_DIR": str(tmp_path / "cache")})
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        (f"refbridge: error: the Zotero Web API at 127.0.0.1:{server.server_address[1]}, while "
         "listing the library's items: a version is not a number")]


def test_zotero_desktop_connector_answering_wrongly_shaped_json_is_a_one_line_error(
        server: MisbehavingServer, tmp_path: Path) -> None:
    server.routes["/connector/ping"] = lambda handler: handler.send(200, b"", "text/plain")
    server.routes["/connector/getSelectedCollection"] = lambda handler: handler.send(
        200, b"[1, 2, 3]")
    library = tmp_path / "refs.bib"
    library.write_text("@book{ada, title = {Notes}, author = {Lovelace, Ada}, year = 1843}\n",
                       encoding="utf-8")
    result = CliRunner().invoke(main, [
        "push", str(library), "--to", "zotero-desktop", "--zotero-url", server.url],
        env={"REFBRIDGE_CACHE_DIR": str(tmp_path / "cache")})
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        f"refbridge: error: Zotero at {server.url}, while asking Zotero for its collections: "
        "the answer is JSON but not an object")


def test_an_upgrade_to_https_on_the_same_host_is_followed_and_named_when_it_fails(
        server: MisbehavingServer) -> None:
    port = server.server_address[1]
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        https_port = closed.getsockname()[1]
    server.routes["/works"] = redirect_to(lambda h: f"https://127.0.0.1/{h.path}")
    server.routes["/other-port"] = redirect_to(
        lambda h: f"https://127.0.0.1:{https_port}/{h.path}")
    with pytest.raises(OfflineError, match=rf"^cannot reach Crossref at 127\.0\.0\.1:{port} "
                                           r"\(.* at 127\.0\.0\.1:443, where it redirected\)"):
        client(server).get("crossref", f"{server.url}/works/10.5555/upgraded")
    with pytest.raises(ServiceError, match=rf"redirected to 127\.0\.0\.1:{https_port}, which "
                                           r"is not followed"):
        client(server).get("crossref", f"{server.url}/other-port/10.5555/upgraded")


def test_fetch_of_deeply_nested_json_is_a_one_line_error(server: MisbehavingServer,
                                                         tmp_path: Path) -> None:
    server.routes["/works"] = lambda handler: handler.send(
        200, b'{"a":' * 100_000 + b"1" + b"}" * 100_000)
    result = CliRunner().invoke(main, ["fetch", "openalex:A5025692314", "--no-cache"],
                                env={"REFBRIDGE_OPENALEX_API": server.url,
                                     "REFBRIDGE_REQUEST_INTERVAL": "0"})
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        (f"refbridge: error: {server.url}/works:1: not OpenAlex works: nested too deeply or a "
         "number too long")]


def test_zotero_local_api_answering_broken_json_is_a_one_line_error(
        server: MisbehavingServer, tmp_path: Path) -> None:
    server.routes["/api/"] = lambda handler: handler.send(200, b"[{]")
    result = CliRunner().invoke(main, [
        "pull", "--from", "zotero-desktop", "--zotero-url", server.url, "--to", "bibtex"],
        env={"REFBRIDGE_CACHE_DIR": str(tmp_path / "cache")})
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        (f"refbridge: error: Zotero at {server.url}, while reading the library's items: the "
         "answer is not valid JSON (Expecting property name enclosed in double quotes)")]
