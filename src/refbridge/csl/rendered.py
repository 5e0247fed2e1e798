"""Rendered-output tree of the CSL processor, markup in field values, and text-case.

A rendering is a tree of :class:`Rich` nodes whose leaves are plain, unescaped ``str``.
Formatting (italics, quotes, display blocks, links) lives on the nodes, so the output
formats can escape every leaf and flip-flop nested formatting.  Field values that carry
CSL rich-text markup (``<i>``, ``<b>``, ``<sup>``, ``<sub>``, small-caps and ``nocase``
spans, straight double quotes) are parsed into the same tree; any other markup stays
literal text.  This module never escapes or emits markup: that is the formats' job.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from refbridge import richtext as model
from refbridge.latex.math import math_inlines

Fmt = dict[str, str]


class Rich:
    """A node of rendered output: children plus the formatting that applies to all of them."""

    __slots__ = ("data", "display", "fmt", "kids", "link", "nocase", "quotes", "tex")

    def __init__(
        self,
        kids: list[Node],
        fmt: Fmt | None = None,
        quotes: bool | str = False,  # True: cs quotes="true" or outer quotes in a value;
        # "inner": inner quotes in a value (at the top level they stay inner); "\u201c", "\u2018":
        # typed curly quotes (outer or inner as the locale uses them); "data-" before any of
        # these (True: "data"): punctuation-in-quote leaves them alone; "flat": a style's quotes
        # under quotes="false" (see nodes._unquoted)
        display: str | None = None,
        nocase: bool = False,
        link: str | None = None,
        tex: str | None = None,  # a formula: its TeX, which LaTeX output writes instead of kids
        data: bool = False,  # formatting of markup in a value (flips inside the same formatting)
    ) -> None:
        self.kids = kids
        self.fmt = fmt
        self.quotes = quotes
        self.display = display
        self.nocase = nocase
        self.link = link
        self.tex = tex
        self.data = data

    def __repr__(self) -> str:
        return f"Rich({self.kids!r}, fmt={self.fmt!r}, quotes={self.quotes})"


Node = Rich | str


class LeafRich(Rich):
    """The rendering of one formatted or quoted element around its sealed text (see Sealed):
    a delimiter after it is that element's own suffix to citeproc-js, which does not merge
    with the text; after a group or macro it merges as the group's suffix would."""

    __slots__ = ()


class KeptPeriods(Rich):
    """What citeproc-js writes through its number path (a cs:number, a number variable in a
    cs:text), around text with periods: strip-periods leaves it alone, on the element as on
    a group or macro around it ("1. izd.")."""

    __slots__ = ()


class Affixed(Rich):
    """An element's rendering between its affixes (kids: the prefix, what it renders, the
    suffix): strip-periods on a group or macro around it leaves the affixes alone, as
    citeproc-js strips only the strings elements write ("editors.: " stays)."""

    __slots__ = ()


class KeptNormal(Rich):
    """Formatting whose "normal" values are written even where nothing around sets the
    attribute (see names: cs:name's formatting around names and an et-al term that sets it,
    ``<span style="font-style:normal;">Aa <i>et al.</i></span>`` as citeproc-js writes it)."""

    __slots__ = ()


class LocaleQuotes(Rich):
    """CSL-M: quotes written in another locale than the style's (a layout's or a ``locale``
    test's, see nodes.Decor): the quotation marks of that locale for what it holds (open,
    close, inner open, inner close), as citeproc-js."""

    __slots__ = ("marks",)

    def __init__(self, kids: list[Node], marks: tuple[str, str, str, str]) -> None:
        super().__init__(kids)
        self.marks = marks


class PersonName(Rich):
    """A person's name (not an institution's): strip-periods removes every period of its
    parts, as citeproc-js (NameOutput._stripPeriods: "W.l." is "Wl"), also one before a
    lowercase letter, which it keeps elsewhere."""

    __slots__ = ()


class Decorated(Rich):
    """The rendering of a formatted element whose text is not sealed (see LeafRich): a prefix
    right after it is not merged with its end (see BesideDecorated)."""

    __slots__ = ()


