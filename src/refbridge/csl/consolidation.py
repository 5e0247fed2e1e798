"""CSL-M consolidation of bibliography entries, as citeproc-js does it: the chapters of one
book (``track-containers`` / ``consolidate-containers``) counted and numbered for the
``container-multiple`` and ``container-subsequent`` conditions, or written as one entry;
and, in a CSL-M style (version 1.1m…), the sections of one statute as one entry (such a
style reads legal items as citeproc-js does: see ``as_legal_item``).

This module only groups items by the values that identify their container or statute; it
never renders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .values import parse_date

_LEGAL_TYPES = frozenset(("bill", "gazette", "legislation", "regulation", "treaty"))
_JURISDICTION_TYPES = frozenset(("bill", "legal_case", "legislation", "gazette", "regulation"))
#: what identifies a container (citeproc-js's container_id) and a statute (legislation_id)
_CONTAINER_FIELDS = ("type", "container-title", "publisher", "edition")
_LEGISLATION_FIELDS = ("type", "title", "jurisdiction", "genre", "volume", "container-title")
_LEGISLATION_DATES = ("original-date", "issued")


@dataclass(frozen=True)
class Containers:
    """A style's consolidation: the item types whose containers it tracks, those whose
    entries it consolidates, and whether it consolidates the sections of a statute."""

    tracked: frozenset[str] = frozenset()
    consolidated: frozenset[str] = frozenset()
    legal: bool = False

    @property
    def active(self) -> bool:
        return bool(self.tracked or self.legal)


def containers_of(style_attrs: Mapping[str, str], bibliography_attrs: Mapping[str, str]) -> Containers:
    consolidated = bibliography_attrs.get("consolidate-containers", "").split()
    tracked = [*style_attrs.get("track-containers", "").split(), *bibliography_attrs.get("track-containers", "").split(),
               *consolidated]
    return Containers(frozenset(tracked), frozenset(consolidated), style_attrs.get("version", "").startswith("1.1m"))


def as_legal_item(item: dict[str, Any]) -> dict[str, Any]:
    """An item as citeproc-js reads it in a CSL-M style (1.1m…): an authority given as text
    is an institution's name (so that cs:names writes it), and a legal item without a
    jurisdiction is of the "us" one."""
    if isinstance(item.get("authority"), str) and item["authority"]:
        item["authority"] = [{"literal": item["authority"]}]
    if item.get("type") in _JURISDICTION_TYPES and not item.get("jurisdiction"):
        item["jurisdiction"] = "us"
    return item


def container_id(item: Mapping[str, Any], containers: Containers) -> str | None:
    if item.get("type") not in containers.tracked:
        return None
    return "::".join(str(item[name]) for name in _CONTAINER_FIELDS if item.get(name))


def legislation_id(item: Mapping[str, Any], containers: Containers) -> str | None:
    if not containers.legal or item.get("type") not in _LEGAL_TYPES:
        return None
    parts = [str(item[name]) for name in _LEGISLATION_FIELDS if item.get(name)]
    for name in _LEGISLATION_DATES:
        date = parse_date(item.get(name))
        if date is not None and date.start[0]:
            parts.append(str(date.start[0]))
            break
    return "::".join(parts)


def consolidated(keys: Sequence[str], items: Mapping[str, Mapping[str, Any]],
                 containers: Containers) -> list[tuple[str, int, int]]:
    """The entries of a bibliography of *keys* (in order) once consolidated, each with how
    many items its container has and its place among those written (0, 0 outside any)."""
    seen: set[str] = set()
    counts: dict[str, int] = {}
    kept: list[tuple[str, str | None]] = []
    for key in keys:
        item = items[key]
        statute = legislation_id(item, containers)
        container = container_id(item, containers) if statute is None else None
        if statute is not None:
            if statute in seen:
                continue
            seen.add(statute)
        elif container is not None:
            counts[container] = counts.get(container, 0) + 1
            if item.get("type") in containers.consolidated:
                if container in seen:
                    continue
                seen.add(container)
        kept.append((key, container))
    places: dict[str, int] = {}
    out = []
    for key, container in kept:
        if container is None:
            out.append((key, 0, 0))
            continue
        places[container] = places.get(container, 0) + 1
        out.append((key, counts[container], places[container]))
    return out
