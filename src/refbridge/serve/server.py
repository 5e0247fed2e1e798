"""The HTTP server of ``refbridge serve``: Better BibTeX's endpoints, the picker and the local
app, on 127.0.0.1 only.

It is the standard library's ``http.server`` (a thread per request): the server answers one
user on one machine, a waiting pick holds one thread, and no dependency is worth adding for
that. Every request passes ``guard``'s checks first (loopback ``Host``; a POST from no other
site; the run's token for all but Better BibTeX's endpoints and the static scripts). Every
answer is sent with ``nosniff``, ``no-store`` and no referrer; pages with a content security
policy that runs only the server's own scripts. This module must never listen on another
address, serve a file from disk, nor put record text into a page (the pages' scripts set it
as text).
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.serve import app, cayw, guard, jsonrpc, pages
from refbridge.serve.autoexport import AutoExports
from refbridge.serve.collections import Collections
from refbridge.serve.library import Library
from refbridge.serve.picks import PICK_TIMEOUT, Picks
from refbridge.serve.state import ServeState

if TYPE_CHECKING:
    from refbridge.enrich import EnrichOptions

#: The only address the server listens on.
HOST = "127.0.0.1"
#: Better BibTeX's port (Zotero's): editors call it there.
DEFAULT_PORT = 23119
#: The largest request body taken (an uploaded library), in bytes.
MAX_BODY = 64 << 20
#: The headers of every answer.
COMMON_HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
                  "Referrer-Policy": "no-referrer"}
#: The content security policy of the pages: only the server's own scripts run.
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
               "img-src 'self' data:; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'")


@dataclass(slots=True)
class Served:
    """What the server serves: the library, the waiting picks, the run's token, and how a
    pick's page is opened (a web browser; tests fetch it themselves), and how the app's
    look-ups ask the services (None: the polite defaults, with the cache)."""

    library: Library
    opener: Callable[[str], object]
    services: EnrichOptions | None = None
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    picks: Picks = field(default_factory=Picks)
    pick_timeout: float = PICK_TIMEOUT
    port: int = 0
    #: where the problems of re-reading a changed library go (one line each)
    report: Callable[[str], object] = lambda line: None
    #: the file that keeps the collections and auto-exports between runs (None: kept for
    #: this run only)
    state_file: Path | None = None
    #: the library with its collections and auto-exports, as the JSON-RPC methods see it
    shelf: jsonrpc.Shelf = field(init=False)
    state: ServeState | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        def report(line: str) -> None:
            self.report(line)

        collections = Collections(self.library, report)
        autoexports = AutoExports(self.library, collections, report)
        if self.state_file is not None:
            self.state = ServeState(self.state_file, self.library.paths, collections,
                                    autoexports, report)
        self.shelf = jsonrpc.Shelf(self.library, collections, autoexports,
                                   self.state.save if self.state else lambda: None)

    def restore(self) -> None:
        """Make again what the state file kept of earlier runs (nothing without one)."""
        if self.state is not None:
            self.state.restore()

    def address(self, path: str = "/") -> str:
        """The address of a page with the token in it."""
        return f"http://{HOST}:{self.port}{path}?token={quote(self.token)}"


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: bytes
    content_type: str
    headers: Mapping[str, str] = field(default_factory=dict)


def text(body: str, status: int = HTTPStatus.OK, content_type: str = "text/plain") -> Answer:
    return Answer(status, body.encode("utf-8"), f"{content_type}; charset=utf-8")


def as_json(value: Any, status: int = HTTPStatus.OK) -> Answer:
    return Answer(status, json.dumps(value, ensure_ascii=False).encode("utf-8"),
                  "application/json; charset=utf-8")


def page(html: str) -> Answer:
    return Answer(HTTPStatus.OK, html.encode("utf-8"), "text/html; charset=utf-8",
                  {"Content-Security-Policy": PAGE_POLICY})


FORBIDDEN = text("forbidden\n", HTTPStatus.FORBIDDEN)
NOT_FOUND = text("not found\n", HTTPStatus.NOT_FOUND)


def _options(query: Mapping[str, list[str]]) -> dict[str, str]:
    return {name: values[-1] for name, values in query.items()}


def cayw_answer(served: Served, options: Mapping[str, str], state: Any = None,
                posted: bool = False) -> Answer:
    """``/better-bibtex/cayw``: ``ready`` for a probe, else the picker opened, the pick
    awaited and formatted: as text for a GET; for a POST, Better BibTeX's JSON
    ``{"state", "pick", "output"}`` (``output`` the text a GET answers, ``state`` the
    document state sent, kept as it is)."""
    if options.get("probe"):
        return text("ready")
    try:
        cayw.check_request(options)
        citations: list[cayw.Citation] = []
        if not options.get("selected"):  # no selection outside Zotero: an empty pick
            pick = served.picks.open()
            served.opener(served.address(f"/pick/{pick.id}"))
            citations = served.picks.wait(pick, served.pick_timeout)
        output = cayw.format_pick(citations, options, served.library)
        if posted:
            return as_json({"state": state if state is not None else {},
                            "pick": cayw.pick_results(citations, served.library),
                            "output": output})
        return text(output)
    except RefbridgeError as exc:
        return text(f"CAYW failed: {exc}", HTTPStatus.BAD_REQUEST)


def posted_cayw_options(body: bytes, content_type: str | None,
                        query: Mapping[str, list[str]]) -> tuple[dict[str, str], Any]:
    """A POST's options and document state: its JSON object's members, then the query's
    (which win, as in Better BibTeX); ``true`` is ``"true"``, ``false`` and ``null`` are
    left out (Better BibTeX reads them as not given)."""
    given: Any = {}
    if body.strip():
        if (content_type or "").split(";")[0].strip().lower() != "application/json":
            raise cayw.CaywError("the request body must be application/json")
        try:
            given = json.loads(body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise cayw.CaywError(f"the request body is not JSON: {exc}") from None
        if not isinstance(given, dict):
            raise cayw.CaywError("the request body is not a JSON object")
    state = given.pop("state", None)
    options: dict[str, str] = {}
    for name, value in given.items():
        if value is None or value is False:
            continue
        if isinstance(value, (dict, list)):
            raise cayw.CaywError(f"option {name!r} must be a string, a number or a boolean")
        options[name] = "true" if value is True else str(value)
    return {**options, **_options(query)}, state


def pick_answer(served: Served, pick_id: str, body: bytes) -> Answer:
    """``POST /pick/ID``: the picker's citations (or ``cancel``) answer the waiting pick."""
    try:
        data = json.loads(body)
        citations = None if data.get("cancel") else [
            cayw.Citation.of(one) for one in data.get("citations", [])]
    except (ValueError, AttributeError, TypeError, RefbridgeError) as exc:
        return as_json({"error": f"not a pick: {exc}"}, HTTPStatus.BAD_REQUEST)
    if citations is not None:
        unknown = [c.key for c in citations if served.library.by_key(c.key) is None]
        if unknown:
            return as_json({"error": f"no record has the key {unknown[0]!r}"},
                           HTTPStatus.BAD_REQUEST)
    if not served.picks.answer(pick_id, citations):
        return as_json({"error": "no such pick is waiting"}, HTTPStatus.NOT_FOUND)
    return as_json({"ok": True})


