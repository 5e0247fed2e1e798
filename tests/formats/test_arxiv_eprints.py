"""An arXiv eprint is the publication only of a preprint: a paper published elsewhere keeps
its venue and numbers in every output, and a preprint's arXiv id gives its link."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import SAMPLES

from refbridge.cv import CvOptions, render_cv
from refbridge.errors import Diagnostics
from refbridge.formatting import format_bibliography
from refbridge.pipeline import read_records

#: A letter with its arXiv eprint, as arXiv's own BibTeX export and journals write it, and a
#: preprint known by its arXiv id.
LIBRARY = """@article{smith2018,
  author = {Smith, John and Doe, Jane},
  title = {A Search for Dark Photons},
  journal = {Physical Review Letters},
  volume = {120},
  pages = {101801},
  year = {2018},
  eprint = {1801.00001},
  archivePrefix = {arXiv},
  primaryClass = {hep-ex}
}

@misc{qian2024,
  author = {Qian, Zhengping},
  title = {Elastic Checkpointing},
  year = {2024},
  eprint = {2401.01234},
  archivePrefix = {arXiv},
  primaryClass = {cs.DC}
}
"""


@pytest.fixture
def library(tmp_path: Path) -> list[str]:
    path = tmp_path / "refs.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    return [str(path)]


@pytest.mark.parametrize(("style", "entry"), [
    ("apa", ("Smith, J., & Doe, J. (2018). A Search for Dark Photons. Physical Review "
             "Letters, 120, 101801.")),
    ("ieee", ("[1] J. Smith and J. Doe, “A Search for Dark Photons,” Physical Review "
              "Letters, vol. 120, p. 101801, 2018.")),
    ("chicago", ("Smith, John, and Jane Doe. 2018. “A Search for Dark Photons.” Physical "
                 "Review Letters 120: 101801.")),
    ("nature", ("1. Smith, J. & Doe, J. A Search for Dark Photons. Physical Review Letters "
                "120, 101801 (2018).")),
])
def test_a_published_paper_is_cited_by_its_venue_not_as_an_arxiv_publication(
        library: list[str], style: str, entry: str) -> None:
    records = list(read_records(library, Diagnostics()))
    assert format_bibliography(records[:1], style) == entry + "\n"


def test_a_preprint_with_an_arxiv_id_is_linked_to_its_abstract_page(
        library: list[str]) -> None:
    records = list(read_records(library, Diagnostics()))
    assert format_bibliography(records[1:], "nature") == (
        "1. Qian, Z. Elastic Checkpointing. Preprint at https://arxiv.org/abs/2401.01234 "
        "(2024).\n")


def test_a_cv_merging_a_preprint_with_its_published_version_shows_the_venue_only(
        tmp_path: Path) -> None:
    published = tmp_path / "flat.bib"
    published.write_text(
        "@article{zhu2021flat,\n"
        "  title = {{FLAT}: Fast, Lightweight and Accurate Method for Cardinality Estimation},\n"
        "  author = {Zhu, Rong and Qian, Zhengping and Cui, Bin},\n"
        "  journal = {Proceedings of the VLDB Endowment},\n  pages = {1489--1502},\n"
        "  year = {2021},\n  eprint = {2011.09022},\n  archivePrefix = {arXiv}\n}\n",
        encoding="utf-8")
    records = list(read_records([str(SAMPLES / "zhengping-qian.profile.txt"), str(published)],
                                Diagnostics()))
    _, document, _ = render_cv(records, CvOptions(), to="text")
    (flat,) = [entry.text for entry in document.entries if "FLAT" in entry.text]
    assert flat == ("Rong Zhu, Zhengping Qian and Bin Cui. FLAT: Fast, Lightweight and "
                    "Accurate Method for Cardinality Estimation. Proceedings of the VLDB "
                    "Endowment, 1489–1502, 2021.")
