"""``python -m refbridge``: the same as the ``refbridge`` command."""

from refbridge.cli import main

main()
