"""The rich-text markup of CSL-JSON and Zotero, to and from the model's rich text.

CSL processors (citeproc-js, inside Zotero) and Zotero itself read a handful of HTML-like tags
in field values as formatting: ``<i>``, ``<b>``, ``<sup>``, ``<sub>``,
``<span style="font-variant:small-caps;">`` and ``<span class="nocase">`` (no case change);
``<span class="nodecor">`` undoes decoration; italic, bold or small caps inside itself is
turned off (``<i>a <i>b</i></i>``: "b" upright), as citeproc-js reads it. Anything else is text. There is no escape: a
title that holds the literal text ``<i>`` would become italic. So the writer breaks such
literal tags with a zero-width space after the ``<`` (shown the same, read as text by every
processor), and the reader takes that space out again.

What the markup cannot say is written as text: a formula as its Unicode rendering with
``<sup>``/``<sub>`` (``n<sup>2</sup>``), case-protected; an address, a link's text and raw
LaTeX as their text, case-protected; monospace as plain text. ``is_lossless`` tells whether a
value survives as markup; writers keep the rest elsewhere (CSL-JSON: ``custom.latex``).
This module must never let record text become markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from refbridge.latex.math import math_inlines
from refbridge.richtext import (
    Inline,
    Link,
    Math,
    Raw,
    Style,
    Styled,
    Text,
    Url,
    normalized,
    rich,
    styled,
    walk,
)

#: Style -> (opening tag, closing tag).
TAGS: dict[str, tuple[str, str]] = {
    Style.ITALIC: ("<i>", "</i>"),
    Style.BOLD: ("<b>", "</b>"),
    Style.SUPERSCRIPT: ("<sup>", "</sup>"),
    Style.SUBSCRIPT: ("<sub>", "</sub>"),
    Style.SMALL_CAPS: ('<span style="font-variant:small-caps;">', "</span>"),
    Style.NOCASE: ('<span class="nocase">', "</span>"),
}
#: The zero-width space that keeps a literal tag from being read as markup.
TAG_BREAK = "\u200b"

#: A tag processors read as markup (what the writer must break in literal text).
_MARKUP_TAG = re.compile(r"<(?=/?(?:i|b|sup|sub|span)\b[^<>]*>)", re.IGNORECASE)
#: A tag the reader understands, or a broken literal tag.
_READ_TAG = re.compile(
    r"<(?P<close>/)?(?P<name>i|b|sup|sub|span)(?P<attributes>(?:\s[^<>]*)?)>"
    r"|<" + TAG_BREAK, re.IGNORECASE)
_SMALL_CAPS = re.compile(r"font-variant:\s*small-caps", re.IGNORECASE)
_CLASS = re.compile(r"""class\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
#: Styles by tag name (``span`` depends on its attributes).
_STYLE_OF_TAG: dict[str, str] = {"i": Style.ITALIC, "b": Style.BOLD, "sup": Style.SUPERSCRIPT,
                                  "sub": Style.SUBSCRIPT}
#: Styles the markup has no tag for.
_UNTAGGED: frozenset[str] = frozenset({Style.MONOSPACE})


# -- writing -------------------------------------------------------------------------------
def _literal(text: str) -> str:
    return _MARKUP_TAG.sub("<" + TAG_BREAK, text) if "<" in text else text


def _protected(content: Iterator[str]) -> str:
    opening, closing = TAGS[Style.NOCASE]
    return opening + "".join(content) + closing


def _markup(items: tuple[Inline, ...], protected: bool) -> Iterator[str]:
    for item in items:
        if isinstance(item, str):
            yield _literal(item)
        elif isinstance(item, Styled):
            inner = protected or item.style == Style.NOCASE
            if item.style in _UNTAGGED or (item.style == Style.NOCASE and protected):
                yield from _markup(item.content, inner)
                continue
            opening, closing = TAGS[item.style]
            yield opening
            yield from _markup(item.content, inner)
            yield closing
        elif isinstance(item, Link):
            yield from _markup(item.content, protected)
        else:
            shown: tuple[Inline, ...] = math_inlines(item.tex) if isinstance(item, Math) else (
                (item.address,) if isinstance(item, Url) else (item.shown,))
            yield from (_markup(shown, True) if protected
                        else (_protected(_markup(shown, True)),))


def to_markup(value: Text) -> str:
    """``value`` in CSL/Zotero markup."""
    if isinstance(value, str):
        return _literal(value)
    return "".join(_markup(value.inlines, False))


