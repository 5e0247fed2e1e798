"""The ``serve`` command: Better BibTeX's endpoints and the local app (``refbridge.serve``) on
127.0.0.1. This module parses options and starts the server; it must never answer a request."""

from __future__ import annotations

from pathlib import Path

import click

from refbridge.cli.reporting import handle_errors


@click.command("serve")
@click.option("--library", "libraries", multiple=True, metavar="LIB",
              help="A library to serve: any file refbridge reads, or a library address "
                   "(zotero-sqlite:PATH...); repeatable.")
@click.option("--port", default=23119, show_default=True, type=click.IntRange(0, 65535),
              help="Port on 127.0.0.1 (Better BibTeX's, where editors look; 0: any free one).")
@click.option("--no-browser", is_flag=True,
              help="Do not open the app in a web browser at start (picks still open one).")
@click.option("--pick-timeout", default=600.0, show_default=True, metavar="SECONDS",
              type=click.FloatRange(min=1), help="How long a cite-as-you-write request waits "
                                                 "for the pick.")
@click.option("--offline", is_flag=True,
              help="The app's look-ups answer from the cache only, never the network.")
@click.option("--mailto", metavar="ADDRESS",
              help="Your address for Crossref's and OpenAlex's polite pools (look-ups).")
@click.option("--state", "state_file", metavar="FILE",
              type=click.Path(dir_okay=False, path_type=Path),
              help="The file that keeps collections and auto-exports between runs (default: "
                   "one for these libraries in the user's state folder, "
                   "$XDG_STATE_HOME/refbridge/serve/).")
@handle_errors
def serve_command(libraries: tuple[str, ...], port: int, no_browser: bool,
                  pick_timeout: float, offline: bool, mailto: str | None,
                  state_file: Path | None) -> None:
    """Answer Better BibTeX's cite-as-you-write and JSON-RPC requests from your libraries
    (no Zotero needed), and serve a local app to load, check, preview and export records."""
    import webbrowser

    from refbridge.enrich import EnrichOptions
    from refbridge.errors import Diagnostics
    from refbridge.serve.library import Library
    from refbridge.serve.server import Served, make_server
    from refbridge.serve.state import default_state_file

    library = Library()
    diagnostics = Diagnostics()
    library.read_paths(libraries, diagnostics)
    for message in diagnostics.messages:
        click.echo(str(message), err=True)
    services = EnrichOptions(offline=offline, mailto=mailto)
    served = Served(library, webbrowser.open, services, pick_timeout=pick_timeout,
                    report=lambda line: click.echo(line, err=True),
                    state_file=state_file or default_state_file(libraries))
    server = make_server(served, port)
    served.restore()
    address = served.address()
    click.echo(f"refbridge: serving {len(library.entries)} records; Better BibTeX's endpoints "
               f"at http://127.0.0.1:{served.port}/better-bibtex/; the app at {address}",
               err=True)
    if not no_browser:
        webbrowser.open(address)
    with server:
        server.serve_forever()