def plain(node: Node | None) -> str:
    """The text of a rendering without any formatting (quotes not included)."""
    if node is None:
        return ""
    if isinstance(node, str):
        return node
    return "".join(plain(kid) for kid in node.kids)


def is_empty(node: Node | None) -> bool:
    if node is None:
        return True
    if isinstance(node, str):
        return not node
    return all(is_empty(kid) for kid in node.kids)


def first_char(node: Node | None) -> str:
    if node is None:
        return ""
    if isinstance(node, str):
        return node[:1]
    for kid in node.kids:
        char = first_char(kid)
        if char:
            return char
    return ""


def last_char(node: Node | None) -> str:
    if node is None:
        return ""
    if isinstance(node, str):
        return node[-1:]
    for kid in reversed(node.kids):
        char = last_char(kid)
        if char:
            return char
    return ""


def holds_rich(node: Node | None, test: Callable[[Rich], bool]) -> bool:
    """Whether *node* or a node inside it is a Rich node that passes *test*."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Rich):
            if test(current):
                return True
            stack.extend(current.kids)
    return False


def map_leaves(node: Node, func: Callable[[str], str], in_names: Callable[[str], str] | None = None) -> Node:
    """A copy of *node* with *func* applied to every leaf (``nocase`` spans included; a formula,
    what KeptPeriods holds and the affixes of an Affixed stay as they are), *in_names* instead
    in a PersonName."""
    if isinstance(node, str):
        return func(node)
    if node.tex is not None or type(node) is KeptPeriods:
        return node
    if in_names is not None and type(node) is PersonName:
        func = in_names
    if type(node) is Affixed and len(node.kids) == 3:
        prefix, inner, suffix = node.kids
        return Affixed([prefix, map_leaves(inner, func, in_names), suffix])
    return Rich([map_leaves(kid, func, in_names) for kid in node.kids], node.fmt, node.quotes, node.display,
                node.nocase, node.link, data=node.data)


# --- markup in field values ----------------------------------------------------------

_TAGS: dict[str, tuple[str, Fmt | None, bool, bool]] = {
    # opening tag -> (closing tag, formatting, nocase, quotes)
    "<i>": ("</i>", {"font-style": "italic"}, False, False),
    "<em>": ("</em>", {"font-style": "italic"}, False, False),
    "<b>": ("</b>", {"font-weight": "bold"}, False, False),
    "<strong>": ("</strong>", {"font-weight": "bold"}, False, False),
    "<sup>": ("</sup>", {"vertical-align": "sup"}, True, False),
    "<sub>": ("</sub>", {"vertical-align": "sub"}, True, False),
    "<sc>": ("</sc>", {"font-variant": "small-caps"}, True, False),
    '<span style="font-variant:small-caps;">': ("</span>", {"font-variant": "small-caps"}, True, False),
    '<span style="font-variant: small-caps;">': ("</span>", {"font-variant": "small-caps"}, True, False),
    '<span style="font-variant:small-caps">': ("</span>", {"font-variant": "small-caps"}, True, False),
    '<span class="nocase">': ("</span>", None, True, False),
    '<span class="nodecor">': ("</span>", {"nodecor": "true"}, True, False),
    # quotation marks, marked by _mark_quotes: straight single, curly single, curly double
    "\x01": ("\x02", None, False, True),
    "\x03": ("\x04", None, False, True),
    "\x05": ("\x06", None, False, True),
    "\x07": ("\x08", None, False, True),
}
_LITERAL = {"\x01": "\u2019", "\x02": "\u2019", "\x03": "\u2018", "\x04": "\u2019", "\x05": "\u201c", "\x06": "\u201d",
            "\x07": '"', "\x08": '"'}
_CLOSING_MARKS = frozenset("\x02\x04\x06\x08")
_STRAIGHT_OPENERS = frozenset("\x01\x07")
_CURLY_FORMS = {"\x03": "\u2018", "\x05": "\u201c"}  # typed curly quotes, by opening mark
_CLOSERS = {closer for closer, *_ in _TAGS.values()}
_TOKEN_RE = re.compile(
    "(" + "|".join(re.escape(tag) for tag in sorted(set(_TAGS) | _CLOSERS, key=len, reverse=True)) + ")"
)
_TAG_RE = re.compile(r"<[^<>]*>")
_SENTINELS_RE = re.compile("[\x01-\x08\x10\x11]")
_MARKUP_CHARS_RE = re.compile("[<\"'\u2018\u201c]")


def _apostrophes(text: str) -> str:
    return text.replace("'", "\u2019") if "'" in text else text


_OPENING_SINGLE_RE = re.compile(r"(?<![\w'\u2019])'(?=[^\s'])")
_CLOSING_SINGLE_RE = re.compile(r"(?<=[^\s\x01])'(?![\w])")
_CLOSING_CURLY_SINGLE_RE = re.compile(r"(?<=[^\s\x03])\u2019(?![\w])")
_OPENING_DOUBLE_RE = re.compile(r'(?<![^\s(\[{\x01\x03\x05\x10])"(?=\S)')
_CLOSING_DOUBLE_RE = re.compile(r'(?<=[^\s\x07])"')
_TAG_MARK_RE = re.compile("[\x10\x11]")


def _mark_quotes(text: str) -> str:
    """Mark quotation marks that open or close a quotation (other single quotes are apostrophes)."""
    if "'" in text:
        text = _OPENING_SINGLE_RE.sub("\x01", text)
        text = _CLOSING_SINGLE_RE.sub("\x02", text)
    if "\u2018" in text:
        text = text.replace("\u2018", "\x03")
        text = _CLOSING_CURLY_SINGLE_RE.sub("\x04", text)
    if "\u201c" in text:
        text = text.replace("\u201c", "\x05").replace("\u201d", "\x06")
    if '"' in text:  # straight double quotes open before and close after non-space text
        tags = _TAG_RE.findall(text)
        # markup tags keep their attribute quotes; a quote may open right after an opening tag
        text = _TAG_RE.sub(lambda m: "\x11" if m.group().startswith("</") else "\x10", text)
        text = _OPENING_DOUBLE_RE.sub("\x07", text)
        text = _CLOSING_DOUBLE_RE.sub("\x08", text)
        restored = iter(tags)
        text = _TAG_MARK_RE.sub(lambda _: next(restored), text)
    return text


# as citeproc-js in every written string: a space before : ; ? ! » or after « becomes a
# narrow no-break space (French orthography)
_FRENCH_SPACE_RE = re.compile(" (?=[:;?!\u00bb])|(?<=\u00ab) ")


_Frame = tuple[str, str, "Fmt | None", bool, bool, list[Node], int]
_TAG_CLOSERS = frozenset(closer for closer, _, _, quotes in _TAGS.values() if not quotes)


#: Opening quotation marks as they were typed.
_TYPED = {"\x01": "'", "\x03": "\u2018", "\x05": "\u201c", "\x07": '"'}


def _as_text(stack: list[_Frame], root: list[Node], literal: dict[str, str]) -> None:
    """The innermost open frame, never closed, as text in its parent (its opener shown as
    ``literal`` maps it)."""
    opener, _, _, _, _, kids, _ = stack.pop()
    parent = stack[-1][5] if stack else root
    parent.append(literal.get(opener, opener))
    parent.extend(kids)


def _unclosed_quotes_as_text(stack: list[_Frame], closer: str) -> None:
    """A tag closing while quotation marks opened inside it are still open: those marks are
    text in the tag, as typed (``Sull<span class="nocase">'</span>`` keeps its straight
    apostrophe, as citeproc-js prints it)."""
    depth = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][1] == closer), None)
    if depth is None or not all(frame[4] for frame in stack[depth + 1:]):
        return
    while len(stack) > depth + 1:
        _as_text(stack, [], _TYPED)


def parse_markup(text: str) -> Node:
    """Parse CSL rich text in a field value; unknown or unbalanced markup stays literal.

    Quotation forms, as citeproc-js: typed curly quotes are outer or inner as the locale uses
    them (en-US: double outer, single inner; en-GB the other way round); of straight quotes,
    the kind that opens first is the outer form and the other kind the inner one.  Nested
    quotes alternate.
    Punctuation typed after a closing quote in the same value stays outside it.
    """
    if " " in text:
        text = _FRENCH_SPACE_RE.sub("\u202f", text)
    if not _MARKUP_CHARS_RE.search(text):
        return text
    text = _SENTINELS_RE.sub("", text)  # control characters used below as quote marks
    text = _mark_quotes(text)
    # frames: (opening token, closing token, formatting, nocase, quotes, children, position)
    root: list[Node] = []
    stack: list[_Frame] = []
    straight: list[tuple[int, str, Rich]] = []  # matched straight quotes: (position, opener, node)
    closed: list[Rich] = []  # quotations closed with no text after them yet
    followed: list[Rich] = []  # quotations with text after them in this string
    current = root
    for position, token in enumerate(_TOKEN_RE.split(text)):
        if not token:
            continue
        if stack and token != stack[-1][1] and token in _TAG_CLOSERS:
            _unclosed_quotes_as_text(stack, token)
        if stack and token == stack[-1][1]:
            opener, _, fmt, nocase, quotes, kids, opened_at = stack.pop()
            current = stack[-1][5] if stack else root
            node = Rich(kids, fmt, _CURLY_FORMS.get(opener, quotes), nocase=nocase, data=True)
            if opener in _STRAIGHT_OPENERS:
                straight.append((opened_at, opener, node))
            if quotes:
                closed.append(node)
            current.append(node)
        elif token in _TAGS and token not in _CLOSING_MARKS:
            closer, fmt, nocase, quotes = _TAGS[token]
            children: list[Node] = []
            stack.append((token, closer, fmt, nocase, quotes, children, position))
            current = children
        else:
            current.append(_apostrophes(_LITERAL.get(token, token)))
            followed.extend(closed)
            closed.clear()
    while stack:  # unclosed markup is literal text
        _as_text(stack, root, _LITERAL)
    if straight:
        outer = min(straight, key=lambda entry: entry[0])[1]
        for _, opener, node in straight:
            node.quotes = True if opener == outer else "inner"
    for node in followed:  # punctuation typed after them stays where it is
        node.quotes = data_quotes(node.quotes)
    return root[0] if len(root) == 1 else Rich(root)


def data_quotes(quotes: bool | str) -> str:
    """The form of quotes whose typed punctuation punctuation-in-quote leaves alone."""
    if quotes is True or quotes == "data":
        return "data"
    return str(quotes) if str(quotes).startswith("data-") else f"data-{quotes}"


# --- the model's rich text ------------------------------------------------------------

#: Styles of the model's rich text as the markup parse_markup reads (monospace has none).
_STYLE_MARKUP = {
    model.Style.ITALIC: ("<i>", "</i>"), model.Style.BOLD: ("<b>", "</b>"),
    model.Style.SUPERSCRIPT: ("<sup>", "</sup>"), model.Style.SUBSCRIPT: ("<sub>", "</sub>"),
    model.Style.SMALL_CAPS: ("<sc>", "</sc>"),
    model.Style.NOCASE: ('<span class="nocase">', "</span>"),
}
_FORMULA_FMT: dict[str, Fmt] = {model.Style.SUPERSCRIPT: {"vertical-align": "sup"},
                                model.Style.SUBSCRIPT: {"vertical-align": "sub"},
                                model.Style.BOLD: {"font-weight": "bold"},
                                model.Style.ITALIC: {"font-style": "italic"}}
_LESS_THAN = "\uf8ff"  # a literal "<" of the value while its markup is parsed
#: private-use characters stand for formulas, addresses, links and raw LaTeX, and for the
#: record's own private-use characters (a PDF's bullet U+F0B7), which come back as text
_SPECIAL = 0xE000
_SPECIAL_RE = re.compile("([\ue000-\uf8fe\uf8ff])")


def rich_text_node(value: model.RichText, links: bool) -> Node:
    """The rendering of a rich value of the model: its styles as formatting, quotation marks
    read as in a field value (across styled parts), text never read as markup. A formula is a
    case-protected node that LaTeX output writes as its TeX and other outputs as Unicode with
    superscripts and subscripts; an address and raw LaTeX (a logo as its text) are case-protected text; a link is
    its text (linked when *links*)."""
    specials: list[Node] = []
    node = parse_markup("".join(_markup_of(value.inlines, specials, links)))
    return _restored(node, specials)


def _markup_of(items: Iterable[model.Inline], specials: list[Node], links: bool) -> Iterator[str]:
    for item in items:
        if isinstance(item, str):
            held = _SPECIAL_RE.sub(lambda m: _held(m.group(), specials), item)
            yield held.replace("<", _LESS_THAN)
        elif isinstance(item, model.Styled):
            opening, closing = _STYLE_MARKUP.get(item.style, ("", ""))
            yield opening
            yield from _markup_of(item.content, specials, links)
            yield closing
        else:
            yield _held(_special(item, links), specials)


def _held(node: Node, specials: list[Node]) -> str:
    """The private-use character standing for *node* while the markup is parsed."""
    specials.append(node)
    return chr(_SPECIAL + len(specials) - 1)


def _special(item: model.Inline, links: bool) -> Node:
    if isinstance(item, model.Math):
        return Rich([_formula(math_inlines(item.tex))], nocase=True, tex=item.tex)
    if isinstance(item, model.Url):
        return Rich([item.address], nocase=True)
    if isinstance(item, model.Link):
        text = rich_text_node(model.RichText(item.content), links)
        return Rich([text], link=item.address) if links else text
    assert isinstance(item, model.Raw)
    return Rich([item.shown], nocase=True)  # a logo's text; other LaTeX as written, as text


def _formula(items: Iterable[model.Inline]) -> Node:
    kids: list[Node] = []
    for item in items:
        if isinstance(item, model.Styled):
            kids.append(Rich([_formula(item.content)], _FORMULA_FMT.get(item.style)))
        else:
            kids.append(item if isinstance(item, str) else model.plain(model.rich([item])))
    return kids[0] if len(kids) == 1 else Rich(kids)


def _restored(node: Node, specials: list[Node]) -> Node:
    if isinstance(node, str):
        if not _SPECIAL_RE.search(node):
            return node
        pieces: list[Node] = []
        for piece in _SPECIAL_RE.split(node):
            restored = "<" if piece == _LESS_THAN else specials[ord(piece) - _SPECIAL] \
                if len(piece) == 1 and _SPECIAL_RE.match(piece) else piece
            if isinstance(restored, str) and pieces and isinstance(pieces[-1], str):
                pieces[-1] += restored  # a record's private-use character stays in its text
            elif restored:
                pieces.append(restored)
        return pieces[0] if len(pieces) == 1 else Rich(pieces)
    node.kids = [_restored(kid, specials) for kid in node.kids]
    return node


# --- text-case -----------------------------------------------------------------------

# citeproc-js's "romanesque" letters: Latin, Greek, Cyrillic, Hebrew (but its "and", \u05d5),
# Arabic, Thai, and direction marks; CJK and other scripts are not
ROMANESQUE_CHARS = ("a-zA-Z\u0e01-\u0e5b\u00c0-\u017f\u0370-\u03ff\u0400-\u052f\u0590-\u05d4\u05d6-\u05ff"
                    "\u1f00-\u1fff\u0600-\u06ff\u200c\u200d\u200e\u0218\u0219\u021a\u021b\u202a-\u202e")

# citeproc-js's stop words (lowercase words that title case leaves alone)
STOP_WORDS = frozenset(
    ["about", "above", "across", "afore", "after", "against", "al", "along", "alongside", "amid", "amidst", "among", "amongst", "anenst", "apropos", "apud", "around", "as", "aside", "astride", "at", "athwart", "atop", "barring", "before", "behind", "below", "beneath", "beside", "besides", "between", "beyond", "but", "by", "circa", "despite", "down", "during", "et", "except", "for", "forenenst", "from", "given", "in", "inside", "into", "lest", "like", "modulo", "near", "next", "notwithstanding", "of", "off", "on", "onto", "out", "over", "per", "plus", "pro", "qua", "sans", "since", "than", "through", "thru", "throughout", "thruout", "till", "to", "toward", "towards", "under", "underneath", "until", "unto", "up", "upon", "versus", "vs.", "v.", "vs", "v", "via", "vis-à-vis", "with", "within", "without", "or", "yet", "so", "and", "nor", "a", "an", "the", "de", "d'", "von", "van", "c", "ca"]
)
# punctuation and quotes that separate the strings text-case works on
_CASE_TAG_RE = re.compile(
    "(\u2018|(?<![^\\W\\d_])\u2019|\u2019(?![^\\W\\d_])|\u201c|\u201d| \"| '|\"|(?<![^\\W\\d_])'|'(?![^\\W\\d_])"
    "|[-\u2013\u2014/.,;?!:]|\\[|\\]|\\(|\\))"
)  # an apostrophe between letters (You’re) does not split a word


def _leaves(node: Node, protected: bool, out: list[tuple[list[Node], int, bool]], holder: list[Node], idx: int) -> None:
    if isinstance(node, str):
        out.append((holder, idx, protected))
        return
    for i, kid in enumerate(node.kids):
        _leaves(kid, protected or node.nocase, out, node.kids, i)


def apply_text_case(node: Node, case: str, language: str = "") -> Node:
    """Apply a CSL text-case to a rendering (in place on a private copy); nocase spans are kept.

    *language* (a language tag) picks the letter case rules: Turkish and Azerbaijani dotted
    and dotless i, as JavaScript's toLocaleUpperCase in citeproc-js."""
    root = Rich([_copy(node)])
    slots: list[tuple[list[Node], int, bool]] = []
    _leaves(root, False, slots, [], 0)
    texts = [holder[i] for holder, i, _ in slots]
    whole = "".join(texts)  # type: ignore[arg-type]
    mask: list[bool] = []
    for (_, _, prot), text in zip(slots, texts):
        mask.extend([prot] * len(text))  # type: ignore[arg-type]
    turkic = language[:2].lower() in _TURKIC_LANGUAGES
    key = (case, whole, bytes(mask), turkic)
    new = _CASED.get(key)
    if new is None:
        if len(_CASED) > 20000:  # (bounded: journal names and terms repeat, titles seldom do)
            _CASED.clear()
        chars = _CASES[case](whole, mask, _TURKIC_CASING if turkic else _CASING)
        joined = "".join(chars)  # (kept as a string unless a character cased to several)
        new = _CASED[key] = joined if len(joined) == len(chars) else chars
    pos = 0
    for (holder, i, _), text in zip(slots, texts):
        n = len(text)  # type: ignore[arg-type]
        holder[i] = "".join(new[pos : pos + n])
        pos += n
    return root.kids[0] if len(root.kids) == 1 else root


