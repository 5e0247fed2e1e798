"""Output formats of the CSL processor: text, HTML, Markdown, LaTeX and RTF.

:func:`serialize` turns a :class:`~refbridge.csl.rendered.Rich` tree into a string in
three passes: flattening (with flip-flop of nested italics/bold/small-caps and of
double/single quotes), punctuation clean-up at the joins (doubled periods,
punctuation-in-quote, the same merge table as citeproc-js), and writing with the
format's markup table and escaping.  Every leaf is escaped, so record text can never
become markup or LaTeX/RTF commands; links are written only for http(s) URLs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from refbridge.latex.math import math_plain
from refbridge.latex.safety import formula_is_writable
from refbridge.textlines import one_line
from refbridge.vocab import OUTPUT_FORMATS

from .marked import (
    BesideDecorated,
    Delimiter,
    HeldPrefix,
    InnerSuffix,
    KeptLead,
    KeptSpace,
    LeafSuffix,
    LiteralText,
    NestedPrefix,
    NumberText,
    OwnSuffix,
    Sealed,
    SplitLead,
    Suffix,
)
from .rendered import (
    KeptNormal,
    LocaleQuotes,
    Node,
    Rich,
)

# -- punctuation merge table (left char, right char) -> replacement, as citeproc-js --
_MERGE: dict[str, dict[str, str]] = {
    "!": {".": "!", "?": "!?", ":": "!", ",": "!,", ";": "!;"},
    "?": {"!": "?!", ".": "?", ":": "?", ",": "?,", ";": "?;"},
    ".": {"!": ".!", "?": ".?", ":": ".:", ",": ".,", ";": ".;"},
    ":": {"!": "!", "?": "?", ".": ":", ",": ":,", ";": ":;"},
    ",": {"!": ",!", "?": ",?", ":": ",:", ".": ",.", ";": ",;"},
    ";": {"!": "!", "?": "?", ":": ";", ",": ";,", ".": ";"},
}
_SWAP_IN = frozenset("!?.,")
#: The prefixes written whole after any punctuation (see HeldPrefix, BesideDecorated,
#: NestedPrefix).
_WHOLE_PREFIXES = (HeldPrefix, BesideDecorated, NestedPrefix)


@dataclass(frozen=True)
class QuoteMarks:
    open: str = "\u201c"
    close: str = "\u201d"
    open_inner: str = "\u2018"
    close_inner: str = "\u2019"


# Event kinds of the flattened stream (QCLOSE_DATA: closing quote typed in a value, which
# punctuation-in-quote leaves alone).
TEXT, OPEN, CLOSE, QOPEN, QCLOSE, QCLOSE_DATA, RAW = range(7)  # RAW: written as it is (a formula)
Event = list[Any]  # [kind, text]: mutable, punctuation clean-up edits the text in place

_FLIP = {
    "font-style": ("italic", "normal"),
    "font-weight": ("bold", "normal"),
    "font-variant": ("small-caps", "normal"),
}


_TYPED_CLOSE = {"\u201c": ("\u201c", "\u201d"), "\u2018": ("\u2018", "\u2019")}  # typed curly quotes


def _inner_form(quotes: bool | str, marks: QuoteMarks) -> bool:
    """Whether top-level quotes of this form (see Rich.quotes) take the inner marks."""
    form = quotes.removeprefix("data-") if isinstance(quotes, str) else quotes
    if form in _TYPED_CLOSE:  # typed curly quotes: the form the locale writes them in
        return marks.open != form
    return form == "inner"


def _flatten(node: Node, state: dict[str, str], inner: bool | None, marks: QuoteMarks,
             out: list[Event], math: Callable[[str], str] | None = None) -> None:
    """Flatten *node* into events; *inner* is the form of the enclosing quotes (None: none):
    quotes nested in quotes take the other form, top-level ones their own. *math* writes a
    formula's TeX in formats that have formulas (else it is shown by its kids)."""
    if isinstance(node, str):
        if node:
            out.append([TEXT, node])
        return
    if node.tex is not None and math is not None:
        out.append([RAW, math(node.tex)])
        return
    if not (node.fmt or node.quotes or node.display or node.link):  # most nodes: their kids
        if type(node) is LocaleQuotes:
            marks = QuoteMarks(*node.marks)
        _flatten_kids(node.kids, state, inner, marks, out, math)
        return
    opened: list[str] = []
    saved: dict[str, str] = {}
    if node.display:
        out.append([OPEN, "display:" + node.display])
        opened.append("display:" + node.display)
    if node.link:
        out.append([OPEN, "link:" + node.link])
        opened.append("link:" + node.link)
    fmt = node.fmt
    if fmt:
        if "nodecor" in fmt:
            fmt = {attr: values[1] for attr, values in _FLIP.items() if state.get(attr, values[1]) != values[1]}
        for attr, value in reversed(fmt.items()):  # the first attribute is the innermost
            if attr in _FLIP:
                on, off = _FLIP[attr]
                current = state.get(attr, off)
                if value == off and current == off and type(node) is not KeptNormal:
                    continue
                # as citeproc-js: markup in a value flips inside the same formatting (an
                # italic word in an italic title is upright), against the style's formatting
                # around it; the style's own formatting nests (italic in italic stays italic)
                # and its "normal" does not count for the markup inside
                if node.data and value == on and current == on:
                    value = off
                if node.data or value == on:
                    saved.setdefault(attr, current)
                    state[attr] = value
            key = f"{attr}:{value}"
            out.append([OPEN, key])
            opened.append(key)
    typed = _TYPED_CLOSE.get(node.quotes.removeprefix("data-")) if isinstance(node.quotes, str) else None
    if typed and typed[0] not in (marks.open, marks.open_inner):
        # curly quotes the locale does not use are plain text (as citeproc-js)
        out.append([TEXT, typed[0]])
        _flatten_kids(node.kids, state, inner, marks, out, math)
        out.append([TEXT, typed[1]])
    else:
        if (node.quotes is True and not node.data) or node.quotes == "flat":
            # as citeproc-js: a style's quotes take the outer marks however deep they are, and
            # quotes in a value inside them the inner ones (“Say “‘this’” here”), unless the
            # outermost quotes attribute around says "false" (see nodes._unquoted)
            if node.quotes is True:
                inner = False
            out.append([QOPEN, marks.open])
        elif node.quotes:
            inner = (not inner) if inner is not None else _inner_form(node.quotes, marks)
            out.append([QOPEN, marks.open_inner if inner else marks.open])
        _flatten_kids(node.kids, state, inner, marks, out, math)
        if node.quotes:
            out.append([QCLOSE_DATA if str(node.quotes).startswith("data") else QCLOSE,
                        marks.close_inner if inner else marks.close])
    for key in reversed(opened):
        out.append([CLOSE, key])
    state.update(saved)


