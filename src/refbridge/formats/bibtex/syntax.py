"""The syntax of .bib files: a streaming tokenizer that turns text into blocks, one at a time.

Why not bibtexparser 2: on this project's 2-core machine, ``bibtexparser.parse_file`` on
biblatex-examples.bib replicated to 10,028 entries took 0.81-1.66 s (6,000-12,400 entries/s)
for the syntax alone, against a goal of 20,000 entries/s for the whole .bib -> CSL-JSON
conversion with LaTeX decoded, and it builds the whole library in memory before returning
(no streaming). pybtex is slower still (~5,000 entries/s). This tokenizer reads the stream in
chunks, yields each block as soon as it is complete (memory stays bounded by the largest
block), and does the same file in 0.20-0.22 s CPU (45,000-50,000 entries/s), measured side by
side; 10,000 generated entries with a month macro each take 0.19-0.21 s (0.20-0.23 s when
only braced values, quoted values and numbers were simple fields, 11,000 macros parsed piece by
piece). Simple fields (``name = {value}``, ``"value"``, a number or a macro) take one regex
match each. It follows BibTeX where the dialects' tools differ (every brace counts, escaped or
not) and bibtexparser 2 elsewhere (a block starts at an ``@`` at the beginning of a line, so an
``@`` inside a value is text; a broken block ends at the next such ``@``), and
tests/formats/bibtex/test_bibtex_syntax.py checks it against bibtexparser 2 entry by entry on
biblatex-examples.bib and on hostile inputs.

Values are resolved here: ``@string`` macros (case-insensitive, later definitions win), the
month macros ``jan`` .. ``dec``, and ``#`` concatenation; each field also keeps its raw source
text. This module knows nothing of the citation model and must never decode LaTeX.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple, TextIO

#: Month macros every BibTeX style defines, as ``plain.bst`` expands them.
MONTH_MACROS: dict[str, str] = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May",
    "jun": "June", "jul": "July", "aug": "August", "sep": "September", "oct": "October",
    "nov": "November", "dec": "December",
}

#: What biber makes of ``@comment`` followed by text without braces, which BibTeX skips.
BRACELESS_COMMENT = ("an @comment without braces: bibtex reads it as a comment, and so does "
                     "refbridge (a .bib is written with it as it is); biber stops with a "
                     "syntax error and reads no entry of the file")

#: How many characters are read from the stream at a time.
CHUNK_SIZE = 1 << 20

#: A block starts at an ``@`` at the start of a line (after spaces): at the start of the text,
#: or after a newline (searched for as such: ``^`` with re.MULTILINE is ten times slower).
_FIRST_BLOCK_START = re.compile(r"[ \t]*@")
_BLOCK_START = re.compile(r"\n[ \t]*@")
_HEAD = re.compile(r"@[ \t]*([A-Za-z_][\w:-]*)?[ \t]*([{(])?")
#: An entry's head in the text between blocks (where BibTeX takes any ``@`` as a start).
_ENTRY_HEAD = re.compile(r"@[ \t]*[A-Za-z_][\w:-]*[ \t]*[{(]")
#: The citation key of an entry, by the delimiter it opens with: in a ``{...}`` entry BibTeX
#: reads parentheses as part of the key (``LL:ESA/SPC(2009)6``), which biber cannot read.
_KEYS: dict[str, re.Pattern[str]] = {
    "}": re.compile(r"\s*([^,\s{}=\"#]*)\s*([,}])?"),
    ")": re.compile(r"\s*([^,\s{}()=\"#]*)\s*([,})])?"),
}
#: A field whose value is one brace group (with groups at most two deep inside), a quoted
#: value (with groups at most two deep inside: ``"{\\TeX} and {\\"U}ber"``, how TeX Live's
#: libraries write most titles) or one word (a number or a macro), followed by ``,`` or a
#: closing delimiter: most fields, parsed in C. The groups are written "text (group text)*" so that the regex
#: engine keeps a backtracking point per inner group, not per character (a 50 MB value took
#: 8.5 GB).
_NAME = r'[^\s=,{}()"#]+'
_FIELD_NAME = re.compile(r"\s*(" + _NAME + r")\s*(=)?\s*")
_WORD = r'[^\s#,{}()"=]+'
_GROUP = r'\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}'
_VALUE = (r'\{[^{}]*(?:' + _GROUP + r'[^{}]*)*\}|"[^"{}]*(?:' + _GROUP + r'[^"{}]*)*"|'
          + _WORD)
_SIMPLE_FIELD = re.compile(r"\s*(" + _NAME + r")\s*=\s*(" + _VALUE + r")\s*([,})])")
_BARE = re.compile(_WORD)
_SPACE = re.compile(r"\s*")
_BRACE = re.compile(r"[{}]")
_QUOTE_OR_BRACE = re.compile(r'[{}"]')
#: A value holding a line that starts like a field (``  year = ``) or ending in a ``}`` on a
#: line of its own: it took in the fields after it or the entry's own ``}``, so a ``{`` in it
#: is what is never closed (else the entry's ``}`` is missing: a file cut short).
_SWALLOWED_FIELD = re.compile(r"\n\s*(?:" + _NAME + r"\s*=|\}$)")


class BibSyntaxError(ValueError):
    """A block that does not follow the .bib syntax; ``offset`` is where, inside the block,
    and ``partial`` the entry with the fields read before the error, when there was one.
    ``unclosed``: something that opens at ``offset`` is never closed, so the block runs to
    its end (the next entry, or the end of a truncated file): the error is the block's."""

    def __init__(self, message: str, offset: int, unclosed: bool = False) -> None:
        super().__init__(message)
        self.offset = offset
        self.unclosed = unclosed
        self.partial: Block | None = None


