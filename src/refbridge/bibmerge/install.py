"""``refbridge merge-driver --install``: the current repository set to merge its libraries
with refbridge and to diff them entry by entry: the drivers' ``git config`` settings
(``merge.refbridge.name``, ``.driver`` and ``diff.refbridge.textconv``) and, in the
repository's ``.gitattributes``, ``merge=refbridge diff=refbridge`` for each file pattern the
driver merges by its records: ``*.bib``, ``*.bibtex``, CSL-JSON ``*.csl.json`` and
``*.csljson`` (not every ``*.json``) and RIS ``*.ris``. Hayagriva's ``*.yml``/``*.yaml`` are not
set: most YAML files in a repository (CI workflows, environments) are no bibliography, and the
textconv of one fails; a Hayagriva file is set by its name, by hand. A pattern whose lines set
both attributes already is left alone, a ``*.bib merge=refbridge`` line an earlier install
wrote is completed, and a missing pattern gets a line of its own at the end, in the file's
line endings. Running it again changes nothing. This module must never touch another
repository's settings, the user's global configuration, or a byte of a line of
``.gitattributes`` it did not write.
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
#: The attributes each pattern's line sets.
ATTRIBUTES = ("merge=refbridge", "diff=refbridge")
#: The file patterns the driver merges by their records (``bibmerge.driver``: ``.bib``,
#: ``.bibtex``, CSL-JSON, RIS), each given ``ATTRIBUTES``.
PATTERNS = ("*.bib", "*.bibtex", "*.csl.json", "*.csljson", "*.ris")
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
    data = attributes.read_bytes() if attributes.exists() else b""
    text = data.decode("utf-8", "surrogateescape")
    updated, written = _with_attributes(text)
    if updated != text:
        attributes.write_bytes(updated.encode("utf-8", "surrogateescape"))
        changed.extend(f"{attributes}: {line}" for line in written)
    return changed


def _line(pattern: str) -> str:
    return f"{pattern} {' '.join(ATTRIBUTES)}"


def _with_attributes(text: str) -> tuple[str, list[str]]:
    """``text`` of a ``.gitattributes`` with the attributes refbridge needs for each of
    ``PATTERNS``, and the lines written (the user's lines kept byte for byte)."""
    lines = text.splitlines(keepends=True)
    ending = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    written: list[str] = []
    for pattern in PATTERNS:
        present = {attribute for line in lines if line.split()[:1] == [pattern]
                   for attribute in line.split()[1:]}
        if all(attribute in present for attribute in ATTRIBUTES):
            continue
        earlier = next((number for number, line in enumerate(lines)
                        if line.strip() == _EARLIER_LINE and pattern == "*.bib"), None)
        if earlier is not None:
            old = lines[earlier]
            lines[earlier] = _line(pattern) + old[len(old.rstrip("\r\n")):]
        else:
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += ending
            lines.append(_line(pattern) + ending)
        written.append(_line(pattern))
    return "".join(lines), written