def _flatten_kids(kids: list[Node], state: dict[str, str], inner: bool | None, marks: QuoteMarks,
                  out: list[Event], math: Callable[[str], str] | None) -> None:
    """Flatten the *kids* of a node in order (a text leaf is its event, without a call)."""
    append = out.append
    for kid in kids:
        if isinstance(kid, str):
            if kid:
                append([TEXT, kid])
        else:
            _flatten(kid, state, inner, marks, out, math)


#: Event kinds that hold text of the entry (the others open and close markup).
_TEXTUAL = frozenset({TEXT, QOPEN, QCLOSE, QCLOSE_DATA, RAW})
#: Event kinds written through the format's escaping.
_ESCAPED = frozenset({TEXT, QOPEN, QCLOSE, QCLOSE_DATA})


def _last_text(out: list[Event], start: int) -> int:
    """The last event at or before *start* with text, else -1."""
    for j in range(start, -1, -1):
        kind, text = out[j]
        if text and kind in _TEXTUAL:
            return j
    return -1


def _merge_into(out: list[Event], j: int, char: str) -> None:
    """Append punctuation *char* to the text event *j*, merging with its last character."""
    prev = out[j][1]
    last = prev[-1:]
    if last == char:
        return
    merged = _MERGE.get(last, {}).get(char)
    if merged is not None:
        out[j][1] = prev[:-1] + merged
    else:
        out[j][1] = prev + char


def _trailing_marks(text: str) -> str:
    """The punctuation marks *text* ends with (``.,`` of ``proteomics.,``)."""
    end = len(text)
    while end and text[end - 1] in _MERGE:
        end -= 1
    return text[end:]