class Field(NamedTuple):
    """One ``name = value`` of an entry: the name lower-cased, the resolved value, the raw text,
    and the macros the value used that no ``@string`` defines (a tuple: made once per field,
    so made cheaply)."""

    name: str
    value: str
    raw: str
    undefined_macros: tuple[str, ...] = ()


#: Makes a ``Field`` from a tuple of all its parts, without the keyword handling of ``Field()``.
_new_field = tuple.__new__


@dataclass(frozen=True, slots=True)
class Block:
    """One ``@...`` block. ``kind`` is ``entry``, ``string``, ``preamble``, ``comment`` or
    ``error`` (then ``message`` and ``error_line`` say what and where, and a broken entry
    holds its type, key and the fields read before the error; a comment's ``message`` says
    what a tool makes of it otherwise)."""

    kind: str
    line: int
    entry_type: str = ""
    key: str = ""
    fields: tuple[Field, ...] = ()
    text: str = ""
    message: str = ""
    error_line: int = 0


def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset)


class _BlockParser:
    """Parses the text of one block (from its ``@`` up to the next block start)."""

    __slots__ = ("closer", "pos", "strings", "text")

    def __init__(self, text: str, strings: dict[str, str]) -> None:
        self.text = text
        self.pos = 0
        self.strings = strings
        self.closer = "}"

    def fail(self, message: str, offset: int | None = None) -> BibSyntaxError:
        return BibSyntaxError(message, self.pos if offset is None else offset)

    def unclosed(self, message: str, offset: int = 0) -> BibSyntaxError:
        """The error of something opened at ``offset`` (the block's own delimiter: 0) that
        is never closed."""
        return BibSyntaxError(message, offset, unclosed=True)

    def braced(self, start: int) -> int:
        """The offset just after the ``}`` that closes the ``{`` at ``start``."""
        text = self.text
        close = text.find("}", start + 1)
        if close != -1 and text.find("{", start + 1, close) == -1:
            return close + 1
        depth = 0
        for match in _BRACE.finditer(text, start):
            if match.group() == "{":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return match.end()
        raise self.unclosed("a '{' is never closed", start)

    def quoted(self, start: int) -> int:
        """The offset just after the ``"`` that ends the quoted value at ``start``."""
        depth = 0
        for match in _QUOTE_OR_BRACE.finditer(self.text, start + 1):
            char = match.group()
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth < 0:
                    raise self.fail("a '}' inside a quoted value closes nothing", match.start())
            elif depth == 0:
                return match.end()
        raise self.unclosed("a quoted value is never closed", start)

    def pieces(self) -> Iterator[tuple[int, int]]:
        """The start and end of each piece of ``piece # piece ...`` at the current position
        (``{...}``, ``"..."``, a number or a macro); the position is left after the last."""
        text = self.text
        while True:
            position = self.pos
            char = text[position:position + 1]
            if char == "{":
                end = self.braced(position)
            elif char == '"':
                end = self.quoted(position)
            else:
                bare = _BARE.match(text, position)
                if bare is None:
                    raise self.fail("expected a value ({...}, \"...\", a number or a macro)"
                                    if char else "the block ends where a value should be")
                end = bare.end()
            yield position, end
            self.pos = _SPACE.match(text, end).end()  # type: ignore[union-attr]
            if not text.startswith("#", self.pos):
                return
            self.pos = _SPACE.match(text, self.pos + 1).end()  # type: ignore[union-attr]

    def value(self) -> tuple[str, str, tuple[str, ...]]:
        """Parse ``piece # piece ...`` at the current position: (resolved, raw, undefined)."""
        text = self.text
        start = raw_end = self.pos
        parts: list[str] = []
        undefined: list[str] = []
        for position, end in self.pieces():
            parts.append(text[position + 1:end - 1] if text[position] in '{"'
                         else self.word(text[position:end], undefined))
            raw_end = end
        return "".join(parts), text[start:raw_end], tuple(undefined)

    def word(self, word: str, undefined: list[str]) -> str:
        """The value of a bare word: a number as written, a macro resolved (one that no
        ``@string`` defines is kept as written and added to ``undefined``)."""
        if word.isdecimal():  # digits as the regex ``\d`` knows them (Unicode category Nd)
            return word
        resolved = self.strings.get(word.lower())
        if resolved is None:
            resolved = MONTH_MACROS.get(word.lower())
        if resolved is None:
            undefined.append(word)
            return word
        return resolved

    def word_field(self, name: str, word: str) -> Field:
        """The field of ``name = word``."""
        if word.isdecimal():  # most words are numbers
            return _new_field(Field, (name.lower(), word, word, ()))
        undefined: list[str] = []
        value = self.word(word, undefined)
        return _new_field(Field, (name.lower(), value, word, tuple(undefined)))

    def head(self) -> tuple[str, str]:
        """The block's type (lower-cased) and its opening delimiter (none for a ``@comment``
        followed by text: BibTeX and biber skip it as text between entries)."""
        match = _HEAD.match(self.text)
        if match is None or match.group(1) is None:
            raise self.fail("expected an entry type after '@'", 1)
        if match.group(2) is None and match.group(1).lower() == "comment":
            self.pos = match.end()
            return "comment", ""
        if match.group(2) is None:
            raise self.fail(f"expected '{{' or '(' after @{match.group(1)}", match.end())
        self.pos = match.end()
        self.closer = "}" if match.group(2) == "{" else ")"
        return match.group(1).lower(), match.group(2)

    def close(self) -> None:
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
        if not self.text.startswith(self.closer, self.pos):
            found = self.text[self.pos:self.pos + 1] or "the end of the block"
            raise self.fail(f"expected '{self.closer}' to close the block, found {found!r}")
        self.pos += 1

    def entry(self, entry_type: str, line: int) -> Block:
        text = self.text
        key_match = _KEYS[self.closer].match(text, self.pos)
        assert key_match is not None  # the pattern matches the empty string
        key, after = key_match.group(1), key_match.group(2)
        if not key and after != ",":  # ``@misc{,`` has an empty key, which BibTeX reads
            raise self.fail("the entry has no citation key", key_match.start(1))
        if after is None:
            raise self.fail(f"expected ',' after the citation key {key!r}", key_match.end())
        self.pos = key_match.end()  # after the ``,``, or the ``}`` of an entry without fields
        fields: list[Field] = []
        if after != ",":
            if after != self.closer:
                raise self.fail(f"expected '{self.closer}' to close the entry",
                                key_match.end() - 1)
            return Block("entry", line, entry_type, key)
        match_simple = _SIMPLE_FIELD.match
        append = fields.append
        try:
            while True:  # runs of simple fields, then one field of any kind, and again
                simple = match_simple(text, self.pos)
                while simple is not None:
                    name, raw, ending = simple.groups()
                    append(_new_field(Field, (name.lower(), raw[1:-1], raw, ()))
                           if raw[0] in '{"' else self.word_field(name, raw))
                    if ending != ",":
                        if ending == self.closer:
                            self.pos = simple.end()
                            return Block("entry", line, entry_type, key, tuple(fields))
                        self.pos = simple.start(3)
                        if raw[0] not in '{"' and not raw.isdecimal():
                            raise self.closer_expected(name)  # as after a value of several pieces
                        break
                    self.pos = simple.end()
                    simple = match_simple(text, self.pos)
                self.pos = _SPACE.match(text, self.pos).end()  # type: ignore[union-attr]
                if text.startswith(self.closer, self.pos):
                    self.pos += 1
                    return Block("entry", line, entry_type, key, tuple(fields))
                name_match = _FIELD_NAME.match(text, self.pos)
                if name_match is None:
                    found = text[self.pos:self.pos + 1] or "the end of the block"
                    if found == "the end of the block":
                        raise self.unclosed(f"the entry is never closed (missing "
                                            f"'{self.closer}')")
                    raise self.fail(f"expected a field name or '{self.closer}', found "
                                    f"{found!r}")
                if name_match.group(2) is None:
                    raise self.fail(f"expected '=' after the field name {name_match.group(1)!r}",
                                    name_match.end())
                self.pos = name_match.end()
                value_start = self.pos
                resolved, raw, undefined = self.value()
                fields.append(Field(name_match.group(1).lower(), resolved, raw, undefined))
                if text.startswith(",", self.pos):
                    self.pos += 1
                elif self.pos >= len(text) and _SWALLOWED_FIELD.search(raw):
                    fields.pop()  # it took the rest of the entry: no value of its own
                    raise self.unclosed(f"the value of {name_match.group(1)!r} runs to the end "
                                        "of the entry: a '{' in it is never closed",
                                        value_start)
                elif self.pos >= len(text):  # the file ends (truncated) after a whole value
                    raise self.unclosed(f"the entry is never closed (missing '{self.closer}')")
                elif not text.startswith(self.closer, self.pos):
                    raise self.closer_expected(name_match.group(1))
        except BibSyntaxError as error:  # BibTeX keeps the fields read before it
            error.partial = Block("entry", line, entry_type, key, tuple(fields))
            raise

    def closer_expected(self, name: str) -> BibSyntaxError:
        """The error of a value of field ``name`` followed by something else than ``,`` or
        the closing delimiter (at the current position)."""
        return self.fail(f"expected ',' or '{self.closer}' after the value of {name!r}, "
                         f"found {self.text[self.pos]!r}")

    def block(self, line: int) -> Block:
        kind, opener = self.head()
        if kind == "comment":
            if not opener:  # ``@Comment 1215.bib -*- mode: BibTeX -*-``: the text after it,
                # up to an entry that starts later in the block
                entry = _ENTRY_HEAD.search(self.text, self.pos)
                end = len(self.text) if entry is None else entry.start()
                start, self.pos = self.pos, end
                return Block("comment", line, text=self.text[start:end].strip(),
                             message=BRACELESS_COMMENT)
            if opener == "(":
                end = self.text.rfind(")")
                if end < self.pos:
                    raise self.unclosed("the @comment is never closed (missing ')')")
            else:
                end = self.braced(self.pos - 1) - 1
            start, self.pos = self.pos, end + 1
            return Block("comment", line, text=self.text[start:end])
        if kind == "preamble":
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
            resolved, raw, _ = self.value()
            self.close()
            return Block("preamble", line, text=raw)
        if kind == "string":
            name_match = _FIELD_NAME.match(self.text, self.pos)
            if name_match is None or name_match.group(2) is None:
                raise self.fail("expected 'name = value' in @string")
            self.pos = name_match.end()
            resolved, raw, undefined = self.value()
            self.close()
            name = name_match.group(1).lower()
            self.strings[name] = resolved
            return Block("string", line, key=name,
                         fields=(Field(name, resolved, raw, undefined),))
        return self.entry(kind, line)


