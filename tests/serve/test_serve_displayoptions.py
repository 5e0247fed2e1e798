"""Better BibTeX's display options, applied to what an export writes: ``exportNotes``,
``useJournalAbbreviation``, ``exportCharset``; the options refbridge cannot apply are refused
with Better BibTeX's error (-32602), never ignored."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import Running, rpc, running

from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import read_stream
from refbridge.serve.cayw import export
from refbridge.serve.displayoptions import (
    DisplayOptionError,
    DisplayOptions,
    display_options,
    query_options,
)

LIBRARY = r"""@article{sato2020,
  author = {Sato, Aiko and Ferreira, L{\'u}cia},
  title = {Vibrational Spectra of Water Clusters},
  journal = {Journal of Chemical Physics},
  year = {2020},
  note = {Erratum in vol. 153},
}

@article{ode2019,
  author = {Ode, Bjørn},
  title = {Salt Marshes and Tides},
  journal = {Estuarine Research Letters},
  shortjournal = {Estuar. Res. Lett.},
  year = {2019},
}
"""
#: A Zotero item's two child notes, as the Zotero readers keep them.
NOTES = ('<div data-schema-version="9"><p>Compare <b>Table 2</b> with Ode.</p>\n'
         "<p>Second   paragraph.</p></div>\n\n<p>Another note</p>")


def records(notes: bool = True) -> list[Record]:
    read = list(read_stream(io.StringIO(LIBRARY), LIBRARY, "library.bib", Diagnostics()))
    if notes:
        read[0] = read[0].replace(extra={**read[0].extra, "zotero.notes": NOTES})
    return read


def exported(options: dict[str, Any], translator: str = "Better BibLaTeX") -> str:
    return export(records(), translator, display_options(options))


SATO_HEAD = """@article{sato2020,
  author = {Sato, Aiko and Ferreira, L{\\'u}cia},
  title = {Vibrational Spectra of Water Clusters},
"""


def test_without_export_notes_child_notes_are_left_out() -> None:
    assert exported({}).startswith(SATO_HEAD + """\
  journal = {Journal of Chemical Physics},
  year = {2020},
  note = {Erratum in vol. 153},
}
""")


def test_export_notes_writes_child_notes_after_the_note() -> None:
    assert exported({"exportNotes": True}).startswith(SATO_HEAD + """\
  journal = {Journal of Chemical Physics},
  year = {2020},
  note = {Erratum in vol. 153 Compare Table 2 with Ode. Second paragraph. Another note},
}
""")


def test_export_notes_keeps_each_paragraph_in_csl_json() -> None:
    assert '"note": "Erratum in vol. 153\\n\\nCompare Table 2 with Ode.\\n\\nSecond ' \
           'paragraph.\\n\\nAnother note"' in exported({"exportNotes": True}, "Better CSL JSON")


def test_use_journal_abbreviation_from_the_lists_and_the_records_own() -> None:
    assert exported({"useJournalAbbreviation": True}) == SATO_HEAD + """\
  journal = {J. Chem. Phys.},
  year = {2020},
  note = {Erratum in vol. 153},
}

@article{ode2019,
  author = {Ode, Bjørn},
  title = {Salt Marshes and Tides},
  journal = {Estuar. Res. Lett.},
  year = {2019},
}
"""


def test_without_journal_abbreviation_the_full_title_and_the_short_one() -> None:
    assert exported({"useJournalAbbreviation": False}).endswith("""\
  journal = {Estuarine Research Letters},
  shortjournal = {Estuar. Res. Lett.},
  year = {2019},
}
""")


def test_export_charset_utf_8_writes_unicode() -> None:
    assert exported({"exportCharset": "UTF-8"}).startswith(
        "@article{sato2020,\n  author = {Sato, Aiko and Ferreira, Lúcia},\n")


def test_export_charset_us_ascii_writes_latex_commands_even_for_what_the_bib_spelled_raw(
        ) -> None:
    assert "  author = {Ode, Bj{\\o}rn},\n" in exported({"exportCharset": "us-ascii"})


def test_export_charset_us_ascii_is_refused_for_a_writer_of_utf_8_only() -> None:
    with pytest.raises(DisplayOptionError, match="^exportCharset us-ascii: the csl-json "
                                                 "writer writes UTF-8 only$"):
        exported({"exportCharset": "us-ascii"}, "Better CSL JSON")


def test_worker_changes_nothing() -> None:
    assert exported({"worker": True}) == exported({"worker": False}) == exported({})


def test_keep_updated_is_what_an_auto_export_is() -> None:
    assert display_options({"keepUpdated": True}) == DisplayOptions()


@pytest.mark.parametrize(("options", "message"), [
    ({"exportFileData": True}, "exportFileData: refbridge exports no attachment files"),
    ({"biblatexAPA": True},
     "biblatexAPA: refbridge writes standard biblatex, not biblatex-apa's data model"),
    ({"biblatexChicago": True},
     "biblatexChicago: refbridge writes standard biblatex, not biblatex-chicago's data model"),
    ({"keepUpdated": False},
     "keepUpdated: an auto-export is always kept updated"),
    ({"exportCharset": "windows-1252"},
     "exportCharset 'windows-1252': refbridge writes UTF-8 or us-ascii (LaTeX commands)"),
    ({"exportNotes": "yes"}, "display option value 'yes' must be true or false"),
    ({"Include Annotations": True},
     ("unknown display option 'Include Annotations' (known: exportNotes, "
      "useJournalAbbreviation, exportCharset, exportFileData, biblatexAPA, biblatexChicago, "
      "keepUpdated, worker)")),
])
def test_an_option_refbridge_cannot_apply_is_refused(options: dict[str, Any], message: str
                                                     ) -> None:
    with pytest.raises(DisplayOptionError) as refused:
        display_options(options)
    assert str(refused.value) == message


def test_a_pick_takes_its_display_options_as_better_bibtex_reads_them() -> None:
    assert query_options({"exportNotes": "Yes", "useJournalAbbreviation": "1"}) == \
        DisplayOptions(export_notes=True, journal_abbreviation=False)


# -- through the server ---------------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    with running(tmp_path, text=LIBRARY) as state:
        yield state


def test_an_auto_export_applies_its_display_options(server: Running, tmp_path: Path) -> None:
    aux = tmp_path / "paper.aux"
    aux.write_text("\\citation{ode2019}\n", encoding="utf-8")
    rpc(server, "collection.scanAUX", "//Paper", str(aux))
    target = tmp_path / "paper.bib"
    answer = rpc(server, "autoexport.add", "//Paper", "Better BibTeX", str(target),
                 {"useJournalAbbreviation": True, "exportCharset": "us-ascii",
                  "keepUpdated": True})
    assert "result" in answer
    assert target.read_text(encoding="utf-8") == """\
@article{ode2019,
  author = {Ode, Bj{\\o}rn},
  title = {Salt Marshes and Tides},
  journal = {Estuar. Res. Lett.},
  year = {2019},
}
"""


def test_an_auto_export_with_an_option_it_cannot_apply_is_not_added(server: Running,
                                                                    tmp_path: Path) -> None:
    target = tmp_path / "paper.bib"
    assert rpc(server, "autoexport.add", "//Paper", "Better BibLaTeX", str(target),
               {"exportFileData": True})["error"] == {
        "code": -32602, "message": "exportFileData: refbridge exports no attachment files"}
    assert (server.served.shelf.autoexports.listed(), target.exists()) == ([], False)


def test_an_auto_export_whose_charset_its_writer_has_not_is_not_added(server: Running,
                                                                      tmp_path: Path) -> None:
    target = tmp_path / "paper.json"
    assert rpc(server, "autoexport.add", "//Paper", "Better CSL JSON", str(target),
               {"exportCharset": "us-ascii"})["error"] == {
        "code": -32602, "message": "exportCharset us-ascii: the csl-json writer writes UTF-8 "
                                   "only"}
    assert not target.exists()


def test_a_translated_pick_abbreviates_its_journals(server: Running) -> None:
    answer = server.cayw("format=translate&translator=bibtex&useJournalAbbreviation=y",
                         [{"key": "sato2020"}])
    assert "  journal = {J. Chem. Phys.},\n" in answer.text
