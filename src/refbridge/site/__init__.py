"""Publication pages for static sites: the library entry point of ``refbridge site``.

``write_site`` reads the inputs, merges duplicates and keeps the owner's works exactly as
``refbridge cv`` does (``refbridge.cv.build_cv``, which also formats each entry with the
citation style, the owner highlighted), gives each work a stable slug, its links and its
Google Scholar tags, and has a generator (``hugo``: Hugo Blox; ``jekyll``: academicpages;
``html``: standalone pages) turn it into files, written incrementally by ``refbridge.site.pages``. This package must
never format an entry itself nor write a file but through ``pages``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from refbridge.cv import CvOptions, build_cv
from refbridge.cv.document import profile_owner_ids
from refbridge.cv.owner import OwnerMatcher, csl_name
from refbridge.cv.select import CvOptionError, Filters
from refbridge.errors import Diagnostics
from refbridge.merge import MergeResult
from refbridge.model import Record
from refbridge.pipeline import read_records, record_texts, with_keys
from refbridge.registry import WriteOptions
from refbridge.runs import ReadOptions
from refbridge.site.folder import SiteFolder
from refbridge.site.links import link_sources, work_links
from refbridge.site.pages import (
    Manifest,
    PageChanges,
    PageFile,
    PlannedWork,
    left_by_a_stopped_run,
    load_manifest,
    write_pages,
)
from refbridge.site.scholar_meta import scholar_tags
from refbridge.site.slugs import identities, record_slug, unique
from refbridge.site.work import Generator, Work

#: --to value -> the module whose ``GENERATOR`` writes that site's pages
GENERATORS: dict[str, str] = {
    "hugo": "refbridge.site.hugo",
    "jekyll": "refbridge.site.jekyll",
    "html": "refbridge.site.standalone",
}
DEFAULT_STYLE = "apa"


@dataclass(frozen=True, slots=True)
class SiteOptions:
    """Everything ``refbridge site`` can be asked besides its inputs and folder."""

    generator: str = "hugo"  #: a key of ``GENERATORS``
    owners: tuple[str, ...] = ()
    owner_ids: tuple[str, ...] = ()
    style: str = DEFAULT_STYLE  #: the style of the formatted citation (academicpages)
    style_dirs: tuple[str | Path, ...] = ()
    locale: str | None = None
    links: Mapping[str, str] = field(default_factory=dict)  #: kind -> field (``--link``)
    prune: bool = False
    merge: bool = True
    all_records: bool = False
    filters: Filters = field(default_factory=Filters)


@dataclass(slots=True)
class SiteReport:
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    records_read: int = 0
    merge: MergeResult = field(default_factory=MergeResult)
    works: int = 0
    changes: PageChanges = field(default_factory=PageChanges)

    def describe(self) -> list[str]:
        """What the run did, one line each: works left the library, then the summary."""
        changes = self.changes
        lines = [f"{path}: its work is no longer in the inputs (kept; --prune removes it)"
                 for path in changes.orphans]
        lines += [f"{path}: removed (its work is no longer in the inputs)"
                  for path in changes.pruned]
        written = len(changes.created) + len(changes.updated)
        lines.append(f"{self.works} works: {written} files written ({len(changes.created)} "
                     f"new, {len(changes.updated)} updated), {changes.unchanged} unchanged")
        return lines


def get_generator(name: str) -> Generator:
    try:
        module = GENERATORS[name]
    except KeyError:
        raise CvOptionError(f"unknown site generator {name!r} (choose from "
                            f"{', '.join(GENERATORS)})") from None
    generator: Generator = importlib.import_module(module).GENERATOR
    return generator


def _files(generator: Generator, work: Work, today: date, slug: str
           ) -> tuple[PageFile, ...]:
    """The files of ``work`` under ``slug``."""
    return generator.files(replace(work, slug=slug), today)


def _users_file(folder: SiteFolder, page: PageFile) -> bool:
    """Whether a file of the user's own is where ``page`` goes."""
    return folder.exists(page.path) and not left_by_a_stopped_run(folder, page)


