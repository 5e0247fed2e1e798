"""People's identifiers: what a user or a service writes, read into ``scheme:value``, and a
name's identifiers through CSL-JSON."""

from __future__ import annotations

import pytest

from refbridge.formats.csljson import from_csl, to_csl
from refbridge.model import ModelError, Name, Record
from refbridge.names.ids import PersonIdError, orcid_check_digit, parse_person_id, person_id


@pytest.mark.parametrize(("text", "expected"), [
    ("orcid:0000-0002-1825-0097", "orcid:0000-0002-1825-0097"),
    ("orcid:https://orcid.org/0000-0001-5109-3700", "orcid:0000-0001-5109-3700"),
    ("ORCID:0000-0002-1694-233x", "orcid:0000-0002-1694-233X"),
    ("dblp:95/7448-1", "dblp:95/7448-1"),
    ("dblp:https://dblp.org/pid/m/AndrewMcCallum.html", "dblp:m/AndrewMcCallum"),
    ("openalex:https://openalex.org/a5025692314", "openalex:A5025692314"),
    ("s2:https://www.semanticscholar.org/author/Alan-Turing/2262347", "s2:2262347"),
])
def test_identifiers_are_read_in_their_services_spelling(text: str, expected: str) -> None:
    assert parse_person_id(text) == expected


def test_the_orcid_check_digit_follows_iso_7064() -> None:
    assert orcid_check_digit("000000021825009") == "7"
    assert orcid_check_digit("000000021694233") == "X"


@pytest.mark.parametrize(("scheme", "value", "message"), [
    ("orcid", "0000-0002-1825-0098", "its check digit is wrong"),
    ("orcid", "1825-0097", "is not an ORCID iD"),
    ("openalex", "W123", "is not of the form A5025692314"),
    ("isni", "0000000121032683", "unknown identifier scheme 'isni'"),
])
def test_a_wrong_identifier_says_what_is_wrong(scheme: str, value: str, message: str) -> None:
    with pytest.raises(PersonIdError, match=message):
        person_id(scheme, value)


def test_a_name_identifier_must_be_scheme_and_value() -> None:
    with pytest.raises(ModelError, match="person identifier '0000-0002' must look like"):
        Name(family="Qian", ids=("0000-0002",))


def test_identifiers_do_not_change_what_a_name_is() -> None:
    assert Name(family="Qian", ids=("dblp:95/7448-1",)) == Name(family="Qian")


def test_name_identifiers_travel_through_csl_json() -> None:
    record = Record("x", "article", {"title": "T"}, {"author": (
        Name(family="Qian", given="Zhengping", ids=("orcid:0000-0002-1825-0097",)),
        Name(family="Wang", given="Jing"))})
    item = to_csl(record)
    assert item["custom"]["name-ids"] == {"author": [["orcid:0000-0002-1825-0097"], None]}
    assert [n.ids for n in from_csl(item).authors] == [("orcid:0000-0002-1825-0097",), ()]


def test_name_identifiers_that_do_not_fit_the_names_are_an_item_error() -> None:
    with pytest.raises(ValueError, match="custom name-ids: author needs one entry per name"):
        from_csl({"id": "x", "type": "book", "author": [{"family": "A"}],
                  "custom": {"name-ids": {"author": [None, ["s2:1"]]}}})
