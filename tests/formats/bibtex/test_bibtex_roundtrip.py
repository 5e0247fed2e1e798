"""Round trips: biblatex-examples.bib -> model -> BibLaTeX -> model gives the same model, and
its CSL-JSON is valid against the official schema."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import SAMPLES, biblatex_examples, run_cli, tex_live_library

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex import tables
from refbridge.formats.bibtex.reader import READER
from refbridge.formats.bibtex.writer import BIBLATEX_WRITER, BIBTEX_WRITER, BibtexWriter, Layout
from refbridge.formats.csljson import WRITER as CSL_WRITER
from refbridge.latex.encode import guess_protection
from refbridge.model import Record
from refbridge.pipeline import read_file
from refbridge.registry import WriteOptions


def read_text(text: str, source: str = "refs.bib") -> list[Record]:
    diagnostics = Diagnostics(strict=True)
    records = [r.replace(source=None) for r in READER.read(io.StringIO(text), source,
                                                            diagnostics)]
    assert diagnostics.warnings == []  # an info line may say the file was read as BibLaTeX
    return records


def written(records: list[Record], writer: BibtexWriter, **options: object) -> str:
    out = io.StringIO()
    writer.write(records, out, WriteOptions(**options))  # type: ignore[arg-type]
    return out.getvalue()


@pytest.fixture(scope="module")
def examples() -> list[Record]:
    return read_text(biblatex_examples().read_text(encoding="utf-8"))


def test_biblatex_examples_is_read_whole(examples: list[Record]) -> None:
    assert len(examples) == 92
    assert {r.type for r in examples} >= {"article-journal", "book", "chapter", "thesis",
                                          "report", "patent", "webpage", "article"}


@pytest.mark.parametrize("unicode", [False, True], ids=["latex", "utf8"])
def test_biblatex_examples_round_trip_through_biblatex(examples: list[Record],
                                                       unicode: bool) -> None:
    assert read_text(written(examples, BIBLATEX_WRITER, unicode=unicode)) == examples


def test_a_second_round_trip_writes_the_same_text(examples: list[Record]) -> None:
    once = written(examples, BIBLATEX_WRITER)
    assert written(read_text(once), BIBLATEX_WRITER) == once


def _without_entry_type(record: Record) -> Record:
    """``record`` without what its entry type says (type, genre, kept entry type) and the
    arXiv address the classic writer adds."""
    fields = {k: v for k, v in record.fields.items() if k not in ("genre", "URL")}
    extra = {k: v for k, v in record.extra.items() if k != "bibtex.@type"}
    return record.replace(type="document", fields=fields, extra=extra)


def _written_for(dialect: str, records: list[Record]) -> list[Record]:
    return [r for r in records if Layout.of(r, WriteOptions()).dialect == dialect]


def test_classic_bibtex_keeps_everything_of_entries_written_for_bibtex() -> None:
    """Nelson Beebe's texbook1.bib, a classic library (BibLaTeX entries are converted for
    BibTeX's styles, see the next test)."""
    library = list(read_file(str(tex_live_library("texbook1.bib")), Diagnostics()))
    classic = [r.replace(source=None) for r in _written_for(tables.BIBTEX, library)]
    back = read_text(written(classic, BIBTEX_WRITER))
    assert [_without_entry_type(r) for r in back] == [_without_entry_type(r) for r in classic]


def test_classic_bibtex_of_entries_written_for_biblatex_has_only_fields_bibtex_reads(
        examples: list[Record]) -> None:
    """Their BibLaTeX fields are renamed (``journaltitle``: ``journal``), joined (``subtitle``)
    or said in ``note`` (``titleaddon``, ``urldate``): none is left for styles to ignore."""
    text = written(_written_for(tables.BIBLATEX, examples), BIBTEX_WRITER)
    fields = set(re.findall(r"^  (\w+) = ", text, re.MULTILINE))
    assert fields & ({*tables.CLASSIC_NOTE_FIELDS, *tables.CLASSIC_RENAMES["*"], "subtitle",
                      "date"}) == set()