def is_lossless(value: Text) -> bool:
    """Whether ``to_markup`` says all of ``value``: it holds no formula, address, link, raw
    LaTeX or monospace text."""
    if isinstance(value, str):
        return True
    return not any(isinstance(item, (Math, Url, Link, Raw)) or
                   isinstance(item, Styled) and item.style in _UNTAGGED
                   for item in walk(value))


# -- reading -------------------------------------------------------------------------------
def _span_style(attributes: str) -> str | None:
    """The style of a ``<span>``: small caps, nocase, or None (``nodecor``, other spans)."""
    if _SMALL_CAPS.search(attributes):
        return Style.SMALL_CAPS
    classes = _CLASS.search(attributes)
    if classes and "nocase" in classes.group(1).split():
        return Style.NOCASE
    return None


#: Styles that markup inside the same style turns off, as citeproc-js reads them
#: (``<i>a <i>b</i></i>``: "b" upright); other styles said twice are said once.
_FLIPPING: frozenset[str] = frozenset({Style.ITALIC, Style.BOLD, Style.SMALL_CAPS})
#: A parsed tag with its content, before it becomes inlines: (style, content).
_Frame = tuple[str, list["_Frame | str"]]


def _inlines(content: list[_Frame | str]) -> list[Inline]:
    """Parsed ``content`` as inlines, each tag its style around what it holds."""
    out: list[Inline] = []
    for item in content:
        out.extend((item,) if isinstance(item, str) else styled(item[0], _inlines(item[1])))
    return out


def _flips(content: list[_Frame | str], open_styles: frozenset[str]) -> bool:
    """Whether a tag in ``content`` turns off a style open around it."""
    return any(not isinstance(item, str) and (
        item[0] in open_styles and item[0] in _FLIPPING or _flips(item[1], open_styles | {item[0]}))
        for item in content)


def _runs(content: list[_Frame | str], shown: tuple[str, ...]
          ) -> Iterator[tuple[str, tuple[str, ...]]]:
    """The texts of parsed ``content`` with the styles they are shown in (outermost first):
    a flipping style inside itself is turned off."""
    for item in content:
        if isinstance(item, str):
            yield item, shown
        elif item[0] in shown:
            inner = tuple(s for s in shown if s != item[0]) if item[0] in _FLIPPING else shown
            yield from _runs(item[1], inner)
        else:
            yield from _runs(item[1], (*shown, item[0]))


def _regrouped(runs: list[tuple[str, tuple[str, ...]]]) -> list[Inline]:
    """Texts with their styles as nested inlines, neighbours that share the outermost
    style inside one inline of it."""
    out: list[Inline] = []
    start = 0
    while start < len(runs):
        outer = runs[start][1][:1]
        end = start + 1
        while end < len(runs) and runs[end][1][:1] == outer:
            end += 1
        if outer:
            out.extend(styled(outer[0], _regrouped([(text, styles[1:]) for text, styles
                                                    in runs[start:end]])))
        else:
            out.extend(text for text, _ in runs[start:end])
        start = end
    return out


def from_markup(text: str) -> Text:
    """The rich text of a value in CSL/Zotero markup; tags that do not pair stay text."""
    if "<" not in text:
        return text
    # (style or None for a span without one, content so far, the tag as written, its name)
    stack: list[tuple[str | None, list[_Frame | str], str, str]] = [(None, [], "", "")]
    position = 0
    for match in _READ_TAG.finditer(text):
        stack[-1][1].append(text[position:match.start()])
        position = match.end()
        if match.group("name") is None:  # a broken literal tag
            stack[-1][1].append("<")
            continue
        name = match.group("name").lower()
        if match.group("close") is None:
            style = _STYLE_OF_TAG.get(name) if name != "span" else \
                _span_style(match.group("attributes"))
            stack.append((style, [], match.group(), name))
            continue
        if len(stack) > 1 and stack[-1][3] == name:
            style, content, _, _ = stack.pop()
            stack[-1][1].extend([(style, content)] if style else content)
        else:
            stack[-1][1].append(match.group())  # closes nothing: text
    stack[-1][1].append(text[position:])
    while len(stack) > 1:  # never closed: the tag is text
        _, content, tag, _ = stack.pop()
        stack[-1][1].extend((tag, *content))
    content = stack[0][1]
    if _flips(content, frozenset()):
        return rich(normalized(_regrouped(list(_runs(content, ())))))
    return rich(normalized(_inlines(content)))