def _text_before(out: list[Event], j: int) -> int:
    """The text event before position *j*, looking through closing quotes and markup."""
    k = j
    while k >= 0 and out[k][0] != TEXT:
        if out[k][0] == QOPEN:
            return -1
        k -= 1
    return k if k >= 0 and out[k][1] else -1


def _swap_into_quote(out: list[Event], j: int, punct_in_quote: bool) -> int:
    """After merging, punctuation standing alone right after a closing quote moves inside
    (“colon”: + ! -> “colon!”); the index of the text it went into, else -1."""
    if not punct_in_quote or len(out[j][1]) != 1 or out[j][1] not in _SWAP_IN:
        return -1
    q = j - 1
    while q >= 0 and out[q][0] == CLOSE:
        q -= 1
    if q < 0 or out[q][0] != QCLOSE:
        return -1
    k = _text_before(out, q)
    if k >= 0 and out[k][0] == TEXT:
        _merge_into(out, k, out[j][1])
        out[j][1] = ""
        return k
    return -1


def _merge_at(out: list[Event], k: int, at: int, char: str) -> int:
    """Merge punctuation *char* into the text event *k* at *at* (see _merge_into), before
    what follows there; where the text after it starts now. A *char* that the text already
    has there (a delimiter "," before the element's own ",") is that mark."""
    text = out[k][1]
    if text[at:at + 1] == char:
        return at
    before = text[:at]
    last = before[-1:]
    if last != char:
        merged = _MERGE.get(last, {}).get(char)
        before = before[:-1] + merged if merged is not None else before + char
    out[k][1] = before + text[at:]
    return len(before)


def _after_quote(out: list[Event], k: int, text: str) -> str:
    """Punctuation after a closing quote where it stays outside (British English), as in
    citeproc-js: a comma, semicolon or colon ending the quoted text moves out and merges with
    it; after a period, question or exclamation mark only the same mark is dropped (but for
    the suffix of an element around the quote, which merges as usual)."""
    inside: str = out[k][1]
    last, first = inside[-1], text[0]
    if last in ",;:":
        out[k][1] = inside[:-1]
        merged = _MERGE[last].get(first, last + first) if last != first else last
        return (merged if len(merged) == 1 else last + first) + text[1:]
    return text[1:] if last == first else text


def _after_number_suffix(out: list[Event], j: int, text: str) -> bool:
    """Whether the suffix *text* follows, at *j*, the suffix of an element ending in a number."""
    if not isinstance(text, OwnSuffix) or not isinstance(out[j][1], OwnSuffix):
        return False
    k = _last_text(out, j - 1)
    while k >= 0 and out[k][0] == TEXT and isinstance(out[k][1], Suffix):
        k = _last_text(out, k - 1)
    return k >= 0 and isinstance(out[k][1], NumberText)


def _merges_same_mark_only(before: str, text: str) -> bool:
    """Whether *text* merges with the mark *before* ends in only when it is the same mark: as
    citeproc-js, after a leaf's suffix ending a group without its own (see InnerSuffix), and
    for a delimiter after a leaf's suffix (see LeafSuffix); a leaf's suffix and the next
    element's prefix merge as the table says ("9: x")."""
    return type(before) is InnerSuffix or (isinstance(text, Delimiter) and isinstance(before, LeafSuffix))


def _keeps_both_spaces(before: str, text: str) -> bool:
    """Whether the space *text* starts with stays after the one *before* ends with: a space
    kept by a formatted element's suffix before a prefix (see KeptSpace), one that leads
    what a formatted group holds (see KeptLead), or one a text value starts or ends with
    (content, not an affix: citeproc-js merges affixes only, "June.  Available from",
    "Vol.  540")."""
    return type(text) is KeptLead or type(text) is LiteralText or type(before) is LiteralText or (
        isinstance(before, KeptSpace) and not isinstance(text, (Delimiter, OwnSuffix)))


#: the spaces that merge where affixes meet (citeproc-js: a no-break space as a space)
_SPACES = frozenset(" \u00a0")


def _spaced_after_number(out: list[Event], j: int, text: str) -> bool:
    """Whether the prefix *text* keeps the space it starts with after the one the own suffix
    of a number element at *j* ends with: as citeproc-js, which merges no space with a
    number's suffix ("124  (2020)"), unless the suffix moved up to end a group (InnerSuffix)."""
    prev = out[j][1]
    if not isinstance(prev, LeafSuffix) or isinstance(prev, InnerSuffix) or isinstance(text, (OwnSuffix, Delimiter)):
        return False
    k = _last_text(out, j - 1)
    return k >= 0 and isinstance(out[k][1], NumberText)