def test_biblatex_examples_as_csl_json_is_schema_valid(examples: list[Record],
                                                       shared_dir: Path,
                                                       tmp_path: Path) -> None:
    out = io.StringIO()
    CSL_WRITER.write(examples, out, WriteOptions())
    path = tmp_path / "examples.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    assert len(json.loads(out.getvalue())) == 92
    result = subprocess.run([sys.executable, str(shared_dir / "tools" / "csl-json-check.py"),
                             str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("writer", [BIBTEX_WRITER, BIBLATEX_WRITER], ids=lambda w: w.name)
@pytest.mark.parametrize("seed", sorted(SAMPLES.glob("*.profile.txt")), ids=lambda p: p.name)
def test_seed_records_round_trip_through_both_dialects(seed: Path,
                                                       writer: BibtexWriter) -> None:
    records = [r.replace(source=None, citation_key=r.id, extra={})
               for r in read_file(str(seed), Diagnostics(strict=True))]
    expected = [r.replace(fields={**r.fields, "title": guess_protection(r.fields["title"])})
                for r in records]  # the title's acronyms protected, as the .bib says
    assert [r.replace(id=o.id) for r, o in
            zip(read_text(written(records, writer)), records, strict=True)] == expected


@pytest.mark.parametrize("writer", [BIBTEX_WRITER, BIBLATEX_WRITER], ids=["bibtex", "biblatex"])
def test_a_preprint_entry_is_written_back_as_it_was_read(writer: BibtexWriter) -> None:
    entry = ("@misc{qian2026specdb,\n  author = {Qian, Zhengping and others},\n"
             "  title = {{SpecDB}: Generated Databases},\n"
             "  howpublished = {arXiv preprint, cs.DB (Databases)},\n  year = {2026},\n"
             "  archivePrefix = {arXiv},\n  primaryClass = {cs.DB},\n  eprinttype = {arxiv},\n}\n")
    assert written(read_text(entry), writer) == entry


@pytest.mark.parametrize("writer", [BIBTEX_WRITER, BIBLATEX_WRITER], ids=["bibtex", "biblatex"])
def test_an_empty_field_is_written_back_for_bibtex_to_see(writer: BibtexWriter) -> None:
    entry = ("@article{article-crossref,\n  author = {Aamport, Leslie A.},\n  key = {},\n"
             "  title = {The Gnats and Gnus},\n  journal = {G-Animal's Journal},\n}\n")
    assert written(read_text(entry), writer) == entry


#: an arXiv preprint of two classes written with a comma, of 1999 to 2001, of January
COMMA_CLASSES_AND_RANGE = (
    "@article{mezard1999,\n  author = {M{\\'e}zard, Marc},\n  title = {Spin Glasses},\n"
    "  journal = {Phys. Rev. B},\n  year = {1999--2001},\n  month = jan,\n"
    "  eprint = {cond-mat/9901001},\n  archivePrefix = {arXiv},\n"
    "  primaryClass = {cond-mat, physics:physics},\n}\n")


def test_eprint_classes_separated_by_a_comma_keep_it() -> None:
    assert re.findall(r"  primaryClass = .*\n", written(read_text(COMMA_CLASSES_AND_RANGE),
                                                          BIBTEX_WRITER)) == [
        "  primaryClass = {cond-mat, physics:physics},\n"]


def test_a_month_macro_beside_a_year_range_stays_a_macro() -> None:
    assert re.findall(r"  month = .*\n", written(read_text(COMMA_CLASSES_AND_RANGE),
                                                   BIBTEX_WRITER)) == ["  month = jan,\n"]


def test_comma_classes_and_a_month_macro_survive_csl_json() -> None:
    as_json, _ = convert(COMMA_CLASSES_AND_RANGE, "bibtex", "csl-json")
    assert convert(as_json, "csl-json", "bibtex")[0] == COMMA_CLASSES_AND_RANGE


def convert(text: str, source: str, target: str) -> tuple[str, str]:
    """What ``refbridge convert - --from SOURCE --to TARGET`` writes for ``text``: (standard
    output, standard error)."""
    _, stdout, stderr = run_cli("convert", "-", "--from", source, "--to", target, stdin=text)
    return stdout, stderr


def test_a_repeated_key_gets_a_unique_csl_json_id_and_is_repeated_again_in_a_bib() -> None:
    bib = "@misc{lee2007,\n  title = {One},\n}\n\n@misc{lee2007,\n  title = {Two},\n}\n"
    as_json, _ = convert(bib, "bibtex", "csl-json")
    assert [item["id"] for item in json.loads(as_json)] == ["lee2007", "lee2007a"]
    assert convert(as_json, "csl-json", "bibtex")[0] == bib


def test_an_entry_without_a_key_gets_one_and_a_bib_is_written_without_one_again() -> None:
    bib = "@article{,\n  author = {Lee, Ann},\n  title = {No Key},\n  year = {2001},\n}\n"
    as_json, warnings = convert(bib, "bibtex", "csl-json")
    assert warnings == ("<stdin>:1: warning: the entry has no citation key: it gets one "
                        "(a .bib is written without one again)\n")
    assert [item["id"] for item in json.loads(as_json)] == ["lee2001no"]
    assert convert(as_json, "csl-json", "bibtex")[0] == bib


def test_a_doi_written_as_a_link_is_bare_in_the_model_and_written_back_as_a_link() -> None:
    source = ("@article{demaine2015,\n  title = {Folding},\n"
              "  doi = {https://doi.org/10.1016/j.tcs.2015.01.054},\n  year = {2015},\n}\n")
    (record,) = read_text(source)
    assert record.fields["DOI"] == "10.1016/j.tcs.2015.01.054"
    assert written([record], BIBLATEX_WRITER) == source


def test_a_doi_changed_after_reading_is_written_as_the_model_has_it() -> None:
    (record,) = read_text("@article{a,\n  title = {T},\n  doi = {doi:10.1000/old},\n}\n")
    changed = record.replace(fields={**record.fields, "DOI": "10.1000/new"})
    assert "doi = {10.1000/new}" in written([changed], BIBLATEX_WRITER)
