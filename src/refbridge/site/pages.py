"""Writing a site's pages incrementally, and the manifest that remembers them.

The manifest (``.refbridge-site.json`` in the site's folder) holds, for every work refbridge
made a page for, its slug, what identifies it (``refbridge.site.slugs.identities``) and its
files. A run computes every file first, then writes the manifest, then only the files whose
text changed (each atomically: ``refbridge.textio``), so an unchanged page keeps its mtime.
A page that exists keeps its body byte for byte (the body is the user's once it exists) and
the front-matter keys the user added; refbridge rewrites only the keys it owns, and keys it
seeds (``publishDate``, ``featured``) only on a new page. A work that left the library keeps
its page and is reported; ``prune`` removes its files. This module must never decide what a
page holds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from refbridge.errors import OutputError
from refbridge.site import frontmatter
from refbridge.textio import atomic_output

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


def _join(directory: str, path: str) -> str:
    return os.path.join(directory, *path.split("/"))


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            return stream.read()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise OutputError(f"{path}: not UTF-8 text; refbridge leaves it alone") from None
    except OSError as exc:
        raise OutputError(f"{path}: cannot read: {exc.strerror}") from None


def load_manifest(directory: str, generator: str) -> Manifest:
    path = os.path.join(directory, MANIFEST)
    text = _read(path)
    if text is None:
        return Manifest(generator)
    try:
        data = json.loads(text)
        works = {slug: KnownWork(tuple(work["identities"]), dict(work["files"]))
                 for slug, work in data["works"].items()}
        made_by = data["generator"]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise OutputError(f"{path}: not a refbridge site manifest (remove it to start "
                          "the site's pages afresh)") from None
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


def _placed(work: PlannedWork, manifest: Manifest) -> PlannedWork:
    """``work`` with each file at the path the manifest knows for its role."""
    known = manifest.works.get(work.slug)
    if known is None:
        return work
    files = tuple(PageFile(f.role, known.files.get(f.role, f.path), f.text, f.front_matter,
                           f.own_keys, f.seed_keys) for f in work.files)
    return PlannedWork(work.slug, work.identities, files)


def _prune(directory: str, works: Mapping[str, KnownWork]) -> list[str]:
    """Remove the files of ``works`` and the folders named after their slugs they leave
    empty (a page bundle); the paths removed."""
    removed = []
    for slug, work in works.items():
        for path in work.files.values():
            target = _join(directory, path)
            if os.path.exists(target):
                os.remove(target)
                removed.append(path)
            parent = os.path.dirname(target)
            if os.path.basename(parent) == slug and os.path.isdir(parent) \
                    and not os.listdir(parent):
                os.rmdir(parent)
    return removed


def write_pages(directory: str, manifest: Manifest, works: Sequence[PlannedWork],
                prune: bool) -> PageChanges:
    """Bring the site's pages in ``directory`` up to ``works`` (see the module's text)."""
    changes = PageChanges()
    placed = [_placed(work, manifest) for work in works]
    writes: list[tuple[str, str, bool]] = []  # (path, text, new)
    for work in placed:
        for file in work.files:
            target = _join(directory, file.path)
            existing = _read(target)
            text = page_text(file, existing, target)
            if text == existing:
                changes.unchanged += 1
            else:
                writes.append((file.path, text, existing is None))
    listed = {work.slug for work in placed}
    left = {slug: work for slug, work in manifest.works.items() if slug not in listed}
    for known in left.values():
        changes.orphans += [path for path in known.files.values()
                            if os.path.exists(_join(directory, path))]
    updated = Manifest(manifest.generator, {
        **({} if prune else left),
        **{work.slug: KnownWork(work.identities, {f.role: f.path for f in work.files})
           for work in placed}})
    os.makedirs(directory, exist_ok=True)
    if updated.to_json() != _read(os.path.join(directory, MANIFEST)):
        with atomic_output(os.path.join(directory, MANIFEST)) as out:
            out.write(updated.to_json())
    for path, text, new in writes:
        target = _join(directory, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with atomic_output(target) as out:
            out.write(text)
        (changes.created if new else changes.updated).append(path)
    if prune:
        changes.pruned, changes.orphans = _prune(directory, left), []
    return changes
