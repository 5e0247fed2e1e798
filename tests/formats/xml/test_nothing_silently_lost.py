"""Nothing a reader sees is lost silently: in every real file of JabRef's and Zotero's test
data for PubMed XML, MODS, EndNote XML and Word XML, each element's text is in the records
read (a field, a name, a keyword, a date, a ``FORMAT.FIELD`` extra), or the element is one
the reader's ``RECOMPOSED`` table says it reads into another form, or a warning naming the
file and line reports it (or an element holding it). The extras are given back by the
format's writer. A Scopus export's cells likewise."""

from __future__ import annotations

import calendar
import io
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from support import SHARED

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.sheets import scopus
from refbridge.formats.xml import endnote, mods, mods_tables, pubmed, safe, word, word_tables
from refbridge.model import Record
from refbridge.registry import WriteOptions
from refbridge.richtext import plain

JABREF = SHARED / "conformance" / "jabref-importer"
ZOTERO = SHARED / "conformance" / "zotero-import"
SEASONS = ("", "Spring", "Summer", "Autumn", "Winter")

#: reader module -> (its RECOMPOSED table, the files of its format).
READERS: dict[str, tuple[ModuleType, Mapping[str, str], list[Path]]] = {
    "pubmed-xml": (pubmed, pubmed.RECOMPOSED, [
        *sorted(JABREF.glob("MedlineImporterTest*.xml")),
        *sorted((ZOTERO / "pubmed-xml").glob("*.input"))]),
    "mods": (mods, mods_tables.RECOMPOSED, [
        *sorted(JABREF.glob("MODSImporterTest*.xml")), *sorted((ZOTERO / "mods").glob("*.input"))]),
    "endnote-xml": (endnote, endnote.RECOMPOSED, [
        *sorted(JABREF.glob("EndnoteXmlImporterTest*.xml")),
        *sorted((ZOTERO / "endnote-xml").glob("*.input"))]),
    "word-xml": (word, word_tables.RECOMPOSED, [
        *sorted(JABREF.glob("MsBib*.xml")), JABREF / "EmptyMsBib_Test.xml"]),
}
#: Files that are not well-formed XML (JabRef tests that they are refused).
BROKEN = frozenset({"MedlineImporterTestMalformedEntry.xml",
                    "MedlinePlainImporterTestInvalidFormat.xml"})
#: Elements of inline text: the value is their parent's (EndNote XML's ``style`` runs).
INLINE = frozenset({"style", "i", "b", "sup", "sub", "u"})
CASES = [pytest.param(name, path, id=f"{name}:{path.parent.name}/{path.name}")
         for name, (_, _, paths) in READERS.items() for path in paths
         if path.name not in BROKEN]


def _words(text: str) -> str:
    return " ".join(text.split())


def everything_read(records: Iterable[Record]) -> str:
    """All the text of ``records``: fields, names, keywords, extras, dates in every spelling."""
    parts: list[str] = []
    for record in records:
        parts += [plain(value) for value in record.fields.values()]
        parts += [p for people in record.names.values() for person in people
                  for p in (person.family, person.given, person.literal, person.suffix,
                            person.non_dropping_particle, person.dropping_particle) if p]
        parts += [*record.keywords, *record.extra.values(), record.id, record.citation_key or ""]
        for date in record.dates.values():
            parts += [date.literal or "", SEASONS[date.season or 0]]
            for point in (date.start, date.end):
                if point is not None:
                    parts.append(str(point.year))
                    if point.month:
                        parts += [str(point.month), f"{point.month:02d}",
                                  calendar.month_name[point.month],
                                  calendar.month_abbr[point.month]]
                    if point.day:
                        parts += [str(point.day), f"{point.day:02d}"]
    return " | ".join(_words(p) for p in parts)


def _related(element: Any) -> tuple[str, bool] | None:
    """The type of the MODS ``relatedItem`` of the record holding ``element`` (the outermost)
    and whether it is the first of its type, or None."""
    for ancestor in element.iterancestors():
        if safe.local_name(ancestor) == "relatedItem" and safe.local_name(
                ancestor.getparent()) == "mods":
            kind = ancestor.get("type") or "untyped"
            same = [r for r in safe.children(ancestor.getparent(), "relatedItem")
                    if (r.get("type") or "untyped") == kind]
            return kind, same[0] is ancestor
    return None


def _excused(element: Any, chain: list[str], messages: list[str]) -> bool:
    """Whether a warning reports ``element``: it names the element or one holding it (in a
    MODS related item, with that item's type)."""
    related = _related(element)
    for message in messages:
        if found := re.match(r'MODS: <(\w+)> of a relatedItem type="(\w+)"', message):
            if related is not None and related[0] == found[2] and found[1] in chain:
                return True
        elif found := re.match(r'MODS: <relatedItem type="(\w+)"> after the first', message):
            if related is not None and related == (found[1], False):
                return True
        elif set(re.findall(r"<([A-Za-z_][\w.-]*)[ >]", message)) & set(chain) and (
                related is None or "relatedItem" not in message):
            return True
    return False


