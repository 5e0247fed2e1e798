"""Does a library survive a trip through Zotero? ``python benchmarks/zotero_trip.py FILE.bib``

The trip a user makes: ``.bib`` -> refbridge's Zotero RDF -> Zotero's import -> Zotero's CSL JSON
export -> refbridge -> ``.bib``; then bibtex (and biber) run on the original and on what came
back, and each entry's printed text is compared (``fidelity.py``'s machinery). Citation keys
that did not come back are counted apart: every ``\\cite`` of such an entry breaks.

Zotero's part is played by either

- a Zotero translation server (``--server http://127.0.0.1:1969``: Zotero's own RDF import
  and CSL JSON export translators; the server is not part of refbridge), or
- ``zotero_csl_export``, a simulation of what those translators do with refbridge's RDF:
  the item's fields as Zotero's RDF import keeps them (Extra as ``extra``; no ``citationKey``
  field, which Zotero's RDF import does not read), then Zotero's CSL JSON export: the
  schema's ``csl`` mappings (``zotero-schema.json``), Extra as ``note`` with its
  ``Field Name: value`` labels turned into CSL names, a ``Citation Key:`` line taken out of
  the note as the item's ``id``, and otherwise Zotero's item key as the ``id``.

This is a measuring tool, not a test: it asserts nothing. tests/formats/zotero/test_zotero_trip.py runs it
on a library TeX Live ships and keeps a floor.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import sys
import tempfile
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fidelity import BiberSetup, ToolResult, biber_blocks, bibtex_blocks

SCHEMA = ROOT.parent / "shared" / "schemas" / "zotero-schema.json"
#: How many records go to the translation server at once (it limits a request's size).
CHUNK = 200
#: Zotero's labels of Extra lines that its CSL export spells in capitals.
_UPPER = {"doi": "DOI", "isbn": "ISBN", "issn": "ISSN", "pmcid": "PMCID", "pmid": "PMID",
          "url": "URL", "archive-location": "archive_location"}
_EXTRA_LABEL = re.compile(r"^([A-Za-z \-]+)(:\s*.+)$", re.MULTILINE)
_CITATION_KEY = re.compile(r"(?:^|\n)citation key\s*:\s*([^\s]+)(?:\n|$)", re.IGNORECASE)
_ISO = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?")


@dataclass
class CslMappings:
    """The ``csl`` part of Zotero's schema, and each item type's fields and base fields."""

    types: dict[str, str]  #: Zotero item type -> CSL type
    text: dict[str, list[str]]  #: CSL variable -> Zotero fields
    dates: dict[str, str]  #: CSL variable -> Zotero field
    names: dict[str, str]  #: Zotero creator type -> CSL variable
    fields_of_type: dict[str, dict[str, str]] = field(default_factory=dict)  #: base -> field
    primary_creator: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, schema: Path = SCHEMA) -> CslMappings:
        data = json.loads(schema.read_text(encoding="utf-8"))
        csl = data["csl"]
        types = {zotero: csl_type for csl_type, zoteros in csl["types"].items()
                 for zotero in zoteros}
        mappings = cls(types, csl["fields"]["text"], csl["fields"]["date"], csl["names"])
        for item_type in data["itemTypes"]:
            fields: dict[str, str] = {}
            for entry in item_type["fields"]:
                fields[entry["field"]] = entry["field"]
                if "baseField" in entry:
                    fields[entry["baseField"]] = entry["field"]
            mappings.fields_of_type[item_type["itemType"]] = fields
            primary = [c["creatorType"] for c in item_type.get("creatorTypes", ())
                       if c.get("primary")]
            if primary:
                mappings.primary_creator[item_type["itemType"]] = primary[0]
        return mappings


def extra_to_csl(extra: str) -> str:
    """Zotero's ``extraToCSL``: ``Original Date: 1968`` lines as ``original-date: 1968``."""
    def label(match: re.Match[str]) -> str:
        name = match[1].lower().replace(" ", "-")
        return _UPPER.get(name, name) + match[2]
    return _EXTRA_LABEL.sub(label, extra)


