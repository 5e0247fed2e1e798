"""Several bibliographies in one document: `format --split-by` and `cv --split-by`
(refbridge.cv.parts, refbridge.formatting)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import REFERENCE_NODE_MODULES, SHARED, requires_reference_js, run_cli

from refbridge import read
from refbridge.cv.parts import Split, split
from refbridge.cv.select import CvOptionError
from refbridge.cv.types import BIBLIOGRAPHY_KINDS
from refbridge.formats.csljson import to_csl
from refbridge.formatting import as_items, format_bibliography
from refbridge.model import Record

LIBRARY = """\
@article{lovelace2021,
  author = {Lovelace, Ada and Babbage, Charles},
  title = {Engines of Analysis},
  journal = {Journal of Computing Machinery},
  year = {2021}, volume = {12}, pages = {1--10},
  keywords = {computing, history},
  eprint = {2101.00001}, eprinttype = {arxiv}, eprintclass = {cs.DB},
}
@book{somerville2019,
  author = {Somerville, Mary},
  title = {On the Connexion of the Physical Sciences},
  publisher = {John Murray}, address = {London},
  year = {2019},
  keywords = {physics},
}
@inproceedings{hopper2020,
  author = {Hopper, Grace},
  title = {Compilers for Everyone},
  booktitle = {Proceedings of the Conference on Programming},
  publisher = {ACM},
  year = {2020}, pages = {5--9},
  keywords = {computing},
  eprint = {2002.00002}, eprinttype = {arxiv}, eprintclass = {cs.PL},
}
@phdthesis{noether2018,
  author = {Noether, Emmy},
  title = {Invariants of Rings},
  school = {University of Erlangen},
  year = {2018},
}
"""

LOVELACE_IEEE = ("A. Lovelace and C. Babbage, \u201cEngines of Analysis,\u201d Journal of "
                 "Computing Machinery, vol. 12, pp. 1\u201310, 2021.")
SOMERVILLE_IEEE = ("M. Somerville, On the Connexion of the Physical Sciences. London: John "
                   "Murray, 2019.")
HOPPER_IEEE = ("G. Hopper, \u201cCompilers for Everyone,\u201d in Proceedings of the Conference "
               "on Programming, ACM, 2020, pp. 5\u20139.")
NOETHER_IEEE = ("E. Noether, \u201cInvariants of Rings,\u201d PhD thesis, University of "
                "Erlangen, 2018.")
LOVELACE_APA = ("Lovelace, A., & Babbage, C. (2021). Engines of Analysis. Journal of Computing "
                "Machinery, 12, 1\u201310.")
SOMERVILLE_APA = ("Somerville, M. (2019). On the Connexion of the Physical Sciences. John "
                  "Murray.")
HOPPER_APA = ("Hopper, G. (2020). Compilers for Everyone. Proceedings of the Conference on "
              "Programming, 5\u20139.")
NOETHER_APA = "Noether, E. (2018). Invariants of Rings [PhD thesis]. University of Erlangen."


def records() -> list[Record]:
    return read(text=LIBRARY, format="bibtex")


def parts_text(*parts: tuple[str, list[str]]) -> str:
    return "\n".join(f"{heading}\n\n" + "".join(line + "\n" for line in lines)
                     for heading, lines in parts)


def test_apa_split_by_type_follows_the_fixed_order_of_types() -> None:
    assert format_bibliography(records(), "apa", split_by="type") == parts_text(
        ("Articles", [LOVELACE_APA]), ("Books", [SOMERVILLE_APA]),
        ("Conference papers", [HOPPER_APA]), ("Theses", [NOETHER_APA]))


def test_ieee_split_by_type_numbers_on_across_parts_by_default() -> None:
    assert format_bibliography(records(), "ieee", split_by="type") == parts_text(
        ("Articles", [f"[1] {LOVELACE_IEEE}"]), ("Books", [f"[2] {SOMERVILLE_IEEE}"]),
        ("Conference papers", [f"[3] {HOPPER_IEEE}"]), ("Theses", [f"[4] {NOETHER_IEEE}"]))


def test_ieee_split_by_type_per_part_numbers_each_part_from_one() -> None:
    assert format_bibliography(records(), "ieee", split_by="type",
                               numbering="per-part") == parts_text(
        ("Articles", [f"[1] {LOVELACE_IEEE}"]), ("Books", [f"[1] {SOMERVILLE_IEEE}"]),
        ("Conference papers", [f"[1] {HOPPER_IEEE}"]), ("Theses", [f"[1] {NOETHER_IEEE}"]))


def test_keyword_parts_are_alphabetical_a_record_in_each_of_its_keywords() -> None:
    assert format_bibliography(records(), "apa", split_by="keyword") == parts_text(
        ("computing", [HOPPER_APA, LOVELACE_APA]), ("history", [LOVELACE_APA]),
        ("physics", [SOMERVILLE_APA]), ("Other", [NOETHER_APA]))


def test_ieee_keyword_parts_continuous_and_per_part() -> None:
    assert format_bibliography(records(), "ieee", split_by="keyword") == parts_text(
        ("computing", [f"[1] {LOVELACE_IEEE}", f"[2] {HOPPER_IEEE}"]),
        ("history", [f"[3] {LOVELACE_IEEE}"]), ("physics", [f"[4] {SOMERVILLE_IEEE}"]),
        ("Other", [f"[5] {NOETHER_IEEE}"]))
    assert format_bibliography(records(), "ieee", split_by="keyword",
                               numbering="per-part") == parts_text(
        ("computing", [f"[1] {LOVELACE_IEEE}", f"[2] {HOPPER_IEEE}"]),
        ("history", [f"[1] {LOVELACE_IEEE}"]), ("physics", [f"[1] {SOMERVILLE_IEEE}"]),
        ("Other", [f"[1] {NOETHER_IEEE}"]))


def test_subject_parts_are_named_by_the_arxiv_taxonomy() -> None:
    assert format_bibliography(records(), "apa", split_by="subject") == parts_text(
        ("Databases \u00b7 cs.DB", [LOVELACE_APA]),
        ("Programming Languages \u00b7 cs.PL", [HOPPER_APA]),
        ("Other subjects", [NOETHER_APA, SOMERVILLE_APA]))


def test_ieee_subject_parts_per_part() -> None:
    assert format_bibliography(records(), "ieee", split_by="subject",
                               numbering="per-part") == parts_text(
        ("Databases \u00b7 cs.DB", [f"[1] {LOVELACE_IEEE}"]),
        ("Programming Languages \u00b7 cs.PL", [f"[1] {HOPPER_IEEE}"]),
        ("Other subjects", [f"[1] {SOMERVILLE_IEEE}", f"[2] {NOETHER_IEEE}"]))


def test_a_field_splits_by_its_values_alphabetically_the_rest_last() -> None:
    assert format_bibliography(records(), "apa", split_by="publisher") == parts_text(
        ("ACM", [HOPPER_APA]), ("John Murray", [SOMERVILLE_APA]),
        ("University of Erlangen", [NOETHER_APA]), ("Other", [LOVELACE_APA]))


def test_ieee_field_parts_continuous() -> None:
    assert format_bibliography(records(), "ieee", split_by="publisher") == parts_text(
        ("ACM", [f"[1] {HOPPER_IEEE}"]), ("John Murray", [f"[2] {SOMERVILLE_IEEE}"]),
        ("University of Erlangen", [f"[3] {NOETHER_IEEE}"]), ("Other", [f"[4] {LOVELACE_IEEE}"]))


def test_split_order_puts_the_named_parts_first_the_others_after() -> None:
    assert format_bibliography(records(), "apa", split_by="type",
                               split_order=("Thesis", "book")) == parts_text(
        ("Theses", [NOETHER_APA]), ("Books", [SOMERVILLE_APA]), ("Articles", [LOVELACE_APA]),
        ("Conference papers", [HOPPER_APA]))


def test_type_headings_are_the_locales_terms_plural_where_it_has_one() -> None:
    german = Split("type", locale="de-DE", kinds=BIBLIOGRAPHY_KINDS)
    assert [part.heading for part in split(records(), german)] == [
        "Zeitschriftenartikel", "Bücher", "Konferenzbeitrag", "Abschlussarbeit"]
    assert [part.heading for part in split(records(), Split("type", locale="fr-FR"))] == [
        "Article de revue", "Article de colloque", "Livres", "Thèse"]


def test_items_split_as_records_do() -> None:
    assert format_bibliography(as_items(records()), "apa", split_by="type") == \
        format_bibliography(records(), "apa", split_by="type")


def test_headings_are_escaped_for_html_markdown_and_latex() -> None:
    hostile = read(text="@book{x, title = {Tricks}, author = {Doe, Jo}, year = 2001,"
                        " publisher = {<b>R&D</b> \\# *Press*}}", format="bibtex")
    assert format_bibliography(hostile, "apa", "html", split_by="publisher").splitlines()[0] \
        == '<h2 class="csl-bib-heading">&#60;b&#62;R&#38;D&#60;/b&#62; # *Press*</h2>'
    assert format_bibliography(hostile, "apa", "markdown", split_by="publisher") \
        .splitlines()[0] == "## \\<b\\>R\\&D\\</b\\> \\# \\*Press\\*"
    assert format_bibliography(hostile, "apa", "latex", split_by="publisher").splitlines()[0] \
        == ("\\section*{\\textless{}b\\textgreater{}R\\&D\\textless{}/b\\textgreater{} "
            "\\# *Press*}")


def test_rtf_citations_and_unknown_splits_are_usage_errors() -> None:
    with pytest.raises(CvOptionError, match="--split-by writes text, html, markdown, latex"):
        format_bibliography(records(), "apa", "rtf", split_by="type")
    with pytest.raises(CvOptionError, match="not in-text citations"):
        format_bibliography(records(), "apa", cite=True, split_by="type")
    with pytest.raises(CvOptionError, match="unknown --split-by 'colour'"):
        format_bibliography(records(), "apa", split_by="colour")


def test_format_command_splits_and_refuses_an_unknown_split(tmp_path: Path) -> None:
    library = tmp_path / "library.bib"
    library.write_text(LIBRARY, encoding="utf-8")
    status, stdout, _ = run_cli("format", str(library), "--style", "ieee", "--split-by",
                                "type", "--numbering", "per-part", "--split-order", "thesis")
    assert (status, stdout.splitlines()[:3]) == (0, ["Theses", "", f"[1] {NOETHER_IEEE}"])
    status, stdout, stderr = run_cli("format", str(library), "--split-by", "colour")
    assert (status, stdout) == (2, "")
    assert "unknown --split-by 'colour'" in stderr


def test_cv_splits_by_keyword_numbered_per_part_by_a_numeric_style(tmp_path: Path) -> None:
    library = tmp_path / "library.bib"
    library.write_text(LIBRARY, encoding="utf-8")
    status, stdout, _ = run_cli("cv", str(library), "--all-records", "--style", "ieee",
                                "--to", "text", "--split-by", "keyword", "--numbering",
                                "per-part", "--no-links", "--no-summary", "--sort", "oldest")
    assert status == 0
    assert stdout == (
        "Publications\n============\n\n"
        "computing (2)\n-------------\n\n"
        f"[1] {HOPPER_IEEE}\n\n[2] {LOVELACE_IEEE}\n\n"
        "history (1)\n-----------\n\n"
        f"[1] {LOVELACE_IEEE}\n\n"
        "physics (1)\n-----------\n\n"
        f"[1] {SOMERVILLE_IEEE}\n\n"
        "Other (1)\n---------\n\n"
        f"[1] {NOETHER_IEEE}\n")


@requires_reference_js()
@pytest.mark.parametrize("style", ["apa", "ieee"])
def test_each_part_is_what_citeproc_js_writes_of_the_parts_items(style: str,
                                                                  tmp_path: Path) -> None:
    """Per-part numbering: each part is a bibliography of its own items, as citeproc-js
    renders those items alone."""
    if not (SHARED / "tools" / "csl-reference.js").exists():
        pytest.skip("needs ../shared/tools/csl-reference.js")
    ours = format_bibliography(records(), style, split_by="type", numbering="per-part")
    expected = []
    for part in split(records(), Split("type", kinds=BIBLIOGRAPHY_KINDS)):
        path = tmp_path / f"{part.key}.json"
        path.write_text(json.dumps([to_csl(record) for record in part.records]), encoding="utf-8")
        result = subprocess.run(
            ["node", str(SHARED / "tools" / "csl-reference.js"),
             str(SHARED / "csl" / f"{style}.csl"), str(path), "text"],
            capture_output=True, text=True, check=True,
            env={**os.environ, "NODE_PATH": str(REFERENCE_NODE_MODULES)})
        expected.append((part.heading or "", result.stdout.strip().splitlines()))
    assert ours == parts_text(*expected)


def test_a_bibliography_without_split_by_loads_no_cv_module(tmp_path: Path) -> None:
    """Start-up: one bibliography never pays for refbridge.cv (a tenth of a second)."""
    items = tmp_path / "items.json"
    items.write_text(json.dumps([{"id": "lovelace2021", "type": "article-journal",
                                  "title": "Engines of Analysis",
                                  "author": [{"family": "Lovelace", "given": "Ada"}],
                                  "issued": {"date-parts": [[2021]]}}]), encoding="utf-8")
    script = ("import sys\nfrom refbridge.cli import main\n"
              f"try:\n    main(['format', {str(items)!r}, '--style', 'apa'])\n"
              "except SystemExit:\n    pass\n"
              "sys.stderr.write(' '.join(m for m in sys.modules if m.startswith('refbridge.cv')))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert (result.stdout, result.stderr) == (
        "Lovelace, A. (2021). Engines of Analysis.\n", "")