def _after_display(out: list[Event], j: int) -> bool:
    """Whether only the closing (and opening) of display groups follows the text event *j*,
    one closing at least."""
    return j < len(out) - 1 and out[j + 1][0] == CLOSE and all(
        kind in (OPEN, CLOSE) and str(key).startswith("display:") for kind, key in out[j + 1:])


def _punctuate(events: list[Event], punct_in_quote: bool) -> list[Event]:
    """The *events* with the punctuation at their joins cleaned up (the events are reused).
    As citeproc-js (punctuation in quotes), the suffix of a group or macro call around an
    element's quoted text merges with that text before the element's own suffix, already
    moved into the quote (“proteomics” + , + . -> “proteomics.,”): *own_at*, by text event,
    is where the element's own suffix starts in it."""
    out: list[Event] = []
    own_at: dict[int, int] = {}
    append = out.append
    for event in events:
        kind, text = event
        if kind != TEXT:
            append(event)
            continue
        j = len(out) - 1
        if j < 0 or out[j][0] != TEXT or not out[j][1]:  # (most often the text just before)
            j = _last_text(out, j)
        before = out[j][0] if j >= 0 else None
        if before == QCLOSE or before == QCLOSE_DATA:
            k = _text_before(out, j)
            literal = isinstance(text, LiteralText)  # a text value's own punctuation stays out
            if not punct_in_quote and out[j][0] == QCLOSE and not literal and k >= 0 \
                    and text and text[0] in _MERGE and isinstance(out[k][1], Sealed) \
                    and (out[k][1][-1] in ",;:" or not isinstance(text, Suffix)):
                text = _after_quote(out, k, text)
                k = -1
            while text and text[0] in _MERGE and k >= 0:
                char, last = text[0], out[k][1][-1]
                if literal and last != char:  # (the same mark already inside is dropped)
                    break
                if punct_in_quote and out[j][0] == QCLOSE and isinstance(text, Suffix) and k in own_at:
                    own_at[k] = _merge_at(out, k, own_at[k], char)
                    text = text[1:]
                    continue
                # (the suffix of an element around an element's quoted text moves in whole)
                if punct_in_quote and out[j][0] == QCLOSE and not literal and (char in _SWAP_IN or (
                        isinstance(text, Suffix) and isinstance(out[k][1], Sealed))):
                    if isinstance(out[k][1], Sealed) and not isinstance(text, Suffix):
                        own_at[k] = len(out[k][1])
                    if char not in _trailing_marks(out[k][1]):  # “proteomics.,” + . stays
                        _merge_into(out, k, char)
                elif last in _MERGE and (last == char or len(_MERGE[last].get(char, "xx")) == 1):
                    # past the closing quote of an element's own text, its last mark merges only
                    # with the same mark (see Sealed; an affix moved into the quote merges as usual)
                    if _MERGE[last].get(char, last) != last or (
                            last != char and isinstance(out[k][1], Sealed) and not isinstance(text, Suffix)):
                        break
                else:
                    break
                text = text[1:]
        elif before == TEXT and text:
            prev = out[j][1]
            last, first = prev[-1], text[0]
            if first in _MERGE and last not in _MERGE and type(text) in (str, Suffix) and _after_display(out, j):
                # as citeproc-js: the punctuation a prefix starts with goes to the end of the
                # display group before it ("<div class="csl-left-margin">2009.</div> U.S.")
                _merge_into(out, j, first)
                text = text[1:]
            elif last in _MERGE and first in _MERGE:
                # as citeproc-js: after the formatted text of one element ("<i>solve?</i>.")
                # only the same mark twice is merged (see Sealed), and after the suffix of one
                # that ends in a number (see NumberText); nothing merges with the prefix of a
                # formatted element or one right after it (see HeldPrefix, BesideDecorated)
                # (a text value's own punctuation is content: nothing merges with it, "et al..")
                if type(text) not in _WHOLE_PREFIXES and type(text) is not LiteralText and (
                        last == first or (len(_MERGE[last].get(first, "xx")) == 1
                                          and (not isinstance(prev, Sealed) or isinstance(text, Suffix))
                                          and not _after_number_suffix(out, j, text)
                                          and not _merges_same_mark_only(prev, text))):
                    _merge_into(out, j, first)
                    text = text[1:]
                    _swap_into_quote(out, j, punct_in_quote)
            elif last == first and last in _SPACES and not _keeps_both_spaces(prev, text) \
                    and not _spaced_after_number(out, j, text):
                if isinstance(text, Delimiter) and prev[-2:-1] == last:
                    # as citeproc-js, a suffix gives its last space up to the delimiter, and
                    # each is escaped alone (HTML: "thesis,  JRC", no no-break space)
                    out[j][1] = type(prev)(prev[:-1])
                else:
                    text = text[1:]

        if text:
            event[1] = text
            append(event)
    return out


