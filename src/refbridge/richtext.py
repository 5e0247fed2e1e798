"""Rich text: field values that keep their inline structure, as pandoc's AST keeps inlines.

A text value of the model is either a ``str`` (plain text, the common case, at no cost) or a
:class:`RichText`: a tuple of inlines, each of which is plain text or one of

- :class:`Styled`: italic, bold, small caps, superscript, subscript, monospace, or *nocase*
  (case-protected: no style may change the case of what it holds, as BibTeX's braces and CSL's
  ``<span class="nocase">`` say);
- :class:`Math`: a formula, kept as its TeX source (``O(n^2)``), shown as Unicode where exact;
- :class:`Url`: an address, kept verbatim (never decoded, never case-changed);
- :class:`Link`: text that links to an address (``\\href``);
- :class:`Raw`: LaTeX the model has no meaning for (``\\cite{x}``, ``\\noopsort{1999}``), kept
  exactly as written, never deleted.

A ``RichText`` may also remember how a LaTeX source spelled it (``latex``): writers of LaTeX
formats write an unchanged value as its source wrote it, so a hand-curated ``.bib`` survives a
conversion as it was written. That spelling is a hint, not data: two values with the same
inlines are equal whatever their spellings (and a spelled value without structure equals its
text as a ``str``).

Values are normalised when built (adjacent text merged, empty parts dropped, a value without
structure or spelling is a ``str``), so each value has one form, and validated (styles known,
no NUL, nothing empty). Plain-text consumers (keys, sorting, matching, duplicates, formats
without markup) take :func:`plain`. This module knows no file format: no LaTeX, HTML or CSL
markup is parsed or written here.
"""

from __future__ import annotations

import copyreg
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from refbridge.inlines import (
    STYLES,
    Inline,
    Link,
    Math,
    Raw,
    RichTextError,
    Style,
    Styled,
    Url,
    inlines_text,
    normalized,
    rebuilt,
    styled,
    unprotected,
)

#: What this module offers: its own names and the inlines it builds values of.
__all__ = [
    "STYLES",
    "Inline",
    "Link",
    "Math",
    "Raw",
    "RichText",
    "RichTextError",
    "Style",
    "Styled",
    "Text",
    "Url",
    "check_text",
    "concat",
    "from_data",
    "inlines",
    "is_plain",
    "latex_source",
    "map_last",
    "map_text",
    "normalized",
    "plain",
    "rich",
    "strip",
    "styled",
    "to_data",
    "unprotected",
    "walk",
    "with_latex",
    "without_latex",
]


@dataclass(frozen=True, slots=True, eq=False)
class RichText:
    """A text value with inline structure (build it with :func:`rich`, which normalises)."""

    inlines: tuple[Inline, ...]
    #: How a LaTeX source spelled this value, when it was read from one (a hint for writers
    #: of LaTeX formats; not part of the value).
    latex: str | None = None
    _plain: str | None = field(default=None, init=False, repr=False)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RichText):
            return self.inlines == other.inlines
        if isinstance(other, str):  # a value with a spelling alone equals its text
            return self.inlines == ((other,) if other else ())
        return NotImplemented

    def __hash__(self) -> int:
        items = self.inlines
        return hash(items[0]) if len(items) == 1 and isinstance(items[0], str) else hash(items)

    @property
    def plain(self) -> str:
        text = self._plain
        if text is None:
            text = inlines_text(self.inlines, _formula_text)
            object.__setattr__(self, "_plain", text)
        return text

    def __str__(self) -> str:
        return self.plain


#: A text value of the model.
Text = str | RichText

def _formula_text(tex: str) -> str:
    """A formula's plain text (TeX notation, not a file format), its reader imported at the
    first formula."""
    from refbridge.latex.math import math_plain

    return math_plain(tex)


def plain(text: Text) -> str:
    """The text of a value without its structure: what keys, sorting, matching and formats
    without markup use."""
    return text if isinstance(text, str) else text.plain


def inlines(text: Text) -> tuple[Inline, ...]:
    """The inlines of a value (a plain text is one inline, or none when empty)."""
    if isinstance(text, str):
        return (text,) if text else ()
    return text.inlines


def latex_source(text: Text) -> str | None:
    """How a LaTeX source spelled the value, if it was read from one."""
    return None if isinstance(text, str) else text.latex


def is_plain(text: Text) -> bool:
    """Whether the value has no structure (a spelling alone does not count)."""
    return isinstance(text, str) or all(isinstance(i, str) for i in text.inlines)


def rich(parts: Iterable[Inline], latex: str | None = None) -> Text:
    """The value made of ``parts``: a ``str`` when it has no structure and no spelling."""
    items = normalized(parts)
    if not items:
        return ""
    if latex is None and len(items) == 1 and isinstance(items[0], str):
        return items[0]
    return RichText(items, latex)


def with_latex(text: Text, latex: str | None) -> Text:
    """``text`` with ``latex`` as its LaTeX spelling (None: without one)."""
    if latex_source(text) == latex:
        return text
    return rich(inlines(text), latex)


def without_latex(text: Text) -> Text:
    """``text`` without its LaTeX spelling."""
    return with_latex(text, None)


def concat(*texts: Text) -> Text:
    """The values one after the other (a spelling is kept when every part has one or is
    plain text that needs none)."""
    spelled: list[str] = []
    for text in texts:
        source = latex_source(text)
        if source is None:
            spelled = []
            break
        spelled.append(source)
    return rich((i for text in texts for i in inlines(text)),
                "".join(spelled) if spelled else None)


