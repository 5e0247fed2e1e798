"""What each of refbridge's own formats is, known without importing the format's module.

The registry lists formats, tells an input's format from its name and first kilobytes, and picks
a writer by file ending on every command; importing every format module to learn that cost about
25 ms of each command. ``FORMATS`` registers each format once: its entry-point name, and its
reader's and writer's targets, descriptions, file endings, content signature and the coverage the
writer declares; the signature functions themselves are here too, and look only at the text
(``re`` and ``str`` methods); and which inputs name a library rather than a file, with the
function that reads them (``SOURCES``). ``pyproject.toml``'s entry points are written from it
(``refbridge.tools.regenerate``). refbridge's readers subclass ``CatalogueReader``, which takes
their description, file endings and ``sniff`` from here, so the two cannot disagree; a test
checks every entry against the module it describes.

Third-party formats need no entry here: the registry loads a format it does not find in this
table to ask it. This module must never import a format module or parse a document.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

Signature = Callable[[str], bool]


# -- signatures: the start of a file -> whether it looks like the format ---------------------
def _first_line(head: str) -> str:
    """The first line that holds more than white space and a byte-order mark."""
    return next((line for line in head.splitlines() if line.strip("\ufeff \t\r\n")), "")


_BIB_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)


def bibtex(head: str) -> bool:
    return _BIB_ENTRY.search(head) is not None


def csl_json(head: str) -> bool:
    stripped = head.lstrip()
    return stripped.startswith(("[", "{")) and '"type"' in head and '"id"' in head \
        or stripped in ("[]", "")


PROFILE_ATTRIBUTION = re.compile(
    r"^Publications and source records attributed to (?P<owner>.+?)\.?$")


def profile(head: str) -> bool:
    return any(PROFILE_ATTRIBUTION.match(line.strip()) for line in head.splitlines()[:40])


#: A line of RIS or MEDLINE: a tag of two to four capitals or digits, spaces, a hyphen. The two
#: share this shape (MEDLINE pads its tags to four characters, RIS writes two and two spaces),
#: so which one a text is comes from its tags.
_TAG_LINE = re.compile(r"^(?P<tag>[A-Z][A-Z0-9]{1,3}) *-(?: |$)")
_RIS_TYPE = re.compile(r"^TY {1,2}- ")
#: Tags only RIS has (its record start and end, and fields MEDLINE names otherwise).
_RIS_ONLY = frozenset({"TY", "ER", "T1", "T2", "T3", "JF", "JO", "JA", "J1", "J2", "SP", "EP",
                       "Y1", "PY", "DA", "Y2", "N1", "N2", "KW", "UR", "L1", "L2", "L4", "DO",
                       "SN", "PB", "CY", "VL", "A1", "A2", "A3", "M3", "C3", "DB", "ET"})
#: Tags only MEDLINE has.
_MEDLINE_ONLY = frozenset({"PMID", "PMC", "OWN", "STAT", "DCOM", "LR", "VI", "IP", "PG", "LID",
                           "FAU", "PT", "DEP", "PL", "TA", "JT", "JID", "SB", "MH", "OT", "EDAT",
                           "MHDA", "CRDT", "PHST", "AID", "PST", "SO", "BTI", "FED", "GR"})


def _tagged_votes(head: str) -> tuple[int, int]:
    """How many tags of the first lines of ``head`` only RIS has, and only MEDLINE has."""
    lines = [line.lstrip("\ufeff") for line in head.splitlines() if line.strip()][:60]
    tags = [match.group("tag") for line in lines if (match := _TAG_LINE.match(line))]
    return sum(tag in _RIS_ONLY for tag in tags), sum(tag in _MEDLINE_ONLY for tag in tags)


def ris(head: str) -> bool:
    first = _first_line(head).lstrip("\ufeff")
    if _RIS_TYPE.match(first):
        return True
    only_ris, only_medline = _tagged_votes(head)
    return _TAG_LINE.match(first) is not None and only_ris > only_medline


ENDNOTE_TAG_LINE = re.compile(r"^%(?P<tag>\S)(?: ?(?P<value>.*))?$")


def endnote(head: str) -> bool:
    first = _first_line(head)
    return ENDNOTE_TAG_LINE.match(first) is not None and (
        first.startswith(("%0 ", "%A ", "%T ")) or first.rstrip() == "%0")


MEDLINE_TAG_LINE = re.compile(r"^(?P<tag>[A-Z][A-Z0-9]{1,3}) *-(?: (?P<value>.*))?$")
_PMID = re.compile(r"^PMID- ?\d")


def medline(head: str) -> bool:
    first = _first_line(head).lstrip("\ufeff")
    if _PMID.match(first):
        return True
    only_ris, only_medline = _tagged_votes(head)
    return _TAG_LINE.match(first) is not None and only_medline > only_ris


def wos(head: str) -> bool:
    lines = [line.lstrip("\ufeff ") for line in head.splitlines() if line.strip()][:3]
    return bool(lines) and (lines[0].startswith("FN ") or lines[0].startswith("PT ")
                            and any(line[:3] in ("AU ", "TI ", "AF ") for line in lines))


ZOTERO_NAMESPACE = "http://www.zotero.org/namespaces/export#"


def zotero_rdf(head: str) -> bool:
    return "rdf:RDF" in head and ZOTERO_NAMESPACE in head


_ENDNOTE_XML = re.compile(r"<xml>\s*<records>\s*<record>")


def endnote_xml(head: str) -> bool:
    return _ENDNOTE_XML.search(head) is not None


_PUBMED_ROOTS = ("<PubmedArticleSet", "<PubmedArticle>", "<PubmedBookArticleSet",
                 "<PubmedBookArticle>")


def pubmed_xml(head: str) -> bool:
    return any(root in head for root in _PUBMED_ROOTS)


MODS_NAMESPACE = "http://www.loc.gov/mods/v3"


def mods(head: str) -> bool:
    return MODS_NAMESPACE in head and ("<modsCollection" in head or "<mods" in head)


WORD_NAMESPACE = "http://schemas.openxmlformats.org/officeDocument/2006/bibliography"


#: Word's root element without its namespace, as JabRef and older Word versions write it.
_WORD_ROOT = re.compile(r"^(?:<\?xml[^>]*\?>\s*)?<(?:b:)?Sources[\s>]")


def word_xml(head: str) -> bool:
    return WORD_NAMESPACE in head and "Sources" in head or \
        _WORD_ROOT.match(head.lstrip("\ufeff \t\r\n")) is not None


SCOPUS_HEADINGS = ("Source title", "EID")


def csv(head: str) -> bool:
    first = head.split("\n", 1)[0]
    if any(heading in first for heading in SCOPUS_HEADINGS):
        return False
    headings = {h.strip().strip('"').lower() for h in first.split(",")}
    return len(headings) > 1 and "title" in headings


def scopus_csv(head: str) -> bool:
    first = head.split("\n", 1)[0]
    return "Source title" in first and ("EID" in first or "Authors" in first)


GOOGLE_SCHOLAR_COLUMNS: frozenset[str] = frozenset({"Authors", "Title", "Publication", "Year"})


def google_scholar_csv(head: str) -> bool:
    first = head.lstrip("\ufeff").split("\n", 1)[0]
    columns = {c.strip().strip('"') for c in first.split(",")}
    return GOOGLE_SCHOLAR_COLUMNS <= columns


_ORCID_KEYS = ('"put-code"', '"orcid-identifier"', '"work-summary"', '"bulk"',
               '"external-id-type"')


def orcid(head: str) -> bool:
    stripped = head.lstrip()
    if stripped.startswith("<"):
        return "http://www.orcid.org/ns/" in head
    return stripped.startswith("{") and any(key in head for key in _ORCID_KEYS)


def dblp(head: str) -> bool:
    return "<dblpperson" in head


def openalex(head: str) -> bool:
    return head.lstrip().startswith(("{", "[")) and (
        '"https://openalex.org/W' in head or '"db_response_time_ms"' in head)


_S2_ANSWER = re.compile(r'^\{\s*"(?:offset|data|next)"\s*:')


def semantic_scholar(head: str) -> bool:
    stripped = head.lstrip()
    return stripped.startswith(("{", "[")) and (
        '"paperId"' in head or bool(_S2_ANSWER.match(stripped)))


def zotero_json(head: str) -> bool:
    return head.lstrip("\ufeff \t\r\n").startswith(("{", "[")) and '"itemType"' in head


def arxiv_atom(head: str) -> bool:
    return "http://www.w3.org/2005/Atom" in head and "arxiv.org" in head


_HAYAGRIVA_TYPE = re.compile(
    r"^[ \t]+type:[ \t]*['\"]?(?:article|chapter|entry|anthos|report|thesis|web|scene|artwork"
    r"|patent|case|newspaper|legislation|manuscript|original|post|misc|performance|periodical"
    r"|proceedings|book|blog|reference|conference|anthology|repository|thread|video|audio"
    r"|exhibition)['\"]?[ \t]*(?:#.*)?$", re.MULTILINE | re.IGNORECASE)
_YAML_KEY_LINE = re.compile(r"^(?:[^\s#'\"-][^:\n]*|'[^'\n]*'|\"[^\"\n]*\"):[ \t]*(?:#.*)?$")


def hayagriva(head: str) -> bool:
    """A YAML mapping whose first key opens an entry and whose entries have Hayagriva's types
    (not CSL YAML's list of ``- id:`` items)."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()
             if line.strip() and not line.lstrip().startswith("#") and line.strip() != "---"]
    return bool(lines) and _YAML_KEY_LINE.match(lines[0]) is not None \
        and _HAYAGRIVA_TYPE.search(head) is not None


