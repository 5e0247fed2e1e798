"""Every payload of the hostile corpus (``hostile_corpus.json``) through every output: each
writer the registry lists (``refbridge formats``: a writer added later is attacked the day it
is added), each ``format --to`` output and each ``cv --to`` output, by one test.

The records come from a CSL-JSON file read by refbridge's reader, as a user's would (a lone
surrogate is replaced there, a NUL refused there). Each output family has its invariant:

- every output: encodes as UTF-8 (no lone surrogate reached it);
- .bib: reads back with refbridge's reader, one entry a record, and holds no LaTeX command
  the same records with harmless text do not (no command from record text);
- line-tagged (RIS, EndNote, MEDLINE): read back, one record a record, with each title, also
  when every line break ``str.splitlines`` knows ends a line;
- data (CSL-JSON, Hayagriva YAML, CSV, the XML formats): parse, read back one record a record
  with each title; CSV: no cell a spreadsheet would run as a formula;
- HTML: no element or attribute more than the harmless records' page has (so no script,
  image or frame from record text), no event attribute, no link but http(s) (parsed with
  html5lib);
- Markdown: rendered by markdown-it, no block or inline kind the harmless records' output
  does not have, and no raw HTML;
- LaTeX: no command the harmless records' output does not have; RTF: only its own control
  words, groups balanced; text: every title shown; DOCX: a document whose relations link
  no script.
"""

from __future__ import annotations

import csv
import io
import json
import re
import string
import zipfile
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from fuzz.hostile import BREAKOUT_URLS, HOSTILE_DOIS, HOSTILE_URLS, PAYLOADS
from fuzz.safety import (
    assert_no_dangerous_tex,
    assert_safe_html,
    html_tree,
    markdown_html,
    rtf_text,
    tex_commands,
)

from refbridge.csl.formats import FORMATS
from refbridge.cv import WRITERS as CV_WRITERS
from refbridge.cv import CvOptions, render_cv
from refbridge.errors import Diagnostics
from refbridge.formatting import format_bibliography
from refbridge.latex.encode import encode_latex
from refbridge.model import Record
from refbridge.pipeline import with_keys
from refbridge.registry import WriteOptions, get_reader, get_writer, reader_names, writer_names
from refbridge.richtext import plain
from refbridge.styles.definitions import OUTPUTS

TEXTS = [text for texts in PAYLOADS.values() for text in texts]
ADDRESSES = HOSTILE_URLS + BREAKOUT_URLS


def csl_json(texts: list[str]) -> str:
    """A CSL-JSON file of one item a text: the text in its title, journal, abstract and an
    author's family name (JSON escapes: a lone surrogate stays one)."""
    return json.dumps([
        {"id": f"p{i}", "type": "article-journal", "title": text,
         "container-title": text, "abstract": text,
         "author": [{"family": f"{text} Doe", "given": "Jane"}, {"family": "Qian",
                                                                  "given": "Zhengping"}],
         "URL": ADDRESSES[i % len(ADDRESSES)], "DOI": HOSTILE_DOIS[i % len(HOSTILE_DOIS)],
         "issued": {"date-parts": [[2000 + i % 25]]}}
        for i, text in enumerate(texts)])


def read_csl_json(text: str) -> tuple[list[Record], Diagnostics]:
    diagnostics = Diagnostics()
    records = list(get_reader("csl-json").read(io.StringIO(text), "hostile.json", diagnostics))
    return with_keys(records, WriteOptions()), diagnostics


HOSTILE, READ = read_csl_json(csl_json(TEXTS))
HARMLESS, _ = read_csl_json(csl_json([f"Plain text {i}" for i in range(len(TEXTS))]))


def test_the_reader_keeps_every_record_but_those_holding_a_nul() -> None:
    refused = [t for t in TEXTS if "\x00" in t]
    assert len(HOSTILE) == len(TEXTS) - len(refused) > 0
    assert READ.skipped == len(refused)
    assert READ.changed == 4 * 2  # two lone surrogates, in four fields each


# -- outputs --------------------------------------------------------------------------------
def write(name: str, records: list[Record]) -> str:
    out = io.StringIO()
    get_writer(name).write(records, out, WriteOptions())
    return out.getvalue()


def formatted(output: str, records: list[Record]) -> str:
    return format_bibliography(records, "apa", output)


def cv(output: str, records: list[Record]) -> str | bytes:
    options = CvOptions(owners=("Zhengping Qian",), abstracts=True, merge=False)
    content, _, _ = render_cv(records, options, output)
    return content


#: every output: (id, what makes it of records, its family)
OUTPUT_FAMILIES: dict[str, str] = {
    "bibtex": "bib", "biblatex": "bib", "ris": "tagged", "endnote": "tagged",
    "nbib": "tagged", "csl-json": "data", "hayagriva": "data", "csv": "csv", "mods": "xml",
    "endnote-xml": "xml", "word-xml": "xml", "zotero": "xml"}
OUTPUTS_RUN: list[tuple[str, Callable[[list[Record]], str | bytes], str]] = [
    *[(f"convert:{name}", lambda records, name=name: write(name, records),
       OUTPUT_FAMILIES.get(name, "unclassified")) for name in writer_names()],
    *[(f"format:{output}", lambda records, output=output: formatted(output, records), output)
      for output in OUTPUTS],
    *[(f"cv:{output}", lambda records, output=output: cv(output, records),
       {"html-interactive": "html"}.get(output, output)) for output in CV_WRITERS],
]


