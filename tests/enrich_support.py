"""A local stand-in for the arXiv, Crossref, OpenAlex, dblp and DataCite APIs, for the
enrichment and verification tests.

It listens on 127.0.0.1 only and answers in each API's own format from fixture files in
tests/fixtures/enrich: an Atom feed of arXiv entries, JSON lists of Crossref work messages,
OpenAlex work objects, dblp search hits' ``info`` and DataCite DOI attributes. Searches are
answered the way the services answer them, in small: arXiv by the words of the ``ti:"..."``
phrase and the ``au:`` name (or ``id_list``), Crossref by shared title words, OpenAlex by the
words of ``title.search``, dblp by the words of ``q``. Each 404 is the service's own
(Crossref's ``Resource not found.``, OpenAlex's and DataCite's JSON); an address outside the
five answers a plain 404, as a wrong base URL does. ``fail_next`` makes the next requests to
one service answer an error status first; ``stall`` makes a service wait before answering.
Every request is logged.
"""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from lxml import etree
from support import running

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "enrich"
ATOM_NS = "http://www.w3.org/2005/Atom"
OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
NS = {"a": ATOM_NS}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


class FixtureData:
    """The works one test's services know."""

    def __init__(self, arxiv: str | None = None, crossref: str | None = None,
                 openalex: str | None = None, dblp: str | None = None,
                 datacite: str | None = None) -> None:
        self.entries = (etree.parse(str(FIXTURES / "arxiv" / arxiv)).getroot()
                        .findall("a:entry", NS) if arxiv else [])
        self.crossref = json.loads((FIXTURES / "crossref" / crossref).read_text("utf-8")
                                   ) if crossref else []
        self.openalex = json.loads((FIXTURES / "openalex" / openalex).read_text("utf-8")
                                   ) if openalex else []
        self.dblp = json.loads((FIXTURES / dblp).read_text("utf-8")) if dblp else []
        self.datacite = json.loads((FIXTURES / datacite).read_text("utf-8")) if datacite else []


