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

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

ITALIC = "italic"
BOLD = "bold"
SMALL_CAPS = "small-caps"
SUPERSCRIPT = "superscript"
SUBSCRIPT = "subscript"
MONOSPACE = "monospace"
NOCASE = "nocase"
#: Every style a :class:`Styled` inline may have.
STYLES: frozenset[str] = frozenset(
    {ITALIC, BOLD, SMALL_CAPS, SUPERSCRIPT, SUBSCRIPT, MONOSPACE, NOCASE})


class RichTextError(ValueError):
    """A rich-text value that the model does not accept."""


@dataclass(frozen=True, slots=True)
class Styled:
    """Inlines under one style."""

    style: str
    content: tuple[Inline, ...]

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise RichTextError(f"unknown text style {self.style!r}")
        if not self.content:
            raise RichTextError(f"{self.style} text is empty")


@dataclass(frozen=True, slots=True)
class Math:
    """A formula as TeX source, without its delimiters; ``display`` for display math."""

    tex: str
    display: bool = False

    def __post_init__(self) -> None:
        _check(self.tex, "formula")


@dataclass(frozen=True, slots=True)
class Url:
    """An address, shown verbatim."""

    address: str

    def __post_init__(self) -> None:
        _check(self.address, "address")


@dataclass(frozen=True, slots=True)
class Link:
    """Text that links to an address."""

    address: str
    content: tuple[Inline, ...]

    def __post_init__(self) -> None:
        _check(self.address, "link address")
        if not self.content:
            raise RichTextError("link text is empty")


@dataclass(frozen=True, slots=True)
class Raw:
    """LaTeX the model has no meaning for, exactly as written (shown as written elsewhere)."""

    tex: str

    def __post_init__(self) -> None:
        _check(self.tex, "LaTeX")


Inline = str | Styled | Math | Url | Link | Raw


def _check(text: object, what: str) -> None:
    if not isinstance(text, str):
        raise RichTextError(f"{what} must be text, not {type(text).__name__}")
    if not text.strip():
        raise RichTextError(f"{what} is empty")
    if "\x00" in text:
        raise RichTextError(f"{what} contains a NUL character")


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
            text = "".join(map(_plain_inline, self.inlines))
            object.__setattr__(self, "_plain", text)
        return text

    def __str__(self) -> str:
        return self.plain


#: A text value of the model.
Text = str | RichText

def _plain_inline(inline: Inline) -> str:
    if isinstance(inline, str):
        return inline
    if isinstance(inline, (Styled, Link)):
        return "".join(map(_plain_inline, inline.content))
    if isinstance(inline, Math):
        from refbridge.latex.math import math_plain  # TeX notation, not a file format

        return math_plain(inline.tex)
    if isinstance(inline, Url):
        return inline.address
    return inline.tex


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


# -- building ------------------------------------------------------------------------------
def normalized(parts: Iterable[Inline]) -> tuple[Inline, ...]:
    """``parts`` in their one form: adjacent texts merged, empty texts dropped, adjacent
    inlines of the same style merged, nocase inside nocase removed."""
    out: list[Inline] = []
    for part in parts:
        if isinstance(part, str):
            if not part:
                continue
            if out and isinstance(out[-1], str):
                out[-1] += part
                continue
        elif isinstance(part, Styled) and out and isinstance(out[-1], Styled) and \
                out[-1].style == part.style:
            out[-1] = Styled(part.style, normalized((*out[-1].content, *part.content)))
            continue
        out.append(part)
    return tuple(out)


def styled(style: str, content: Iterable[Inline]) -> tuple[Inline, ...]:
    """``content`` under ``style``, as inlines (none when the content is empty; nocase
    content is not protected twice)."""
    items = normalized(content)
    if not items:
        return ()
    if style == NOCASE:
        items = normalized(_without_nocase(items))
    return (Styled(style, items),)


def _without_nocase(items: Iterable[Inline]) -> Iterator[Inline]:
    for item in items:
        if isinstance(item, Styled) and item.style == NOCASE:
            yield from _without_nocase(item.content)
        elif isinstance(item, Styled):
            yield Styled(item.style, normalized(_without_nocase(item.content)))
        else:
            yield item


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


def check_text(value: object) -> str | None:
    """What is wrong with ``value`` as a text value of the model, or None."""
    if isinstance(value, str):
        if not value.strip():
            return "is empty"
        return "contains a NUL character" if "\x00" in value else None
    if not isinstance(value, RichText):
        return f"must be text, not {type(value).__name__}"
    if not value.plain.strip():
        return "is empty"
    for item in walk(value):
        if isinstance(item, str) and "\x00" in item:
            return "contains a NUL character"
        if not isinstance(item, (str, Styled, Math, Url, Link, Raw)):
            return f"holds {type(item).__name__}, which is not an inline"
    if value.latex is not None and "\x00" in value.latex:
        return "has a LaTeX spelling with a NUL character"
    return None
