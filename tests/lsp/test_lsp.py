"""``refbridge lsp``: the language server driven as an editor drives it (pytest-lsp runs the
real server process): completion, hover, definition, references, rename and diagnostics in
LaTeX, Markdown, Typst and reStructuredText documents, on a small invented library."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from refbridge.lsp.library import Library

LIBRARY = """% invented entries
@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming},
  journal = {The Computer Journal},
  volume = {27},
  number = {2},
  pages = {97--111},
  year = {1984},
  doi = {10.1093/comjnl/27.2.97},
}

@book{lamport1994,
  author = {Lamport, Leslie},
  title = {A Document Preparation System},
  publisher = {Addison-Wesley},
  year = {1994},
}

@misc{lamport1994,
  title = {A second entry with the same key},
  year = {1994},
}

@article{ulrich2003,
  author = {Ulrich, Ada},
  title = {Typesetting Tables},
  journal = {TUGboat},
  year = {2003},
  pages = {5-9},
}
"""
PAPER_TEX = r"""\documentclass{article}
\begin{document}
As \citet{knuth1984} showed, see also \parencite[p.~3]{lamport1994,nobody2020}.
% \cite{hidden2000}
\cite{}
\bibliography{refs}
\end{document}
"""
NOTES_MD = """---
bibliography: refs.bib
---
Programs are literature [@knuth1984, p. 97].
"""
PAPER_TYP = """= Tables
Tables @ulrich2003 and #cite(<knuth1984>).
#bibliography("refs.bib")
"""
INDEX_RST = """Index
=====

See :cite:p:`knuth1984` and :cite:t:`ulrich2003`.
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "refs.bib").write_text(LIBRARY, encoding="utf-8")
    (tmp_path / "paper.tex").write_text(PAPER_TEX, encoding="utf-8")
    (tmp_path / "notes.md").write_text(NOTES_MD, encoding="utf-8")
    (tmp_path / "paper.typ").write_text(PAPER_TYP, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("bibtex_bibfiles = ['../refs.bib']\n",
                                               encoding="utf-8")
    (tmp_path / "docs" / "index.rst").write_text(INDEX_RST, encoding="utf-8")
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "refbridge", "lsp", "--stdio"]))
async def client(lsp_client: LanguageClient, workspace: Path) -> AsyncIterator[None]:
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=workspace.as_uri(), workspace_folders=[
            types.WorkspaceFolder(uri=workspace.as_uri(), name="paper")],
        initialization_options={"check": True}))
    yield
    await lsp_client.shutdown_session()


LANGUAGES = {".tex": "latex", ".md": "markdown", ".typ": "typst", ".rst": "restructuredtext"}


def open_document(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(
            uri=uri, language_id=LANGUAGES[path.suffix], version=1,
            text=path.read_text(encoding="utf-8") if text is None else text)))
    return uri


async def diagnostics_of(client: LanguageClient, uri: str, codes: set[str]
                         ) -> list[tuple[int, str, str]]:
    """The diagnostics of ``uri`` once every code of ``codes`` is among them."""
    for _ in range(200):
        found = client.diagnostics.get(uri, [])
        if codes <= {str(diagnostic.code) for diagnostic in found}:
            return sorted((d.range.start.line, str(d.code), d.message) for d in found)
        await asyncio.sleep(0.05)
    raise AssertionError(f"no diagnostics {codes} for {uri}: {client.diagnostics.get(uri)}")


async def complete(client: LanguageClient, uri: str, line: int, character: int
                   ) -> types.CompletionList:
    answer = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=character)))
    assert isinstance(answer, types.CompletionList)
    return answer


@pytest.mark.asyncio
async def test_completion_in_a_latex_citation_offers_every_key(client: LanguageClient,
                                                               workspace: Path) -> None:
    uri = open_document(client, workspace / "paper.tex")
    answer = await complete(client, uri, 4, 6)  # inside \cite{}
    assert [(item.label, item.detail) for item in answer.items] == [
        ("knuth1984", "Knuth (1984) Literate Programming"),
        ("lamport1994", "Lamport (1994) A Document Preparation System"),
        ("ulrich2003", "Ulrich (2003) Typesetting Tables")]
    assert answer.is_incomplete is False


