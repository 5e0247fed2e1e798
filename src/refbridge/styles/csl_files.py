"""Which CSL file a style reference names (``resolve_csl``): a path, an alias or an id of the
official catalogue; a dependent style (one that only points at an independent parent) is the
parent's file from the catalogue, with its own default locale. Style definitions render through
it and the style registry resolves names with it. This module must never render nor import a
style module.
"""

from __future__ import annotations

from pathlib import Path

from refbridge.errors import ExitStatus, RefbridgeError
from refbridge.styles.aliases import ALIASES
from refbridge.styles.catalogue import catalogue_path
from refbridge.styles.header import read_style_header


class UnknownStyle(RefbridgeError):
    """A style name that is no file, style module, alias or catalogue id (a usage error)."""

    exit_status = ExitStatus.USAGE


def is_path(reference: str) -> bool:
    """Whether a style reference is a path to a CSL file rather than a name."""
    return reference.endswith(".csl") or "/" in reference or "\\" in reference


def _independent(path: Path) -> tuple[Path, str | None]:
    header = read_style_header(path)
    if header.parent is None:
        return path, None
    parent = catalogue_path(header.parent)
    if parent is None:
        raise UnknownStyle(f"{path}: dependent style whose parent {header.parent!r} is not in "
                           "the CSL style catalogue")
    return parent, header.default_locale


def resolve_csl(reference: str, base_dir: Path | None = None) -> tuple[Path, str | None]:
    """The independent CSL file for ``reference`` (path, alias or catalogue id) and, when the
    reference is a dependent style, that style's default locale."""
    if is_path(reference):
        path = Path(reference).expanduser()
        if base_dir is not None and not path.is_absolute():
            path = base_dir / path
        if not path.is_file():
            raise UnknownStyle(f"{path}: no such CSL style file")
        return _independent(path)
    found = catalogue_path(ALIASES.get(reference, reference))
    if found is None:
        raise UnknownStyle(f"{reference!r} is neither an alias nor a CSL catalogue style id")
    return _independent(found)