# -- writers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    name: str
    markup: dict[str, tuple[str, str]]
    escape: Callable[[str], str]
    link: Callable[[str, str], str]
    math: Callable[[str], str] | None = None  #: a formula's TeX as written in this format


def _latex_formula(tex: str) -> str:
    """A formula in LaTeX output: its TeX, or, when that is not safe to write
    (``refbridge.latex.safety``), the text it shows."""
    return f"${tex}$" if formula_is_writable(tex) else _latex_escape(math_plain(tex))


_SUPERSCRIPTS = (
    "\u00aa\u00b2\u00b3\u00b9\u00ba\u02b0\u02b1\u02b2\u02b3\u02b4\u02b5\u02b6\u02b7\u02b8\u02e0\u02e1\u02e2"
    "\u02e3\u02e4\u1d2c\u1d2d\u1d2e\u1d30\u1d31\u1d32\u1d33\u1d34\u1d35\u1d36\u1d37\u1d38\u1d39\u1d3a\u1d3c"
    "\u1d3d\u1d3e\u1d3f\u1d40\u1d41\u1d42\u1d43\u1d44\u1d45\u1d46\u1d47\u1d48\u1d49\u1d4a\u1d4b\u1d4c\u1d4d"
    "\u1d4f\u1d50\u1d51\u1d52\u1d53\u1d54\u1d55\u1d56\u1d57\u1d58\u1d59\u1d5a\u1d5b\u1d5c\u1d5d\u1d5e\u1d5f"
    "\u1d60\u1d61\u2070\u2071\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207c\u207d\u207e\u207f\u2120"
    "\u2122\u3192\u3193\u3194\u3195\u3196\u3197\u3198\u3199\u319a\u319b\u319c\u319d\u319e\u319f\u02c0\u02c1"
    "\u06e5\u06e6"
)
_SUPERSCRIPT_RE = re.compile(f"[{_SUPERSCRIPTS}]")
# the letter each superscript stands for: its compatibility form, but for four modifier
# letters that citeproc-js reads as the Arabic letters and glottal stops they mark
_SUPERSCRIPT_BASE = {char: unicodedata.normalize("NFKC", char) for char in _SUPERSCRIPTS} | {
    "\u02c0": "\u0294", "\u02c1": "\u0295", "\u06e5": "\u0648", "\u06e6": "\u064a"}


_TWO_SPACES_RE = re.compile(r"\s\s")


def _html_escape(text: str) -> str:
    """Numeric entities for & < >; each two white-space characters as a no-break space and a
    space, so that a browser shows them; superscript letters as <sup> (as citeproc-js)."""
    text = text.replace("&", "&#38;").replace("<", "&#60;").replace(">", "&#62;")
    text = _TWO_SPACES_RE.sub("\u00a0 ", text)
    if _SUPERSCRIPT_RE.search(text):
        text = _SUPERSCRIPT_RE.sub(lambda m: f"<sup>{_SUPERSCRIPT_BASE[m.group()]}</sup>", text)
    return text


def _html_link(url: str, inner: str) -> str:
    return f'<a href="{_html_escape(url).replace(chr(34), "&#34;")}">{inner}</a>'


_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}
_LATEX_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIALS))


def _latex_escape(text: str) -> str:
    """Record text as LaTeX: on one line (a blank line would end the argument of a command
    around it), control characters dropped, every special character a command that prints it."""
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIALS[m.group()], one_line(text))


def _latex_link(url: str, inner: str) -> str:
    safe_url = re.sub(r"([\\{}%#])", r"\\\1", url)
    return f"\\href{{{safe_url}}}{{{inner}}}"