class Handler(BaseHTTPRequestHandler):
    """One request: checked by ``guard``, then routed."""

    served: Served
    server_version = "refbridge"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged (their addresses carry the token)."""

    def do_GET(self) -> None:
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")

    def _answer(self, method: str) -> None:
        try:
            answer = self._route(method)
        except RefbridgeError as exc:
            answer = as_json({"error": str(exc)}, HTTPStatus.BAD_REQUEST)
        except Exception as exc:  # noqa: BLE001 -- a bug fails its request, not the server
            answer = as_json({"error": f"internal error: {type(exc).__name__}: {exc}"},
                             HTTPStatus.INTERNAL_SERVER_ERROR)
        if answer.status >= HTTPStatus.BAD_REQUEST:
            self.close_connection = True  # a body may be left unread
        self._send(answer)

    def _body(self) -> bytes:
        given = self.headers.get("Content-Length") or "0"
        if not given.isdigit():
            raise RefbridgeError(f"Content-Length {given!r} is not a length")
        length = int(given)
        if length > MAX_BODY:
            raise RefbridgeError(f"the request is larger than {MAX_BODY >> 20} MB")
        return self.rfile.read(length) if length > 0 else b""

    def _route(self, method: str) -> Answer:
        served = self.served
        if not guard.host_allowed(self.headers.get("Host")):
            return FORBIDDEN
        if method == "POST" and not guard.origin_allowed(self.headers.get("Origin"),
                                                         served.port):
            return FORBIDDEN
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query, keep_blank_values=True)
        if not path.startswith("/static/"):
            diagnostics = Diagnostics()
            served.library.refresh(diagnostics)
            for message in diagnostics.messages:
                served.report(str(message))
        if path == "/better-bibtex/cayw":
            if method == "GET":
                return cayw_answer(served, _options(query))
            try:
                options, state = posted_cayw_options(
                    self._body(), self.headers.get("Content-Type"), query)
            except cayw.CaywError as exc:
                return text(f"CAYW failed: {exc}", HTTPStatus.BAD_REQUEST)
            return cayw_answer(served, options, state, posted=True)
        if path == "/better-bibtex/json-rpc":  # GET: the request is the query (pandoc's
            # zotero.lua asks so); only methods that read
            body = self._body() if method == "POST" else unquote(parts.query).encode("utf-8")
            return as_json(jsonrpc.answer(served.shelf, body, method == "POST"))
        if path in pages.SCRIPTS and method == "GET":
            return text(pages.SCRIPTS[path], content_type="text/javascript")
        if path in pages.STYLESHEETS and method == "GET":
            return text(pages.STYLESHEETS[path], content_type="text/css")
        if not guard.token_given(self.headers.get(guard.TOKEN_HEADER), query,
                                 served.token):
            return FORBIDDEN
        if path == "/" and method == "GET":
            return page(pages.APP_PAGE)
        if path.startswith("/pick/"):
            pick_id = path.removeprefix("/pick/")
            if method == "POST":
                return pick_answer(served, pick_id, self._body())
            return page(pages.PICKER_PAGE) if served.picks.waiting(pick_id) else NOT_FOUND
        if (method, path) == ("POST", "/api/lookup"):
            from refbridge.enrich import EnrichOptions

            return as_json(app.lookup(served.library, self._body(),
                                      served.services or EnrichOptions()))
        route = app.ROUTES.get((method, path))
        if route is None:
            return NOT_FOUND
        result = route(served.library, _options(query), self._body() if method == "POST"
                       else b"")
        if isinstance(result, app.Download):
            if isinstance(result.content, bytes):
                content, kind = result.content, result.content_type
            else:
                content, kind = result.content.encode("utf-8"), \
                    f"{result.content_type}; charset=utf-8"
            return Answer(HTTPStatus.OK, content, kind, {
                "Content-Disposition": f'attachment; filename="{result.filename}"'})
        return as_json(result)

    def _send(self, answer: Answer) -> None:
        self.send_response(answer.status)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(answer.body)))
        for name, value in {**COMMON_HEADERS, **answer.headers}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer.body)


def make_server(served: Served, port: int = DEFAULT_PORT) -> ThreadingHTTPServer:
    """A server for ``served`` listening on 127.0.0.1:``port`` (0: a free port), not yet
    serving; ``served.port`` is set to the port it listens on."""
    handler = type("ServeHandler", (Handler,), {"served": served})
    try:
        server = ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        raise RefbridgeError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc} "
                             "(is Zotero or another server running? choose --port)") from None
    server.daemon_threads = True
    served.port = server.server_address[1]
    return server


def serve_in_thread(served: Served, port: int = 0) -> ThreadingHTTPServer:
    """A server for ``served`` answering in a thread of its own (stop it with ``shutdown``)."""
    server = make_server(served, port)
    # (``shutdown`` waits for the loop to look: every 50 ms, not the default half second)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server
