"""``refbridge fmt``: a .bib formatter that keeps everything the file holds.

It works on the file's syntax, never through the citation model: each block is cut from the
text as written (``document``), its fields are laid out again (``layout``) with their values
rewritten only in ways that bibtex and biber read as the same value (``values``,
``characters``), entries and fields are put in order (``sorting``), keys may be made to follow
a pattern (``keys``), and the run writes, checks or shows a diff (``files``, ``changes``).
Comments, ``@string``, ``@preamble``, ``@comment`` and unknown fields are kept. This package
must never drop a field or an entry without saying so, and never write a file it could not
read whole.
"""

from __future__ import annotations

from refbridge.tidy.formatter import TidiedText, tidy_text
from refbridge.tidy.options import TidyOptions

__all__ = ["TidiedText", "TidyOptions", "tidy_text"]
