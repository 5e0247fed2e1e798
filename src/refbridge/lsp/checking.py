"""``refbridge check``'s findings about the libraries, for the language server, in a process
of their own (a large library's check must not hold up completion).

``python -m refbridge.lsp.checking FILE...`` checks the files as ``refbridge check`` does
(``refbridge.check.check_files``, every rule but ``duplicate-key``, which the server finds
itself as the libraries change) and prints one JSON object per finding: file, line, rule,
severity, message. ``findings`` runs it and reads them back. This module must never change a
library.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass

#: The rules the server does not ask ``check`` for: it reports them itself.
LEFT_TO_THE_SERVER = ("duplicate-key",)


@dataclass(frozen=True, slots=True)
class LibraryFinding:
    """One finding of ``check`` about a library file's line."""

    file: str
    line: int
    rule: str
    severity: str
    message: str


def main(paths: Sequence[str]) -> None:
    from refbridge.check import check_files
    from refbridge.errors import Diagnostics, RefbridgeError

    try:
        for finding in check_files(paths, Diagnostics(), ignore=LEFT_TO_THE_SERVER):
            file, line = (finding.source.file, finding.source.line or 1) if finding.source \
                else (paths[0], 1)
            print(json.dumps({"file": file, "line": line, "rule": finding.code,
                              "severity": finding.severity, "message": finding.message}))
    except RefbridgeError:
        pass  # the server reports what stops a library from being read


async def findings(paths: Sequence[str]) -> list[LibraryFinding]:
    """The findings of ``check`` about the library files ``paths``."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "refbridge.lsp.checking", *paths,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    out, _ = await process.communicate()
    return [LibraryFinding(**json.loads(line)) for line in out.decode("utf-8").splitlines()
            if line.strip()]


if __name__ == "__main__":
    main(sys.argv[1:])
