"""The inlines of rich text (``refbridge.richtext``): styled text, formulas, addresses, links
and raw LaTeX, and their one normalised form.

``richtext`` builds text values of these inlines and reads their plain text (a formula's
through ``latex.math``, which builds its Unicode rendering of these inlines too); both import
this module, which therefore imports neither. This module must never parse or write a format.
"""

from __future__ import annotations

import copyreg
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields
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


def inlines_text(items: Iterable[Inline], formula: Callable[[str], str]) -> str:
    """The plain text of ``items``: a formula's is ``formula(tex)`` (``latex.math.math_plain``,
    which reads formulas into these inlines and so cannot be imported here), an address is
    itself, raw LaTeX how it reads outside LaTeX."""
    return "".join(_inline_text(item, formula) for item in items)


def _inline_text(inline: Inline, formula: Callable[[str], str]) -> str:
    if isinstance(inline, str):
        return inline
    if isinstance(inline, (Styled, Link)):
        return inlines_text(inline.content, formula)
    if isinstance(inline, Math):
        return formula(inline.tex)
    if isinstance(inline, Url):
        return inline.address
    return inline.shown


def rebuilt(value: object) -> tuple[type, tuple[Any, ...]]:
    """How a value of this module is pickled and copied: rebuilt from the fields it is made
    with (the compiled build's frozen classes cannot be filled in field by field)."""
    return type(value), tuple(getattr(value, part.name) for part in fields(value) if part.init)  # type: ignore[arg-type]


for _kind in (Styled, Math, Url, Link, Raw):
    copyreg.pickle(_kind, rebuilt)
