"""The local app's API (``/api/...``, each call with the run's token): load records from text
(a dropped or pasted file), list them with ``check``'s findings, preview them in any style,
export them in every writer's format, and list what an uploaded ``.tex``/``.aux`` cites.

Every answer is JSON of plain values (record text as text, never markup) or a ``Download``;
formatted previews come from the CSL engine, whose HTML escapes record text. Requests are a
table (``ROUTES``). This module must never read a path a request names nor write a file but an uploaded
.aux's or .bcf's copy in a private temporary folder.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.richtext import plain
from refbridge.serve.library import Entry, Library, written, year_of

if TYPE_CHECKING:
    from refbridge.cited.citations import Scan
    from refbridge.enrich import EnrichOptions

#: How many records a listing gives at most, unless it asks for more.
ENTRIES_LISTED = 500
#: How many records a preview formats, unless it names them (a live preview stays quick:
#: the CSL engine formats some 500 records a second).
PREVIEWED = 100
#: How many styles a style search lists at most.
STYLES_LISTED = 100


@dataclass(frozen=True, slots=True)
class Download:
    """A file to download: its text, type and name."""

    content: str | bytes
    content_type: str
    filename: str


Route = Callable[[Library, Mapping[str, str], bytes], Any]


def _json_body(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise RefbridgeError(f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RefbridgeError("the request is not a JSON object")
    return data


def _names(entry: Entry) -> list[str]:
    return [" ".join(part for part in (name.given, name.family) if part) or name.literal or ""
            for name in entry.record.names.get("author", entry.record.names.get("editor", ()))]


def entries(library: Library, options: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """The records matching ``q`` (the first ``limit``, default ``ENTRIES_LISTED``; ``total``
    counts them all), each with ``check``'s findings."""
    from refbridge.check import check_records

    found = library.search(options.get("q", ""))
    limit = options.get("limit", "")
    listed = found[:int(limit) if limit.isdigit() else ENTRIES_LISTED]
    findings: dict[str, list[dict[str, str]]] = {}
    for finding in check_records([entry.record for entry in listed]):
        findings.setdefault(finding.key or "", []).append(
            {"code": finding.code, "severity": finding.severity, "message": finding.message})
    return {"entries": [{"key": entry.key, "type": entry.record.type,
                         "title": plain(entry.record.fields.get("title", "")),
                         "authors": _names(entry), "year": year_of(entry.record),
                         "origin": entry.origin, "findings": findings.get(entry.key, [])}
                        for entry in listed], "total": len(found)}


