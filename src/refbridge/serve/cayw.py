"""Better BibTeX's cite-as-you-write formats: a pick (the citations the picker returned) as
the text an editor inserts, for each ``format`` of ``GET /better-bibtex/cayw`` and its options
(``command``, ``brackets``, locator labels, ``style``/``locale``/``contentType`` of the
formatted ones, ``translator`` of ``translate``), as Better BibTeX's documentation and
formatter describe them (``content/cayw/formatter.ts``).

The formats are a table (``FORMATTERS``), each a function of the pick and the request's options.
This module must never read a library nor format a bibliography itself: formatted citations
and bibliographies come from the CSL engine through ``refbridge.formatting`` and
``refbridge.styles``, exports from the writers through the pipeline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from refbridge.errors import RefbridgeError
from refbridge.model import Record
from refbridge.richtext import plain
from refbridge.serve.displayoptions import NO_OPTIONS, DisplayOptions, applied, query_options
from refbridge.serve.library import Library, written, year_of

#: The short label of each locator label (Better BibTeX's defaults; a request's own
#: ``label=abbreviation`` parameters override them).
SHORT_LABELS: dict[str, str] = {
    "article": "art.", "chapter": "ch.", "subchapter": "subch.", "column": "col.",
    "figure": "fig.", "line": "l.", "note": "n.", "issue": "no.", "opus": "op.",
    "page": "p.", "paragraph": "para.", "subparagraph": "subpara.", "part": "pt.",
    "rule": "r.", "section": "sec.", "subsection": "subsec.", "Section": "Sec.",
    "sub-verbo": "sv.", "schedule": "sch.", "title": "tit.", "verse": "vrs.",
    "volume": "vol.",
}
#: The Zotero style address a bare style id is given under (``style=apa``).
ZOTERO_STYLES = "http://www.zotero.org/styles/"
#: What a citation key may be for pandoc to take it bare (``@key``), else ``@{key}``.
_PANDOC_BARE = re.compile(r"[a-zA-Z0-9_](?:[a-zA-Z0-9_]*[:.#$%&\-+?<>~/]?[a-zA-Z0-9_]+)*")
_TYPST_BARE = re.compile(r"[a-z0-9_\-:.]+", re.IGNORECASE)


class CaywError(RefbridgeError):
    """A request the formats cannot answer (an unknown format, style or translator)."""


@dataclass(frozen=True, slots=True)
class Citation:
    """One picked citation: the citation key and what the picker added to it."""

    key: str
    locator: str = ""
    label: str = ""
    prefix: str = ""
    suffix: str = ""
    suppress_author: bool = False

    @classmethod
    def of(cls, data: Mapping[str, object]) -> Citation:
        """A citation from the picker's JSON (``key``, ``locator``, ``label``, ``prefix``,
        ``suffix``, ``suppressAuthor``); a locator without a label is a page, as in Zotero."""
        key = data.get("key")
        if not isinstance(key, str) or not key:
            raise CaywError("a picked citation has no key")
        texts = {name: value if isinstance(value := data.get(name), str) else ""
                 for name in ("locator", "label", "prefix", "suffix")}
        return cls(key, texts["locator"], texts["label"] or ("page" if texts["locator"] else ""),
                   texts["prefix"], texts["suffix"], data.get("suppressAuthor") is True)


Options = Mapping[str, str]
Formatter = Callable[[Sequence[Citation], Options, Library], str]


def short_label(label: str, options: Options, defaults: Mapping[str, str] = SHORT_LABELS
                ) -> str:
    """The short label of ``label``: the request's own (``page=``) first, then the defaults."""
    return options[label] if label in options else defaults.get(label, label)


def _latex_note(citation: Citation, options: Options) -> str:
    """A citation's optional arguments and key, as ``\\cite[see][p. 5]{key}`` takes them."""
    label = short_label(citation.label, options, {**SHORT_LABELS, "page": ""})
    label = f"{label} " if label else ""
    notes = f"[{citation.prefix}]" if citation.prefix else ""
    if citation.locator and citation.suffix:
        notes += f"[{label}{citation.locator}, {citation.suffix}]"
    elif citation.locator:
        notes += f"[{label}{citation.locator}]"
    elif citation.suffix:
        notes += f"[{citation.suffix}]"
    elif citation.prefix:
        notes += "[]"
    return notes + "{" + citation.key + "}"


