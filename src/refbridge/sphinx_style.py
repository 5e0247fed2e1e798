"""Any CSL style in Sphinx: a pybtex formatting style that renders through refbridge's engine.

sphinxcontrib-bibtex formats bibliographies with pybtex formatting styles, found by name
(``bibtex_default_style``, a bibliography's ``:style:``). refbridge registers ``refbridge-apa``,
``refbridge-chicago-author-date`` and ``refbridge-ieee`` as pybtex entry points, and a generic
``refbridge`` style whose CSL style (any id, alias or ``.csl`` path) and locale come from
``conf.py`` when this module is listed among the Sphinx extensions::

    extensions = ["sphinxcontrib.bibtex", "refbridge.sphinx_style"]
    bibtex_default_style = "refbridge"
    refbridge_csl_style = "harvard-cite-them-right"
    refbridge_csl_locale = "en-GB"

The entries pybtex parsed become .bib text again (``formats.bibtex.pybtex_text``) that
refbridge's BibTeX reader reads (names, case protection, LaTeX into rich text), the CSL
engine renders the whole bibliography at once (so year suffixes, sorting and numbering are
the style's), and each entry's HTML rendering becomes pybtex rich text: italics, bold,
superscripts and subscripts as pybtex tags, links as ``HRef``, small caps and the other
formatting pybtex has no tag for as ``CslSpan`` (a docutils ``inline`` with a class, which the
extension styles in HTML and LaTeX output). A style that labels its entries itself (IEEE's
``[1]``) leaves the label to Sphinx, which shows pybtex's label (the entry's number). This
module must never format an entry itself, and never let record text become markup: every
piece of text reaches pybtex as text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pybtex.richtext import BaseMultipartText, BaseText, HRef, Tag, Text
from pybtex.style import FormattedEntry
from pybtex.style.formatting import BaseStyle

from refbridge.errors import Diagnostics
from refbridge.model import Record

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

#: Sphinx shows the messages of loggers under ``sphinx.`` as its own warnings.
LOGGER = logging.getLogger("sphinx.refbridge")
#: How the .bib text of the entries is named in messages.
SOURCE = "<sphinxcontrib-bibtex entries>"
#: The name of the generic style, whose CSL style ``refbridge_csl_style`` names.
GENERIC_STYLE = "refbridge"

#: HTML element of refbridge's CSL output -> the pybtex tag it becomes
TAGS: dict[str, str] = {"i": "em", "b": "strong", "sup": "sup", "sub": "sub"}
#: ``style`` of an HTML span of refbridge's CSL output -> the CslSpan feature it becomes
#: (a span not listed, such as ``text-decoration:none``, keeps its text without formatting)
SPAN_FEATURES: dict[str, str] = {
    "font-variant:small-caps;": "small-caps",
    "font-variant:normal;": "normal-variant",
    "font-style:oblique;": "oblique",
    "font-style:normal;": "upright",
    "font-weight:normal;": "normal-weight",
    "font-weight:light;": "light",
    "text-decoration:underline;": "underline",
}


@dataclass(frozen=True, slots=True)
class FeatureMarkup:
    """How one CslSpan feature is shown: CSS in HTML, a command in LaTeX."""

    css: str
    latex: str  #: a LaTeX command taking the text as its argument


FEATURE_MARKUP: dict[str, FeatureMarkup] = {
    "small-caps": FeatureMarkup("font-variant: small-caps", r"\textsc"),
    "normal-variant": FeatureMarkup("font-variant: normal", r"\textup"),
    "oblique": FeatureMarkup("font-style: oblique", r"\textsl"),
    "upright": FeatureMarkup("font-style: normal", r"\textup"),
    "normal-weight": FeatureMarkup("font-weight: normal", r"\textmd"),
    "light": FeatureMarkup("font-weight: lighter", r"\textmd"),
    "underline": FeatureMarkup("text-decoration: underline", r"\underline"),
}
#: The class of a feature's docutils ``inline`` node (and its CSS class and LaTeX role).
CLASS_PREFIX = "csl-"
#: The CSS file the extension adds to HTML output.
CSS_FILE = "refbridge-csl.css"
#: The div of a labelling style's entry that holds its label (Sphinx shows its own).
LABEL_DIV = "csl-left-margin"


class CslSpan(Tag):  # type: ignore[misc]
    """Text with a formatting pybtex has no tag for (``CslSpan("small-caps", "Nature")``): a
    docutils ``inline`` node of class ``csl-small-caps`` in Sphinx, the feature's LaTeX
    command or CSS in pybtex's LaTeX and HTML backends, the text alone elsewhere."""

    def render(self, backend: Any) -> Any:
        text = BaseMultipartText.render(self, backend)
        if not text:
            return text
        markup = FEATURE_MARKUP[self.name]
        writer = next((_SPAN_WRITERS[kind.__module__] for kind in type(backend).__mro__
                       if kind.__module__ in _SPAN_WRITERS), None)
        return writer(self.name, markup, text) if writer else text