# the dumps: JSON Lines (an object a line, its members on that line) and dblp.xml
_JSON_LINE = re.compile(r'^\{\s*"')
_DBLP_DUMP = re.compile(r"<!DOCTYPE\s+dblp\b|<dblp[\s>]")


def _json_line(head: str) -> str:
    """The first line of ``head`` when it opens a JSON object with a member on it, else ''."""
    first = _first_line(head).lstrip("\ufeff")
    return first if _JSON_LINE.match(first) else ""


def openalex_works(head: str) -> bool:
    first = _json_line(head)
    return '"https://openalex.org/W' in first and '"results"' not in first


def crossref_works(head: str) -> bool:
    first = _json_line(head)
    return '"DOI"' in first and ('"member"' in first or '"items"' in first)


def arxiv_metadata(head: str) -> bool:
    first = _json_line(head)
    return '"authors_parsed"' in first or '"update_date"' in first and '"categories"' in first


def dblp_xml(head: str) -> bool:
    return _DBLP_DUMP.search(head) is not None


class CatalogueReader:
    """The base of refbridge's own readers: a subclass names its entry (``name``) and takes its
    description, file endings and signature from the table below."""

    name: str
    description: str
    extensions: tuple[str, ...]

    def __init_subclass__(cls) -> None:
        entry = READERS[cls.name]
        cls.description, cls.extensions = entry.description, entry.extensions

    def sniff(self, head: str) -> bool:
        return READERS[self.name].sniff(head)


