"""Real files to mutate, per reader: the bundled samples, the seeds in tests/corpus/seeds, and
(when installed) the .bib databases that ship with TeX Live, cut into small windows."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

from support import SAMPLES, SHARED

from fuzz.mutation import windows

SEEDS = Path(__file__).resolve().parent.parent / "corpus" / "seeds"
#: Specimens of the services' answers (ORCID, dblp, OpenAlex, Semantic Scholar, arXiv, Scholar)
SPECIMENS = Path(__file__).resolve().parent.parent / "fixtures" / "sources"

#: reader -> file name patterns of its seeds in the samples, tests/corpus/seeds and ../shared
PATTERNS: dict[str, tuple[str, ...]] = {
    "profile": ("*.profile.txt", "seeds/*.txt"),
    "csl-json": ("*.json",),
    "bibtex": ("*.bib",),
    "biblatex": ("*.bib",),
    "ris": ("*.ris",),
    "zotero": ("*.rdf",),
    "orcid": ("qian.orcid-*",),
    "dblp": ("*.dblp.xml",),
    "openalex": ("*.openalex.json",),
    "semantic-scholar": ("*.s2-papers.json",),
    "arxiv-atom": ("*.arxiv.atom",),
    "google-scholar-csv": ("*.scholar.csv",),
    "hayagriva": ("*.yml",),
}

#: .bib databases of TeX Live (real files by many hands), found with kpsewhich
TEX_DATABASES = ("biblatex-examples.bib", "xampl.bib")


@cache
def _tex_databases() -> tuple[bytes, ...]:
    if shutil.which("kpsewhich") is None:
        return ()
    found = subprocess.run(["kpsewhich", *TEX_DATABASES], capture_output=True, text=True,
                           check=False).stdout.split()
    pieces: list[bytes] = []
    for path in found:
        pieces.extend(windows(Path(path).read_bytes(), b"\n@", 4))
    return tuple(pieces)


@cache
def seeds_for(reader: str) -> tuple[bytes, ...]:
    """Seed inputs of ``reader``: whole small files, windows of large ones."""
    files: list[Path] = []
    for pattern in PATTERNS.get(reader, ()):
        for folder in (SAMPLES, SEEDS, SHARED, SPECIMENS):
            files.extend(sorted(folder.glob(pattern)) if folder.is_dir() else ())
    seeds = [path.read_bytes() for path in files]
    if reader in ("bibtex", "biblatex"):
        seeds.extend(_tex_databases())
    return tuple(seeds)
