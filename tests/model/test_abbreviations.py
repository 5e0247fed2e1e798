"""Journal titles abbreviated and written out (refbridge.abbreviations), and the CSL engine's
short container title from the journal list."""

from __future__ import annotations

import pytest

from refbridge import format_bibliography, read
from refbridge.abbreviations import (
    LEFT,
    JournalTable,
    Outcome,
    abbreviate,
    iso4_rules,
    journal_records,
    unabbreviate,
)
from refbridge.errors import Diagnostics


@pytest.mark.parametrize(("title", "expected"), [
    ("Physical Review Letters", "Phys. Rev. Lett."),
    ("Journal of the American Chemical Society", "J. Am. Chem. Soc."),
    ("Proceedings of the National Academy of Sciences of the United States of America",
     "Proc. Natl. Acad. Sci. U.S.A."),
    ("Communications of the ACM", "Commun. ACM"),
])
def test_the_journal_list_abbreviates_well_known_journals(title: str, expected: str) -> None:
    assert abbreviate(title) == Outcome(title, expected, "journal list")


def test_a_one_word_title_stays_as_it_is_without_a_word() -> None:
    assert abbreviate("Nature", rules=iso4_rules()) == Outcome("Nature", "Nature", LEFT)


def test_the_list_is_matched_ignoring_case_punctuation_and_ampersands() -> None:
    assert abbreviate("physical review letters").new == "Phys. Rev. Lett."
    assert abbreviate("Astronomy & Astrophysics").new == "Astron. Astrophys."


def test_the_list_wins_over_the_rules() -> None:
    """pyiso4 drops the letter of Physical Review E; the list keeps it."""
    assert abbreviate("Physical Review E", rules=lambda title: "Phys. Rev.").new == \
        "Phys. Rev. E"


def test_the_librarys_own_pairs_come_first() -> None:
    own = JournalTable([("Physical Review Letters", "PRL")], "the file's shortjournal")
    assert abbreviate("Physical Review Letters", (own,)) == Outcome(
        "Physical Review Letters", "PRL", "the file's shortjournal")


def test_iso4_rules_abbreviate_a_journal_the_list_does_not_have() -> None:
    pytest.importorskip("pyiso4", reason="ISO 4 rules need pyiso4 (refbridge[journals])")
    assert abbreviate("Zeitschrift für Physik", rules=iso4_rules()) == Outcome(
        "Zeitschrift für Physik", "Z. Phys.", "ISO 4")
    assert abbreviate("Journal of Computing Machinery", rules=iso4_rules()).new == \
        "J. Comput. Mach."


def test_a_title_whose_words_the_ltwa_lacks_is_left_and_said() -> None:
    pytest.importorskip("pyiso4", reason="ISO 4 rules need pyiso4 (refbridge[journals])")
    assert abbreviate("Foo Bar Baz", rules=iso4_rules()) == Outcome(
        "Foo Bar Baz", "Foo Bar Baz", LEFT, "the ISO 4 word list abbreviates none of its words")


def test_without_rules_a_title_outside_the_list_is_left_and_said() -> None:
    assert abbreviate("Journal of Computing Machinery") == Outcome(
        "Journal of Computing Machinery", "Journal of Computing Machinery", LEFT,
        "not in the journal list (ISO 4 rules need pyiso4: pip install 'refbridge[journals]')")


def test_an_abbreviated_title_is_never_abbreviated_again() -> None:
    """ISO 4 over an abbreviation turns its periods into commas ('Phys, Rev, Lett,')."""
    rules = lambda title: title.replace(".", ",")
    assert abbreviate("Z. Phys.", rules=rules) == Outcome("Z. Phys.", "Z. Phys.", LEFT)
    assert abbreviate("Phys. Rev. Lett.", rules=rules) == \
        Outcome("Phys. Rev. Lett.", "Phys. Rev. Lett.", LEFT)