def _error_block(error: BibSyntaxError, text: str, line: int) -> Block:
    """The block of ``text`` (from ``line``) that ``error`` broke, with the fields read before
    the break: reported where the problem is, or, for something never closed, where the entry
    starts, saying where that opened."""
    at = line + _line_at(text, error.offset)
    message = str(error)
    if error.unclosed:
        message += f" (it opens on line {at})" if at != line else ""
        at = line
    partial = error.partial
    return Block("error", line, text=text, message=message, error_line=at,
                 entry_type=partial.entry_type if partial else "",
                 key=partial.key if partial else "", fields=partial.fields if partial else ())


def macro_value(raw: str) -> str | None:
    """The value of a field written with month macros (``oct # " 10"``) and macros that no
    ``@string`` defines (kept as their names, as the reader keeps them), else None."""
    parser = _BlockParser(raw, {})
    try:
        resolved, _, _ = parser.value()
    except BibSyntaxError:
        return None
    return resolved if parser.pos == len(raw) else None


def value_pieces(raw: str) -> tuple[str, ...] | None:
    """The pieces of a field's raw value as the tokenizer gives it (``{a}``, ``"b"``,
    ``jan``: those of ``{a} # "b" # jan``), or None when ``raw`` is not one whole value."""
    if "#" not in raw:  # one piece: most values
        return (raw,)
    parser = _BlockParser(raw, {})
    try:
        spans = list(parser.pieces())
    except BibSyntaxError:
        return None
    return tuple(raw[start:end] for start, end in spans) if parser.pos == len(raw) else None


