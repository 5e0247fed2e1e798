"""BibTeX's classic styles (plain, unsrt, alpha) as refbridge formatters, rendered as bibtex
renders them.

The items become the .bib refbridge's ``bibtex`` writer writes for them (fields, case
protection, ``and others``, the layout of a .bib they were read from), read by pybtex. When
TeX Live has the style's .bst (``kpsewhich plain.bst``), pybtex's BibTeX interpreter runs it:
measured on the bundled profile pages, TeX Live's ``xampl.bib`` and ``biblatex-examples.bib``,
its .bbl is byte for byte bibtex's for plain and unsrt, and for alpha but the widest-label
argument of ``thebibliography`` (which no entry shows). Without the .bst, pybtex's Python
version of the style formats the same entries (close to bibtex, not the same: it prints URLs
and DOIs, and does not keep a capital after a colon), with bibtex's "et al." for ``and others``.

Either way each ``\\bibitem`` is LaTeX; it is turned into the output by refbridge's LaTeX
decoder and the CSL engine's writers (so record text is escaped as in every other output and
never becomes markup), with ``\\cite`` as the cited entry's label and the owner's name, as the
style writes it, in bold. This module must never be imported when these styles are not used
(pybtex is imported here at the top).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import pybtex.errors
from pybtex.bibtex import bst
from pybtex.bibtex.interpreter import Interpreter
from pybtex.bibtex.names import format_name
from pybtex.bibtex.utils import change_case
from pybtex.database import BibliographyData, Person, parse_string
from pybtex.database.input.bibtex import Parser
from pybtex.plugin import find_plugin
from pybtex.richtext import Symbol, Text
from pybtex.style.formatting import BaseStyle
from pybtex.style.template import FieldIsMissing, join, node

from refbridge.csl.formats import FORMATS, SAFE_LINK_RE, QuoteMarks, serialize
from refbridge.csl.rendered import Node, Rich
from refbridge.formats.bibtex.reader import HINT_LAYOUT
from refbridge.formats.bibtex.writer import BIBLATEX_WRITER, BIBTEX_WRITER, entry_key
from refbridge.formats.csljson import from_csl
from refbridge.latex.decode import decode_latex
from refbridge.registry import WriteOptions
from refbridge.richtext import Inline, Link, Style, Styled, Url, inlines, map_text, plain, rich
from refbridge.styles.definitions import FormatRequest, Item

#: How each style writes a person (its ``format.names``); the owner's name is found by it.
NAME_FORMATS: dict[str, str] = {"plain": "{ff~}{vv~}{ll}{, jj}",
                                "unsrt": "{ff~}{vv~}{ll}{, jj}",
                                "alpha": "{ff~}{vv~}{ll}{, jj}"}
#: The name roles whose people the styles print, as (CSL variable, .bib field).
ROLES: tuple[tuple[str, str], ...] = (("author", "author"), ("editor", "editor"))

#: how one entry is written, by output: ``{label}`` and ``{text}`` are already in that output
ENTRY_TEMPLATES: dict[str, str] = {
    "text": "[{label}] {text}",
    "html": '<div class="csl-entry"><div class="csl-left-margin">[{label}]</div>'
            '<div class="csl-right-inline">{text}</div></div>',
    "markdown": "\\[{label}\\] {text}",
    "latex": "[{label}] {text}",
}

_BIBITEM = re.compile(r"\\bibitem(?=[\[{])")
_CITE = re.compile(r"\\cite\{(?P<keys>[^{}]*)\}")
_NOOP = re.compile(r"\\newcommand\{?\\(?P<name>[A-Za-z]+)\}?\[1\]\{\}")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class BibEntry:
    """One ``\\bibitem``: its key, its label (None: numbered) and its text, as LaTeX."""

    key: str
    label: str | None
    body: str


# -- items -> .bib -------------------------------------------------------------------------
def bib_text(items: Sequence[Item]) -> tuple[str, dict[str, str]]:
    """The .bib of ``items`` as the ``bibtex`` writer writes it, and each entry's key -> the
    item's id."""
    texts: list[str] = []
    keys: dict[str, str] = {}
    for item in items:
        item_id = str(item["id"])
        record = from_csl(item).replace(id=item_id, citation_key=item_id)
        keys[entry_key(record)] = item_id
        # an entry read from a .bib as it was written there (the fields bibtex itself would
        # see, BibLaTeX's among them), any other the classic way
        writer = BIBLATEX_WRITER if HINT_LAYOUT in record.hints else BIBTEX_WRITER
        texts.append(writer.record_text(record, WriteOptions()))
    return "\n".join(texts), keys


