"""Local stand-ins for Zotero, on 127.0.0.1, following Zotero's own source.

- ``FakeDesktop``: the desktop's HTTP server (``server.js``: the Host check, endpoints,
  methods, content types, JSON), its connector (``server_connector.js``, ``saveSession.js``:
  ping, getSelectedCollection, saveItems filing items under their ``id``, updateSession moving
  them and keeping automatic tags) and its local API (``server_localAPI.js``: ``/api/users/0``,
  ``since``, ``format=versions``, ``start``/``limit`` with ``Link``, ``Last-Modified-Version``,
  403 while it is off). ``local_versions`` chooses between Zotero 7's local API (synced
  versions: items saved through the connector stay at version 0 and the library version does
  not move) and the newer one (local versions, ``Zotero-Server-ID``).
- ``FakeWebAPI``: zotero.org's Web API v3 (the dataserver): keys in ``Zotero-API-Key`` or
  ``Authorization: Bearer``, 403 without write access, at most 50 objects a write (413),
  ``Zotero-Write-Token`` (412 on replay), per-object results, updates by key and version
  (412 per object on a stale version), ``since``, ``/deleted``, ``If-Modified-Since-Version``
  (304), ``limit`` up to 100 with ``Link`` and ``Total-Results``, and on demand ``Backoff``,
  429 with ``Retry-After``, 503, and an answer lost after the write was made.

Fields valid for an item type are those refbridge's Zotero tables (generated from Zotero's
schema) give the type, with ``citationKey``, ``rights`` and ``extra``.
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from refbridge.formats.zotero import tables as zt

KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"
_HOST = re.compile(r"^(?:127\.0\.0\.1|\[::1\]|localhost)(?::[0-9]+)?$", re.IGNORECASE)


def valid_fields(item_type: str) -> set[str]:
    return (set(zt.FIELDS.get(item_type, {}).values())
            | set(zt.DATE_FIELDS.get(item_type, {}).values())
            | {"citationKey", "rights", "extra"})


def free_port() -> int:
    """A port nothing listens on (a Zotero that is not running)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Library:
    """One library: items by key (their ``data``), collections, versions, deletions."""

    kind: str
    id: int
    name: str
    version: int = 0
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    collections: dict[str, dict[str, Any]] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)  #: key -> version of deletion
    editable: bool = True

    def prefix(self) -> str:
        return f"/{self.kind}s/{self.id}"

    def members(self, collection: str) -> set[str]:
        """Items in a collection, and their children (as the dataserver lists them)."""
        inside = {k for k, d in self.items.items() if collection in d.get("collections", [])}
        return inside | {k for k, d in self.items.items() if d.get("parentItem") in inside}

    def scope(self, path: str) -> set[str] | None:
        """The keys an items path lists (``/items``, ``/items/top``,
        ``/collections/KEY/items``), None for another path."""
        found = re.match(r"^(?:/collections/(\w+))?/items(/top)?$", path)
        if found is None:
            return None
        keys = self.members(found[1]) if found[1] else set(self.items)
        return {k for k in keys if not self.items[k].get("parentItem")} if found[2] else keys


class Keys:
    def __init__(self) -> None:
        self._numbers = itertools.count(1)

    def __call__(self) -> str:
        number, key = next(self._numbers), ""
        for _ in range(8):
            number, digit = divmod(number, len(KEY_ALPHABET))
            key = KEY_ALPHABET[digit] + key
        return key


def item_data(item_type: str, key: str, version: int, **fields: Any) -> dict[str, Any]:
    """An item's ``data`` as Zotero's API gives it."""
    return {"key": key, "version": version, "itemType": item_type, "creators": [],
            "tags": [], "collections": [], "relations": {}, "dateAdded":
            f"2026-01-01T00:00:{len(key) and int(key, 36) % 60:02d}Z", **fields}


