"""JSON Lines as the dumps write them: one JSON object a line, read one line at a time.

A line that is not a JSON object is reported (file and line) and skipped; the rest of the
dump is read on. A piece of a dump (``refbridge.splits``) numbers its lines as the whole dump.
This module must never hold more than one line of its input.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.services.answers import load_json
from refbridge.textio import line_shift


def json_objects(stream: TextIO, source: str, diagnostics: Diagnostics, what: str
                 ) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """Each line's object of ``stream`` with its line number; ``what`` names the objects in
    messages (``an OpenAlex work``)."""
    for number, line in enumerate(stream, 1 + line_shift(stream)):
        if not line.strip():
            continue
        try:
            value = load_json(line.rstrip("\n"), source, what, diagnostics)
        except ParseError as exc:
            diagnostics.error(f"{exc.message}; line skipped", source, number, exc.column)
            continue
        if not isinstance(value, Mapping):
            diagnostics.error(f"not {what}: a JSON object is expected; line skipped", source,
                              number)
            continue
        yield number, value