def strip(text: Text) -> Text:
    """``text`` without white space at its ends (its spelling dropped when that changes it)."""
    if isinstance(text, str):
        return text.strip()
    items = list(text.inlines)
    changed = False
    while items and isinstance(items[0], str) and items[0] != items[0].lstrip():
        items[0] = items[0].lstrip()
        changed = True
        if not items[0]:
            items.pop(0)
    while items and isinstance(items[-1], str) and items[-1] != items[-1].rstrip():
        items[-1] = items[-1].rstrip()
        changed = True
        if not items[-1]:
            items.pop()
    if not changed:
        return text
    return rich(items, text.latex.strip() if text.latex is not None else None)


def map_text(text: Text, change: Callable[[str], str]) -> Text:
    """``text`` with ``change`` applied to each of its plain-text parts outside formulas,
    addresses and raw LaTeX (the spelling is dropped: it no longer spells the value)."""
    if isinstance(text, str):
        return change(text)
    return rich(_mapped(text.inlines, change))


def map_last(text: Text, change: Callable[[str], str]) -> Text:
    """``text`` with ``change`` applied to its last plain-text part, inside the styles that
    end it (``<i>Title.</i>`` -> ``<i>Title</i>``); unchanged when it ends in a formula,
    address or raw LaTeX (the spelling is dropped when it changes)."""
    if isinstance(text, str):
        return change(text)
    changed = _last_mapped(text.inlines, change)
    return text if changed is None else rich(changed)


def _last_mapped(items: tuple[Inline, ...], change: Callable[[str], str]
                 ) -> tuple[Inline, ...] | None:
    if not items:
        return None
    last = items[-1]
    if isinstance(last, str):
        return (*items[:-1], change(last))
    if isinstance(last, (Styled, Link)):
        content = _last_mapped(last.content, change)
        if content is None:
            return None
        kept = normalized(content)
        rebuilt = (Styled(last.style, kept) if isinstance(last, Styled)
                   else Link(last.address, kept)) if kept else None
        return (*items[:-1], rebuilt) if rebuilt is not None else items[:-1]
    return None


def _mapped(items: Iterable[Inline], change: Callable[[str], str]) -> Iterator[Inline]:
    for item in items:
        if isinstance(item, str):
            yield change(item)
        elif isinstance(item, Styled):
            content = normalized(_mapped(item.content, change))
            if content:
                yield Styled(item.style, content)
        elif isinstance(item, Link):
            content = normalized(_mapped(item.content, change))
            if content:
                yield Link(item.address, content)
        else:
            yield item


def walk(text: Text) -> Iterator[Inline]:
    """Every inline of ``text``, containers before what they hold."""
    stack = list(reversed(inlines(text)))
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, (Styled, Link)):
            stack.extend(reversed(item.content))


# -- as data -------------------------------------------------------------------------------
def to_data(value: Text) -> list[Any]:
    """A value as JSON-ready data: a list of inlines, each a string or an object
    (``{"style": "italic", "content": [...]}``, ``{"math": "O(n)"}``, ``{"url": ...}``,
    ``{"link": ..., "content": [...]}``, ``{"latex": "\\cite{x}"}``)."""
    return [_inline_data(item) for item in inlines(value)]


def _inline_data(item: Inline) -> Any:
    if isinstance(item, str):
        return item
    if isinstance(item, Styled):
        return {"style": item.style, "content": [_inline_data(i) for i in item.content]}
    if isinstance(item, Link):
        return {"link": item.address, "content": [_inline_data(i) for i in item.content]}
    if isinstance(item, Math):
        return {"math": item.tex, "display": True} if item.display else {"math": item.tex}
    if isinstance(item, Url):
        return {"url": item.address}
    return {"latex": item.tex} if item.text is None else {"latex": item.tex, "text": item.text}


def from_data(data: Any) -> Text:
    """The value ``to_data`` gave; raises ``RichTextError`` for data that is not one."""
    if not isinstance(data, list):
        raise RichTextError("rich text data must be a list of inlines")
    return rich(_data_inline(item) for item in data)


def _data_inline(data: Any) -> Inline:
    if isinstance(data, str):
        return data
    if not isinstance(data, dict):
        raise RichTextError(f"an inline must be text or an object, not {data!r:.40}")
    content = data.get("content")
    if "style" in data and isinstance(content, list):
        return Styled(str(data["style"]), tuple(_data_inline(i) for i in content))
    if "link" in data and isinstance(content, list):
        return Link(str(data["link"]), tuple(_data_inline(i) for i in content))
    if "math" in data:
        return Math(str(data["math"]), bool(data.get("display")))
    if "url" in data:
        return Url(str(data["url"]))
    if "latex" in data:
        text = data.get("text")
        return Raw(str(data["latex"]), None if text is None else str(text))
    raise RichTextError(f"unknown inline {data!r:.40}")


def check_text(value: object) -> str | None:
    """What is wrong with ``value`` as a text value of the model, or None."""
    if isinstance(value, str):
        if not value.strip():
            return "is empty"
        return "contains a NUL character" if "\x00" in value else None
    if not isinstance(value, RichText):
        return f"must be text, not {type(value).__name__}"
    text = value.plain  # every inline's text (and a TypeError for what is no inline)
    if not text.strip():
        return "is empty"
    if "\x00" in text:
        return "contains a NUL character"
    if value.latex is not None and "\x00" in value.latex:
        return "has a LaTeX spelling with a NUL character"
    return None


copyreg.pickle(RichText, rebuilt)
