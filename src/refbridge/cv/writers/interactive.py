"""The CV as one self-contained interactive HTML page: search, filters, copy buttons.

The page is the HTML writer's page (``refbridge.cv.writers.html``: the full list as plain
HTML, readable with JavaScript off) plus a search box and filters by year, type and co-author,
and per entry buttons that copy its BibTeX and RIS (as refbridge's writers write them) and its
abstract folded in ``<details>``. JavaScript only hides entries and fills the clipboard (with a
``textarea`` fallback where the Clipboard API is refused); the controls and buttons are
``hidden`` until it runs. No external asset: the style and script are inline. What the script
needs of each entry is JSON in a ``<script type="application/json">`` whose ``<``, ``>``, ``&``,
braces and line separators are written as ``\\u`` escapes, so record text can neither close the
script nor give a Jekyll or Hugo site template syntax; the script itself has none. The last
copied text is kept in ``window.refbridgeCv.lastCopied`` (for tests and user scripts). This
module must never emit record text unescaped.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from html import escape

from refbridge.cv.document import CvDocument, CvEntry
from refbridge.cv.owner import OwnerMatcher, csl_name
from refbridge.cv.parts import UNDATED
from refbridge.cv.select import CvOptionError, searchable_text
from refbridge.cv.types import PUBLICATION_KINDS, kind_of
from refbridge.cv.writers.html import (
    TEMPLATE_BRACES,
    abstract_html,
    heading_lines,
    links_html,
    page,
    section_lines,
)
from refbridge.model import Record
from refbridge.pipeline import record_texts

#: the copy buttons: format the writer writes, button label
COPY_FORMATS: tuple[tuple[str, str], ...] = (("bibtex", "BibTeX"), ("ris", "RIS"))
#: characters a JSON text inside a <script> must not hold as they are
_SCRIPT_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                                 "\u2028": "\\u2028", "\u2029": "\\u2029"})
#: braces inside JSON strings, which a Jekyll or Hugo site would take for template syntax
_STRING_BRACES = str.maketrans({"{": "\\u007b", "}": "\\u007d"})
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')

STYLE = """\
[hidden] { display: none !important; }
.cv-controls { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center;
               margin: 0 0 1.5rem; padding: .75rem; background: #f0f3f7; border-radius: .4rem; }
.cv-controls input { flex: 1 1 14rem; padding: .35rem .5rem; font: inherit; }
.cv-controls select { padding: .3rem; font: inherit; max-width: 14rem; }
.cv-shown { color: #555; font-size: .9em; }
.cv-copy button { font: inherit; font-size: .8em; margin-left: .25rem; padding: 0 .4rem;
                  border: 1px solid #bbb; border-radius: .25rem; background: #fff;
                  color: #1a5490; cursor: pointer; }
.cv-copy button:hover { background: #eef4fb; }
"""

SCRIPT = r"""(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("cv-data").textContent);
  var controls = document.getElementById("cv-controls");
  var search = document.getElementById("cv-search");
  var year = document.getElementById("cv-year");
  var kind = document.getElementById("cv-type");
  var coauthor = document.getElementById("cv-coauthor");
  var shown = document.getElementById("cv-shown");
  var items = Array.prototype.slice.call(document.querySelectorAll("[data-entry]"));
  var groups = Array.prototype.slice.call(document.querySelectorAll(".cv-group"));
  var api = { lastCopied: null };

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function apply() {
    var words = fold(search.value).split(/\s+/).filter(Boolean);
    var count = 0;
    items.forEach(function (item) {
      var entry = data[Number(item.getAttribute("data-entry"))];
      var visible = (!year.value || entry.year === year.value) &&
        (!kind.value || entry.type === kind.value) &&
        (!coauthor.value || entry.coauthors.indexOf(coauthor.value) >= 0) &&
        words.every(function (word) { return entry.search.indexOf(word) >= 0; });
      item.hidden = !visible;
      count += visible ? 1 : 0;
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector("[data-entry]:not([hidden])");
    });
    shown.textContent = count + " of " + items.length + " shown";
  }

  function copyWithTextarea(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    document.body.removeChild(area);
    return copied;
  }

  function copyText(index, format) {
    return data[index][format];
  }

  function copy(button) {
    var item = button.closest("[data-entry]");
    var text = copyText(Number(item.getAttribute("data-entry")), button.getAttribute("data-copy"));
    var label = button.textContent;
    api.lastCopied = text;
    function said(copied) {
      button.textContent = copied ? "Copied" : "Press Ctrl+C";
      window.setTimeout(function () { button.textContent = label; }, 1500);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { said(true); },
                                               function () { said(copyWithTextarea(text)); });
    } else {
      said(copyWithTextarea(text));
    }
  }

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () { copy(button); });
  });
  document.querySelectorAll(".cv-copy").forEach(function (span) { span.hidden = false; });
  [search, year, kind, coauthor].forEach(function (control) {
    control.addEventListener("input", apply);
    control.addEventListener("change", apply);
  });
  controls.addEventListener("submit", function (event) { event.preventDefault(); });
  controls.hidden = false;
  api.apply = apply;
  api.copy = copy;
  api.copyText = copyText;
  window.refbridgeCv = api;
  apply();
})();
"""


def _bibtex_texts(records: list[Record]) -> list[str]:
    """Each record's .bib entry, without its library's text around it."""
    from refbridge.formats.bibtex.writer import entry_alone  # as record_texts loads it

    return record_texts([entry_alone(record) for record in records], "bibtex")


def _year(record: Record) -> str:
    return str(record.year) if record.year is not None else UNDATED


def _coauthors(record: Record, owner: OwnerMatcher) -> list[str]:
    return [person.display() for person in record.authors if not owner(csl_name(person))]


def _select(name: str, label: str, everything: str, options: list[tuple[str, str]]) -> str:
    choices = "".join(f'<option value="{escape(value)}">{escape(text)}</option>'
                      for value, text in options)
    return (f'<select id="cv-{name}" aria-label="{escape(label)}">'
            f'<option value="">{escape(everything)}</option>{choices}</select>')


def _controls(entries: list[dict[str, object]]) -> str:
    years = sorted({str(e["year"]) for e in entries} - {UNDATED}, reverse=True)
    if any(e["year"] == UNDATED for e in entries):
        years.append(UNDATED)
    present = {e["type"] for e in entries}
    kinds = [kind.heading for kind in PUBLICATION_KINDS if kind.heading in present]
    counts = Counter(name for e in entries for name in e["coauthors"])  # type: ignore[attr-defined]
    people = sorted(counts, key=lambda name: (-counts[name], name.casefold()))
    return "".join([
        '<form class="cv-controls" id="cv-controls" role="search" hidden>',
        ('<input type="search" id="cv-search" placeholder="Search titles, authors, venues'
        '\u2026" aria-label="Search">'),
        _select("year", "Year", "All years", [(y, y) for y in years]),
        _select("type", "Type", "All types", [(k, k) for k in kinds]),
        _select("coauthor", "Co-author", "All co-authors",
                [(name, f"{name} ({counts[name]})") for name in people]),
        '<output class="cv-shown" id="cv-shown"></output>',
        "</form>"])


def _entry_html(entry: CvEntry, index: int) -> str:
    buttons = "".join(f'<button type="button" data-copy="{name}">{label}</button>'
                      for name, label in COPY_FORMATS)
    body = (entry.text + links_html(entry) + f' <span class="cv-copy" hidden>{buttons}</span>'
            + abstract_html(entry.abstract or entry.record.get("abstract")))
    number = (f'<span class="cv-number">[{entry.number}]</span>'
              if entry.number is not None else "")
    kind = "" if entry.number is not None else " cv-unnumbered"
    return (f'<li class="cv-entry{kind}" data-entry="{index}">{number}'
            f'<div class="cv-body">{body}</div></li>')


def json_for_script(value: object) -> str:
    """``value`` as JSON that is safe inside ``<script>`` and a templated site's page."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return _JSON_STRING.sub(lambda string: string.group().translate(_STRING_BRACES),
                            text).translate(_SCRIPT_ESCAPES)


def render(document: CvDocument, fragment: bool = False) -> str:
    if fragment:
        raise CvOptionError("html-interactive is a page of its own: --fragment does not apply "
                            "(use --to html --fragment for a fragment)")
    entries = document.entries
    records = [entry.record for entry in entries]
    owner = OwnerMatcher.of(document.owners)
    data: list[dict[str, object]] = [
        {"year": _year(record), "type": kind_of(record.type).heading,
         "coauthors": _coauthors(record, owner), "search": searchable_text(record),
         "bibtex": bibtex, "ris": ris}
        for record, bibtex, ris in zip(records, _bibtex_texts(records),
                                       record_texts(records, "ris"))]
    positions = {id(entry): index for index, entry in enumerate(entries)}
    lines = [*heading_lines(document), _controls(data),
             *section_lines(document, 2, lambda entry: _entry_html(entry, positions[id(entry)]))]
    body = [line.translate(TEMPLATE_BRACES) for line in lines]
    body.append(f'<script type="application/json" id="cv-data">{json_for_script(data)}</script>')
    return page(document, body, STYLE, SCRIPT)
