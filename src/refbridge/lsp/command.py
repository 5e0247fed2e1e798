"""The work of ``refbridge lsp``: the server started over standard input and output, or a
one-line error when pygls (the ``lsp`` extra) is not installed. This module must never print
to standard output: it is the protocol's channel.
"""

from __future__ import annotations

from refbridge.errors import RefbridgeError


class ServerMissing(RefbridgeError):
    """pygls, which the server runs on, is not installed."""


def serve() -> None:
    """Run the language server until the client ends it."""
    try:
        from refbridge.lsp.server import run
    except ImportError as exc:
        raise ServerMissing(f"refbridge lsp needs pygls ({exc.name} is not installed): "
                            "pip install 'refbridge[lsp]'") from None
    run()