def natbib(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """``\\cite{a,b}``: one command when no citation has notes and all or none suppress
    the author (``\\citeyear``), else one command per citation."""
    command = options.get("command") or "cite"
    plain = not any(c.prefix or c.suffix or c.locator for c in citations)
    suppressed = {c.suppress_author for c in citations}
    if len(citations) > 1 and plain and len(suppressed) == 1:
        name = "citeyear" if citations[0].suppress_author else command
        return f"\\{name}{{{','.join(c.key for c in citations)}}}"
    return "".join(f"\\{'citeyear' if c.suppress_author else command}{_latex_note(c, options)}"
                   for c in citations)


def _natbib_as(command: str) -> Formatter:
    return lambda citations, options, library: natbib(
        citations, {"command": command, **options}, library)


def biblatex(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """``\\autocite{a,b}``; the starred command for one citation without its author (when the
    command is ``cite``, ``autocite`` or ``parencite``); ``\\autocites[..]{a}[..]{b}`` when
    several citations have notes."""
    command = options.get("command") or "autocite"
    if len(citations) == 1:
        citation = citations[0]
        star = "*" if citation.suppress_author and command in (
            "cite", "autocite", "parencite") else ""
        return f"\\{command}{star}{_latex_note(citation, options)}"
    notes = "".join(_latex_note(c, options) for c in citations)
    if "[" in notes:
        return f"\\{command if command.endswith('s') else command + 's'}{notes}"
    return f"\\{command}{notes.replace('}{', ',')}"


def mmd(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """MultiMarkdown: ``[#key][]``, or ``[prefix][#key]``."""
    return "".join(f"[{c.prefix}][#{c.key}]" if c.prefix else f"[#{c.key}][]"
                   for c in citations)


def pandoc(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """Pandoc: ``@a; @b``, in brackets with ``brackets``; ``-@key`` without the author."""
    cites = []
    for c in citations:
        cite = f"{c.prefix} " if c.prefix else ""
        cite += "-" if c.suppress_author else ""
        cite += f"@{c.key}" if _PANDOC_BARE.fullmatch(c.key) else f"@{{{c.key}}}"
        if c.locator:
            locator, label = c.locator, short_label(c.label, options)
            if label or not locator.isdigit():
                locator = re.sub(r"\s+", " ", f"{label} {locator}", count=1)
                if options.get("brackets"):
                    locator = f"{{{locator}}}"
            cite += f", {locator}"
        cite += f" {c.suffix}" if c.suffix else ""
        cites.append(cite)
    joined = "; ".join(cites)
    return f"[{joined}]" if options.get("brackets") else joined


def typst(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """Typst: ``#cite(<key>)``, ``#cite(label("odd key"))``, with the locator as supplement."""
    out = []
    for c in citations:
        cited = f"<{c.key}>" if _TYPST_BARE.fullmatch(c.key) else f"label({json.dumps(c.key)})"
        if c.locator:
            cited += "," + json.dumps(f"{short_label(c.label, options)} {c.locator}")
        if c.suppress_author:
            cited += ',"year"' if c.locator else ', form: "year"'
        out.append(f"#cite({cited})")
    return "".join(out)


def jekyll(citations: Sequence[Citation], options: Options, library: Library) -> str:
    return "".join(f"{{% cite {c.key} %}}" for c in citations)


def citation_links(citations: Sequence[Citation], options: Options, library: Library) -> str:
    return "\n".join(f"cites: {c.key}" for c in citations)


def asciidoctor(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """asciidoctor-bibtex: ``cite:[a, b(p. 5)]``."""
    cites = []
    for c in citations:
        label = short_label(c.label, options, {**SHORT_LABELS, "page": ""})
        cites.append(f"{c.key}({f'{label} {c.locator}'.strip()})" if c.locator else c.key)
    return f"{options.get('cite') or 'cite'}:[{', '.join(cites)}]"


def _record(citation: Citation, library: Library) -> Record:
    entry = library.by_key(citation.key)
    if entry is None:
        raise CaywError(f"no record has the citation key {citation.key!r}")
    return entry.record


def _scannable_label(record: Record) -> str:
    """The ODF scanner's label: ``Family, Year``, ``Family, & Other, Year``, ``Family, et
    al., Year``; ``anon., Title,`` for a work without authors."""
    creators = [n.family or n.literal or "" for n in record.names.get(
        "author", record.names.get("editor", ()))]
    if creators:
        parts = [f"{creators[0]},"]
        if len(creators) > 2:
            parts.append("et al.,")
        elif len(creators) == 2:
            parts.append(f"& {creators[1]},")
    else:
        parts = ["anon.,", f"{plain(record.fields.get('title', '')) or '(no title)'},"]
    return " ".join([*parts, year_of(record) or "no date"])


def scannable_cite(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """The ODF scanner's markers: ``{ prefix | label | locator | suffix | zu:0:ID }``."""
    markers = []
    for c in citations:
        record = _record(c, library)
        locator = f"{short_label(c.label, options)} {c.locator}".strip() if c.locator else ""
        parts = [c.prefix, ("-" if c.suppress_author else "") + _scannable_label(record),
                 locator, c.suffix, f"zu:0:{record.id}"]
        markers.append("{ " + re.sub(" +", " ", " | ".join(parts)).strip() + " }")
    return "".join(markers)


def style_id(name: str | None) -> str:
    """A style as refbridge names it: Zotero's address of a style is its id (``apa``)."""
    return (name or "apa").removeprefix(ZOTERO_STYLES)


def _output(options: Options) -> str:
    content = options.get("contentType") or "text"
    if content not in ("text", "html"):
        raise CaywError(f"contentType {content!r}: choose text or html")
    return content


def _spaced(affix: str, after: bool) -> str | None:
    """A prefix with a space after it, a suffix with one before it, unless it has one, as
    citeproc-js spaces Zotero's affixes."""
    if not affix:
        return None
    if after:
        return affix if affix[-1].isspace() else affix + " "
    return affix if affix[0].isspace() or not affix[0].isalnum() else " " + affix


def formatted_citation(citations: Sequence[Citation], options: Options,
                       library: Library) -> str:
    """The pick as one citation of the style (``style``, ``locale``, ``contentType``)."""
    from refbridge.formatting import as_items
    from refbridge.styles import FormatRequest, resolve_style

    items = as_items(_record(c, library) for c in citations)
    processor = resolve_style(style_id(options.get("style"))).make_processor(
        items, FormatRequest(_output(options), options.get("locale") or None))
    cites = [{"id": item["id"], "locator": c.locator or None, "label": c.label or None,
              "prefix": _spaced(c.prefix, after=True), "suffix": _spaced(c.suffix, after=False),
              "suppress-author": c.suppress_author}
             for c, item in zip(citations, items)]
    return str(processor.cite([{k: v for k, v in cite.items() if v not in (None, False)}
                               for cite in cites]))


def formatted_bibliography(citations: Sequence[Citation], options: Options,
                           library: Library) -> str:
    """The picked works' bibliography in the style (``style``, ``locale``, ``contentType``)."""
    from refbridge.formatting import format_bibliography

    return format_bibliography([_record(c, library) for c in citations],
                               style_id(options.get("style")), _output(options),
                               options.get("locale") or None)


#: Better BibTeX's translator names (stripped of spaces and "better", lower-case), their
#: shortcuts and their ids -> the writer of refbridge that writes that format.
TRANSLATORS: dict[str, str] = {
    "biblatex": "biblatex", "bibtex": "bibtex", "csljson": "csl-json",
    "cslyaml": "hayagriva", "json": "csl-json", "ris": "ris", "bib": "biblatex",
    "yaml": "hayagriva", "hayagriva": "hayagriva",
    "f895aa0d-f28e-47fe-b247-2ea77c6ed583": "biblatex",
    "ca65189f-8815-4afe-8c8b-8c7c15f0edca": "bibtex",
    "f4b52ab0-f878-4556-85a0-c7aeedd09dfc": "csl-json",
    "0f238e69-043e-4882-93bf-342de007de19": "hayagriva",
    "8a2f0d30-0b73-4f2c-8b5b-7c1a9e3f2d4e": "hayagriva",
}


def export(records: Sequence[Record], translator: str,
           display: DisplayOptions = NO_OPTIONS) -> str:
    """The records as the writer of Better BibTeX's ``translator`` writes them, with the
    display options ``display`` applied."""
    writer = writer_of(translator)
    changed, options = applied(records, display, writer)
    return written(changed, writer, options)


def writer_of(translator: str) -> str:
    """The writer of Better BibTeX's ``translator`` (``Better BibLaTeX``, ``biblatex``...)."""
    name = TRANSLATORS.get(re.sub(r"\s", "", translator).lower().replace("better", ""))
    if name is None:
        raise CaywError(f"unknown translator {translator!r} (known: "
                        f"{', '.join(sorted(TRANSLATORS))})")
    return name


def translate(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """The picked records exported (``translator``, default ``biblatex``; the display options
    ``exportNotes`` and ``useJournalAbbreviation``)."""
    return export([_record(c, library) for c in citations],
                  options.get("translator") or "biblatex", query_options(options))


def _json_of(citation: Citation) -> dict[str, object]:
    return {"citationKey": citation.key, "locator": citation.locator, "label": citation.label,
            "prefix": citation.prefix, "suffix": citation.suffix,
            "suppressAuthor": citation.suppress_author}


def json_pick(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """The pick as JSON, each citation with its record as CSL-JSON (``item``)."""
    from refbridge.formats.csljson import to_csl

    return json.dumps([{**_json_of(c), "item": to_csl(_record(c, library))}
                       for c in citations], ensure_ascii=False)


def pick_only(citations: Sequence[Citation], options: Options, library: Library) -> str:
    return json.dumps([_json_of(c) for c in citations], ensure_ascii=False)


def pick_results(citations: Sequence[Citation], library: Library) -> list[dict[str, object]]:
    """The pick as a POST answers it: Zotero's citation, one for the whole pick (none for an
    empty pick), its ``citationItems`` each the record's id, its CSL-JSON (``itemData``) and
    what the picker added, as citeproc-js names them."""
    from refbridge.formats.csljson import to_csl

    if not citations:
        return []
    items = []
    for c in citations:
        record = _record(c, library)
        added = {"locator": c.locator, "label": c.label, "prefix": c.prefix,
                 "suffix": c.suffix, "suppress-author": c.suppress_author}
        items.append({"id": record.id, "itemData": to_csl(record),
                      **{name: value for name, value in added.items() if value}})
    return [{"citationItems": items}]


FORMATTERS: dict[str, Formatter] = {
    "latex": natbib, "natbib": natbib, "cite": natbib,
    "citep": _natbib_as("citep"), "citet": _natbib_as("citet"),
    "biblatex": biblatex, "mmd": mmd, "pandoc": pandoc, "typst": typst, "jekyll": jekyll,
    "citationLinks": citation_links, "asciidoctor-bibtex": asciidoctor,
    "scannable-cite": scannable_cite, "formatted-citation": formatted_citation,
    "formatted-bibliography": formatted_bibliography, "translate": translate,
    "json": json_pick, "pick": pick_only,
}


def formatter(name: str | None) -> Formatter:
    """The formatter of ``format`` (``latex`` when none is asked for)."""
    found = FORMATTERS.get(name or "latex")
    if found is None:
        raise CaywError(f"No such formatter {json.dumps(name)}")
    return found


def check_request(options: Options) -> None:
    """Refuse a request whose format, style or translator is unknown, before anyone picks."""
    name = options.get("format") or "latex"
    formatter(name)
    if name in ("formatted-citation", "formatted-bibliography"):
        from refbridge.styles import resolve_style

        _output(options)
        resolve_style(style_id(options.get("style")))
    elif name == "translate":
        writer_of(options.get("translator") or "biblatex")


def format_pick(citations: Sequence[Citation], options: Options, library: Library) -> str:
    """The text the editor inserts for the pick ('' for an empty pick, as Better BibTeX)."""
    chosen = formatter(options.get("format"))
    return chosen(citations, options, library) if citations else ""
