"""The ``lsp`` command: the language server for editors (``refbridge.lsp``), over standard input
and output. This module must never do the server's work."""

from __future__ import annotations

import click

from refbridge.cli.reporting import handle_errors


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the "
              "default and only channel; editors pass it).")
@handle_errors
def lsp_command(stdio: bool) -> None:
    """Serve citations of LaTeX, Markdown, Typst and reST documents to an editor (Language
    Server Protocol): completion, hover, definition, references, rename, diagnostics."""
    from refbridge.lsp.command import serve

    serve()