#: the cased characters of a text by (text-case, text, its protected characters, Turkic):
#: the strings a library cases repeat (its journals' names, terms), never altered once made
_CASED: dict[tuple[str, str, bytes, bool], str | list[str]] = {}


def _copy(node: Node) -> Node:
    """A copy of *node* with nodes of its own kind (see LeafRich, Decorated, KeptPeriods)."""
    if isinstance(node, str):
        return node
    return type(node)([_copy(k) for k in node.kids], node.fmt, node.quotes, node.display, node.nocase, node.link,
                node.tex, node.data)


class _Casing(NamedTuple):
    upper: Callable[[str], str]
    lower: Callable[[str], str]


_TURKIC_LANGUAGES = frozenset(("tr", "az"))
_TURKIC_UPPER = str.maketrans({"i": "\u0130"})
_TURKIC_LOWER = str.maketrans({"I": "\u0131", "\u0130": "i"})
_CASING = _Casing(str.upper, str.lower)
_TURKIC_CASING = _Casing(lambda text: text.translate(_TURKIC_UPPER).upper(),
                         lambda text: text.translate(_TURKIC_LOWER).lower())


def _per_char(text: str, mask: list[bool], func: Callable[[str], str]) -> list[str]:
    return [c if m else func(c) for c, m in zip(text, mask)]


