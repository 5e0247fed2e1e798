"""``refbridge fmt --abbreviate-journals`` / ``--unabbreviate-journals`` and the same options
of ``convert``: every change reported, exit status 3 (refbridge.tidy.journals)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import run_cli

LIBRARY = """\
@string{prl = {Physical Review Letters}}

@article{doe20,
  author  = {Doe, Jane},
  title   = {Fast Things},
  journal = {Physical Review Letters},
  year    = 2020,
}

@article{roe21,
  author  = {Roe, Rick},
  title   = {Slow Things},
  journal = {Journal of the American Chemical Society},
  year    = 2021,
}

@article{poe22,
  author  = {Poe, Pat},
  title   = {Things},
  journal = {Nature},
  year    = 2022,
}

@article{lo23,
  author       = {Lo, Li},
  title        = {Own Things},
  journaltitle = {Journal of Invented Studies},
  shortjournal = {J. Invent. Stud.},
  date         = 2023,
}

@article{lo24,
  author  = {Lo, Lu},
  title   = {More Things},
  journal = {Journal of Invented Studies},
  year    = 2024,
}

@article{mo25,
  author  = {Mo, Max},
  title   = {Macro Things},
  journal = prl,
  year    = 2025,
}
"""


@pytest.fixture
def bib(tmp_path: Path) -> Path:
    path = tmp_path / "refs.bib"
    path.write_text(LIBRARY, encoding="utf-8")
    return path


def test_journals_are_abbreviated_each_change_reported_exit_3(bib: Path) -> None:
    status, _, err = run_cli("fmt", "--abbreviate-journals", str(bib))
    assert status == 3
    assert bib.read_text(encoding="utf-8") == LIBRARY.replace(
        "{Physical Review Letters},\n  year    = 2020", "{Phys. Rev. Lett.},\n  year    = 2020"
    ).replace("{Journal of the American Chemical Society}", "{J. Am. Chem. Soc.}").replace(
        "journal = {Journal of Invented Studies}", "journal = {J. Invent. Stud.}")
    assert err == (
        f"{bib}:3: note: doe20: journal 'Physical Review Letters' -> 'Phys. Rev. Lett.' "
        "(journal list)\n"
        f"{bib}:10: note: roe21: journal 'Journal of the American Chemical Society' -> "
        "'J. Am. Chem. Soc.' (journal list)\n"
        f"{bib}:32: note: lo24: journal 'Journal of Invented Studies' -> 'J. Invent. Stud.' "
        "(the file's shortjournal)\n"
        f"{bib}:39: warning: mo25: journal 'Physical Review Letters' left as it is: a @string "
        "macro or joined value (would be 'Phys. Rev. Lett.')\n"
        "refbridge: fmt: 1 of 1 file(s) changed\n")


def test_abbreviated_journals_are_written_out_again(bib: Path) -> None:
    run_cli("fmt", "--abbreviate-journals", str(bib))
    status, _, err = run_cli("fmt", "--unabbreviate-journals", str(bib))
    assert status == 3
    assert bib.read_text(encoding="utf-8") == LIBRARY
    assert err.splitlines()[2] == (f"{bib}:32: note: lo24: journal 'J. Invent. Stud.' -> "
                                   "'Journal of Invented Studies' (the file's shortjournal)")


def test_check_lists_the_entries_and_changes_nothing(bib: Path) -> None:
    status, out, _ = run_cli("fmt", "--check", "--abbreviate-journals", str(bib))
    assert status == 1
    assert out == (f"{bib}:3: doe20: reformatted\n{bib}:10: roe21: reformatted\n"
                   f"{bib}:32: lo24: reformatted\n")
    assert bib.read_text(encoding="utf-8") == LIBRARY


def test_latex_accents_stay_latex_and_iso4_fills_the_gaps(tmp_path: Path) -> None:
    pytest.importorskip("pyiso4", reason="ISO 4 rules need pyiso4 (refbridge[journals])")
    path = tmp_path / "refs.bib"
    path.write_text("@article{f,\n  journal = {Revista Mexicana de F{\\'i}sica},\n}\n",
                    encoding="utf-8")
    status, _, err = run_cli("fmt", "--abbreviate-journals", str(path))
    assert (status, path.read_text(encoding="utf-8")) == (
        3, "@article{f,\n  journal = {Rev. Mex. F{\\'i}s.},\n}\n")
    assert err.splitlines()[0] == (f"{path}:1: note: f: journal 'Revista Mexicana de Física' "
                                   "-> 'Rev. Mex. Fís.' (ISO 4)")


def test_the_setting_comes_from_a_configuration_file(bib: Path, tmp_path: Path) -> None:
    (tmp_path / ".refbridge.toml").write_text('[fmt]\njournals = "abbreviate"\n',
                                               encoding="utf-8")
    assert run_cli("fmt", str(bib))[0] == 3
    assert "journal = {Phys. Rev. Lett.}" in bib.read_text(encoding="utf-8")


def test_a_bad_setting_is_a_usage_error(bib: Path, tmp_path: Path) -> None:
    (tmp_path / ".refbridge.toml").write_text('[fmt]\njournals = "shorten"\n',
                                               encoding="utf-8")
    status, _, err = run_cli("fmt", str(bib))
    assert status == 2
    assert err == (f"refbridge: error: {tmp_path / '.refbridge.toml'} [fmt]: journals: "
                   "'shorten' is not abbreviate, unabbreviate or as-given\n")


def test_convert_abbreviates_the_journals_it_writes(bib: Path) -> None:
    status, out, err = run_cli("convert", str(bib), "--to", "bibtex", "--abbreviate-journals")
    assert status == 3
    assert [line.strip() for line in out.splitlines() if "journal" in line] == [
        "journal = {Phys. Rev. Lett.},", "journal = {J. Am. Chem. Soc.},",
        "journal = {Nature},", "shortjournal = {J. Invent. Stud.},",
        "journal = {Journal of Invented Studies},", "journal = {J. Invent. Stud.},",
        "journal = {Phys. Rev. Lett.},"]
    assert err.split("\n", 1)[1] == (
        f"{bib}:3: warning: record 'doe20': journal 'Physical Review Letters' -> "
        "'Phys. Rev. Lett.' (journal list)\n"
        f"{bib}:10: warning: record 'roe21': journal 'Journal of the American Chemical "
        "Society' -> 'J. Am. Chem. Soc.' (journal list)\n"
        f"{bib}:32: warning: record 'lo24': journal 'Journal of Invented Studies' -> "
        "'J. Invent. Stud.' (the records' container-title-short)\n"
        f"{bib}:39: warning: record 'mo25': journal 'Physical Review Letters' -> "
        "'Phys. Rev. Lett.' (journal list)\n"
        "refbridge: 4 value(s) changed to be written\n")