# -- invariants, by family ------------------------------------------------------------------
def _titles(records: list[Record]) -> list[str]:
    return [plain(record.fields.get("title", "")) for record in records]


def _read_back(name: str, text: str) -> list[Record]:
    assert name in reader_names(), f"writer {name} has no reader to read back with"
    diagnostics = Diagnostics()
    back = list(get_reader(name).read(io.StringIO(text), f"out.{name}", diagnostics))
    assert diagnostics.errors == []
    return back


#: the commands LaTeX writers print one character of record text with (``\\textbackslash``,
#: ``\\textbraceleft``, ``{\\"u}``): every ASCII punctuation mark and the payloads' other
#: characters, through the .bib encoder and the formatter's LaTeX escaping
_CHARACTERS = string.punctuation + "".join(sorted({c for t in TEXTS for c in t if ord(c) > 127}
                                                  - set(string.whitespace))) + "“”‘’–—"
CHARACTER_COMMANDS = tex_commands(encode_latex(_CHARACTERS)) | tex_commands(
    FORMATS["latex"].escape(_CHARACTERS))


def assert_no_command_from_record_text(text: str, harmless: str) -> None:
    assert tex_commands(text) - tex_commands(harmless) - CHARACTER_COMMANDS == set()
    assert_no_dangerous_tex(text)


def check_bib(name: str, text: str, harmless: str) -> None:
    assert len(_read_back(name, text)) == len(HOSTILE)
    assert_no_command_from_record_text(text, harmless)


def check_tagged(name: str, text: str, harmless: str) -> None:
    for lines in (text, "\n".join(text.splitlines()) + "\n"):  # every break a line end
        assert _titles(_read_back(name, lines)) == _titles(HOSTILE)


def check_data(name: str, text: str, harmless: str) -> None:
    assert _titles(_read_back(name, text)) == _titles(HOSTILE)


def check_csv(name: str, text: str, harmless: str) -> None:
    # a CSV may hold a value's line breaks as LF (a spreadsheet reads a quoted CR as one)
    def lf(records: list[Record]) -> list[str]:
        return [re.sub(r"\r\n?", "\n", title) for title in _titles(records)]

    assert lf(_read_back(name, text)) == lf(HOSTILE)
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")] == []


def check_xml(name: str, text: str, harmless: str) -> None:
    from lxml import etree

    etree.fromstring(text.encode("utf-8"))
    assert len(_read_back(name, text)) == len(HOSTILE)


def _elements(markup: str) -> Counter[tuple[str, tuple[str, ...]]]:
    """Each element (name and attribute names) of ``markup``, counted, after checking that
    none has an event attribute or a link but http(s)."""
    elements = list(html_tree(markup).iter())  # type: ignore[attr-defined]
    for element in elements:
        assert not [name for name in element.attrib if name.lower().startswith("on")]
        for attribute in ("href", "src"):
            link = element.get(attribute)
            assert link is None or link.startswith(("https://", "http://", "#")), link
    return Counter((str(e.tag), tuple(sorted(e.attrib))) for e in elements)


def check_html(name: str, text: str, harmless: str) -> None:
    assert _elements(text) - _elements(harmless) == Counter()


def _markdown_kinds(markdown: str) -> set[str]:
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(markdown)
    inline = [child.type for token in tokens for child in token.children or ()]
    return {token.type for token in tokens} | set(inline)


def check_markdown(name: str, text: str, harmless: str) -> None:
    kinds = _markdown_kinds(text)
    assert kinds - _markdown_kinds(harmless) == set()
    assert {"html_block", "html_inline"} & kinds == set()
    assert_safe_html(markdown_html(text))


def check_latex(name: str, text: str, harmless: str) -> None:
    assert_no_command_from_record_text(text, harmless)


def check_rtf(name: str, text: str, harmless: str) -> None:
    rtf_text(text)


_QUOTES = str.maketrans("“”‘’", "\"\"''")


def _words(text: str) -> str:
    return " ".join(text.translate(_QUOTES).split())


def check_text(name: str, text: str, harmless: str) -> None:
    shown = _words(text)
    assert [t for t in _titles(HOSTILE) if _words(t)[:40] not in shown] == []


def check_docx(name: str, content: bytes, harmless: bytes) -> None:
    from lxml import etree

    with zipfile.ZipFile(io.BytesIO(content)) as docx:
        etree.fromstring(docx.read("word/document.xml"))
        relations = docx.read("word/_rels/document.xml.rels").decode()
    assert "javascript:" not in relations.lower() and "file:" not in relations.lower()


CHECKS: dict[str, Callable[[str, Any, Any], None]] = {
    "bib": check_bib, "tagged": check_tagged, "data": check_data, "csv": check_csv,
    "xml": check_xml, "html": check_html, "markdown": check_markdown, "latex": check_latex,
    "rtf": check_rtf, "text": check_text, "docx": check_docx}


@pytest.mark.parametrize(("make", "family"), [(make, family) for _, make, family in OUTPUTS_RUN],
                         ids=[name for name, _, _ in OUTPUTS_RUN])
def test_every_output_holds_hostile_text_as_text(
        make: Callable[[list[Record]], str | bytes], family: str,
        request: pytest.FixtureRequest) -> None:
    assert family in CHECKS, f"no invariant for {request.node.callspec.id}: classify it"
    written = make(HOSTILE)
    if isinstance(written, str):
        written.encode("utf-8")  # no lone surrogate reached an output
    name = request.node.callspec.id.partition(":")[2]
    CHECKS[family](name, written, make(HARMLESS))
