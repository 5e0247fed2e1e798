"""Writing a site's pages incrementally, and the manifest that remembers them.

The manifest (``.refbridge-site.json`` in the site's folder) holds, for every work refbridge
made a page for, its slug, what identifies it (``refbridge.site.slugs.identities``) and its
files. A run computes every file first, then writes only the files whose text changed (each
atomically, through ``refbridge.site.folder``, never outside the site's folder nor through a
symbolic link), removes what ``prune`` removes, and writes the manifest last, so a run stopped
part way (a full disk) leaves a manifest that lists no file that is not there (the next run
takes a page it left for the work's: ``left_by_a_stopped_run``); an unchanged page keeps its
mtime. The manifest is checked when it is read: a slug that is not a slug or a
file outside the folder makes it no manifest of refbridge's.
A page that exists keeps its body byte for byte (the body is the user's once it exists) and
the front-matter keys the user added; refbridge rewrites only the keys it owns, and keys it
seeds (``publishDate``, ``featured``) only on a new page. A work that left the library keeps
its page and is reported; ``prune`` removes its files. This module must never decide what a
page holds.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from refbridge.errors import OutputError
from refbridge.site import frontmatter
from refbridge.site.folder import SiteFolder, is_inside
from refbridge.site.slugs import is_slug

MANIFEST = ".refbridge-site.json"
MANIFEST_VERSION = 1


@dataclass(frozen=True, slots=True)
class PageFile:
    """One file of a work: a page (``front_matter`` and a first body) or a whole file."""

    role: str  #: what the file is (``page``, ``bibtex``): a work's file of a role keeps its path
    path: str  #: relative to the site's folder, ``/``-separated
    text: str  #: the body of a new page, or the whole file when there is no front matter
    front_matter: Mapping[str, Any] | None = None
    own_keys: frozenset[str] = frozenset()  #: every key refbridge may write on this page
    seed_keys: frozenset[str] = frozenset()  #: keys written on a new page only


@dataclass(frozen=True, slots=True)
class PlannedWork:
    slug: str
    identities: tuple[str, ...]
    files: tuple[PageFile, ...]


@dataclass(frozen=True, slots=True)
class KnownWork:
    """A work of the manifest: what identifies it and its files by role."""

    identities: tuple[str, ...]
    files: Mapping[str, str]


@dataclass(slots=True)
class Manifest:
    generator: str
    works: dict[str, KnownWork] = field(default_factory=dict)

    def slug_of(self, identities: Iterable[str], claimed: set[str]) -> str | None:
        """The slug of the known work with one of ``identities`` (strongest first) that no
        other work of this run has claimed."""
        for identity in identities:
            for slug, work in self.works.items():
                if slug not in claimed and identity in work.identities:
                    return slug
        return None

    def to_json(self) -> str:
        works = {slug: {"identities": list(work.identities), "files": dict(work.files)}
                 for slug, work in sorted(self.works.items())}
        return json.dumps({"refbridge-site": MANIFEST_VERSION, "generator": self.generator,
                           "works": works}, indent=2, ensure_ascii=False) + "\n"


@dataclass(slots=True)
class PageChanges:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    orphans: list[str] = field(default_factory=list)  #: pages of works no longer listed
    pruned: list[str] = field(default_factory=list)


def _work(slug: object, work: Any) -> KnownWork:
    """A work of a manifest's ``works``, checked: ``ValueError`` when it is not one."""
    identities, files = work["identities"], work["files"]
    if not (isinstance(slug, str) and is_slug(slug) and isinstance(identities, list)
            and all(isinstance(identity, str) for identity in identities)
            and isinstance(files, dict)):
        raise ValueError(f"work {slug!r} is not one refbridge writes")
    for role, path in files.items():
        if not (isinstance(path, str) and is_inside(path)):
            raise ValueError(f"the {role} of work {slug!r} ({path!r}) is not inside the folder")
    return KnownWork(tuple(identities), dict(files))