def listing(library: Library, scope: set[str], query: dict[str, str], version_of: Any,
            base: str, path: str) -> tuple[int, dict[str, str], Any]:
    """A multi-object answer as the API gives it: since, itemKey, format, start/limit."""
    keys = sorted(scope)
    if "itemKey" in query:
        wanted = set(query["itemKey"].split(","))
        keys = [k for k in keys if k in wanted]
    if query.get("includeTrashed") != "1":
        keys = [k for k in keys if not library.items[k].get("deleted")]
    if query.get("since"):
        since = int(query["since"])
        keys = [k for k in keys if version_of(library.items[k]) > since]
    headers = {"Total-Results": str(len(keys)), "Last-Modified-Version": str(library.version)}
    fmt = query.get("format", "json")
    if fmt == "versions":
        return 200, headers, {k: version_of(library.items[k]) for k in keys}
    if fmt == "keys":
        return 200, headers, "\n".join(keys)
    start = int(query.get("start", "0"))
    limit = int(query["limit"]) if "limit" in query else len(keys)
    page = keys[start:start + limit]
    links = []
    if start + limit < len(keys):
        following = dict(query, start=str(start + limit))
        links.append(f'<{base}{path}?{urlencode(following)}>; rel="next"')
    if links:
        headers["Link"] = ", ".join(links)
    body = [{"key": k, "version": version_of(library.items[k]),
             "library": {"type": library.kind, "id": library.id, "name": library.name},
             "data": library.items[k]} for k in page]
    return 200, headers, body


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        split = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(split.query, keep_blank_values=True).items()}
        self.server.enter()
        try:
            answer = self.server.answer(self.command, split.path, query, self.headers, body)
        finally:
            self.server.leave()
        if answer is None:  # the answer is lost on the way (the work was done)
            self.close_connection = True
            return
        status, headers, payload = answer
        data = payload if isinstance(payload, bytes) else (
            payload.encode("utf-8") if isinstance(payload, str)
            else json.dumps(payload).encode("utf-8"))
        self.send_response(status)
        if not isinstance(payload, (bytes, str)):
            headers.setdefault("Content-Type", "application/json")
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.log: list[tuple[str, str, dict[str, str], dict[str, str], Any]] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most_in_flight = 0
        self.new_key = Keys()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def enter(self) -> None:
        with self.lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)

    def leave(self) -> None:
        with self.lock:
            self.in_flight -= 1

    def answer(self, method: str, path: str, query: dict[str, str], headers: Any,
               body: bytes) -> tuple[int, dict[str, str], Any] | None:
        raise NotImplementedError

    def requests(self, method: str | None = None, path: str = "") -> list[Any]:
        return [entry for entry in self.log
                if (method is None or entry[0] == method) and entry[1].startswith(path)]