def parse_blocks(text: str, strings: dict[str, str], first_line: int = 1,
                 verbatim: bool = False) -> Iterator[Block]:
    """The blocks of ``text`` (which must start at a line start); ``strings`` holds the
    ``@string`` definitions seen so far and receives new ones. With ``verbatim``, the source
    text that is no entry comes too, as ``text`` blocks (see ``verbatim_blocks``)."""
    spans = parse_spans(text, strings, first_line)
    return verbatim_blocks(text, spans) if verbatim else (span.block for span in spans)


#: The kinds of block that are entries (a broken one too): what is not one is kept as text.
ENTRY_KINDS = frozenset({"entry", "error"})


def verbatim_blocks(text: str, spans: Iterator[Span]) -> Iterator[Block]:
    """The blocks of ``spans`` (of ``text``), and before each entry (or broken block) and at
    the end a ``text`` block with the source between it and the entry before, as written:
    ``%`` lines, free text, ``@comment``, ``@preamble`` and ``@string`` blocks (each of which
    also comes as its own block). Nothing but whitespace gives no ``text`` block."""
    at = 0
    for span in spans:
        if span.block.kind in ENTRY_KINDS:
            if not text[at:span.start].isspace() and span.start > at:
                yield Block("text", 0, text=text[at:span.start])
            at = span.end
        yield span.block
    if at < len(text) and not text[at:].isspace():
        yield Block("text", 0, text=text[at:])