# -- the style's own .bst, or pybtex's Python version of it ---------------------------------
@cache
def bst_source(style: str) -> str | None:
    """The text of TeX Live's ``style.bst``, or None when there is none (no TeX)."""
    if shutil.which("kpsewhich") is None:
        return None
    found = subprocess.run(["kpsewhich", f"{style}.bst"], capture_output=True, text=True,
                           check=False).stdout.strip()
    if not found:
        return None
    with open(found, encoding="utf-8", errors="replace") as source:
        return source.read()


def run_bst(bst_text: str, bib: str, keys: Sequence[str]) -> str:
    """The .bbl the .bst writes for the entries ``keys`` of ``bib`` (pybtex's interpreter of
    BibTeX's language; bibtex's warnings, such as an empty author, are no errors)."""
    with pybtex.errors.capture():
        return str(Interpreter(Parser, "utf-8").run(bst.parse_string(bst_text), list(keys),
                                                    [io.StringIO(bib)], min_crossrefs=2))


def parse_bbl(bbl: str) -> tuple[str, list[BibEntry]]:
    """The preamble (what comes before the bibliography) and the ``\\bibitem`` entries of a
    .bbl."""
    head, _, body = bbl.partition("\\begin{thebibliography}")
    body = body.partition("\\end{thebibliography}")[0]
    return head, [_entry(chunk) for chunk in _BIBITEM.split(body)[1:]]


def _entry(chunk: str) -> BibEntry:
    """A ``\\bibitem`` from the text after the command: ``[label]{key} text``."""
    label = None
    if chunk.startswith("["):
        end = _closing(chunk, 0, "[", "]")
        label, chunk = chunk[1:end], chunk[end + 1:]
    end = _closing(chunk, 0, "{", "}")
    return BibEntry(chunk[1:end], label, chunk[end + 1:].strip())


def _closing(text: str, start: int, opening: str, closing: str) -> int:
    """The offset of the ``closing`` that ends the ``opening`` at ``start`` (braces nest)."""
    depth = brackets = 0
    for offset in range(start, len(text)):
        char = text[offset]
        depth += (char == "{") - (char == "}")
        if opening == "[":
            brackets += (char == "[" and depth == 0) - (char == "]" and depth == 0)
            if brackets == 0:
                return offset
        elif depth == 0:
            return offset
    return len(text)


@node  # type: ignore[untyped-decorator]
def _names_et_al(children: Any, context: Any, role: str) -> Text:
    """The people of ``role`` as the .bst joins them: ``A and B``, ``A, B, and C``, and
    ``A et~al.`` / ``A, B, et~al.`` when the list ends in ``others``."""
    persons = list(context["entry"].persons.get(role, ()))
    if not persons:
        raise FieldIsMissing(role, context["entry"])
    style = context["style"]
    cut_short = str(persons[-1]) == "others" and len(persons) > 1
    names = [style.format_name(person, style.abbreviate_names) for person in persons
             if not (cut_short and person is persons[-1])]
    if cut_short:
        return Text(join(sep=", ")[names].format_data(context), "," if len(names) > 1 else "",
                    " et", Symbol("nbsp"), "al.")
    return join(sep=", ", sep2=" and ", last_sep=", and ")[names].format_data(context)


@node  # type: ignore[untyped-decorator]
def _title_case(children: Any, context: Any, name: str) -> Text:
    """A title as the .bst's ``change.case$`` "t" makes it (lower case but the first letter,
    a letter after a colon and a space, and what braces protect)."""
    value = context["entry"].fields.get(name)
    if not value:
        raise FieldIsMissing(name, context["entry"])
    return Text.from_latex(change_case(value, "t"))


#: what the ``bibtex`` writer writes for a backslash or a brace of record text, which pybtex's
#: Python styles would decode and then write back as LaTeX (``\\par``) or lose (braces):
#: they get through as private-use characters, written back as they were
_HELD_THROUGH_PYBTEX: dict[str, str] = {
    "\\textbackslash{}": "\ue000", "\\textbraceleft{}": "\ue001", "\\textbraceright{}": "\ue002"}
_HELD_RE = re.compile("|".join(re.escape(latex) for latex in _HELD_THROUGH_PYBTEX))
_RELEASED = {held: latex for latex, held in _HELD_THROUGH_PYBTEX.items()}
_RELEASED_RE = re.compile("[" + "".join(_RELEASED) + "]")


