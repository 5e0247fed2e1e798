"""``refbridge merge-driver --install``: the current repository set to merge .bib files with
refbridge: the driver's two ``git config`` settings (``merge.refbridge.name`` and
``.driver``) and ``*.bib merge=refbridge`` in the repository's ``.gitattributes``. Running it
again changes nothing. This module must never touch another repository's settings, the
user's global configuration, or a line of ``.gitattributes`` it did not write.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from refbridge.errors import RefbridgeError

SETTINGS: dict[str, str] = {
    "merge.refbridge.name": "refbridge: .bib entries merged field by field",
    "merge.refbridge.driver": "refbridge merge-driver %O %A %B %P",
}
ATTRIBUTES_LINE = "*.bib merge=refbridge"


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
    if ATTRIBUTES_LINE not in (line.strip() for line in text.splitlines()):
        separator = "" if not text or text.endswith("\n") else "\n"
        attributes.write_text(text + separator + ATTRIBUTES_LINE + "\n", encoding="utf-8")
        changed.append(f"{attributes}: {ATTRIBUTES_LINE}")
    return changed