@pytest.mark.asyncio
async def test_completion_matches_words_of_the_title_and_names(client: LanguageClient,
                                                               workspace: Path) -> None:
    uri = open_document(client, workspace / "notes.md",
                        "---\nbibliography: refs.bib\n---\nSee [@tables")
    answer = await complete(client, uri, 3, 12)
    assert [item.label for item in answer.items] == ["ulrich2003"]
    edit = answer.items[0].text_edit
    assert isinstance(edit, types.TextEdit)
    assert (edit.range.start.character, edit.range.end.character, edit.new_text) == \
        (6, 12, "ulrich2003")


@pytest.mark.asyncio
async def test_completion_works_in_typst_and_rst_citations(client: LanguageClient,
                                                           workspace: Path) -> None:
    typst = open_document(client, workspace / "paper.typ",
                          '#bibliography("refs.bib")\nSee #cite(<lam')
    rst = open_document(client, workspace / "docs" / "index.rst",
                        "See :cite:p:`knuth1984, ul")
    assert [item.label for item in (await complete(client, typst, 1, 14)).items] == \
        ["lamport1994"]
    assert [item.label for item in (await complete(client, rst, 0, 26)).items] == \
        ["ulrich2003"]


@pytest.mark.asyncio
async def test_no_completion_outside_a_citation(client: LanguageClient,
                                                workspace: Path) -> None:
    uri = open_document(client, workspace / "paper.tex", "\\bibliography{refs}\n\\emph{kn")
    answer = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=1, character=8)))
    assert answer is None


@pytest.mark.asyncio
async def test_a_completion_item_resolves_to_the_entry_in_apa(client: LanguageClient,
                                                              workspace: Path) -> None:
    uri = open_document(client, workspace / "paper.tex")
    item = (await complete(client, uri, 4, 6)).items[0]
    resolved = await client.completion_item_resolve_async(item)
    assert isinstance(resolved.documentation, types.MarkupContent)
    assert resolved.documentation.value == (
        "Knuth, D. E. (1984). Literate Programming. *The Computer Journal*, *27*(2), "
        "97–111. https://doi.org/10.1093/comjnl/27.2.97")


@pytest.mark.asyncio
async def test_hover_shows_the_entry_in_the_documents_csl_style_and_its_doi(
        client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, workspace / "notes.md",
                        "---\nbibliography: refs.bib\ncsl: ieee\n---\nSee [@knuth1984].\n")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=4, character=9)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value == (
        "\\[1\\] D. E. Knuth, “Literate Programming,” *The Computer Journal*, vol. 27, no. 2, "
        "pp. 97–111, 1984, doi: 10.1093/comjnl/27.2.97.\n\nDOI: `10.1093/comjnl/27.2.97`")
    assert hover.range == types.Range(start=types.Position(line=4, character=6),
                                      end=types.Position(line=4, character=15))


@pytest.mark.asyncio
async def test_definition_is_the_key_of_the_entry_in_the_library(client: LanguageClient,
                                                                 workspace: Path) -> None:
    uri = open_document(client, workspace / "paper.typ")
    locations = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=1, character=9)))
    assert locations == [types.Location(
        uri=(workspace / "refs.bib").as_uri(),
        range=types.Range(start=types.Position(line=24, character=9),
                          end=types.Position(line=24, character=19)))]


def where(location: types.Location, workspace: Path) -> tuple[str, int, int, int]:
    start, end = location.range.start, location.range.end
    assert start.line == end.line
    return (location.uri.removeprefix(workspace.as_uri() + "/"), start.line, start.character,
            end.character)


@pytest.mark.asyncio
async def test_references_are_every_citation_of_the_key_in_the_workspace(
        client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, workspace / "paper.tex")
    locations = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=2, character=12),
        context=types.ReferenceContext(include_declaration=True)))
    assert sorted(where(location, workspace) for location in locations or []) == [
        ("docs/index.rst", 3, 13, 22), ("notes.md", 3, 26, 35), ("paper.tex", 2, 10, 19),
        ("paper.typ", 1, 30, 39), ("refs.bib", 1, 9, 18)]


@pytest.mark.asyncio
async def test_rename_changes_the_library_and_every_document(client: LanguageClient,
                                                             workspace: Path) -> None:
    uri = open_document(client, workspace / "docs" / "index.rst")
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=3, character=40), new_name="ulrich2003tables"))
    assert edit is not None and edit.changes is not None
    assert sorted((where(types.Location(uri=file, range=change.range), workspace),
                   change.new_text) for file, changes in edit.changes.items()
                  for change in changes) == [
        (("docs/index.rst", 3, 37, 47), "ulrich2003tables"),
        (("paper.typ", 1, 8, 18), "ulrich2003tables"),
        (("refs.bib", 24, 9, 19), "ulrich2003tables")]


