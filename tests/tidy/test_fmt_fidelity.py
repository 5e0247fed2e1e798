"""What bibtex and biber print is the same before and after ``refbridge fmt``.

The machinery is benchmarks/fidelity.py's (the .bbl of each entry from real bibtex with
``plain`` and ``alpha``, and from real biber through a .bcf biblatex wrote); the libraries
are a realistic one written here (macros, ``#``, crossref, comments, ``@preamble``, months,
accents, empty fields, long titles) and those TeX Live ships. Skipped without TeX Live."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from support import ROOT, tex_live_library

from refbridge.tidy import TidyOptions, tidy_text

sys.path.insert(0, str(ROOT / "benchmarks"))

from fidelity import BiberSetup, biber_blocks, bibtex_blocks

LIBRARY = r"""% Bibliography of the group, kept by hand.
@preamble{ "\providecommand{\noopsort}[1]{}" }
@String{LNCS = "Lecture Notes in Computer Science"}
@STRING{spr = {Springer}}

% The proceedings come after their papers, as BibTeX wants.
@InProceedings{mueller:graphs,
  Author    = {J{\"o}rg M{\"u}ller and {\L}ukasz Nowak and Ana Garc\'{\i}a},
  Title     = "Graph Rewriting for {DNA} Computing: a {S}urvey of the Field and of
               its Many Open Problems",
  pages     = {12--29}, month = {March},
  crossref  = {icgt2019},
  note      = {},
}
@inproceedings{stra:case, author = {Hans Stra\ss er}, title = {Case {Protection} in
   {\TeX}: \emph{in vivo}}, pages = "1-5", crossref = {icgt2019}, publisher = {}}
@Proceedings{icgt2019,
  editor    = {Esther Guerra and Fernando Orejas},
  title     = {Graph Transformation -- 12th International Conference, {ICGT} 2019},
  booktitle = {Graph Transformation -- 12th International Conference, {ICGT} 2019},
  series    = LNCS, volume = 11629, publisher = spr,
  year      = 2019, month = jul, address = {Eindhoven, The Netherlands}
}
@article{knuth:1984,
  author = {Donald E. Knuth}, title = {Literate Programming},
  journal = {The Computer Journal}, volume = {27}, number = {2},
  pages = {97--111}, year = {1984}, month = {May}, doi = {10.1093/comjnl/27.2.97},
  url = {https://doi.org/10.1093/comjnl/27.2.97}, keywords = {literate programming, WEB},
  note = "Reprinted in " # LNCS # { as a classic}, abstract = {}, mrnumber = {MR0000001}
}
@book{adobe:ps, author = {{Adobe Systems Incorporated}},
  title = {{PostScript} Language Reference Manual}, publisher = {Addison-Wesley},
  year = {{\noopsort{1985a}}1985}, edition = {First}}
@misc{tab:title, author = {Zo{\"e} Tab}, title = {A	title	with tabs}, year = 2020,
  howpublished = {\url{https://example.org/~tab}}}
% The end.
"""

#: The main options, each file compared with bibtex and biber.
OPTION_SETS: dict[str, TidyOptions] = {
    "braces, canonical, months, no empty, wrap 60": TidyOptions(
        field_order="canonical", months=True, drop_empty=True, wrap=60),
    "quotes, tab indent, no alignment, wrap 40": TidyOptions(
        values="quotes", indent="\t", align=False, wrap=40, months=True),
}
_EXTRA = re.compile(r"\\field\{extra(?:name|date|alpha)\}\{\d+\} ")


def _printed(bib: Path, biber: BiberSetup, workdir: Path, styles: tuple[str, ...],
             with_biber: bool = True) -> dict[str, dict[str, str]]:
    printed = {style: bibtex_blocks(bib, style, workdir / style) for style in styles}
    if with_biber:
        printed["biber"] = biber_blocks(bib, biber, workdir / "biber")
    return printed


def _formatted(original: Path, options: TidyOptions, tmp_path: Path) -> Path:
    tidied = tidy_text(original.read_text(encoding="utf-8"), str(original), options)
    assert tidied.text is not None, tidied.problems
    out = tmp_path / "formatted" / original.name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(tidied.text, encoding="utf-8")
    return out


def _library(tmp_path: Path) -> Path:
    path = tmp_path / "group.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def printed_library(biber_setup: BiberSetup, tmp_path_factory: pytest.TempPathFactory
                    ) -> dict[str, dict[str, str]]:
    """What bibtex (plain, alpha) and biber print of the written library before ``fmt``, run
    once for the tests that compare with it."""
    folder = tmp_path_factory.mktemp("library")
    return _printed(_library(folder), biber_setup, folder / "before", ("plain", "alpha"))


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_the_written_library_prints_the_same_after_fmt(
        name: str, biber_setup: BiberSetup, printed_library: dict[str, dict[str, str]],
        tmp_path: Path) -> None:
    original = _library(tmp_path)
    before = printed_library
    after = _printed(_formatted(original, OPTION_SETS[name], tmp_path), biber_setup,
                     tmp_path / "after", ("plain", "alpha"))
    assert len(before["plain"]) == 6 and len(before["biber"]) == 6
    assert after == before


def test_sorting_changes_only_the_order(biber_setup: BiberSetup,
                                        printed_library: dict[str, dict[str, str]],
                                        tmp_path: Path) -> None:
    """Sorted by key, ``plain`` (which sorts itself) prints the same, and so does biber but
    for the numbers it gives entries in the order they come (``extraname``)."""
    original = _library(tmp_path)
    before = printed_library
    after = _printed(_formatted(original, TidyOptions(sort="key"), tmp_path), biber_setup,
                     tmp_path / "after", ("plain",))
    assert after["plain"] == before["plain"]
    assert {k: _EXTRA.sub("", v) for k, v in after["biber"].items()} == \
        {k: _EXTRA.sub("", v) for k, v in before["biber"].items()}


def test_accents_as_unicode_or_latex_print_the_same_in_biber(
        biber_setup: BiberSetup, printed_library: dict[str, dict[str, str]],
        tmp_path: Path) -> None:
    original = _library(tmp_path)
    before = printed_library["biber"]
    unicode = _formatted(original, TidyOptions(unicode=True), tmp_path / "u")
    assert biber_blocks(unicode, biber_setup, tmp_path / "unicode") == before
    latex = _formatted(unicode, TidyOptions(unicode=False), tmp_path / "l")
    assert biber_blocks(latex, biber_setup, tmp_path / "latex") == before


#: TeX Live's libraries and what each tool reads (biblatex-examples is for biber only).
TEX_LIVE: dict[str, bool] = {"texbook1.bib": True, "texgraph.bib": True,
                             "biblatex-examples.bib": False}


@pytest.mark.parametrize("library", sorted(TEX_LIVE))
def test_a_real_library_prints_the_same_after_fmt(library: str, biber_setup: BiberSetup,
                                                  tmp_path: Path) -> None:
    original = tex_live_library(library)
    styles = ("plain",) if TEX_LIVE[library] else ()
    options = TidyOptions(field_order="canonical", months=True, drop_empty=True, wrap=79)
    before = _printed(original, biber_setup, tmp_path / "before", styles)
    after = _printed(_formatted(original, options, tmp_path), biber_setup,
                     tmp_path / "after", styles)
    for check, blocks in before.items():
        differing = sorted(key for key in blocks if after[check].get(key) != blocks[key])
        assert (check, differing) == (check, []), [(after[check].get(k), blocks[k])
                                                   for k in differing[:3]]
        assert after[check].keys() == blocks.keys()