def _docutils_span(feature: str, markup: FeatureMarkup, rendered: Any) -> Any:
    from docutils import nodes

    return [nodes.inline("", "", *rendered, classes=[CLASS_PREFIX + feature])]


#: module of a pybtex backend (or of a class it derives from) -> how a CslSpan is written
_SPAN_WRITERS: dict[str, Callable[[str, FeatureMarkup, Any], Any]] = {
    "pybtex_docutils": _docutils_span,
    "pybtex.backends.latex": lambda feature, markup, text: f"{markup.latex}{{{text}}}",
    "pybtex.backends.html": lambda feature, markup, text:
        f'<span style="{markup.css}">{text}</span>',
}


class _RichTextBuilder(HTMLParser):
    """pybtex rich text of one entry of refbridge's CSL HTML output (whose text is escaped
    and whose elements are those of ``refbridge.csl.formats``' HTML table). The white space
    the HTML lays its blocks out with (a line break and indentation) is one space between
    them and nothing around the entry."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[Callable[[list[Any]], BaseText | None], list[Any]]] = [
            (lambda parts: Text(*parts), [])]
        self.started = False
        self.space_pending = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.append((_maker(tag, dict(attrs)), []))

    def handle_endtag(self, tag: str) -> None:
        make, parts = self.open.pop()
        made = make(parts)
        if made is not None:
            self.open[-1][1].append(made)

    def handle_data(self, data: str) -> None:
        if "\n" in data and not data.strip():
            self.space_pending = self.started
            return
        if self.space_pending:
            self.open[-1][1].append(" ")
            self.space_pending = False
        self.open[-1][1].append(data)
        self.started = True

    def result(self) -> Text:
        self.close()
        return Text(*self.open[0][1])


def _maker(tag: str, attrs: dict[str, str | None]) -> Callable[[list[Any]], BaseText | None]:
    """How the content of an element of the CSL HTML output becomes rich text."""
    if tag in TAGS:
        return lambda parts: Tag(TAGS[tag], *parts)
    if tag == "a":
        return lambda parts: HRef(attrs.get("href") or "", *parts)
    if tag == "span" and (attrs.get("style") or "") in SPAN_FEATURES:
        return lambda parts: CslSpan(SPAN_FEATURES[attrs["style"] or ""], *parts)
    if tag == "div" and attrs.get("class") == LABEL_DIV:
        return lambda parts: None
    return lambda parts: Text(*parts)


def rich_text(entry_html: str) -> Text:
    """pybtex rich text of one entry of refbridge's CSL HTML output (its ``csl-entry`` div)."""
    builder = _RichTextBuilder()
    builder.feed(entry_html)
    return builder.result()


def records_of(entries: Iterable[Any]) -> list[Record]:
    """The records of pybtex entries, read by refbridge's BibTeX reader from their .bib text
    (with the entries they cross-reference, which are read for what they pass on)."""
    import io

    from refbridge.formats.bibtex.pybtex_text import pybtex_bib_text
    from refbridge.formats.bibtex.reader import READER

    wanted = {entry.key: entry for entry in entries}
    chosen = dict(wanted)
    for entry in wanted.values():
        parent = entry.fields.get("crossref")
        collection = getattr(entry, "collection", None)
        if parent and collection is not None and parent in collection.entries:
            chosen.setdefault(parent, collection.entries[parent])
    diagnostics = Diagnostics()
    text = pybtex_bib_text(chosen.items())
    records = [record for record in READER.read(io.StringIO(text), SOURCE, diagnostics)
               if record.citation_key in wanted]
    for message in diagnostics.messages:
        LOGGER.warning("%s", message)
    return records


