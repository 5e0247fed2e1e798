"""MathML (``<math>``, as PubMed's abstracts and titles embed it), rendered into the model's
rich text: what a reader of the formula sees, in Unicode text with sub- and superscripts
(``<msubsup><mi>η</mi><mi>p</mi><mn>2</mn></msubsup>`` is η with the subscript p and the
superscript 2; ``<mfrac>`` is ``(a+1)/b``; ``<mroot>`` of index 3 is ``∛``; a table or matrix
is ``[row; row]``). Presentation MathML is rendered element by element, the common content
elements (``apply`` of a relation or an operator, ``cn``, ``ci``, the sets and constants) as
their signs. An element this module does not know gives its content, so no text of a formula
is ever dropped (but a phantom, which is invisible, and annotations, which say the formula
again); this module must never render a formula as nothing, nor read anything but the
element it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from refbridge.formats.xml.safe import local_name
from refbridge.latex.math import ROOTS  # root signs of small indices (3: ∛)
from refbridge.richtext import Inline, Style, plain, rich
from refbridge.richtext import styled as styled_inlines

#: Token elements: their text is the formula's text.
TOKENS: frozenset[str] = frozenset({"mi", "mn", "mo", "mtext", "ms", "ci", "cn", "csymbol"})
#: Empty content elements (constants, sets, operators) -> their sign.
SIGNS: dict[str, str] = {
    "infinity": "∞", "pi": "π", "exponentiale": "e", "imaginaryi": "i", "emptyset": "∅",
    "complexes": "ℂ", "reals": "ℝ", "integers": "ℤ", "naturalnumbers": "ℕ",
    "rationals": "ℚ", "primes": "ℙ", "true": "true", "false": "false",
    "in": "∈", "notin": "∉", "eq": "=", "neq": "≠", "lt": "<", "gt": ">", "leq": "≤",
    "geq": "≥", "approx": "≈", "equivalent": "≡", "plus": "+", "minus": "−", "times": "×",
    "divide": "/", "and": "∧", "or": "∨", "not": "¬", "implies": "⇒", "subset": "⊆",
    "prsubset": "⊂", "union": "∪", "intersect": "∩", "setdiff": "∖", "sum": "∑",
    "product": "∏", "int": "∫", "factorial": "!", "abs": "|", "root": "√",
}
#: Content operators written between their arguments (``apply``: ``a ∈ b``, ``a + b``).
INFIX: frozenset[str] = frozenset({
    "in", "notin", "eq", "neq", "lt", "gt", "leq", "geq", "approx", "equivalent", "plus",
    "minus", "times", "divide", "and", "or", "implies", "subset", "prsubset", "union",
    "intersect", "setdiff"})

Render = Callable[[Any], tuple[Inline, ...]]


def render(element: Any) -> tuple[Inline, ...]:
    """The rich text inlines of a MathML element (``<math>`` or any element inside it)."""
    name = local_name(element)
    if name in TOKENS:
        return _token(element)
    if name in SIGNS and len(element) == 0:
        return (SIGNS[name],)
    return RENDERERS.get(name, _row)(element)


def _parts(element: Any) -> list[Any]:
    """The child elements (comments and processing instructions left out)."""
    return [item for item in element if local_name(item)]


def _row(element: Any) -> tuple[Inline, ...]:
    """The children one after the other (``mrow``, ``math``, and any element not known)."""
    parts = _parts(element)
    if not parts:
        return ((element.text or "").strip(),)
    return tuple(inline for part in parts for inline in render(part))


def _token(element: Any) -> tuple[Inline, ...]:
    """A token's text; a ``cn`` of two parts (``17<sep/>29``) as its type says (``17+29i``)."""
    separated = [part for part in element if local_name(part) == "sep"]
    if not separated:
        return ("".join(element.itertext()).strip(),)
    first, second = (element.text or "").strip(), (separated[0].tail or "").strip()
    kind = element.get("type", "")
    if kind == "complex-cartesian":
        return (f"{first}+{second}i",)
    if kind == "rational":
        return (f"{first}/{second}",)
    return (f"{first} {second}",)


def _script(style: str, element: Any) -> tuple[Inline, ...]:
    return styled_inlines(style, render(element))