def _date(text: str) -> dict[str, Any]:
    found = _ISO.match(text.strip())
    if found is None:
        return {"literal": text}
    return {"date-parts": [[part for part in found.groups() if part]]}


def _particles(family: str, given: str) -> dict[str, str]:
    """A name as Zotero's CSL export splits it (``parseParticles``, as citeproc-js does):
    lower-case words that start the family name are its particle, those that end the given
    name a dropping particle."""
    name = {"family": family, "given": given}
    words = family.split(" ")
    lead = 0
    while lead < len(words) - 1 and words[lead][:1].islower():
        lead += 1
    if lead:
        name["non-dropping-particle"] = " ".join(words[:lead])
        name["family"] = " ".join(words[lead:])
    given_words = given.split(" ")
    tail = len(given_words)
    while tail > 1 and given_words[tail - 1][:1].islower():
        tail -= 1
    if tail < len(given_words):
        name["dropping-particle"] = " ".join(given_words[tail:])
        name["given"] = " ".join(given_words[:tail])
    return name


def _item_key(rng: random.Random) -> str:
    return "".join(rng.choice("23456789ABCDEFGHIJKLMNPQRSTUVWXYZ") for _ in range(8))


def csl_of_item(item: Any, mappings: CslMappings, rng: random.Random) -> dict[str, Any]:
    """Zotero's CSL JSON export of one imported item (a ``formats.zotero.rdf.ZoteroItem``)."""
    fields = dict(item.fields)
    fields.pop("citationKey", None)  # Zotero's RDF import does not read it
    fields.pop("notes", None)  # child notes are items of their own
    key: str | None = None
    if "extra" in fields:
        def take(match: re.Match[str]) -> str:
            nonlocal key
            key = match[1]
            return "\n"
        fields["extra"] = _CITATION_KEY.sub(take, fields["extra"], count=1).strip()
    of_type = mappings.fields_of_type.get(item.item_type, {})
    csl: dict[str, Any] = {"id": key or _item_key(rng),
                           "type": mappings.types.get(item.item_type, "document")}
    for variable, names in mappings.text.items():
        for name in names:
            value = fields.get(of_type.get(name, name))
            if value:
                csl[variable] = extra_to_csl(value) if name == "extra" else value
                break
    primary = mappings.primary_creator.get(item.item_type)
    for creator_type, person in item.creators:
        role = mappings.names.get(creator_type) or ("author" if creator_type == primary
                                                    else None)
        if role is None:
            continue
        from refbridge.formats.zotero.rdf import name_fields

        last, first = name_fields(person)
        csl.setdefault(role, []).append({"literal": last} if first is None else
                                        _particles(last, first))
    for variable, name in mappings.dates.items():
        value = fields.get(of_type.get(name, name))
        if value:
            csl[variable] = _date(value)
    return csl


def zotero_csl_export(rdf: str, mappings: CslMappings, seed: int = 0) -> list[dict[str, Any]]:
    """What Zotero's CSL JSON export gives for the items of ``rdf`` after Zotero's import."""
    from lxml import etree

    from refbridge.formats.zotero.rdf import qname, read_item

    root = etree.fromstring(rdf.encode("utf-8"))
    about = qname("rdf:about")
    index = {e.get(about): e for e in root.iter() if e.get(about) is not None}
    rng = random.Random(seed)
    return [csl_of_item(read_item(node, index, "<rdf>"), mappings, rng) for node in root
            if isinstance(node.tag, str) and node.find(qname("z:itemType")) is not None]


def server_csl_export(rdf: str, server: str) -> list[dict[str, Any]]:
    """The same through a Zotero translation server (its ``/import`` and ``/export``)."""
    def post(path: str, data: bytes, kind: str) -> bytes:
        request = urllib.request.Request(server.rstrip("/") + path, data=data,
                                         headers={"Content-Type": kind})
        with urllib.request.urlopen(request, timeout=600) as answer:
            return bytes(answer.read())
    items = [i for i in json.loads(post("/import", rdf.encode("utf-8"), "text/plain"))
             if i.get("itemType") not in ("note", "attachment")]
    exported: list[dict[str, Any]] = json.loads(
        post("/export?format=csljson", json.dumps(items).encode("utf-8"), "application/json"))
    return exported


