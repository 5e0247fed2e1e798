"""``refbridge lsp``: a language server over standard input and output, on pygls.

It serves LaTeX, Markdown (R Markdown, Quarto), Typst and reStructuredText documents: keys
completed inside every citing syntax of those formats (matched on key, names, title and
year; each item documented with the entry formatted in the document's CSL style by
refbridge's engine), hover, go to the entry, every citation of a key in the workspace, renaming
a key in the library and every document, and diagnostics (keys no library holds, libraries not
found, duplicate keys, ``check``'s findings at their lines). The libraries are those the
documents name and those configured (``initializationOptions`` or the ``refbridge`` section of
the workspace settings: ``libraries``, ``style``, ``check``), read through refbridge's readers
and followed on disk. This module must never change a file itself: edits go to the client.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from refbridge.cited.citations import read_document
from refbridge.errors import Diagnostic, Diagnostics, RefbridgeError
from refbridge.lsp.checking import READ, LibraryFinding, findings, reading_problems
from refbridge.lsp.documents import Analysis, analyse, key_context, kind_of
from refbridge.lsp.library import Entry, Library, stamp_of

#: How many items one completion answer holds at most (the client asks again as more is typed).
COMPLETION_LIMIT = 50
DEFAULT_STYLE = "apa"
#: refbridge's severities -> the protocol's.
SEVERITIES: dict[str, types.DiagnosticSeverity] = {
    "error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information}
#: How long one step of indexing a library holds up requests at most (seconds), and the pause
#: after it (idle, so that the thread reading requests gets to run: with none, a request
#: took 0.2 s to arrive).
INDEXING_STEP = 0.02
INDEXING_PAUSE = 0.002
#: How long after a library changed its diagnostics are published (seconds).
PUBLISHING_DELAY = 0.5
#: How long after a library changed its index is kept in the cache on disk (seconds; a later
#: change puts it off again): the answers the change is made for come first.
SAVING_DELAY = 5.0
#: Characters after which a client should ask for completion.
TRIGGERS = ["{", ",", "@", "<", "`"]
#: Folders of a workspace never searched for documents.
_SKIPPED_FOLDERS = frozenset({"node_modules", "_build", "__pycache__"})
#: How many documents of the workspace are read for references and renames at most.
_WORKSPACE_DOCUMENTS = 5000
#: A key the server renames a key to: what bibtex, biber and every citing syntax read whole.
_GOOD_KEY = re.compile(r"[^\s,{}()\"#%'\\=~@`<>\[\];]+")


@dataclass(frozen=True, slots=True)
class Settings:
    """The server's configuration: library files, default CSL style, whether to check."""

    libraries: tuple[str, ...] = ()
    style: str = DEFAULT_STYLE
    check: bool = True

    @classmethod
    def of(cls, options: Any) -> Settings:
        options = options if isinstance(options, Mapping) else {}
        options = options.get("refbridge", options)
        libraries = options.get("libraries", ())
        libraries = [libraries] if isinstance(libraries, str) else libraries
        style = options.get("style")
        return cls(tuple(str(path) for path in libraries if isinstance(path, str)),
                   style if isinstance(style, str) and style else DEFAULT_STYLE,
                   bool(options.get("check", True)))


def _path(uri: str) -> str:
    path = to_fs_path(uri)
    if path is None:
        raise JsonRpcInvalidParams(f"not a file: {uri}")
    return path


def _uri(path: str) -> str:
    return from_fs_path(os.path.abspath(path)) or path


