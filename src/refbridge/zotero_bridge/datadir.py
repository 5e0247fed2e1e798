"""Where Zotero keeps its database: the data directory and the ``zotero.sqlite`` in it.

Zotero's data directory is ``~/Zotero`` on Linux and macOS and ``%USERPROFILE%\\Zotero`` on
Windows, unless its preferences say otherwise: a profile's ``prefs.js`` then holds
``user_pref("extensions.zotero.dataDir", "...")`` with ``extensions.zotero.useDataDir`` true.
``REFBRIDGE_ZOTERO_DATA_DIR`` overrides both. Better BibTeX keeps its citation keys in
``better-bibtex.sqlite`` in the same directory. This module only looks for files: it must never
open a database, and never write anything.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

DATA_DIR_VARIABLE = "REFBRIDGE_ZOTERO_DATA_DIR"
DATABASE_NAME = "zotero.sqlite"
BETTER_BIBTEX_NAME = "better-bibtex.sqlite"

#: Where Zotero's profiles (each with its prefs.js) live, by platform, from the home directory
#: (Windows: from %APPDATA%).
PROFILE_FOLDERS: dict[str, tuple[str, ...]] = {
    "linux": (".zotero/zotero",),
    "darwin": ("Library/Application Support/Zotero/Profiles",),
    "win32": ("Zotero/Zotero/Profiles",),
}
_PREF = re.compile(r'user_pref\("extensions\.zotero\.(?P<name>dataDir|useDataDir)",\s*'
                   r'(?P<value>"(?:[^"\\]|\\.)*"|true|false)\s*\);')


def _profile_roots() -> list[Path]:
    platform = "win32" if sys.platform.startswith("win") else \
        "darwin" if sys.platform == "darwin" else "linux"
    base = Path(os.environ.get("APPDATA") or Path.home()) if platform == "win32" \
        else Path.home()
    return [base / folder for folder in PROFILE_FOLDERS[platform]]


def data_dir_of_prefs(text: str) -> Path | None:
    """The data directory a ``prefs.js`` names (None when it names none, or does not use it)."""
    prefs = {m["name"]: m["value"] for m in _PREF.finditer(text)}
    if prefs.get("useDataDir") != "true" or "dataDir" not in prefs:
        return None
    try:
        value = json.loads(prefs["dataDir"])  # prefs.js strings are JavaScript string literals
    except ValueError:
        return None
    return Path(value) if isinstance(value, str) and value else None


def _prefs_files(roots: Iterable[Path]) -> list[Path]:
    found = [path for root in roots if root.is_dir() for path in root.glob("*/prefs.js")]
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def default_data_dir() -> Path:
    """Zotero's data directory on this computer (which may not exist)."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override).expanduser()
    for prefs in _prefs_files(_profile_roots()):
        try:
            named = data_dir_of_prefs(prefs.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if named is not None and (named / DATABASE_NAME).is_file():
            return named
    home = Path(os.environ["USERPROFILE"]) if sys.platform.startswith("win") \
        and os.environ.get("USERPROFILE") else Path.home()
    return home / "Zotero"


def database_path(text: str | None) -> Path:
    """The database a command line names: a file, a data directory (its ``zotero.sqlite``), or
    nothing (the default data directory's)."""
    if not text:
        return default_data_dir() / DATABASE_NAME
    path = Path(text).expanduser()
    return path / DATABASE_NAME if path.is_dir() else path