def python_entries(style: str, bib: str, keys: Sequence[str]) -> list[BibEntry]:
    """The entries of pybtex's Python version of ``style``, as LaTeX."""
    from pybtex.style.template import sentence

    base = find_plugin("pybtex.style.formatting", style)

    class Classic(base):  # type: ignore[misc, valid-type]
        def format_names(self, role: str, as_sentence: bool = True) -> Any:
            return sentence[_names_et_al(role)] if as_sentence else _names_et_al(role)

        def format_title(self, e: Any, which_field: str, as_sentence: bool = True) -> Any:
            return sentence[_title_case(which_field)] if as_sentence else \
                _title_case(which_field)

    held = _RELEASED_RE.search(bib) is None  # (a record's own private-use characters stay)
    if held:
        bib = _HELD_RE.sub(lambda m: _HELD_THROUGH_PYBTEX[m.group()], bib)
    data: BibliographyData = parse_string(bib, "bibtex")
    formatter: BaseStyle = Classic()
    entries = formatter.sort([data.entries[key] for key in keys if key in data.entries])
    labelled = zip(formatter.format_labels(entries), entries)
    backend = find_plugin("pybtex.backends", "latex")()
    written: list[BibEntry] = []
    for label, entry in labelled:
        latex = _format_entry(formatter, label, entry).text.render(backend)
        if held:
            latex = _RELEASED_RE.sub(lambda m: _RELEASED[m.group()], latex)
        written.append(BibEntry(entry.key, label if style == "alpha" else None, latex))
    return written


def _format_entry(formatter: BaseStyle, label: str, entry: Any) -> Any:
    """One formatted entry; an entry of a type the style does not know, or that lacks a
    field its type requires, is formatted as ``misc``, where every field is optional (as
    bibtex's ``default.type``; it warns and goes on)."""
    try:
        if hasattr(formatter, f"get_{entry.type}_template"):
            return formatter.format_entry(label, entry)
    except FieldIsMissing:
        pass
    fallback = type(entry)("misc", fields=entry.fields, persons=entry.persons)
    fallback.key = entry.key
    return formatter.format_entry(label, fallback)


# -- LaTeX -> the output ---------------------------------------------------------------------
def _owner_names(style: str, item: Item, persons: Mapping[str, Sequence[Person]],
                 highlight: Callable[[Mapping[str, Any]], bool] | None) -> list[str]:
    """The owner's names in ``item`` as the style writes them (``Zhengping Qian``)."""
    if highlight is None:
        return []
    found = []
    for variable, field in ROLES:
        people = persons.get(field, ())
        for person, name in zip(people, item.get(variable) or ()):
            if isinstance(name, Mapping) and highlight(name):
                found.append(format_name(str(person), NAME_FORMATS.get(style,
                                                                         NAME_FORMATS["plain"])))
    return found


def _bold(latex: str, names: Sequence[str]) -> str:
    if not names:
        return latex
    pattern = "|".join(re.escape(name) for name in sorted(set(names), key=len, reverse=True))
    return re.sub(pattern, lambda m: "\\textbf{" + m.group(0) + "}", latex)


#: rich text style -> the formatting the CSL engine's writers know it by
STYLE_FORMATS: dict[str, dict[str, str]] = {
    Style.ITALIC: {"font-style": "italic"}, Style.BOLD: {"font-weight": "bold"},
    Style.SMALL_CAPS: {"font-variant": "small-caps"}, Style.SUPERSCRIPT: {"vertical-align": "sup"},
    Style.SUBSCRIPT: {"vertical-align": "sub"}}


def _node(inline: Inline, links: bool) -> Node:
    """One inline of rich text as a node of the CSL engine's writers (text is only text: no
    quotation or typography rule of CSL values applies to a finished entry); with ``links``,
    a web address (``\\url``, ``\\href``) is a link, else its text."""
    if isinstance(inline, str):
        return inline
    if isinstance(inline, Styled):
        return Rich([_node(item, links) for item in inline.content],
                    STYLE_FORMATS.get(inline.style))
    if links and isinstance(inline, Link) and SAFE_LINK_RE.match(inline.address):
        return Rich([_node(item, links) for item in inline.content], link=inline.address)
    if links and isinstance(inline, Url) and SAFE_LINK_RE.match(inline.address):
        return Rich([inline.address], link=inline.address)
    return plain(rich([inline]))


