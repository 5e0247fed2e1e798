"""Zotero RDF writer: Zotero's own export structure, preprints, tags, Extra and a collection."""

from __future__ import annotations

import io

import pytest
from lxml import etree
from support import SAMPLES

from refbridge.errors import Diagnostics
from refbridge.formats.zotero.rdf import NAMESPACES, READER, WRITER
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.pipeline import read_file, with_keys
from refbridge.registry import WriteOptions

NS = NAMESPACES


def write(records: list[Record], options: WriteOptions | None = None) -> str:
    out = io.StringIO()
    WRITER.write(records, out, options or WriteOptions())
    return out.getvalue()


def parse(text: str) -> etree._Element:
    return etree.fromstring(text.encode("utf-8"))


def seed(name: str) -> list[Record]:
    return with_keys(read_file(str(SAMPLES / f"{name}.profile.txt"), Diagnostics()),
                     WriteOptions())


KNUTH = Record(
    id="knuth1984", type="article-journal", citation_key="knuth1984",
    fields={"title": "Literate Programming", "container-title": "The Computer Journal",
            "volume": "27", "issue": "2", "page": "97-111", "ISSN": "0010-4620",
            "DOI": "10.1093/comjnl/27.2.97", "URL": "https://example.org/lp"},
    names={"author": (Name(family="Knuth", given="Donald E."),)},
    dates={"issued": Date(start=DateParts(1984, 2))},
    keywords=("programming",),
)


def test_a_journal_article_has_zoteros_export_structure() -> None:
    item = parse(write([KNUTH]))[0]
    assert etree.QName(item).localname == "Article" and item.get(
        f"{{{NS['rdf']}}}about") == "#item_1"
    assert item.findtext("z:itemType", namespaces=NS) == "journalArticle"
    journal = item.find("dcterms:isPartOf/bib:Journal", NS)
    assert [(etree.QName(e).localname, e.text) for e in journal] == [
        ("title", "The Computer Journal"), ("volume", "27"), ("number", "2"),
        ("identifier", "ISSN 0010-4620"), ("identifier", "DOI 10.1093/comjnl/27.2.97")]
    person = item.find("bib:authors/rdf:Seq/rdf:li/foaf:Person", NS)
    assert (person.findtext("foaf:surname", namespaces=NS),
            person.findtext("foaf:givenName", namespaces=NS)) == ("Knuth", "Donald E.")
    assert item.findtext("dc:identifier/dcterms:URI/rdf:value", namespaces=NS) \
        == "https://example.org/lp"
    assert [(p, item.findtext(p, namespaces=NS)) for p in (
        "dc:title", "dc:date", "bib:pages", "z:citationKey", "dc:subject")] == [
        ("dc:title", "Literate Programming"), ("dc:date", "1984-02"), ("bib:pages", "97-111"),
        ("z:citationKey", "knuth1984"), ("dc:subject", "programming")]
    assert item.findtext("dc:description", namespaces=NS) == "Citation Key: knuth1984"


def test_a_seed_preprint_imports_as_a_zotero_preprint_with_repository_and_tags() -> None:
    root = parse(write(seed("zhengping-qian")[:1]))
    item = root[0]
    assert item.findtext("z:itemType", namespaces=NS) == "preprint"
    assert item.findtext("dc:publisher/foaf:Organization/foaf:name", namespaces=NS) == "arXiv"
    assert [s.text for s in item.findall("dc:subject", NS)] == ["cs.DB", "Databases"]
    assert item.findtext("dc:description", namespaces=NS) == (
        'Citation Key: qian2026specdb\n'
        'tex.profile-owner: Zhengping Qian\n'
        'refbridge: {"custom": {"incomplete-names": ["author"]}}')
    assert item.findtext("dcterms:abstract", namespaces=NS).startswith(
        "Mainstream relational databases")


def test_a_known_arxiv_identifier_becomes_the_archive_id() -> None:
    record = Record(id="x", type="article", fields={"title": "T"}, citation_key="x",
                    eprint=Eprint("arXiv", "2601.00001v2", "cs.DB", ("cs.LG",)))
    item = parse(write([record]))[0]
    assert item.findtext("prism:number", namespaces=NS) == "arXiv:2601.00001v2"
    assert [s.text for s in item.findall("dc:subject", NS)] == [
        "cs.DB", "Databases", "cs.LG", "Machine Learning"]


def test_a_published_paper_keeps_its_venue_and_its_arxiv_id_is_an_extra_line() -> None:
    record = Record(
        id="smith2018", type="article-journal", citation_key="smith2018",
        fields={"title": "A Search for Dark Photons", "container-title":
                "Physical Review Letters", "volume": "120", "page": "101801",
                "note": "Editors' suggestion"},
        names={"author": (Name(family="Smith", given="John"),)},
        dates={"issued": Date.of(2018)}, eprint=Eprint("arXiv", "1801.00001", "hep-ex"))
    text = write([record])
    item = parse(text)[0]
    assert item.findtext("z:itemType", namespaces=NS) == "journalArticle"
    assert item.find("dc:publisher", NS) is None
    assert item.findtext("dcterms:isPartOf/bib:Journal/prism:number", namespaces=NS) is None
    assert item.findtext("dc:description", namespaces=NS) == (
        "Citation Key: smith2018\narXiv: 1801.00001\nEditors' suggestion")
    (back,) = READER.read(io.StringIO(text), "smith.rdf", Diagnostics(strict=True))
    assert back.replace(source=None) == record


