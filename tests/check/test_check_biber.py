"""Every data model warning biber gives (``biber --tool --validate-datamodel``) on a library
full of faults, ``refbridge check --dialect biblatex`` gives too, as the same rule on the same
entry. Skipped when biber is not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from refbridge.check import CheckOptions, check_files
from refbridge.check.biber import biber_findings
from refbridge.errors import Diagnostics

FAULTY = """\
@string{sigrec = {SIGMOD Record}}
@article{qian2020,
  author = {Qian, Zhengping and Yang, Mao},
  title = {Timely reliability},
  journal = sigrec,
  year = {2020},
  volume = {vol. 49},
  isbn = {978-0-201-89683-1},
  issn = {0163-5807},
  urldate = {yesterday},
  shelf = {B-12},
}
@book{knuth1984,
  title = {The {\\TeX}book},
  publisher = {Addison-Wesley},
}
@thesis{zhou2010,
  author = {Zhou, Jingren},
  title = {Query optimization},
  year = {2010},
  gender = {xx},
  edition = {2},
}
@online{vldb2021,
  title = {Proceedings of the {VLDB} Endowment},
  date = {2021},
}
@inbook{gray1993,
  author = {Gray, Jim},
  title = {Transaction processing},
  booktitle = {Concepts and techniques},
  date = {1993-02-30},
  eventdate = {1992-06-01},
}
@foobar{misc2000,
  title = {Notes},
  year = {2000},
}
@inproceedings{child2020,
  author = {Qian, Zhengping},
  title = {Timely},
  booktitle = {SIGMOD},
  year = {2020},
  crossref = {sigmod2020},
}
@article{smith2001,
  author = {Smith, John, Doe, Jane},
  title = {Two authors, one list},
  journal = {Nature},
  year = {2001},
}
"""


def test_check_gives_every_warning_biber_gives(tmp_path: Path) -> None:
    biber = shutil.which("biber")
    if biber is None:
        pytest.skip("biber is not installed")
    path = tmp_path / "faulty.bib"
    path.write_text(FAULTY, encoding="utf-8")
    run = subprocess.run([biber, "--tool", "--validate-datamodel", "--nolog",
                          "--output-directory", str(tmp_path), str(path)],
                         capture_output=True, text=True, cwd=tmp_path, check=False)
    theirs = set(biber_findings(run.stdout + run.stderr))
    assert {rule for rule, _ in theirs} >= {
        "missing-field", "unknown-entry-type", "unknown-field", "field-not-for-type",
        "field-type", "date-format", "issn", "missing-reference", "names"}
    options = CheckOptions.of(("biblatex",), "biblatex")
    ours = {(f.code, f.key) for f in check_files([str(path)], Diagnostics(), options=options)}
    assert theirs - ours == set()