class RefbridgeServer(LanguageServer):
    """The server's state: settings, the libraries, each open document read, findings."""

    def __init__(self) -> None:
        super().__init__("refbridge", "0.1.0")
        self.settings = Settings()
        self.library = Library()
        self.open: dict[str, Analysis] = {}
        self.on_disk: dict[str, tuple[tuple[int, int], Analysis]] = {}
        self.findings: dict[str, list[LibraryFinding]] = {}
        self.formatted: dict[tuple[str, str], str] = {}
        self.checking: asyncio.Task[None] | None = None
        self.reading: dict[str, asyncio.Task[None]] = {}
        self.indexing: asyncio.Task[None] | None = None
        self.changed: set[str] = set()
        self.saving: asyncio.TimerHandle | None = None
        self.publishing: asyncio.TimerHandle | None = None
        #: What each library's diagnostics were made of when last published.
        self.published: dict[str, tuple[list[Diagnostic], list[tuple[int, str, str, int]],
                                        list[LibraryFinding]]] = {}

    # -- libraries -------------------------------------------------------------------------
    def root(self) -> str | None:
        """The workspace's folder (None: the client opened files, not a folder)."""
        return self.workspace.root_path if self.workspace else None

    def library_files(self) -> list[str]:
        configured = [os.path.join(self.root() or os.getcwd(), os.path.expanduser(path))
                      for path in self.settings.libraries]
        named = [path for analysis in self.open.values() for path in analysis.libraries]
        return list(dict.fromkeys(os.path.abspath(path) for path in [*configured, *named]))

    def refresh(self) -> bool:
        """Follow the library files; on a change, once they are indexed (a large library in
        steps between requests), diagnostics anew and ``check`` again. Whether a library
        changed."""
        changed = self.library.follow(self.library_files())
        if not changed:
            return False
        self.formatted.clear()
        for path in changed:
            self.findings.pop(path, None)
        self.changed.update(changed)
        if self.library.indexing:
            if self.indexing is None or self.indexing.done():
                self.indexing = asyncio.ensure_future(self.index())
        else:
            self.indexed()
        return True

    async def index(self) -> None:
        """Index the libraries a step at a time, answering requests in between."""
        while not self.library.advance(INDEXING_STEP):
            await asyncio.sleep(INDEXING_PAUSE)
        self.indexed()

    def indexed(self) -> None:
        """The libraries changed are indexed: their diagnostics (a moment later: a library's
        may be thousands, and the requests the change is made for come first), their reading
        problems and ``check``'s findings to come."""
        changed, self.changed = self.changed, set()
        for path in changed:
            known = self.library.files.get(path)
            if known is not None and known.pending:
                self.read_apart(path, known.stamp)
        if self.publishing is not None:
            self.publishing.cancel()
        self.publishing = asyncio.get_running_loop().call_later(PUBLISHING_DELAY,
                                                                self.publish_everything)
        self.save_later()
        if self.settings.check and self.library.files:
            if self.checking is not None:
                self.checking.cancel()
            self.checking = asyncio.ensure_future(self.check(list(self.library.files)))

    def save_later(self) -> None:
        """Keep what is known of the libraries in the cache on disk, a moment from now."""
        if self.saving is not None:
            self.saving.cancel()
        self.saving = asyncio.get_running_loop().call_later(SAVING_DELAY, self.library.save)

    def read_apart(self, path: str, stamp: tuple[int, int]) -> None:
        """Read the indexed library ``path`` whole in a process of its own for its problems
        (``check`` reads it too and tells them: then not)."""
        if self.settings.check:
            return
        if path in self.reading:
            self.reading[path].cancel()
        self.reading[path] = asyncio.ensure_future(self.read_problems(path, stamp))

    async def read_problems(self, path: str, stamp: tuple[int, int]) -> None:
        if self.took_problems(path, stamp, await reading_problems(path)):
            self.publish_library(path)

    def took_problems(self, path: str, stamp: tuple[int, int],
                      problems: list[Diagnostic]) -> bool:
        """Whether the indexed library ``path`` took ``problems``, those of reading it as it
        was at ``stamp`` (not when it changed since)."""
        known = self.library.files.get(path)
        if known is None or not known.pending or not known.stamp == stamp == stamp_of(path):
            return False
        known.problems, known.pending = problems, False
        self.save_later()
        return True

    async def check(self, paths: list[str]) -> None:
        stamps = {path: known.stamp for path, known in self.library.files.items()}
        found = await findings(paths)
        self.findings = {path: [] for path in paths}
        problems: dict[str, list[Diagnostic]] = {path: [] for path in paths}
        for finding in found:
            path = os.path.abspath(finding.file)
            if finding.rule == READ:
                problems.setdefault(path, []).append(Diagnostic(
                    finding.severity, finding.message, finding.file, finding.line or None))
            else:
                self.findings.setdefault(path, []).append(finding)
        for path in paths:
            if path in stamps:
                self.took_problems(path, stamps[path], problems[path])
            self.publish_library(path)

    # -- diagnostics -----------------------------------------------------------------------
    def publish_everything(self) -> None:
        for path in self.library.files:
            self.publish_library(path)
        for uri in self.open:
            self.publish_document(uri)

    def publish_library(self, path: str) -> None:
        """The library's diagnostics, unless the client has them already (a large library's
        may be thousands, unchanged by a change that moved no line)."""
        if self.library.indexing:
            return  # once indexed
        found = ([*self.library.problems(path)],
                 [(later.line, later.key, first.file, first.line)
                  for later, first in self.library.duplicates()
                  if later.file == path and first.file != path],  # the reader tells of its own
                 [*self.findings.get(path, ())])
        if self.published.get(path) == found:
            return
        self.published[path] = found
        problems, duplicates, findings = found
        diagnostics = [_diagnostic(problem) for problem in problems]
        for line, key, first_file, first_line in duplicates:
            diagnostics.append(_at_line(
                line, types.DiagnosticSeverity.Warning, "duplicate-key",
                f"duplicate key {key!r}: the entry at {first_file}:{first_line} has it"))
        for finding in findings:
            diagnostics.append(_at_line(finding.line, SEVERITIES.get(
                finding.severity, types.DiagnosticSeverity.Warning), finding.rule,
                finding.message))
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=_uri(path), diagnostics=diagnostics))

    def publish_document(self, uri: str) -> None:
        if self.library.indexing:
            return  # once indexed
        analysis = self.open[uri]
        diagnostics = [_diagnostic(problem) for problem in analysis.problems]
        if not self.library_files():
            diagnostics.append(_at_line(1, types.DiagnosticSeverity.Information, "no-library",
                                        "no library: the document names none and none is "
                                        "configured"))
        else:
            names = ", ".join(os.path.basename(path) for path in self.library.files)
            for cited in analysis.citations:
                if cited.cross_reference or cited.key in self.library.by_key:
                    continue
                diagnostics.append(types.Diagnostic(
                    range=self.range_in(analysis.text, cited.start, cited.end),
                    message=f"no entry {cited.key!r} in the libraries ({names})",
                    severity=types.DiagnosticSeverity.Warning, code="undefined-key",
                    source="refbridge"))
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    # -- documents -------------------------------------------------------------------------
    def read_open(self, uri: str) -> Analysis | None:
        path = _path(uri)
        if kind_of(path) is None:
            return None
        document = self.workspace.get_text_document(uri)
        self.open[uri] = analyse(path, document.source)
        return self.open[uri]

    def documents(self) -> Iterator[Analysis]:
        """Every source document of the workspace, open ones as the editor holds them."""
        yield from self.open.values()
        open_paths = {analysis.path for analysis in self.open.values()}
        root = self.root()
        for path in _workspace_documents(root) if root is not None else ():
            if path in open_paths:
                continue
            try:
                status = os.stat(path)
                stamp = (status.st_mtime_ns, status.st_size)
                known = self.on_disk.get(path)
                if known is None or known[0] != stamp:
                    known = (stamp, analyse(path, read_document(path, Diagnostics())))
                    self.on_disk[path] = known
            except (OSError, RefbridgeError):
                continue
            yield known[1]

    def range_in(self, text: str, start: int, end: int) -> types.Range:
        return types.Range(start=self.position_in(text, start),
                           end=self.position_in(text, end))

    def position_in(self, text: str, offset: int) -> types.Position:
        line_start = text.rfind("\n", 0, offset) + 1
        return types.Position(
            line=text.count("\n", 0, offset),
            character=self.workspace.position_codec.client_num_units(text[line_start:offset]))

    def offset_of(self, uri: str, position: types.Position) -> int:
        return self.workspace.get_text_document(uri).offset_at_position(position)

    def cited_at(self, uri: str, position: types.Position) -> tuple[Analysis, str] | None:
        analysis = self.open.get(uri) or self.read_open(uri)
        if analysis is None:
            return None
        cited = analysis.cited_at(self.offset_of(uri, position))
        return (analysis, cited.key) if cited is not None else None

    def key_at(self, uri: str, position: types.Position) -> str | None:
        """The key at ``position``: a citation's in a document, an entry's in a library."""
        found = self.cited_at(uri, position)
        if found is not None:
            return found[1]
        path = os.path.abspath(_path(uri))
        for entry in self.library.files[path].entries if path in self.library.files else ():
            if entry.line == position.line + 1:
                return entry.key
        return None

    def style_of(self, analysis: Analysis | None) -> str:
        return (analysis.style if analysis is not None else None) or self.settings.style

    def formatted_entry(self, entry: Entry, style: str) -> str:
        """The entry as its bibliography in ``style`` shows it, as Markdown."""
        known = self.formatted.get((entry.key, style))
        if known is None:
            from refbridge.formatting import format_bibliography

            try:
                record = self.library.record(entry)
                known = format_bibliography([record], style, "markdown").strip() \
                    if record is not None else f"(cannot read the entry {entry.key!r})"
            except RefbridgeError as exc:
                known = f"(cannot format it in {style}: {exc})"
            self.formatted[(entry.key, style)] = known
        return known

    # -- library positions -----------------------------------------------------------------
    def key_locations(self, key: str) -> Iterator[tuple[str, types.Range]]:
        """Where each entry with ``key`` writes it in its library file."""
        for entry in self.library.by_key.get(key, ()):
            known = self.library.files.get(entry.file)
            written = known.key_written(entry) if known is not None else None
            if written is not None:
                line, before, written_key = written
                units = self.workspace.position_codec.client_num_units
                start = types.Position(line=line - 1, character=units(before))
                yield entry.file, types.Range(start=start, end=types.Position(
                    line=line - 1, character=start.character + units(written_key)))
            else:
                start_of_line = types.Position(line=entry.line - 1, character=0)
                yield entry.file, types.Range(start=start_of_line, end=start_of_line)

    def is_bib(self, path: str) -> bool:
        """Whether the library file ``path`` is a .bib whose text the server holds."""
        known = self.library.files.get(path)
        return known is not None and known.text is not None