def _rtf_escape(text: str) -> str:
    """Record text as RTF: on one line (RTF ignores a line break, so words would join),
    control characters dropped, braces and backslashes escaped, non-ASCII as ``\\u``."""
    out = []
    for char in one_line(text):
        code = ord(char)
        if char in "\\{}":
            out.append("\\" + char)
        elif code < 128:
            out.append(char)
        else:
            for unit in char.encode("utf-16-le").hex(" ", 2).split() if code > 0xFFFF else [None]:
                value = int.from_bytes(bytes.fromhex(unit), "little") if unit else code
                out.append(f"\\uc0\\u{value - 65536 if value > 32767 else value} ")
    return "".join(out)


def _rtf_link(url: str, inner: str) -> str:
    return '{\\field{\\*\\fldinst{HYPERLINK "' + _rtf_escape(url).replace('"', "") + '"}}{\\fldrslt ' + inner + "}}"


def _md_escape(text: str) -> str:
    """Record text as Markdown: on one line (a line break would start a block), control
    characters dropped, every character that is syntax inline escaped."""
    return re.sub(r"([\\`*_\[\]<>#|&])", r"\\\1", one_line(text))


_MD_LINE_START = re.compile(r"^(\d+)([.)])|^([-+=~])")


def guard_line_start(line: str) -> str:
    """A line of Markdown with what would make it a list item, a heading's underline or a
    code fence (``1.``, ``-``, ``=``, ``~~~``) at its start escaped."""
    return _MD_LINE_START.sub(lambda m: (f"{m.group(1)}\\{m.group(2)}" if m.group(1)
                                         else f"\\{m.group(3)}"), line)


def _md_link(url: str, inner: str) -> str:
    return f"[{inner}](<{url.replace('>', '%3E').replace('<', '%3C').replace(' ', '%20')}>)"


_HTML = Format(
    "html",
    {
        "font-style:italic": ("<i>", "</i>"),
        "font-style:oblique": ('<span style="font-style:oblique;">', "</span>"),
        "font-style:normal": ('<span style="font-style:normal;">', "</span>"),
        "font-weight:bold": ("<b>", "</b>"),
        "font-weight:light": ('<span style="font-weight:light;">', "</span>"),
        "font-weight:normal": ('<span style="font-weight:normal;">', "</span>"),
        "font-variant:small-caps": ('<span style="font-variant:small-caps;">', "</span>"),
        "font-variant:normal": ('<span style="font-variant:normal;">', "</span>"),
        "text-decoration:underline": ('<span style="text-decoration:underline;">', "</span>"),
        # as citeproc-js: "none" is written wherever a style asks for it (it does not flip)
        "text-decoration:none": ('<span style="text-decoration:none;">', "</span>"),
        "vertical-align:sup": ("<sup>", "</sup>"),
        "vertical-align:sub": ("<sub>", "</sub>"),
        "vertical-align:baseline": ('<span style="baseline">', "</span>"),  # as citeproc-js
        "display:block": ('\n\n    <div class="csl-block">', "</div>\n"),
        "display:left-margin": ('\n    <div class="csl-left-margin">', "</div>"),
        "display:right-inline": ('<div class="csl-right-inline">', "</div>\n  "),
        "display:indent": ('<div class="csl-indent">', "</div>\n  "),
    },
    _html_escape,
    _html_link,
)
_PLAIN_DISPLAY = {
    "display:block": ("\n", ""),
    "display:left-margin": ("", " "),
    "display:indent": ("\n    ", ""),
}
# plain text shows a formula's scripts as Unicode superscripts and subscripts where it can
_TEXT = Format("text", dict(_PLAIN_DISPLAY), lambda text: text, lambda url, inner: inner, math_plain)
_MARKDOWN = Format(
    "markdown",
    {
        "font-style:italic": ("*", "*"),
        "font-weight:bold": ("**", "**"),
        "vertical-align:sup": ("^", "^"),
        "vertical-align:sub": ("~", "~"),
        **_PLAIN_DISPLAY,
    },
    _md_escape,
    _md_link,
)
_LATEX = Format(
    "latex",
    {
        "font-style:italic": ("\\textit{", "}"),
        "font-style:oblique": ("\\textsl{", "}"),
        "font-style:normal": ("\\textup{", "}"),
        "font-weight:bold": ("\\textbf{", "}"),
        "font-weight:normal": ("\\textmd{", "}"),
        "font-variant:small-caps": ("\\textsc{", "}"),
        "font-variant:normal": ("\\textnormal{", "}"),
        "text-decoration:underline": ("\\underline{", "}"),
        "vertical-align:sup": ("\\textsuperscript{", "}"),
        "vertical-align:sub": ("\\textsubscript{", "}"),
        **_PLAIN_DISPLAY,
    },
    _latex_escape,
    _latex_link,
    _latex_formula,
)
_RTF = Format(
    "rtf",
    {
        "font-style:italic": ("{\\i ", "}"),
        "font-style:oblique": ("{\\i ", "}"),
        "font-style:normal": ("{\\i0 ", "}"),
        "font-weight:bold": ("{\\b ", "}"),
        "font-weight:normal": ("{\\b0 ", "}"),
        "font-variant:small-caps": ("{\\scaps ", "}"),
        "font-variant:normal": ("{\\scaps0 ", "}"),
        "text-decoration:underline": ("{\\ul ", "}"),
        "vertical-align:sup": ("{\\super ", "}"),
        "vertical-align:sub": ("{\\sub ", "}"),
        "display:block": ("\\line ", ""),
        "display:left-margin": ("", "\\tab "),
        "display:indent": ("\\line ", ""),
    },
    _rtf_escape,
    _rtf_link,
)
_WRITERS: dict[str, Format] = {f.name: f for f in (_TEXT, _HTML, _MARKDOWN, _LATEX, _RTF)}
#: Each output format (``vocab.OUTPUT_FORMATS``) and how it is written.
FORMATS: dict[str, Format] = {name: _WRITERS[name] for name in OUTPUT_FORMATS}
SAFE_LINK_RE = re.compile(r"^https?://[^\s<>\"]+$", re.IGNORECASE)


