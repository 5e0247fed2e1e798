"""Real LaTeX: what the writers produce goes through pdflatex + bibtex (plain) and pdflatex +
biber (biblatex) with zero errors, checked by ../shared/tools/latex-check.sh."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from support import SAMPLES, requires_tool

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.writer import BIBLATEX_WRITER, BIBTEX_WRITER, BibtexWriter
from refbridge.model import Date, Eprint, Name, Record
from refbridge.pipeline import read_file, with_keys
from refbridge.registry import WriteOptions

pytestmark = requires_tool("pdflatex", "bibtex", "biber", "kpsewhich")

SEEDS = sorted(SAMPLES.glob("*.profile.txt"))
HOSTILE = "}\\input{/etc/passwd}{ 100% & $x_1$ #2 ~ ^ \\relax {unbalanced"


def latex_check(shared: Path, bib: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(shared / "tools" / "latex-check.sh"), *options,
                           str(bib)], capture_output=True, text=True, timeout=600, check=False)


def write_bib(records: list[Record], writer: BibtexWriter, path: Path,
              options: WriteOptions | None = None) -> Path:
    options = options or WriteOptions()
    out = io.StringIO()
    writer.write(with_keys(records, options), out, options)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def seed_records(seed: Path) -> list[Record]:
    return list(read_file(str(seed), Diagnostics(strict=True)))


@pytest.mark.parametrize("writer", [BIBTEX_WRITER, BIBLATEX_WRITER], ids=lambda w: w.name)
@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
def test_the_seeds_compile_without_errors(shared_dir: Path, tmp_path: Path, seed: Path,
                                          writer: BibtexWriter) -> None:
    bib = write_bib(seed_records(seed), writer, tmp_path / "seed.bib")
    result = latex_check(shared_dir, bib)
    assert result.returncode == 0, result.stdout
    assert "bibtex: 0 errors" in result.stdout and "biber: 0 errors" in result.stdout


def test_capitals_of_acronyms_survive_bibtex_with_plain(shared_dir: Path,
                                                        tmp_path: Path) -> None:
    seed = SAMPLES / "zhengping-qian.profile.txt"
    bib = write_bib(seed_records(seed), BIBTEX_WRITER, tmp_path / "seed.bib")
    result = latex_check(shared_dir, bib, "--keep")
    kept = Path(re.findall(r"^kept: (.+)$", result.stdout, re.MULTILINE)[-1])
    bbl = (kept / "bibtexdoc.bbl").read_text(encoding="utf-8")
    assert "\\newblock {SpecDB}: {LLM}-generated customized databases via feature-oriented\n" \
        "  decomposition." in bbl


HOSTILE_RECORDS = [
    Record(id="h1", type="article-journal", citation_key="hostile1",
           fields={"title": HOSTILE, "container-title": HOSTILE, "volume": HOSTILE,
                   "page": HOSTILE, "note": HOSTILE, "abstract": HOSTILE + "\n\n" + HOSTILE,
                   "URL": "https://example.org/a_b%20c#d~e&f=1"},
           names={"author": (Name(family=HOSTILE, given=HOSTILE), Name(literal=HOSTILE))},
           dates={"issued": Date.of(2024, 5)}, keywords=(HOSTILE,)),
    Record(id="h2", type="book", citation_key="hostile2",
           fields={"title": "Müller’s Łódź “naïve” café — SQL_Server", "publisher": HOSTILE,
                   "publisher-place": HOSTILE, "edition": HOSTILE},
           names={"editor": (Name(family="Gómez", given="Martín", suffix="Jr."),)},
           dates={"issued": Date(literal=HOSTILE)}),
    Record(id="h3", type="article", citation_key="hostile3", fields={"title": HOSTILE},
           names={"author": (Name(family="Qian", given="Zhengping"),)},
           incomplete_names=frozenset({"author"}), dates={"issued": Date.of(2026)},
           eprint=Eprint("arXiv", "2601.01234", "cs.DB")),
]


@pytest.mark.parametrize("unicode", [False, True], ids=["latex", "utf8"])
@pytest.mark.parametrize("writer", [BIBTEX_WRITER, BIBLATEX_WRITER], ids=lambda w: w.name)
def test_hostile_text_in_every_field_compiles(shared_dir: Path, tmp_path: Path,
                                              writer: BibtexWriter, unicode: bool) -> None:
    bib = write_bib(HOSTILE_RECORDS, writer, tmp_path / "hostile.bib",
                    WriteOptions(unicode=unicode))
    result = latex_check(shared_dir, bib, "--no-validate")
    assert result.returncode == 0, result.stdout