class Handler(BaseHTTPRequestHandler):
    server: FixtureServer

    def log_message(self, format: str, *args: object) -> None:  # quiet
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        service = parts.path.strip("/").split("/", 1)[0]
        self.server.log.append((service, unquote(parts.path), query, dict(self.headers)))
        time.sleep(self.server.stalls.get(service, 0))
        failures = self.server.failures.get(service)
        if failures:
            self._send(failures.pop(0), "text/plain", b"Service Unavailable")
            return
        route = {"arxiv": self._arxiv, "crossref": self._crossref,
                 "openalex": self._openalex, "dblp": self._dblp,
                 "datacite": self._datacite}.get(service)
        if route is None:
            self._send(404, "text/plain", b"no such service")
            return
        route(unquote(parts.path), query)

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    # -- arXiv ---------------------------------------------------------------------------
    def _arxiv(self, path: str, query: dict[str, str]) -> None:
        data = self.server.data
        if "id_list" in query:
            wanted = {re.sub(r"v\d+$", "", i) for i in query["id_list"].split(",")}
            chosen = [e for e in data.entries
                      if re.sub(r"v\d+$", "", e.findtext("a:id", "", NS).rsplit("/abs/", 1)[-1])
                      in wanted]
        else:
            search = query.get("search_query", "")
            phrase = re.search(r'ti:"([^"]*)"', search)
            author = re.search(r'au:"?([^"]*)"?', search)
            chosen = [e for e in data.entries
                      if (not phrase or set(words(phrase.group(1))) <= set(
                          words(e.findtext("a:title", "", NS))))
                      and (not author or any(
                          set(words(author.group(1))) <= set(words(n.text or ""))
                          for n in e.findall("a:author/a:name", NS)))]
        self._send(200, "application/atom+xml; charset=utf-8", self._feed(chosen, query))

    def _feed(self, entries: list[etree._Element], query: dict[str, str]) -> bytes:
        feed = etree.Element(f"{{{ATOM_NS}}}feed",
                             nsmap={None: ATOM_NS, "opensearch": OPENSEARCH_NS,
                                    "arxiv": "http://arxiv.org/schemas/atom"})
        etree.SubElement(feed, f"{{{ATOM_NS}}}id").text = "http://arxiv.org/api/fixture"
        etree.SubElement(feed, f"{{{ATOM_NS}}}title").text = (
            f"arXiv Query: search_query={query.get('search_query', '')}"
            f"&id_list={query.get('id_list', '')}")
        etree.SubElement(feed, f"{{{ATOM_NS}}}updated").text = "2026-01-20T00:00:00-05:00"
        for name, value in (("totalResults", len(entries)), ("startIndex", 0),
                            ("itemsPerPage", query.get("max_results", "10"))):
            etree.SubElement(feed, f"{{{OPENSEARCH_NS}}}{name}").text = str(value)
        for entry in entries:
            feed.append(copy.deepcopy(entry))
        return bytes(etree.tostring(feed, xml_declaration=True, encoding="UTF-8"))

    # -- Crossref ------------------------------------------------------------------------
    def _crossref(self, path: str, query: dict[str, str]) -> None:
        works = self.server.data.crossref
        doi = path.partition("/works/")[2]
        if doi:
            match = next((w for w in works if w["DOI"].lower() == doi.lower()), None)
            if match is None:
                self._send(404, "text/plain", b"Resource not found.")
                return
            self._json({"status": "ok", "message-type": "work", "message-version": "1.0.0",
                        "message": match})
            return
        asked = set(words(query.get("query.bibliographic", "")))
        chosen = [w for w in works
                  if asked and len(asked & set(words(w["title"][0]))) >= 0.6 * len(asked)]
        self._json({"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
                    "message": {"facets": {}, "total-results": len(chosen), "items": chosen,
                                "items-per-page": int(query.get("rows", "20")),
                                "query": {"start-index": 0,
                                          "search-terms": query.get("query.bibliographic")}}})

    # -- OpenAlex ------------------------------------------------------------------------
    def _openalex(self, path: str, query: dict[str, str]) -> None:
        works = self.server.data.openalex
        key = path.partition("/works/")[2]
        if key:
            scheme, _, value = key.partition(":")
            member = "pmid" if scheme == "pmid" else "doi"
            match = next((w for w in works
                          if str((w.get("ids") or {}).get(member) or w.get(member) or "")
                          .lower().endswith(value.lower())), None)
            if match is None:
                self._json({"error": "404 Not Found",
                            "message": "The requested URL was not found on the server."}, 404)
                return
            self._json(match)
            return
        asked = set(words(query.get("filter", "").removeprefix("title.search:")))
        chosen = [w for w in works if asked and asked <= set(words(w["title"]))]
        self._json({"meta": {"count": len(chosen), "db_response_time_ms": 12, "page": 1,
                             "per_page": int(query.get("per-page", "25")),
                             "groups_count": None},
                    "results": chosen, "group_by": []})

    # -- dblp ----------------------------------------------------------------------------
    def _dblp(self, path: str, query: dict[str, str]) -> None:
        if path != "/dblp/search/publ/api":
            self._send(404, "text/html", b"<html><body>Error 404</body></html>")
            return
        asked = set(words(query.get("q", "")))
        chosen = [info for info in self.server.data.dblp
                  if asked and len(asked & set(words(info["title"] + " " + json.dumps(
                      info.get("authors"))))) >= 0.8 * len(asked)]
        hits = [{"@score": "11", "@id": str(100 + index), "info": info,
                 "url": f"URL#{100 + index}"} for index, info in enumerate(chosen)]
        self._json({"result": {
            "query": query.get("q", ""), "status": {"@code": "200", "text": "OK"},
            "time": {"@unit": "msecs", "text": "3.21"}, "completions": {"@total": "0",
                                                                       "@computed": "0",
                                                                       "@sent": "0"},
            "hits": {"@total": str(len(hits)), "@computed": str(len(hits)),
                     "@sent": str(len(hits)), "@first": "0", **({"hit": hits} if hits else {})}}})

    # -- DataCite ------------------------------------------------------------------------
    def _datacite(self, path: str, query: dict[str, str]) -> None:
        doi = path.partition("/dois/")[2].lower()
        match = next((a for a in self.server.data.datacite if a["doi"].lower() == doi), None)
        if match is None:
            self._json({"errors": [{"status": "404", "title": "The resource you are looking "
                                    "for doesn't exist."}]}, 404)
            return
        self._json({"data": {"id": match["doi"], "type": "dois", "attributes": match,
                             "relationships": {"client": {"data": {"id": "cern.zenodo",
                                                                   "type": "clients"}}}}})

    def _json(self, data: object, status: int = 200) -> None:
        self._send(status, "application/json; charset=utf-8",
                   json.dumps(data).encode("utf-8"))


class FixtureServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, data: FixtureData) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.data = data
        self.log: list[tuple[str, str, dict[str, str], dict[str, str]]] = []
        self.failures: dict[str, list[int]] = {}
        self.stalls: dict[str, float] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def endpoints(self) -> dict[str, str]:
        """Base URLs for ``EnrichOptions.endpoints``."""
        return {"arxiv": f"{self.url}/arxiv/api/query", "crossref": f"{self.url}/crossref",
                "openalex": f"{self.url}/openalex", "dblp": f"{self.url}/dblp",
                "datacite": f"{self.url}/datacite"}

    def environment(self) -> dict[str, str]:
        """The same base URLs as the environment variables the command line reads."""
        return {f"REFBRIDGE_{service.upper()}_API": url
                for service, url in self.endpoints().items()}

    def fail_next(self, service: str, *statuses: int) -> None:
        self.failures.setdefault(service, []).extend(statuses)

    def requests_to(self, service: str) -> list[tuple[str, dict[str, str]]]:
        return [(path, query) for s, path, query, _ in self.log if s == service]


@contextmanager
def serving(data: FixtureData) -> Iterator[FixtureServer]:
    with running(FixtureServer(data)) as server:
        yield server


def forbid_remote_connections(monkeypatch: object) -> None:
    """Make any connection to an address outside 127.0.0.0/8 fail loudly in this test."""
    import ipaddress
    import socket

    real_connect = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> None:
        host = address[0] if isinstance(address, tuple) else None
        if host is not None:
            try:
                loopback = ipaddress.ip_address(host).is_loopback
            except ValueError:
                loopback = host == "localhost"
            if not loopback:
                raise AssertionError(f"a test tried to reach {host}")
        real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)  # type: ignore[attr-defined]
