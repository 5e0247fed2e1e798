"""The CV owner's name is recognised in every form sources write it (refbridge.cv.owner)."""

from __future__ import annotations

import pytest

from refbridge.cv.owner import OwnerMatcher, reading_order

OWNER = OwnerMatcher.of(["Zhengping Qian"])


@pytest.mark.parametrize("name", [
    {"family": "Qian", "given": "Zhengping"},
    {"family": "Qian", "given": "Z."},
    {"family": "QIAN", "given": "ZHENGPING"},
    {"family": "Qian", "given": "Zheng-Ping"},
    {"family": "Qián", "given": "Zhèngpíng"},
    {"family": "Zhengping", "given": "Qian"},
    {"literal": "Zhengping Qian"},
    {"literal": "Qian, Z."},
], ids=["full", "initial", "upper-case", "hyphenated", "diacritics", "swapped", "literal",
        "literal-inverted"])
def test_owner_name_variants_match(name: dict[str, str]) -> None:
    assert OWNER(name)


@pytest.mark.parametrize("name", [
    {"family": "Qian", "given": "Wei"},
    {"family": "Qiang", "given": "Zhengping"},
    {"family": "Yang", "given": "Qinwei"},
    {"literal": "Qian Group"},
], ids=["other-given", "other-family", "co-author", "corporate"])
def test_other_people_do_not_match(name: dict[str, str]) -> None:
    assert not OWNER(name)


def test_owner_given_family_first_or_inverted_means_the_same() -> None:
    name = {"family": "Núñez", "given": "José María"}
    assert OwnerMatcher.of(["Núñez, José María"])(name)
    assert OwnerMatcher.of(["Jose Maria Nunez"])(name)


def test_an_owner_written_with_initials_matches_full_given_names() -> None:
    assert OwnerMatcher.of(["Qian, Z."])({"family": "Qian", "given": "Zhengping"})


def test_several_owner_names_cover_a_name_change() -> None:
    owner = OwnerMatcher.of(["Maria Schmidt", "Maria Keller"])
    assert owner({"family": "Keller", "given": "M."})
    assert owner({"family": "Schmidt", "given": "Maria"})


def test_titles_show_the_owner_in_reading_order() -> None:
    assert reading_order("Qian, Zhengping") == "Zhengping Qian"
    assert reading_order("Zhengping Qian") == "Zhengping Qian"


def test_particles_are_part_of_the_family_name() -> None:
    owner = OwnerMatcher.of(["Jan van der Meer"])
    assert owner({"family": "Meer", "given": "Jan", "non-dropping-particle": "van der"})
    assert not owner({"family": "Meer", "given": "Jan"})