def _write(events: list[Event], fmt: Format) -> str:
    escape = fmt.escape
    top: list[str] = []  # the innermost open frame: its key, then what is written in it
    stack = [top]
    #: the entry's last display group with a trailing space: where, and written as it is when
    #: it ends the entry
    last_inline: tuple[int, str] | None = None
    for kind, value in events:
        if kind in _ESCAPED:
            top.append(escape(value) if type(value) is not SplitLead else escape(value[0]) + escape(value[1:]))
        elif kind == OPEN:
            top = [value]
            stack.append(top)
        elif kind == RAW:
            top.append(value)
        else:  # CLOSE
            frame = stack.pop()
            top = stack[-1]
            key, inner = frame[0], "".join(frame[1:])
            if key.startswith("link:"):
                top.append(fmt.link(key[5:], inner) if inner else "")
            else:
                leading = ""
                display = key.startswith("display:") and len(stack) == 1
                if display and not "".join(stack[0]).strip():
                    # as citeproc-js: a display group that opens the entry has its leading
                    # space written before it
                    stripped = inner.lstrip()
                    leading, inner = inner[: len(inner) - len(stripped)], stripped
                before, after = fmt.markup.get(key, ("", ""))
                if display and inner[-1:].isspace():
                    # as citeproc-js: its trailing space stays inside, unless it ends the entry
                    stripped = inner.rstrip()
                    last_inline = len(top), leading + before + stripped + after + inner[len(stripped):]
                top.append(leading + before + inner + after if inner else "")
    entry = stack[0]
    if last_inline is not None and not "".join(entry[last_inline[0] + 1:]):
        entry[last_inline[0]] = last_inline[1]
    return "".join(entry)


def serialize(node: Node | None, fmt: Format, marks: QuoteMarks, punct_in_quote: bool) -> str:
    if node is None:
        return ""
    events: list[Event] = []
    _flatten(node, {}, None, marks, events, fmt.math)
    return _write(_punctuate(events, punct_in_quote), fmt)


def flat_text(node: Node | None, marks: QuoteMarks = QuoteMarks(), punct_in_quote: bool = False) -> str:
    """The rendering as plain text, with quotes and punctuation clean-up (for comparisons)."""
    return serialize(node, _TEXT, marks, punct_in_quote)


__all__ = ["FORMATS", "SAFE_LINK_RE", "Format", "QuoteMarks", "Rich", "flat_text", "serialize"]
