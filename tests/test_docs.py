"""The documentation: the README and the pages of ``docs/`` build into a site without a warning,
every relative link in them reaches a file (and heading) that exists, every command has its
reference page, and the examples the README shows run.

The site is built by Sphinx with myst-parser and sphinx-click (the ``test`` and ``docs`` extras);
without them the build test skips with the reason. External links are never checked here (no
network in the tests): ``sphinx-build -b linkcheck docs OUT`` checks them on demand.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token
from support import ROOT

DOCS = ROOT / "docs"
#: the Markdown files a reader follows links in: the README, the project's files, the pages
PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md",
                *DOCS.rglob("*.md")])
#: a link with a scheme (https:, mailto:) leads out of the repository
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
#: what a heading's anchor leaves out, as GitHub and myst-parser make anchors
NOT_IN_ANCHOR = re.compile(r"[^\w\u4e00-\u9fff\- ]")


def _tokens(path: Path) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").parse(path.read_text(encoding="utf-8"))


def _text(inline: Token) -> str:
    return "".join(child.content for child in inline.children or ()
                   if child.type in ("text", "code_inline"))


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub and myst-parser spell them (a
    repeated heading gets ``-1``, ``-2`` ...)."""
    tokens = _tokens(path)
    found: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        slug = NOT_IN_ANCHOR.sub("", _text(tokens[index + 1]).lower().replace(" ", "-"))
        unique, count = slug, 0
        while unique in found:
            count += 1
            unique = f"{slug}-{count}"
        found.add(unique)
    return found


def relative_links(path: Path) -> list[str]:
    """Every link and image address of a Markdown file that stays in the repository (code spans
    and blocks hold none)."""
    links = []
    for token in _tokens(path):
        for child in token.children or ():
            target = child.attrGet("href") if child.type == "link_open" else (
                child.attrGet("src") if child.type == "image" else None)
            if isinstance(target, str) and not EXTERNAL.match(target):
                links.append(target)
    return links


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_heading(page: Path) -> None:
    broken = []
    for link in relative_links(page):
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            broken.append(f"{link}: no file {path.relative_to(ROOT)}")
        elif anchor and (path.suffix != ".md" or anchor not in anchors(path)):
            broken.append(f"{link}: no heading #{anchor} in {path.relative_to(ROOT)}")
    assert broken == []


def test_anchors_are_spelled_as_github_and_myst_spell_them(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Tidy a .bib\n\n## Reading `zotero.sqlite`\n\n## Push\n\n## Push\n",
                    encoding="utf-8")
    assert anchors(page) == {"tidy-a-bib", "reading-zoterosqlite", "push", "push-1"}


def test_a_missing_file_or_heading_is_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Page\n\nSee [there](other.md#nowhere), [here](#page) and "
                    "`[code](not-a-link.md)`.\n", encoding="utf-8")
    assert relative_links(page) == ["other.md#nowhere", "#page"]


def test_every_command_has_its_reference_page() -> None:
    import click

    from refbridge.cli import main

    # the ``index`` command's page is index-command.md: index.md is the reference's own page
    pages = {page.stem.removesuffix("-command")
             for page in (DOCS / "reference").glob("*.md") if page.stem != "index"}
    assert pages == set(main.list_commands(click.Context(main)))
    for name in pages:
        page = "index-command" if name == "index" else name
        text = (DOCS / "reference" / f"{page}.md").read_text(encoding="utf-8")
        assert f".. refbridge-command:: {name}\n   :prog: refbridge {name}\n" in text


def test_every_page_is_in_the_table_of_contents() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([\w/-]+)$", index, re.MULTILINE))
    pages = {page.stem for page in DOCS.glob("*.md")} - {"index"}
    assert pages <= listed


def test_the_readme_keeps_the_test_command_ci_runs() -> None:
    """``.ci/run`` runs the second line after ``<!-- test-command -->`` as written."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    command = lines[lines.index("<!-- test-command -->") + 2]
    assert lines[lines.index("<!-- test-command -->") + 1] == "```"
    assert "-m pytest" in command


def test_the_getting_started_page_includes_the_readme_quick_start() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    page = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    assert ":start-after: <!-- quick-start -->\n:end-before: <!-- /quick-start -->" in page
    quick_start = readme.split("<!-- quick-start -->\n", 1)[1].split("<!-- /quick-start -->")[0]
    assert "<!-- test-command -->" in quick_start


def test_the_readme_python_example_runs(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
    (tmp_path / "refs.bib").write_text(
        "@article{lovelace1843,\n  author = {Ada Lovelace},\n"
        "  title = {Sketch of the Analytical Engine},\n  journal = {Scientific Memoirs},\n"
        "  volume = {3},\n  pages = {666--731},\n  year = {1843}\n}\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", example], cwd=tmp_path, capture_output=True,
                            text=True, check=False, timeout=120)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == ("Lovelace, A. (1843). Sketch of the Analytical Engine. "
                             "Scientific Memoirs, 3, 666–731.\n\n")


def _missing_builders() -> list[str]:
    return [name for name in ("sphinx", "myst_parser", "sphinx_click")
            if importlib.util.find_spec(name) is None]


@pytest.mark.skipif(bool(_missing_builders()),
                    reason=f"the docs extra is not installed: {', '.join(_missing_builders())}")
def test_the_documentation_builds_without_a_warning(tmp_path: Path) -> None:
    """Warnings are errors: a broken cross-reference, a page outside the table of contents or a
    help text that is no valid markup fails the build."""
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")],
        capture_output=True, text=True, check=False, timeout=600)
    assert (result.returncode, result.stderr) == (0, "")
    convert = (tmp_path / "html" / "reference" / "convert.html").read_text(encoding="utf-8")
    assert 'id="cmdoption-refbridge-convert-to"' in convert
