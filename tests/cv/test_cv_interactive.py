"""``refbridge cv --to html-interactive``: one self-contained page that searches, filters and
copies entries, checked as plain HTML and, in headless Chromium, as a reader uses it.

The Chromium tests load the generated page with a script of the test's own appended: it types
into the search box and picks filters (dispatching the same ``input``/``change`` events a
reader's keyboard does), clicks the copy buttons, and writes what it saw into the page, which
``chromium --headless --dump-dom`` then prints. The clipboard itself is not reachable headless;
the copy handler keeps the text it copies in ``window.refbridgeCv.lastCopied``, which the test
compares with refbridge's BibTeX and RIS writers. Skipped when ``chromium`` is not installed
(Debian's package: ``apt-get install chromium``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import lxml.html
import pytest
from support import ROOT, requires_tool, run_cli

from refbridge.cv import CvOptions, render_cv
from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.writer import entry_alone
from refbridge.model import Record
from refbridge.pipeline import read_records, record_texts
from refbridge.runs import ReadOptions

FIXTURES = ROOT / "tests" / "fixtures" / "site"
INPUTS = [str(FIXTURES / "library.bib"), str(FIXTURES / "hostile.json")]
OWNER = "Zhengping Qian"
HOSTILE_TITLE = ('Joins: a --- b {{ .Site.Title }} {{< ref "x" >}} {% include x.html %} '
                 "<script>alert(1)</script> & *not bold*")

#: the reader's session, run after the page's own script; its findings go into the page
SESSION = r"""
<script>
(function () {
  function visible() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-entry]"))
      .filter(function (item) { return !item.hidden; })
      .map(function (item) { return item.querySelector(".csl-entry").textContent; });
  }
  function set(id, value) {
    var control = document.getElementById(id);
    control.value = value;
    control.dispatchEvent(new Event(control.tagName === "SELECT" ? "change" : "input"));
  }
  function reset() { ["cv-search", "cv-year", "cv-type", "cv-coauthor"].forEach(function (id) { set(id, ""); }); }
  function entryOf(text) {
    return Array.prototype.slice.call(document.querySelectorAll("[data-entry]"))
      .filter(function (item) { return item.textContent.indexOf(text) >= 0; })[0];
  }
  var seen = {};
  seen.controlsShown = !document.getElementById("cv-controls").hidden;
  seen.buttonsShown = document.querySelectorAll(".cv-copy:not([hidden])").length;
  seen.all = visible();
  seen.status = document.getElementById("cv-shown").textContent;
  set("cv-search", "cardinality JOINS"); seen.search = visible(); reset();
  set("cv-search", "muller"); seen.folded = visible(); reset();
  set("cv-year", "2023"); seen.year = visible();
  seen.hiddenGroups = Array.prototype.slice.call(document.querySelectorAll(".cv-group[hidden] h2"))
    .map(function (h) { return h.firstChild.textContent.trim(); }); reset();
  set("cv-type", "Conference papers"); seen.type = visible(); reset();
  set("cv-coauthor", "Anna Müller"); seen.coauthor = visible();
  set("cv-search", "survey"); seen.nothing = visible();
  seen.statusNothing = document.getElementById("cv-shown").textContent; reset();
  entryOf("Learned Cardinality").querySelector("[data-copy=bibtex]").click();
  seen.bibtex = window.refbridgeCv.lastCopied;
  entryOf("Speculative Query").querySelector("[data-copy=ris]").click();
  seen.ris = window.refbridgeCv.lastCopied;
  entryOf("Joins: a").querySelector("[data-copy=bibtex]").click();
  seen.hostile = window.refbridgeCv.lastCopied;
  var out = document.createElement("pre");
  out.id = "session";
  out.textContent = JSON.stringify(seen);
  document.body.appendChild(out);
})();
</script>
"""


def records() -> list[Record]:
    return list(read_records(INPUTS, Diagnostics(), ReadOptions()))


def interactive_page() -> str:
    text, _, _ = render_cv(records(), CvOptions(owners=(OWNER,)), to="html-interactive")
    assert isinstance(text, str)
    return text


def entry_texts(format_name: str) -> dict[str, str]:
    listed = records()  # each entry alone, without its library's text around it
    return {record.title or "": text for record, text in
            zip(listed, record_texts([entry_alone(r) for r in listed], format_name))}


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    if shutil.which("chromium") is None:
        pytest.skip("needs chromium on PATH")
    folder = tmp_path_factory.mktemp("interactive")
    page = folder / "publications.html"
    page.write_text(interactive_page().replace("</body>", SESSION + "</body>"), "utf-8")
    result = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={folder / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True)
    found = lxml.html.fromstring(result.stdout).get_element_by_id("session").text_content()
    seen: dict[str, object] = json.loads(found)
    return seen


def titles(seen: object) -> list[str]:
    assert isinstance(seen, list)
    known = ["Survey of Query", HOSTILE_TITLE, "Learned Cardinality", "Speculative Query"]
    return [next(title for title in known if title in entry) for entry in seen]


@requires_tool("chromium")
def test_with_javascript_the_controls_and_copy_buttons_appear(session: dict[str, object]
                                                             ) -> None:
    assert (session["controlsShown"], session["buttonsShown"], session["status"]) == (
        True, 4, "4 of 4 shown")
    assert titles(session["all"]) == ["Survey of Query", HOSTILE_TITLE, "Learned Cardinality",
                                      "Speculative Query"]


@requires_tool("chromium")
def test_search_keeps_entries_with_every_word_ignoring_case_and_accents(
        session: dict[str, object]) -> None:
    assert titles(session["search"]) == ["Learned Cardinality"]
    assert titles(session["folded"]) == ["Learned Cardinality"]


@requires_tool("chromium")
def test_filters_by_year_type_and_coauthor_combine(session: dict[str, object]) -> None:
    assert titles(session["year"]) == ["Speculative Query"]
    assert session["hiddenGroups"] == ["2025", "2024"]
    assert titles(session["type"]) == ["Speculative Query"]
    assert titles(session["coauthor"]) == ["Learned Cardinality"]
    assert (session["nothing"], session["statusNothing"]) == ([], "0 of 4 shown")


@requires_tool("chromium")
def test_copy_buttons_give_the_entry_as_the_writers_write_it(session: dict[str, object]
                                                            ) -> None:
    assert session["bibtex"] == entry_texts("bibtex")["Learned Cardinality Estimation for SQL "
                                                      "Joins"]
    assert session["ris"] == entry_texts("ris")["Speculative Query Processing on Serverless "
                                                "Platforms"]
    assert session["hostile"] == entry_texts("bibtex")[HOSTILE_TITLE]
    assert str(session["bibtex"]).startswith("@article{qian2024learned,\n")


def test_without_javascript_the_whole_list_is_plain_html() -> None:
    document = lxml.html.fromstring(interactive_page())
    entries = document.find_class("cv-entry")
    assert len(entries) == 4
    assert document.get_element_by_id("cv-controls").get("hidden") is not None
    assert all(span.get("hidden") is not None for span in document.find_class("cv-copy"))
    assert HOSTILE_TITLE in entries[1].text_content()
    assert [d.find("summary").text for d in document.iter("details")] == ["Abstract"] * 2


def test_the_page_needs_nothing_from_outside() -> None:
    document = lxml.html.fromstring(interactive_page())
    assert [e.tag for e in document.iter("link", "img", "iframe")] == []
    assert [e.get("src") for e in document.iter("script") if e.get("src")] == []


def test_entry_data_cannot_close_its_script_or_feed_a_site_template() -> None:
    text = interactive_page()
    data = text.split('<script type="application/json" id="cv-data">')[1].split("</script>")[0]
    assert ("<" not in data, "{{" not in text, "{%" not in text) == (True, True, True)
    entries = json.loads(data)
    assert entries[1]["bibtex"] == entry_texts("bibtex")[HOSTILE_TITLE]
    assert entries[1]["coauthors"] == ["Jane Doe"] and entries[1]["year"] == "2024"


def test_the_filters_offer_the_years_types_and_coauthors_of_the_list() -> None:
    document = lxml.html.fromstring(interactive_page())
    options = {name: [o.text for o in document.get_element_by_id(f"cv-{name}").iter("option")]
               for name in ("year", "type", "coauthor")}
    assert options == {
        "year": ["All years", "2025", "2024", "2023"],
        "type": ["All types", "Preprints", "Journal articles", "Conference papers"],
        "coauthor": ["All co-authors", "Qinwei Yang (2)", "Anna Müller (1)", "Jane Doe (1)"]}


def test_the_command_writes_the_interactive_page(tmp_path: Path) -> None:
    output = tmp_path / "publications.html"
    status, _, stderr = run_cli("cv", *INPUTS, "--owner", OWNER, "--to", "html-interactive",
                                "-o", str(output))
    assert (status, stderr) == (0, "")
    assert output.read_text("utf-8") == interactive_page()


def test_an_interactive_fragment_is_refused() -> None:
    status, stdout, stderr = run_cli("cv", *INPUTS, "--to", "html-interactive", "--fragment")
    assert (status, stdout, stderr) == (
        2, "", ("refbridge: error: html-interactive is a page of its own: --fragment does not "
               "apply (use --to html --fragment for a fragment)\n"))
