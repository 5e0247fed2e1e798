"""Zotero's Extra field: the lines Zotero, citeproc-js and Better BibTeX read, and the rest."""

from __future__ import annotations

from refbridge.formats.zotero.extra import (
    ExtraFields,
    extra_text,
    is_plain_note,
    key_and_fields,
    read_extra,
    variable_of,
)

#: An Extra as a Zotero user's item holds it (Better BibTeX's key and fields, Zotero's labels).
USERS_EXTRA = ("Citation Key: knuth:tex\nOriginal Date: 1968\nDOI: 10.5555/tex\n"
               "tex.howpublished: Softcover\nFirst printing, with corrections.\n"
               'refbridge: {"custom": {"incomplete-names": ["author"]}}')


def test_the_lines_of_an_extra_are_its_key_variables_bib_fields_residue_and_text() -> None:
    assert read_extra(USERS_EXTRA) == ExtraFields(
        citation_key="knuth:tex",
        variables={"original-date": "1968", "DOI": "10.5555/tex"},
        tex={"howpublished": "Softcover"},
        residue={"custom": {"incomplete-names": ["author"]}},
        text="First printing, with corrections.")


def test_zotero_labels_and_csl_names_name_the_same_variable() -> None:
    assert [variable_of(label) for label in (
        "Original Date", "original-date", "originalDate", "Archive Location", "ISBN",
        "Note", "Citation Key")] == [
        "original-date", "original-date", "original-date", "archive_location", "ISBN",
        None, None]


def test_an_extra_is_written_key_first_then_the_variables_citeproc_reads() -> None:
    assert extra_text("knuth:tex", {"original-date": "1968"}, {"howpublished": "Softcover"},
                      {"custom": {"incomplete-names": ["author"]}}, "First printing.") == (
        "Citation Key: knuth:tex\noriginal-date: 1968\ntex.howpublished: Softcover\n"
        'refbridge: {"custom": {"incomplete-names": ["author"]}}\nFirst printing.')


def test_a_note_with_a_line_that_reads_as_data_is_no_plain_note() -> None:
    assert is_plain_note("Read at the meeting.\nSee the errata.")
    assert not is_plain_note("Read at the meeting.\nvolume: 2")


def test_only_a_note_made_of_key_and_field_lines_gives_them() -> None:
    assert key_and_fields("Citation Key: knuth:tex\ntex.howpublished: Softcover") == (
        "knuth:tex", {"bibtex.howpublished": "Softcover"})
    assert key_and_fields("Citation Key: knuth:tex\nSee the errata.") is None


#: Zotero's BibTeX export (its translation server) of an item refbridge wrote to Zotero RDF:
#: Extra became the note, its braces and backslashes escaped.
ZOTERO_BIBTEX = r"""
@article{knuth:lp,
	title = {Literate Programming},
	journal = {The Computer Journal},
	author = {Knuth, Donald E.},
	year = {1984},
	note = {original-date: 1983
tex.fjournal: The Computer Journal
refbridge: \{"custom": \{"incomplete-names": ["author"]\}, "original-title": "Programmieren als Literatur"\}
Read at the meeting.},
	pages = {97--111},
}
"""


def test_zoteros_bibtex_export_of_extra_gives_back_the_fields_and_a_clean_note() -> None:
    import io

    from refbridge.errors import Diagnostics
    from refbridge.formats.bibtex.reader import READER
    from refbridge.model import Date, DateParts

    (record,) = READER.read(io.StringIO(ZOTERO_BIBTEX), "zotero.bib", Diagnostics(strict=True))
    assert record.get("note") == "Read at the meeting."
    assert dict(record.extra) == {"bibtex.fjournal": "The Computer Journal"}
    assert record.dates["original-date"] == Date(start=DateParts(1983))
    assert (record.incomplete_names, record.get("original-title")) == (
        frozenset({"author"}), "Programmieren als Literatur")


def test_a_bib_note_without_a_residue_line_stays_the_users_text() -> None:
    import io

    from refbridge.errors import Diagnostics
    from refbridge.formats.bibtex.reader import READER

    bib = "@misc{a, title={A}, note={volume: 2\ntex.x: y\nrefbridge: {}}}\n"
    (record,) = READER.read(io.StringIO(bib), "a.bib", Diagnostics(strict=True))
    assert (record.get("note"), record.get("volume")) == ("volume: 2 tex.x: y refbridge:",
                                                           None)
