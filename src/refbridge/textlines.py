"""Line breaks and control characters in record text, for outputs where a line break or a
control character in a value is syntax.

A value may hold any line break ``str.splitlines`` knows (CR, LF, VT, FF, the separators
``\\x1c``-``\\x1e``, NEL, U+2028, U+2029) and control characters. A line-based format ends a
line (and may end a record) at a break; LaTeX ends a paragraph at a blank line, where a
command's argument may not, and rejects most control characters; Markdown starts a block after
a break. ``lines`` cuts a value where any reader may (the tagged writers write each piece as a
line of its own); ``one_line`` writes it on one line (the LaTeX and Markdown outputs of the
bibliography formatter, the CV writers and the .bib writer escape nothing else of it);
``lost_in_one_line`` says what that loses, for the warning a writer owes the user. This
module must never change anything in a value but its line breaks and control characters.
"""

from __future__ import annotations

import re

#: every line break ``str.splitlines`` knows (CR LF is one)
LINE_BREAK = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
#: a run of white space that holds a line break
_BROKEN_SPACE = re.compile(
    "[ \t\n\r\v\f\x1c-\x1f\x85\u2028\u2029]*[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]"
    "[ \t\n\r\v\f\x1c-\x1f\x85\u2028\u2029]*")
#: a line break every reader of one line takes as a space: one CR, LF or CR LF between spaces
_PLAIN_BREAK = re.compile("[ \t]*(?:\r\n|\n|\r)[ \t]*")
#: control characters that are no white space (C0 but TAB and the breaks, DEL, C1 but NEL)
CONTROL = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")


def lines(text: str) -> list[str]:
    """``text`` cut at each line break (``"a\\rb\\u2028c"``: ``["a", "b", "c"]``)."""
    return LINE_BREAK.split(text)


def one_line(text: str) -> str:
    """``text`` on one line: each run of white space holding a line break (a blank line too)
    becomes one space, control characters are dropped; everything else stays as it is."""
    return CONTROL.sub("", _BROKEN_SPACE.sub(" ", text))


def lost_in_one_line(text: str) -> str | None:
    """What ``one_line`` changes in ``text`` beyond white space, said for a warning
    (``"paragraph breaks or line separators written as spaces; control characters
    dropped"``), else None: one CR, LF or CR LF is no change (LaTeX and BibTeX read it as a
    space), a blank line or another break is."""
    lost = [what for what, found in (
        ("paragraph breaks or line separators written as spaces",
         any(not _PLAIN_BREAK.fullmatch(run) for run in _BROKEN_SPACE.findall(text))),
        ("control characters dropped", CONTROL.search(text) is not None)) if found]
    return "; ".join(lost) or None