def _workspace_documents(root: str) -> Iterator[str]:
    found = 0
    for directory, folders, files in os.walk(root):
        folders[:] = sorted(folder for folder in folders
                            if not folder.startswith(".") and folder not in _SKIPPED_FOLDERS)
        for name in sorted(files):
            if kind_of(name) is not None:
                found += 1
                if found > _WORKSPACE_DOCUMENTS:
                    return
                yield os.path.abspath(os.path.join(directory, name))


def _at_line(line: int, severity: types.DiagnosticSeverity, code: str,
             message: str) -> types.Diagnostic:
    start = types.Position(line=max(line - 1, 0), character=0)
    end = types.Position(line=max(line, 1), character=0)
    return types.Diagnostic(range=types.Range(start=start, end=end), message=message,
                            severity=severity, code=code, source="refbridge")


def _diagnostic(problem: Diagnostic) -> types.Diagnostic:
    return _at_line(problem.line or 1, SEVERITIES.get(problem.level,
                                                      types.DiagnosticSeverity.Warning),
                    "read", problem.message)


server = RefbridgeServer()


@server.feature(types.INITIALIZE)
def initialize(ls: RefbridgeServer, params: types.InitializeParams) -> None:
    ls.settings = Settings.of(params.initialization_options)


@server.feature(types.INITIALIZED)
def initialized(ls: RefbridgeServer, params: types.InitializedParams) -> None:
    ls.refresh()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: RefbridgeServer,
                             params: types.DidChangeConfigurationParams) -> None:
    if isinstance(params.settings, Mapping) and params.settings:
        ls.settings = Settings.of(params.settings)
        ls.formatted.clear()
        ls.refresh()
        ls.publish_everything()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_change(ls: RefbridgeServer, params: Any) -> None:
    uri = params.text_document.uri
    if ls.read_open(uri) is None:
        ls.refresh()
        return
    if not ls.refresh():
        ls.publish_document(uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RefbridgeServer, params: types.DidCloseTextDocumentParams) -> None:
    if ls.open.pop(params.text_document.uri, None) is not None:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: RefbridgeServer,
                             params: types.DidChangeWatchedFilesParams) -> None:
    ls.refresh()


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=TRIGGERS, resolve_provider=True))
def completion(ls: RefbridgeServer, params: types.CompletionParams
               ) -> types.CompletionList | None:
    uri = params.text_document.uri
    kind = kind_of(_path(uri))
    if kind is None:
        return None
    ls.refresh()
    document = ls.workspace.get_text_document(uri)
    text = document.source
    offset = document.offset_at_position(params.position)
    context = key_context(kind, text, offset)
    if context is None:
        return None
    entries, more = ls.library.search(context.typed, COMPLETION_LIMIT)
    replaced = ls.range_in(text, context.start, offset)
    items = [types.CompletionItem(
        label=entry.key, kind=types.CompletionItemKind.Reference, detail=entry.detail,
        filter_text=f"{entry.key} {entry.words}" if context.typed else entry.key,
        sort_text=f"{index:05d}", text_edit=types.TextEdit(range=replaced, new_text=entry.key),
        data={"key": entry.key, "uri": uri}) for index, entry in enumerate(entries)]
    return types.CompletionList(is_incomplete=more, items=items)