def _new_slug(record: Record, taken: set[str], folder: SiteFolder,
              files_of: Callable[[str], tuple[PageFile, ...]]) -> str:
    """A slug no work has taken and whose page is not a file of the user's own: there is
    none, or it is the page refbridge writes for this work (a run stopped before it wrote the
    manifest left it)."""
    base = record_slug(record)
    slug = unique(base, taken)
    while _users_file(folder, files_of(slug)[0]):
        taken = taken | {slug}
        slug = unique(base, taken)
    return slug


def plan_works(records: Sequence[Record], citations: Sequence[str], options: SiteOptions,
               directory: str, manifest: Manifest, diagnostics: Diagnostics, today: date
               ) -> list[PlannedWork]:
    """The files of every work of ``records`` (the owner's, merged, each with its formatted
    citation), with the slugs the site's ``manifest`` knows."""
    generator = get_generator(options.generator)
    sources = link_sources(options.links)
    owner = OwnerMatcher.of(options.owners, options.owner_ids)
    keyed_records = with_keys(records, WriteOptions())
    from refbridge.formats.bibtex.writer import entry_alone  # the library's text stays there

    entries = record_texts([entry_alone(record) for record in keyed_records], "bibtex",
                           WriteOptions(diagnostics=diagnostics))
    folder = SiteFolder(directory)
    claimed: set[str] = set()
    planned: list[PlannedWork] = []
    for record, keyed, citation, bibtex in zip(records, keyed_records, citations, entries):
        ids = identities(record)
        links = work_links(keyed, sources, diagnostics)
        people = keyed.authors or keyed.names.get("editor", ())
        work = Work(keyed, "", citation, links, bibtex,
                    frozenset(i for i, p in enumerate(people) if owner(csl_name(p))),
                    tuple(scholar_tags(keyed, links)))
        files_of = functools.partial(_files, generator, work, today)
        slug = manifest.slug_of(ids, claimed) or _new_slug(record, claimed | set(manifest.works),
                                                           folder, files_of)
        claimed.add(slug)
        planned.append(PlannedWork(slug, ids, files_of(slug)))
    return planned


def write_site(inputs: Sequence[str], directory: str, options: SiteOptions,
               read_options: ReadOptions | None = None, strict: bool = False,
               today: date | None = None) -> SiteReport:
    """Read ``inputs`` and bring the publication pages of the site in ``directory`` up to
    date (see ``refbridge.site.pages`` for what is rewritten and what is kept)."""
    from refbridge.styles import resolve_style
    from refbridge.styles.locales import check_locale

    get_generator(options.generator)  # an unknown generator, style or link kind fails first
    resolve_style(options.style, options.style_dirs)
    check_locale(options.locale)
    link_sources(options.links)
    manifest = load_manifest(directory, options.generator)  # a site of another generator too
    report = SiteReport(Diagnostics(strict=strict))
    records = list(read_records(inputs, report.diagnostics, read_options or ReadOptions()))
    report.records_read = len(records)
    cv_options = CvOptions(options.owners, options.style, options.style_dirs, options.locale,
                           group_by="none", numbering="none", links=False, summary=False,
                           merge=options.merge, filters=options.filters,
                           owner_ids=options.owner_ids, all_records=options.all_records)
    document, report.merge = build_cv(records, cv_options, "html", report.diagnostics)
    entries = document.entries
    site_options = replace(options, owners=document.owners,
                           owner_ids=options.owner_ids or profile_owner_ids(records))
    works = plan_works([entry.record for entry in entries], [entry.text for entry in entries],
                       site_options, directory, manifest, report.diagnostics,
                       today or date.today())
    report.works = len(works)
    report.changes = write_pages(directory, manifest, works, options.prune)
    return report