def render(latex: str, output: str, links: bool = False) -> str:
    """LaTeX of a .bbl as ``output`` (text, html, markdown or latex), record text escaped;
    ties (``~``) are spaces but in LaTeX; ``links``: web addresses as links."""
    text = decode_latex(latex)
    if output != "latex":
        text = map_text(text, lambda part: part.replace("\u00a0", " "))
    node = Rich([_node(inline, links) for inline in inlines(text)])
    return serialize(node, FORMATS[output], QuoteMarks(), False).strip()


def _plain_latex(latex: str, labels: Mapping[str, str], noops: Sequence[str]) -> str:
    """A ``\\bibitem``'s LaTeX as the document shows it: blocks run on, ``\\cite`` is the
    cited label, ``\\etalchar`` a superscript, commands the .bib's preamble defines to print
    nothing (``\\noopsort``) gone."""
    text = _SPACE.sub(" ", latex.replace("\\newblock ", "").replace("\\newblock", ""))
    text = _CITE.sub(lambda m: "[" + ", ".join(labels.get(key.strip(), key.strip())
                                               for key in m["keys"].split(",")) + "]", text)
    text = text.replace("\\etalchar", "\\textsuperscript")
    for name in noops:
        text = _drop_command(text, name)
    return text


def _drop_command(text: str, name: str) -> str:
    """``text`` without ``\\name{...}`` (argument and all)."""
    out = []
    position = 0
    for match in re.finditer(rf"\\{name}(?![A-Za-z])\s*(?=\{{)", text):
        if match.start() < position:
            continue
        end = _closing(text, match.end(), "{", "}")
        out.append(text[position:match.start()])
        position = end + 1
    return "".join(out) + text[position:]


# -- the processor ---------------------------------------------------------------------------
@dataclass(slots=True)
class PybtexProcessor:
    """The formatted bibliography of ``items`` in BibTeX style ``style`` (e.g. ``plain``)."""

    entries: list[tuple[str, str, str]]  #: (item id, label, formatted entry) in style order

    @classmethod
    def create(cls, style: str, items: Sequence[Item], request: FormatRequest) -> PybtexProcessor:
        bib, ids = bib_text(items)
        source = bst_source(style)
        if source is not None:
            preamble, entries = parse_bbl(run_bst(source, bib, list(ids)))
        else:
            preamble, entries = "", python_entries(style, bib, list(ids))
        return cls._of(style, preamble, entries, items, request, bib, ids)

    @classmethod
    def from_bbl(cls, style: str, bbl: str, items: Sequence[Item],
                 request: FormatRequest) -> PybtexProcessor:
        """The bibliography a .bbl of ``style`` holds for ``items`` (entries by their keys):
        a .bbl bibtex itself wrote reads like the one refbridge's run of the .bst writes."""
        return cls._of(style, *parse_bbl(bbl), items, request, *bib_text(items))

    @classmethod
    def _of(cls, style: str, preamble: str, entries: Sequence[BibEntry], items: Sequence[Item],
            request: FormatRequest, bib: str, ids: Mapping[str, str]) -> PybtexProcessor:
        labels = {entry.key: entry.label if entry.label is not None else str(number)
                  for number, entry in enumerate(entries, start=1)}
        noops = [match["name"] for match in _NOOP.finditer(preamble)]
        persons = {key: entry.persons for key, entry in parse_string(bib, "bibtex").entries.items()}
        by_id = {str(item["id"]): item for item in items}
        template = ENTRY_TEMPLATES[request.output]
        formatted = []
        for entry in entries:
            item = by_id[ids.get(entry.key, entry.key)]
            owner = _owner_names(style, item, persons.get(entry.key, {}), request.highlight)
            text = _bold(_plain_latex(entry.body, labels, noops), owner)
            label = _plain_latex(labels[entry.key], labels, noops)
            formatted.append((str(item["id"]), render(label, "text"), template.format(
                label=render(label, request.output),
                text=render(text, request.output, request.links))))
        return cls(formatted)

    def bibliography(self) -> list[str]:
        return [text for _, _, text in self.entries]

    def bibliography_ids(self) -> list[str]:
        return [item_id for item_id, _, _ in self.entries]

    def cite(self, cites: Sequence[Mapping[str, Any]]) -> str:
        labels = {item_id: label for item_id, label, _ in self.entries}
        return "[" + ", ".join(labels[str(cite["id"])] for cite in cites) + "]"