@server.feature(types.COMPLETION_ITEM_RESOLVE)
def completion_resolve(ls: RefbridgeServer, item: types.CompletionItem) -> types.CompletionItem:
    data = item.data if isinstance(item.data, Mapping) else {}
    entry = ls.library.entry(str(data.get("key", item.label)))
    if entry is not None:
        analysis = ls.open.get(str(data.get("uri", "")))
        item.documentation = types.MarkupContent(
            kind=types.MarkupKind.Markdown,
            value=ls.formatted_entry(entry, ls.style_of(analysis)))
    return item


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: RefbridgeServer, params: types.HoverParams) -> types.Hover | None:
    ls.refresh()
    found = ls.cited_at(params.text_document.uri, params.position)
    if found is None:
        return None
    analysis, key = found
    entry = ls.library.entry(key)
    if entry is None:
        return None
    from refbridge.richtext import plain

    value = ls.formatted_entry(entry, ls.style_of(analysis))
    record = ls.library.record(entry)
    doi = plain(record.fields.get("DOI", "")) if record is not None else ""
    if doi:
        value += "\n\nDOI: " + _markdown_code(doi)
    cited = analysis.cited_at(ls.offset_of(params.text_document.uri, params.position))
    assert cited is not None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value),
                       range=ls.range_in(analysis.text, cited.start, cited.end))


