"""YAML front matter of site pages: written safely, read back to keep what the user added.

Values are written by PyYAML's safe dumper, which quotes every string a YAML reader could take
for something else (``yes``, ``2024``, ``a: b``, ``---``, ``{{ .Title }}``); strings with line
breaks are written double-quoted on one line, so no line of the front matter can be taken for
its closing ``---``. Template syntax in a value stays data: neither Hugo nor Jekyll runs
templates in front matter. A page is read back as its front matter and its body, the body
byte for byte. This module must never decide what a page holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from refbridge.errors import RefbridgeError

DELIMITER = "---"
_WIDTH = 1 << 30  #: never fold a long value onto a second line


class FrontMatterError(RefbridgeError):
    """A page whose front matter cannot be read (refbridge leaves such a page alone)."""


class _Dumper(yaml.SafeDumper):
    pass


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value,
                                   style='"' if "\n" in value or "\r" in value else None)


_Dumper.add_representer(str, _string)


def render(data: Mapping[str, Any]) -> str:
    """``data`` as a front-matter block, delimiters and final line break included."""
    text = yaml.dump(dict(data), Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                     width=_WIDTH, default_flow_style=False)
    return f"{DELIMITER}\n{text}{DELIMITER}\n"


def split(text: str, path: str) -> tuple[dict[str, Any], str]:
    """The front matter of page ``text`` (read from ``path``) as a mapping, and its body."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != DELIMITER:
        raise FrontMatterError(f"{path}:1: the page does not start with a '{DELIMITER}' front "
                               "matter line; refbridge leaves it alone")
    for number, line in enumerate(lines[1:], start=2):
        if line.rstrip("\r\n") == DELIMITER:
            break
    else:
        raise FrontMatterError(f"{path}:1: the front matter has no closing '{DELIMITER}' line; "
                               "refbridge leaves the page alone")
    block = "".join(lines[1:number - 1])
    try:
        data = yaml.safe_load(block)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        raise FrontMatterError(f"{path}:{where}: the front matter is not valid YAML "
                               f"({problem}); refbridge leaves the page alone") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontMatterError(f"{path}:2: the front matter is not a mapping of keys to "
                               "values; refbridge leaves the page alone")
    return data, "".join(lines[number:])
