"""A .bib survives a trip through Zotero: keys kept, bibtex prints the same.

The trip is the one a user makes: refbridge's Zotero RDF, Zotero's import, Zotero's CSL JSON
export, refbridge's .bib (benchmarks/zotero_trip.py). Zotero's part is its simulation (Zotero's
schema mappings from ../shared), or a Zotero translation server named by
``REFBRIDGE_ZOTERO_SERVER`` (``http://127.0.0.1:1969``) when one runs. Measured on tugboat.bib
with Zotero's own translators (translation server): 4839/4839 keys kept, 4830/4839 entries
printed the same by bibtex (plain, alpha); the simulation gives the same figures.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from zotero_trip import CslMappings, compare, server_csl_export, trip, zotero_csl_export

#: The share of entries bibtex prints the same after the trip (reached: 4830/4839).
FLOOR = 0.995


def _tugboat() -> Path:
    if shutil.which("kpsewhich") is None or shutil.which("bibtex") is None:
        pytest.skip("needs kpsewhich and bibtex (TeX Live)")
    found = subprocess.run(["kpsewhich", "tugboat.bib"], capture_output=True, text=True,
                           check=False).stdout.strip()
    if not found:
        pytest.skip("tugboat.bib is not installed (texlive-bibtex-extra)")
    return Path(found)


@pytest.fixture(scope="module")
def mappings(shared_dir: Path) -> CslMappings:
    return CslMappings.load(shared_dir / "schemas" / "zotero-schema.json")


ENTRY = r"""@Article{Knuth:TB7-2-95,
  author =       "Donald E. Knuth",
  title =        "Remarks to celebrate the publication of {\em Computers \& Typesetting}",
  journal =      j-TUGboat,
  volume =       "7",
  number =       "2",
  pages =        "95--98",
  month =        jun,
  year =         "1986",
  ISSN =         "0896-3207",
  bibdate =      "Fri Jul 13 10:24:20 MDT 2007",
  fjournal =     "TUGboat",
}
"""


def test_a_key_and_the_fields_zotero_lacks_come_back_and_no_json_is_printed(
        mappings: CslMappings, tmp_path: Path) -> None:
    original = tmp_path / "one.bib"
    original.write_text('@String{j-TUGboat = "TUGboat"}\n' + ENTRY, encoding="utf-8")
    back = trip(original, tmp_path / "trip", lambda rdf: zotero_csl_export(rdf, mappings))
    assert back.read_text(encoding="utf-8") == (
        '@String{j-TUGboat = "TUGboat"}\n\n'  # in Extra's residue line, as written
        "@article{Knuth:TB7-2-95,\n"
        "  author = {Knuth, Donald E.},\n"
        "  title = {Remarks to celebrate the publication of {\\em Computers \\& "
        "Typesetting}},\n"
        "  journal = {TUGboat},\n"
        "  volume = {7},\n"
        "  number = {2},\n"
        "  pages = {95--98},\n"
        "  year = {1986},\n"
        "  month = jun,\n"
        "  issn = {0896-3207},\n"
        "  bibdate = {Fri Jul 13 10:24:20 MDT 2007},\n"
        "  fjournal = {TUGboat},\n"
        "}\n")


def test_the_zotero_csl_export_has_the_key_and_the_tex_lines_in_its_note(
        mappings: CslMappings, tmp_path: Path) -> None:
    original = tmp_path / "one.bib"
    original.write_text('@String{j-TUGboat = "TUGboat"}\n' + ENTRY, encoding="utf-8")
    exported: list[dict[str, object]] = []

    def export(rdf: str) -> list[dict[str, object]]:
        exported.extend(zotero_csl_export(rdf, mappings))
        return exported

    trip(original, tmp_path / "trip", export)
    assert exported[0]["id"] == "Knuth:TB7-2-95"
    assert exported[0]["note"] == ("tex.bibdate: Fri Jul 13 10:24:20 MDT 2007\n"
                                   "tex.fjournal: TUGboat\n"
                                   'refbridge: {"custom": {"hints": {"bibtex.before": '
                                   '"@String{j-TUGboat = \\"TUGboat\\"}"}, "latex": {'
                                   '"title": "Remarks to celebrate the publication of '
                                   '{\\\\em Computers \\\\& Typesetting}"}}}')


def test_tugboat_comes_back_from_zotero_with_every_key_and_prints_the_same(
        mappings: CslMappings, tmp_path: Path) -> None:
    original = _tugboat()
    server = os.environ.get("REFBRIDGE_ZOTERO_SERVER")
    back = trip(original, tmp_path / "trip",
                (lambda rdf: server_csl_export(rdf, server)) if server
                else (lambda rdf: zotero_csl_export(rdf, mappings)))
    result = compare(original, back, tmp_path / "compare", ("plain", "alpha"), None)
    assert result.keys_kept == result.entries == 4839
    bibtex = result.tools["bibtex"]
    differences = [d.explain() for ds in bibtex.differing.values() for d in ds[:1]]
    assert bibtex.share() >= FLOOR, differences[:10]
