"""BibLaTeX written for BibTeX (``--to bibtex``): each BibLaTeX entry type becomes the classic
type a BibTeX style prints it as, each field the classic field, and what no style prints is
said in ``note`` or ``howpublished`` (tables.CLASSIC_RENAMES and the tables after it), so that
what the user wrote is printed by ``plain``, checked with real bibtex."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.reader import READER
from refbridge.formats.bibtex.writer import BIBTEX_WRITER
from refbridge.registry import WriteOptions

sys.path.insert(0, str(ROOT / "benchmarks"))

from fidelity import BiberSetup, biber_blocks

#: An entry of each BibLaTeX entry type the classic types do not have, and of BibLaTeX's
#: fields on classic types.
LIBRARY = """\
@thesis{th1, author = {Ann Lee}, title = {Deep Things}, subtitle = {A Study}, type = {phdthesis}, institution = {MIT}, location = {Cambridge, MA}, date = {2019-05}}
@thesis{th2, author = {Bo Kim}, title = {Small Things}, type = {mathesis}, institution = {ETH Z{\\"u}rich}, date = {2018}}
@thesis{th3, author = {Cy Dow}, title = {Odd Things}, type = {phd}, institution = {Oxford University}, date = {2017}}
@report{rp1, author = {Dee Fox}, title = {A Report}, type = {techreport}, institution = {NASA}, number = {TR-12}, date = {2016-03-04}, location = {Houston}}
@online{on1, author = {Eve Gray}, title = {A Page}, url = {https://example.org/p}, urldate = {2020-01-02}, date = {2019}, organization = {Example Org}}
@inreference{ir1, author = {Fay Hart}, title = {Entry Word}, booktitle = {Big Encyclopedia}, editor = {Gil Ives}, number = {3}, series = {Refs}, publisher = {Wiley}, date = {2015}, pages = {10--12}}
@mvbook{mv1, author = {Hal Jay}, title = {Collected Works}, volumes = {4}, publisher = {Springer}, location = {Berlin}, date = {2001}}
@collection{co1, editor = {Ida Kay}, title = {Essays}, publisher = {OUP}, date = {2005}}
@reference{rf1, editor = {Jon Lam}, title = {Handbook}, publisher = {CRC}, date = {2010}}
@dataset{ds1, author = {Kim May}, title = {Data Set}, publisher = {Zenodo}, doi = {10.5281/zenodo.1}, date = {2021}, version = {1.2}}
@software{sw1, author = {Lou Ng}, title = {Tool}, version = {2.0}, url = {https://github.com/x/y}, date = {2022}}
@article{ar1, author = {Max Oz}, title = {An Article}, journaltitle = {J. Things}, date = {2020-07-15}, volume = {3}, number = {2}, pages = {1--9}, eprinttype = {arxiv}, eprint = {2001.00001}, titleaddon = {With a Note}}
@inbook{ib1, author = {Ned Po}, title = {A Chapter}, booktitle = {Volume One}, maintitle = {Collected Works}, publisher = {Springer}, date = {2001}, pages = {5--9}}
"""


def converted(text: str, normalize: bool = False) -> dict[str, str]:
    """The entries ``--to bibtex`` (with ``--normalize``) writes for ``text``, by key."""
    out = io.StringIO()
    BIBTEX_WRITER.write(READER.read(io.StringIO(text), "refs.bib", Diagnostics()), out,
                        WriteOptions(normalize=normalize))
    return {entry[entry.index("{") + 1:entry.index(",")]: entry + "\n"
            for entry in out.getvalue().strip().split("\n\n")}


def test_a_phd_thesis_says_its_type_by_entry_type_and_its_university_in_school() -> None:
    assert converted(LIBRARY)["th1"] == """\
@phdthesis{th1,
  author = {Ann Lee},
  title = {Deep Things: A Study},
  school = {MIT},
  address = {Cambridge, MA},
  year = {2019},
  month = may,
}
"""


def test_a_masters_thesis_becomes_mastersthesis() -> None:
    assert converted(LIBRARY)["th2"] == """\
@mastersthesis{th2,
  author = {Bo Kim},
  title = {Small Things},
  school = {ETH Z{\\"u}rich},
  year = {2018},
}
"""


def test_a_thesis_typed_phd_becomes_phdthesis_without_the_word() -> None:
    assert converted(LIBRARY)["th3"] == """\
@phdthesis{th3,
  author = {Cy Dow},
  title = {Odd Things},
  school = {Oxford University},
  year = {2017},
}
"""


def test_a_report_becomes_techreport() -> None:
    assert converted(LIBRARY)["rp1"] == """\
@techreport{rp1,
  author = {Dee Fox},
  title = {A Report},
  institution = {NASA},
  number = {TR-12},
  address = {Houston},
  year = {2016},
  month = mar,
  day = {4},
}
"""


def test_an_online_entry_becomes_misc_with_its_address_in_howpublished() -> None:
    assert converted(LIBRARY)["on1"] == """\
@misc{on1,
  author = {Eve Gray},
  title = {A Page},
  url = {https://example.org/p},
  howpublished = {Example Org, \\url{https://example.org/p}},
  year = {2019},
  note = {Accessed 2020-01-02},
}
"""


def test_an_inreference_becomes_incollection_with_its_number() -> None:
    assert converted(LIBRARY)["ir1"] == """\
@incollection{ir1,
  author = {Fay Hart},
  title = {Entry Word},
  booktitle = {Big Encyclopedia},
  editor = {Gil Ives},
  number = {3},
  series = {Refs},
  publisher = {Wiley},
  pages = {10--12},
  year = {2015},
}
"""


def test_a_multi_volume_book_becomes_book_with_its_volumes_in_note() -> None:
    assert converted(LIBRARY)["mv1"] == """\
@book{mv1,
  author = {Hal Jay},
  title = {Collected Works},
  publisher = {Springer},
  address = {Berlin},
  year = {2001},
  note = {4 volumes},
}
"""


def test_a_collection_becomes_book_with_its_editor() -> None:
    assert converted(LIBRARY)["co1"] == """\
@book{co1,
  editor = {Ida Kay},
  title = {Essays},
  publisher = {OUP},
  year = {2005},
}
"""


def test_a_reference_work_becomes_book() -> None:
    assert converted(LIBRARY)["rf1"] == """\
@book{rf1,
  editor = {Jon Lam},
  title = {Handbook},
  publisher = {CRC},
  year = {2010},
}
"""


def test_a_dataset_becomes_misc_with_its_publisher_in_howpublished() -> None:
    assert converted(LIBRARY)["ds1"] == """\
@misc{ds1,
  author = {Kim May},
  title = {Data Set},
  doi = {10.5281/zenodo.1},
  howpublished = {Zenodo},
  year = {2021},
  note = {Version 1.2},
}
"""


def test_software_becomes_misc_with_its_version_in_note() -> None:
    assert converted(LIBRARY)["sw1"] == """\
@misc{sw1,
  author = {Lou Ng},
  title = {Tool},
  url = {https://github.com/x/y},
  howpublished = {\\url{https://github.com/x/y}},
  year = {2022},
  note = {Version 2.0},
}
"""


def test_an_article_gets_journal_archiveprefix_and_its_title_addon_in_note() -> None:
    assert converted(LIBRARY)["ar1"] == """\
@article{ar1,
  author = {Max Oz},
  title = {An Article},
  volume = {3},
  number = {2},
  pages = {1--9},
  eprint = {2001.00001},
  journal = {J. Things},
  year = {2020},
  month = jul,
  day = {15},
  archivePrefix = {arXiv},
  note = {With a Note},
}
"""


def test_a_biblatex_inbook_becomes_incollection_its_main_title_in_note() -> None:
    assert converted(LIBRARY)["ib1"] == """\
@incollection{ib1,
  author = {Ned Po},
  title = {A Chapter},
  booktitle = {Volume One},
  publisher = {Springer},
  pages = {5--9},
  year = {2001},
  note = {Collected Works},
}
"""


#: What biblatex prints of the library's entries, as plain prints it of the conversion
#: (plain lower-cases the titles of articles and parts).
PRINTED = {
    "th1": "Deep Things: A Study}.\n\\newblock PhD thesis, MIT, Cambridge, MA, May 2019.",
    "th2": "Master's thesis, ETH Z{\\\"u}rich, 2018.",
    "th3": "PhD thesis, Oxford University, 2017.",
    "rp1": "Technical Report TR-12, NASA, Houston, March 2016.",
    "on1": "Example Org, \\url{https://example.org/p}, 2019.\n\\newblock Accessed 2020-01-02.",
    "ir1": "In Gil Ives, editor, {\\em Big Encyclopedia}, number~3 in Refs, pages\n  10--12. "
           "Wiley, 2015.",
    "mv1": "Springer, Berlin, 2001.\n\\newblock 4 volumes.",
    "co1": "Ida Kay, editor.\n\\newblock {\\em Essays}.",
    "rf1": "Jon Lam, editor.\n\\newblock {\\em Handbook}.\n\\newblock CRC, 2010.",
    "ds1": "Zenodo, 2021.\n\\newblock Version 1.2.",
    "sw1": "\\url{https://github.com/x/y}, 2022.\n\\newblock Version 2.0.",
    "ar1": "{\\em J. Things}, 3(2):1--9, July 2020.\n\\newblock With a Note.",
    "ib1": "\\newblock In {\\em Volume One}, pages 5--9. Springer, 2001.\n"
           "\\newblock Collected Works.",
}


@pytest.mark.parametrize("normalize", [False, True], ids=["as-written", "normalized"])
def test_plain_prints_what_the_biblatex_entries_say(normalize: bool, tmp_path: Path) -> None:
    if shutil.which("bibtex") is None:
        pytest.skip("needs bibtex (TeX Live)")
    (tmp_path / "refs.bib").write_text("\n".join(converted(LIBRARY, normalize).values()),
                                       encoding="utf-8")
    (tmp_path / "doc.aux").write_text("\\citation{*}\n\\bibdata{refs}\n\\bibstyle{plain}\n",
                                      encoding="utf-8")
    run = subprocess.run(["bibtex", "doc"], cwd=tmp_path, capture_output=True, text=True,
                         check=False)
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    assert "Warning" not in run.stdout
    assert [key for key, printed in PRINTED.items() if printed not in bbl] == []


def test_biber_reads_every_converted_entry(tmp_path: Path) -> None:
    for tool in ("biber", "pdflatex"):
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool} (TeX Live)")
    library = tmp_path / "refs.bib"
    library.write_text("\n".join(converted(LIBRARY).values()), encoding="utf-8")
    setup = BiberSetup.make(tmp_path / "setup")
    assert sorted(biber_blocks(library, setup, tmp_path / "biber")) == sorted(PRINTED)
