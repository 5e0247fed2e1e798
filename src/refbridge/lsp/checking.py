"""``refbridge check``'s findings about the libraries, and the problems of reading a library
the server only indexed, for the language server, in a process of their own (a large
library's check or reading must not hold up completion).

``python -m refbridge.lsp.checking FILE...`` checks the files as ``refbridge check`` does
(``refbridge.check.check_files``, every rule but ``duplicate-key``, which the server finds
itself as the libraries change) and prints one JSON object per finding: file, line, rule,
severity, message; then the problems of reading each file, rule ``read`` (line 0: none).
``findings`` runs it and reads them back. ``python -m refbridge.lsp.checking --read FILE``
prints only the problems of reading the file (``refbridge.lsp.library.reading_problems``);
``reading_problems`` runs it.
This module must never change a library.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from refbridge.errors import Diagnostic

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


#: The rule of a problem of reading a library.
READ = "read"


def main(arguments: Sequence[str]) -> None:
    from refbridge.lsp.library import reading_problems

    if arguments[:1] == ["--read"]:
        for path in arguments[1:]:
            _print_problems(path, reading_problems(path))
        return
    from refbridge.check import check_files
    from refbridge.errors import Diagnostics, RefbridgeError

    diagnostics = Diagnostics()
    try:
        for finding in check_files(arguments, diagnostics, ignore=LEFT_TO_THE_SERVER):
            file, line = (finding.source.file, finding.source.line or 1) if finding.source \
                else (arguments[0], 1)
            print(json.dumps({"file": file, "line": line, "rule": finding.code,
                              "severity": finding.severity, "message": finding.message}))
    except RefbridgeError:  # each file's own problems tell which stops it from being read
        for path in arguments:
            _print_problems(path, reading_problems(path))
        return
    for path in arguments:
        _print_problems(path, [problem for problem in diagnostics.messages
                               if problem.file == path])


def _print_problems(path: str, problems: Sequence[Diagnostic]) -> None:
    for problem in problems:
        print(json.dumps({"file": problem.file or path, "line": problem.line or 0,
                          "rule": READ, "severity": problem.level,
                          "message": problem.message}))


async def findings(paths: Sequence[str]) -> list[LibraryFinding]:
    """The findings of ``check`` about the library files ``paths``."""
    return await _run(list(paths))


async def reading_problems(path: str) -> list[Diagnostic]:
    """The problems of reading the library file ``path`` whole (a line 0: none)."""
    return [Diagnostic(found.severity, found.message, found.file, found.line or None)
            for found in await _run(["--read", path])]


async def _run(arguments: list[str]) -> list[LibraryFinding]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "refbridge.lsp.checking", *arguments,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    try:
        out, _ = await process.communicate()
    except asyncio.CancelledError:  # what it would find is no longer wanted
        process.kill()
        raise
    return [LibraryFinding(**json.loads(line)) for line in out.decode("utf-8").splitlines()
            if line.strip()]


if __name__ == "__main__":
    main(sys.argv[1:])
