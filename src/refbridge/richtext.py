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
from dataclasses import dataclass, field, fields
from typing import Any, Final


class Style:
    """The names of the styles a :class:`Styled` inline may have (plain strings)."""

    ITALIC: Final = "italic"
    BOLD: Final = "bold"
    SMALL_CAPS: Final = "small-caps"
    SUPERSCRIPT: Final = "superscript"
    SUBSCRIPT: Final = "subscript"
    MONOSPACE: Final = "monospace"
    NOCASE: Final = "nocase"


#: Every style a :class:`Styled` inline may have.
STYLES: frozenset[str] = frozenset(
    value for name, value in vars(Style).items() if name.isupper())


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
    """LaTeX kept exactly as written: a command the model has no meaning for (shown as
    written elsewhere), or one whose typesetting only LaTeX knows (a logo: ``\\TeX``, shown
    as ``text`` elsewhere)."""

    tex: str
    text: str | None = None

    def __post_init__(self) -> None:
        _check(self.tex, "LaTeX")
        if self.text is not None:
            _check(self.text, "text of LaTeX")

    @property
    def shown(self) -> str:
        """How it reads outside LaTeX."""
        return self.tex if self.text is None else self.text


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
    return inline.shown


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
    """``parts`` in their one form, so that values that mean the same are equal:

    - empty texts dropped, adjacent texts merged, adjacent inlines of one style merged;
    - a style inside the same style said once (italic inside italic is italic);
    - nocase holds no styles or links: it is said of the text, formulas, addresses and raw
      LaTeX inside them (``<nocase><i>x</i></nocase>`` is ``<i><nocase>x</nocase></i>``).

    Values are built by the thousand: inlines already in their form are taken as they are
    (checked without building anything), and text alone is joined at once.
    """
    items = parts if isinstance(parts, tuple) else tuple(parts)
    for item in items:
        if type(item) is not str:
            if _in_form(items, ()):
                return items
            break
    else:
        text = "".join(items)  # type: ignore[arg-type]
        return (text,) if text else ()
    out: list[Inline] = []
    stack = list(reversed(items))
    while stack:
        part = stack.pop()
        if isinstance(part, Styled) and part.style == Style.NOCASE and \
                any(isinstance(i, (Styled, Link)) for i in part.content):
            stack.extend(reversed(tuple(_pushed_down(part.content))))
            continue
        if isinstance(part, (Styled, Link)):
            canonical = _canonical(part)
            if canonical is None:
                continue
            part = canonical
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


def _in_form(items: tuple[Inline, ...], inside: tuple[str, ...]) -> bool:
    """Whether ``items`` (inside the styles ``inside``) are already in their one form."""
    previous: Inline | None = None
    for item in items:
        if isinstance(item, str):
            if not item or isinstance(previous, str):
                return False
        elif isinstance(item, Styled):
            if item.style in inside or (isinstance(previous, Styled)
                                        and previous.style == item.style):
                return False
            if item.style == Style.NOCASE and any(isinstance(i, (Styled, Link))
                                            for i in item.content):
                return False
            if not _in_form(item.content, (*inside, item.style)):
                return False
        elif isinstance(item, Link) and not _in_form(item.content, inside):
            return False
        previous = item
    return bool(items)


def _is_nocase(item: Inline) -> bool:
    return isinstance(item, Styled) and item.style == Style.NOCASE


def _through_nocase(items: Iterable[Inline], leaf: Callable[[Inline], Inline]
                    ) -> Iterator[Inline]:
    """``items`` with their nocase spans dissolved and each leaf (text, math, address, raw
    LaTeX) replaced by ``leaf(item)``, inside the styles and links around it."""
    for item in items:
        if isinstance(item, Styled) and item.style == Style.NOCASE:
            yield from _through_nocase(item.content, leaf)
        elif isinstance(item, Styled):
            yield Styled(item.style, tuple(_through_nocase(item.content, leaf)))
        elif isinstance(item, Link):
            yield Link(item.address, tuple(_through_nocase(item.content, leaf)))
        else:
            yield leaf(item)


def unprotected(items: Iterable[Inline]) -> Iterator[Inline]:
    """``items`` without their nocase spans."""
    return _through_nocase(items, lambda item: item)


def _pushed_down(content: Iterable[Inline]) -> Iterator[Inline]:
    """Protected ``content`` with the protection said of its leaves, inside its styles."""
    return _through_nocase(content, lambda item: Styled(Style.NOCASE, (item,)))


def _canonical(item: Styled | Link) -> Inline | None:
    """A styled or linked inline in its one form (None when it holds nothing)."""
    if isinstance(item, Link):
        content = normalized(item.content)
        return Link(item.address, content) if content else None
    content = normalized(_without_style(item.style, item.content))
    return Styled(item.style, content) if content else None


def _without_style(style: str, items: Iterable[Inline]) -> Iterator[Inline]:
    """``items`` with ``style`` taken off every inline inside them (it is said outside)."""
    for item in items:
        if isinstance(item, Styled) and item.style == style:
            yield from _without_style(style, item.content)
        elif isinstance(item, Styled):
            yield Styled(item.style, tuple(_without_style(style, item.content)))
        elif isinstance(item, Link):
            yield Link(item.address, tuple(_without_style(style, item.content)))
        else:
            yield item


def styled(style: str, content: Iterable[Inline]) -> tuple[Inline, ...]:
    """``content`` under ``style``, as inlines in their one form (none when it is empty)."""
    items = tuple(content)
    return normalized((Styled(style, items),)) if items else ()


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


def _rebuilt(value: object) -> tuple[type, tuple[Any, ...]]:
    """How a value of this module is pickled and copied: rebuilt from the fields it is made
    with (the compiled build's frozen classes cannot be filled in field by field)."""
    return type(value), tuple(getattr(value, part.name) for part in fields(value) if part.init)  # type: ignore[arg-type]


for _kind in (Styled, Math, Url, Link, Raw, RichText):
    copyreg.pickle(_kind, _rebuilt)