# -- the desktop ------------------------------------------------------------------------------
class FakeDesktop(_Server):
    """Zotero 7+ on this computer: connector and local API."""

    def __init__(self, local_api: bool = True, local_versions: bool = False,
                 automatic_tags: bool = True) -> None:
        super().__init__()
        self.local_api = local_api
        self.local_versions = local_versions
        self.automatic_tags = automatic_tags
        self.libraries = {1: Library("user", 0, "My Library")}
        self.group_ids: dict[int, int] = {}  # libraryID -> groupID
        self.collection_ids: dict[int, tuple[int, str]] = {}  # collection id -> (library, key)
        self.selected = "L1"
        self.sessions: dict[str, dict[str, Any]] = {}
        self.client_version = 0
        self.server_id = "SRV0DESKTOP1"

    # set-up
    def add_group(self, library_id: int, group_id: int, name: str) -> Library:
        library = Library("group", group_id, name)
        self.libraries[library_id] = library
        self.group_ids[library_id] = group_id
        return library

    def add_collection(self, name: str, library_id: int = 1, parent: int | None = None) -> int:
        number = len(self.collection_ids) + 1
        key = self.new_key()
        parent_key = self.collection_ids[parent][1] if parent else False
        self.libraries[library_id].collections[key] = {"key": key, "name": name,
                                                       "parentCollection": parent_key}
        self.collection_ids[number] = (library_id, key)
        return number

    def add_item(self, item_type: str = "journalArticle", library_id: int = 1,
                 **fields: Any) -> str:
        key = self.new_key()
        library = self.libraries[library_id]
        library.items[key] = item_data(item_type, key, library.version, **fields)
        self._touch(library.items[key])
        return key

    def _touch(self, data: dict[str, Any]) -> None:
        self.client_version += 1
        data["clientVersion"] = self.client_version

    def answer(self, method: str, path: str, query: dict[str, str], headers: Any,
               body: bytes) -> tuple[int, dict[str, str], Any] | None:
        parsed: Any = None
        if body and (headers.get("Content-Type") or "").split(";")[0] == "application/json":
            try:
                parsed = json.loads(body)
            except ValueError:
                return 400, {"Content-Type": "text/plain"}, "Invalid JSON provided\n"
        self.log.append((method, path, dict(query), dict(headers), parsed))
        if not _HOST.match(headers.get("Host") or ""):
            return 400, {"Content-Type": "text/plain"}, "Invalid Host header\n"
        base = {"X-Zotero-Version": "7.0.15", "X-Zotero-Connector-API-Version": "3"}
        if path.startswith("/connector/"):
            status, extra, payload = self._connector(method, path[len("/connector/"):],
                                                     headers, parsed)
        elif path.startswith("/api/"):
            status, extra, payload = self._local_api(method, path, query, headers)
        else:
            return 404, {**base, "Content-Type": "text/plain"}, "No endpoint found\n"
        return status, {**base, **extra}, payload

    # connector
    def _connector(self, method: str, endpoint: str, headers: Any, data: Any
                   ) -> tuple[int, dict[str, str], Any]:
        plain = {"Content-Type": "text/plain"}
        methods = {"ping": ("GET", "POST"), "getSelectedCollection": ("POST",),
                   "saveItems": ("POST",), "updateSession": ("POST",)}
        if endpoint not in methods:
            return 404, plain, "No endpoint found\n"
        if method not in methods[endpoint]:
            return 400, plain, "Endpoint does not support method\n"
        if endpoint == "ping":
            return 200, {"Content-Type": "text/html"}, \
                "<!DOCTYPE html><html><body>Zotero is running</body></html>"
        if endpoint == "getSelectedCollection":
            return 200, {}, self._selection()
        version = headers.get("X-Zotero-Connector-API-Version")
        if endpoint == "saveItems" and version is not None and int(version) < 3:
            return 400, {}, {"error": "CONNECTOR_VERSION_OUTDATED"}
        if endpoint == "saveItems":
            return self._save_items(data)
        return self._update_session(data)

    def _target(self, target: str) -> tuple[int, str | None]:
        number = int(target[1:])
        if target[0] == "L":
            return number, None
        library, key = self.collection_ids[number]
        return library, key

    def _selection(self) -> dict[str, Any]:
        library_id, collection = self._target(self.selected)
        library = self.libraries[library_id]
        answer: dict[str, Any] = {"libraryID": library_id, "libraryName": library.name,
                                  "libraryEditable": library.editable, "filesEditable": True,
                                  "editable": library.editable}
        if collection:
            number = next(n for n, (_, k) in self.collection_ids.items() if k == collection)
            answer.update(id=number, name=library.collections[collection]["name"])
        else:
            answer.update(id=None, name=library.name)
        targets: list[dict[str, Any]] = []
        for library_id, library in self.libraries.items():
            if not library.editable:
                continue
            targets.append({"id": f"L{library_id}", "name": library.name,
                            "filesEditable": True, "level": 0})

            def children(parent: Any, level: int, library_id: int = library_id,
                         library: Library = library) -> None:
                found = sorted((library.collections[k]["name"], n) for n, (lib, k) in self.collection_ids.items()
                               if lib == library_id
                               and library.collections[k]["parentCollection"] == parent)
                for name, number in found:
                    targets.append({"id": f"C{number}", "name": name, "filesEditable": True,
                                    "level": level})
                    children(self.collection_ids[number][1], level + 1)

            children(False, 1)
        answer.update(targets=targets, tags={})
        return answer

    def _save_items(self, data: Any) -> tuple[int, dict[str, str], Any]:
        session_id = data.get("sessionID")
        if session_id in self.sessions:
            return 409, {}, {"error": "SESSION_EXISTS"}
        library_id, collection = self._target(self.selected)
        library = self.libraries[library_id]
        if not library.editable:
            return 500, {}, {"libraryEditable": False}
        session: dict[str, Any] = {"items": {}}
        self.sessions[session_id] = session
        for translator_item in data["items"]:
            key = self.new_key()
            saved = {k: v for k, v in translator_item.items()
                     if k not in ("id", "notes", "attachments", "seeAlso", "tags", "creators")}
            saved["creators"] = [
                {"creatorType": c["creatorType"], "name": c["lastName"]}
                if c.get("fieldMode") == 1 else
                {"creatorType": c["creatorType"], "firstName": c.get("firstName", ""),
                 "lastName": c["lastName"]} for c in translator_item.get("creators", [])]
            tags = [{"tag": t if isinstance(t, str) else t["tag"], "type": 1}
                    for t in translator_item.get("tags", [])] if self.automatic_tags else []
            item = item_data(translator_item.get("itemType") or "webpage", key, 0, **saved)
            item.update(tags=tags, collections=[collection] if collection else [])
            self._touch(item)
            library.items[key] = item
            session["items"][translator_item.get("id")] = (library_id, key)
        return 201, {"Content-Type": "application/json"}, b""

    def _update_session(self, data: Any) -> tuple[int, dict[str, str], Any]:
        if not data.get("sessionID"):
            return 400, {}, {"error": "SESSION_ID_NOT_PROVIDED"}
        session = self.sessions.get(data["sessionID"])
        if session is None:
            return 400, {}, {"error": "SESSION_NOT_FOUND"}
        target = data["target"]
        if target[0] == "C" and int(target[1:]) not in self.collection_ids:
            return 400, {}, {"error": "COLLECTION_NOT_FOUND"}
        library_id, collection = self._target(target)
        tags = data.get("tags") or []
        tags = tags.split(",") if isinstance(tags, str) else tags
        for name, (old_library, key) in list(session["items"].items()):
            item = self.libraries[old_library].items.pop(key)
            self.libraries[library_id].items[key] = item
            session["items"][name] = (library_id, key)
            automatic = [t for t in item["tags"] if t.get("type") == 1]
            item["tags"] = automatic + [{"tag": t.strip()} for t in tags if t.strip()]
            item["collections"] = [collection] if collection else []
            self._touch(item)
        return 200, {}, {}

    # local API
    def _local_api(self, method: str, path: str, query: dict[str, str], headers: Any
                   ) -> tuple[int, dict[str, str], Any]:
        plain = {"Content-Type": "text/plain"}
        if not self.local_api:
            return 403, plain, "Local API is not enabled"
        common = {"Zotero-API-Version": "3", "Zotero-Schema-Version": "41"}
        if self.local_versions:
            common["Zotero-Server-ID"] = self.server_id
        match = re.match(r"^/api/(users|groups)/(\d+)(/.*)?$", path)
        if method != "GET" or match is None:
            return 404, {**common, **plain}, "No endpoint found\n"
        kind, number, rest = match[1], int(match[2]), match[3] or ""
        if kind == "users" and number != 0:
            return 400, {**common, **plain}, \
                "Only data for the logged-in user is available locally -- use userID 0"
        if kind == "users":
            library = self.libraries[1]
        else:
            found = [lib for lib_id, lib in self.libraries.items()
                     if self.group_ids.get(lib_id) == number]
            if not found:
                return 404, {**common, **plain}, "Not found"
            library = found[0]
        if rest == "/groups":
            groups = [{"id": group, "data": {"id": group, "name": self.libraries[lib].name}}
                      for lib, group in self.group_ids.items()]
            return 200, common, groups
        if rest == "/collections":
            entries = [{"key": k, "data": c} for k, c in sorted(library.collections.items())]
            return 200, {**common, "Total-Results": str(len(entries))}, entries
        scope = library.scope(rest)
        if scope is None:
            return 404, {**common, **plain}, "No endpoint found\n"
        shown = Library(library.kind, library.id, library.name,
                        self.client_version if self.local_versions else library.version,
                        {k: self._public(d) for k, d in library.items.items()})
        status, extra, payload = listing(shown, scope, query, lambda d: d["version"],
                                         self.url, path)
        return status, {**common, **extra}, payload

    def _public(self, data: dict[str, Any]) -> dict[str, Any]:
        """An item as the local API shows it: Zotero 7 its synced version, later Zotero its
        local one."""
        shown = {k: v for k, v in data.items() if k != "clientVersion"}
        if self.local_versions:
            shown["version"] = data.get("clientVersion", 0)
        return shown