# -- the table ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ReaderEntry:
    """A reader as the registry needs to know it before it is loaded."""

    target: str  #: the entry point's value, ``module:attribute``
    description: str
    extensions: tuple[str, ...]
    sniff: Signature
    sniff_first: bool = False  #: a signature of its own: asked before broader readers
    generic: bool = False  #: accepts broad content: asked last
    #: whether text its signature does not accept is still read by it when the file's name
    #: names it (a ``.bib`` of comments is an empty library; a ``.txt`` may hold anything)
    by_name_alone: bool = True


@dataclass(frozen=True, slots=True)
class WriterEntry:
    """A writer as the registry needs to know it before it is loaded."""

    target: str
    description: str
    extension: str
    #: the ``module:attribute`` of the ``refbridge.coverage.Coverage`` it declares (which
    #: parts of the model it carries), or None when it declares none
    coverage: str | None = None


@dataclass(frozen=True, slots=True)
class Format:
    """One of refbridge's formats, registered once: its entry-point name, its reader and its
    writer. ``READERS``, ``WRITERS``, the entry points of ``pyproject.toml`` (written by
    ``refbridge.tools.regenerate``) and ``docs/field-coverage.md`` all come from ``FORMATS``."""

    name: str
    reader: ReaderEntry | None = None
    writer: WriterEntry | None = None