class Span(NamedTuple):
    """A block and where its text is in the text it was read from: from its ``@`` to just
    after its closing delimiter (a broken block: to where the next block starts). The text
    between spans is what BibTeX skips as comments."""

    block: Block
    start: int
    end: int


def parse_spans(text: str, strings: dict[str, str], first_line: int = 1) -> Iterator[Span]:
    """The blocks of ``text`` (as ``parse_blocks``) with the offsets of their text."""
    starts = [m.end() - 1 for m in _BLOCK_START.finditer(text)]
    first = _FIRST_BLOCK_START.match(text)
    if first is not None:
        starts.insert(0, first.end() - 1)
    elif (loose := _entry_head(text, 0, starts[0] if starts else len(text))) is not None:
        starts.insert(0, loose)  # an entry after other text on the first line
    line = first_line + _line_at(text, starts[0]) if starts else first_line
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        for block, block_start, block_end in _spans_from(text[start:end], strings, line):
            yield Span(block, start + block_start, start + block_end)
        if index + 1 < len(starts):
            line += text.count("\n", start, end)


def _entry_head(text: str, start: int, end: int) -> int | None:
    """The offset of the first entry head in ``text[start:end]`` that is not commented out
    (after a ``%`` on its line: biber skips it, as the file's author meant; BibTeX, which
    knows no comments, would read it), or None."""
    for head in _ENTRY_HEAD.finditer(text, start, end):
        if "%" not in text[text.rfind("\n", 0, head.start()) + 1:head.start()]:
            return head.start()
    return None


