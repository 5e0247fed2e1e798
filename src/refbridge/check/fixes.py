"""``refbridge check --fix``: the safe repairs of findings (``Fix``) written back into the
.bib they come from, every other byte of the file unchanged: each fix replaces one field's
raw value, found after the start of its entry, and the file is written atomically. One fix a
field per run (a second run takes the next). The file is held in memory while it is written;
the findings never are. This module must never write a file that is not a UTF-8 .bib input
of the check, and never change text outside a fixed value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refbridge.check.rules import CheckUsageError, Finding, Fix
from refbridge.textio import STDIO, atomic_output


@dataclass(frozen=True, slots=True)
class Applied:
    """A fix written: where, to which entry and field, the value before and after."""

    file: str
    line: int
    key: str
    fix: Fix

    def __str__(self) -> str:
        return f"{self.file}:{self.line} {self.key}: {self.fix.field}: {self.fix.old} -> " \
               f"{self.fix.new}"


@dataclass(slots=True)
class FixBook:
    """The fixes found so far, by file; ``take`` says whether a finding's fix will be made."""

    fixes: dict[str, dict[tuple[int, str], tuple[str, Fix]]] = field(default_factory=dict)

    def take(self, finding: Finding) -> bool:
        """Note ``finding``'s fix, if it has one and its field has none yet."""
        source, fix = finding.source, finding.fix
        if fix is None or source is None or source.file in (None, "<stdin>") or \
                not source.line:
            return False
        by_field = self.fixes.setdefault(source.file, {})
        if (source.line, fix.field) in by_field:
            return False
        by_field[(source.line, fix.field)] = (finding.key or "", fix)
        return True

    def apply(self) -> list[Applied]:
        """Write every file's fixes; what was written, in the files' order."""
        applied: list[Applied] = []
        for path, fixes in self.fixes.items():
            applied.extend(_apply(path, fixes))
        return applied


def _line_starts(text: str) -> list[int]:
    return [0, *(match.end() for match in re.finditer("\n", text))]


def _apply(path: str, fixes: dict[tuple[int, str], tuple[str, Fix]]) -> list[Applied]:
    if path == STDIO:
        raise CheckUsageError("--fix cannot write back standard input; name the file")
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            text = stream.read()
    except UnicodeDecodeError:
        raise CheckUsageError(f"{path}: --fix writes UTF-8 files only, and this one is not "
                              "UTF-8 (convert it first)") from None
    starts = _line_starts(text)
    edits: list[tuple[int, int, str]] = []
    applied: list[Applied] = []
    for (line, name), (key, fix) in sorted(fixes.items()):
        field_value = re.compile(rf"(?<![\w-]){re.escape(name)}\s*=\s*({re.escape(fix.old)})",
                                 re.IGNORECASE)
        match = field_value.search(text, starts[line - 1] if line - 1 < len(starts) else 0)
        if match is not None:
            edits.append((match.start(1), match.end(1), fix.new))
            applied.append(Applied(path, line, key, fix))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    with atomic_output(path) as out:
        out.write(text)
    return applied
