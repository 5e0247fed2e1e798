"""The links a work's page offers (paper, code, slides, video, data, poster, preprint, source).

Each kind of link has a list of places to look, in order, as a table: a field of the record
(a CSL variable such as ``URL``, or a field its source kept, such as a ``.bib``'s ``pdf`` or
``code``; ``file`` is read as JabRef's and Zotero's ``description:path:type`` lists), or one
of the derived addresses ``doi``, ``arxiv-abs`` and ``arxiv-pdf``. ``--link KIND=FIELD``
replaces a kind's list by one field (``--link pdf=`` drops the kind). Only http(s) addresses
are linked (``refbridge.cv.links``); a field that holds anything else is reported. This module
must never write markup.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

from refbridge.cv.links import record_links, safe_http_url
from refbridge.cv.select import CvOptionError
from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.sameness.ids import arxiv_id
from refbridge.vocab import TEXT_VARIABLES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

#: kind of link -> where to look for it, in order
LINK_SOURCES: dict[str, tuple[str, ...]] = {
    "pdf": ("pdf", "url_pdf", "file", "arxiv-pdf"),
    "code": ("code", "url_code", "github", "repository"),
    "slides": ("slides", "url_slides"),
    "video": ("video", "url_video"),
    "dataset": ("dataset", "url_dataset"),
    "poster": ("poster", "url_poster"),
    "preprint": ("arxiv-abs", "url_preprint"),
    "source": ("URL",),
}
_VARIABLES = {variable.casefold(): variable for variable in TEXT_VARIABLES}


def link_sources(overrides: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The table with ``overrides`` (kind -> one field, empty: no such link) applied."""
    unknown = sorted(set(overrides) - set(LINK_SOURCES))
    if unknown:
        raise CvOptionError(f"unknown kind of link {unknown[0]!r} in --link (choose from "
                            f"{', '.join(LINK_SOURCES)})")
    table = dict(LINK_SOURCES)
    for kind, source in overrides.items():
        table[kind] = (source,) if source else ()
    return table


def read_link_file(path: str) -> dict[str, str]:
    """The ``[links]`` table of a TOML file (``pdf = "pdflink"``) as overrides."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CvOptionError(f"{path}: cannot read the link mapping: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CvOptionError(f"{path}: not a TOML link mapping: {exc}") from None
    links = data.get("links", data)
    if not isinstance(links, dict) or not all(isinstance(v, str) for v in links.values()):
        raise CvOptionError(f"{path}: the link mapping must be a [links] table of "
                            'kind = "field" lines')
    return dict(links)


def _field(record: Record, name: str) -> str | None:
    variable = _VARIABLES.get(name.casefold())
    if variable is not None:
        return record.get(variable)
    wanted = name.casefold()
    for key, value in record.extra.items():
        if key.partition(".")[2].casefold() == wanted:
            return value
    return None


def _file_addresses(value: str) -> list[str]:
    """The paths of a ``file`` field: ``desc:path:type;...`` (JabRef) or ``path;path``."""
    paths = []
    for part in value.split(";"):
        pieces = part.split(":")
        if len(pieces) >= 3 and pieces[-1].strip().isalpha() and not part.startswith("http"):
            paths.append(":".join(pieces[1:-1]))
        else:
            paths.append(part)
    return [path.strip() for path in paths if path.strip()]


def _derived(record: Record, diagnostics: Diagnostics) -> dict[str, str]:
    standard = {link.label: link.url for link in record_links(record, diagnostics)}
    derived = {"doi": standard.get("DOI"), "arxiv-abs": standard.get("arXiv"),
               "url": standard.get("URL")}
    arxiv = arxiv_id(record)
    if arxiv:
        derived["arxiv-pdf"] = "https://arxiv.org/pdf/" + quote(arxiv, safe="/.-")
    return {name: url for name, url in derived.items() if url}


def work_links(record: Record, sources: Mapping[str, tuple[str, ...]],
               diagnostics: Diagnostics) -> dict[str, str]:
    """The record's links by kind, in the table's order of kinds."""
    derived = _derived(record, diagnostics)
    links: dict[str, str] = {}
    where = record.source
    for kind, places in sources.items():
        for place in places:
            if place.casefold() in derived:
                links[kind] = derived[place.casefold()]
                break
            value = _field(record, place)
            if value is None:
                continue
            candidates = _file_addresses(value) if place.casefold() == "file" else [value.strip()]
            url = next((c for c in candidates if safe_http_url(c)), None)
            if url is not None:
                links[kind] = url
                break
            diagnostics.warning(f"record {record.id!r}: {place} {value[:60]!r} is not an "
                                f"http(s) address; the page does not link it as {kind}",
                                where.file if where else None, where.line if where else None)
    return links