class _Targets(NamedTuple):
    """The ``module:attribute`` of a format module's ``READER``, ``WRITER`` and ``COVERAGE``."""

    reader: str
    writer: str
    coverage: str


def _module(module: str) -> _Targets:
    return _Targets(f"{module}:READER", f"{module}:WRITER", f"{module}:COVERAGE")


_BIB = ReaderEntry("refbridge.formats.bibtex.reader:READER",
                   "BibTeX and BibLaTeX .bib files (both dialects)",
                   (".bib", ".bibtex", ".biblatex"), bibtex)
_RIS_MODULE = _module("refbridge.formats.tagged.ris")
_ENDNOTE_MODULE = _module("refbridge.formats.tagged.endnote")
_MEDLINE_MODULE = _module("refbridge.formats.tagged.medline")
_ZOTERO_MODULE = _module("refbridge.formats.zotero.rdf")
_ENDNOTE_XML_MODULE = _module("refbridge.formats.xml.endnote")
_MODS_MODULE = _module("refbridge.formats.xml.mods")
_WORD_MODULE = _module("refbridge.formats.xml.word")
_CSV_MODULE = _module("refbridge.formats.sheets.csv")
_CSL_JSON_MODULE = _module("refbridge.formats.csljson")
_HAYAGRIVA_MODULE = _module("refbridge.formats.hayagriva.codec")