@pytest.mark.asyncio
async def test_rename_to_a_key_bibtex_cannot_read_is_refused(client: LanguageClient,
                                                             workspace: Path) -> None:
    uri = open_document(client, workspace / "paper.tex")
    with pytest.raises(Exception, match="cannot be a citation key"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=2, character=12), new_name="knuth 1984"))


@pytest.mark.asyncio
async def test_diagnostics_name_keys_no_library_holds(client: LanguageClient,
                                                      workspace: Path) -> None:
    uri = open_document(client, workspace / "paper.tex")
    assert await diagnostics_of(client, uri, {"undefined-key"}) == [
        (2, "undefined-key", "no entry 'nobody2020' in the libraries (refs.bib)")]


@pytest.mark.asyncio
async def test_library_diagnostics_are_reading_problems_and_checks_findings(
        client: LanguageClient, workspace: Path) -> None:
    open_document(client, workspace / "paper.tex")
    library = (workspace / "refs.bib").as_uri()
    found = await diagnostics_of(client, library, {"read", "page-range-dash"})
    assert found == [
        (19, "read", ("duplicate key 'lamport1994' (first at line 13); both entries are kept "
                     "(a .bib written from them repeats it; another format gives the later "
                     "one a new key)")),
        (24, "page-range-dash", "pages '5-9': a range is written with -- (an en dash)")]


@pytest.mark.asyncio
async def test_without_check_a_librarys_diagnostics_are_its_reading_problems(
        client: LanguageClient, workspace: Path) -> None:
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"refbridge": {"check": False}}))
    open_document(client, workspace / "paper.tex")
    library = (workspace / "refs.bib").as_uri()
    assert await diagnostics_of(client, library, {"read"}) == [
        (19, "read", ("duplicate key 'lamport1994' (first at line 13); both entries are kept "
                     "(a .bib written from them repeats it; another format gives the later "
                     "one a new key)"))]


@pytest.mark.asyncio
async def test_a_library_changed_on_disk_is_read_again(client: LanguageClient,
                                                       workspace: Path) -> None:
    uri = open_document(client, workspace / "paper.tex")
    await complete(client, uri, 4, 6)
    library = workspace / "refs.bib"
    library.write_text(LIBRARY.replace("ulrich2003", "ulrich2004"), encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=library.as_uri(), type=types.FileChangeType.Changed)]))
    assert [item.label for item in (await complete(client, uri, 4, 6)).items] == \
        ["knuth1984", "lamport1994", "ulrich2004"]


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "refbridge", "lsp", "--stdio"]))
async def restarted(lsp_client: LanguageClient, workspace: Path) -> AsyncIterator[None]:
    """A server started on a library whose index an earlier server left in the cache."""
    earlier = Library()
    earlier.follow([str(workspace / "refs.bib")])
    assert earlier.files[str(workspace / "refs.bib")].cached
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=workspace.as_uri(), initialization_options={"check": False}))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_a_restart_on_the_cached_index_answers_hover_and_definition_the_same(
        restarted: LanguageClient, workspace: Path) -> None:
    notes = open_document(restarted, workspace / "notes.md",
                          "---\nbibliography: refs.bib\ncsl: ieee\n---\nSee [@knuth1984].\n")
    hover = await restarted.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=notes),
        position=types.Position(line=4, character=9)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value == (
        "\\[1\\] D. E. Knuth, “Literate Programming,” *The Computer Journal*, vol. 27, no. 2, "
        "pp. 97–111, 1984, doi: 10.1093/comjnl/27.2.97.\n\nDOI: `10.1093/comjnl/27.2.97`")
    paper = open_document(restarted, workspace / "paper.typ")
    assert await restarted.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=paper),
        position=types.Position(line=1, character=9))) == [types.Location(
            uri=(workspace / "refs.bib").as_uri(),
            range=types.Range(start=types.Position(line=24, character=9),
                              end=types.Position(line=24, character=19)))]
    assert [item.label for item in (await complete(restarted, paper, 1, 11)).items] == \
        ["ulrich2003"]
