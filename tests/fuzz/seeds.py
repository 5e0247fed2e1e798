"""Real files to mutate, per reader: the bundled samples, the seeds in tests/corpus/seeds, the
services' answer specimens, (when installed) the .bib databases that ship with TeX Live, and
(when ../shared is there) the import test inputs of Zotero's translators and JabRef's importers,
large files cut into small windows."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

from fuzz.mutation import windows
from support import SAMPLES, SHARED

SEEDS = Path(__file__).resolve().parent.parent / "corpus" / "seeds"
#: Specimens of the services' answers (ORCID, dblp, OpenAlex, Semantic Scholar, arXiv, Scholar)
SPECIMENS = Path(__file__).resolve().parent.parent / "fixtures" / "sources"
#: Zotero's and JabRef's reader test data (see ../shared/conformance/README.md)
CONFORMANCE = SHARED / "conformance"

#: reader -> file name patterns of its seeds in the samples, tests/corpus/seeds and ../shared
PATTERNS: dict[str, tuple[str, ...]] = {
    "profile": ("*.profile.txt", "seeds/*.txt"),
    "csl-json": ("*.json",),
    "bibtex": ("*.bib",),
    "biblatex": ("*.bib",),
    "ris": ("*.ris",),
    "zotero": ("*.rdf",),
    "zotero-json": ("*.zotero-json.json",),
    "endnote": ("*.enw",),
    "endnote-xml": ("*.endnote-xml.xml",),
    "nbib": ("*.nbib",),
    "pubmed-xml": ("*.pubmed-xml.xml",),
    "wos": ("*.isi",),
    "scopus-csv": ("*.scopus-csv.csv",),
    "mods": ("*.mods.xml",),
    "word-xml": ("*.word-xml.xml",),
    "csv": ("*.csv.csv",),
    "orcid": ("qian.orcid-*",),
    "dblp": ("*.dblp.xml",),
    "openalex": ("*.openalex.json",),
    "semantic-scholar": ("*.s2-papers.json",),
    "arxiv-atom": ("*.arxiv.atom",),
    "google-scholar-csv": ("*.scholar.csv",),
    "hayagriva": ("*.yml",),
}

#: reader -> patterns, under ../shared/conformance, of the inputs of Zotero's import tests
#: (``zotero-import/SLUG/NN.input``) and of JabRef's importer tests meant for that format
#: (JabRef's expected ``.bib`` files are BibTeX inputs too)
CONFORMANCE_PATTERNS: dict[str, tuple[str, ...]] = {
    "ris": ("zotero-import/ris/*.input", "jabref-importer/*.ris"),
    "nbib": ("zotero-import/medlinenbib/*.input", "jabref-importer/*.nbib",
             "jabref-importer/MedlinePlain*.txt"),
    "endnote-xml": ("zotero-import/endnote-xml/*.input", "jabref-importer/EndnoteXml*.xml"),
    "endnote": ("zotero-import/referbibix/*.input", "jabref-importer/Endnote.*",
                "jabref-importer/refer.*.ref"),
    "pubmed-xml": ("zotero-import/pubmed-xml/*.input", "jabref-importer/MedlineImporter*.xml"),
    "wos": ("zotero-import/web-of-science-tagged/*.input", "jabref-importer/*.isi"),
    "mods": ("zotero-import/mods/*.input", "jabref-importer/MODS*.xml"),
    "word-xml": ("jabref-importer/*MsBib*.xml",),
    "csl-json": ("zotero-import/csl-json/*.input",),
    "bibtex": ("zotero-import/bibtex/*.input", "jabref-importer/*.bib"),
    "biblatex": ("zotero-import/bibtex/*.input", "jabref-importer/*.bib"),
    "openalex": ("zotero-import/openalex-json/*.input",),
}
#: files larger than this are mutated a window of records at a time
WINDOW_BYTES = 16_000
#: where a window of a large file may be cut, per reader (other readers' files are whole)
RECORD_STARTS: dict[str, bytes] = {"bibtex": b"\n@", "biblatex": b"\n@", "ris": b"\nTY  - ",
                                   "nbib": b"\nPMID- ", "wos": b"\nPT ", "endnote": b"\n%0 "}

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
    """Seed inputs of ``reader`` kept with the project (and TeX Live's): whole small files,
    windows of large ones."""
    files: list[Path] = []
    for pattern in PATTERNS.get(reader, ()):
        for folder in (SAMPLES, SEEDS, SHARED, SPECIMENS):
            files.extend(sorted(folder.glob(pattern)) if folder.is_dir() else ())
    seeds = [path.read_bytes() for path in files]
    if reader in ("bibtex", "biblatex"):
        seeds.extend(_tex_databases())
    return tuple(seeds)


@cache
def conformance_seeds(reader: str) -> tuple[bytes, ...]:
    """The inputs of Zotero's and JabRef's import tests for ``reader`` (none without
    ../shared/conformance); a large file is cut into windows of a few records."""
    seeds: list[bytes] = []
    for pattern in CONFORMANCE_PATTERNS.get(reader, ()):
        for path in sorted(CONFORMANCE.glob(pattern)):
            data = path.read_bytes()
            if len(data) > WINDOW_BYTES and reader in RECORD_STARTS:
                seeds.extend(windows(data, RECORD_STARTS[reader], 4))
            else:
                seeds.append(data)
    return tuple(seeds)
