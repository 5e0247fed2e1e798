"""The collections of the served library, as Better BibTeX's JSON-RPC names and finds them
(``/My Library/Projects/Estuaries``): a Zotero database's collections, JabRef's static groups
of a .bib, and the collections made during the run (``collection.scanAUX``,
``autoexport.add``).

A Zotero database served (``zotero-sqlite:``) gives its collections as Zotero has them
(``zoterodb``): ID, key, version, relations, the tree (children by name) and the items in each.
A .bib saved by JabRef lists its group tree in ``@comment{jabref-meta: grouping:...}``
(``1 StaticGroup:Marine\\;0\\;...;``, the number its depth) and each entry's groups in its
``groups`` field (``groups = {Marine, Kelp}``): each static group is a collection, its members
the entries whose ``groups`` names it; a name in a ``groups`` field that the tree lacks is a
collection at the top. Groups that select entries by a search (keyword, regular expression,
search groups) are not collections. A collection made during the run holds the keys it was
filled with (a made collection of the same path as a group or a database's collection
replaces its members); ``state`` keeps them from one run to the next. A collection not of a
database has a key made from its path (the same in every run) and an id counting the
collections in the order they were first seen, after the databases' own.

A path is found as Better BibTeX finds it (``content/collection.ts``): it starts with ``/``,
then the library (empty, its name or its id 1), then the names, each matched exactly, else
regardless of case; not found is error 404, a name that two collections share 409. This
module must never write a library file nor read one itself (a database's collections come
from ``zoterodb``).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.serve.library import LIBRARY_NAME, Entry, Library
from refbridge.serve.zoterodb import DatabaseCollection, database_collections

#: The id of the one library served (Zotero's personal library's).
LIBRARY_ID = 1
#: The letters of Zotero's object keys.
KEY_LETTERS = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"
#: The error codes Better BibTeX answers for a collection not found, and for an ambiguous one.
NOT_FOUND, NOT_UNIQUE = 404, 409
#: The JabRef group types whose members an entry's ``groups`` field lists.
STATIC_GROUPS = frozenset({"StaticGroup", "ExplicitGroup"})
#: The hints of a .bib record that hold the text between entries (``@comment`` blocks).
BETWEEN_ENTRIES = ("bibtex.before", "bibtex.after")

_GROUPING = re.compile(r"jabref-meta:\s*grouping:(.*?)\}", re.DOTALL)
_GROUP_LINE = re.compile(r"^\s*(\d+)\s+(\w+):(.*)$", re.MULTILINE)
#: What separates the parts of a group once the line is unescaped (``Name;0;1;...``).
_GROUP_PARTS = re.compile(r"(?<!\\);")
_GROUPS_FIELD_SEPARATOR = re.compile(r"\s*[,;]\s*")


class CollectionError(RefbridgeError):
    """A collection path that names none, or more than one (``code``: Better BibTeX's)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Collection:
    """A collection: its id, key and version (as Zotero gives them), its path of names and
    its relations (a Zotero database's)."""

    id: int
    key: str
    path: tuple[str, ...]
    version: int = 0
    relations: Mapping[str, str | list[str]] = field(default_factory=dict, compare=False,
                                                     hash=False)

    @property
    def name(self) -> str:
        return self.path[-1]


def collection_key(path: Sequence[str]) -> str:
    """An eight-letter key, as Zotero's, made from ``path`` (the same in every run)."""
    digest = int.from_bytes(hashlib.sha256("/".join(path).encode("utf-8")).digest()[:8], "big")
    letters = []
    for _ in range(8):
        digest, index = divmod(digest, len(KEY_LETTERS))
        letters.append(KEY_LETTERS[index])
    return "".join(letters)


def _unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def jabref_groups(text: str) -> list[tuple[str, ...]]:
    """The paths of the static groups of JabRef's ``grouping`` metadata in ``text``."""
    found: list[tuple[str, ...]] = []
    for block in _GROUPING.findall(text):
        trail: list[str] = []
        for depth, kind, body in _GROUP_LINE.findall(block):
            if int(depth) == 0:
                continue  # JabRef's "All entries"
            # escaped twice: the metadata's line, then the group's parts
            name = _unescaped(_GROUP_PARTS.split(_unescaped(body), maxsplit=1)[0])
            trail = [*trail[:int(depth) - 1], name]
            if kind in STATIC_GROUPS:
                found.append(tuple(trail))
    return found


def groups_of(entry: Entry) -> list[str]:
    """The group names of an entry's ``groups`` field (JabRef's)."""
    listed = entry.record.extra.get("bibtex.groups", "")
    return [name for name in _GROUPS_FIELD_SEPARATOR.split(listed.strip()) if name]


class Collections:
    """The collections of ``library``: its databases' collections, read again when the
    library changes, its JabRef groups, read from its records whenever asked, and those made
    during the run; safe to use from several threads. A database that cannot be read now
    is reported through ``report`` (one line)."""

    def __init__(self, library: Library,
                 report: Callable[[str], object] = lambda line: None) -> None:
        self._library = library
        self._report = report
        self._ids: dict[tuple[str, ...], int] = {}
        #: path -> the keys filled in (None: made, never filled)
        self._made: dict[tuple[str, ...], frozenset[str] | None] = {}
        self._stored: dict[tuple[str, ...], DatabaseCollection] = {}
        self._stored_at: int | None = None  #: the library's generation they were read at
        self._lock = threading.Lock()
        #: counts the changes of the collections made (made, filled)
        self.generation = 0

    def _database(self) -> dict[tuple[str, ...], DatabaseCollection]:
        """The collections of the databases served, by path (the first of a path)."""
        generation = self._library.generation
        with self._lock:
            if self._stored_at == generation:
                return self._stored
        try:  # (their warnings were said when the library was read)
            found = database_collections(self._library.paths, Diagnostics())
        except RefbridgeError as exc:
            self._report(f"refbridge: error: collections not read: {exc}")
            found = []
        stored: dict[tuple[str, ...], DatabaseCollection] = {}
        for collection in found:
            stored.setdefault(collection.path, collection)
        with self._lock:
            self._stored, self._stored_at = stored, generation
        return stored

    def made(self) -> dict[tuple[str, ...], frozenset[str] | None]:
        """The collections made or filled during the run: path -> the keys it was filled
        with (None: made, never filled)."""
        with self._lock:
            return dict(self._made)

    def _collection(self, path: tuple[str, ...]) -> Collection:
        database = self._database()
        stored = database.get(path)
        if stored is not None:
            return Collection(stored.id, stored.key, path, stored.version, stored.relations)
        taken = [collection.id for collection in database.values()]
        with self._lock:
            number = self._ids.get(path)
            if number is None:
                number = self._ids[path] = max([0, *self._ids.values(), *taken]) + 1
        return Collection(number, collection_key(path), path)

    def _group_paths(self, entries: Sequence[Entry]) -> list[tuple[str, ...]]:
        paths: dict[tuple[str, ...], None] = {}
        for entry in entries:
            for hint in BETWEEN_ENTRIES:
                if "jabref-meta" in (text := entry.record.hints.get(hint, "")):
                    paths.update(dict.fromkeys(jabref_groups(text)))
        named = {path[-1] for path in paths}
        for entry in entries:
            paths.update({(name,): None for name in groups_of(entry) if name not in named})
        return list(paths)

    def all(self) -> list[Collection]:
        """Every collection: the library's groups in the order of its tree, its databases'
        collections in theirs, then those made, each after its parent."""
        with self._lock:
            made = list(self._made)
        paths = dict.fromkeys(self._group_paths(self._library.entries))
        paths.update(dict.fromkeys(self._database()))
        for path in made:
            paths.update(dict.fromkeys(path[:end] for end in range(1, len(path) + 1)))
        return [self._collection(path) for path in paths]

    def parent(self, collection: Collection) -> Collection | None:
        """The collection that holds ``collection`` (None: it is at the top)."""
        return self._collection(collection.path[:-1]) if len(collection.path) > 1 else None

    def _holds(self, collection: Collection) -> Callable[[Entry], bool]:
        with self._lock:
            made = self._made.get(collection.path)
        if made is not None:
            return lambda entry: entry.key in made
        stored = self._database().get(collection.path)
        sources = stored.sources if stored is not None else frozenset()
        return lambda entry: collection.name in groups_of(entry) or (
            entry.record.source is not None and entry.record.source.file in sources)

    def members(self, collection: Collection) -> list[Entry]:
        """The entries in ``collection`` (not those of the collections in it), in the
        library's order."""
        return list(filter(self._holds(collection), self._library.entries))

    def of_entries(self, entries: Sequence[Entry]) -> list[list[Collection]]:
        """The collections each of ``entries`` is in."""
        holds = [(collection, self._holds(collection)) for collection in self.all()]
        return [[collection for collection, held in holds if held(entry)]
                for entry in entries]

    def find(self, path: str, create: bool = False) -> Collection:
        """The collection at ``path`` (``/LIBRARY/NAME/...``), made (with the collections
        above it) when ``create`` and it does not exist."""
        library, _, tree = path.removeprefix("/").partition("/")
        if not path.startswith("/"):
            raise CollectionError(f"collection path {json.dumps(path)} is not an absolute path",
                                  NOT_FOUND)
        names = [name for name in tree.split("/") if name]
        if not tree or not names:
            raise CollectionError("path is too short", NOT_FOUND)
        if library not in ("", LIBRARY_NAME, str(LIBRARY_ID)):
            raise CollectionError(f"Library {library} not found", NOT_FOUND)
        existing = [collection.path for collection in self.all()]
        found: tuple[str, ...] = ()
        for name in names:
            children = [p for p in existing if len(p) == len(found) + 1 and p[:-1] == found]
            matches = [p for p in children if p[-1] == name] or [
                p for p in children if p[-1].lower() == name.lower()]
            shown = "/" + "/".join([*found, name])
            if len(matches) > 1:
                raise CollectionError(f"Collection '{shown}' is not unique", NOT_UNIQUE)
            if not matches and not create:
                raise CollectionError(f"Collection '{shown}' does not exist", NOT_FOUND)
            found = matches[0] if matches else (*found, name)
            if not matches:
                with self._lock:
                    self._made.setdefault(found, None)
                    self.generation += 1
        return self._collection(found)

    def fill(self, collection: Collection, keys: Iterable[str]) -> None:
        """Make the entries of ``keys`` the members of ``collection``, and only them."""
        with self._lock:
            self._made[collection.path] = frozenset(keys)
            self.generation += 1

    def restore(self, path: tuple[str, ...], keys: frozenset[str] | None) -> Collection:
        """The collection at ``path`` as a run before left it: filled with ``keys``, or made
        (None) when the library has none at that path."""
        exists = path in {collection.path for collection in self.all()}
        with self._lock:
            if keys is not None or not exists:
                self._made[path] = keys
                self.generation += 1
        return self._collection(path)
