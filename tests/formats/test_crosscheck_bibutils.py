"""Independent cross-checks with bibutils (Debian's ``bibutils``): bibutils reads what
refbridge writes, refbridge reads what bibutils writes, and the records agree on what a person
sees: title, authors' family names and year. The records come from TeX Live's xampl.bib and
biblatex-examples.bib turned into MODS by bibutils' ``bib2xml``. Skipped with the reason when
bibutils or TeX Live is missing."""

from __future__ import annotations

import io
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.registry import WriteOptions, get_reader, get_writer

pytestmark = pytest.mark.skipif(shutil.which("bib2xml") is None,
                                reason="needs bibutils (apt-get install bibutils)")
DATABASES = ("xampl.bib", "biblatex-examples.bib")


def database(name: str) -> Path:
    found = subprocess.run(["kpsewhich", name], capture_output=True, text=True,
                           check=False).stdout.strip() if shutil.which("kpsewhich") else ""
    if not found:
        pytest.skip(f"needs TeX Live's {name} (kpsewhich)")
    return Path(found)


def bibutils(tool: str, text: str, tmp_path: Path) -> str:
    source = tmp_path / f"in-{tool}.txt"
    source.write_text(text, encoding="utf-8")
    return subprocess.run([tool, str(source)], capture_output=True, text=True, check=True,
                          errors="replace").stdout


def read(format_name: str, text: str) -> list[Record]:
    return list(get_reader(format_name).read(io.StringIO(text.lstrip("\ufeff")), format_name,
                                             Diagnostics()))


def write(format_name: str, records: list[Record]) -> str:
    out = io.StringIO()
    get_writer(format_name).write(records, out, WriteOptions())
    return out.getvalue()


def seen(record: Record, names: bool = True) -> tuple[object, ...]:
    """What a person sees of a record: title, authors' family names, year."""
    title = unicodedata.normalize("NFC", " ".join((record.title or "").split())).lower()
    families = tuple((n.family or n.literal or "").split()[-1].lower() for n in record.authors)
    return (title, families if names else (), record.year)


def agreement(ours: list[Record], theirs: list[Record], names: bool = True) -> float:
    assert len(ours) == len(theirs)
    return sum(seen(a, names) == seen(b, names) for a, b in zip(ours, theirs)) / len(ours)


@pytest.fixture(params=DATABASES)
def mods_text(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return bibutils("bib2xml", database(request.param).read_text(encoding="utf-8"), tmp_path)


#: bibutils' converters out of MODS, the refbridge reader of what they write, and the least
#: share of records that must agree (measured: see the README's figures).
FROM_BIBUTILS = (("xml2end", "endnote", 0.89), ("xml2isi", "wos", 0.89),
                 ("xml2ris", "ris", 0.89))


@pytest.mark.parametrize(("tool", "reader", "least"), FROM_BIBUTILS)
def test_refbridge_reads_what_bibutils_writes(tool: str, reader: str, least: float,
                                              mods_text: str, tmp_path: Path) -> None:
    reference = read("mods", mods_text)
    assert agreement(reference, read(reader, bibutils(tool, mods_text, tmp_path))) >= least


def test_word_sources_written_by_bibutils_read_to_the_same_titles_and_years(
        mods_text: str, tmp_path: Path) -> None:
    reference = read("mods", mods_text)
    theirs = read("word-xml", bibutils("xml2wordbib", mods_text, tmp_path))
    assert agreement(reference, theirs, names=False) >= 0.89


#: refbridge writers, the bibutils converter into MODS that reads them, and the least share.
TO_BIBUTILS = (("endnote", "end2xml", 0.9), ("endnote-xml", "endx2xml", 0.9))


@pytest.mark.parametrize(("writer", "tool", "least"), TO_BIBUTILS)
def test_bibutils_reads_what_refbridge_writes(writer: str, tool: str, least: float,
                                              mods_text: str, tmp_path: Path) -> None:
    reference = read("mods", mods_text)
    back = read("mods", bibutils(tool, write(writer, reference), tmp_path))
    assert agreement(reference, back) >= least


def test_bibutils_turns_refbridge_mods_into_the_same_bibtex(mods_text: str,
                                                            tmp_path: Path) -> None:
    reference = read("mods", mods_text)
    back = {r.citation_key: r for r in read("bibtex", bibutils(
        "xml2bib", write("mods", reference), tmp_path))}
    matched = [(r, back[r.citation_key]) for r in reference if r.citation_key in back]
    assert len(matched) >= len(reference) - 1  # xampl.bib's @preamble becomes a record
    assert sum(seen(a) == seen(b) for a, b in matched) / len(matched) >= 0.9


def test_bibutils_reads_the_titles_of_refbridge_word_sources(mods_text: str,
                                                             tmp_path: Path) -> None:
    """bibutils 7.2's Word reader keeps titles but drops names and years (it does so with
    its own ``xml2wordbib`` output too), so titles are what can be compared."""
    reference = read("mods", mods_text)
    back = read("mods", bibutils("wordbib2xml", write("word-xml", reference), tmp_path))
    assert [r.title for r in back] == [r.title for r in reference]