#: refbridge's formats, one registration each, in the order ``pyproject.toml`` lists them.
FORMATS: tuple[Format, ...] = (
    Format("bibtex", _BIB, WriterEntry(
        "refbridge.formats.bibtex.writer:BIBTEX_WRITER",
        "BibTeX (classic, for bibtex and .bst styles)", ".bib",
        "refbridge.formats.bibtex.coverage:BIBTEX")),
    Format("biblatex", replace(  # asked for by name only (--from biblatex)
        _BIB, target="refbridge.formats.bibtex.reader:BIBLATEX_READER",
        description=".bib files, each read as BibLaTeX whatever it shows", extensions=(),
        sniff=lambda head: False), WriterEntry(
        "refbridge.formats.bibtex.writer:BIBLATEX_WRITER", "BibLaTeX (for biber)", ".bib",
        "refbridge.formats.bibtex.coverage:BIBLATEX")),
    Format("profile", ReaderEntry(
        "refbridge.formats.profile:READER",
        "author profile page (plain text: owner, then source+year, title, abstract, subject)",
        (".txt", ".profile"), profile, by_name_alone=False)),
    Format("csl-json", ReaderEntry(
        _CSL_JSON_MODULE.reader, "CSL-JSON (citeproc-js, Zotero, pandoc, Mendeley)",
        (".json", ".csl.json", ".csljson"), csl_json, generic=True), WriterEntry(
        _CSL_JSON_MODULE.writer, "CSL-JSON, valid against the official schema", ".json",
        _CSL_JSON_MODULE.coverage)),
    Format("ris", ReaderEntry(
        _RIS_MODULE.reader, "RIS (Zotero, EndNote, Mendeley, publishers' exports)", (".ris",), ris),
        WriterEntry(_RIS_MODULE.writer, "RIS (imports into Zotero, EndNote, Mendeley, citation managers)",
                    ".ris", _RIS_MODULE.coverage)),
    Format("zotero", ReaderEntry(
        _ZOTERO_MODULE.reader, "Zotero RDF (Zotero: File → Export Library… → Zotero RDF)", (".rdf",),
        zotero_rdf), WriterEntry(
        _ZOTERO_MODULE.writer, "Zotero RDF (Zotero: File → Import… → A file), preprints and tags kept",
        ".rdf", _ZOTERO_MODULE.coverage)),
    Format("zotero-json", ReaderEntry(
        "refbridge.formats.zotero.json:READER",
        "Zotero item JSON: Better BibTeX's JSON export, Web API and local API answers",
        (".json",), zotero_json)),
    Format("endnote", ReaderEntry(
        _ENDNOTE_MODULE.reader, "EndNote tagged / refer (.enw: EndNote, Google Scholar, publishers)",
        (".enw", ".refer"), endnote, sniff_first=True), WriterEntry(
        _ENDNOTE_MODULE.writer,
        "EndNote tagged (.enw: File → Import in EndNote, import filter 'EndNote Import')",
        ".enw", _ENDNOTE_MODULE.coverage)),
    Format("endnote-xml", ReaderEntry(
        _ENDNOTE_XML_MODULE.reader, "EndNote XML (EndNote: File → Export… → XML)", (".xml",),
        endnote_xml, sniff_first=True), WriterEntry(
        _ENDNOTE_XML_MODULE.writer,
        "EndNote XML (EndNote: File → Import, import option 'EndNote generated XML')", ".xml",
        _ENDNOTE_XML_MODULE.coverage)),
    Format("nbib", ReaderEntry(
        _MEDLINE_MODULE.reader, "MEDLINE / PubMed .nbib (PubMed: Send to → Citation manager)",
        (".nbib", ".medline"), medline, sniff_first=True), WriterEntry(
        _MEDLINE_MODULE.writer, "MEDLINE / PubMed .nbib (imports into EndNote, Zotero, Mendeley, Papers)",
        ".nbib", _MEDLINE_MODULE.coverage)),
    Format("pubmed-xml", ReaderEntry(
        "refbridge.formats.xml.pubmed:READER",
        "PubMed XML (PubMed: Send to → File → XML; efetch)", (".xml",), pubmed_xml,
        sniff_first=True)),
    Format("wos", ReaderEntry(
        "refbridge.formats.tagged.wos:READER",
        "Web of Science / ISI tagged export (Export → Plain text file)",
        (".isi", ".ciw", ".wos"), wos, sniff_first=True)),
    Format("scopus-csv", ReaderEntry(
        "refbridge.formats.sheets.scopus:READER", "Scopus CSV export (Export → CSV)",
        (".csv",), scopus_csv, sniff_first=True)),
    Format("mods", ReaderEntry(
        _MODS_MODULE.reader, "MODS XML (Library of Congress; library catalogues, bibutils)",
        (".mods", ".mods.xml"), mods, sniff_first=True), WriterEntry(
        _MODS_MODULE.writer, "MODS XML (Library of Congress; bibutils' xml2bib, xml2ris … read it)",
        ".mods", _MODS_MODULE.coverage)),
    Format("word-xml", ReaderEntry(
        _WORD_MODULE.reader, "Word bibliography XML (Sources.xml: Word → References → Manage Sources)",
        (".xml",), word_xml, sniff_first=True), WriterEntry(
        _WORD_MODULE.writer, "Word bibliography XML (Sources.xml: Manage Sources → Browse in Word)",
        ".xml", _WORD_MODULE.coverage)),
    Format("csv", ReaderEntry(
        _CSV_MODULE.reader, "CSV spreadsheet, one row a record (documented columns: see README)",
        (".csv",), csv), WriterEntry(
        _CSV_MODULE.writer, "CSV spreadsheet, one row a record (Excel, LibreOffice, Google Sheets)",
        ".csv", _CSV_MODULE.coverage)),
    Format("orcid", ReaderEntry(
        "refbridge.formats.services.orcid:READER",
        "ORCID API v3.0 answers and downloads: works, bulk works, record (JSON, XML)",
        (".json", ".xml"), orcid)),
    Format("dblp", ReaderEntry(
        "refbridge.formats.services.dblp:READER",
        "dblp person pages (https://dblp.org/pid/PID.xml)", (".xml",), dblp)),
    Format("openalex", ReaderEntry(
        "refbridge.formats.services.openalex:READER",
        "OpenAlex works (an author's /works answer, a list of works, one work)", (".json",),
        openalex)),
    Format("semantic-scholar", ReaderEntry(
        "refbridge.formats.services.semantic_scholar:READER",
        "Semantic Scholar Graph API answers (an author's papers, papers, a paper)", (".json",),
        semantic_scholar)),
    Format("arxiv-atom", ReaderEntry(
        "refbridge.formats.services.arxiv:READER",
        "arXiv API Atom feeds (an author's listing: search_query=au:...)", (".atom", ".xml"),
        arxiv_atom)),
    Format("google-scholar-csv", ReaderEntry(
        "refbridge.formats.services.google_scholar:READER",
        "Google Scholar's CSV export of a profile (citations.csv)", (".csv",),
        google_scholar_csv, sniff_first=True)),
    Format("hayagriva", ReaderEntry(
        _HAYAGRIVA_MODULE.reader,
        "Hayagriva YAML (Typst's bibliography files; Better BibTeX's and JabRef's exports)",
        (".yml", ".yaml"), hayagriva), WriterEntry(
        _HAYAGRIVA_MODULE.writer, "Hayagriva YAML, for Typst's #bibliography(\"refs.yml\")", ".yml",
        _HAYAGRIVA_MODULE.coverage)),
    Format("dblp-xml", ReaderEntry(
        "refbridge.formats.dumps.dblp_xml:READER",
        "the dblp dump (dblp.xml, dblp.xml.gz; its DTD beside it or the bundled entities)",
        (".xml.gz",), dblp_xml, sniff_first=True, by_name_alone=False)),
    Format("openalex-works", ReaderEntry(
        "refbridge.formats.dumps.openalex_works:READER",
        "OpenAlex works dump: JSON Lines of work objects (the snapshot's part_*.gz)",
        (".jsonl", ".jsonl.gz", ".gz"), openalex_works, sniff_first=True,
        by_name_alone=False)),
    Format("crossref-works", ReaderEntry(
        "refbridge.formats.dumps.crossref_works:READER",
        "Crossref works: JSON Lines of works or of {\"items\": [...]} pages; its .tar",
        (".jsonl", ".jsonl.gz", ".json.gz", ".tar"), crossref_works, sniff_first=True,
        by_name_alone=False)),
    Format("arxiv-metadata", ReaderEntry(
        "refbridge.formats.dumps.arxiv_metadata:READER",
        "arXiv metadata snapshot (Kaggle's arxiv-metadata-oai-snapshot.json, JSON Lines)",
        (".jsonl", ".json"), arxiv_metadata, sniff_first=True, by_name_alone=False)),
)

#: Inputs that name a library rather than a file (``zotero-web:user:1/Reading``): the kind of
#: address (the text before its first colon) -> the function that reads the records of such an
#: input (``module:function``, called with the input and the run's diagnostics).
SOURCES: dict[str, str] = {
    kind: "refbridge.zotero_bridge.pull:read_address"
    for kind in ("zotero-desktop", "zotero-web", "zotero-sqlite")
}

READERS: dict[str, ReaderEntry] = {f.name: f.reader for f in FORMATS if f.reader is not None}
WRITERS: dict[str, WriterEntry] = {f.name: f.writer for f in FORMATS if f.writer is not None}