def _lower(text: str, mask: list[bool], casing: _Casing) -> list[str]:
    return _per_char(text, mask, casing.lower)


def _upper(text: str, mask: list[bool], casing: _Casing) -> list[str]:
    return _per_char(text, mask, casing.upper)


_SENTENCE_PUNCTUATION = frozenset("!?:")  # a string ending in one starts a new sentence
_WORD_RE = re.compile(r"[^\u00a0 \u2000-\u200b\u205f\u3000]+")


class _CaseEngine:
    """citeproc-js's text-case state machine over strings between punctuation, word by word."""

    def __init__(self, text: str, mask: list[bool], casing: _Casing) -> None:
        self.text = text
        self.mask = mask
        self.casing = casing
        self.out = list(text)
        self.is_first = True
        self.after_punct = False
        self.last_word: tuple[int, int] | None = None

    def capitalise(self, start: int, end: int) -> None:
        word = self.text[start:end]
        if self.mask[start] or ("\u0370" <= word[0] <= "\u03ff" and len(word) == 1):
            return
        self.out[start] = self.casing.upper(word[0])

    def words(self) -> Iterator[tuple[int, int, bool, str | None]]:
        """(start, end, last word of its string, the punctuation following the string)."""
        pieces = _CASE_TAG_RE.split(self.text)
        pos = 0
        for n, piece in enumerate(pieces):
            if n % 2:
                if piece[-1:] in _SENTENCE_PUNCTUATION:
                    self.after_punct = True
                pos += len(piece)
                continue
            # citeproc-js only looks at the punctuation after the first string
            following = pieces[1] if n == 0 and len(pieces) > 1 else None
            spans = [(m.start() + pos, m.end() + pos) for m in _WORD_RE.finditer(piece)]
            for k, (start, end) in enumerate(spans):
                if all(self.mask[start:end]):  # protected text still counts as a word seen
                    self.last_word = None
                    self.after_punct = self.is_first = False
                    continue
                yield start, end, k == len(spans) - 1, following
            pos += len(piece)