class CslStyle(BaseStyle):  # type: ignore[misc]
    """A pybtex formatting style that renders entries in a CSL style with refbridge's engine.

    ``csl_style``: a style id, alias or ``.csl`` path (``refbridge styles`` lists them);
    ``locale``: e.g. ``de-DE`` (None: the style's); ``style_dirs``: folders of one's own
    styles. pybtex's ``label_style`` gives the labels (default: the entries' numbers in the
    style's order, which are a numeric style's own numbers).
    """

    csl_style: str = "apa"
    locale: str | None = None
    style_dirs: tuple[str | Path, ...] = ()
    default_label_style = "number"

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.sort = self.sort_entries  # BaseStyle sets ``sort`` on the instance
        self._rendered: dict[str, Text] = {}

    def sort_entries(self, entries: Iterable[Any]) -> list[Any]:
        """The entries in the style's bibliography order, all rendered at once (so year
        suffixes, name disambiguation and numbers are the whole bibliography's)."""
        entries = list(entries)
        rendered = self._render(entries)
        self._rendered.update(rendered)
        by_key = {entry.key: entry for entry in entries}
        unrendered = [entry for entry in entries if entry.key not in rendered]
        return [by_key[key] for key in rendered if key in by_key] + unrendered

    def format_entry(self, label: str, entry: Any, bib_data: Any = None) -> FormattedEntry:
        """The entry as the style renders it (alone, if it was not sorted with the others)."""
        text = self._rendered.get(entry.key)
        if text is None:
            text = self._render([entry]).get(entry.key)
        if text is None:  # the reader could not read it: its messages went to the log
            text = Text(entry.key)
        return FormattedEntry(entry.key, text, label)

    def _render(self, entries: Sequence[Any]) -> dict[str, Text]:
        """Rich text of each entry by key, in the style's bibliography order."""
        from refbridge.formatting import as_items, references
        from refbridge.styles import resolve_style
        from refbridge.styles.definitions import FormatRequest

        records = list(references(records_of(entries)))
        items = as_items(records)
        keys = {item["id"]: record.citation_key or item["id"]
                for item, record in zip(items, records)}
        definition = resolve_style(self.csl_style, self.style_dirs)
        processor = definition.make_processor(items, FormatRequest("html", self.locale,
                                                                   links=True))
        return {keys[item_id]: rich_text(html) for item_id, html
                in zip(processor.bibliography_ids(), processor.bibliography())}


class ApaStyle(CslStyle):
    """APA (7th edition) through refbridge: ``refbridge-apa``."""

    csl_style = "apa"


class ChicagoAuthorDateStyle(CslStyle):
    """Chicago Manual of Style, author-date, through refbridge: ``refbridge-chicago-author-date``."""

    csl_style = "chicago-author-date"


class IeeeStyle(CslStyle):
    """IEEE through refbridge: ``refbridge-ieee``."""

    csl_style = "ieee"


# --- the Sphinx extension ---------------------------------------------------------------


def setup(app: Sphinx) -> dict[str, Any]:
    """Sphinx extension: the ``refbridge_csl_style``, ``refbridge_csl_locale`` and
    ``refbridge_style_dirs`` settings of the generic ``refbridge`` style, and the CSS and
    LaTeX definitions of the formatting ``CslSpan`` carries."""
    app.add_config_value("refbridge_csl_style", "apa", "env", [str])
    app.add_config_value("refbridge_csl_locale", None, "env", [str, type(None)])
    app.add_config_value("refbridge_style_dirs", [], "env", [list])
    app.connect("config-inited", _configured)
    app.connect("builder-inited", _add_css)
    app.connect("build-finished", _write_css)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


def _configured(app: Sphinx, config: Config) -> None:
    """Register the generic style with the settings of ``conf.py``; define the spans'
    LaTeX roles."""
    import pybtex.plugin

    folder = Path(app.confdir)
    style_dirs = tuple(folder / directory for directory in config.refbridge_style_dirs)
    named = config.refbridge_csl_style
    csl = str(folder / named) if named.endswith(".csl") else named
    configured = type("ConfiguredCslStyle", (CslStyle,),
                      {"csl_style": csl, "locale": config.refbridge_csl_locale,
                       "style_dirs": style_dirs})
    pybtex.plugin.register_plugin("pybtex.style.formatting", GENERIC_STYLE, configured,
                                  force=True)
    roles = "".join(f"\\expandafter\\def\\csname DUrole{CLASS_PREFIX}{feature}\\endcsname"
                    f"#1{{{markup.latex}{{#1}}}}\n"
                    for feature, markup in FEATURE_MARKUP.items())
    elements = dict(config.latex_elements)
    elements["preamble"] = elements.get("preamble", "") + "\n" + roles
    config.latex_elements = elements


def _add_css(app: Sphinx) -> None:
    if app.builder.format == "html":
        app.add_css_file(CSS_FILE)


def _write_css(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    (static / CSS_FILE).write_text(css(), encoding="utf-8")


def css() -> str:
    """The CSS of the formatting ``CslSpan`` carries in HTML."""
    return "".join(f".{CLASS_PREFIX}{feature} {{ {markup.css}; }}\n"
                   for feature, markup in FEATURE_MARKUP.items())