def load(library: Library, options: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """Read a file pasted (``text``) or dropped (``data``: its bytes in base64, read as
    refbridge reads a file: gzip or tar unpacked, the encoding found), named ``name``, as
    ``format`` or the format detected: the count of records added and the problems met."""
    import base64
    import binascii

    data = _json_body(body)
    name, content, packed = data.get("name") or "pasted.txt", data.get("text"), data.get("data")
    if not isinstance(name, str):
        raise RefbridgeError("load takes a name")
    name, chosen, diagnostics = name.replace("/", "_"), data.get("format") or None, Diagnostics()
    if isinstance(packed, str):
        try:
            raw = base64.b64decode(packed, validate=True)
        except binascii.Error:
            raise RefbridgeError(f"{name}: the data is not base64") from None
        added = library.read_bytes(raw, name, diagnostics, chosen)
    elif isinstance(content, str):
        added = library.read_text(content, name, diagnostics, chosen)
    else:
        raise RefbridgeError("load takes a text, or data")
    return {"added": added, "problems": [str(message) for message in diagnostics.messages]}


def lookup(library: Library, body: bytes, services: EnrichOptions) -> dict[str, Any]:
    """Add the records the lines of ``text`` name (DOIs, arXiv ids, profiles), looked up
    with ``services``: the count added and what was not found."""
    from refbridge.serve.lookup import look_up

    content = _json_body(body).get("text")
    if not isinstance(content, str):
        raise RefbridgeError("lookup takes a text")
    looked = look_up(content, services)
    return {"added": library.add_records(looked.records, "look-up"),
            "problems": looked.problems}


def clear(library: Library, options: Mapping[str, str], body: bytes) -> dict[str, Any]:
    library.clear()
    return {"ok": True}


def styles(library: Library, options: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """The styles whose name or title has every word of ``q`` (as ``refbridge styles``)."""
    from refbridge.styles import list_styles

    found = list_styles(options.get("q") or None)
    return {"styles": [{"name": s.name, "title": s.title} for s in found[:STYLES_LISTED]],
            "more": max(0, len(found) - STYLES_LISTED)}


def _chosen(library: Library, options: Mapping[str, str]) -> list[Entry]:
    keys = [key for key in options.get("keys", "").split(",") if key]
    if not keys:
        return library.entries
    chosen = [library.by_key(key) for key in keys]
    return [entry for entry in chosen if entry is not None]


def preview(library: Library, options: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """The records (``keys``, else the first ``PREVIEWED``: ``shown`` of ``total``)
    formatted in ``style`` as ``output`` (html or text)."""
    from refbridge.formatting import format_bibliography

    output = options.get("output") or "html"
    if output not in ("html", "text"):
        raise RefbridgeError(f"output {output!r}: choose html or text")
    chosen = _chosen(library, options)
    records = [entry.record for entry in chosen[:None if "keys" in options else PREVIEWED]]
    return {"output": output, "shown": len(records), "total": len(chosen),
            "text": format_bibliography(
        records, options.get("style") or "apa", output, options.get("locale") or None)}


def formats(library: Library, options: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """Every writer: name, description, file ending."""
    from refbridge.registry import writer_info, writer_names

    return {"formats": [{"name": info.name, "description": info.description,
                         "extension": info.extension}
                        for info in map(writer_info, writer_names())]}


def export(library: Library, options: Mapping[str, str], body: bytes) -> Download:
    """The records (``keys``, else all) written in ``format``, as a file to download."""
    from refbridge.registry import writer_info

    info = writer_info(options.get("format") or "bibtex")
    text = written([entry.record for entry in _chosen(library, options)], info.name)
    return Download(text, "application/octet-stream", f"library{info.extension}")


#: The CV outputs the app offers, with their media types.
CV_OUTPUTS: dict[str, str] = {
    "html": "text/html", "markdown": "text/markdown", "latex": "application/x-tex",
    "text": "text/plain",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}


def _cv_options(options: Mapping[str, str]) -> Any:
    """``refbridge cv``'s options from the request's parameters (the names of its options)."""
    from refbridge.cv import CvOptions, Filters

    def year(name: str) -> int | None:
        value = options.get(name, "")
        if value and not value.isdigit():
            raise RefbridgeError(f"{name} {value!r} is not a year")
        return int(value) if value else None

    def listed(name: str) -> tuple[str, ...]:
        return tuple(part.strip() for part in options.get(name, "").split(",") if part.strip())

    return CvOptions(
        owners=listed("owner"), style=options.get("style") or "cv",
        locale=options.get("locale") or None, group_by=options.get("group-by") or "year",
        sort=options.get("sort") or "newest", numbering=options.get("numbering") or None,
        title=options.get("title") or "Publications", owner_ids=listed("owner-id"),
        all_records=options.get("all") == "1", split_order=listed("split-order"),
        filters=Filters(since=year("since"), until=year("until"), kinds=listed("type"),
                        text=options.get("search") or None))


def cv(library: Library, options: Mapping[str, str], body: bytes) -> Any:
    """The records' CV with ``refbridge cv``'s options: an HTML fragment to preview
    (``to=preview``), else a file to download in ``to`` (html, markdown, latex, text, docx)."""
    from refbridge.cv import WRITERS, render_cv

    to = options.get("to") or "preview"
    if to != "preview" and to not in CV_OUTPUTS:
        raise RefbridgeError(f"CV output {to!r}: choose from {', '.join(CV_OUTPUTS)}")
    records = [entry.record for entry in library.entries]
    content, _, _ = render_cv(records, _cv_options(options),
                                     "html" if to == "preview" else to, to == "preview")
    if to == "preview":
        return {"html": content}
    return Download(content, CV_OUTPUTS[to], f"cv{WRITERS[to].extension}")


def _scan(name: str, content: str, diagnostics: Diagnostics) -> Scan:
    """What a document uploaded as ``name`` cites: a source document's text is scanned in
    memory; a .aux or .bcf (whose scanners read files) from a private temporary folder,
    removed at once."""
    from refbridge.cited.documents import SCANNERS, SOURCE_KINDS, document_kind, scan_text

    name = os.path.basename(name.replace("\\", "/")) or "document"
    kind = document_kind(name)
    if kind in SOURCE_KINDS:
        return scan_text(name, content, diagnostics)
    with tempfile.TemporaryDirectory(prefix="refbridge-serve-") as folder:
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as out:
            out.write(content)
        return SCANNERS[kind](path, diagnostics, "utf-8")


def cited(library: Library, options: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """What an uploaded document (``name``: its ending chooses the scanner, ``text``) cites:
    the keys cited, those the records lack, and the records cited as .bib."""
    data = _json_body(body)
    name, content = data.get("name"), data.get("text")
    if not isinstance(name, str) or not isinstance(content, str):
        raise RefbridgeError("cited takes a name and a text")
    scan = _scan(name, content, Diagnostics())
    keys = list(dict.fromkeys(c.key for c in scan.citations if not c.cross_reference
                              or library.by_key(c.key) is not None))
    found = [entry for key in keys if (entry := library.by_key(key)) is not None]
    return {"cited": keys, "missing": [key for key in keys if library.by_key(key) is None],
            "bib": written([entry.record for entry in found], "bibtex")}


ROUTES: dict[tuple[str, str], Route] = {
    ("GET", "/api/entries"): entries,
    ("POST", "/api/load"): load,
    ("POST", "/api/clear"): clear,
    ("GET", "/api/styles"): styles,
    ("GET", "/api/preview"): preview,
    ("GET", "/api/formats"): formats,
    ("GET", "/api/export"): export,
    ("POST", "/api/cited"): cited,
    ("GET", "/api/cv"): cv,
}
