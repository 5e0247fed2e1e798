"""BibTeX name lists: BibTeX's own rules for splitting, and writing that reads back the same."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refbridge.latex.encode import encode_latex
from refbridge.model import Name
from refbridge.names.bibtex import format_names, parse_name, parse_names, split_names


@pytest.mark.parametrize(("text", "name"), [
    ("Donald E. Knuth", Name(family="Knuth", given="Donald E.")),
    ("Knuth, Donald E.", Name(family="Knuth", given="Donald E.")),
    ("Ludwig van Beethoven", Name(family="Beethoven", given="Ludwig",
                                  non_dropping_particle="van")),
    ("van Beethoven, Ludwig", Name(family="Beethoven", given="Ludwig",
                                   non_dropping_particle="van")),
    ("Charles Louis Xavier Joseph de la Vall{\\'e}e Poussin",
     Name(family="Vallée Poussin", given="Charles Louis Xavier Joseph",
          non_dropping_particle="de la")),
    ("King, Jr, Martin Luther", Name(family="King", given="Martin Luther", suffix="Jr")),
    ("Aks{\\i}n, {\\\"O}zge", Name(family="Aksın", given="Özge")),
    ("{\\\"u}ber Meier", Name(family="Meier", non_dropping_particle="über")),
    ("{van} Gogh", Name(family="Gogh", given="van")),
    ("Jean {de la} Fontaine", Name(family="Fontaine", given="Jean de la")),
    ("Aristotle", Name(family="Aristotle")),
    ("{Barnes and Noble, Inc.}", Name(literal="Barnes and Noble, Inc.")),
    ("{\\L}ukasz Kowalski", Name(family="Kowalski", given="Łukasz")),
])
def test_a_name_is_split_as_bibtex_splits_it(text: str, name: Name) -> None:
    assert parse_name(text) == name


def test_and_inside_braces_does_not_separate_names() -> None:
    names, incomplete = parse_names("{Simon and Schuster} and Doe, Jane")
    assert names == (Name(literal="Simon and Schuster"), Name(family="Doe", given="Jane"))
    assert incomplete is False


def test_and_others_marks_the_list_incomplete() -> None:
    names, incomplete = parse_names("Qian, Zhengping and others")
    assert (names, incomplete) == ((Name(family="Qian", given="Zhengping"),), True)


def test_and_is_found_whatever_its_case_and_spacing() -> None:
    names, _ = parse_names("Doe, Jane AND\n  Roe, Richard")
    assert names == (Name(family="Doe", given="Jane"), Name(family="Roe", given="Richard"))


@pytest.mark.parametrize(("value", "texts"), [
    ("Barnes {and} Noble and Smith, J.", ["Barnes {and} Noble", "Smith, J."]),
    ("{Ma{\\v{s}}ek and {\\L}{\\'o}d\\'z Group} and Qian, Zhengping",
     ["{Ma{\\v{s}}ek and {\\L}{\\'o}d\\'z Group}", "Qian, Zhengping"]),
    ("{\\AA}str{\\\"o}m\tAND\nYang, Qinwei AnD\n\t{Knuth}",
     ["{\\AA}str{\\\"o}m", "Yang, Qinwei", "{Knuth}"]),
    ("S{\\o}rensen and{Iyer} and Sand andy and Wang",
     ["S{\\o}rensen and{Iyer}", "Sand andy", "Wang"]),
])
def test_a_name_list_is_split_at_and_outside_braces(value: str, texts: list[str]) -> None:
    assert split_names(value) == texts


@pytest.mark.parametrize(("value", "texts"), [
    ("Smith} and Jones and {Brown", ["Smith}", "Jones", "{Brown"]),
    ("Smith}} and {Jones and Brown} and Wang", ["Smith}}", "{Jones and Brown}", "Wang"]),
    ("{Smith and Jones and Brown", ["{Smith and Jones and Brown"]),
])
def test_a_closing_brace_without_its_opening_one_is_ignored_as_bibtex_does(
        value: str, texts: list[str]) -> None:
    assert split_names(value) == texts


@pytest.mark.parametrize(("text", "name"), [
    ("{von Neumann}, John", Name(family="von Neumann", given="John")),
    ("{\\v{S}}koda, Jr., {Jan, Maria}", Name(family="Škoda", given="Jan, Maria", suffix="Jr.")),
    ("de\tla\n{Cruz}, Tom{\\'a}{\\v{s}}",
     Name(family="Cruz", given="Tomáš", non_dropping_particle="de la")),
    ("Jan} van {der Berg", Name(family="{der Berg", given="Jan}", non_dropping_particle="van")),
])
def test_commas_and_spaces_inside_braces_do_not_split_a_name(text: str, name: Name) -> None:
    assert parse_name(text) == name


def test_a_person_in_several_name_lists_is_read_once() -> None:
    first, _ = parse_names("Qian, Zhengping and Yang, Qinwei")
    second, _ = parse_names("Yang, Qinwei and Knuth, Donald E. and Qian, Zhengping")
    assert second[0] is first[1]
    assert second[2] is first[0]


def encode(text: str) -> str:
    return encode_latex(text)


def test_names_are_written_family_first_with_particles_and_suffixes() -> None:
    names = (Name(family="Beethoven", given="Ludwig", non_dropping_particle="van"),
             Name(family="King", given="Martin Luther", suffix="Jr."),
             Name(family="Müller", given="Jürgen"))
    assert format_names(names, True, encode) == (
        "van Beethoven, Ludwig and King, Jr., Martin Luther and "
        "M{\\\"u}ller, J{\\\"u}rgen and others")


def test_corporate_names_and_names_bibtex_would_split_are_braced() -> None:
    names = (Name(literal="Barnes and Noble, Inc."), Name(family="de la Cruz", given="Ana"),
             Name(family="others"))
    assert format_names(names, False, encode) == \
        "{Barnes and Noble, Inc.} and {de la Cruz}, Ana and {o}thers"


def test_a_name_read_from_a_bib_is_written_as_it_was_spelled() -> None:
    spelled = "Andr\\'e, Jacques and {van Vugt}, Frank and Donald E. Knuth"
    assert format_names(parse_names(spelled)[0], False, encode) == spelled


def test_a_spelled_name_can_be_written_the_writers_way() -> None:
    names = parse_names("Donald E. Knuth and Andr\\'e, Jacques")[0]
    assert format_names(names, False, encode, spelled=False) == \
        "Knuth, Donald E. and Andr{\\'e}, Jacques"


def test_a_name_with_a_word_starting_with_a_syntax_character_is_written_as_a_literal() -> None:
    name = Name(family="Doe", given="#2 {x}")
    assert format_names((name,), False, encode) == \
        "{\\#2 \\textbraceleft{}x\\textbraceright{} Doe}"
    assert parse_names(format_names((name,), False, encode))[0] == \
        (Name(literal="#2 {x} Doe"),)


_WORD = st.text(st.sampled_from("abcdeXYZéŁ"), min_size=1, max_size=6).filter(
    lambda w: w.lower() not in ("and", "others"))
_PARTS = st.lists(_WORD, min_size=1, max_size=3).map(" ".join)
_CAPITALISED = _PARTS.map(lambda p: " ".join(w[0].upper() + w[1:] for w in p.split()))
_PERSON = st.builds(
    Name, family=_PARTS, given=st.none() | _PARTS,
    non_dropping_particle=st.none() | st.sampled_from(["van", "de la", "von der"]),
    suffix=st.none() | st.sampled_from(["Jr.", "III"]))


@given(st.lists(_PERSON | st.builds(Name, literal=_CAPITALISED), min_size=1, max_size=4),
       st.booleans())
def test_written_names_read_back_the_same(names: list[Name], incomplete: bool) -> None:
    assert parse_names(format_names(names, incomplete, encode)) == (tuple(names), incomplete)
