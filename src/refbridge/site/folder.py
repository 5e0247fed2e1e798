"""The site's folder: the one way ``refbridge site`` reads, writes and removes its files.

A file is named by a path relative to the folder, ``/``-separated, of plain names: no empty
part, ``.``, ``..``, absolute path, drive, backslash or NUL, so nothing names a file outside
the folder. No part of it below the folder may be a symbolic link: a page that links elsewhere
is neither read (its target would be published), nor written, nor removed, and a linked folder
is not entered; the folder itself may be a link. Files are written by
``refbridge.textio.atomic_output``; every failure is a one-line ``OutputError`` naming the file.
The checks are made just before each use (a link put in place by another program between the
check and the use is not seen). This module must never decide what a file holds.
"""

from __future__ import annotations

import os
import stat

from refbridge.errors import OutputError
from refbridge.textio import atomic_output, cannot_write

#: Characters never part of a name in the folder (a Windows separator or drive, NUL).
_NOT_IN_NAMES = frozenset("\\:\0")


def is_inside(relative: str) -> bool:
    """Whether ``relative`` names a file inside a folder (see the module's text)."""
    parts = relative.split("/")
    return all(part not in ("", ".", "..") and not _NOT_IN_NAMES.intersection(part)
               for part in parts)


class SiteFolder:
    """The files of the site in ``root``."""

    def __init__(self, root: str) -> None:
        self.root = root

    def path(self, relative: str) -> str:
        """The file ``relative`` names; ``OutputError`` when it is not inside the folder or a
        part of it is a symbolic link."""
        if not is_inside(relative):
            raise OutputError(f"{self.root}: {relative!r} is not a path inside the site's "
                              "folder; refbridge leaves it alone")
        path = self.root
        for part in relative.split("/"):
            path = os.path.join(path, part)
            try:
                status = os.lstat(path)
            except FileNotFoundError:
                break
            except OSError as exc:
                raise OutputError(f"{path}: cannot read: {exc.strerror}") from None
            if stat.S_ISLNK(status.st_mode):
                raise OutputError(f"{path}: a symbolic link inside the site's folder; "
                                  "refbridge reads, writes and removes nothing through it")
        return os.path.join(self.root, *relative.split("/"))

    def exists(self, relative: str) -> bool:
        """Whether anything (a symbolic link too) is at ``relative``."""
        return is_inside(relative) and os.path.lexists(os.path.join(self.root,
                                                                    *relative.split("/")))

    def read(self, relative: str) -> str | None:
        """The text of the file ``relative``, None when there is none."""
        path = self.path(relative)
        try:
            with open(path, encoding="utf-8", newline="") as stream:
                return stream.read()
        except FileNotFoundError:
            return None
        except UnicodeDecodeError:
            raise OutputError(f"{path}: not UTF-8 text; refbridge leaves it alone") from None
        except OSError as exc:
            raise OutputError(f"{path}: cannot read: {exc.strerror}") from None

    def write(self, relative: str, text: str) -> None:
        """Make (or replace) the file ``relative`` with ``text``, and the folders it needs."""
        path = self.path(relative)
        folder = os.path.dirname(path)
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise cannot_write(folder, exc) from None
        with atomic_output(path, follow_links=False) as out:
            out.write(text)

    def remove(self, relative: str) -> bool:
        """Remove the file ``relative``; whether there was one."""
        path = self.path(relative)
        try:
            os.remove(path)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise OutputError(f"{path}: cannot remove: {exc.strerror}") from None
        return True

    def remove_empty_folder(self, relative: str) -> None:
        """Remove the folder ``relative`` if it is there and empty."""
        path = self.path(relative)
        try:
            if os.path.isdir(path) and not os.listdir(path):
                os.rmdir(path)
        except OSError as exc:
            raise OutputError(f"{path}: cannot remove: {exc.strerror}") from None
