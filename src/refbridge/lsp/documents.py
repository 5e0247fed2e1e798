"""What a source document cites, where, and which libraries and CSL style it names.

A document (LaTeX, Markdown/R Markdown/Quarto, Typst, reStructuredText) is read by
``refbridge.cited``'s scanner of its kind from the editor's text, each cited key located
(``refbridge.cited.spans``), each library it names looked up as bibtex and biber look it up
(``refbridge.cited.libraries``). The completion context says whether the cursor is where a
citation's key is typed, in each kind's citing syntax. This module must never read a library
nor scan citations itself.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from refbridge.cited.documents import DOCUMENT_KINDS, SOURCE_KINDS, scan_text
from refbridge.cited.latex import CITE_COMMANDS
from refbridge.cited.libraries import library_paths
from refbridge.cited.rst import role_keys
from refbridge.cited.spans import Span, citation_spans
from refbridge.errors import Diagnostic, Diagnostics, ParseError


def kind_of(path: str) -> str | None:
    """The kind of source document at ``path`` (None: not one the server reads)."""
    kind = DOCUMENT_KINDS.get(os.path.splitext(path)[1].lower())
    return kind if kind in SOURCE_KINDS else None


@dataclass(frozen=True, slots=True)
class Cited:
    """A key cited at ``start:end`` of the text; ``cross_reference``: maybe a label."""

    key: str
    start: int
    end: int
    cross_reference: bool = False


@dataclass(slots=True)
class Analysis:
    """One document read: its citations, the library files it names (found ones), the
    libraries not found and other problems, its CSL style as written and where."""

    path: str
    text: str
    citations: list[Cited] = field(default_factory=list)
    libraries: list[str] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    style: str | None = None

    def cited_at(self, offset: int) -> Cited | None:
        """The citation whose key holds ``offset`` (or ends right at it)."""
        for cited in self.citations:
            if cited.start <= offset <= cited.end:
                return cited
        return None


def analyse(path: str, text: str) -> Analysis:
    """What the document ``path`` holding ``text`` cites and names."""
    diagnostics = Diagnostics()
    analysis = Analysis(path, text)
    try:
        scan = scan_text(path, text, diagnostics)
    except ParseError as exc:
        analysis.problems.append(Diagnostic("error", str(exc), path, exc.line))
        return analysis
    flags = {(c.key, c.line): c.cross_reference for c in scan.citations}
    own = [citation for citation in scan.citations if citation.file == path]
    analysis.citations = [
        Cited(span.key, span.start, span.end, _flag(flags, span, text))
        for span in citation_spans(path, text, own)]
    for named in scan.libraries:
        try:
            analysis.libraries += library_paths([named])
        except ParseError as exc:
            analysis.problems.append(Diagnostic("error", exc.args[0] if exc.args else str(exc),
                                                named.file, named.line))
    if scan.style is not None:
        style = scan.style.path
        beside = os.path.join(os.path.dirname(path), os.path.expanduser(style))
        analysis.style = beside if style.lower().endswith(".csl") else style
    analysis.problems += [message for message in diagnostics.messages
                          if message.file in (None, path)]
    return analysis


def _flag(flags: dict[tuple[str, int], bool], span: Span, text: str) -> bool:
    return flags.get((span.key, text.count("\n", 0, span.start) + 1), False)


@dataclass(frozen=True, slots=True)
class KeyContext:
    """Where a key is being typed: ``start`` of what was typed of it, and that text."""

    start: int
    typed: str


#: Per kind: what the text before the cursor ends with when a key is typed there (group
#: ``keys``: the key list so far, split at commas unless the kind cites one key at a time;
#: group ``command``, when there: the LaTeX command, which must cite).
_CONTEXTS: dict[str, tuple[re.Pattern[str], bool]] = {
    "latex": (re.compile(r"\\(?P<command>[A-Za-z]+)\*?(?:\s*(?:\[[^\[\]]*\]|\([^()]*\)"
                         r"|\{[^{}]*\}))*\s*\{(?P<keys>[^{}\\%]*)\Z"), True),
    "markdown": (re.compile(r"(?<!\w)@\{?(?P<keys>(?:\w(?:[\w:.#$%&\-+?<>~/]*))?)\Z"), False),
    "typst": (re.compile(r"(?:(?<![\w@])@|\bcite\(\s*<)(?P<keys>[\w\-:.]*)\Z"), False),
    "rst": (re.compile(r":(?:foot)?cite(?::[a-z]+)?:`(?P<keys>[^`]*)\Z"), True),
}
#: How far back from the cursor a citation's start is looked for.
_LOOK_BACK = 400


def key_context(kind: str, text: str, offset: int) -> KeyContext | None:
    """Whether the cursor at ``offset`` is where a key is typed, and what was typed of it."""
    pattern, listed = _CONTEXTS[kind]
    before = text[max(0, offset - _LOOK_BACK):offset]
    match = pattern.search(before)
    if match is None:
        return None
    if "command" in pattern.groupindex and match.group("command") not in CITE_COMMANDS:
        return None
    keys = match.group("keys")
    typed = keys
    if listed:
        typed = keys.rsplit(",", 1)[-1]
        if kind == "rst":
            typed = (role_keys(typed + ",") or [""])[0] if "}" in typed else typed
        typed = typed.lstrip()
    return KeyContext(offset - len(typed), typed)
