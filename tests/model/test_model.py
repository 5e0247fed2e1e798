"""The citation model accepts valid records and rejects invalid values with a clear message."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from refbridge.model import Date, DateParts, Eprint, ModelError, Name, Record, Source


def preprint(**changes: object) -> Record:
    record = Record(
        id="qian-1",
        type="article",
        fields={"title": "SpecDB: LLM-Generated Customized Databases"},
        names={"author": (Name(family="Qian", given="Zhengping"),)},
        dates={"issued": Date.of(2026)},
        eprint=Eprint("arXiv", primary_class="cs.DB"),
        incomplete_names=frozenset({"author"}),
        source=Source("qian.txt", 9),
    )
    return record.replace(**changes) if changes else record


def test_a_record_exposes_title_year_and_authors() -> None:
    record = preprint()
    assert (record.title, record.year, record.authors[0].display()) == (
        "SpecDB: LLM-Generated Customized Databases", 2026, "Zhengping Qian")


def test_records_are_immutable() -> None:
    record = preprint()
    with pytest.raises(TypeError):
        record.fields["title"] = "Other"  # type: ignore[index]
    # FrozenInstanceError (an AttributeError); Python 3.10-3.11 raise TypeError for slotted
    # frozen dataclasses instead
    with pytest.raises((AttributeError, TypeError)):
        record.id = "other"  # type: ignore[misc]


def test_replace_gives_a_validated_copy() -> None:
    changed = preprint().replace(fields={"title": "TrainMover"})
    assert changed.title == "TrainMover"
    with pytest.raises(ModelError, match="unknown item type 'journal'"):
        preprint().replace(type="journal")


def test_unknown_item_type_is_rejected_naming_the_record() -> None:
    with pytest.raises(ModelError, match=r"^record 'qian-1': unknown item type 'preprint'$"):
        preprint(type="preprint")


def test_unknown_field_is_rejected_with_a_pointer_to_extra() -> None:
    with pytest.raises(ModelError, match="unknown field 'mrnumber' .keep it in extra."):
        preprint(fields={"title": "T", "mrnumber": "123"})


def test_extra_fields_must_be_namespaced_by_format() -> None:
    assert preprint(extra={"bibtex.mrnumber": "MR123"}).extra["bibtex.mrnumber"] == "MR123"
    with pytest.raises(ModelError, match="extra key 'mrnumber' must look like 'format.field'"):
        preprint(extra={"mrnumber": "MR123"})


def test_empty_text_is_rejected() -> None:
    with pytest.raises(ModelError, match="field 'title' is empty"):
        preprint(fields={"title": "  "})


def test_nul_characters_are_rejected() -> None:
    with pytest.raises(ModelError, match="contains a NUL character"):
        preprint(fields={"title": "a\x00b"})


@pytest.mark.parametrize(("changes", "message"), [
    ({"fields": {"title": "T", "volume": 27}}, "field 'volume' must be text, not int"),
    ({"extra": {"bibtex.mrnumber": " "}}, "extra field 'bibtex.mrnumber' is empty"),
    ({"keywords": ("databases", "")}, "keyword is empty"),
    ({"citation_key": "qian\x002026"}, "citation key contains a NUL character"),
    ({"extra": {"bibtex.pages": 12}}, "extra field 'bibtex.pages' must be text, not int"),
    ({"names": {"author": ("Qian",)}}, "name role 'author' holds 'Qian', not a Name"),
    ({"names": {"author": ()}}, "name role 'author' has no names"),
    ({"names": {"writer": (Name(family="Qian"),)}}, "unknown name role 'writer'"),
    ({"dates": {"issued": "2026"}}, "date 'issued' holds '2026', not a Date"),
    ({"dates": {"published": Date.of(2026)}}, "unknown date variable 'published'"),
    ({"hints": {"bibtex.raw.month": "oct\x00"}},
     "hint 'bibtex.raw.month' must be text without NUL characters"),
])
def test_wrong_text_is_named_in_the_message(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ModelError, match=f"^record 'qian-1': {message}$"):
        preprint(**changes)


def test_text_of_a_str_subclass_is_accepted_as_text() -> None:
    class Spelled(str):
        pass

    record = preprint(extra={"bibtex.mrnumber": Spelled("MR123")},
                      keywords=(Spelled("databases"),))
    assert record.extra["bibtex.mrnumber"] == "MR123"
    assert record.keywords == ("databases",)


def test_a_wrong_name_part_is_named_in_the_message() -> None:
    with pytest.raises(ModelError, match="^name part 'given' must be text, not list$"):
        Name(family="Qian", given=["Zhengping"])  # type: ignore[arg-type]


def test_incomplete_flag_needs_names_of_that_role() -> None:
    with pytest.raises(ModelError, match=r"incomplete name roles \['editor'\] have no names"):
        preprint(incomplete_names=frozenset({"editor"}))


def test_a_literal_name_cannot_have_name_parts() -> None:
    with pytest.raises(ModelError, match="literal name 'CERN' cannot also have name parts"):
        Name(literal="CERN", given="European")


def test_a_name_needs_some_part() -> None:
    with pytest.raises(ModelError, match="a name needs a family name, a given name or a literal"):
        Name(suffix="Jr.")


def test_name_display_puts_parts_in_reading_order() -> None:
    name = Name(family="Beethoven", given="Ludwig", non_dropping_particle="van", suffix="Jr.")
    assert name.display() == "Ludwig van Beethoven, Jr."


def test_a_name_gives_the_parts_it_has_under_their_csl_names_in_field_order() -> None:
    name = Name(family="Beethoven", given="Ludwig", non_dropping_particle="van", suffix="Jr.")
    assert list(name.parts.items()) == [("family", "Beethoven"), ("given", "Ludwig"),
                                        ("non-dropping-particle", "van"), ("suffix", "Jr.")]


def test_a_literal_name_has_only_its_literal_part() -> None:
    assert Name(literal="Beethoven-Haus Bonn").parts == {"literal": "Beethoven-Haus Bonn"}


def test_name_parts_are_built_once_and_read_only() -> None:
    name = Name(family="Del Mar", given="Jonathan", dropping_particle="de")
    assert name.parts is name.parts
    with pytest.raises(TypeError, match="read-only"):
        name.parts["given"] = "J."  # type: ignore[index]
    assert name.parts == {"family": "Del Mar", "given": "Jonathan", "dropping-particle": "de"}


def test_built_parts_leave_equality_hash_and_repr_of_a_name_alone() -> None:
    used, fresh = Name(family="Qian", given="Zhengping"), Name(family="Qian", given="Zhengping")
    assert used.parts == {"family": "Qian", "given": "Zhengping"}
    assert (used == fresh, hash(used) == hash(fresh)) == (True, True)
    assert repr(used) == ("Name(family='Qian', given='Zhengping', dropping_particle=None, "
                          "non_dropping_particle=None, suffix=None, literal=None)")


def test_a_changed_name_has_the_parts_of_the_change() -> None:
    name = Name(family="Qian", given="Zhengping")
    assert name.parts == {"family": "Qian", "given": "Zhengping"}
    assert dataclasses.replace(name, given="Z.").parts == {"family": "Qian", "given": "Z."}


def test_a_name_survives_pickling_with_its_parts() -> None:
    name = Name(family="Yang", given="Qinwei")
    assert name.parts == {"family": "Yang", "given": "Qinwei"}
    copy = pickle.loads(pickle.dumps(name))
    assert (copy, copy.parts) == (name, {"family": "Yang", "given": "Qinwei"})


@pytest.mark.parametrize(
    ("parts", "as_list"),
    [
        (DateParts(2026), [2026]),
        (DateParts(-44, 3), [-44, 3]),
        (DateParts(1984, 2, 29), [1984, 2, 29]),
    ],
)
def test_date_parts_as_a_list_stop_at_the_last_part_given(parts: DateParts,
                                                           as_list: list[int]) -> None:
    assert parts.as_list() == as_list


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ((2026, 13), "month must be 1-12"),
        ((2026, 2, 32), "day must be 1-31"),
        ((0,), "year 0 does not exist"),
    ],
)
def test_date_parts_are_checked(parts: tuple[int, ...], message: str) -> None:
    with pytest.raises(ModelError, match=message):
        DateParts(*parts)


def test_a_day_needs_a_month() -> None:
    with pytest.raises(ModelError, match="a day needs a month"):
        DateParts(2026, None, 3)


def test_dates_hold_ranges_seasons_circa_and_literals() -> None:
    date = Date(start=DateParts(1998), end=DateParts(2001, 5), season=2, circa=True)
    assert (date.year, date.end, date.season, date.circa) == (1998, DateParts(2001, 5), 2, True)
    assert Date(literal="Michaelmas term 1888").year is None


def test_a_date_needs_parts_or_a_literal() -> None:
    with pytest.raises(ModelError, match="a date needs date parts or a literal form"):
        Date()


def test_eprint_lists_primary_class_first() -> None:
    eprint = Eprint("arXiv", "2401.00001v2", "cs.DB", cross_lists=("cs.LG", "cs.DB"))
    assert eprint.classes == ("cs.DB", "cs.LG")


def test_records_survive_pickling() -> None:
    record = preprint(extra={"bibtex.mrnumber": "MR123"})
    assert pickle.loads(pickle.dumps(record)) == record
