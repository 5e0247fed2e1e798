"""``refbridge fmt`` on files: each .bib read whole, formatted with the options its own
configuration file gives (``config``) under those of the command line, then written in place
(or to ``-o``) atomically, only when it changed, keeping its line endings; or checked
(``--check``: what would change; as the file streams when its blocks keep their order and
keys, so a large file is never held whole) or shown as a diff (``--diff``), changing nothing.

A file that cannot be read or formatted is reported and left untouched; the others are
still done. This module must never write a file other than the one formatted (or its
``-o``), and never write one half-done (``textio.atomic_output``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refbridge.errors import Diagnostic, Diagnostics, ParseError
from refbridge.formats.bibtex.syntax import CHUNK_SIZE
from refbridge.textio import STDIO, atomic_output, display_name, open_input
from refbridge.tidy.changes import change_lines, diff_text
from refbridge.tidy.config import find_settings
from refbridge.tidy.formatter import check_texts, streams, tidy_text
from refbridge.tidy.options import TidyOptions, options_from

#: How a run ends: written (the default), checked, or shown as a diff.
WRITE, CHECK, DIFF = "write", "check", "diff"
_NOT_FORMATTED = "not formatted; the file is left as it is"


@dataclass(slots=True)
class FmtReport:
    """What a run did: files that changed (or would), the lines for standard output
    (``--check``, ``--diff``), the messages for standard error, files that failed."""

    changed: list[str] = field(default_factory=list)
    output: list[str] = field(default_factory=list)
    messages: list[Diagnostic] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    files: int = 0
    told: int = 0  #: journals changed or left for want of a source (``TidiedText.told``)


def file_options(path: str, given: Mapping[str, Any]) -> TidyOptions:
    """The options for ``path``: its configuration file's, under the command line's."""
    base = TidyOptions()
    found = find_settings(Path(path)) if path != STDIO else find_settings(Path.cwd() / "-")
    if found is not None:
        settings, where = found
        base = options_from(settings, where, base)
    return options_from(given, "command line", base)


def _read(path: str, diagnostics: Diagnostics, encoding: str | None) -> tuple[str, bool]:
    """The text of ``path`` and whether its lines end with CRLF."""
    with open_input(path, diagnostics, encoding) as (stream, _):
        text = stream.read()
        newlines = getattr(stream, "newlines", None)
    crlf = newlines == "\r\n" or isinstance(newlines, tuple) and "\r\n" in newlines
    return text.lstrip("\ufeff"), crlf


def _texts(path: str, diagnostics: Diagnostics, encoding: str | None) -> Iterator[str]:
    """The text of the file ``path`` a chunk at a time (without a byte-order mark)."""
    with open_input(path, diagnostics, encoding) as (stream, _):
        first = True
        while chunk := stream.read(CHUNK_SIZE):
            yield chunk.lstrip("\ufeff") if first else chunk
            first = False


def _check_file(path: str, source: str, options: TidyOptions, encoding: str | None,
                report: FmtReport) -> None:
    """``fmt --check`` of a file whose blocks keep their order and keys, as it streams;
    checked again when it turns out to define a month macro."""
    diagnostics = Diagnostics()
    try:
        checked = check_texts(_texts(path, diagnostics, encoding), source, options)
        if checked.months_redefined:
            checked = check_texts(_texts(path, Diagnostics(), encoding), source, options,
                                  months_redefined=True)
    except ParseError as exc:
        report.messages += diagnostics.messages
        report.messages.append(Diagnostic("error", exc.message, exc.file, exc.line))
        report.failed.append(source)
        return
    report.messages += diagnostics.messages + checked.problems + checked.notes
    if checked.problems:
        report.messages.append(Diagnostic("error", _NOT_FORMATTED, source))
        report.failed.append(source)
    elif checked.changed:
        report.changed.append(source)
        report.output += change_lines(source, True, checked.changes)


def tidy_files(paths: Sequence[str], given: Mapping[str, Any], mode: str = WRITE,
               output: str | None = None, encoding: str | None = None) -> FmtReport:
    """Format each of ``paths`` (``given``: the command line's options)."""
    report = FmtReport()
    for path in paths:
        report.files += 1
        source = display_name(path)
        diagnostics = Diagnostics()
        try:
            options = file_options(path, given)
            if mode == CHECK and path != STDIO and output is None and streams(options):
                _check_file(path, source, options, encoding, report)
                continue
            original, crlf = _read(path, diagnostics, encoding)
        except ParseError as exc:
            report.messages += diagnostics.messages
            report.messages.append(Diagnostic("error", exc.message, exc.file, exc.line))
            report.failed.append(source)
            continue
        report.messages += diagnostics.messages
        tidied = tidy_text(original, source, options)
        report.messages += tidied.problems + tidied.notes
        report.told += tidied.told
        if tidied.text is None:
            report.messages.append(Diagnostic("error", _NOT_FORMATTED, source))
            report.failed.append(source)
            continue
        target = output or path
        if tidied.text != original or target != path or path == STDIO:
            if tidied.text != original:
                report.changed.append(source)
            if mode == CHECK:
                report.output += change_lines(source, tidied.text != original,
                                              tidied.changes)
            elif mode == DIFF:
                report.output.append(diff_text(source, original, tidied))
            else:
                with atomic_output(target) as out:
                    out.write(tidied.text.replace("\n", "\r\n") if crlf else tidied.text)
    return report