def _markdown_code(text: str) -> str:
    """``text`` as a Markdown code span (a fence longer than any run of backticks in it)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}" if longest else f"`{text}`"


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RefbridgeServer, params: types.DefinitionParams) -> list[types.Location]:
    ls.refresh()
    found = ls.cited_at(params.text_document.uri, params.position)
    if found is None:
        return []
    return [types.Location(uri=_uri(path), range=where)
            for path, where in ls.key_locations(found[1])]


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
def references(ls: RefbridgeServer, params: types.ReferenceParams) -> list[types.Location]:
    ls.refresh()
    key = ls.key_at(params.text_document.uri, params.position)
    if key is None:
        return []
    locations = [types.Location(uri=_uri(path), range=where)
                 for path, where in ls.key_locations(key)] \
        if params.context.include_declaration else []
    for analysis, cited in _citations_of(ls, key):
        locations.append(types.Location(uri=_uri(analysis.path),
                                        range=ls.range_in(analysis.text, cited.start,
                                                          cited.end)))
    return locations


def _citations_of(ls: RefbridgeServer, key: str) -> Iterable[tuple[Analysis, Any]]:
    for analysis in ls.documents():
        for cited in analysis.citations:
            if cited.key == key:
                yield analysis, cited


@server.feature(types.TEXT_DOCUMENT_RENAME)
def rename(ls: RefbridgeServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    ls.refresh()
    key = ls.key_at(params.text_document.uri, params.position)
    if key is None:
        return None
    new = params.new_name
    if _GOOD_KEY.fullmatch(new) is None:
        raise JsonRpcInvalidParams(f"{new!r} cannot be a citation key (no spaces, commas, "
                                   "braces, quotes, '#', '%' or '\\')")
    if new != key and new in ls.library.by_key:
        raise JsonRpcInvalidParams(f"an entry already has the key {new!r}")
    changes: dict[str, list[types.TextEdit]] = {}
    for path, where in ls.key_locations(key):
        if not ls.is_bib(path):
            raise JsonRpcInvalidParams(f"{path}: only a .bib's keys are renamed")
        changes.setdefault(_uri(path), []).append(types.TextEdit(range=where, new_text=new))
    for analysis, cited in _citations_of(ls, key):
        changes.setdefault(_uri(analysis.path), []).append(types.TextEdit(
            range=ls.range_in(analysis.text, cited.start, cited.end), new_text=new))
    return types.WorkspaceEdit(changes=changes)


def run() -> None:
    """Serve over standard input and output until the client says exit."""
    server.start_io()