# -- zotero.org ---------------------------------------------------------------------------------
@dataclass
class ApiKey:
    user: int
    write: set[str]  #: library prefixes it may write
    read: set[str]


class FakeWebAPI(_Server):
    """zotero.org's Web API v3."""

    def __init__(self) -> None:
        super().__init__()
        self.libraries: dict[str, Library] = {"/users/1": Library("user", 1, "alice")}
        self.keys = {"WRITEKEY1234": ApiKey(1, {"/users/1"}, {"/users/1"}),
                     "READKEY12345": ApiKey(1, set(), {"/users/1"})}
        self.used_tokens: set[str] = set()
        self.faults: list[tuple[int, float | None]] = []  # (status, Retry-After)
        self.backoff_next: float | None = None
        self.lose_next_write = False
        self.write_delay = 0.0
        self.key_in_url: list[str] = []

    def library(self, prefix: str = "/users/1") -> Library:
        return self.libraries[prefix]

    def add_item(self, item_type: str = "journalArticle", prefix: str = "/users/1",
                 **fields: Any) -> str:
        library = self.libraries[prefix]
        library.version += 1
        key = self.new_key()
        library.items[key] = item_data(item_type, key, library.version, **fields)
        return key

    def add_collection(self, name: str, prefix: str = "/users/1",
                       parent: str | None = None) -> str:
        library = self.libraries[prefix]
        library.version += 1
        key = self.new_key()
        library.collections[key] = {"key": key, "version": library.version, "name": name,
                                    "parentCollection": parent or False, "relations": {}}
        return key

    def edit_item(self, key: str, prefix: str = "/users/1", **fields: Any) -> None:
        library = self.libraries[prefix]
        library.version += 1
        library.items[key].update(fields, version=library.version)

    def delete_item(self, key: str, prefix: str = "/users/1") -> None:
        library = self.libraries[prefix]
        library.version += 1
        del library.items[key]
        library.deleted[key] = library.version

    def answer(self, method: str, path: str, query: dict[str, str], headers: Any,
               body: bytes) -> tuple[int, dict[str, str], Any] | None:
        parsed = json.loads(body) if body else None
        self.log.append((method, path, dict(query), dict(headers), parsed))
        if "key" in query:
            self.key_in_url.append(path)
        base = {"Zotero-API-Version": "3"}
        if self.backoff_next is not None:
            base["Backoff"] = str(self.backoff_next)
            self.backoff_next = None
        if self.faults:
            status, retry_after = self.faults.pop(0)
            extra = {"Retry-After": str(retry_after)} if retry_after is not None else {}
            return status, {**base, **extra, "Content-Type": "text/plain"}, \
                "Request rate limit exceeded" if status == 429 else "Service unavailable"
        plain = {**base, "Content-Type": "text/plain"}
        key = headers.get("Zotero-API-Key")
        bearer = re.match(r"^Bearer\s+([A-Za-z0-9]+)$", headers.get("Authorization") or "")
        key = key or (bearer[1] if bearer else None) or query.get("key")
        account = self.keys.get(key) if key else None
        if key and account is None:
            return 403, plain, "Invalid key"
        match = re.match(r"^(/(?:users|groups)/\d+)(/.*)?$", path)
        if match is None or match[1] not in self.libraries:
            return 404, plain, "Not found"
        prefix, rest = match[1], match[2] or ""
        library = self.libraries[prefix]
        if method == "GET":
            if account is None or prefix not in account.read:
                return 403, plain, "Forbidden"
            return self._read(library, rest, query, headers, base, path)
        if account is None:
            return 403, plain, "An API key is required for write requests."
        if prefix not in account.write:
            return 403, plain, "Write access denied"
        token = headers.get("Zotero-Write-Token")
        if token and token in self.used_tokens:
            return 412, plain, "Write token already used"
        if not isinstance(parsed, list):
            return 400, plain, "Uploaded data must be a JSON array"
        if len(parsed) > 50:
            kind = rest.strip("/")
            return 413, plain, f"Cannot add more than 50 {kind} at a time"
        time.sleep(self.write_delay)
        if rest == "/items":
            report = self._write_items(library, parsed)
        elif rest == "/collections":
            report = self._write_collections(library, parsed)
        else:
            return 405, plain, "Method not allowed"
        if token:
            self.used_tokens.add(token)
        if self.lose_next_write:
            self.lose_next_write = False
            return None
        return 200, {**base, "Last-Modified-Version": str(library.version)}, report

    def _read(self, library: Library, rest: str, query: dict[str, str], headers: Any,
              base: dict[str, str], path: str) -> tuple[int, dict[str, str], Any]:
        known = headers.get("If-Modified-Since-Version")
        if known is not None and library.version <= int(known):
            return 304, {**base, "Last-Modified-Version": str(library.version)}, b""
        if query.get("format", "json") == "json":  # keys and versions are not limited
            limit = 50 if "itemKey" in query else min(int(query.get("limit", "25")), 100)
            query = dict(query, limit=str(limit))
        if rest == "/deleted":
            since = int(query.get("since", "0"))
            return 200, {**base, "Last-Modified-Version": str(library.version)}, {
                "collections": [], "searches": [], "tags": [], "settings": [],
                "items": sorted(k for k, v in library.deleted.items() if v > since)}
        if rest == "/collections":
            entries = [{"key": k, "version": c["version"], "data": c}
                       for k, c in sorted(library.collections.items())]
            return 200, {**base, "Total-Results": str(len(entries)),
                         "Last-Modified-Version": str(library.version)}, entries
        scope = library.scope(rest)
        if scope is None:
            return 404, {**base, "Content-Type": "text/plain"}, "Not found"
        if "itemKey" in query and len(query["itemKey"].split(",")) > 50:
            return 400, {**base, "Content-Type": "text/plain"}, "Too many keys"
        status, extra, payload = listing(library, scope, query, lambda d: d["version"],
                                         self.url, path)
        return status, {**base, **extra}, payload

    def _write_items(self, library: Library, objects: list[Any]) -> dict[str, Any]:
        report: dict[str, Any] = {"successful": {}, "success": {}, "unchanged": {},
                                  "failed": {}}
        for index, data in enumerate(objects):
            problem = self._problem(library, data)
            if problem is not None:
                report["failed"][str(index)] = {"key": data.get("key", ""), "code": problem[0],
                                                "message": problem[1]}
                continue
            library.version += 1
            if data.get("key") in library.items:
                item = library.items[data["key"]]
                item.update({k: v for k, v in data.items() if k != "version"},
                            version=library.version)
            else:
                key = data.get("key") or self.new_key()
                item = item_data(data["itemType"], key, library.version,
                                 **{k: v for k, v in data.items() if k != "key"})
                library.items[key] = item
            report["successful"][str(index)] = {"key": item["key"], "version": item["version"],
                                                "data": item}
            report["success"][str(index)] = item["key"]
        return report

    def _problem(self, library: Library, data: Any) -> tuple[int, str] | None:
        item_type = data.get("itemType")
        existing = library.items.get(data.get("key", ""))
        if existing is not None:
            if data.get("version") is None:
                return 428, "Either If-Unmodified-Since-Version or object version must be provided"
            if data["version"] != existing["version"]:
                return 412, (f"Item has been modified since specified version (expected " \
                            f"{data['version']}, found {existing['version']})")
            item_type = item_type or existing["itemType"]
        if item_type not in zt.FIELDS:
            return 400, f"'{item_type}' is not a valid itemType"
        for name, value in data.items():
            if name in ("key", "version", "itemType", "creators", "tags", "collections",
                        "relations", "parentItem", "deleted"):
                continue
            if name not in valid_fields(item_type):
                return 400, f"'{name}' is not a valid field for type '{item_type}'"
            if not isinstance(value, str):
                return 400, f"'{name}' must be a string"
        for collection in data.get("collections", []):
            if collection not in library.collections:
                return 409, f"Collection {collection} doesn't exist"
        return None

    def _write_collections(self, library: Library, objects: list[Any]) -> dict[str, Any]:
        report: dict[str, Any] = {"successful": {}, "success": {}, "unchanged": {},
                                  "failed": {}}
        for index, data in enumerate(objects):
            library.version += 1
            key = self.new_key()
            library.collections[key] = {"key": key, "version": library.version,
                                        "name": data["name"],
                                        "parentCollection": data.get("parentCollection")
                                        or False, "relations": {}}
            report["successful"][str(index)] = {"key": key, "version": library.version,
                                                "data": library.collections[key]}
            report["success"][str(index)] = key
        return report