def test_a_preprint_venue_is_no_journal_title() -> None:
    title = "arXiv preprint arXiv:2101.00001"
    assert abbreviate(title, rules=lambda t: "arXiv prepr.") == Outcome(
        title, title, LEFT, "not a journal title")


@pytest.mark.parametrize(("abbreviation", "expected"), [
    ("Phys. Rev. Lett.", "Physical Review Letters"),
    ("J Am Chem Soc", "Journal of the American Chemical Society"),
    ("Proc. Natl. Acad. Sci. U. S. A.",
     "Proceedings of the National Academy of Sciences of the United States of America"),
])
def test_the_list_writes_abbreviations_out(abbreviation: str, expected: str) -> None:
    assert unabbreviate(abbreviation) == Outcome(abbreviation, expected, "journal list")


def test_an_unknown_abbreviation_is_left_and_said_a_full_title_silently() -> None:
    assert unabbreviate("Z. Phys.") == Outcome("Z. Phys.", "Z. Phys.", LEFT,
                                               "no full title known for it")
    assert unabbreviate("Nature") == Outcome("Nature", "Nature", LEFT)


RECORDS = """\
@article{prl, author = {Doe, Jane}, title = {Fast Things},
  journal = {Physical Review Letters}, year = 2020, volume = 1, pages = {1--2}}
@article{own, author = {Lo, Li}, title = {Own Things}, journaltitle = {Journal of Invented
  Studies}, shortjournal = {J. Invent. Stud.}, date = 2023}
@article{own2, author = {Lo, Lu}, title = {More Things}, journaltitle = {J. Invent. Stud.},
  date = 2024}
@incollection{chap, author = {Poe, Pat}, title = {A Chapter},
  booktitle = {Physical Review Letters}, publisher = {Pub}, year = 2020}
"""


def test_records_are_abbreviated_and_written_out_each_change_counted() -> None:
    records = read(text=RECORDS, format="bibtex")
    diagnostics = Diagnostics()
    abbreviated = journal_records(records, True, diagnostics)
    assert [r.get("container-title") for r in abbreviated] == [
        "Phys. Rev. Lett.", "Journal of Invented Studies", "J. Invent. Stud.",
        "Physical Review Letters"]
    assert [m.message for m in diagnostics.messages] == [
        "record 'prl': journal 'Physical Review Letters' -> 'Phys. Rev. Lett.' (journal list)"]
    assert diagnostics.changed == 1
    diagnostics = Diagnostics()
    written_out = journal_records(abbreviated, False, diagnostics)
    assert [r.get("container-title") for r in written_out] == [
        "Physical Review Letters", "Journal of Invented Studies", "Journal of Invented Studies",
        "Physical Review Letters"]
    assert diagnostics.changed == 2


def test_a_style_asking_for_the_short_journal_gets_the_lists_abbreviation_when_asked() -> None:
    records = read(text=RECORDS, format="bibtex")[:2]
    assert format_bibliography(records, "acm", abbreviate_journals=True) == (
        "[1] Jane Doe. 2020. Fast Things. Phys. Rev. Lett. 1, (2020), 1\u20132.\n"
        "[2] Li Lo. 2023. Own Things. J. Invent. Stud. (2023).\n")
    assert format_bibliography(records[:1], "apa", abbreviate_journals=True) == (
        "Doe, J. (2020). Fast Things. Physical Review Letters, 1, 1\u20132.\n")


def test_a_style_asking_for_the_short_journal_gets_the_records_title_by_default() -> None:
    """As citeproc-js without abbreviation data: the record's own short title, else its title."""
    records = read(text=RECORDS, format="bibtex")[:2]
    assert format_bibliography(records, "acm") == (
        "[1] Jane Doe. 2020. Fast Things. Physical Review Letters 1, (2020), 1\u20132.\n"
        "[2] Li Lo. 2023. Own Things. J. Invent. Stud. (2023).\n")