def lost(root: Any, records: list[Record], diagnostics: Diagnostics,
         recomposed: Mapping[str, str]) -> dict[str, str]:
    """Element path -> text of the elements whose text nothing accounts for."""
    read = everything_read(records)
    messages = [m.message for m in diagnostics.messages if m.file and m.line]
    found: dict[str, str] = {}
    for element in root.iter():
        if not isinstance(element.tag, str) or len(element):
            continue
        # ISBD punctuation closing a part (``3 Viennese arias :``) is no text of the record.
        text = _words("".join(element.itertext())).rstrip(" :;/")
        chain = [safe.local_name(e) for e in (element, *element.iterancestors())]
        value = chain[1] if chain[0] in INLINE else chain[0]
        if text and text not in read and value not in recomposed and not _excused(
                element, chain, messages):
            found.setdefault("/".join(reversed(chain[:3])), text)
    return found


def read_file(module: ModuleType, path: Path) -> tuple[str, list[Record], Diagnostics]:
    text = path.read_text(encoding="utf-8", errors="replace")
    diagnostics = Diagnostics()
    return text, list(module.READER.read(io.StringIO(text), str(path), diagnostics)), diagnostics


@pytest.mark.parametrize(("name", "path"), CASES)
def test_every_element_is_read_kept_or_reported(shared_dir: Path, name: str,
                                                path: Path) -> None:
    module, recomposed, _ = READERS[name]
    text, records, diagnostics = read_file(module, path)
    assert lost(safe.parse_xml(text, str(path), name), records, diagnostics, recomposed) == {}


@pytest.mark.parametrize(("name", "path"), [c for c in CASES if c.values[0] != "pubmed-xml"])
def test_the_extras_kept_are_given_back_by_the_writer(shared_dir: Path, name: str,
                                                      path: Path) -> None:
    module, _, _ = READERS[name]
    _, records, _ = read_file(module, path)
    out = io.StringIO()
    module.WRITER.write(records, out, WriteOptions())
    again = list(module.READER.read(io.StringIO(out.getvalue()), "again.xml", Diagnostics()))
    assert [dict(r.extra) for r in again] == [dict(r.extra) for r in records]


def test_a_broken_file_is_refused_with_its_line(shared_dir: Path) -> None:
    path = JABREF / "MedlineImporterTestMalformedEntry.xml"
    with pytest.raises(ParseError, match=r"not well-formed XML") as refused:
        read_file(pubmed, path)
    assert refused.value.line == 4


# The 2023 layout of a Scopus export (its columns as Scopus writes them, the record invented).
SCOPUS = (
    '\ufeff"Authors","Author full names","Author(s) ID","Title","Year","Source title","Volume",'
    '"Issue","Art. No.","Page start","Page end","Page count","Cited by","DOI","Link",'
    '"Affiliations","Abstract","Author Keywords","Index Keywords","Funding Details",'
    '"References","Correspondence Address","Editors","Publisher","Sponsors",'
    '"Conference name","Conference date","Conference location","Conference code","ISSN",'
    '"ISBN","CODEN","PubMed ID","Language of Original Document","Abbreviated Source Title",'
    '"Document Type","Publication Stage","Open Access","Source","EID"\n'
    '"Farahani S.; Zhou Z.W.; Ashworth G.","Farahani, S. (42000000301); Zhou, Z.W. '
    '(8500000302); Ashworth, G. (55000000303)","42000000301; 8500000302; 55000000303",'
    '"Strength of aluminium and magnesium lap joints made by friction stir welding",'
    '"2011","Annual Meeting on Light Metals","","","","243","251","8","3","",'
    '"https://www.scopus.com/inward/record.uri?eid=2-s2.0-79900000004",'
    '"Department of Materials Engineering, Example University, Tampere, '
    'Finland","The effect of hooking on the strength of lap joints is known.",'
    '"Lap joints; Hooking; Plasticity; Softening","Alloys; Fracture; Friction",'
    '"","Berg A., Okafor K.I., Journal of Joining, 5, (2003)","",'
    '"Novak M.; Reyes K.","","Light Metals Division; Society of Joining '
    'Engineers","Joining of Light Metals VI","27 February 2011 through 3 '
    'March 2011","Denver, CO","85652","","978-100000000-5","85ABC","","English",'
    '"Annu Meet Light Met","Conference paper","Final","","Scopus","2-s2.0-79900000004"\n')


def test_every_cell_of_a_scopus_row_is_read_kept_or_recomposed() -> None:
    diagnostics = Diagnostics()
    (record,) = scopus.READER.read(io.StringIO(SCOPUS), "scopus.csv", diagnostics)
    header, row = (line.split('","') for line in SCOPUS.lstrip('\ufeff"').splitlines())
    read = everything_read([record])
    cells = dict(zip(header, (cell.strip('"') for cell in row)))
    assert {heading: value for heading, value in cells.items() if value
            and _words(value) not in read and heading not in scopus.RECOMPOSED} == {}
    assert diagnostics.messages == []