def test_the_collection_is_named_after_the_profile_owner_and_holds_every_record() -> None:
    records = seed("qinwei-yang")
    collection = parse(write(records)).find("z:Collection", NS)
    assert collection.findtext("dc:title", namespaces=NS) == "Qinwei Yang"
    assert [p.get(f"{{{NS['rdf']}}}resource") for p in collection.findall(
        "dcterms:hasPart", NS)] == [f"#item_{n}" for n in range(1, len(records) + 1)]


def test_the_collection_option_names_the_collection() -> None:
    root = parse(write([KNUTH], WriteOptions(collection="My <papers> & more")))
    assert root.find("z:Collection", NS).findtext("dc:title", namespaces=NS) \
        == "My <papers> & more"


def test_records_without_a_common_author_go_to_a_default_collection() -> None:
    other = KNUTH.replace(id="b", citation_key="b",
                          names={"author": (Name(family="Lamport", given="Leslie"),)})
    root = parse(write([KNUTH, other]))
    assert root.find("z:Collection", NS).findtext("dc:title", namespaces=NS) \
        == "refbridge import"


def test_record_text_stays_text_in_the_xml() -> None:
    hostile = "<dc:title>x</dc:title> & ]]> <!-- \U0001f600 \"q\" 'a'"
    record = KNUTH.replace(fields={**KNUTH.fields, "title": hostile, "abstract": hostile})
    item = parse(write([record]))[0]
    assert item.findtext("dc:title", namespaces=NS) == hostile
    assert item.findtext("dcterms:abstract", namespaces=NS) == hostile
    assert len(item.findall("dc:title", NS)) == 1


def test_what_zotero_has_no_field_for_goes_into_extra_and_comes_back() -> None:
    record = Record(
        id="bach", type="musical_score", citation_key="bach",
        fields={"title": "Messe in h-Moll", "note": "Autograph score.", "version": "BWV 232"},
        names={"composer": (Name(family="Bach", given="Johann Sebastian"),),
               "editor": (Name(family="Beethoven", given="Ludwig", dropping_particle="van"),)},
        dates={"issued": Date(start=DateParts(1733), end=DateParts(1749), circa=True)},
        incomplete_names=frozenset({"editor"}))  # no date text says a range is approximate
    text = write([record])
    item = parse(text)[0]
    assert item.findtext("z:itemType", namespaces=NS) == "document"
    assert item.findtext("dc:description", namespaces=NS).split("\n") == [
        "Citation Key: bach",
        "type: musical_score",
        "version: BWV 232",
        ('refbridge: {"composer": [{"family": "Bach", "given": "Johann Sebastian"}], '
        '"custom": {"incomplete-names": ["editor"]}, '
        '"issued": {"circa": true, "date-parts": [[1733], [1749]]}}'),
        "Autograph score."]
    (back,) = READER.read(io.StringIO(text), "out.rdf", Diagnostics(strict=True))
    assert back.replace(source=None) == record


@pytest.mark.parametrize("sample", ["varied.json", "varied-types.json"])
def test_every_item_type_of_the_varied_samples_round_trips(sample: str) -> None:
    records = with_keys(read_file(str(SAMPLES / sample), Diagnostics()), WriteOptions())
    back = list(READER.read(io.StringIO(write(records)), "varied.rdf", Diagnostics(strict=True)))
    assert [r.replace(source=None) for r in back] == [r.replace(source=None) for r in records]


def test_exclude_fields_leaves_parts_out_of_the_rdf() -> None:
    item = parse(write([KNUTH], WriteOptions(exclude_fields=frozenset({"keywords", "URL"}))))[0]
    assert item.find("dc:subject", NS) is None and item.find("dc:identifier/dcterms:URI",
                                                            NS) is None


def test_the_seeds_csl_json_is_what_zotero_imports_as_preprints() -> None:
    from refbridge.formats.csljson import to_csl

    items = [to_csl(r) for name in ("zhengping-qian", "qinwei-yang") for r in seed(name)
             if r.eprint is not None]
    assert len(items) >= 20
    assert {(i["type"], i["publisher"], "number" in i) for i in items} == {
        ("article", "arXiv", False)}  # the profile pages give no arXiv identifiers


def test_an_abstract_is_plain_text_in_zoteros_abstract_and_its_formula_comes_back() -> None:
    record = next(r for r in seed("zhengping-qian") if "MixCache" in r.get("abstract", ""))
    text = write([record])
    abstract = parse(text)[0].findtext("dcterms:abstract", namespaces=NS)
    assert "(e.g., 1.94× speedup on Wan 14B" in abstract and "<" not in abstract
    (back,) = READER.read(io.StringIO(text), "qian.rdf", Diagnostics(strict=True))
    assert back.fields["abstract"] == record.fields["abstract"]
