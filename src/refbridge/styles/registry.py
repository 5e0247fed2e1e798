"""Style lookup by what people type: a ``.csl`` path, a style-module name, an alias or an id.

``resolve_style`` tries, in order: a path to a ``.csl`` file; a style defined by a style module
(``refbridge.styles.modules``); an alias (``refbridge.styles.aliases``); an id of the official
catalogue (``refbridge.styles.catalogue``). A dependent CSL style (one that only points at an
independent parent) is rendered with its parent from the catalogue and keeps its own
default locale. ``list_styles`` gives the same names for browsing. This module must never render.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from refbridge.styles.aliases import ALIASES
from refbridge.styles.catalogue import catalogue_index, catalogue_path
from refbridge.styles.csl_files import UnknownStyle, is_path
from refbridge.styles.definitions import CslStyleDefinition, StyleDefinition
from refbridge.styles.header import read_style_header
from refbridge.styles.modules import find_style_modules


@dataclass(frozen=True, slots=True)
class StyleListing:
    """One line of ``refbridge styles``."""

    name: str
    title: str
    kind: str  #: ``module``, ``alias`` or ``catalogue``


def resolve_style(name: str, style_dirs: Sequence[str | Path] = ()) -> StyleDefinition:
    """The style ``name`` stands for; ``style_dirs`` are extra user style folders."""
    if is_path(name):
        path = Path(name).expanduser()
        if not path.is_file():
            raise UnknownStyle(f"{path}: no such CSL style file")
        return CslStyleDefinition(path.stem, read_style_header(path).title, str(path))
    modules = find_style_modules(style_dirs)
    if name in modules:
        return modules[name].definition
    found = catalogue_path(ALIASES.get(name, name))
    if found is not None:
        return CslStyleDefinition(found.stem, read_style_header(found).title, found.stem)
    candidates = list(dict.fromkeys([*modules, *ALIASES,
                                     *(header.id for header in catalogue_index())]))
    close = _suggestions(name, candidates)
    hint = f"; did you mean {', '.join(close)}?" if close else \
        "; see `refbridge styles --search WORD`"
    raise UnknownStyle(f"unknown style {name!r}{hint}")


#: How alike a typed name and a style name must be to be suggested (difflib's ratio): a typo
#: (``chicgo``, ``apaa``, ``harvad``), not a name that shares a few letters (``nosuchstyle``
#: is not ``nanoscale``, at 0.70).
SUGGESTION_CUTOFF = 0.8


def _suggestions(name: str, candidates: list[str]) -> list[str]:
    """Style names ``name`` may have meant: close spellings, else the names that contain it
    as a word (``vancouver`` -> ``vancouver-brackets``)."""
    close = difflib.get_close_matches(name.lower(), candidates, n=5, cutoff=SUGGESTION_CUTOFF)
    if close:
        return close
    word = re.compile(rf"(?:^|-){re.escape(name.lower())}(?:-|$)")
    return [candidate for candidate in candidates if word.search(candidate)][:5]


def list_styles(search: str | None = None,
                style_dirs: Sequence[str | Path] = ()) -> list[StyleListing]:
    """Style modules, aliases and catalogue styles whose name or title contains every word of
    ``search`` (case-insensitive); all of them when ``search`` is empty."""
    listings = [StyleListing(name, found.definition.title, "module")
                for name, found in sorted(find_style_modules(style_dirs).items())]
    titles = {header.id: header.title for header in catalogue_index()}
    listings += [StyleListing(alias, f"alias of {target}: {titles.get(target, '')}", "alias")
                 for alias, target in sorted(ALIASES.items()) if alias != target]
    listings += [StyleListing(style_id, title, "catalogue") for style_id, title in titles.items()]
    words = (search or "").lower().split()
    return [listing for listing in listings
            if all(word in f"{listing.name} {listing.title}".lower() for word in words)]