@dataclass
class TripResult:
    entries: int
    keys_kept: int
    tools: dict[str, ToolResult]


def trip(original: Path, workdir: Path, export: Callable[[str], list[dict[str, Any]]],
         dialect: str = "bibtex") -> Path:
    """``original`` through refbridge's Zotero RDF, ``export`` (Zotero) and back to .bib."""
    from refbridge.errors import Diagnostics
    from refbridge.formats.csljson import READER as CSL_READER
    from refbridge.registry import WriteOptions, get_reader, get_writer

    workdir.mkdir(parents=True, exist_ok=True)
    diagnostics = Diagnostics()
    text = original.read_text(encoding="utf-8", errors="replace")
    records = list(get_reader("bibtex").read(io.StringIO(text), str(original), diagnostics))
    items: list[dict[str, Any]] = []
    for start in range(0, len(records), CHUNK):
        out = io.StringIO()
        get_writer("zotero").write(records[start:start + CHUNK], out, WriteOptions())
        items += export(out.getvalue())
    exported = workdir / "zotero-export.json"
    exported.write_text(json.dumps(items, ensure_ascii=False, indent=1), encoding="utf-8")
    back = list(CSL_READER.read(io.StringIO(exported.read_text(encoding="utf-8")),
                                str(exported), diagnostics))
    result = workdir / "back.bib"
    with result.open("w", encoding="utf-8") as out:
        get_writer(dialect).write(back, out, WriteOptions())
    return result


def compare(original: Path, back: Path, workdir: Path, styles: Sequence[str],
            biber: BiberSetup | None) -> TripResult:
    """What bibtex (and biber) print for ``original`` and for ``back``, entry by entry."""
    bibtex = ToolResult()
    for style in styles:
        bibtex.add(f"bibtex {style}", bibtex_blocks(original, style, workdir / f"o-{style}"),
                   bibtex_blocks(back, style, workdir / f"b-{style}"))
    tools = {"bibtex": bibtex}
    if biber is not None:
        tools["biber"] = ToolResult(dialect="biblatex")
        tools["biber"].add("biber", biber_blocks(original, biber, workdir / "o-biber"),
                           biber_blocks(back, biber, workdir / "b-biber"))
    before = set(_keys(original))
    return TripResult(len(before), len(before & set(_keys(back))), tools)


def _keys(bib: Path) -> list[str]:
    return re.findall(r"^@\w+\{([^,\s]+),", bib.read_text(encoding="utf-8", errors="replace"),
                      re.MULTILINE | re.IGNORECASE)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("libraries", nargs="+", type=Path)
    parser.add_argument("--server", help="a Zotero translation server (else the simulation)")
    parser.add_argument("--styles", default="plain,alpha")
    parser.add_argument("--dialect", default="bibtex", choices=("bibtex", "biblatex"))
    parser.add_argument("--biber", action="store_true", help="compare biber's output too")
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args(argv)
    if args.server:
        server = args.server
        export: Callable[[str], list[dict[str, Any]]] = lambda rdf: server_csl_export(
            rdf, server)
    else:
        mappings = CslMappings.load()
        export = lambda rdf: zotero_csl_export(rdf, mappings)
    with tempfile.TemporaryDirectory(prefix="refbridge-zotero-trip-") as tmp:
        biber = BiberSetup.make(Path(tmp) / "biber-setup") if args.biber else None
        for number, library in enumerate(args.libraries):
            workdir = Path(tmp) / str(number)
            back = trip(library, workdir, export, args.dialect)
            result = compare(library, back, workdir, args.styles.split(","), biber)
            print(f"{library.name}: {result.keys_kept}/{result.entries} keys kept")
            for tool, measured in result.tools.items():
                print(f"  {tool:6} {measured.identical}/{len(measured.entries)} "
                      f"{100 * measured.share():.2f}% printed the same")
                for key in sorted(measured.differing)[:args.show]:
                    print("    " + measured.differing[key][0].explain())
    return 0


if __name__ == "__main__":
    sys.exit(main())
