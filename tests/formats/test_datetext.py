"""The free-text date reader every reader uses: each text as people and databases write it,
and the exact parts it reads, or the literal it keeps (with the warning a reader gives)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refbridge.formats.datetext import (
    MONTH_NAMES,
    MONTHS,
    date_of,
    read_date,
    read_date_or_warn,
)
from refbridge.model import Date, DateParts


def point(year: int, month: int | None = None, day: int | None = None) -> Date:
    return Date(start=DateParts(year, month, day))


def span(start: tuple[int, ...], end: tuple[int, ...]) -> Date:
    return Date(start=DateParts(*start), end=DateParts(*end))


READ: list[tuple[str, Date]] = [
    # numeric orders
    ("2018-2-12", point(2018, 2, 12)),
    ("2015-10-05", point(2015, 10, 5)),
    ("1984/02/17", point(1984, 2, 17)),
    ("2020.02.12", point(2020, 2, 12)),
    ("2019-09", point(2019, 9)),
    ("2020/2", point(2020, 2)),
    ("12/2009", point(2009, 12)),
    ("07/26/2017", point(2017, 7, 26)),  # month first, as in the US
    ("05/06/2019", point(2019, 5, 6)),
    ("26/07/2017", point(2017, 7, 26)),  # a first number above 12 is the day
    ("26.07.2017", point(2017, 7, 26)),  # dots: day first
    ("05.06.2019", point(2019, 6, 5)),
    ("2020年2月12日", point(2020, 2, 12)),
    ("20210115", point(2021, 1, 15)),  # ISO 8601's basic form (MEDLINE's DEP)
    ("2013 06 10", point(2013, 6, 10)),  # MEDLINE DP with the month in numbers (JabRef test)
    ("2013 06", point(2013, 6)),
    ("-0044-03-15", point(-44, 3, 15)),  # ISO 8601's year -0044, as Zotero writes BC years
    # ISO date-times and clock times: the time is dropped
    ("2019-09-29T19:19:24Z", point(2019, 9, 29)),
    ("2021-06-22T15:17:27+02:00", point(2021, 6, 22)),
    ("2019-09-29 19:19:24", point(2019, 9, 29)),
    ("Sun, 29 Sep 2019 19:19:24 GMT", point(2019, 9, 29)),
    # month names and abbreviations, with or without period, any case
    ("October 2015", point(2015, 10)),
    ("Apr 1990", point(1990, 4)),
    ("1990 Apr", point(1990, 4)),
    ("1990 APR 15", point(1990, 4, 15)),
    ("Sept. 3, 2001", point(2001, 9, 3)),
    ("February 17, 1984", point(1984, 2, 17)),
    ("17 Feb 1984", point(1984, 2, 17)),
    ("20th February 2020", point(2020, 2, 20)),
    ("the 5th of May 2019", point(2019, 5, 5)),
    ("Tuesday, May 5, 2020", point(2020, 5, 5)),
    ("20. Februar 2020", point(2020, 2, 20)),
    ("März 2011", point(2011, 3)),
    ("1er janvier 2020", point(2020, 1, 1)),
    ("févr. 2020", point(2020, 2)),
    ("juil. 2018", point(2018, 7)),
    ("5 de mayo de 2019", point(2019, 5, 5)),
    ("12 settembre 2003", point(2003, 9, 12)),
    ("3 de março de 2010", point(2010, 3, 3)),
    ("1 mei 2016", point(2016, 5, 1)),
    ("14 mrt 2016", point(2016, 3, 14)),
    ("5 października 2018", point(2018, 10, 5)),
    ("12 января 2012", point(2012, 1, 12)),
    # seasons, as CSL numbers them
    ("Spring 2021", Date(start=DateParts(2021), season=1)),
    ("2019 Winter", Date(start=DateParts(2019), season=4)),
    ("Fall 2010", Date(start=DateParts(2010), season=3)),
    ("Herbst 2004", Date(start=DateParts(2004), season=3)),
    ("été 1999", Date(start=DateParts(1999), season=2)),
    # circa and eras
    ("ca. 1850", Date(start=DateParts(1850), circa=True)),
    ("~1995", Date(start=DateParts(1995), circa=True)),
    ("2004-06~", Date(start=DateParts(2004, 6), circa=True)),
    ("-429?", Date(start=DateParts(-429), circa=True)),
    ("5 May 44 BC", point(-44, 5, 5)),
    ("2024-02-29", point(2024, 2, 29)),
    ("circa 1900", Date(start=DateParts(1900), circa=True)),
    ("44 BC", point(-44)),
    ("44 B.C.", point(-44)),
    ("AD 79", point(79)),
    # ranges
    ("1985-1988", span((1985,), (1988,))),
    ("2010/2011", span((2010,), (2011,))),
    ("1985 – 1988", span((1985,), (1988,))),
    ("Sep-Oct 2010", span((2010, 9), (2010, 10))),
    ("2010 Sep-Oct", span((2010, 9), (2010, 10))),
    ("May 5-7, 2019", span((2019, 5, 5), (2019, 5, 7))),
    ("1998 Dec 25-31", span((1998, 12, 25), (1998, 12, 31))),
    ("2000 Dec-2001 Jan", span((2000, 12), (2001, 1))),
    ("May 30 - June 2, 2019", span((2019, 5, 30), (2019, 6, 2))),
    ("du 5 au 7 mai 2019", span((2019, 5, 5), (2019, 5, 7))),
    ("from 1 to 3 March 2004", span((2004, 3, 1), (2004, 3, 3))),
    ("2019-09-01/2019-09-05", span((2019, 9, 1), (2019, 9, 5))),
    ("2012-2012", point(2012)),
    ("2021-22", span((2021,), (2022,))),  # a condensed end year, in the start's century
    ("1995--96", span((1995,), (1996,))),
    ("1000–900 BCE", span((-1000,), (-900,))),  # an era marker on the end is the start's too
    ("100 BCE-50 CE", span((-100,), (50,))),
    ("ca. 480 B.C. - 323 B.C.", Date(start=DateParts(-480), end=DateParts(-323), circa=True)),
    # RIS's YYYY/MM/DD/other
    ("2020/01/01/2020", point(2020, 1, 1)),  # EBSCO repeats the year
    ("2015///", point(2015)),
    ("2015/10//", point(2015, 10)),
    ("1999///Spring", Date(start=DateParts(1999), season=1)),
    # what says there is no date stays literal, as CSL keeps it
    ("n.d.", Date(literal="n.d.")),
    ("no date", Date(literal="no date")),
    ("forthcoming", Date(literal="forthcoming")),
    ("In press", Date(literal="In press")),
    ("[s.d.]", Date(literal="[s.d.]")),
]


@pytest.mark.parametrize(("text", "date"), READ)
def test_the_reader_reads_each_text_to_exactly_its_parts(text: str, date: Date) -> None:
    assert read_date(text).date == date
    assert read_date(text).understood


UNREAD: list[str] = [
    "18th century",      # no year
    "07/26/17",          # a two-digit year is given no century
    "1984-13",           # no month 13
    "2023-02-29",        # no 29 February in 2023
    "2021-02-30",
    "2021-21",           # a condensed end year before the start
    "900-1000 BCE",      # a range that runs backwards once the era is read
    "AD 429 BCE",
    "AD 0",
    "20211315",          # nor in the basic form
    "2019-02-30x",
    "May 12",            # no year
    "12 2020",           # a day without a month
    "Spring-Summer 2010",  # the model has one season per date
    "1988-1985",         # a range that runs backwards
    "Marathon 2012",     # a word that is no date word
    "2015/10/05/Conference week",
]


@pytest.mark.parametrize("text", UNREAD)
def test_what_the_reader_cannot_read_stays_literal_and_is_reported(text: str) -> None:
    reading = read_date(text)
    assert reading.date == Date(literal=text)
    assert reading.not_understood


def test_the_day_first_order_reads_ambiguous_numeric_dates_day_first() -> None:
    assert read_date("05/06/2019", order="dmy").date == point(2019, 6, 5)
    assert read_date("26/07/2017", order="dmy").date == point(2017, 7, 26)


def test_a_year_from_another_field_completes_a_text_without_one() -> None:
    assert read_date("MAY 6", year=2023).date == point(2023, 5, 6)
    assert read_date("Winter", year=2019).date == Date(start=DateParts(2019), season=4)
    assert read_date("May 2020", year=2023).date == point(2020, 5)  # the text's own year wins


def test_an_empty_text_is_no_date() -> None:
    assert read_date("  ").date is None
    assert read_date("  ").understood


def test_a_literal_is_kept_after_a_warning_naming_the_field() -> None:
    warnings: list[str] = []
    assert read_date_or_warn("18th century", warnings.append, "dc:date") == Date(
        literal="18th century")
    assert warnings == ["dc:date: date '18th century' not understood; kept as written"]


def test_a_read_date_gives_no_warning() -> None:
    warnings: list[str] = []
    assert read_date_or_warn("12/2009", warnings.append, "dc:date") == point(2009, 12)
    assert warnings == []


def test_a_year_field_and_a_month_day_text_make_one_date() -> None:
    assert date_of("2023", "MAY 6") == point(2023, 5, 6)
    assert date_of("2021", "Sep-Oct") == span((2021, 9), (2021, 10))
    assert date_of("2015", "2015-10-05") == point(2015, 10, 5)
    assert date_of("2016", "2015-10-05") is None  # two different years
    assert date_of("2015", "sometime") is None
    assert date_of("12/2009") == point(2009, 12)


def test_no_month_abbreviation_names_two_months() -> None:
    assert "jui" not in MONTHS  # juin or juillet
    assert MONTHS["juin"] == 6 and MONTHS["juil"] == 7
    assert MONTHS["cerven"] == 6 and MONTHS["cervenec"] == 7  # Czech June, July


DAYS = st.builds(lambda y, m, d: DateParts(y, m, d), st.integers(1000, 2999),
                 st.integers(1, 12), st.integers(1, 28))
SPELLINGS = (
    lambda p: f"{p.year}-{p.month}-{p.day}",
    lambda p: f"{p.year}-{p.month:02d}-{p.day:02d}T08:30:00Z",
    lambda p: f"{p.month:02d}/{p.day:02d}/{p.year}",
    lambda p: f"{p.day}.{p.month}.{p.year}",
    lambda p: f"{MONTH_NAMES[p.month - 1]} {p.day}, {p.year}",
    lambda p: f"{p.day} {MONTH_NAMES[p.month - 1][:3]}. {p.year}",
    lambda p: f"{p.year} {MONTH_NAMES[p.month - 1][:3].upper()} {p.day}",
)


@given(DAYS, st.sampled_from(SPELLINGS))
def test_every_spelling_of_a_day_reads_back_to_that_day(day: DateParts,
                                                        spell: Callable[[DateParts], str]) -> None:
    assert read_date(spell(day)).date == Date(start=day)


@given(st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=40))
def test_any_text_reads_to_a_date_or_to_itself(text: str) -> None:
    reading = read_date(text)
    if reading.not_understood:
        assert reading.date == Date(literal=" ".join(text.split()))