def load_manifest(directory: str, generator: str) -> Manifest:
    folder = SiteFolder(directory)
    text = folder.read(MANIFEST)
    if text is None:
        return Manifest(generator)
    path = folder.path(MANIFEST)
    try:
        data = json.loads(text)
        works = {slug: _work(slug, work) for slug, work in data["works"].items()}
        made_by = data["generator"]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError, RecursionError):
        raise OutputError(f"{path}: not a refbridge site manifest (remove it to start "
                          "the site's pages afresh)") from None
    except ValueError as exc:  # a work that is not one refbridge writes
        raise OutputError(f"{path}: not a refbridge site manifest: {exc} (remove it to "
                          "start the site's pages afresh)") from None
    if made_by != generator:
        raise OutputError(f"{directory}: its pages were made for {made_by}, not {generator} "
                          f"(see {MANIFEST})")
    return Manifest(generator, works)


def page_text(file: PageFile, existing: str | None, path: str) -> str:
    """The text ``file`` must have, given the text the file has now (None: no such file)."""
    if file.front_matter is None:
        return file.text
    data = dict(file.front_matter)
    if existing is None:
        return frontmatter.render(data) + file.text
    old, body = frontmatter.split(existing, path)
    for key in file.seed_keys:
        if key in old:
            data[key] = old[key]
    data.update({key: value for key, value in old.items()
                 if key not in data and key not in file.own_keys})
    return frontmatter.render(data) + body


def left_by_a_stopped_run(folder: SiteFolder, file: PageFile) -> bool:
    """Whether the file at ``file``'s path is the one refbridge writes there (a run stopped
    before it wrote the manifest left it), not a file of the user's own."""
    try:
        existing = folder.read(file.path)
    except OutputError:  # a link, or not text: the user's
        return False
    return existing is not None and page_text(file, existing, file.path) == existing


def _placed(work: PlannedWork, manifest: Manifest) -> PlannedWork:
    """``work`` with each file at the path the manifest knows for its role."""
    known = manifest.works.get(work.slug)
    if known is None:
        return work
    files = tuple(PageFile(f.role, known.files.get(f.role, f.path), f.text, f.front_matter,
                           f.own_keys, f.seed_keys) for f in work.files)
    return PlannedWork(work.slug, work.identities, files)


def _prune(folder: SiteFolder, works: Mapping[str, KnownWork]) -> list[str]:
    """Remove the files of ``works`` and the folders named after their slugs they leave
    empty (a page bundle); the paths removed."""
    removed = []
    for slug, work in works.items():
        for path in work.files.values():
            if folder.remove(path):
                removed.append(path)
            parent = posixpath.dirname(path)
            if posixpath.basename(parent) == slug:
                folder.remove_empty_folder(parent)
    return removed


def write_pages(directory: str, manifest: Manifest, works: Sequence[PlannedWork],
                prune: bool) -> PageChanges:
    """Bring the site's pages in ``directory`` up to ``works`` (see the module's text)."""
    folder = SiteFolder(directory)
    changes = PageChanges()
    placed = [_placed(work, manifest) for work in works]
    writes: list[tuple[str, str, bool]] = []  # (path, text, new)
    for work in placed:
        for file in work.files:
            existing = folder.read(file.path)
            text = page_text(file, existing, folder.path(file.path))
            if text == existing:
                changes.unchanged += 1
            else:
                writes.append((file.path, text, existing is None))
    listed = {work.slug for work in placed}
    left = {slug: work for slug, work in manifest.works.items() if slug not in listed}
    for known in left.values():
        changes.orphans += [path for path in known.files.values() if folder.exists(path)]
    updated = Manifest(manifest.generator, {
        **({} if prune else left),
        **{work.slug: KnownWork(work.identities, {f.role: f.path for f in work.files})
           for work in placed}})
    for path, text, new in writes:
        folder.write(path, text)
        (changes.created if new else changes.updated).append(path)
    if prune:
        changes.pruned, changes.orphans = _prune(folder, left), []
    if updated.to_json() != folder.read(MANIFEST):
        folder.write(MANIFEST, updated.to_json())
    return changes