_APOSTROPHE_RE = re.compile("[\u2019']")


def _title(text: str, mask: list[bool], casing: _Casing) -> list[str]:
    engine = _CaseEngine(text, mask, casing)
    for start, end, last_in_string, following in engine.words():
        # citeproc-js splits a word at an apostrophe and never capitalizes what follows it
        # (an unmatched closing quote), so "d’histoire" is judged as "d"
        word = _APOSTROPHE_RE.split(text[start:end], 1)[0] or text[start:end]
        lower = word.lower()
        capitalize = (len(word) > 1 and lower not in STOP_WORDS) or (last_in_string and following == "-") \
            or engine.is_first or engine.after_punct
        if capitalize and word == lower:
            engine.capitalise(start, end)
        engine.after_punct = False
        engine.is_first = False
        engine.last_word = (start, end)
    if engine.last_word:
        start, end = engine.last_word
        word = text[start:end]
        if len(word) > 1 and word.lower() in STOP_WORDS:
            engine.capitalise(start, end)
    return engine.out


def _sentence(text: str, mask: list[bool], casing: _Casing) -> list[str]:
    engine = _CaseEngine(text, mask, casing)
    for start, end, _, _ in engine.words():
        if engine.is_first:
            engine.capitalise(start, end)
            engine.is_first = False
        else:
            for i in range(start, end):
                if not mask[i]:
                    engine.out[i] = casing.lower(text[i])
    return engine.out


def _capitalize_first(text: str, mask: list[bool], casing: _Casing) -> list[str]:
    engine = _CaseEngine(text, mask, casing)
    for start, end, _, _ in engine.words():
        word = text[start:end]
        if word == word.lower():
            engine.capitalise(start, end)
        break
    return engine.out


def _capitalize_all(text: str, mask: list[bool], casing: _Casing) -> list[str]:
    engine = _CaseEngine(text, mask, casing)
    for start, end, _, _ in engine.words():
        word = text[start:end]
        if word == word.lower():
            engine.capitalise(start, end)
    return engine.out


_CASES: dict[str, Callable[[str, list[bool], _Casing], list[str]]] = {
    "lowercase": _lower,
    "uppercase": _upper,
    "capitalize-first": _capitalize_first,
    "capitalize-all": _capitalize_all,
    "sentence": _sentence,
    "title": _title,
}
