"""Sphinx configuration of refbridge's documentation (the Markdown pages of ``docs/``).

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (the ``docs`` extra has what
it needs; ``tests/test_docs.py`` runs the same build). The command reference
(``docs/reference/``) is generated from the click command line itself by sphinx-click, one page
per command. This file must never reach the network: external links are checked only on
demand, with ``sphinx-build -b linkcheck docs docs/_build/linkcheck``.
"""

from __future__ import annotations

import re
from typing import Any

import click
from sphinx.application import Sphinx
from sphinx_click.ext import ClickDirective  # type: ignore[import-untyped]

from refbridge.version import __version__

project = "refbridge"
author = "refbridge developers"
copyright = "refbridge developers"  # Sphinx's name for the notice
release = __version__
version = release

extensions = ["myst_parser", "sphinx_click"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
#: anchors for headings down to ### so that pages link to each other's sections (page.md#slug)
myst_heading_anchors = 3
#: code blocks without a language are shown as they are, not guessed at
highlight_language = "none"
html_theme = "alabaster"
html_static_path: list[str] = []


class CommandDirective(ClickDirective):  # type: ignore[misc]
    """``refbridge-command NAME``: sphinx-click's page of one of the ``refbridge`` group's
    commands, found in the group by its name (so the page does not depend on the module that
    defines the command)."""

    def _load_module(self, module_path: str) -> Any:
        group = super()._load_module("refbridge.cli:main")
        command = (group.get_command(click.Context(group), module_path)
                   if isinstance(group, click.Group) else None)
        if command is None:
            raise self.error(f"refbridge has no command {module_path!r}")
        return command


#: a lone ``*`` (``*.bib``, "marked *"), not sphinx-click's own ``**Required**``
LONE_STAR = re.compile(r"(?<!\*)\*(?!\*)")
#: `refbridge formats` in a help text: code, as the terminal's backquotes mean
BACKQUOTED = re.compile(r"(?<!`)`([^`]+)`(?!`)")


def plain_help(app: Sphinx, ctx: click.Context, lines: list[str]) -> None:
    """Help texts are written for a terminal, not as reStructuredText: their ``*`` and ``|`` are
    shown as written and backquoted words as code, so no help text becomes markup."""
    for index, line in enumerate(lines):
        line = LONE_STAR.sub(r"\*", line).replace("|", r"\|")
        lines[index] = BACKQUOTED.sub(r"``\1``", line)


def setup(app: Sphinx) -> dict[str, Any]:
    from pygments.lexers.special import TextLexer

    # the layer picture of architecture.md: a Mermaid diagram where GitHub shows the page, its
    # source as it is here
    app.add_lexer("mermaid", TextLexer)
    app.add_directive("refbridge-command", CommandDirective)
    for part in ("description", "options", "arguments", "epilog"):
        app.connect(f"sphinx-click-process-{part}", plain_help)
    return {"parallel_read_safe": True}
