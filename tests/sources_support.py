"""A local stand-in for the ORCID, dblp, OpenAlex, Semantic Scholar and arXiv APIs that give
out one person's publication list, for the ``refbridge fetch`` tests.

It listens on 127.0.0.1 only and answers from the specimens in tests/fixtures/sources, paged
the way each service pages, two works a page (a service may give fewer than asked): OpenAlex
by ``cursor`` (``meta.next_cursor``), Semantic Scholar by ``offset`` (``next``), arXiv by
``start``. Each announces a larger total than it has, and the last page is followed by an
empty one, so a client must stop at the empty page. ORCID answers ``/works``, the bulk
``/works/{put-codes}`` (or 404 with ``orcid_bulk_missing``) and ``/person``. ``fail_next``
makes the next requests to a service answer an error status first, with headers such as
``Retry-After``. Every request is logged.
"""

from __future__ import annotations

import json
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from lxml import etree

SPECIMENS = Path(__file__).resolve().parent / "fixtures" / "sources"
PAGE = 2
ATOM = "{http://www.w3.org/2005/Atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
ORCID_ID = "0000-0002-1825-0097"
DBLP_PID = "95/7448-1"
OPENALEX_ID = "A5025692314"
S2_ID = "1723755"


def specimen(name: str) -> Any:
    return json.loads((SPECIMENS / name).read_text("utf-8"))


class Handler(BaseHTTPRequestHandler):
    server: ServicesServer

    def log_message(self, format: str, *args: object) -> None:  # quiet
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        service, _, path = unquote(parts.path).strip("/").partition("/")
        self.server.log.append((service, path, query, dict(self.headers)))
        failures = self.server.failures.get(service)
        if failures:
            status, headers = failures.pop(0)
            self._send(status, "text/plain", b"Too Many Requests" if status == 429
                       else b"Service Unavailable", headers)
            return
        route = {"orcid": self._orcid, "dblp": self._dblp, "openalex": self._openalex,
                 "s2": self._s2, "arxiv": self._arxiv}.get(service)
        if route is None:
            self._send(404, "text/plain", b"no such service")
            return
        route(path, query)

    def _send(self, status: int, content_type: str, body: bytes,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, data: object, status: int = 200) -> None:
        self._send(status, "application/json;charset=UTF-8", json.dumps(data).encode())

    # -- ORCID ---------------------------------------------------------------------------
    def _orcid(self, path: str, query: dict[str, str]) -> None:
        match = re.fullmatch(r"v3\.0/([\d-]+X?)/(works|person)(?:/([\d,]+))?", path)
        if match is None or match.group(1) != ORCID_ID:
            self._json({"response-code": 404, "developer-message": "404 Not Found",
                        "user-message": "The resource was not found.", "error-code": 9016},
                       404)
            return
        if match.group(2) == "person":
            self._json(specimen("qian.orcid-person.json"))
        elif match.group(3) is None:
            self._json(specimen("qian.orcid-works.json"))
        elif self.server.orcid_bulk_missing:
            self._json({"response-code": 404, "developer-message": "404 Not Found"}, 404)
        else:
            wanted = match.group(3).split(",")
            bulk = specimen("qian.orcid-bulk.json")["bulk"]
            self._json({"bulk": [entry for entry in bulk if "error" in entry
                                 or str(entry["work"]["put-code"]) in wanted]})

    # -- dblp ----------------------------------------------------------------------------
    def _dblp(self, path: str, query: dict[str, str]) -> None:
        if path != f"pid/{DBLP_PID}.xml":
            self._send(404, "text/html", b"<html><body>Error 404: not found</body></html>")
            return
        self._send(200, "application/xml; charset=utf-8",
                   (SPECIMENS / "qian.dblp.xml").read_bytes())

    # -- OpenAlex ------------------------------------------------------------------------
    def _openalex(self, path: str, query: dict[str, str]) -> None:
        works = specimen("qian.openalex.json")["results"]
        if path != "works" or query.get("filter") != f"author.id:{OPENALEX_ID}":
            works = []
        cursor = query.get("cursor", "*")
        start = 0 if cursor == "*" else int(cursor.removeprefix("page-"))
        self._json({"meta": {"count": len(works) + 5, "db_response_time_ms": 21, "page": None,
                             "per_page": PAGE, "next_cursor": f"page-{start + PAGE}",
                             "groups_count": None},
                    "results": works[start:start + PAGE], "group_by": []})

    # -- Semantic Scholar ----------------------------------------------------------------
    def _s2(self, path: str, query: dict[str, str]) -> None:
        if path != f"graph/v1/author/{S2_ID}/papers":
            self._json({"error": "Author with id 0 not found"}, 404)
            return
        papers = specimen("qian.s2-papers.json")["data"]
        offset = int(query.get("offset", "0"))
        self._json({"offset": offset, "next": offset + PAGE,
                    "data": papers[offset:offset + PAGE]})

    # -- arXiv ---------------------------------------------------------------------------
    def _arxiv(self, path: str, query: dict[str, str]) -> None:
        feed = etree.parse(str(SPECIMENS / "qian.arxiv.atom")).getroot()
        entries = feed.findall(f"{ATOM}entry")
        for entry in entries:
            feed.remove(entry)
        if query.get("search_query") == 'au:"Zhengping Qian"':
            start = int(query.get("start", "0"))
            for entry in entries[start:start + PAGE]:
                feed.append(entry)
        total = feed.find(f"{OPENSEARCH}totalResults")
        if total is not None:
            total.text = str(len(entries) + 7)
        self._send(200, "application/atom+xml; charset=utf-8",
                   etree.tostring(feed, xml_declaration=True, encoding="UTF-8"))


class ServicesServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.log: list[tuple[str, str, dict[str, str], dict[str, str]]] = []
        self.failures: dict[str, list[tuple[int, dict[str, str]]]] = {}
        self.orcid_bulk_missing = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def endpoints(self) -> dict[str, str]:
        """Base URLs for ``ClientOptions.endpoints``."""
        return {"orcid": f"{self.url}/orcid", "dblp": f"{self.url}/dblp",
                "openalex": f"{self.url}/openalex", "s2": f"{self.url}/s2",
                "arxiv": f"{self.url}/arxiv/api/query"}

    def environment(self) -> dict[str, str]:
        """The same base URLs as the environment variables the command line reads."""
        names = {"orcid": "REFBRIDGE_ORCID_API", "dblp": "REFBRIDGE_DBLP_API",
                 "openalex": "REFBRIDGE_OPENALEX_API", "s2": "REFBRIDGE_S2_API",
                 "arxiv": "REFBRIDGE_ARXIV_API"}
        return {names[service]: url for service, url in self.endpoints().items()}

    def fail_next(self, service: str, status: int, headers: dict[str, str] | None = None,
                  times: int = 1) -> None:
        self.failures.setdefault(service, []).extend([(status, headers or {})] * times)

    def requests_to(self, service: str) -> list[tuple[str, dict[str, str]]]:
        return [(path, query) for s, path, query, _ in self.log if s == service]
