"""A real library survives refbridge: bibtex and biber print the same for it after conversion.

The checker is benchmarks/fidelity.py; here it runs on real libraries written by other people
that TeX Live ships (Nelson Beebe's bibliographies and biblatex's examples, found with
kpsewhich), and a floor keeps what has been reached. The comparison logic is tested on its own
first, on .bbl text written the way bibtex and biber write it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from fidelity import (
    BiberSetup,
    biblatex_entries,
    check_library,
    first_difference,
    split_bbl,
    split_biber_bbl,
)

#: Libraries TeX Live ships (texlive-bibtex-extra) and the share of entries that must come
#: out identical, per route and tool (what was reached; raise it, never lower it).
FLOORS: dict[str, dict[tuple[str, str], float]] = {
    "texbook1.bib": {("direct", "bibtex"): 1.0, ("direct", "biber"): 1.0,
                     ("csl-json", "bibtex"): 1.0, ("csl-json", "biber"): 1.0},
    "biblatex-examples.bib": {("direct", "biber"): 1.0, ("csl-json", "biber"): 1.0},
    # DOIs written as links (https://doi.org/...), which the model keeps bare
    "texgraph.bib": {("direct", "bibtex"): 1.0, ("direct", "biber"): 0.97,
                     ("csl-json", "bibtex"): 1.0, ("csl-json", "biber"): 0.97},
}


def test_a_bbl_is_cut_at_its_bibitems_even_with_braces_in_labels() -> None:
    bbl = ("\\begin{thebibliography}{1}\n\n"
           "\\bibitem[{Adobe}({\\noopsort{1985a}}1985)]{Adobe:PLR85}\nAdobe.\n\\newblock "
           "{\\em PostScript}, 1985.\n\n\\bibitem{knuth}\nD.~Knuth.\n\n"
           "\\end{thebibliography}\n")
    assert split_bbl(bbl) == {
        "Adobe:PLR85": "\\bibitem[{Adobe}({\\noopsort{1985a}}1985)]{Adobe:PLR85} Adobe. "
                       "\\newblock {\\em PostScript}, 1985.",
        "knuth": "\\bibitem{knuth} D.~Knuth."}


def test_a_biber_bbl_is_cut_at_its_entries() -> None:
    bbl = ("\\refsection{0}\n  \\entry{a}{book}{}\n    \\field{title}{A}\n  \\endentry\n"
           "  \\entry{b}{article}{}\n    \\field{title}{B}\n  \\endentry\n\\endrefsection\n")
    assert split_biber_bbl(bbl) == {"a": "\\entry{a}{book}{} \\field{title}{A}",
                                    "b": "\\entry{b}{article}{} \\field{title}{B}"}


def test_entries_written_for_biblatex_and_their_crossref_children_are_told_apart(
        tmp_path: Path) -> None:
    bib = tmp_path / "mixed.bib"
    bib.write_text("@article{classic, title={A}, journal={J}, year=2001}\n"
                   "@online{web, title={B}, url={https://x.org}}\n"
                   "@article{dated, title={C}, journaltitle={J}, date={2001-02}}\n"
                   "@inproceedings{child, title={D}, crossref={proc}}\n"
                   "@proceedings{proc, title={P}, date={2001}}\n", encoding="utf-8")
    assert biblatex_entries(bib) == {"web", "dated", "proc", "child"}


def test_the_first_difference_is_shown_with_its_context() -> None:
    assert first_difference("pages 1113--1121, 1990.", "pages 1113{\\textendash}1121, 1990.") \
        .startswith("...pages 1113--1121")


def _tex_live_library(name: str) -> Path:
    if shutil.which("kpsewhich") is None:
        pytest.skip("needs kpsewhich (TeX Live)")
    found = subprocess.run(["kpsewhich", name], capture_output=True, text=True,
                           check=False).stdout.strip()
    if not found:
        pytest.skip(f"{name} is not installed (texlive-bibtex-extra)")
    return Path(found)


@pytest.mark.parametrize("library", sorted(FLOORS))
def test_a_real_library_prints_the_same_after_conversion(
        library: str, biber_setup: BiberSetup, tmp_path: Path) -> None:
    original = _tex_live_library(library)
    cache: dict[str, dict[str, str]] = {}
    for route in ("direct", "csl-json"):
        result = check_library(original, route, tmp_path, ("plain", "alpha"), biber_setup,
                               before_cache=cache)
        for (floor_route, tool), floor in FLOORS[library].items():
            if floor_route != route:
                continue
            measured = result.tools[tool]
            differences = [d.explain() for ds in measured.differing.values() for d in ds[:1]]
            assert measured.share() >= floor, (route, tool, differences[:10])
