"""refbridge's output in the real Typst compiler (the ``typst`` package embeds it): Hayagriva
YAML and .bib files (both dialects, read by Typst's own BibLaTeX parser) give a bibliography
in Typst's styles without an error, and each entry shows its title, authors, year and venue.
The bibliography is compiled to HTML, whose list items are the entries' text."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from support import ROOT, SAMPLES

from refbridge.errors import Diagnostics
from refbridge.model import Name, Record
from refbridge.pipeline import read_file
from refbridge.registry import WriteOptions, get_writer
from refbridge.richtext import Style, Styled, rich
from refbridge.runs import ReadOptions

typst = pytest.importorskip("typst", reason="the typst package (Typst's compiler) is not "
                                            "installed: pip install -e '.[test]'")
html = pytest.importorskip("lxml.html")

LIBRARY = ROOT / "tests" / "corpus" / "seeds" / "typst-library.yml"
STYLES = ("ieee", "apa", "chicago-author-date", "modern-language-association")
SAMPLE_FILES = sorted(SAMPLES.glob("*.profile.txt")) + [SAMPLES / "varied.json"]


def records_of(path: Path) -> list[Record]:
    return list(read_file(str(path), Diagnostics(), ReadOptions()))


def written(records: list[Record], writer: str) -> str:
    out = io.StringIO()
    get_writer(writer).write(records, out, WriteOptions())
    return out.getvalue()


def bibliography(folder: Path, name: str, text: str, style: str) -> list[str]:
    """The entries of a Typst document citing every entry of ``text`` (saved as ``name``),
    as plain text; Typst's error fails the test."""
    (folder / name).write_text(text, encoding="utf-8")
    (folder / "main.typ").write_text(
        f'#bibliography("{name}", style: "{style}", full: true)\n', encoding="utf-8")
    document = typst.compile(str(folder / "main.typ"), format="html").decode("utf-8")
    return [" ".join(item.text_content().split())
            for item in html.fromstring(document).iter("li")]


def _folded(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())


def entry_of(record: Record, entries: list[str]) -> str:
    """The entry that shows the record's title (styles change its case and punctuation)."""
    title = _folded(record.title or "")
    found = [entry for entry in entries if title in _folded(entry)]
    assert found, f"{record.id}: no entry shows the title {record.title!r}: {entries}"
    return found[0]


def shown_name(name: Name) -> str:
    return name.literal or name.family or name.given or ""


def assert_shows_the_record(record: Record, entry: str) -> None:
    folded = _folded(entry)
    for person in record.authors[:1]:
        assert _folded(shown_name(person)) in folded, (record.id, entry)
    if record.year is not None:
        assert str(record.year) in entry, (record.id, entry)
    venue = record.get("container-title") or record.get("publisher")
    if venue:
        assert _folded(venue) in folded, (record.id, entry)


@pytest.mark.parametrize("style", STYLES)
def test_a_researchers_library_in_hayagriva_gives_every_entry_in_typst(
        tmp_path: Path, style: str) -> None:
    records = records_of(LIBRARY)
    entries = bibliography(tmp_path, "refs.yml", written(records, "hayagriva"), style)
    assert len(entries) == len(records)
    for record in records:
        assert_shows_the_record(record, entry_of(record, entries))


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=lambda path: path.name)
@pytest.mark.parametrize("style", ("ieee", "apa"))
def test_the_bundled_samples_in_hayagriva_give_every_entry_in_typst(
        tmp_path: Path, sample: Path, style: str) -> None:
    records = records_of(sample)
    entries = bibliography(tmp_path, "refs.yml", written(records, "hayagriva"), style)
    assert len(entries) == len(records)
    for record in records:
        if record.title:
            entry_of(record, entries)


@pytest.mark.parametrize("dialect", ("biblatex", "bibtex"))
@pytest.mark.parametrize("source", [LIBRARY, *SAMPLE_FILES], ids=lambda path: path.name)
def test_refbridges_bib_files_compile_in_typst(tmp_path: Path, dialect: str,
                                               source: Path) -> None:
    records = records_of(source)
    entries = bibliography(tmp_path, "refs.bib", written(records, dialect), "apa")
    assert len(entries) == len(records)
    for record in records:
        if record.title:
            entry_of(record, entries)


def test_a_journal_article_reads_as_typst_styles_show_one(tmp_path: Path) -> None:
    (record,) = [r for r in records_of(LIBRARY) if r.id == "okafor2021"]
    (entry,) = bibliography(tmp_path, "refs.yml", written([record], "hayagriva"), "apa")
    assert entry == ("Okafor, C. A., Lindqvist, E., & van der Berg, P. (2021). Phonon-limited "
                     "mobility in two-dimensional MoS2 transistors. ACS Nano, 15(3), "
                     "1204–1213. https://doi.org/10.1021/acsnano.0c09876")


def test_case_protection_survives_a_title_case_style(tmp_path: Path) -> None:
    record = Record(id="ito2022", type="book", citation_key="ito2022",
                    fields={"title": rich(["reading ", Styled(Style.NOCASE, ("mRNA",)),
                                           " with nanopores"])},
                    names={"author": (Name(family="Ito", given="Haruka"),)})
    (entry,) = bibliography(tmp_path, "refs.yml", written([record], "hayagriva"),
                            "chicago-author-date")
    assert "Reading mRNA with Nanopores" in entry


def test_record_text_is_shown_as_written(tmp_path: Path) -> None:
    record = Record(id="x", type="book", citation_key="x",
                    fields={"title": "Costs of $5 and {braces} in C\\C++ #set"},
                    names={"author": (Name(family="Okoye", given="Ada"),)})
    (entry,) = bibliography(tmp_path, "refs.yml", written([record], "hayagriva"), "ieee")
    assert "Costs of $5 and {braces} in C\\C++ #set" in entry
