"""Citation keys: Google-Scholar-like by default, ASCII, unique and stable."""

from __future__ import annotations

import pytest

from refbridge import pipeline
from refbridge.citekeys import PatternError, assign_keys, compile_pattern
from refbridge.model import Date, Name, Record
from refbridge.registry import WriteOptions


def paper(title: str, family: str = "Qian", given: str = "Zhengping", year: int | None = 2026,
          key: str | None = None, **names: tuple[Name, ...]) -> Record:
    people = names or {"author": (Name(family=family, given=given),)}
    return Record(id=title, type="article", fields={"title": title}, names=people,
                  dates={"issued": Date.of(year)} if year else {}, citation_key=key)


def keys(records: list[Record], pattern: str = "[auth:lower][year][shorttitle:1:lower]",
         regenerate: bool = False) -> list[str | None]:
    return [r.citation_key for r in assign_keys(records, pattern, regenerate)]


def test_default_keys_look_like_google_scholars() -> None:
    assert keys([paper("SpecDB: LLM-Generated Customized Databases"),
                 paper("A Few GPUs, A Whole Lotta Scale")]) == ["qian2026specdb", "qian2026few"]


def test_keys_are_transliterated_to_ascii() -> None:
    assert keys([paper("Über Łódź", family="Łukasiewicz", given="Jan"),
                 paper("数据库", family="钱", given="正平")]) == [
        "lukasiewicz2026uber", "qian2026shujuku"]


def test_colliding_keys_get_letter_suffixes() -> None:
    records = [paper("Cardinality estimation"), paper("Cardinality bounds"),
               paper("Cardinality sketches")]
    # ordered by title, so the order of the input does not matter
    assert keys(records) == ["qian2026cardinalitya", "qian2026cardinality",
                             "qian2026cardinalityb"]


def test_keys_do_not_depend_on_input_order() -> None:
    records = [paper("Cardinality estimation"), paper("Cardinality bounds"),
               paper("Other"), paper("Cardinality sketches")]
    forward = dict(zip([r.title for r in records], keys(records)))
    backward = dict(zip([r.title for r in reversed(records)], keys(records[::-1])))
    assert forward == backward


def test_keys_read_from_the_input_are_kept_and_reserved() -> None:
    records = [paper("SpecDB", key="mykey"), paper("SpecDB", key=None),
               paper("SpecDB", key="qian2026specdb")]
    assert keys(records) == ["mykey", "qian2026specdba", "qian2026specdb"]


def test_regenerating_replaces_keys_read_from_the_input() -> None:
    assert keys([paper("SpecDB", key="mykey")], regenerate=True) == ["qian2026specdb"]


def test_editors_stand_in_for_missing_authors() -> None:
    record = paper("Handbook", editor=(Name(family="Ng", given="Andrew"),))
    assert keys([record]) == ["ng2026handbook"]


def test_a_record_without_author_year_or_title_still_gets_a_key() -> None:
    record = Record(id="x", type="document")
    assert keys([record]) == ["ref"]


@pytest.mark.parametrize(
    ("pattern", "key"),
    [
        ("[auth][year]", "Qian2026"),
        ("[authors2][shortyear]", "QianYangEtAl26"),
        ("[authini:lower]-[veryshorttitle]", "zqian-Higher"),
        ("[auth:upper]_[title:3]", "QIAN_HigherOrderNeighborhood"),
        ("[shorttitle]", "HigherOrderNeighborhood"),
        ("[type]:[year]", "articlejournal:2026"),
    ],
)
def test_the_pattern_language(pattern: str, key: str) -> None:
    record = Record(
        id="x", type="article-journal",
        fields={"title": "Higher-Order Neighborhood Truss Decomposition"},
        names={"author": (Name(family="Qian", given="Zhengping"),
                          Name(family="Yang", given="Qinwei"), Name(family="Wang", given="L"))},
        dates={"issued": Date.of(2026)})
    assert compile_pattern(pattern)(record) == key


def test_an_unknown_field_in_a_pattern_is_an_error_listing_known_ones() -> None:
    with pytest.raises(PatternError, match=r"unknown field \[journal\] .*known: auth, auth.auth.ea, auth.etal"):
        compile_pattern("[journal][year]")


def test_an_unknown_modifier_is_an_error() -> None:
    with pytest.raises(PatternError, match="unknown modifier 'camel'"):
        compile_pattern("[auth:camel]")


def test_literal_text_that_cannot_be_in_a_key_is_an_error() -> None:
    with pytest.raises(PatternError, match="characters a citation key cannot hold: ' '"):
        compile_pattern("[auth] [year]")


@pytest.mark.parametrize("held_in_memory", [2000, 2], ids=["in-memory", "spooled"])
def test_keys_of_a_stream_are_the_same_whether_it_waits_in_memory_or_in_a_file(
        held_in_memory: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "HELD_IN_MEMORY", held_in_memory)
    records = [paper("SpecDB", key="mykey"), paper("Cardinality estimation"),
               paper("Cardinality bounds", key="qian2026cardinality"),
               paper("Cardinality sketches"), paper("Other")]
    assert [r.citation_key for r in pipeline.keyed(records, WriteOptions())] == [
        "mykey", "qian2026cardinalitya", "qian2026cardinality", "qian2026cardinalityb",
        "qian2026other"]
