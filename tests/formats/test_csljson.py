"""CSL-JSON: schema-valid output, a forgiving reader, and exact round trips."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import SAMPLES

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.csljson import READER, WRITER, from_csl, indented_json, to_csl
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.pipeline import read_file, with_keys
from refbridge.registry import WriteOptions


def read(text: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(READER.read(io.StringIO(text), "items.json", diagnostics or Diagnostics()))


def write(records: list[Record]) -> str:
    out = io.StringIO()
    WRITER.write(records, out, WriteOptions())
    return out.getvalue()


def seed_records(name: str) -> list[Record]:
    return with_keys(read_file(str(SAMPLES / f"{name}.profile.txt"), Diagnostics()),
                     WriteOptions())


REALISTIC = [
    Record(id="knuth1984", type="article-journal",
           fields={"title": "Literate Programming", "container-title": "The Computer Journal",
                   "volume": "27", "issue": "2", "page": "97-111",
                   "DOI": "10.1093/comjnl/27.2.97", "language": "en"},
           names={"author": (Name(family="Knuth", given="Donald E."),)},
           dates={"issued": Date(start=DateParts(1984, 2))}, keywords=("programming", "TeX")),
    Record(id="beethoven", type="musical_score",
           fields={"title": "Symphonie Nr. 9", "publisher": "Bärenreiter"},
           names={"composer": (Name(family="Beethoven", given="Ludwig",
                                    non_dropping_particle="van"),),
                  "editor": (Name(family="Del Mar", given="Jonathan", suffix="Jr."),
                             Name(literal="Beethoven-Haus Bonn"))},
           dates={"issued": Date(start=DateParts(1996), end=DateParts(1999, 5), circa=True),
                  "original-date": Date(literal="1824")}),
    Record(id="qian2026specdb", type="article", citation_key="qian2026specdb",
           fields={"title": "SpecDB", "abstract": "We present SpecDB."},
           names={"author": (Name(family="Qian", given="Zhengping"),)},
           dates={"issued": Date(start=DateParts(2026), season=3)},
           eprint=Eprint("arXiv", "2601.00001v2", "cs.DB", ("cs.LG",)),
           incomplete_names=frozenset({"author"}),
           keywords=("databases, generated", "LLM"),
           extra={"bibtex.mrnumber": "MR123", "ris.M4": "x"}),
]


def test_every_sample_converts_to_schema_valid_csl_json(shared_dir: Path) -> None:
    import jsonschema

    schema = json.loads((shared_dir / "schemas" / "csl-data.json").read_text(encoding="utf-8"))
    for name in ("zhengping-qian", "qinwei-yang"):
        jsonschema.validate(json.loads(write(seed_records(name))), schema)
    jsonschema.validate(json.loads(write(REALISTIC)), schema)


def test_a_profile_record_becomes_a_preprint_zotero_recognises() -> None:
    item = to_csl(seed_records("zhengping-qian")[0])
    assert {k: item[k] for k in ("id", "type", "publisher", "categories", "author")} == {
        "id": "qian2026specdb", "type": "article", "publisher": "arXiv",
        "categories": ["cs.DB"], "author": [{"family": "Qian", "given": "Zhengping"}]}
    assert item["custom"] == {"eprint": {"archive": "arXiv", "primary-class": "cs.DB"},
                              "derived": ["publisher"], "incomplete-names": ["author"],
                              "extra": {"profile.owner": "Zhengping Qian"}}


def test_a_known_arxiv_identifier_becomes_zoteros_number() -> None:
    item = to_csl(REALISTIC[2])
    assert (item["publisher"], item["number"]) == ("arXiv", "arXiv:2601.00001v2")


def test_an_item_lists_names_fields_and_dates_in_that_order() -> None:
    assert list(to_csl(REALISTIC[1]).items()) == [
        ("id", "beethoven"),
        ("type", "musical_score"),
        ("composer", [{"family": "Beethoven", "given": "Ludwig",
                       "non-dropping-particle": "van"}]),
        ("editor", [{"family": "Del Mar", "given": "Jonathan", "suffix": "Jr."},
                    {"literal": "Beethoven-Haus Bonn"}]),
        ("title", "Symphonie Nr. 9"),
        ("publisher", "Bärenreiter"),
        ("issued", {"date-parts": [[1996], [1999, 5]], "circa": True}),
        ("original-date", {"literal": "1824"}),
    ]


def test_a_preprint_item_carries_keywords_eprint_and_extra_in_custom() -> None:
    assert list(to_csl(REALISTIC[2]).items()) == [
        ("id", "qian2026specdb"),
        ("type", "article"),
        ("author", [{"family": "Qian", "given": "Zhengping"}]),
        ("title", "SpecDB"),
        ("abstract", "We present SpecDB."),
        ("issued", {"date-parts": [[2026]], "season": 3}),
        ("keyword", "databases, generated, LLM"),
        ("publisher", "arXiv"),
        ("number", "arXiv:2601.00001v2"),
        ("URL", "https://arxiv.org/abs/2601.00001v2"),
        ("categories", ["cs.DB", "cs.LG"]),
        ("custom", {"keywords": ["databases, generated", "LLM"],
                    "eprint": {"archive": "arXiv", "id": "2601.00001v2",
                               "primary-class": "cs.DB", "cross-lists": ["cs.LG"]},
                    "derived": ["publisher", "number", "URL"],
                    "incomplete-names": ["author"],
                    "extra": {"bibtex.mrnumber": "MR123", "ris.M4": "x"}}),
    ]


def test_a_preprint_keeps_its_own_publisher_and_link_and_derives_only_the_number() -> None:
    record = REALISTIC[2].replace(fields={"title": "SpecDB", "publisher": "Cornell University",
                                          "URL": "https://example.org/specdb"})
    item = to_csl(record)
    assert (item["publisher"], item["number"], item["URL"], item["custom"]["derived"]) == (
        "Cornell University", "arXiv:2601.00001v2", "https://example.org/specdb", ["number"])


def test_a_published_paper_with_an_arxiv_eprint_keeps_its_venue_and_numbers() -> None:
    record = Record(
        id="smith2018", type="article-journal", citation_key="smith2018",
        fields={"title": "A Search for Dark Photons", "container-title":
                "Physical Review Letters", "volume": "120", "page": "101801"},
        names={"author": (Name(family="Smith", given="John"),)},
        dates={"issued": Date.of(2018)}, eprint=Eprint("arXiv", "1801.00001", "hep-ex"))
    item = to_csl(record)
    assert {k: v for k, v in item.items() if k not in ("author", "issued")} == {
        "id": "smith2018", "type": "article-journal", "title": "A Search for Dark Photons",
        "container-title": "Physical Review Letters", "volume": "120", "page": "101801",
        "categories": ["hep-ex"],
        "custom": {"eprint": {"archive": "arXiv", "id": "1801.00001",
                              "primary-class": "hep-ex"}}}
    assert from_csl(item) == record


@pytest.mark.parametrize(("keywords", "custom"), [
    (("query; planning", "LLM"), {"keywords": ["query; planning", "LLM"]}),
    (("query planning", "LLM"), {}),
])
def test_keywords_holding_a_separator_are_also_kept_as_a_list(
        keywords: tuple[str, ...], custom: dict[str, list[str]]) -> None:
    item = to_csl(REALISTIC[0].replace(keywords=keywords))
    assert (item["keyword"], item.get("custom", {})) == (", ".join(keywords), custom)


def test_the_names_of_an_item_are_the_callers_to_change() -> None:
    knuth = REALISTIC[0].authors[0]
    first, second = to_csl(REALISTIC[0]), to_csl(REALISTIC[0].replace(id="knuth-again"))
    first["author"][0]["given"] = "D. E."
    first["author"].append({"literal": "TeX Users Group"})
    assert second["author"] == [{"family": "Knuth", "given": "Donald E."}]
    assert knuth.parts == {"family": "Knuth", "given": "Donald E."}


@pytest.mark.parametrize("record", REALISTIC, ids=lambda r: r.id)
def test_reading_what_was_written_gives_the_same_model(record: Record) -> None:
    (back,) = read(write([record]))
    expected = record.replace(citation_key=record.citation_key or record.id)
    assert back.replace(source=None) == expected


def test_the_seeds_round_trip_exactly() -> None:
    records = seed_records("qinwei-yang")
    back = read(write(records))
    assert [r.replace(source=None, id=o.id) for r, o in zip(back, records)] == [
        o.replace(source=None) for o in records]


def test_a_single_object_is_read_as_one_item() -> None:
    (record,) = read('{"id": "a", "type": "book", "title": "Alone"}')
    assert (record.id, record.type, record.title) == ("a", "book", "Alone")


@pytest.mark.parametrize(
    ("issued", "date"),
    [
        ('{"date-parts": [[2020, 5, 17]]}', Date.of(2020, 5, 17)),
        ('{"date-parts": [["2020", "5"]]}', Date.of(2020, 5)),
        ('"2020-05-17"', Date.of(2020, 5, 17)),
        ('"2019/2021"', Date(start=DateParts(2019), end=DateParts(2021))),
        ('"2020~"', Date(start=DateParts(2020), circa=True)),
        ('{"raw": "2020-05"}', Date.of(2020, 5)),
        ('{"literal": "Spring term 1888"}', Date(literal="Spring term 1888")),
        ('{"date-parts": [[2020, 14]]}', Date(start=DateParts(2020), season=2)),
        ('{"date-parts": [[2020]], "season": "Winter"}', Date(start=DateParts(2020), season=4)),
    ],
)
def test_dates_are_read_from_every_csl_form(issued: str, date: Date) -> None:
    (record,) = read(f'[{{"id": "a", "type": "book", "issued": {issued}}}]')
    assert record.issued == date


@pytest.mark.parametrize(
    ("raw", "date"),
    [
        ("2/2017", Date.of(2017, 2)),
        ("June 1, 2001", Date.of(2001, 6, 1)),
        ("2021-03-04T10:11:12Z", Date.of(2021, 3, 4)),
        ("1999/2001", Date(start=DateParts(1999), end=DateParts(2001))),
        ("Spring 1999", Date(start=DateParts(1999), season=1)),
        ("05.11.2011", Date(literal="05.11.2011")),
    ],
)
def test_raw_dates_are_read_as_citeproc_js_reads_them(raw: str, date: Date) -> None:
    (record,) = read(f'[{{"id": "a", "type": "book", "issued": {{"raw": "{raw}"}}}}]')
    assert record.issued == date


def test_a_season_named_in_words_is_remembered_as_written_for_citeproc_js_styles() -> None:
    (record,) = read('[{"id": "a", "type": "book", "issued": {"date-parts": [[2020]], "season": "Winter"}}]')
    assert record.issued == Date(start=DateParts(2020), season=4)
    assert record.extra == {"csl.issued": '{"date-parts": [[2020]], "season": "Winter"}'}


@pytest.mark.parametrize("issued", ['{"raw": "Spring 1999"}', '{"date-parts": [[1999, 14]]}'])
def test_a_season_given_as_a_month_is_remembered_as_written_for_citeproc_js_styles(issued: str) -> None:
    # citeproc-js writes no month for it in a numeric date, where a season field shows its name
    (record,) = read(f'[{{"id": "a", "type": "book", "issued": {issued}}}]')
    assert record.issued.season in (1, 2)
    assert record.extra == {"csl.issued": issued}


def test_a_season_field_given_as_a_number_is_not_kept_as_written() -> None:
    (record,) = read('[{"id": "a", "type": "book", "issued": {"date-parts": [[1999]], "season": 3}}]')
    assert (record.issued, record.extra) == (Date(start=DateParts(1999), season=3), {})


def test_legacy_keys_are_read_as_the_variables_they_stand_for() -> None:
    (record,) = read('[{"id": "a", "type": "paper-conference", "journalAbbreviation": "Comput. J.",'
                     ' "shortTitle": "Literate", "event": "SIGIR 2021"}]')
    assert (record.get("container-title-short"), record.get("title-short"),
            record.get("event-title")) == ("Comput. J.", "Literate", "SIGIR 2021")


def test_the_legacy_event_key_is_remembered_for_citeproc_js_styles() -> None:
    (record,) = read('[{"id": "a", "type": "speech", "event": "SIGIR 2021"}]')
    assert record.extra == {"csl.event": "SIGIR 2021"}


def test_a_variable_beats_its_legacy_key() -> None:
    (record,) = read('[{"id": "a", "type": "book", "shortTitle": "Old", "title-short": "New"}]')
    assert record.get("title-short") == "New"
    assert record.extra == {"csl.shortTitle": "Old"}


@pytest.mark.parametrize(
    ("issued", "year", "warning"),
    [
        ('{"date-parts": [[2000, -1]]}', 2000, "issued: month must be 1-12, not -1; kept as written"),
        ('{"date-parts": [[0]]}', None, ("issued: year 0 does not exist (1 BC is -1 in date parts); "
                                        "kept as written")),
        ('{"date-parts": [["1999", "21"], ["2001", "22"]]}', 1999,
         "issued: the two ends of the range are in different seasons; kept as written"),
        ('{"date-parts": [[]]}', None, ("issued: a date needs date-parts, raw or literal; "
                                       "kept as written")),
    ],
)
def test_a_date_the_model_cannot_hold_keeps_its_item(issued: str, year: int | None,
                                                     warning: str) -> None:
    diagnostics = Diagnostics()
    (record,) = read(f'[{{"id": "a", "type": "book", "issued": {issued}}}]', diagnostics)
    assert record.year == year
    assert json.loads(record.extra["csl.issued"]) == json.loads(issued)
    assert [str(m) for m in diagnostics.messages] == [f"items.json:1: warning: record 'a': {warning}"]


def test_names_with_csl_parts_the_model_lacks_are_kept_as_written() -> None:
    names = [{"family": "King", "given": "Martin Luther", "suffix": "Jr.", "comma-suffix": True}]
    (record,) = read(json.dumps([{"id": "a", "type": "book", "author": names}]))
    assert record.names["author"] == (Name(family="King", given="Martin Luther", suffix="Jr."),)
    assert json.loads(record.extra["csl.author"]) == names


def test_unknown_keys_are_kept_in_extra() -> None:
    (record,) = read('[{"id": "a", "type": "book", "shelf": "B-12", "rating": 5}]')
    assert record.extra == {"csl.shelf": "B-12", "csl.rating": "5"}
    assert to_csl(record)["custom"] == {"extra": {"csl.shelf": "B-12", "csl.rating": "5"}}


def test_numbers_are_read_as_text() -> None:
    (record,) = read('[{"id": 7, "type": "book", "volume": 3, "edition": 2}]')
    assert (record.id, record.get("volume"), record.get("edition")) == ("7", "3", "2")


def test_a_zotero_style_preprint_is_read_as_an_eprint() -> None:
    (record,) = read('[{"id": "a", "type": "article", "title": "T", "publisher": "arXiv", '
                     '"number": "arXiv:2401.12345", "categories": ["cs.DB", "cs.LG"]}]')
    assert record.eprint == Eprint("arXiv", "2401.12345", "cs.DB", ("cs.LG",))
    assert "publisher" not in record.fields and "number" not in record.fields


def test_a_report_numbered_by_its_arxiv_id_keeps_its_number() -> None:
    (record,) = read('[{"id": "m", "type": "report", "title": "T", "genre": "Report", '
                     '"number": "arXiv:0908.1772v5"}]')
    assert (record.eprint, record.get("number")) == (None, "arXiv:0908.1772v5")


def test_a_broken_item_is_skipped_with_its_line_and_the_rest_is_read() -> None:
    diagnostics = Diagnostics()
    text = ('[\n  {"id": "a", "type": "book", "title": "One"},\n'
            '  {"id": "b", "type": "journal", "title": "Two"},\n'
            '  {"id": "c", "type": "book", "title": "Three"}\n]')
    records = read(text, diagnostics)
    assert [r.id for r in records] == ["a", "c"]
    assert [str(m) for m in diagnostics.messages] == [
        "items.json:3: error: record 'b': unknown item type 'journal'"]


def test_an_item_without_a_type_is_reported() -> None:
    diagnostics = Diagnostics()
    assert read('[{"id": "a", "title": "One"}]', diagnostics) == []
    assert [str(m) for m in diagnostics.messages] == ["items.json:1: error: the item has no type"]


def test_invalid_json_names_line_and_column() -> None:
    with pytest.raises(ParseError, match=r"^items.json:2:22: not valid JSON: Expecting ':' delimiter$"):
        read('[\n  {"id": "a", "type" "book"}\n]')


def test_json_that_is_not_items_is_refused() -> None:
    with pytest.raises(ParseError, match="items.json:1: CSL-JSON must be an array"):
        read('"just a string"')


def test_output_is_an_indented_array_one_item_after_another() -> None:
    record = Record(id="a", type="book", fields={"title": "Ä"})
    assert write([record, record.replace(id="b")]) == (
        '[\n  {\n    "id": "a",\n    "type": "book",\n    "title": "Ä"\n  },\n'
        '  {\n    "id": "b",\n    "type": "book",\n    "title": "Ä"\n  }\n]\n')


def test_no_records_write_an_empty_array() -> None:
    assert write([]) == "[]\n"


def test_from_csl_rejects_a_name_that_is_not_an_object() -> None:
    with pytest.raises(ValueError, match="author: a name must be an object"):
        from_csl({"id": "a", "type": "book", "author": [["Knuth"]]})


_ITEM_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12)


@given(item=st.dictionaries(st.text(), _ITEM_VALUES, max_size=4),
       width=st.integers(min_value=0, max_value=4))
def test_indented_json_is_what_json_dumps_writes_with_every_line_indented(
        item: dict[str, object], width: int) -> None:
    indent = " " * width
    expected = "\n".join(indent + line for line in
                         json.dumps(item, ensure_ascii=False, indent=width).split("\n"))
    assert indented_json(item, indent) == expected


def test_indented_json_writes_a_lone_surrogate_as_json_does() -> None:
    assert indented_json({"title": "\ud800"}, "  ") == '  {\n    "title": "\ud800"\n  }'


def test_indented_json_leaves_keys_that_are_not_text_to_json() -> None:
    assert indented_json({"issued": {2024: [1, True]}}, "  ") == (
        '  {\n    "issued": {\n      "2024": [\n        1,\n        true\n      ]\n    }\n  }')


def test_items_are_read_one_at_a_time_across_the_readers_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = (SAMPLES / "varied.json").read_text(encoding="utf-8")
    whole = read(text)
    monkeypatch.setattr("refbridge.formats.csljson._CHUNK", 7)
    assert read(text) == whole
    assert [r.source.line for r in read(text) if r.source] == [r.source.line for r in whole
                                                                if r.source]


def test_invalid_json_after_a_chunk_boundary_names_its_line_and_column(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("refbridge.formats.csljson._CHUNK", 5)
    text = '[\n  {"id": "a", "type": "book"},\n  {"id": "b", "type" "book"}\n]'
    with pytest.raises(ParseError, match=r"^items.json:3:22: not valid JSON: Expecting ':' delimiter$"):
        read(text)


def _mixcache() -> Record:
    return next(r for r in seed_records("zhengping-qian")
                if "MixCache" in r.get("abstract", ""))


def test_an_abstract_is_plain_text_and_its_formula_comes_back() -> None:
    record = _mixcache()
    (item,) = json.loads(write([record]))
    assert "(e.g., 1.94× speedup on Wan 14B, 1.97× speedup on HunyuanVideo)" in item["abstract"]
    assert "<" not in item["abstract"]
    assert read(write([record]))[0].fields["abstract"] == record.fields["abstract"]


#: An item of Zotero's CSL JSON export of an item refbridge wrote to Zotero RDF (tugboat.bib's
#: Knuth:TB7-2-95 through Zotero's translation server): Extra became the note.
ZOTERO_EXPORT = {
    "id": "Knuth:TB7-2-95", "type": "article-journal", "container-title": "TUGboat",
    "ISSN": "0896-3207", "issue": "2", "page": "95–98",
    "note": ("original-date: 1985\ntex.bibdate: Fri Jul 13 10:24:20 MDT 2007\n"
             "tex.fjournal: TUGboat\n"
             'refbridge: {"custom": {"latex": {"page": "95--98"}}}\nRead at the meeting.'),
    "title": "Remarks to celebrate the publication of <i>Computers &amp; Typesetting</i>",
    "volume": "7", "author": [{"family": "Knuth", "given": "Donald E."}],
    "issued": {"date-parts": [["1986", 6]]}}


def test_zoteros_extra_in_a_note_gives_variables_bib_fields_and_the_residue() -> None:
    (record,) = read(json.dumps([ZOTERO_EXPORT]))
    assert record.get("note") == "Read at the meeting."
    assert record.dates["original-date"] == Date(start=DateParts(1985))
    assert dict(record.extra) == {"bibtex.bibdate": "Fri Jul 13 10:24:20 MDT 2007",
                                  "bibtex.fjournal": "TUGboat"}
    assert record.fields["page"].latex == "95--98"  # type: ignore[union-attr]


def test_a_citation_key_line_of_a_note_is_the_key() -> None:
    item = {**ZOTERO_EXPORT, "id": "http://zotero.org/users/1/items/DPA67YH9",
            "note": "Citation Key: knuth1986remarks"}
    (record,) = read(json.dumps([item]))
    assert (record.citation_key, record.get("note")) == ("knuth1986remarks", None)


def test_a_note_whose_lines_look_like_data_comes_back_as_written() -> None:
    note = "volume: see errata\ntex.x: y\nrefbridge: {}"
    record = REALISTIC[0].replace(fields={**REALISTIC[0].fields, "note": note})
    (back,) = read(write([record]))
    assert (back.get("note"), back.get("volume"), dict(back.extra)) == (note, "27", {})


def test_a_bib_through_csl_json_keeps_its_keys(tmp_path: Path) -> None:
    bib = tmp_path / "in.bib"
    bib.write_text("@article{knuth:lp, title={Literate Programming}, author={Knuth, Donald E.},"
                   " journal={The Computer Journal}, year=1984}\n"
                   "@book{Lamport94, title={{\\LaTeX}}, author={Lamport, Leslie}, year=1994}\n",
                   encoding="utf-8")
    records = read_file(str(bib), Diagnostics())
    back = read(write(records))
    assert [r.citation_key for r in back] == ["knuth:lp", "Lamport94"]
