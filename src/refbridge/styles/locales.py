"""Which locales a style can be asked for: those the bundled CSL locale files speak.

A locale is known when a locale file exists for its language (``de``, ``de-DE``, ``de-LU``:
the CSL processor falls back to the language's primary dialect); any other tag (``xx-YY``,
``english``) is a usage error, said before any input is read, with the closest tags. This
module must never load or parse a locale file.
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from importlib import resources

from refbridge.errors import ExitStatus, RefbridgeError

_LOCALE_FILE = re.compile(r"^locales-(?P<tag>.+)\.xml$")
_TAG = re.compile(r"^(?P<language>[A-Za-z]{2,3})(?:-[A-Za-z0-9]{1,8})*$")


class UnknownLocale(RefbridgeError):
    """A ``--locale`` no bundled locale file speaks."""

    exit_status = ExitStatus.USAGE


@cache
def known_locales() -> tuple[str, ...]:
    """The tags of the bundled locale files (``de-DE``, ``eu``, ``sr-Latn-RS`` ...)."""
    folder = resources.files("refbridge.csl") / "locales"
    return tuple(sorted(match["tag"] for entry in folder.iterdir()
                        if (match := _LOCALE_FILE.match(entry.name))))


def check_locale(tag: str | None) -> None:
    """Nothing when ``tag`` is None or a locale the files speak; else ``UnknownLocale``."""
    if tag is None:
        return
    match = _TAG.match(tag)
    languages = {known.split("-")[0].lower() for known in known_locales()}
    if match is not None and match["language"].lower() in languages:
        return
    close = difflib.get_close_matches(tag, known_locales(), n=3, cutoff=0.7)
    hint = f"did you mean {', '.join(close)}?" if close else \
        f"known: {', '.join(known_locales())}"
    raise UnknownLocale(f"unknown locale {tag!r} ({hint})")
