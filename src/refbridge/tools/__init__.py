"""Development tools run from a checkout of the repository (``python -m refbridge.tools.NAME``);
nothing of refbridge imports them."""