def _spans_from(text: str, strings: dict[str, str], line: int
                ) -> Iterator[tuple[Block, int, int]]:
    """The block ``text`` starts with (on ``line``), then those that start later in the text
    after it (``}@misc{b, …``, ``<@book{c, …``): BibTeX reads from the end of an entry to the
    next ``@``, wherever on a line it stands. Each with its start and end in ``text``."""
    start = 0
    while True:
        rest = text[start:] if start else text
        parser = _BlockParser(rest, strings)
        try:
            yield parser.block(line), start, start + parser.pos
        except BibSyntaxError as error:
            yield _error_block(error, rest, line), start, len(text)
            return
        following = _entry_head(text, start + parser.pos, len(text))
        if following is None:
            return
        line += text.count("\n", start, following)
        start = following


def block_end(text: str, start: int) -> int | None:
    """The offset just after the block that starts at ``text[start]`` (an ``@``), or None when
    that block is broken: what a tool that rewrites one entry in place replaces."""
    following = _BLOCK_START.search(text, start + 1)
    parser = _BlockParser(text[start:following.start() if following else len(text)], {})
    try:
        parser.block(1)
    except BibSyntaxError:
        return None
    return start + parser.pos


def read_blocks(stream: TextIO, chunk_size: int = CHUNK_SIZE, verbatim: bool = False
                ) -> Iterator[Block]:
    """The blocks of a .bib stream, read ``chunk_size`` characters at a time (with
    ``verbatim``, the text that is no entry too: see ``verbatim_blocks``)."""
    strings: dict[str, str] = {}
    pending = ""
    line = 1
    while True:
        chunk = stream.read(chunk_size)
        text = pending + chunk
        if not chunk:
            yield from parse_blocks(text, strings, line, verbatim)
            return
        last_start = _last_block_start(text)
        if last_start <= 0:
            pending = text
            continue
        complete, pending = text[:last_start], text[last_start:]
        yield from parse_blocks(complete, strings, line, verbatim)
        line += complete.count("\n")


def _last_block_start(text: str) -> int:
    """The offset of the line that starts the last block in ``text`` (0: none after the first).
    """
    last = 0
    search_from = len(text)
    while True:
        at = text.rfind("@", 0, search_from)
        if at <= 0:
            return last
        line_start = text.rfind("\n", 0, at) + 1
        if not text[line_start:at].strip(" \t"):
            return line_start
        search_from = at
