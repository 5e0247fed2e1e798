"""``refbridge merge-driver --install``: the current repository set to merge .bib files with
refbridge and to diff them entry by entry: the drivers' ``git config`` settings
(``merge.refbridge.name``, ``.driver`` and ``diff.refbridge.textconv``) and ``*.bib
merge=refbridge diff=refbridge`` in the repository's ``.gitattributes`` (a ``*.bib
merge=refbridge`` line an earlier install wrote is completed). Running it again changes
nothing. This module must never touch another repository's settings, the user's global
configuration, or a line of ``.gitattributes`` it did not write.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from refbridge.errors import RefbridgeError

SETTINGS: dict[str, str] = {
    "merge.refbridge.name": "refbridge: .bib entries merged field by field",
    "merge.refbridge.driver": "refbridge merge-driver %O %A %B %P",
    "diff.refbridge.textconv": "refbridge diff --textconv",
}
#: The attributes a ``*.bib`` line must set, and the line written for them.
ATTRIBUTES = ("merge=refbridge", "diff=refbridge")
ATTRIBUTES_LINE = "*.bib " + " ".join(ATTRIBUTES)
#: The line an install that set only the merge driver wrote.
_EARLIER_LINE = "*.bib merge=refbridge"


def _git(*arguments: str, cwd: str) -> str:
    try:
        done = subprocess.run(["git", *arguments], cwd=cwd, capture_output=True, text=True,
                              check=False)
    except OSError as exc:
        raise RefbridgeError(f"cannot run git: {exc.strerror}") from None
    if done.returncode:
        raise RefbridgeError(f"git {arguments[0]}: {done.stderr.strip()}")
    return done.stdout.strip()


def install(directory: str = ".") -> list[str]:
    """Set the repository ``directory`` is in to merge .bib files with refbridge; what was
    changed, one line each (nothing when all was already set)."""
    top = _git("rev-parse", "--show-toplevel", cwd=directory)
    changed = []
    for name, value in SETTINGS.items():
        current = subprocess.run(["git", "config", "--local", "--get", name], cwd=top,
                                 capture_output=True, text=True, check=False).stdout.strip()
        if current != value:
            _git("config", "--local", name, value, cwd=top)
            changed.append(f"git config {name} '{value}'")
    attributes = Path(top) / ".gitattributes"
    text = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    updated = _with_attributes(text)
    if updated != text:
        attributes.write_text(updated, encoding="utf-8")
        changed.append(f"{attributes}: {ATTRIBUTES_LINE}")
    return changed


def _with_attributes(text: str) -> str:
    """``text`` of a ``.gitattributes`` with the ``*.bib`` attributes refbridge needs."""
    lines = text.splitlines()
    present = {attribute for line in lines if line.split()[:1] == ["*.bib"]
               for attribute in line.split()[1:]}
    if all(attribute in present for attribute in ATTRIBUTES):
        return text
    if _EARLIER_LINE in (line.strip() for line in lines):
        return "".join(ATTRIBUTES_LINE + "\n" if line.strip() == _EARLIER_LINE else line + "\n"
                       for line in lines)
    separator = "" if not text or text.endswith("\n") else "\n"
    return text + separator + ATTRIBUTES_LINE + "\n"