def _scripts(element: Any, under: str, over: str) -> tuple[Inline, ...]:
    """A base with its scripts: ``msub``, ``msup``, ``msubsup`` and ``munder``, ``mover``,
    ``munderover`` (limits below and above written as sub- and superscripts)."""
    base, *scripts = _parts(element)
    styles = {"msub": [under], "munder": [under], "msup": [over], "mover": [over]}.get(
        local_name(element), [under, over])
    return render(base) + tuple(
        inline for style, script in zip(styles, scripts, strict=False)
        for inline in _script(style, script))


def _grouped(element: Any) -> tuple[Inline, ...]:
    """An element's rendering, in brackets when it is more than one letter, number or
    token."""
    return render(element) if local_name(element) in TOKENS else _grouped_inlines(
        render(element))


def _fraction(element: Any) -> tuple[Inline, ...]:
    parts = _parts(element)
    if len(parts) != 2:
        return _row(element)
    return (*_grouped(parts[0]), "/", *_grouped(parts[1]))


def _square_root(element: Any) -> tuple[Inline, ...]:
    inner = _row(element)
    return ("√", *_grouped_inlines(inner))


def _root(element: Any) -> tuple[Inline, ...]:
    parts = _parts(element)
    if len(parts) != 2:
        return _row(element)
    index = plain(rich(render(parts[1])))
    sign = ROOTS.get(index)
    prefix = (sign,) if sign else (*styled_inlines(Style.SUPERSCRIPT, (index,)), "√")
    return (*prefix, *_grouped(parts[0]))


def _grouped_inlines(inlines: Sequence[Inline]) -> tuple[Inline, ...]:
    """``inlines`` in brackets when they are more than one letter or number."""
    text = plain(rich(inlines))
    return tuple(inlines) if len(text) <= 1 or text.isalnum() else ("(", *inlines, ")")


def _fenced(element: Any) -> tuple[Inline, ...]:
    """``mfenced``: its open and close signs (``(`` and ``)`` unless it says), the children
    parted by its separators (``,`` unless it says; none when it says '')."""
    separators = element.get("separators", ",").replace(" ", "")
    inlines: list[Inline] = [element.get("open", "(")]
    for number, part in enumerate(_parts(element)):
        if number and separators:
            inlines.append(separators[min(number - 1, len(separators) - 1)])
        inlines += render(part)
    inlines.append(element.get("close", ")"))
    return tuple(inlines)


def _table(element: Any) -> tuple[Inline, ...]:
    """A table or matrix: ``[a b; c d]``, rows parted by ``;``, cells by a space."""
    rows = [[render(cell) for cell in _parts(row)] for row in _parts(element)]
    inlines: list[Inline] = ["["]
    for number, row in enumerate(rows):
        inlines += ["; "] if number else []
        cells = [cell for cell in row if plain(rich(cell))]
        for place, cell in enumerate(cells):
            inlines += [" "] if place else []
            inlines += cell
    return (*inlines, "]")


def _apply(element: Any) -> tuple[Inline, ...]:
    """Content MathML's ``apply``: an operator between its arguments, a function before them
    in brackets."""
    operator, *arguments = _parts(element) or [None]
    if operator is None:
        return ()
    name = local_name(operator)
    rendered = [_grouped(argument) for argument in arguments]
    if name in INFIX and len(rendered) >= 2:
        return tuple(_joined(rendered, SIGNS[name]))
    if name == "minus" and len(rendered) == 1:
        return ("−", *rendered[0])
    return (*render(operator), "(", *_joined(rendered, ","), ")")


def _joined(parts: Sequence[tuple[Inline, ...]], sign: str) -> Iterator[Inline]:
    for number, part in enumerate(parts):
        if number:
            yield sign
        yield from part


def _semantics(element: Any) -> tuple[Inline, ...]:
    """``semantics``: its first child, the formula (the annotations say it again)."""
    parts = _parts(element)
    return render(parts[0]) if parts else ()


RENDERERS: dict[str, Render] = {
    **dict.fromkeys(("msub", "msup", "msubsup", "munder", "mover", "munderover"),
                    lambda e: _scripts(e, Style.SUBSCRIPT, Style.SUPERSCRIPT)),
    "mfrac": _fraction, "msqrt": _square_root, "mroot": _root, "mfenced": _fenced,
    "mtable": _table, "matrix": _table, "apply": _apply, "semantics": _semantics,
    **dict.fromkeys(("annotation", "annotation-xml", "mphantom", "none", "mprescripts"),
                    lambda e: ()),
}
