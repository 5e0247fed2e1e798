"""Line-tagged bibliographic text (EndNote's refer, MEDLINE ``.nbib``, Web of Science), cut
into records of tagged values with their line numbers.

The three share one shape: a line starts with a tag and holds a value, other lines continue
the value before them, and records are separated by a blank line or framed by a start and an
end tag. ``TaggedSyntax`` says which, and ``read_drafts`` gives each record's fields (tag, the
value's lines, line number) for the format module to map. A line that belongs to no record is
reported with its line number, never dropped silently; a record without its end tag is kept,
with a warning. ``TaggedWriter`` is the writer these formats (and RIS) share: each record's text
by the format's own function, a blank line between records. This module must never know what a
tag means.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TextIO

from refbridge.errors import Diagnostics
from refbridge.formats.selection import select
from refbridge.model import Record
from refbridge.registry import Framing, WriteOptions, write_framed
from refbridge.textlines import LINE_BREAK


@dataclass(frozen=True, slots=True)
class TaggedSyntax:
    """How one tagged format lays out its lines."""

    name: str  #: the format's name, for messages
    tag_line: re.Pattern[str]  #: a tag line: groups ``tag`` and ``value`` (may be None)
    #: a continuation line: group ``value``; None: every other non-blank line continues
    continuation: re.Pattern[str] | None = None
    starts: frozenset[str] = frozenset()  #: tags that start a record (none: blank lines part)
    end: str | None = None  #: the tag that ends a record
    ignored: frozenset[str] = frozenset()  #: file-level tags outside records
    #: the format's tags; when given, a line inside a record that starts like another tag
    #: (``CH4-derived carbon``, not indented) continues the value before it
    tags: frozenset[str] = frozenset()


@dataclass(slots=True)
class TagField:
    """One tagged value: its tag, its lines (the first and the continuations), its line."""

    tag: str
    lines: list[str]
    line: int

    @property
    def text(self) -> str:
        """The value's lines joined by spaces, stripped."""
        return " ".join(part.strip() for part in self.lines if part.strip())


@dataclass(slots=True)
class TaggedDraft:
    """The fields of one record, as read."""

    line: int
    fields: list[TagField] = field(default_factory=list)


def read_drafts(stream: TextIO, source: str, diagnostics: Diagnostics, syntax: TaggedSyntax
                ) -> Iterator[TaggedDraft]:
    """The records of a tagged text, in order, with problems reported by line."""
    draft: TaggedDraft | None = None
    for number, raw in enumerate(stream, start=1):
        line = raw.rstrip("\r\n")
        if number == 1:
            line = line.lstrip("\ufeff")
        if not line.strip():
            if draft is not None and not syntax.starts:
                yield draft
                draft = None
            continue
        match = syntax.tag_line.match(line)
        if match is not None and syntax.tags and match["tag"] not in syntax.tags \
                and draft is not None and draft.fields:
            match = None  # text that starts like a tag, continuing the value before it
        if match is not None and match["tag"] in syntax.ignored and draft is None:
            continue
        if match is not None:
            tag, value = match["tag"], match["value"] or ""
            if tag == syntax.end:
                if draft is None:
                    diagnostics.warning(f"{tag} outside a record", source, number)
                else:
                    yield draft
                draft = None
                continue
            if tag in syntax.starts:
                if draft is not None:
                    diagnostics.warning(f"the record of line {draft.line} has no {syntax.end} "
                                        "line; it ends here", source, number)
                    yield draft
                draft = TaggedDraft(number)
            elif draft is None:
                if syntax.starts:
                    diagnostics.warning(f"tag {tag} outside a record (a record starts with "
                                        f"{' or '.join(sorted(syntax.starts))})", source,
                                        number)
                    continue
                draft = TaggedDraft(number)
            draft.fields.append(TagField(tag, [value], number))
            continue
        continued = syntax.continuation.match(line) if syntax.continuation else None
        if draft is not None and draft.fields and (continued or syntax.continuation is None):
            draft.fields[-1].lines.append(continued["value"] if continued else line)
        else:
            diagnostics.warning(f"text outside a {syntax.name} record: "
                                f"{line.strip()[:40]!r}", source, number)
    if draft is not None:
        if syntax.end is not None:
            diagnostics.warning(f"the record of line {draft.line} has no {syntax.end} line; "
                                "it ends at the end of the file", source, draft.line)
        yield draft


def one_line(value: str) -> str:
    """A value as one line: line breaks become spaces (a residue keeps the exact value)."""
    return LINE_BREAK.sub(" ", value).strip()


@dataclass
class TaggedWriter:
    """The writer of a tagged format: ``format_record`` gives a record's text, ``parts`` maps
    the format's tags (names for ``--fields``) to model parts."""

    name: str
    description: str
    extension: str
    format_record: Callable[[Record], str]
    parts: Mapping[str, str]
    framing: Framing = field(default=Framing(separator="\n"))
    #: what the format's citation keys cannot hold (see ``registry.Writer``)
    key_unsafe: re.Pattern[str] | None = None

    def record_text(self, record: Record, options: WriteOptions) -> str:
        return self.format_record(select(record, options, self.parts))

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        write_framed((self.record_text(r, options) for r in records), out, self.framing)
