"""What each of refbridge's own formats is, known without importing the format's module.

The registry lists formats, tells an input's format from its name and first kilobytes, and picks
a writer by file ending on every command; importing every format module to learn that cost about
25 ms of each command. This table holds, per entry-point name, the descriptions, file endings and
content signature of the format, and the signature functions themselves, which look only at the
text (``re`` and ``str`` methods); and which inputs name a library rather than a file, with
the function that reads them (``SOURCES``). refbridge's readers subclass ``CatalogueReader``,
which takes their description, file endings and ``sniff`` from here, so the two cannot
disagree; a test checks every entry against the module it describes.

Third-party formats need no entry here: the registry loads a format it does not find in this
table to ask it. This module must never import a format module or parse a document.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

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


_BIB = ReaderEntry("refbridge.formats.bibtex.reader:READER",
                   "BibTeX and BibLaTeX .bib files (both dialects)",
                   (".bib", ".bibtex", ".biblatex"), bibtex)

READERS: dict[str, ReaderEntry] = {
    "bibtex": _BIB,
    "biblatex": replace(  # asked for by name only (--from biblatex)
        _BIB, target="refbridge.formats.bibtex.reader:BIBLATEX_READER",
        description=".bib files, each read as BibLaTeX whatever it shows", extensions=(),
        sniff=lambda head: False),
    "profile": ReaderEntry(
        "refbridge.formats.profile:READER",
        "author profile page (plain text: owner, then source+year, title, abstract, subject)",
        (".txt", ".profile"), profile, by_name_alone=False),
    "csl-json": ReaderEntry(
        "refbridge.formats.csljson:READER", "CSL-JSON (citeproc-js, Zotero, pandoc, Mendeley)",
        (".json", ".csl.json", ".csljson"), csl_json, generic=True),
    "ris": ReaderEntry(
        "refbridge.formats.tagged.ris:READER",
        "RIS (Zotero, EndNote, Mendeley, publishers' exports)", (".ris",), ris),
    "zotero": ReaderEntry(
        "refbridge.formats.zotero.rdf:READER",
        "Zotero RDF (Zotero: File → Export Library… → Zotero RDF)", (".rdf",), zotero_rdf),
    "zotero-json": ReaderEntry(
        "refbridge.formats.zotero.json:READER",
        "Zotero item JSON: Better BibTeX's JSON export, Web API and local API answers",
        (".json",), zotero_json),
    "endnote": ReaderEntry(
        "refbridge.formats.tagged.endnote:READER",
        "EndNote tagged / refer (.enw: EndNote, Google Scholar, publishers)",
        (".enw", ".refer"), endnote, sniff_first=True),
    "endnote-xml": ReaderEntry(
        "refbridge.formats.xml.endnote:READER", "EndNote XML (EndNote: File → Export… → XML)",
        (".xml",), endnote_xml, sniff_first=True),
    "nbib": ReaderEntry(
        "refbridge.formats.tagged.medline:READER",
        "MEDLINE / PubMed .nbib (PubMed: Send to → Citation manager)", (".nbib", ".medline"),
        medline, sniff_first=True),
    "pubmed-xml": ReaderEntry(
        "refbridge.formats.xml.pubmed:READER",
        "PubMed XML (PubMed: Send to → File → XML; efetch)", (".xml",), pubmed_xml,
        sniff_first=True),
    "wos": ReaderEntry(
        "refbridge.formats.tagged.wos:READER",
        "Web of Science / ISI tagged export (Export → Plain text file)",
        (".isi", ".ciw", ".wos"), wos, sniff_first=True),
    "scopus-csv": ReaderEntry(
        "refbridge.formats.sheets.scopus:READER", "Scopus CSV export (Export → CSV)",
        (".csv",), scopus_csv, sniff_first=True),
    "mods": ReaderEntry(
        "refbridge.formats.xml.mods:READER",
        "MODS XML (Library of Congress; library catalogues, bibutils)", (".mods", ".mods.xml"),
        mods, sniff_first=True),
    "word-xml": ReaderEntry(
        "refbridge.formats.xml.word:READER",
        "Word bibliography XML (Sources.xml: Word → References → Manage Sources)", (".xml",),
        word_xml, sniff_first=True),
    "csv": ReaderEntry(
        "refbridge.formats.sheets.csv:READER",
        "CSV spreadsheet, one row a record (documented columns: see README)", (".csv",), csv),
    "orcid": ReaderEntry(
        "refbridge.formats.services.orcid:READER",
        "ORCID API v3.0 answers and downloads: works, bulk works, record (JSON, XML)",
        (".json", ".xml"), orcid),
    "dblp": ReaderEntry(
        "refbridge.formats.services.dblp:READER",
        "dblp person pages (https://dblp.org/pid/PID.xml)", (".xml",), dblp),
    "openalex": ReaderEntry(
        "refbridge.formats.services.openalex:READER",
        "OpenAlex works (an author's /works answer, a list of works, one work)", (".json",),
        openalex),
    "semantic-scholar": ReaderEntry(
        "refbridge.formats.services.semantic_scholar:READER",
        "Semantic Scholar Graph API answers (an author's papers, papers, a paper)", (".json",),
        semantic_scholar),
    "arxiv-atom": ReaderEntry(
        "refbridge.formats.services.arxiv:READER",
        "arXiv API Atom feeds (an author's listing: search_query=au:...)", (".atom", ".xml"),
        arxiv_atom),
    "google-scholar-csv": ReaderEntry(
        "refbridge.formats.services.google_scholar:READER",
        "Google Scholar's CSV export of a profile (citations.csv)", (".csv",),
        google_scholar_csv, sniff_first=True),
    "hayagriva": ReaderEntry(
        "refbridge.formats.hayagriva:READER",
        "Hayagriva YAML (Typst's bibliography files; Better BibTeX's and JabRef's exports)",
        (".yml", ".yaml"), hayagriva),
}

#: Inputs that name a library rather than a file (``zotero-web:user:1/Reading``): the kind of
#: address (the text before its first colon) -> the function that reads the records of such an
#: input (``module:function``, called with the input and the run's diagnostics).
SOURCES: dict[str, str] = {
    kind: "refbridge.zotero_bridge.pull:read_address"
    for kind in ("zotero-desktop", "zotero-web", "zotero-sqlite")
}

WRITERS: dict[str, WriterEntry] = {
    "bibtex": WriterEntry("refbridge.formats.bibtex.writer:BIBTEX_WRITER",
                          "BibTeX (classic, for bibtex and .bst styles)", ".bib"),
    "biblatex": WriterEntry("refbridge.formats.bibtex.writer:BIBLATEX_WRITER",
                            "BibLaTeX (for biber)", ".bib"),
    "csl-json": WriterEntry("refbridge.formats.csljson:WRITER",
                            "CSL-JSON, valid against the official schema", ".json"),
    "ris": WriterEntry("refbridge.formats.tagged.ris:WRITER",
                       "RIS (imports into Zotero, EndNote, Mendeley, citation managers)", ".ris"),
    "zotero": WriterEntry("refbridge.formats.zotero.rdf:WRITER",
                          "Zotero RDF (Zotero: File → Import… → A file), preprints and tags kept",
                          ".rdf"),
    "endnote": WriterEntry(
        "refbridge.formats.tagged.endnote:WRITER",
        "EndNote tagged (.enw: File → Import in EndNote, import filter 'EndNote Import')", ".enw"),
    "endnote-xml": WriterEntry(
        "refbridge.formats.xml.endnote:WRITER",
        "EndNote XML (EndNote: File → Import, import option 'EndNote generated XML')", ".xml"),
    "nbib": WriterEntry("refbridge.formats.tagged.medline:WRITER",
                        "MEDLINE / PubMed .nbib (imports into EndNote, Zotero, Mendeley, Papers)",
                        ".nbib"),
    "mods": WriterEntry("refbridge.formats.xml.mods:WRITER",
                        "MODS XML (Library of Congress; bibutils' xml2bib, xml2ris … read it)",
                        ".mods"),
    "word-xml": WriterEntry("refbridge.formats.xml.word:WRITER",
                            "Word bibliography XML (Sources.xml: Manage Sources → Browse in Word)",
                            ".xml"),
    "csv": WriterEntry("refbridge.formats.sheets.csv:WRITER",
                       "CSV spreadsheet, one row a record (Excel, LibreOffice, Google Sheets)",
                       ".csv"),
    "hayagriva": WriterEntry("refbridge.formats.hayagriva:WRITER",
                             "Hayagriva YAML, for Typst's #bibliography(\"refs.yml\")", ".yml"),
}
