"""Stable page names (slugs) for the works of a publication site.

A work's slug is its citation key as read from the input (``qian2026specdb``), else the year,
first author and first title words (``2024-doe-cardinality-estimation-with``), as lower-case
ASCII letters, digits and hyphens, never a name Windows reserves for a device (``con``,
``aux``, ``nul``, ``prn``, ``com1``..., ``lpt1``...: ``con-work``). Once a work has a page,
the site's manifest (``refbridge.site.pages``) keeps its slug, so a corrected title, date or
author list never moves the page. This module must never read or write files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from anyascii import anyascii

from refbridge.citekeys import STOP_WORDS
from refbridge.model import Record
from refbridge.sameness.ids import arxiv_id, normalized_doi
from refbridge.sameness.text import fold

_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_WORD = re.compile(r"[^\W_]+")
TITLE_WORDS = 3
MAX_LENGTH = 60
UNTITLED = "untitled"
#: Names Windows gives its devices, whatever their case or extension: no file may have them.
WINDOWS_DEVICES = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(10)),
                             *(f"lpt{n}" for n in range(10))})
#: What a slug that would be a Windows device's name gets after it.
DEVICE_SUFFIX = "-work"


def slugify(text: str) -> str:
    """``text`` as lower-case ASCII words joined by hyphens (``Łukasz: Über`` -> ``lukasz-uber``)."""
    slug = _NOT_SLUG.sub("-", anyascii(text).lower()).strip("-")[:MAX_LENGTH].rstrip("-")
    return slug + DEVICE_SUFFIX if slug in WINDOWS_DEVICES else slug


def is_slug(text: str) -> bool:
    """Whether ``text`` is a slug: lower-case ASCII words joined by single hyphens."""
    return _SLUG.fullmatch(text) is not None


def content_slug(record: Record) -> str:
    """Year, first author's family name and the first significant title words."""
    people = record.authors or record.names.get("editor", ())
    family = (people[0].family or people[0].literal or "") if people else ""
    words = [word for word in _WORD.findall(record.title or "")
             if word.casefold() not in STOP_WORDS][:TITLE_WORDS]
    parts = [str(record.year) if record.year else "", family, *words]
    return slugify(" ".join(part for part in parts if part)) or UNTITLED


def record_slug(record: Record) -> str:
    """The slug of a work new to the site: its input citation key, else its content."""
    if record.citation_key:
        return slugify(record.citation_key) or content_slug(record)
    return content_slug(record)


def identities(record: Record) -> tuple[str, ...]:
    """What identifies a work from one run to the next, strongest first: its input citation
    key, DOI, arXiv id, and title with year."""
    found = [f"key:{record.citation_key}" if record.citation_key else None,
             f"doi:{doi}" if (doi := normalized_doi(record)) else None,
             f"arxiv:{arxiv}" if (arxiv := arxiv_id(record)) else None,
             f"title:{fold(record.title)}:{record.year or ''}"
             if record.title else None]
    return tuple(identity for identity in found if identity)


def unique(slug: str, taken: Iterable[str]) -> str:
    """``slug``, or ``slug-2``, ``slug-3`` ... when it is taken."""
    used = set(taken)
    if slug not in used:
        return slug
    number = 2
    while f"{slug}-{number}" in used:
        number += 1
    return f"{slug}-{number}"
