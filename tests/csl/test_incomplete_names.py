"""An author list known to be cut short ("and others", a profile page naming its owner alone)
is never shown as sole authorship: every formatted output says that others exist."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import SAMPLES

from refbridge.cv import CvOptions, render_cv
from refbridge.errors import Diagnostics
from refbridge.formatting import format_bibliography
from refbridge.pipeline import read_records

#: A preprint with its owner named alone, as a profile page gives it (CSL-JSON as refbridge
#: writes it), and the same work with its whole author list.
CUT_SHORT = {"id": "qian2026specdb", "type": "article", "title": "SpecDB",
             "author": [{"family": "Qian", "given": "Zhengping"}],
             "issued": {"date-parts": [[2026]]}, "publisher": "arXiv",
             "custom": {"incomplete-names": ["author"]}}
COMPLETE = {**CUT_SHORT, "custom": {}}


@pytest.mark.parametrize(("style", "entry"), [
    ("apa", "Qian, Z. et al. (2026). SpecDB. arXiv."),
    ("ieee", "[1] Z. Qian et al., “SpecDB,” 2026, arXiv."),
    ("chicago", "Qian, Zhengping et al. 2026. “SpecDB.” Preprint, arXiv."),
    ("vancouver", "1. Qian Z et al. SpecDB. arXiv; 2026."),
])
def test_a_bibliography_entry_says_others_exist(style: str, entry: str) -> None:
    assert format_bibliography([CUT_SHORT], style) == entry + "\n"


def test_an_in_text_citation_says_others_exist() -> None:
    assert format_bibliography([CUT_SHORT], "apa", cite=True) == "(Qian et al., 2026)\n"


def test_a_complete_list_of_one_author_is_that_author_alone() -> None:
    assert format_bibliography([COMPLETE], "apa") == "Qian, Z. (2026). SpecDB. arXiv.\n"
    assert format_bibliography([COMPLETE], "apa", cite=True) == "(Qian, 2026)\n"


def test_a_style_without_an_et_al_term_ends_the_list_in_an_ellipsis(tmp_path: Path) -> None:
    style = tmp_path / "no-et-al.csl"
    style.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">\n'
        "  <info><title>No et al.</title><id>no-et-al</id>"
        "<updated>2026-01-01T00:00:00+00:00</updated></info>\n"
        '  <locale><terms><term name="et-al"></term></terms></locale>\n'
        '  <citation><layout><names variable="author"><name form="short"/></names>'
        "</layout></citation>\n"
        '  <bibliography><layout><group delimiter=". "><names variable="author"><name/>'
        '</names><text variable="title"/></group></layout></bibliography>\n'
        "</style>\n", encoding="utf-8")
    assert format_bibliography([CUT_SHORT], str(style)) == "Zhengping Qian …. SpecDB\n"


def test_a_bib_with_and_others_is_cited_with_et_al(tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text("@article{zhu2021,\n  author = {Zhu, Rong and Qian, Zhengping and others},"
                       "\n  title = {FLAT},\n  journal = {PVLDB},\n  year = {2021}\n}\n",
                       encoding="utf-8")
    records = list(read_records([str(library)], Diagnostics()))
    assert format_bibliography(records, "apa") == (
        "Zhu, R., Qian, Z., et al. (2021). FLAT. PVLDB.\n")


def test_the_cv_marks_the_owner_and_says_others_exist() -> None:
    records = list(read_records([str(SAMPLES / "zhengping-qian.profile.txt")], Diagnostics()))
    text, _, _ = render_cv(records, CvOptions(), to="markdown")
    assert ("- \\[14\\] **Zhengping Qian** et al. SpecDB: LLM-Generated Customized Databases "
            "via Feature-Oriented Decomposition. arXiv, 2026.") in str(text).splitlines()
