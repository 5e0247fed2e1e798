"""Better BibTeX's JSON-RPC (``POST /better-bibtex/json-rpc``) answered from the served
library: ``api.ready``, ``item.search``, ``item.citationkey``, ``item.bibliography``,
``item.export``, ``item.attachments``, ``item.notes``, ``item.collections``, ``user.groups``,
``collection.scanAUX``, ``autoexport.add``, with the parameters (by position or by name),
answers and error codes of Better BibTeX's ``content/json-rpc.ts``.

The methods are a table (``METHODS``: name -> function and parameter names). A request is
one JSON-RPC 2.0 object or a batch of them. The methods that change something (a collection
filled, an auto-export added: ``Method.changes``) are refused in a GET, which a web page of
any site can make a browser send. This module must never change the records of the library
nor answer a method Better BibTeX does not have.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.serve.autoexport import AutoExportError, AutoExports, translator_writer
from refbridge.serve.cayw import export, style_id
from refbridge.serve.collections import LIBRARY_ID, Collection, CollectionError, Collections
from refbridge.serve.displayoptions import DisplayOptionError, display_options
from refbridge.serve.library import LIBRARY_NAME, Entry, Library, year_of
from refbridge.version import __version__

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMETERS = -32602
INTERNAL_ERROR = -32603


@dataclass(frozen=True, slots=True)
class Shelf:
    """What the methods answer from: the library, its collections and its auto-exports, and
    what keeps them after a change (the run's state file)."""

    library: Library
    collections: Collections
    autoexports: AutoExports
    changed: Callable[[], object] = lambda: None


class RpcError(Exception):
    """An error answered to the caller with its JSON-RPC code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _keys(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(key, str) for key in value):
        raise RpcError(INVALID_PARAMETERS, f"{name} must be a list of citation keys")
    return [key.removeprefix("@") for key in value]


def _found(library: Library, citekeys: Sequence[str]) -> list[Entry]:
    """The entries of ``citekeys``; an error naming those not found."""
    entries = [library.by_key(key) for key in citekeys]
    missing = [key for key, entry in zip(citekeys, entries) if entry is None]
    if missing:
        raise RpcError(INVALID_PARAMETERS, f"not found: {', '.join(missing)}")
    return [entry for entry in entries if entry is not None]


def ready(library: Library) -> dict[str, str]:
    """Better BibTeX answers Zotero's and its own version; here both are refbridge's."""
    return {"zotero": f"refbridge {__version__}", "betterbibtex": f"refbridge {__version__}"}


def _search_item(entry: Entry) -> dict[str, Any]:
    from refbridge.formats.csljson import to_csl

    return {**to_csl(entry.record), "library": LIBRARY_NAME, "citekey": entry.key}


def _condition_text(entry: Entry, field: str) -> str:
    """What a search condition's field of Zotero's advanced search reads of an entry."""
    from refbridge.richtext import plain

    record = entry.record
    if field == "creator":
        return " ".join(f"{n.given or ''} {n.family or n.literal or ''}"
                        for names in record.names.values() for n in names)
    if field in ("year", "date"):
        return year_of(record)
    if field == "citationKey":
        return entry.key
    if field == "publicationTitle":
        return plain(record.fields.get("container-title", ""))
    if field.startswith("quicksearch"):
        return entry.words
    return plain(record.fields.get(field, ""))


def _matches(entry: Entry, condition: Sequence[Any]) -> bool:
    from refbridge.sameness.text import fold

    field, operator, value = condition[0], condition[1], str(condition[2])
    text = fold(_condition_text(entry, field))
    wanted = fold(value)
    if operator == "contains":
        return wanted in text
    if operator == "doesNotContain":
        return wanted not in text
    if operator == "is":
        return wanted == text
    if operator == "isNot":
        return wanted != text
    raise RpcError(INVALID_PARAMETERS, f"search operator {operator!r} is not supported")


def search(library: Library, terms: Any, library_name: Any = None) -> list[dict[str, Any]]:
    """Entries whose title, names, year or key contain ``terms`` (a string), or that meet
    Zotero's advanced-search conditions (``[field, operator, value]``; ``["joinMode",
    "any"]`` for any of them); every entry for ``''`` or ``[]``."""
    if isinstance(terms, str):
        return [_search_item(entry) for entry in library.search(terms)]
    if not isinstance(terms, list):
        raise RpcError(INVALID_PARAMETERS, "terms must be a string or a list of conditions")
    any_of = False
    conditions = []
    for term in terms:
        if not isinstance(term, list) or not term:
            raise RpcError(INVALID_PARAMETERS, f"not a search condition: {json.dumps(term)}")
        if term[0] == "joinMode":
            any_of = len(term) > 1 and term[1] == "any"
        elif term[0] == "ignore_feeds" or term[0] == "libraryID":
            continue
        elif len(term) < 3:
            raise RpcError(INVALID_PARAMETERS, f"not a search condition: {json.dumps(term)}")
        else:
            conditions.append(term)
    combine = any if any_of else all
    return [_search_item(entry) for entry in library.entries
            if not conditions or combine(_matches(entry, term) for term in conditions)]


def citationkey(library: Library, item_keys: Any) -> dict[str, str | None]:
    """Citation keys of items named ``[libraryID:]itemKey`` (a record's id); ``selected``:
    there is no selection outside Zotero, so none."""
    if item_keys == "selected":
        return {}
    if not isinstance(item_keys, list) or not all(isinstance(k, str) for k in item_keys):
        raise RpcError(INVALID_PARAMETERS, "item_keys must be a list of item keys")
    found = {}
    for item_key in item_keys:
        entry = library.by_id(item_key.rpartition(":")[2])
        found[item_key] = entry.key if entry is not None else None
    return found


#: The members of ``item.bibliography``'s ``format`` (Better BibTeX's).
BIBLIOGRAPHY_FORMAT = ("id", "contentType", "locale", "quickCopy", "mode")


def bibliography(library: Library, citekeys: Any, format: Any = None,
                 library_name: Any = None) -> str:
    """The bibliography of the keys found in style ``format.id`` (``contentType`` text or
    html, ``locale``, ``mode`` bibliography); keys not found are left out, as Better BibTeX
    does. ``quickCopy`` (Zotero's quick-copy settings, which refbridge has not) and a member
    Better BibTeX's ``format`` has not are refused."""
    from refbridge.formatting import format_bibliography

    if format is not None and not isinstance(format, dict):
        raise RpcError(INVALID_PARAMETERS, "format must be an object")
    format = dict(format or {})
    unknown = sorted(set(format) - set(BIBLIOGRAPHY_FORMAT))
    if unknown:
        raise RpcError(INVALID_PARAMETERS, f"format: unknown member {unknown[0]!r} (known: "
                                           f"{', '.join(BIBLIOGRAPHY_FORMAT)})")
    if format.get("quickCopy"):
        raise RpcError(INVALID_PARAMETERS, "format.quickCopy: there are no Zotero quick-copy "
                                           "settings outside Zotero: give id, contentType "
                                           "and locale")
    if not format.get("id"):
        raise RpcError(INTERNAL_ERROR, "Error: no style specified")
    if (format.get("mode") or "bibliography") != "bibliography":
        raise RpcError(INTERNAL_ERROR, "Error: mode must be bibliograpy, not "
                                       f"{format['mode']}")
    content = format.get("contentType") or "text"
    if content not in ("text", "html"):
        raise RpcError(INVALID_PARAMETERS, f"contentType {content!r}: choose text or html")
    entries = [entry for key in _keys(citekeys, "citekeys")
               if (entry := library.by_key(key)) is not None]
    return format_bibliography([entry.record for entry in entries], style_id(format["id"]),
                               content, format.get("locale") or None)


def export_items(library: Library, citekeys: Any, translator: Any,
                 library_id: Any = None) -> str:
    """The records of ``citekeys`` exported by ``translator`` (``Better BibLaTeX``...)."""
    if not isinstance(translator, str):
        raise RpcError(INVALID_PARAMETERS, "translator must be a string")
    entries = _found(library, _keys(citekeys, "citekeys"))
    return export([entry.record for entry in entries], translator)


#: A separator of a ``file`` field (JabRef's ``Description:path:type;...``) not escaped.
_FILE_ENTRIES = re.compile(r"(?<!\\);")
_FILE_PARTS = re.compile(r"(?<!\\):")
_FILE_ESCAPE = re.compile(r"\\(.)")


def file_paths(field: str) -> list[str]:
    """The paths a ``file`` field lists (``Description:path:type;...``, ``\\`` escaping)."""
    paths = []
    for entry in filter(None, _FILE_ENTRIES.split(field)):
        parts = _FILE_PARTS.split(entry)
        path = parts[1] if len(parts) >= 3 else parts[0]
        paths.append(_FILE_ESCAPE.sub(r"\1", path))
    return paths


def attachments(library: Library, citekey: Any, library_name: Any = None
                ) -> list[dict[str, Any]]:
    """The record's files (a .bib's or a Zotero database's ``file``): each its path, and an
    address to open it (``file:`` for an absolute path, where Better BibTeX gives Zotero's)."""
    if not isinstance(citekey, str):
        raise RpcError(INVALID_PARAMETERS, "citekey must be a string")
    [entry] = _found(library, [citekey.removeprefix("@")])
    listed = entry.record.extra.get("bibtex.file", "")
    return [{"open": Path(path).as_uri() if Path(path).is_absolute() else path, "path": path}
            for path in file_paths(listed)]


def notes(library: Library, citekeys: Any) -> dict[str, list[str]]:
    """Each key's notes: the record's ``note``, when it has one."""
    from refbridge.richtext import plain

    return {entry.key: [plain(note)] if (note := entry.record.fields.get("note")) else []
            for entry in _found(library, _keys(citekeys, "citekeys"))}


def _collection_json(shelf: Shelf, collection: Collection, parents: bool = False
                     ) -> dict[str, Any]:
    """A collection as Zotero's ``toJSON`` gives it, without its version and relations; with
    ``parents``, its parent's as the ``parentCollection``, and so on up."""
    parent = shelf.collections.parent(collection)
    above: Any = False
    if parent is not None:
        above = _collection_json(shelf, parent, parents) if parents else parent.key
    return {"key": collection.key, "name": collection.name, "parentCollection": above}


def groups(shelf: Shelf, include_collections: Any = None) -> list[dict[str, Any]]:
    """The one library; with ``includeCollections``, its collections (Zotero's ``toJSON``:
    a database's version and relations; version 0 and no relations for the others)."""
    collections = None
    if include_collections:
        collections = [{**_collection_json(shelf, c), "version": c.version,
                        "relations": dict(c.relations)} for c in shelf.collections.all()]
    return [{"id": LIBRARY_ID, "name": LIBRARY_NAME, "collections": collections}]


def item_collections(shelf: Shelf, citekeys: Any, include_parents: Any = None
                     ) -> dict[str, list[dict[str, Any]]]:
    """The collections of each key found (``includeParents``: each with its parents);
    an error when no key is found."""
    keys = _keys(citekeys, "citekeys")
    found = [entry for key in keys if (entry := shelf.library.by_key(key)) is not None]
    if not found:
        raise RpcError(INVALID_PARAMETERS, f"zero matches for {','.join(keys)}")
    return {entry.key: [_collection_json(shelf, c, bool(include_parents)) for c in held]
            for entry, held in zip(found, shelf.collections.of_entries(found))}


def _absolute(value: Any, name: str) -> str:
    if not isinstance(value, str) or not Path(value).is_absolute():
        raise RpcError(INVALID_PARAMETERS, f"{name} must be an absolute path")
    return value


def scan_aux(shelf: Shelf, collection: Any, aux: Any) -> dict[str, Any]:
    """Fill the collection at path ``collection`` (made when missing) with the entries the
    .aux file ``aux`` cites, and only them (the keys the library lacks are left out)."""
    from refbridge.cited.documents import SCANNERS

    if not isinstance(collection, str):
        raise RpcError(INVALID_PARAMETERS, "collection must be a collection path")
    scan = SCANNERS["aux"](_absolute(aux, "aux"), Diagnostics(), None)
    found = shelf.collections.find(collection, create=True)
    shelf.collections.fill(found, (c.key for c in scan.citations
                                   if shelf.library.by_key(c.key) is not None))
    return {"libraryID": LIBRARY_ID, "key": found.key}


def add_autoexport(shelf: Shelf, collection: Any, translator: Any, path: Any,
                   display: Any = None, replace: Any = False) -> dict[str, Any]:
    """Auto-export the collection at path ``collection`` (made when missing) by
    ``translator`` to the absolute ``path``, written now and whenever it changes."""
    if not isinstance(collection, str) or not isinstance(translator, str):
        raise RpcError(INVALID_PARAMETERS, "collection and translator must be strings")
    if not isinstance(replace, bool):
        raise RpcError(INVALID_PARAMETERS, "replace must be true or false")
    try:
        options = display_options(display)
        translator_writer(translator)  # first, as Better BibTeX: no collection made
        target = _absolute(path, "path")
        found = shelf.collections.find(collection, create=True)
        shelf.autoexports.add(found, translator, target, options, replace)
    except (AutoExportError, DisplayOptionError) as exc:
        raise RpcError(INVALID_PARAMETERS, str(exc)) from None
    return {"libraryID": LIBRARY_ID, "key": found.key, "id": found.id}


@dataclass(frozen=True, slots=True)
class Method:
    """A method: its function (the library first) and its parameters' names, the required
    ones first."""

    function: Callable[..., Any]
    parameters: tuple[str, ...]
    required: int
    #: the function takes the whole ``Shelf``, not only the library
    on_shelf: bool = False
    #: the method changes something (refused in a GET)
    changes: bool = False


METHODS: dict[str, Method] = {
    "api.ready": Method(ready, (), 0),
    "item.search": Method(search, ("terms", "library"), 1),
    "item.citationkey": Method(citationkey, ("item_keys",), 1),
    "item.bibliography": Method(bibliography, ("citekeys", "format", "library"), 1),
    "item.export": Method(export_items, ("citekeys", "translator", "libraryID"), 2),
    "item.attachments": Method(attachments, ("citekey", "library"), 1),
    "item.notes": Method(notes, ("citekeys",), 1),
    "item.collections": Method(item_collections, ("citekeys", "includeParents"), 1, True),
    "user.groups": Method(groups, ("includeCollections",), 0, True),
    "collection.scanAUX": Method(scan_aux, ("collection", "aux"), 2, True, True),
    "autoexport.add": Method(add_autoexport, ("collection", "translator", "path",
                                              "displayOptions", "replace"), 3, True, True),
}


def _error(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": request_id}


def _arguments(method: Method, params: Any, name: str) -> list[Any]:
    if params is None:
        params = []
    if isinstance(params, Mapping):
        unknown = [key for key in params if key not in method.parameters]
        if unknown:
            raise RpcError(INVALID_PARAMETERS, f"unsupported argument {unknown[0]} for {name}")
        params = [params.get(p) for p in method.parameters]
        while params and params[-1] is None:
            params.pop()
    if not isinstance(params, list):
        raise RpcError(INVALID_REQUEST, "params must be a list or an object")
    if len(params) > len(method.parameters):
        raise RpcError(INVALID_PARAMETERS, f"{name} takes at most {len(method.parameters)} "
                                           "arguments")
    missing = [p for i, p in enumerate(method.parameters[:method.required])
               if i >= len(params) or params[i] is None]
    if missing:
        raise RpcError(INVALID_PARAMETERS, f"required argument {missing[0]} missing")
    return params


def handle(shelf: Shelf, request: Any, changes_allowed: bool = True) -> dict[str, Any]:
    """The answer to one JSON-RPC request object (``changes_allowed``: false in a GET)."""
    if not isinstance(request, dict) or request.get("jsonrpc") != "2.0" \
            or not isinstance(request.get("method"), str):
        return _error(INVALID_REQUEST, "Invalid Request")
    name, request_id = request["method"], request.get("id")
    method = METHODS.get("item." + name[6:] if name.startswith("items.") else name)
    if method is None:
        return _error(METHOD_NOT_FOUND, f"Method not found: {name}", request_id)
    if method.changes and not changes_allowed:
        return _error(INVALID_REQUEST, f"{name} changes the library's collections: send it "
                                       "in a POST", request_id)
    try:
        result = method.function(shelf if method.on_shelf else shelf.library,
                                 *_arguments(method, request.get("params"), name))
        if method.changes:
            shelf.changed()
    except RpcError as exc:
        return _error(exc.code, exc.message, request_id)
    except CollectionError as exc:
        return _error(exc.code, str(exc), request_id)
    except RefbridgeError as exc:
        return _error(INTERNAL_ERROR, str(exc), request_id)
    return {"jsonrpc": "2.0", "result": result, "id": request_id}


def answer(shelf: Shelf, body: bytes, changes_allowed: bool = True) -> Any:
    """The answer to a request body: one object, or a list for a batch."""
    try:
        request = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        return _error(PARSE_ERROR, f"Parse error: {exc}")
    if isinstance(request, list):
        return [handle(shelf, one, changes_allowed) for one in request]
    return handle(shelf, request, changes_allowed)
